"""True20 resolvers: every rule of the True20 check chapter, driven with scripted and virtual dice."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reader.sources.scripted import ScriptedDice
from reader.sources.virtual import VirtualDice
from scripted_run import drive_or_refuse, run  # scripted faces in, result out
from rules import true20 as t20
from rules.dice import DiceRequest, Role
from rules.errors import RulesError
from rules.protocol import drive
from rules.result import Outcome
from rules.true20 import (ActionTime, Challenge, ChallengeForm, ChallengeKind, True20Aid, True20Attack, True20Check,
                          True20Comparison, True20Helper, True20Opposed, True20Save, True20Simultaneous, Tools)

FAST = Challenge(ChallengeKind.FAST_TASK)
RISK = Challenge(ChallengeKind.CALCULATED_RISK)


def requests_of(resolution, *faces: int) -> list[DiceRequest]:
    """The requests a resolver makes when answered with ``faces``."""
    dice, asked = ScriptedDice(faces), []

    def answer(request: DiceRequest):
        asked.append(request)
        return dice.throw_now(request)

    drive(resolution, answer)
    return asked


def no_dice(request: DiceRequest):
    raise AssertionError(f"asked for dice: {request.describe()}")


# --- the core check -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("natural, success", [(10, True), (9, False), (11, True)])
def test_check_succeeds_when_total_equals_or_exceeds_difficulty(natural, success):
    result = run(t20.resolve_check(True20Check(5, 15)), natural)
    assert (result.total, result.difficulty, result.success) == (natural + 5, 15, success)
    assert result.margin == natural - 10
    assert result.outcome == (Outcome.SUCCESS if success else Outcome.FAILURE)
    assert result.system == "true20"
    assert [f.value for f in result.faces] == [natural]


def test_natural_20_is_not_an_automatic_success_on_a_check():
    result = run(t20.resolve_check(True20Check(0, 25)), 20)
    assert not result.success and result.outcome is Outcome.FAILURE and result.margin == -5


def test_natural_1_is_not_an_automatic_failure_on_a_check():
    result = run(t20.resolve_check(True20Check(20, 15)), 1)
    assert result.success and result.outcome is Outcome.SUCCESS and result.margin == 6


def test_named_difficulties_are_the_sample_table():
    assert t20.DIFFICULTIES == {"very easy": 0, "easy": 5, "average": 10, "tough": 15, "challenging": 20,
                                "formidable": 25, "heroic": 30, "superheroic": 35, "nearly impossible": 40}


# --- circumstances and tools ----------------------------------------------------------------------------------

def test_circumstance_on_the_modifier_and_on_the_difficulty_are_distinct():
    bonus = run(t20.resolve_check(True20Check(3, 15, circumstance=2)), 10)
    easier = run(t20.resolve_check(True20Check(3, 15, difficulty_circumstance=-2)), 10)
    assert (bonus.total, bonus.difficulty) == (15, 15)
    assert (easier.total, easier.difficulty) == (13, 13)
    assert bonus.margin == easier.margin == 0
    assert bonus.detail["circumstance"] == 2 and easier.detail["difficulty_circumstance"] == -2


@pytest.mark.parametrize("circumstance, difficulty_circumstance, total, difficulty",
                         [(-2, 0, 11, 15), (0, 2, 13, 17), (4, -4, 17, 11)])
def test_circumstances_stack_in_steps_of_two(circumstance, difficulty_circumstance, total, difficulty):
    result = run(t20.resolve_check(True20Check(3, 15, circumstance=circumstance,
                                               difficulty_circumstance=difficulty_circumstance)), 10)
    assert (result.total, result.difficulty) == (total, difficulty)


@pytest.mark.parametrize("field", ["circumstance", "difficulty_circumstance"])
def test_circumstance_must_be_a_multiple_of_two(field):
    with pytest.raises(RulesError, match="steps of 2"):
        run(t20.resolve_check(replace(True20Check(3, 15), **{field: 3})))


@pytest.mark.parametrize("tools, total", [(Tools.PROPER, 15), (Tools.IMPROVISED, 13), (Tools.MISSING, 11)])
def test_tools_penalties(tools, total):
    result = run(t20.resolve_check(True20Check(5, 15, tools=tools)), 10)
    assert result.total == total


# --- checks without rolls -------------------------------------------------------------------------------------

def test_take_1_succeeds_without_dice_at_the_minimum_level():
    result = drive(t20.resolve_check(True20Check(12, 12, take=1)), no_dice)
    assert result.success and result.total == 13 and result.margin == 1 and result.faces == ()
    assert result.detail["take"] == 1 and result.detail["natural"] is None
    assert any("minimum" in note for note in result.notes)


def test_take_1_is_refused_when_the_bonus_does_not_reach_the_difficulty():
    with pytest.raises(RulesError, match="taking 1"):
        drive(t20.resolve_check(True20Check(11, 12, take=1)), no_dice)


def test_take_1_counts_circumstances_and_challenges_in_the_bonus():
    drive(t20.resolve_check(True20Check(10, 12, take=1, circumstance=2)), no_dice)
    with pytest.raises(RulesError, match="taking 1"):
        drive(t20.resolve_check(True20Check(14, 12, take=1, challenges=(FAST,))), no_dice)


@pytest.mark.parametrize("take, modifier, difficulty, success", [(5, 0, 5, True), (5, 0, 6, False),
                                                                  (10, 0, 10, True), (10, 3, 14, False),
                                                                  (20, 2, 22, True), (20, 2, 23, False)])
def test_take_n_computes_as_if_the_die_showed_n(take, modifier, difficulty, success):
    result = drive(t20.resolve_check(True20Check(modifier, difficulty, take=take)), no_dice)
    assert result.total == take + modifier and result.success == success and result.faces == ()


def test_take_5_and_1_are_allowed_under_pressure_take_10_is_not():
    assert drive(t20.resolve_check(True20Check(0, 5, take=5, under_pressure=True)), no_dice).success
    assert drive(t20.resolve_check(True20Check(9, 5, take=1, under_pressure=True)), no_dice).success
    with pytest.raises(RulesError, match="cannot take 10"):
        drive(t20.resolve_check(True20Check(0, 5, take=10, under_pressure=True)), no_dice)


def test_take_20_is_refused_when_failure_has_consequences():
    with pytest.raises(RulesError, match="cannot take 20"):
        drive(t20.resolve_check(True20Check(0, 5, take=20, consequences=True)), no_dice)
    assert drive(t20.resolve_check(True20Check(0, 5, take=10, consequences=True)), no_dice).total == 10


@pytest.mark.parametrize("take", [0, 2, 15, 21])
def test_only_1_5_10_20_can_be_taken(take):
    with pytest.raises(RulesError, match="1, 5, 10 or 20"):
        drive(t20.resolve_check(True20Check(0, 5, take=take)), no_dice)


# --- challenges -----------------------------------------------------------------------------------------------

def test_a_challenge_raises_the_difficulty_by_5_by_default():
    result = run(t20.resolve_check(True20Check(5, 15, challenges=(FAST,))), 15)
    assert (result.total, result.difficulty, result.success) == (20, 20, True)
    assert result.detail["challenges"] == [{"kind": "fast_task", "form": "difficulty"}]


def test_a_challenge_can_be_a_penalty_of_5_instead():
    result = run(t20.resolve_check(True20Check(5, 15, challenges=(Challenge(ChallengeKind.OTHER,
                                                                             ChallengeForm.PENALTY),))), 14)
    assert (result.total, result.difficulty, result.success) == (14, 15, False)
    assert any("normal results of failure" in note for note in result.notes)


def test_several_challenges_add_up_in_either_form():
    mixed = (FAST, Challenge(ChallengeKind.OTHER, ChallengeForm.PENALTY), Challenge(ChallengeKind.OTHER))
    result = run(t20.resolve_check(True20Check(8, 10, challenges=mixed)), 12)
    assert (result.total, result.difficulty, result.margin) == (15, 20, -5)


@pytest.mark.parametrize("natural, margin", [(5, -10), (6, -9)])
def test_failing_a_challenged_check_by_10_is_measured_from_the_raised_difficulty(natural, margin):
    # The seed's Disable Device example: Difficulty 20 raised to 25 sets the device off at 15 or less.
    result = run(t20.resolve_check(True20Check(10, 20, challenges=(Challenge(ChallengeKind.OTHER),))), natural)
    assert result.difficulty == 25 and result.margin == margin


@pytest.mark.parametrize("action, fast, after", [
    (ActionTime.FULL_ROUND, 1, "standard"), (ActionTime.FULL_ROUND, 2, "move"), (ActionTime.STANDARD, 1, "move"),
    (ActionTime.MOVE, 1, "free")])
def test_fast_task_shortens_the_action(action, fast, after):
    result = run(t20.resolve_check(True20Check(10, 5, challenges=(FAST,) * fast, action=action)), 10)
    assert result.detail["action"] == after and result.difficulty == 5 + 5 * fast


@pytest.mark.parametrize("action, fast", [(ActionTime.FULL_ROUND, 3), (ActionTime.STANDARD, 2),
                                          (ActionTime.FREE, 1), (ActionTime.MOVE, 2)])
def test_fast_task_never_makes_a_standard_action_or_longer_free(action, fast):
    with pytest.raises(RulesError, match="fast-task"):
        drive(t20.resolve_check(True20Check(10, 5, challenges=(FAST,) * fast, action=action)), no_dice)


@pytest.mark.parametrize("fast, factor", [(1, 0.75), (2, 0.5), (3, 0.25)])
def test_fast_task_cuts_long_tasks_by_a_quarter_per_challenge(fast, factor):
    result = run(t20.resolve_check(True20Check(10, 5, challenges=(FAST,) * fast, action=ActionTime.EXTENDED)), 10)
    assert result.detail["time_factor"] == factor


def test_fast_task_cannot_remove_all_the_time():
    with pytest.raises(RulesError, match="25%"):
        drive(t20.resolve_check(True20Check(10, 5, challenges=(FAST,) * 4, action=ActionTime.EXTENDED)), no_dice)


def test_calculated_risk_needs_a_check_with_consequences():
    with pytest.raises(RulesError, match="calculated risk"):
        drive(t20.resolve_check(True20Check(10, 5, challenges=(RISK,))), no_dice)
    with pytest.raises(RulesError, match="cannot take 20"):
        drive(t20.resolve_check(True20Check(10, 5, take=20, consequences=True, challenges=(RISK,))), no_dice)


@pytest.mark.parametrize("natural, bonus", [(15, 10), (14, 0)])
def test_calculated_risk_carries_its_penalty_to_the_follow_up_on_success(natural, bonus):
    first = run(t20.resolve_check(True20Check(5, 10, consequences=True, challenges=(RISK, RISK))), natural)
    assert first.difficulty == 20 and first.detail["follow_up_bonus"] == bonus
    follow_up = run(t20.resolve_check(True20Check(2, 20, carried_bonus=first.detail["follow_up_bonus"])), 8)
    assert follow_up.total == 10 + bonus and follow_up.success == bool(bonus)


def test_simultaneous_tasks_challenge_the_primary_and_handicap_the_secondary_by_10():
    params = True20Simultaneous(True20Check(6, 10), True20Check(4, 10))
    asked = requests_of(t20.resolve_simultaneous(params), 9, 16)
    assert [request.actor for request in asked] == ["primary task", "secondary task"]
    result = run(t20.resolve_simultaneous(params), 9, 16)
    assert (result.total, result.difficulty, result.success) == (15, 15, True)
    assert result.detail["challenges"] == [{"kind": "simultaneous", "form": "difficulty"}]
    assert result.detail["secondary"]["total"] == 10 and result.detail["secondary"]["difficulty"] == 10
    assert result.detail["secondary"]["success"] is True
    assert [f.value for f in result.faces] == [9, 16]


def test_simultaneous_secondary_can_take_plus_10_difficulty_and_primary_a_penalty():
    params = True20Simultaneous(True20Check(6, 10), True20Check(4, 10), ChallengeForm.PENALTY,
                                ChallengeForm.DIFFICULTY)
    result = run(t20.resolve_simultaneous(params), 9, 15)
    assert (result.total, result.difficulty) == (10, 10)
    assert (result.detail["secondary"]["total"], result.detail["secondary"]["difficulty"]) == (19, 20)
    assert result.detail["secondary"]["success"] is False


# --- aid ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("total, bonus", [(9, 0), (10, 2), (19, 2), (20, 3), (29, 3), (30, 4), (45, 5)])
def test_aid_bonus_is_2_plus_1_per_full_10_over_difficulty_10(total, bonus):
    assert t20.aid_bonus(total) == bonus


def test_helpers_roll_against_10_first_and_their_bonuses_add_to_the_leader():
    params = True20Aid(True20Check(5, 20), (True20Helper(3), True20Helper(1), True20Helper(0)))
    asked = requests_of(t20.resolve_aid(params), 17, 4, 10, 9)
    assert [r.actor for r in asked] == ["helper 1", "helper 2", "helper 3", "leader"]
    result = run(t20.resolve_aid(params), 17, 4, 10, 9)
    assert [h["bonus"] for h in result.detail["helpers"]] == [3, 0, 2]
    assert result.total == 9 + 5 + 5 and result.detail["aid_bonus"] == 5 and not result.success
    assert [f.value for f in result.faces] == [17, 4, 10, 9]


def test_a_helper_cannot_take_10_but_may_take_20_without_dice():
    with pytest.raises(RulesError, match="helper cannot take 10"):
        drive(t20.resolve_aid(True20Aid(True20Check(5, 20), (True20Helper(3, take=10),))), no_dice)
    result = run(t20.resolve_aid(True20Aid(True20Check(5, 20), (True20Helper(3, take=20),))), 12)
    assert result.detail["helpers"] == [{"modifier": 3, "total": 23, "bonus": 3}] and result.total == 20


def test_an_aided_leader_is_validated_before_any_helper_throws():
    with pytest.raises(RulesError, match="cannot take 10"):
        drive(t20.resolve_aid(True20Aid(True20Check(5, 20, take=10, under_pressure=True), (True20Helper(3),))),
              no_dice)
    with pytest.raises(RulesError, match="at least one helper"):
        drive(t20.resolve_aid(True20Aid(True20Check(5, 20), ())), no_dice)


# --- kinds of checks ------------------------------------------------------------------------------------------

def test_power_rank_is_adept_level_plus_3():
    assert [t20.power_rank(level) for level in (1, 4, 20)] == [4, 7, 23]
    with pytest.raises(RulesError):
        t20.power_rank(0)


# --- opposed and comparison checks ----------------------------------------------------------------------------

@pytest.mark.parametrize("mine, theirs, won", [(13, 10, True), (8, 15, False)])
def test_opposed_higher_result_wins(mine, theirs, won):
    result = run(t20.resolve_opposed(True20Opposed(4, 6)), mine, theirs)
    assert result.success == won and result.total == mine + 4 and result.difficulty == theirs + 6
    assert result.margin == result.total - result.difficulty and result.detail["decided_by"] == "total"


@pytest.mark.parametrize("modifier, opponent, won", [(6, 2, True), (2, 6, False)])
def test_opposed_tie_goes_to_the_higher_modifier(modifier, opponent, won):
    result = run(t20.resolve_opposed(True20Opposed(modifier, opponent)), 10 - modifier, 10 - opponent)
    assert result.margin == 0 and result.success == won and result.detail["decided_by"] == "modifier"


def test_opposed_tie_with_equal_modifiers_asks_both_to_roll_again():
    asked = requests_of(t20.resolve_opposed(True20Opposed(3, 3)), 7, 7, 12, 11)
    assert [r.actor for r in asked] == ["you", "opponent", "you", "opponent"]
    result = run(t20.resolve_opposed(True20Opposed(3, 3)), 7, 7, 12, 11)
    assert result.success and result.detail["rounds"] == 2 and len(result.faces) == 4 and result.total == 15


def test_comparison_needs_no_dice_when_scores_differ():
    result = drive(t20.resolve_comparison(True20Comparison(4, 2)), no_dice)
    assert result.success and result.faces == () and result.margin == 2
    assert not drive(t20.resolve_comparison(True20Comparison(1, 2)), no_dice).success


@pytest.mark.parametrize("coin, won", [(2, True), (1, False)])
def test_comparison_tie_is_a_coin_flip(coin, won):
    asked = requests_of(t20.resolve_comparison(True20Comparison(3, 3)), coin)
    assert len(asked) == 1 and asked[0].dice[0].sides == 2 and asked[0].dice[0].role is Role.COIN
    result = run(t20.resolve_comparison(True20Comparison(3, 3)), coin)
    assert result.success == won and result.detail["coin"] == coin


# --- attacks and saves ----------------------------------------------------------------------------------------

def test_natural_20_attack_hits_and_threatens_but_is_not_a_confirmed_critical():
    result = run(t20.resolve_attack(True20Attack(0, 30)), 20)
    assert result.success and result.outcome is Outcome.SUCCESS
    assert result.detail["critical_threat"] is True and result.detail["automatic"] == "hit"


def test_natural_1_attack_misses_whatever_the_bonus():
    result = run(t20.resolve_attack(True20Attack(30, 5)), 1)
    assert not result.success and result.outcome is Outcome.FAILURE and result.detail["automatic"] == "miss"
    assert result.margin == 26


@pytest.mark.parametrize("natural, hit", [(12, True), (11, False), (19, True)])
def test_attack_hits_on_total_equal_to_defense(natural, hit):
    result = run(t20.resolve_attack(True20Attack(4, 16)), natural)
    assert result.success == hit and result.detail["critical_threat"] is False and result.margin == natural - 12


def test_saving_throw_natural_20_and_1_are_not_automatic():
    assert not run(t20.resolve_save(True20Save(2, 25)), 20).success
    assert run(t20.resolve_save(True20Save(14, 15)), 1).success


def test_saving_throw_reports_the_ability_of_its_kind():
    result = run(t20.resolve_save(True20Save(3, 12, save=t20.SaveKind.REFLEX)), 9)
    assert result.success and result.detail["ability"] == "dexterity"
    assert t20.SaveKind.WILL.ability == "wisdom" and t20.SaveKind.FORTITUDE.ability == "constitution"


@pytest.mark.parametrize("natural, lethal, condition, degree", [
    (15, True, "unharmed", 0), (14, True, "hurt", 1), (11, True, "hurt", 1), (10, True, "wounded", 2),
    (6, True, "wounded", 2), (5, True, "disabled", 3), (1, True, "disabled", 3), (14, False, "bruised", 1),
    (10, False, "dazed", 2), (5, False, "staggered", 3)])
def test_toughness_save_against_damage_reads_the_condition_per_5_points(natural, lethal, condition, degree):
    result = run(t20.resolve_save(True20Save(0, damage=0, lethal=lethal)), natural)
    assert result.difficulty == 15 and result.detail["condition"] == condition and result.detail["degree"] == degree


def test_toughness_failure_by_15_or_more_is_the_last_condition():
    assert run(t20.resolve_save(True20Save(0, damage=15)), 15).detail["condition"] == "dying"
    assert run(t20.resolve_save(True20Save(0, damage=25, lethal=False)), 1).detail["condition"] == "unconscious"


@pytest.mark.parametrize("params", [True20Save(0), True20Save(0, 10, damage=3),
                                    True20Save(0, damage=3, save=t20.SaveKind.WILL)])
def test_save_needs_exactly_one_way_to_set_the_difficulty(params):
    with pytest.raises(RulesError):
        drive(t20.resolve_save(params), no_dice)


# --- properties -----------------------------------------------------------------------------------------------

d20_faces = st.lists(st.integers(1, 20), min_size=1, max_size=12)
checks = st.builds(True20Check, st.integers(-10, 30), st.integers(-5, 45),
                   take=st.sampled_from([None, None, 1, 5, 10, 20]), under_pressure=st.booleans(),
                   consequences=st.booleans(), circumstance=st.integers(-3, 3).map(lambda n: 2 * n),
                   difficulty_circumstance=st.integers(-3, 3).map(lambda n: 2 * n), tools=st.sampled_from(Tools),
                   challenges=st.lists(st.builds(Challenge, st.sampled_from(ChallengeKind),
                                                 st.sampled_from(ChallengeForm)), max_size=3).map(tuple),
                   action=st.sampled_from([None, *ActionTime]))


@settings(max_examples=300, deadline=None)
@given(checks, d20_faces)
def test_any_check_with_any_faces_gives_a_consistent_result(check, faces):
    result = drive_or_refuse(t20.resolve_check(check), faces)
    if result is None:
        return
    natural = check.take if check.take is not None else result.faces[0].value
    assert result.total == natural + check.effective_modifier
    assert result.difficulty == check.effective_difficulty
    assert result.margin == result.total - result.difficulty
    assert result.success == (result.margin >= 0) and result.outcome in (Outcome.SUCCESS, Outcome.FAILURE)
    assert len(result.faces) == (check.take is None)


@settings(max_examples=200, deadline=None)
@given(st.integers(-10, 30), st.integers(-10, 30), d20_faces)
def test_opposed_results_stay_in_range(modifier, opponent, faces):
    result = drive_or_refuse(t20.resolve_opposed(True20Opposed(modifier, opponent)), faces)
    if result is None:
        return
    assert modifier + 1 <= result.total <= modifier + 20 and opponent + 1 <= result.difficulty <= opponent + 20
    assert len(result.faces) == 2 * result.detail["rounds"]
    assert result.success == (result.margin > 0 or (result.margin == 0 and modifier > opponent))


@settings(max_examples=200, deadline=None)
@given(st.integers(-10, 30), st.integers(0, 40), st.integers(0, 2**32))
def test_attacks_with_virtual_dice_respect_the_natural_rolls(bonus, defense, seed):
    result = drive(t20.resolve_attack(True20Attack(bonus, defense)), VirtualDice(seed).throw_now)
    natural = result.faces[0].value
    assert result.total == natural + bonus
    expected = natural == 20 or (natural != 1 and result.total >= defense)
    assert result.success == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.builds(True20Helper, st.integers(-5, 25), st.sampled_from([None, 1, 5, 20])), min_size=1,
                max_size=4), st.integers(0, 20), d20_faces)
def test_aid_with_any_helpers_adds_their_bonuses(helpers, modifier, faces):
    result = drive_or_refuse(t20.resolve_aid(True20Aid(True20Check(modifier, 20), tuple(helpers))), faces)
    if result is None:
        return
    bonuses = [t20.aid_bonus(h["total"]) for h in result.detail["helpers"]]
    assert result.total == result.faces[-1].value + modifier + sum(bonuses)


def test_endless_ties_from_a_broken_source_are_refused():
    with pytest.raises(RulesError, match="ties in a row"):
        drive(t20.resolve_opposed(True20Opposed(0, 0)), lambda request: ScriptedDice([7]).throw_now(request))
