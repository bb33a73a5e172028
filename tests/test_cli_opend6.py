"""``dicetable check|attack|opposed opend6`` through the real command line with scripted faces."""

from __future__ import annotations


import pytest

from reader.cli import opend6 as cli
from cli_run import assert_one_line_error, dicetable, options_without_help, resolved  # the command line in-process


def faces(result: dict) -> list[tuple[int, str | None]]:
    return [(f["value"], f["role"]) for f in result["faces"]]


def test_check_explosion_chain(capsys):
    result = resolved(capsys, "check", "opend6", "--code", "4D+1", "--difficulty", "15", "--faces", "6,4,2,5,6,3")
    assert {k: result[k] for k in ("system", "total", "difficulty", "margin", "success", "outcome",
                                   "complication")} == {
        "system": "opend6", "total": 27, "difficulty": 15, "margin": 12, "success": True,
        "outcome": "critical_success", "complication": None}
    assert faces(result) == [(6, "wild"), (4, None), (2, None), (5, None), (6, "wild"), (3, "wild")]
    assert "colour" not in result["faces"][0]  # scripted dice have no colour unless --wild names one


def test_wild_colour_named_on_the_command_line(capsys):
    result = resolved(capsys, "check", "opend6", "--code", "2D", "--difficulty", "5", "--faces", "3,4",
                      "--wild", "green")
    assert result["faces"][0]["colour"] == "green" and "colour" not in result["faces"][1]


def test_check_cancel_is_the_default(capsys):
    result = resolved(capsys, "check", "opend6", "--code", "4D+1", "--difficulty", "10", "--faces", "1,4,2,5")
    assert (result["total"], result["success"], result["outcome"]) == (7, False, "critical_failure")
    assert result["complication"] is None and result["detail"]["cancelled"] == [1, 5]


def test_check_complication_option(capsys):
    result = resolved(capsys, "check", "opend6", "--code", "4D+1", "--difficulty", "15", "--critical",
                      "complication", "--faces", "1,4,2,5")
    assert (result["total"], result["margin"], result["outcome"], result["complication"]) == (
        13, -2, "critical_failure", "moderate")


def test_check_difficulty_by_name(capsys):
    result = resolved(capsys, "check", "opend6", "--code", "3D", "--difficulty", "very difficult",
                      "--faces", "4,4,4")
    assert result["difficulty"] == 25 and not result["success"]


def test_check_character_points_before_and_after(capsys):
    result = resolved(capsys, "check", "opend6", "--code", "2D", "--difficulty", "15", "--character-points", "1",
                      "--character-points-after", "1", "--faces", "2,1,3,6,4")
    # main throw: wild 2, CP 1 (just 1), plain 3; after: CP 6 explodes into 4
    assert faces(result) == [(2, "wild"), (1, "bonus_wild"), (3, None), (6, "bonus_wild"), (4, "bonus_wild")]
    assert result["total"] == 16 and result["outcome"] == "success"


def test_check_fate_point_doubles_the_dice(capsys):
    result = resolved(capsys, "check", "opend6", "--code", "2D+1", "--difficulty", "10", "--fate-point",
                      "--faces", "2,2,2,2")
    assert result["total"] == 9 and [r for _, r in faces(result)].count("wild") == 1


def test_check_modifiers(capsys):
    result = resolved(capsys, "check", "opend6", "--code", "3D", "--difficulty", "10", "--untrained",
                      "--rush", "25", "--related", "4", "--extra-time", "1", "--bonus-pips", "1",
                      "--faces", "3,3,3,3")
    assert result["difficulty"] == 20 and result["total"] == 12 + 2 + 1
    assert result["detail"]["extra_time_dice"] == 1


def test_check_untrained_modifier_value(capsys):
    assert resolved(capsys, "check", "opend6", "--code", "3D", "--difficulty", "10", "--untrained", "2",
                    "--faces", "3,3,3")["difficulty"] == 12


def test_check_ties_lose(capsys):
    argv = ("check", "opend6", "--code", "3D", "--difficulty", "12", "--faces", "4,4,4")
    assert resolved(capsys, *argv)["success"]
    assert not resolved(capsys, *argv, "--ties-lose")["success"]


def test_attack_reports_damage_bonus(capsys):
    result = resolved(capsys, "attack", "opend6", "--code", "3D", "--difficulty", "5", "--faces", "5,5,5")
    assert result["detail"]["damage_bonus"] == 2 and result["margin"] == 10


def test_opposed(capsys):
    result = resolved(capsys, "opposed", "opend6", "--code", "3D", "--opponent", "2D+2", "--opponent-critical",
                      "complication", "--faces", "4,4,4,1,6")
    assert (result["total"], result["difficulty"], result["success"]) == (12, 9, True)
    assert result["detail"]["resistor"]["complication"] == "moderate"  # the resistor lost by 3
    assert faces(result) == [(4, "wild"), (4, None), (4, None), (1, "wild"), (6, None)]


def test_human_output(capsys):
    code, out, _ = dicetable(capsys, "check", "opend6", "--code", "2D", "--difficulty", "easy",
                             "--faces", "6,5,1")
    assert code == 0 and out.splitlines()[-1].startswith("CRITICAL SUCCESS: total 12 vs 10")


def test_virtual_dice_with_a_seed_are_repeatable(capsys):
    argv = ("check", "opend6", "--code", "5D+2", "--difficulty", "moderate", "--seed", "7")
    first, second = resolved(capsys, *argv), resolved(capsys, *argv)
    assert first == second and first["system"] == "opend6" and len(first["faces"]) >= 5


@pytest.mark.parametrize("argv, message", [
    (["--code", "4D+", "--difficulty", "15"], "die code"),
    (["--code", "0D", "--difficulty", "15"], "at least 1D"),
    (["--code", "4D", "--difficulty", "hard"], "difficulty"),
    (["--code", "3D", "--difficulty", "15", "--faces", "4,4"], "too few faces"),
    (["--code", "3D", "--difficulty", "15", "--faces", "4,4,4,4"], "too many faces"),
    (["--code", "3D", "--difficulty", "15", "--faces", "4,7,4"], "cannot show 7"),
    (["--code", "3D", "--difficulty", "15", "--faces", "6,4,4"], "too few faces"),
    (["--code", "3D", "--difficulty", "15", "--rush", "80"], "rush"),
    (["--code", "3D", "--difficulty", "15", "--fate-point", "--character-points", "1"], "same roll"),
    (["--code", "3D", "--difficulty", "15", "--character-points", "-1"], "character-points"),
    (["--code", "1D", "--difficulty", "15", "--bonus-dice", "-1"], "no dice"),
    (["--code", "3D", "--difficulty", "-3"], "negative"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    assert_one_line_error(capsys, ["check", "opend6", *argv], message)


def test_every_option_has_help_and_every_action_prints_it(capsys):
    assert {a.name for a in cli.ACTIONS} == {"check", "attack", "opposed"}
    assert options_without_help(cli.ACTIONS) == []
    for action in cli.ACTIONS:
        code, out, _ = dicetable(capsys, action.name, "opend6", "--help")
        assert code == 0 and "--character-points" in out and "--faces" in out
