"""The osr system's resolvers: DC ladder, criticals, saves, opposed checks, 2d6 table, dice of fate."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reader.sources.scripted import ScriptedDice
from reader.sources.virtual import VirtualDice
from scripted_run import drive_or_refuse, run  # scripted faces in, result out
from rules import osr
from rules.dice import DiceRequest
from rules.errors import RulesError
from rules.osr import OsrAttack, OsrCheck, OsrFate, OsrOpposed, OsrOutcomeTable, OsrSave
from rules.protocol import drive
from rules.result import Outcome


def no_dice(request: DiceRequest):
    raise AssertionError(f"asked for dice: {request.describe()}")


def test_dc_ladder_and_default():
    assert osr.DIFFICULTIES == {"easy": 11, "normal": 16, "difficult": 21, "extraordinary": 26}
    assert OsrCheck(3).difficulty == 16


@pytest.mark.parametrize("natural, success", [(10, True), (9, False)])
def test_check_adds_ability_and_modifier_and_succeeds_at_the_dc(natural, success):
    result = run(osr.resolve_check(OsrCheck(4, 16, modifier=2)), natural)
    assert (result.system, result.total, result.difficulty, result.success) == ("osr", natural + 6, 16, success)
    assert result.margin == natural - 10 and [f.value for f in result.faces] == [natural]


@pytest.mark.parametrize("natural, outcome", [
    (20, Outcome.CRITICAL_SUCCESS), (19, Outcome.SUCCESS), (10, Outcome.SUCCESS), (9, Outcome.FAILURE),
    (1, Outcome.FAILURE)])
def test_margin_of_10_either_way_is_a_critical(natural, outcome):
    # ability 5 vs DC 15: margins natural - 10, so 20 is +10 and 1 is -9
    result = run(osr.resolve_check(OsrCheck(5, 15)), natural)
    assert result.outcome is outcome and result.success == outcome.succeeded


def test_critical_failure_at_a_margin_of_minus_10():
    assert run(osr.resolve_check(OsrCheck(0, 21)), 11).outcome is Outcome.CRITICAL_FAILURE
    assert run(osr.resolve_check(OsrCheck(0, 21)), 12).outcome is Outcome.FAILURE


@pytest.mark.parametrize("natural, outcome", [(15, Outcome.SUCCESS), (10, Outcome.FAILURE)])
def test_rope_example_consistent_cases(natural, outcome):
    # STR 4, target 15: 15 + 4 = 19 a normal success, 10 + 4 = 14 a normal failure.
    result = run(osr.resolve_check(OsrCheck(4, 15)), natural)
    assert result.outcome is outcome


@pytest.mark.parametrize("natural, example_says, rule_says", [
    (3, Outcome.CRITICAL_FAILURE, Outcome.FAILURE), (17, Outcome.CRITICAL_SUCCESS, Outcome.SUCCESS)])
def test_rope_example_contradicting_the_10_margin_rule_follows_the_rule(natural, example_says, rule_says):
    # The example calls 7 vs 15 and 21 vs 15 criticals; their margins are -8 and +6.
    result = run(osr.resolve_check(OsrCheck(4, 15)), natural)
    assert abs(result.margin) < 10
    assert result.outcome is rule_says and result.outcome is not example_says


@pytest.mark.parametrize("modifier", [-5, 5])
def test_modifier_within_minus_5_plus_5_is_accepted(modifier):
    assert run(osr.resolve_check(OsrCheck(2, 16, modifier)), 10).total == 12 + modifier


@pytest.mark.parametrize("modifier", [-6, 6])
def test_modifier_outside_minus_5_plus_5_is_refused_before_any_dice(modifier):
    with pytest.raises(RulesError, match="between -5 and \\+5"):
        drive(osr.resolve_check(OsrCheck(2, 16, modifier)), no_dice)
    with pytest.raises(RulesError):
        drive(osr.resolve_opposed(OsrOpposed(2, 2, opponent_modifier=modifier)), no_dice)


@pytest.mark.parametrize("natural, success", [(18, True), (11, True), (10, False)])
def test_goblin_poison_needle_save(natural, success):
    # CON 3, +2 goblin heritage against poison, DC 16: 11+ on the die survives; 18 gives 23.
    result = run(osr.resolve_save(OsrSave(3, heritage=2)), natural)
    assert result.difficulty == 16 and result.total == natural + 5 and result.success == success
    assert result.detail["heritage"] == 2


def test_save_uses_the_critical_rule():
    assert run(osr.resolve_save(OsrSave(6)), 20).outcome is Outcome.CRITICAL_SUCCESS
    assert run(osr.resolve_save(OsrSave(0)), 6).outcome is Outcome.CRITICAL_FAILURE


@pytest.mark.parametrize("dc, natural, outcome, note", [
    (10, 17, Outcome.CRITICAL_SUCCESS, "manoeuvre"), (10, 16, Outcome.SUCCESS, None), (16, 13, Outcome.SUCCESS, None),
    (16, 12, Outcome.FAILURE, None), (16, 3, Outcome.CRITICAL_FAILURE, "weapon breaks")])
def test_attack_adds_str_or_wis_and_notes_combat_criticals(dc, natural, outcome, note):
    result = run(osr.resolve_attack(OsrAttack(3, dc, ranged=True)), natural)
    assert result.outcome is outcome and result.total == natural + 3 and result.detail["uses"] == "WIS"
    assert any(note in n for n in result.notes) if note else not result.notes


@pytest.mark.parametrize("mine, theirs, close, winner", [
    (12, 11, False, "you"), (11, 12, False, "opponent"), (12, 12, False, "tie"), (12, 3, True, "tie"),
    (13, 3, True, "you"), (3, 13, True, "opponent")])
def test_opposed_higher_wins_and_optional_close_tie(mine, theirs, close, winner):
    result = run(osr.resolve_opposed(OsrOpposed(3, 3, close_is_tie=close)), mine, theirs)
    assert result.detail["winner"] == winner and result.success == (winner == "you")
    assert result.margin == mine - theirs and result.outcome in (Outcome.SUCCESS, Outcome.FAILURE)


def test_opposed_adds_each_partys_ability_and_modifier():
    result = run(osr.resolve_opposed(OsrOpposed(4, 2, modifier=1, opponent_modifier=-2)), 10, 10)
    assert (result.total, result.difficulty, result.detail["opponent_total"]) == (15, 10, 10)


@pytest.mark.parametrize("resolve, params, faces", [
    (osr.resolve_check, OsrCheck(3, secret=True), (10,)), (osr.resolve_save, OsrSave(3, secret=True), (10,)),
    (osr.resolve_attack, OsrAttack(3, secret=True), (10,)),
    (osr.resolve_opposed, OsrOpposed(3, 3, secret=True), (10, 4)),
    (osr.resolve_outcome_table, OsrOutcomeTable(secret=True), (3, 4)),
    (osr.resolve_fate, OsrFate(2, secret=True), (1,))])
def test_secret_rolls_are_flagged_on_the_result(resolve, params, faces):
    assert run(resolve(params), *faces).secret is True
    assert run(resolve(replace(params, secret=False)), *faces).secret is False


def test_outcome_table_bands_for_every_2d6_throw():
    expected = {2: ("disaster", Outcome.CRITICAL_FAILURE), 3: ("poor", Outcome.FAILURE),
                5: ("poor", Outcome.FAILURE), 6: ("average", Outcome.SUCCESS), 8: ("average", Outcome.SUCCESS),
                9: ("good", Outcome.SUCCESS), 11: ("good", Outcome.SUCCESS), 12: ("great", Outcome.CRITICAL_SUCCESS)}
    counts: dict[str, int] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        result = run(osr.resolve_outcome_table(OsrOutcomeTable()), a, b)
        band = result.detail["band"]
        counts[band] = counts.get(band, 0) + 1
        assert result.total == a + b and result.difficulty is None and result.margin is None
        if a + b in expected:
            assert (band, result.outcome) == expected[a + b]
    assert counts == {"disaster": 1, "poor": 9, "average": 16, "good": 9, "great": 1}


def test_outcome_table_can_reroll_average_results():
    result = run(osr.resolve_outcome_table(OsrOutcomeTable(reroll_average=True)), 3, 3, 4, 4, 6, 5)
    assert result.total == 11 and result.detail == {"band": "good", "rerolls": 2} and len(result.faces) == 6
    assert run(osr.resolve_outcome_table(OsrOutcomeTable()), 3, 3).detail["band"] == "average"


@pytest.mark.parametrize("chance, face, success", [(2, 1, True), (2, 2, True), (2, 3, False), (5, 5, True),
                                                   (5, 6, False), (1, 2, False)])
def test_die_of_fate_succeeds_on_the_chance_or_less(chance, face, success):
    result = run(osr.resolve_fate(OsrFate(chance)), face)
    assert result.success == success and result.total == face and result.difficulty == chance


def test_die_of_fate_chance_moved_out_of_range_needs_no_roll():
    certain = drive(osr.resolve_fate(OsrFate(4, modifier=2)), no_dice)
    hopeless = drive(osr.resolve_fate(OsrFate(2, modifier=-2)), no_dice)
    assert certain.success and certain.faces == () and not hopeless.success
    assert run(osr.resolve_fate(OsrFate(2, modifier=1)), 3).success


@pytest.mark.parametrize("chance", [0, 6, 7, -1])
def test_die_of_fate_chance_is_1_to_5_in_6(chance):
    with pytest.raises(RulesError, match="in-6"):
        drive(osr.resolve_fate(OsrFate(chance)), no_dice)


def test_suggested_fate_chances():
    assert (osr.FATE_CHANCES["torch"], osr.FATE_CHANCES["ammunition"], osr.FATE_CHANCES["metal"],
            osr.FATE_CHANCES["magical"]) == (2, 3, 4, 5)


# --- properties -----------------------------------------------------------------------------------------------

faces_lists = st.lists(st.integers(1, 6), min_size=0, max_size=10)


@settings(max_examples=300, deadline=None)
@given(st.integers(-5, 15), st.integers(1, 40), st.integers(-7, 7), st.integers(0, 2**32))
def test_checks_with_virtual_dice_stay_in_range(ability, dc, modifier, seed):
    try:
        result = drive(osr.resolve_check(OsrCheck(ability, dc, modifier)), VirtualDice(seed).throw_now)
    except RulesError:
        assert abs(modifier) > 5
        return
    assert ability + modifier + 1 <= result.total <= ability + modifier + 20
    assert result.margin == result.total - dc and result.outcome is osr.versus_dc(result.total, dc)
    assert result.success == (result.margin >= 0)
    assert (abs(result.margin) >= 10) == (result.outcome in (Outcome.CRITICAL_SUCCESS, Outcome.CRITICAL_FAILURE))


@settings(max_examples=200, deadline=None)
@given(st.booleans(), faces_lists)
def test_outcome_table_with_any_faces(reroll, faces):
    result = drive_or_refuse(osr.resolve_outcome_table(OsrOutcomeTable(reroll)), faces)
    if result is None:
        return
    assert 2 <= result.total <= 12 and len(result.faces) % 2 == 0
    assert not reroll or result.detail["band"] != "average"


@settings(max_examples=200, deadline=None)
@given(st.integers(-3, 8), st.integers(-5, 5), faces_lists)
def test_fate_with_any_faces(chance, modifier, faces):
    result = drive_or_refuse(osr.resolve_fate(OsrFate(chance, modifier)), faces)
    if result is None:
        return
    effective = chance + modifier
    assert result.difficulty == effective
    if result.faces:
        assert result.success == (result.faces[0].value <= effective)
    else:
        assert result.success == (effective >= 6)


def test_endless_average_results_from_a_broken_source_are_refused():
    with pytest.raises(RulesError, match="average results in a row"):
        drive(osr.resolve_outcome_table(OsrOutcomeTable(reroll_average=True)),
              lambda request: ScriptedDice([3, 4]).throw_now(request))
