"""``dicetable roll``, ``check d20`` and the command line's error contract."""

from __future__ import annotations

import json

import pytest

from cli_run import assert_one_line_error
from reader.cli.main import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main([*argv, "--json", "--no-odds"] if argv[0] == "check" else [*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_roll_notation_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "roll", "1d8+1d10-2", "--faces", "5,0")
    assert out["total"] == 5 + 10 - 2
    assert {"system", "total", "difficulty", "margin", "success", "outcome", "complication", "faces"} <= set(out)
    assert out["faces"] == [{"value": 5, "sides": 8, "role": None},
                            {"value": 10, "sides": 10, "role": None, "shown": 0}]


def test_roll_percentile_tens_first_with_colour(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "roll", "d%", "--faces", "4,2", "--tens", "blue")
    assert out["total"] == 42
    assert out["faces"][0] == {"value": 4, "sides": 10, "role": "tens", "shown": 4, "colour": "blue"}
    assert out["faces"][1]["role"] == "units"


def test_roll_opend6_code_explodes_the_wild_die(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "roll", "3D+2", "--faces", "6,1,2,6,3")
    assert out["system"] == "opend6"
    assert out["total"] == 6 + 1 + 2 + 6 + 3 + 2
    assert [f["role"] for f in out["faces"]] == ["wild", None, None, "wild", "wild"]


def test_check_d20_meets_target(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "check", "d20", "--modifier", "2", "--difficulty", "15", "--faces", "13")
    assert (out["total"], out["success"], out["margin"], out["outcome"]) == (15, True, 0, "success")


def test_roll_multipliers_and_rounding(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "roll", "1d6", "--faces", "5", "--times", "2", "--times", "2")["total"] == 15
    assert run_json(capsys, "roll", "1d6", "--faces", "5", "--divide", "2")["total"] == 2
    assert run_json(capsys, "roll", "1d6", "--faces", "5", "--divide", "2", "--round", "up")["total"] == 3
    assert run_json(capsys, "roll", "1d4", "--faces", "1", "--divide", "3", "--minimum", "1")["total"] == 1


@pytest.mark.parametrize("argv,message", [
    (["roll", "100000d6"], "more than 1000 dice"),
    (["roll", "4D+"], "malformed die code"),
    (["roll", "2d7"], "no d7"),
    (["roll", "2d6", "--faces", "3"], "too few faces"),
    (["roll", "2d6", "--faces", "3,4,5"], "too many faces"),
    (["roll", "2d6", "--faces", "3,7"], "cannot show 7"),
    (["roll", "1d10", "--faces", "10"], "digit 0-9"),
    (["roll", "2d6", "--source", "nowhere"], "unknown source"),
    (["roll", "4D", "--times", "2"], "apply to dice notation"),
    (["check", "nosuchsystem"], "invalid choice"),
    (["check", "d20", "--difficulty", "x"], "invalid int"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert_one_line_error(capsys, argv, message)
