"""``dicetable odds`` and the odds line of ``dicetable check``."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from reader.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_odds_json_has_exact_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "odds", "check", "d20", "--modifier", "3", "--difficulty", "14", "--json")
    assert code == 0
    odds = json.loads(out)
    assert Fraction(odds["success_exact"]) == Fraction(10, 20)
    assert odds["total"]["p"]["4"] == pytest.approx(0.05)


def test_odds_system_shorthand_is_the_check(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["opend6", "--code", "3D+1", "--difficulty", "moderate", "--character-points", "1", "--json"]
    _, short = run(capsys, "odds", *args)
    _, full = run(capsys, "odds", "check", *args)
    assert json.loads(short)["success_exact"] == json.loads(full)["success_exact"]


@pytest.mark.parametrize("argv", [
    ["attack", "opend6", "--code", "4D", "--difficulty", "12", "--critical", "complication"],
    ["opposed", "opend6", "--code", "3D", "--opponent", "2D+2", "--opponent-fate-point"],
    ["opposed", "d6pool", "--dice", "10", "--opponent-dice", "10", "--ties", "reroll"],
    ["check", "d6pool", "--dice", "4", "--difficulty", "3d6", "--helpers", "1"],
    ["attack", "true20", "--bonus", "4", "--defense", "15"],
    ["opposed", "osr", "--ability", "3", "--opponent-ability", "2"],
])
def test_every_kind_of_check_can_be_asked(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out = run(capsys, "odds", *argv, "--json")
    odds = json.loads(out)
    assert code == 0 and 0 < odds["success"] < 1
    assert sum(odds["outcomes"].values()) == pytest.approx(1)


def test_human_odds_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "odds", "opend6", "--code", "10D+2", "--difficulty", "35", "--critical", "complication")
    assert code == 0
    assert "critical failure" in out and "complication" in out and "distribution of the total" in out
    assert "exactly" in out


def test_check_prints_odds_before_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "check", "opend6", "--code", "2D", "--difficulty", "7", "--faces", "3,4")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("odds: success ") and lines[1].startswith("SUCCESS")
    _, quiet = run(capsys, "check", "opend6", "--code", "2D", "--difficulty", "7", "--faces", "3,4", "--no-odds")
    assert "odds" not in quiet and len(quiet.splitlines()) == 1


def test_check_json_stays_one_object_with_odds(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(capsys, "check", "d6pool", "--dice", "2", "--difficulty", "7", "--faces", "3,4", "--json")
    result = json.loads(out)
    assert result["success"] is True and Fraction(result["odds"]["success_exact"]) == Fraction(21, 36)
    _, out = run(capsys, "check", "d6pool", "--dice", "2", "--difficulty", "7", "--faces", "3,4", "--json", "--no-odds")
    assert "odds" not in json.loads(out)


def test_secret_roll_shows_no_odds(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(capsys, "check", "osr", "--ability", "3", "--secret", "--faces", "12")
    assert "odds" not in out
    _, out = run(capsys, "check", "osr", "--ability", "3", "--secret", "--reveal", "--faces", "12")
    assert out.startswith("odds: ")


def test_bad_options_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "opend6", "--code", "2D", "--difficulty", "9", "--fate-point", "--character-points", "1"])
    assert code == 2
    assert capsys.readouterr().err.startswith("dicetable: error: ")
