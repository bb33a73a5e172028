"""``dicetable ACTION true20``: options, JSON output and one-line errors."""

from __future__ import annotations


import pytest

from reader.cli import true20 as cli
from cli_run import assert_one_line_error, options_without_help, dicetable as run_cli, resolved as json_of  # the command line in-process


def test_check_prints_the_result_fields(capsys):
    out = json_of(capsys, "check", "true20", "--modifier", "5", "--difficulty", "tough", "--faces", "9")
    assert (out["system"], out["total"], out["difficulty"], out["margin"]) == ("true20", 14, 15, -1)
    assert (out["success"], out["outcome"]) == (False, "failure")
    assert out["faces"] == [{"value": 9, "sides": 20, "role": None}]


@pytest.mark.parametrize("name, value", [("very-easy", 0), ("Average", 10), ("nearly_impossible", 40),
                                         ("superheroic", 35), ("22", 22)])
def test_check_accepts_named_difficulties(capsys, name, value):
    out = json_of(capsys, "check", "true20", "--modifier", "0", "--difficulty", name, "--faces", "20")
    assert out["difficulty"] == value and out["success"] == (20 >= value)


def test_take_asks_for_no_dice(capsys):
    out = json_of(capsys, "check", "true20", "--modifier", "3", "--difficulty", "12", "--take", "10",
                  "--faces", "")
    assert (out["total"], out["success"], out["faces"]) == (13, True, [])


def test_circumstances_tools_and_challenges(capsys):
    out = json_of(capsys, "check", "true20", "--modifier", "8", "--difficulty", "15", "--favourable", "--favourable",
                  "--harder", "--tools", "missing", "--fast", "1", "--action-time", "standard", "--faces", "10")
    # 10 + 8 + 4 - 4 = 18 against 15 + 2 + 5 = 22
    assert (out["total"], out["difficulty"], out["margin"]) == (18, 22, -4)
    assert out["detail"]["action"] == "move"


def test_challenge_as_penalty(capsys):
    out = json_of(capsys, "check", "true20", "--modifier", "8", "--difficulty", "15", "--challenge", "2",
                  "--challenge-as", "penalty", "--faces", "10")
    assert (out["total"], out["difficulty"]) == (8, 15)


def test_calculated_risk_and_its_carried_bonus(capsys):
    first = json_of(capsys, "check", "true20", "--modifier", "8", "--difficulty", "10", "--risk", "1",
                    "--consequences", "--faces", "7")
    assert first["success"] and first["detail"]["follow_up_bonus"] == 5
    second = json_of(capsys, "check", "true20", "--modifier", "2", "--difficulty", "15", "--carried-bonus",
                     str(first["detail"]["follow_up_bonus"]), "--faces", "8")
    assert second["total"] == 15 and second["success"]


@pytest.mark.parametrize("options, modifier, kind", [
    (["--ability", "3"], 3, "ability"), (["--ability", "3", "--rank", "4"], 7, "skill"),
    (["--ability", "3", "--adept-level", "2"], 8, "power")])
def test_skill_ability_and_power_checks(capsys, options, modifier, kind):
    out = json_of(capsys, "check", "true20", *options, "--difficulty", "10", "--faces", "5")
    assert out["total"] == 5 + modifier and out["detail"]["kind"] == kind


def test_attack_natural_20_threatens(capsys):
    out = json_of(capsys, "attack", "true20", "--bonus", "2", "--defense", "25", "--faces", "20")
    assert (out["total"], out["difficulty"], out["success"], out["outcome"]) == (22, 25, True, "success")
    assert out["detail"]["critical_threat"] is True


def test_attack_natural_1_misses(capsys):
    out = json_of(capsys, "attack", "true20", "--bonus", "20", "--defense", "12", "--faces", "1")
    assert out["success"] is False and out["margin"] == 9


def test_toughness_save_against_damage(capsys):
    out = json_of(capsys, "save", "true20", "--bonus", "4", "--damage", "3", "--faces", "4")
    assert (out["total"], out["difficulty"], out["margin"]) == (8, 18, -10)
    assert out["detail"]["condition"] == "disabled"
    out = json_of(capsys, "save", "true20", "--bonus", "4", "--damage", "3", "--nonlethal", "--faces", "4")
    assert out["detail"]["condition"] == "staggered"


def test_save_with_difficulty_and_kind(capsys):
    out = json_of(capsys, "save", "true20", "--bonus", "4", "--difficulty", "average", "--kind", "will",
                  "--faces", "6")
    assert out["success"] and out["detail"]["ability"] == "wisdom"


