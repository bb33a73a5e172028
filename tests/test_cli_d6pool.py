"""``dicetable ACTION d6pool`` through the real command line with scripted faces."""

from __future__ import annotations

import pytest

from reader.cli import d6pool as cli
from cli_run import assert_one_line_error, dicetable, options_without_help, resolved  # the command line in-process
from test_cli_opend6 import faces


def test_check_against_a_number(capsys):
    result = resolved(capsys, "check", "d6pool", "--dice", "3", "--difficulty", "10", "--faces", "3,3,4")
    assert {k: result[k] for k in ("system", "total", "difficulty", "margin", "success", "outcome",
                                   "complication")} == {
        "system": "d6pool", "total": 10, "difficulty": 10, "margin": 0, "success": True, "outcome": "success",
        "complication": None}
    assert faces(result) == [(3, None), (3, None), (4, None)]


def test_check_against_a_rating_name(capsys):
    result = resolved(capsys, "check", "d6pool", "--dice", "3", "--difficulty", "straightforward",
                      "--faces", "4,4,5")
    assert (result["difficulty"], result["success"], result["margin"]) == (14, False, -1)


def test_check_against_gm_dice_thrown_first(capsys):
    result = resolved(capsys, "check", "d6pool", "--dice", "2", "--difficulty", "4d6",
                      "--faces", "1,2,3,4,6,5")
    assert faces(result) == [(1, "difficulty"), (2, "difficulty"), (3, "difficulty"), (4, "difficulty"),
                             (6, None), (5, None)]
    assert (result["difficulty"], result["total"], result["success"]) == (10, 11, True)


def test_check_helpers_remove_gm_dice(capsys):
    result = resolved(capsys, "check", "d6pool", "--dice", "2", "--difficulty", "4d6", "--helpers", "5",
                      "--faces", "6,3,2")
    assert result["difficulty"] == 6 and not result["success"] and result["detail"]["difficulty"] == "1d6"


def test_challenge(capsys):
    result = resolved(capsys, "challenge", "d6pool", "--part", "2:easy", "--part", "2:easy", "--part", "1:1d6",
                      "--faces", "1,1,6,6,4,2,1,5", "--no-odds")
    parts = result["parts"]
    assert [p["difficulty"] for p in parts[:2]] == [10, 14]
    assert [p["success"] for p in parts] == [False, False, False]
    assert parts[2]["detail"]["difficulty"] == "3d6"  # two failures: 1d6 + 2d6
    assert parts[2]["difficulty"] == 7 and parts[2]["total"] == 5
    assert result["outcome"] == "failure" and len(result["faces"]) == 2 + 2 + 3 + 1


def test_opposed(capsys):
    result = resolved(capsys, "opposed", "d6pool", "--dice", "2", "--opponent-dice", "2", "--ties", "reroll",
                      "--faces", "3,4,5,2,6,1,1,1")
    assert (result["total"], result["difficulty"], result["success"]) == (7, 2, True)
    assert result["detail"]["rerolls"] == 1


def test_attack_alone(capsys):
    result = resolved(capsys, "attack", "d6pool", "--power", "3", "--faces", "5")
    assert (result["total"], result["difficulty"], result["margin"]) == (15, None, None)


def test_attack_against_block(capsys):
    result = resolved(capsys, "attack", "d6pool", "--power", "3", "--block", "4", "--faces", "4,3")
    assert (result["total"], result["difficulty"], result["success"]) == (12, 12, True)
    result = resolved(capsys, "attack", "d6pool", "--power", "3", "--block", "4", "--ties", "resistor",
                      "--faces", "4,3")
    assert not result["success"]


def test_block(capsys):
    result = resolved(capsys, "block", "d6pool", "--resilience", "2", "--attack", "9", "--faces", "5")
    assert (result["total"], result["difficulty"], result["success"]) == (10, 9, True)


def test_initiative(capsys):
    result = resolved(capsys, "initiative", "d6pool", "--names", "Ann", "Bob", "Cy", "--faces", "5,5,2,1,6",
                      "--no-odds")
    assert result["order"] == ["Bob", "Cy", "Ann"] and result["first"] == "Bob"
    assert result["rolls"] == {"Ann": [5, 1], "Bob": [5, 6], "Cy": [2]}
    code, out, _ = dicetable(capsys, "initiative", "d6pool", "--names", "Ann", "Bob", "Cy", "--by-roll",
                             "--faces", "2,4,3", "--no-odds")
    assert code == 0 and out.splitlines()[-1] == "initiative (by roll): Bob (4), Cy (3), Ann (2)"


@pytest.mark.parametrize("argv, message", [
    (["check", "d6pool", "--dice", "3", "--difficulty", "4d8"], "difficulty"),
    (["check", "d6pool", "--dice", "0", "--difficulty", "7"], "1 or more"),
    (["check", "d6pool", "--dice", "3", "--difficulty", "7", "--faces", "1,2"], "too few faces"),
    (["check", "d6pool", "--dice", "3", "--difficulty", "7", "--faces", "1,2,3,4"], "too many faces"),
    (["check", "d6pool", "--dice", "3", "--difficulty", "7", "--faces", "1,7,3"], "cannot show 7"),
    (["check", "d6pool", "--dice", "2", "--difficulty", "7", "--helpers", "-1"], "helpers"),
    (["challenge", "d6pool", "--part", "2:7"], "two parts"),
    (["challenge", "d6pool", "--part", "27", "--part", "2:7"], "DICE:DIFFICULTY"),
    (["attack", "d6pool", "--power", "0"], "1 or more"),
    (["block", "d6pool", "--resilience", "2", "--ties", "reroll"], "ties"),
    (["initiative", "d6pool", "--names", "Ann", "Ann"], "different names"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    assert_one_line_error(capsys, argv, message)


def test_every_option_has_help_and_every_action_prints_it(capsys):
    assert {a.name for a in cli.ACTIONS} == {"check", "challenge", "opposed", "attack", "block", "initiative"}
    assert options_without_help(cli.ACTIONS) == []
    for action in cli.ACTIONS:
        code, out, _ = dicetable(capsys, action.name, "d6pool", "--help")
        assert code == 0 and "--faces" in out
