"""d6 pool resolver (rules/d6pool.py): every rule of seed 004 against scripted faces."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.d6pool import (DIFFICULTIES, MAX_REROLLS, ChallengeResult, D6PoolAttack, D6PoolBlock, D6PoolChallenge,
                          D6PoolCheck, D6PoolInitiative, D6PoolOpposed, PoolDifficulty, TieRule, rating_value,
                          resolve_attack, resolve_block, resolve_challenge, resolve_check, resolve_initiative,
                          resolve_opposed)
from rules.dice import DiceRequest, Role
from rules.errors import RulesError
from rules.protocol import drive
from rules.result import Outcome
from test_rules_opend6 import drawn_faces, run  # scripted faces: a fixed list, or drawn by hypothesis


def check(dice: int, difficulty: str, faces: list[int], asked=None, helpers: int = 0):
    return run(resolve_check(D6PoolCheck(dice, PoolDifficulty.parse(difficulty), helpers)), faces, asked)


# --- the check --------------------------------------------------------------------------------

def test_sum_of_the_stat_dice_meeting_the_difficulty_succeeds():
    result = check(3, "10", [3, 3, 4])
    assert (result.total, result.difficulty, result.margin, result.success) == (10, 10, 0, True)
    assert result.outcome is Outcome.SUCCESS and result.system == "d6pool"


def test_sum_below_the_difficulty_fails():
    result = check(3, "10", [3, 3, 3])
    assert not result.success and result.margin == -1 and result.outcome is Outcome.FAILURE


def test_the_check_rolls_as_many_plain_d6_as_the_stat():
    asked: list[DiceRequest] = []
    check(5, "17", [1, 2, 3, 4, 5], asked)
    assert len(asked) == 1 and asked[0].count == 5
    assert all(spec.sides == 6 and spec.role is None for spec in asked[0].dice)


def test_no_criticals_in_this_system():
    assert check(2, "7", [6, 6]).outcome is Outcome.SUCCESS
    assert check(2, "7", [1, 1]).outcome is Outcome.FAILURE


# --- difficulties -----------------------------------------------------------------------------

def test_rating_table_of_the_seed():
    assert DIFFICULTIES == {"effortless": 3, "simple": 7, "easy": 10, "straightforward": 14, "moderate": 17,
                            "tough": 21, "difficult": 24, "demanding": 28, "challenging": 31,
                            "nearly impossible": 35}


@pytest.mark.parametrize("text, expected", [
    ("4d6", PoolDifficulty(4, thrown=True)), ("10D6", PoolDifficulty(10, thrown=True)),
    ("tough", PoolDifficulty(21)), ("Nearly Impossible", PoolDifficulty(35)), ("nearly_impossible", PoolDifficulty(35)),
    ("14", PoolDifficulty(14)), ("0", PoolDifficulty(0))])
def test_difficulty_text(text, expected):
    assert PoolDifficulty.parse(text) == expected


@pytest.mark.parametrize("text", ["4d8", "hard", "-3", "d6", "", "3.5"])
def test_bad_difficulty_text_is_refused(text):
    with pytest.raises(RulesError):
        PoolDifficulty.parse(text)


def test_gm_difficulty_dice_are_thrown_first_and_set_the_difficulty():
    asked: list[DiceRequest] = []
    result = check(3, "2d6", [3, 4, 5, 5, 1], asked)
    assert [r.actor for r in asked] == ["GM", None]
    assert [spec.role for spec in asked[0].dice] == [Role.DIFFICULTY, Role.DIFFICULTY]
    assert (result.difficulty, result.total, result.success) == (7, 11, True)
    assert [f.role for f in result.faces] == [Role.DIFFICULTY] * 2 + [None] * 3


def test_thrown_difficulty_tie_succeeds():
    assert check(1, "1d6", [4, 4]).success
    assert not check(1, "1d6", [5, 4]).success


# --- moving a difficulty by dice: assisting ---------------------------------------------------

def test_each_helper_lowers_thrown_difficulty_by_a_die():
    asked: list[DiceRequest] = []
    result = check(2, "4d6", [1, 1, 3, 3], asked, helpers=2)
    assert asked[0].count == 2 and result.difficulty == 2 and result.detail["difficulty"] == "2d6"


def test_helpers_never_take_the_difficulty_below_1d6():
    asked: list[DiceRequest] = []
    check(2, "2d6", [6, 3, 3], asked, helpers=5)
    assert asked[0].count == 1


@pytest.mark.parametrize("start, helpers, expected", [
    ("straightforward", 1, 10), ("nearly impossible", 3, 24), ("challenging", 1, 28), ("simple", 1, 3),
    ("simple", 4, 3), ("easy", 0, 10)])
def test_helpers_move_a_rating_down_the_table(start, helpers, expected):
    assert check(3, start, [1, 1, 1], helpers=helpers).difficulty == expected


@pytest.mark.parametrize("start, shift, expected", [(20, -1, 16), (20, 1, 23), (20, -2, 13), (5, -1, 3),
                                                    (2, -1, 2), (0, 1, 3), (12, -10, 3)])
def test_other_numbers_move_by_the_average_of_a_d6_rounded_down(start, shift, expected):
    assert PoolDifficulty(start).shifted(shift) == PoolDifficulty(expected)


def test_rating_numbers_round_trip_through_the_table():
    for dice in range(1, 30):
        assert PoolDifficulty(rating_value(dice)).shifted(1) == PoolDifficulty(rating_value(dice + 1))
        assert PoolDifficulty(rating_value(dice + 1)).shifted(-1) == PoolDifficulty(rating_value(dice))


def test_negative_helpers_are_refused():
    with pytest.raises(RulesError):
        check(2, "7", [], helpers=-1)


@pytest.mark.parametrize("dice", [0, -1, 1001])
def test_impossible_pools_are_refused(dice):
    with pytest.raises(RulesError):
        check(dice, "7", [])


# --- multi-part challenges --------------------------------------------------------------------

def challenge(parts: list[tuple[int, str]], faces: list[int], asked=None, helpers: int = 0) -> ChallengeResult:
    return run(resolve_challenge(D6PoolChallenge(tuple(D6PoolCheck(d, PoolDifficulty.parse(t), helpers)
                                                       for d, t in parts))), faces, asked)


def test_failure_makes_later_parts_1d6_harder_success_1d6_easier():
    # part 1 fails (3 < 10): part 2 is 14; it succeeds (14): part 3 is back to 10; it succeeds: part 4 is 7.
    result = challenge([(3, "easy")] * 4, [1, 1, 1, 6, 6, 2, 5, 5, 1, 1, 1, 1])
    assert [p.difficulty for p in result.parts] == [10, 14, 10, 7]
    assert [p.success for p in result.parts] == [False, True, True, False]
    assert not result.success and result.outcome is Outcome.FAILURE
    assert result.parts[1].detail["shift_d6"] == 1


def test_challenge_with_thrown_difficulty_asks_for_more_gm_dice_after_a_failure():
    asked: list[DiceRequest] = []
    result = challenge([(1, "2d6"), (1, "2d6")], [6, 6, 1, 1, 1, 1, 6], asked)
    assert [r.count for r in asked] == [2, 1, 3, 1]
    assert [p.success for p in result.parts] == [False, True]


def test_challenge_difficulty_never_drops_below_1d6():
    asked: list[DiceRequest] = []
    challenge([(1, "1d6"), (1, "1d6"), (1, "1d6")], [1, 6, 1, 6, 1, 6], asked)
    assert [r.count for r in asked if r.actor == "GM"] == [1, 1, 1]


def test_challenge_all_parts_succeeding_succeeds_and_faces_are_in_order():
    result = challenge([(1, "3"), (1, "3")], [4, 5])
    assert result.success and result.outcome is Outcome.SUCCESS
    assert [f.value for f in result.faces] == [4, 5]
    assert result.to_json()["successes"] == 2
    # the second part was 1d6 easier after the first success, but never below 1d6 (3)
    assert result.parts[1].difficulty == 3


def test_challenge_applies_helpers_to_every_part():
    result = challenge([(3, "tough"), (3, "tough")], [6, 6, 5, 1, 1, 1], helpers=1)
    assert [p.difficulty for p in result.parts] == [17, 14]


def test_challenge_needs_two_parts():
    with pytest.raises(RulesError):
        challenge([(2, "7")], [])


# --- opposed checks ---------------------------------------------------------------------------

def test_opposed_initiator_then_opponent_higher_wins():
    asked: list[DiceRequest] = []
    result = run(resolve_opposed(D6PoolOpposed(2, 3)), [6, 5, 3, 3, 3], asked)
    assert [(r.actor, r.count) for r in asked] == [("initiator", 2), ("opponent", 3)]
    assert (result.total, result.difficulty, result.success) == (11, 9, True)


def test_opposed_tie_rules():
    assert run(resolve_opposed(D6PoolOpposed(1, 1)), [4, 4]).success
    assert not run(resolve_opposed(D6PoolOpposed(1, 1, TieRule.RESISTOR)), [4, 4]).success
    rerolled = run(resolve_opposed(D6PoolOpposed(1, 1, TieRule.REROLL)), [4, 4, 2, 2, 1, 3])
    assert not rerolled.success and rerolled.detail["rerolls"] == 2
    assert [f.value for f in rerolled.faces] == [4, 4, 2, 2, 1, 3]


def test_endless_ties_are_refused():
    with pytest.raises(RulesError, match="tied"):
        run(resolve_opposed(D6PoolOpposed(1, 1, TieRule.REROLL)), [3] * (2 * (MAX_REROLLS + 1)))


# --- attack and block -------------------------------------------------------------------------

def test_attack_is_1d6_times_power():
    asked: list[DiceRequest] = []
    result = run(resolve_attack(D6PoolAttack(3)), [4], asked)
    assert result.total == 12 and asked[0].count == 1 and result.difficulty is None


def test_block_is_1d6_times_resilience():
    assert run(resolve_block(D6PoolBlock(4)), [5]).total == 20


def test_attack_against_block():
    hit = run(resolve_attack(D6PoolAttack(3, block=2)), [4, 5])
    assert (hit.total, hit.difficulty, hit.margin, hit.success) == (12, 10, 2, True)
    miss = run(resolve_attack(D6PoolAttack(2, block=3)), [4, 3])
    assert (miss.total, miss.difficulty, miss.success) == (8, 9, False)


def test_attack_block_tie_goes_to_the_attacker_by_default():
    assert run(resolve_attack(D6PoolAttack(2, block=3)), [3, 2]).success
    assert not run(resolve_attack(D6PoolAttack(2, block=3, ties=TieRule.RESISTOR)), [3, 2]).success
    rerolled = run(resolve_attack(D6PoolAttack(2, block=3, ties=TieRule.REROLL)), [3, 2, 6, 1])
    assert rerolled.total == 12 and rerolled.success


def test_block_against_a_known_attack():
    assert run(resolve_block(D6PoolBlock(2, attack=9)), [5]).success
    assert not run(resolve_block(D6PoolBlock(2, attack=10)), [5]).success  # tie: the attacker's
    assert run(resolve_block(D6PoolBlock(2, attack=10, ties=TieRule.RESISTOR)), [5]).success
    with pytest.raises(RulesError, match="re-rolled"):
        run(resolve_block(D6PoolBlock(2, attack=10, ties=TieRule.REROLL)), [5])


@pytest.mark.parametrize("params", [D6PoolAttack(0), D6PoolAttack(2, block=0), D6PoolBlock(0),
                                    D6PoolBlock(2, attack=-1)])
def test_bad_stats_are_refused(params):
    resolver = resolve_attack if isinstance(params, D6PoolAttack) else resolve_block
    with pytest.raises(RulesError):
        run(resolver(params), [3, 3])


# --- initiative -------------------------------------------------------------------------------

def initiative(names: str, faces: list[int], asked=None, by_roll: bool = False):
    return run(resolve_initiative(D6PoolInitiative(tuple(names), by_roll)), faces, asked)


def test_initiative_highest_starts_then_clockwise_one_throw_each():
    asked: list[DiceRequest] = []
    order = initiative("ABCD", [5, 2, 6, 3], asked)
    assert order.order == ("C", "D", "A", "B")
    assert [r.actor for r in asked] == ["A", "B", "C", "D"] and all(r.count == 1 for r in asked)
    assert order.to_json()["first"] == "C" and order.to_json()["rule"] == "clockwise"


def test_initiative_by_roll_ranks_everyone():
    assert initiative("ABCD", [5, 2, 6, 3], by_roll=True).order == ("C", "A", "D", "B")


def test_initiative_tie_for_the_highest_is_rerolled_among_the_tied_only():
    asked: list[DiceRequest] = []
    order = initiative("ABC", [6, 2, 6, 3, 5], asked)
    assert [r.actor for r in asked] == ["A", "B", "C", "A", "C"]
    assert asked[3].purpose == "initiative tie re-roll"
    assert order.order == ("C", "A", "B")


def test_clockwise_initiative_ignores_ties_below_the_highest():
    order = initiative("ABCD", [4, 6, 4, 4])
    assert order.order == ("B", "C", "D", "A") and len(order.faces) == 4


def test_initiative_by_roll_rerolls_every_tie_among_the_tied():
    asked: list[DiceRequest] = []
    order = initiative("ABCD", [4, 6, 4, 4, 3, 3, 5, 2, 1], asked, by_roll=True)
    assert order.order == ("B", "D", "A", "C")
    assert [r.actor for r in asked] == ["A", "B", "C", "D", "A", "C", "D", "A", "C"]
    assert dict(order.rolls) == {"A": (4, 3, 2), "B": (6,), "C": (4, 3, 1), "D": (4, 5)}
    assert order.to_json()["order"] == ["B", "D", "A", "C"]
    assert order.summary().startswith("initiative (by roll): B (6), D (4, 5)")


def test_initiative_refuses_a_single_or_duplicate_participant():
    with pytest.raises(RulesError):
        run(resolve_initiative(D6PoolInitiative(("A",))), [])
    with pytest.raises(RulesError):
        run(resolve_initiative(D6PoolInitiative(("A", "A"))), [])


# --- properties -------------------------------------------------------------------------------

difficulties = st.builds(PoolDifficulty, st.integers(1, 12), st.booleans()) | st.sampled_from(
    [PoolDifficulty(v) for v in DIFFICULTIES.values()])


@settings(max_examples=200, deadline=None)
@given(dice=st.integers(1, 12), difficulty=difficulties, helpers=st.integers(0, 4), data=st.data())
def test_random_faces_keep_totals_in_range(dice, difficulty, helpers, data):
    result = drive(resolve_check(D6PoolCheck(dice, difficulty, helpers)), drawn_faces(data))
    assert dice <= result.total <= 6 * dice
    assert result.success == (result.total >= result.difficulty)
    gm = [f for f in result.faces if f.role is Role.DIFFICULTY]
    if difficulty.thrown:
        assert len(gm) == max(1, difficulty.amount - helpers) and result.difficulty == sum(f.value for f in gm)
    else:
        assert gm == [] and result.difficulty <= difficulty.amount


@settings(max_examples=100, deadline=None)
@given(parts=st.lists(st.builds(D6PoolCheck, st.integers(1, 6), difficulties), min_size=2, max_size=5),
       data=st.data())
def test_random_challenges_move_difficulty_by_earlier_results(parts, data):
    result = drive(resolve_challenge(D6PoolChallenge(tuple(parts))), drawn_faces(data))
    shift = 0
    for part, outcome in zip(parts, result.parts):
        assert outcome.detail["shift_d6"] == shift
        assert outcome.detail["difficulty"] == str(part.difficulty.shifted(shift))
        shift += -1 if outcome.success else 1


@settings(max_examples=100, deadline=None)
@given(names=st.lists(st.text("abcdef", min_size=1, max_size=3), min_size=2, max_size=6, unique=True),
       by_roll=st.booleans(), data=st.data())
def test_random_initiative_orders_everyone_once_by_their_rolls(names, by_roll, data):
    try:
        order = drive(resolve_initiative(D6PoolInitiative(tuple(names), by_roll)), drawn_faces(data))
    except RulesError as err:  # the same face over and over: refused after MAX_REROLLS ties
        assert "initiative ties" in str(err)
        return
    rolls = dict(order.rolls)
    ranks = [rolls[n] for n in order.order]
    assert max(ranks) == ranks[0]  # rolls compare as tie-broken sequences
    if by_roll:
        assert sorted(order.order) == sorted(names) and ranks == sorted(ranks, reverse=True)
    else:
        first = names.index(order.order[0])
        assert list(order.order) == names[first:] + names[:first]


@settings(max_examples=100, deadline=None)
@given(power=st.integers(1, 5), block=st.none() | st.integers(1, 5), ties=st.sampled_from(TieRule), data=st.data())
def test_random_attacks_stay_in_range(power, block, ties, data):
    try:
        result = drive(resolve_attack(D6PoolAttack(power, block, ties)), drawn_faces(data))
    except RulesError as err:  # the same faces over and over: refused after MAX_REROLLS ties
        assert ties is TieRule.REROLL and block is not None and "tied" in str(err)
        return
    assert power <= result.total <= 6 * power and result.total % power == 0
    if block is not None:
        assert block <= result.difficulty <= 6 * block
        assert result.success == (result.total > result.difficulty
                                  or (result.total == result.difficulty and ties is TieRule.INITIATOR))