def test_opposed_rerolls_a_tie_with_equal_modifiers(capsys):
    out = json_of(capsys, "opposed", "true20", "--modifier", "2", "--opponent-modifier", "2",
                  "--faces", "9,9,4,12")
    assert (out["total"], out["difficulty"], out["success"]) == (6, 14, False)
    assert [face["value"] for face in out["faces"]] == [9, 9, 4, 12]


def test_compare_without_dice_and_with_a_coin(capsys):
    assert json_of(capsys, "compare", "true20", "--score", "4", "--opponent-score", "2", "--faces", "")["success"]
    out = json_of(capsys, "compare", "true20", "--score", "2", "--opponent-score", "2", "--faces", "1")
    assert out["success"] is False and out["faces"] == [{"value": 1, "sides": 2, "role": "coin"}]


def test_aid_rolls_helpers_then_the_leader(capsys):
    out = json_of(capsys, "aid", "true20", "--modifier", "5", "--difficulty", "20", "--helper", "4",
                  "--helper", "2@20", "--faces", "16,6")
    # helper 1: 20 -> +3, helper 2 takes 20: 22 -> +3; leader 6 + 5 + 6 = 17
    assert [h["bonus"] for h in out["detail"]["helpers"]] == [3, 3]
    assert (out["total"], out["success"]) == (17, False)


def test_simultaneous(capsys):
    out = json_of(capsys, "simultaneous", "true20", "--modifier", "6", "--difficulty", "10",
                  "--second-modifier", "12", "--second-difficulty", "average", "--faces", "9,8")
    assert (out["total"], out["difficulty"], out["success"]) == (15, 15, True)
    assert out["detail"]["secondary"]["total"] == 10 and out["detail"]["secondary"]["success"]


def test_human_output_is_one_summary_line(capsys):
    code, out, _ = run_cli(capsys, "check", "true20", "--modifier", "5", "--difficulty", "15", "--faces", "10")
    assert code == 0 and out.strip().splitlines()[-1].startswith("SUCCESS: total 15 vs 15 (margin +0)")


@pytest.mark.parametrize("argv, message", [
    (["check", "true20", "--modifier", "5", "--difficulty", "15", "--faces", ""], "too few faces"),
    (["check", "true20", "--modifier", "5", "--difficulty", "15", "--faces", "3,4"], "too many faces"),
    (["check", "true20", "--modifier", "5", "--difficulty", "15", "--faces", "21"], "cannot show 21"),
    (["check", "true20", "--modifier", "5", "--difficulty", "hard", "--faces", "3"], "very easy"),
    (["check", "true20", "--modifier", "5", "--difficulty", "15", "--take", "10", "--pressure"], "cannot take 10"),
    (["check", "true20", "--modifier", "5", "--difficulty", "15", "--take", "20", "--consequences"],
     "cannot take 20"),
    (["check", "true20", "--modifier", "5", "--difficulty", "15", "--take", "1"], "taking 1"),
    (["check", "true20", "--modifier", "5", "--difficulty", "15", "--take", "7"], "invalid choice"),
    (["check", "true20", "--modifier", "5", "--ability", "2", "--difficulty", "15"], "not allowed"),
    (["check", "true20", "--modifier", "5", "--rank", "2", "--difficulty", "15"], "--rank"),
    (["check", "true20", "--ability", "1", "--adept-level", "0", "--difficulty", "15"], "adept level"),
    (["compare", "true20", "--score", "2", "--opponent-score", "2", "--faces", "3"], "cannot show 3"),
    (["aid", "true20", "--modifier", "5", "--difficulty", "15", "--helper", "3@10"], "cannot take 10"),
    (["aid", "true20", "--modifier", "5", "--difficulty", "15", "--helper", "x"], "MOD@TAKE"),
    (["save", "true20", "--bonus", "2", "--difficulty", "10", "--nonlethal", "--faces", "3"], "--nonlethal"),
    (["opposed", "true20", "--modifier", "2", "--opponent-modifier", "2", "--faces", "5,5"], "too few faces"),
])
def test_bad_input_is_one_line_and_exit_code_2(capsys, argv, message):
    assert_one_line_error(capsys, [*argv, "--json"], message)


@pytest.mark.parametrize("action", cli.ACTIONS, ids=lambda action: action.name)
def test_every_option_has_help(action):
    assert options_without_help([action]) == [] and action.system == "true20"
