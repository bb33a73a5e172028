"""``dicetable ACTION osr``: options, JSON output, secret rolls and one-line errors."""

from __future__ import annotations

import argparse
import json

import pytest

from reader.cli import osr as cli
from cli_run import assert_one_line_error, options_without_help, dicetable as run_cli, resolved as json_of  # the command line in-process
from rules.dice import Face, Throw


@pytest.mark.parametrize("difficulty, dc", [([], 16), (["--difficulty", "easy"], 11),
                                            (["--difficulty", "Difficult"], 21),
                                            (["--difficulty", "extraordinary"], 26), (["--difficulty", "15"], 15)])
def test_check_difficulties(capsys, difficulty, dc):
    out = json_of(capsys, "check", "osr", "--ability", "4", *difficulty, "--faces", "12")
    assert (out["system"], out["total"], out["difficulty"], out["margin"]) == ("osr", 16, dc, 16 - dc)
    assert out["success"] == (16 >= dc) and out["faces"] == [{"value": 12, "sides": 20, "role": None}]


def test_check_critical_outcomes(capsys):
    high = json_of(capsys, "check", "osr", "--ability", "4", "--difficulty", "easy", "--faces", "17")
    low = json_of(capsys, "check", "osr", "--ability", "0", "--difficulty", "difficult", "--faces", "11")
    assert (high["margin"], high["outcome"], high["success"]) == (10, "critical_success", True)
    assert (low["margin"], low["outcome"], low["success"]) == (-10, "critical_failure", False)


def test_check_modifiers_and_tool_add_up(capsys):
    out = json_of(capsys, "check", "osr", "--ability", "2", "--modifier", "1", "--modifier", "-3", "--tool",
                  "specialised", "--faces", "10")
    assert out["total"] == 12 and out["detail"]["modifier"] == 0


def test_save_with_heritage(capsys):
    out = json_of(capsys, "save", "osr", "--ability", "3", "--heritage", "2", "--faces", "11")
    assert (out["total"], out["difficulty"], out["success"], out["outcome"]) == (16, 16, True, "success")


def test_opposed_close_is_tie(capsys):
    plain = json_of(capsys, "opposed", "osr", "--ability", "3", "--opponent-ability", "2", "--faces", "10,12")
    close = json_of(capsys, "opposed", "osr", "--ability", "3", "--opponent-ability", "2", "--close-is-tie",
                    "--faces", "15,12")
    assert (plain["total"], plain["difficulty"], plain["success"]) == (13, 14, False)
    assert plain["detail"]["winner"] == "opponent" and close["detail"]["winner"] == "tie"


@pytest.mark.parametrize("ranged, uses", [([], "STR"), (["--ranged"], "WIS")])
def test_attack_critical_failure_breaks_the_weapon(capsys, ranged, uses):
    out = json_of(capsys, "attack", "osr", "--ability", "3", *ranged, "--faces", "3")
    assert (out["total"], out["difficulty"], out["margin"], out["outcome"]) == (6, 16, -10, "critical_failure")
    assert out["detail"]["uses"] == uses and any("weapon breaks" in note for note in out["notes"])


def test_outcome_table(capsys):
    out = json_of(capsys, "outcome", "osr", "--faces", "1,1")
    assert (out["total"], out["outcome"], out["success"], out["detail"]["band"]) == (2, "critical_failure", False,
                                                                                     "disaster")
    out = json_of(capsys, "outcome", "osr", "--reroll-average", "--faces", "4,4,5,5")
    assert out["total"] == 10 and out["detail"]["band"] == "good" and len(out["faces"]) == 4


@pytest.mark.parametrize("chance, face, success", [("torch", 2, True), ("torch", 3, False), ("metal", 4, True),
                                                   ("3", 4, False)])
def test_fate(capsys, chance, face, success):
    out = json_of(capsys, "fate", "osr", "--chance", chance, "--faces", str(face))
    assert out["success"] == success and out["faces"][0] == {"value": face, "sides": 6, "role": None}


def test_fate_modifier_can_make_the_roll_unnecessary(capsys):
    out = json_of(capsys, "fate", "osr", "--chance", "magical", "--modifier", "1", "--faces", "")
    assert out["success"] and out["faces"] == []


def test_secret_roll_prints_only_that_a_roll_was_made(capsys):
    code, out, _ = run_cli(capsys, "check", "osr", "--ability", "4", "--secret", "--faces", "13")
    assert code == 0 and "secret roll" in out.lower() and "17" not in out and "SUCCESS" not in out
    hidden = json_of(capsys, "check", "osr", "--ability", "4", "--secret", "--faces", "13")
    assert hidden == {"system": "osr", "secret": True, "message": "secret roll made"}


def test_secret_roll_with_reveal_shows_everything(capsys):
    out = json_of(capsys, "save", "osr", "--ability", "4", "--secret", "--reveal", "--faces", "13")
    assert (out["total"], out["success"], out["secret"]) == (17, True, True)


def test_secret_roll_keeps_the_full_result_for_the_log():
    args = argparse.Namespace(ability=4, difficulty=16, modifier=[], tool=None, secret=True, reveal=False, led=False)
    resolution = cli.ACTIONS[0].build(args)
    request = next(resolution)
    with pytest.raises(StopIteration) as done:
        resolution.send(Throw((Face(13, 20),)))
    notice = done.value.value
    assert notice.secret and notice.result.total == 17 and "17" not in json.dumps(notice.to_json())
    assert request.count == 1


@pytest.mark.parametrize("argv, message", [
    (["check", "osr", "--ability", "4", "--faces", ""], "too few faces"),
    (["check", "osr", "--ability", "4", "--faces", "3,4"], "too many faces"),
    (["check", "osr", "--ability", "4", "--faces", "0"], "cannot show 0"),
    (["check", "osr", "--ability", "4", "--difficulty", "hard", "--faces", "3"], "easy, normal"),
    (["check", "osr", "--ability", "4", "--modifier", "4", "--tool", "specialised"], "between -5 and +5"),
    (["opposed", "osr", "--ability", "4", "--opponent-ability", "1", "--opponent-modifier", "-6"], "-5 and +5"),
    (["outcome", "osr", "--faces", "7,1"], "cannot show 7"),
    (["fate", "osr", "--chance", "6"], "in-6"),
    (["fate", "osr", "--chance", "lantern"], "chance must be"),
    (["save", "osr", "--faces", "3"], "--ability"),
    (["fate", "osr", "--chance", "2", "--secret", "--led", "--faces", "3"], "--led"),
])
def test_bad_input_is_one_line_and_exit_code_2(capsys, argv, message):
    assert_one_line_error(capsys, [*argv, "--json"], message)


@pytest.mark.parametrize("action", cli.ACTIONS, ids=lambda action: action.name)
def test_every_option_has_help(action):
    parser = argparse.ArgumentParser()
    action.configure(parser)
    assert {"--secret", "--reveal"} <= {o for a in parser._actions for o in a.option_strings}
    assert options_without_help([action]) == [] and action.system == "osr"
