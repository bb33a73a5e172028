"""OpenD6 / D6 System resolver (rules/opend6.py): every rule of seed 001 against scripted faces."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reader.sources.scripted import ScriptedDice
from rules.dice import DiceRequest, Role
from rules.errors import RulesError, ThrowMismatch
from rules.notation import DieCode, parse_die_code
from rules.opend6 import (DIFFICULTIES, MAX_EXPLOSIONS, CriticalOption, OpenD6Check, OpenD6Opposed, OpenD6Roll,
                          complication_gravity, damage_bonus, extra_time_dice, half_bonus, related_skill_modifier,
                          resolve_check, resolve_opposed, rush_modifier)
from rules.protocol import drive
from rules.result import Outcome

CANCEL, COMPLICATION = CriticalOption.CANCEL, CriticalOption.COMPLICATION


def drawn_faces(data: st.DataObject):
    """An answer drawing every face from hypothesis, so a resolver can ask for as many dice as it likes."""
    def answer(request: DiceRequest):
        return ScriptedDice([data.draw(st.integers(1, 6)) for _ in request.dice]).throw_now(request)
    return answer


def run(resolution, faces, asked: list[DiceRequest] | None = None):
    """Drive ``resolution`` with scripted faces (all of them must be used), recording the requests."""
    dice = ScriptedDice(faces)

    def answer(request: DiceRequest):
        if asked is not None:
            asked.append(request)
        return dice.throw_now(request)

    result = drive(resolution, answer)
    dice.finish()
    return result


def check(code: str, difficulty: int, faces: list[int], asked: list[DiceRequest] | None = None, **options):
    return run(resolve_check(OpenD6Check(parse_die_code(code), difficulty, **options)), faces, asked)


def roles(request: DiceRequest) -> list[Role | None]:
    return [spec.role for spec in request.dice]


# --- die codes, pips, bonuses, success --------------------------------------------------------

def test_die_code_dice_and_pips_add_up_wild_die_first():
    asked: list[DiceRequest] = []
    result = check("4D+1", 10, [3, 4, 2, 5], asked)
    assert result.total == 3 + 4 + 2 + 5 + 1
    assert roles(asked[0]) == [Role.WILD, None, None, None]
    assert [f.role for f in result.faces] == [Role.WILD, None, None, None]
    assert result.system == "opend6" and result.outcome is Outcome.SUCCESS


def test_negative_pips_subtract():
    assert check("3D-1", 5, [2, 3, 4]).total == 8


def test_meeting_the_difficulty_succeeds_ties_to_the_initiator():
    result = check("3D", 12, [4, 4, 4])
    assert (result.total, result.margin, result.success) == (12, 0, True)


def test_tie_fails_with_the_greater_than_reading():
    result = check("3D", 12, [4, 4, 4], ties_to_initiator=False)
    assert not result.success and result.outcome is Outcome.FAILURE
    assert check("3D", 11, [4, 4, 4], ties_to_initiator=False).success


def test_one_below_the_difficulty_fails():
    result = check("3D", 13, [4, 4, 4])
    assert not result.success and result.margin == -1 and result.outcome is Outcome.FAILURE


def test_bonus_dice_add_plain_dice_and_bonus_pips_add_to_the_total():
    asked: list[DiceRequest] = []
    result = check("2D", 10, [2, 3, 4], asked, bonus_dice=1, bonus_pips=2)
    assert asked[0].count == 3 and roles(asked[0]) == [Role.WILD, None, None]
    assert result.total == 2 + 3 + 4 + 2


def test_die_code_penalty_removes_dice_but_never_all():
    asked: list[DiceRequest] = []
    check("3D", 5, [2, 3], asked, bonus_dice=-1)
    assert asked[0].count == 2
    with pytest.raises(RulesError, match="no dice"):
        check("1D", 5, [], bonus_dice=-1)


# --- the wild die -----------------------------------------------------------------------------

def test_only_one_die_is_the_wild_die():
    asked: list[DiceRequest] = []
    result = check("1D+2", 5, [4], asked)
    assert roles(asked[0]) == [Role.WILD] and result.total == 6


def test_explosion_chain_6_6_3_rethrows_the_wild_die_alone():
    asked: list[DiceRequest] = []
    result = check("4D+1", 15, [6, 4, 2, 5, 6, 3], asked)
    assert [r.count for r in asked] == [4, 1, 1]
    assert roles(asked[1]) == [Role.WILD] and roles(asked[2]) == [Role.WILD]
    assert result.total == 6 + 6 + 3 + 4 + 2 + 5 + 1
    assert result.detail["wild_die"] == [6, 6, 3]
    assert [(f.value, f.role) for f in result.faces] == [
        (6, Role.WILD), (4, None), (2, None), (5, None), (6, Role.WILD), (3, Role.WILD)]
    assert result.outcome is Outcome.CRITICAL_SUCCESS


def test_a_six_on_a_plain_die_does_not_explode():
    asked: list[DiceRequest] = []
    result = check("3D", 10, [2, 6, 6], asked)
    assert len(asked) == 1 and result.total == 14 and result.outcome is Outcome.SUCCESS


def test_wild_six_on_a_failed_check_is_a_plain_failure():
    result = check("2D", 20, [6, 1, 2])
    assert result.total == 9 and result.outcome is Outcome.FAILURE


def test_a_1_after_an_explosion_is_a_plain_1():
    for critical in CriticalOption:
        result = check("3D", 10, [6, 4, 2, 1], critical=critical)
        assert result.total == 6 + 1 + 4 + 2
        assert result.detail["cancelled"] == [] and result.complication is None
        assert not result.detail["wild_critical_failure"]
        assert result.outcome is Outcome.CRITICAL_SUCCESS


def test_endless_sixes_are_refused_after_the_cap():
    with pytest.raises(RulesError, match="6 more than"):
        check("1D", 5, [6] * (MAX_EXPLOSIONS + 1))
    assert check("1D", 5, [6] * MAX_EXPLOSIONS + [2]).total == 6 * MAX_EXPLOSIONS + 2


# --- critical failure: cancel -----------------------------------------------------------------

def test_cancel_removes_the_wild_1_and_the_highest_plain_die():
    result = check("4D+1", 5, [1, 4, 2, 5], critical=CANCEL)
    assert result.total == 4 + 2 + 1
    assert result.detail["cancelled"] == [1, 5]
    assert result.outcome is Outcome.SUCCESS and result.complication is None


def test_cancel_that_makes_the_check_fail_is_a_critical_failure():
    result = check("4D+1", 10, [1, 4, 2, 5])
    assert result.total == 7 and not result.success and result.outcome is Outcome.CRITICAL_FAILURE


def test_cancel_is_the_default_option():
    assert OpenD6Check(DieCode(2), 5).critical is CANCEL
    assert check("2D", 1, [1, 3]).total == 0


def test_cancel_with_only_the_wild_die_leaves_the_pips():
    result = check("1D+2", 3, [1])
    assert result.total == 2 and result.detail["cancelled"] == [1]
    assert result.outcome is Outcome.CRITICAL_FAILURE


def test_cancel_removes_one_of_equal_highest_dice():
    assert check("4D", 5, [1, 5, 5, 2]).total == 7


# --- critical failure: complication -----------------------------------------------------------

@pytest.mark.parametrize("difficulty, gravity, outcome", [
    (13, "minor", Outcome.SUCCESS),
    (14, "moderate", Outcome.CRITICAL_FAILURE),
    (18, "moderate", Outcome.CRITICAL_FAILURE),
    (19, "serious", Outcome.CRITICAL_FAILURE),
    (23, "serious", Outcome.CRITICAL_FAILURE),
    (24, "disaster", Outcome.CRITICAL_FAILURE),
])
def test_complication_adds_normally_and_its_gravity_follows_the_total(difficulty, gravity, outcome):
    result = check("4D+1", difficulty, [1, 4, 2, 5], critical=COMPLICATION)
    assert result.total == 13 and result.detail["cancelled"] == []
    assert result.complication == gravity and result.outcome is outcome


def test_complication_gravity_scale():
    assert [complication_gravity(m) for m in (7, 0, -1, -5, -6, -10, -11, -40)] == [
        "minor", "minor", "moderate", "moderate", "serious", "serious", "disaster", "disaster"]


def test_no_complication_without_a_first_throw_1():
    assert check("3D", 5, [2, 1, 1], critical=COMPLICATION).complication is None


# --- Character Points -------------------------------------------------------------------------

def test_character_point_dice_come_after_the_wild_die_and_before_plain_dice():
    asked: list[DiceRequest] = []
    check("3D", 5, [2, 3, 4, 1, 1], asked, character_points=2)
    assert roles(asked[0]) == [Role.WILD, Role.BONUS_WILD, Role.BONUS_WILD, None, None]


def test_character_point_die_explodes_and_its_1_is_just_1():
    asked: list[DiceRequest] = []
    result = check("2D", 10, [3, 6, 1, 4, 2], asked, character_points=2, critical=COMPLICATION)
    # wild 3, CP dice 6 and 1, plain 4; the CP 6 explodes into a 2.
    assert roles(asked[1]) == [Role.BONUS_WILD]
    assert result.total == 3 + 6 + 2 + 1 + 4
    assert result.complication is None and result.detail["cancelled"] == []
    assert result.outcome is Outcome.SUCCESS and not result.detail["wild_critical_failure"]


def test_wild_and_character_point_dice_explode_together_wild_first():
    asked: list[DiceRequest] = []
    result = check("2D", 10, [6, 6, 3, 6, 2, 4], asked, character_points=1)
    # first throw: wild 6, CP 6, plain 3; again: wild 6, CP 2; again: wild 4
    assert [roles(r) for r in asked] == [[Role.WILD, Role.BONUS_WILD, None], [Role.WILD, Role.BONUS_WILD],
                                         [Role.WILD]]
    assert result.total == 6 + 6 + 3 + 6 + 2 + 4
    assert result.detail["wild_die"] == [6, 6, 4]


def test_character_points_after_the_throw_are_asked_for_afterwards():
    asked: list[DiceRequest] = []
    result = check("2D", 15, [2, 3, 6, 4], asked, character_points_after=1)
    assert [roles(r) for r in asked] == [[Role.WILD, None], [Role.BONUS_WILD], [Role.BONUS_WILD]]
    assert "after" in asked[1].purpose
    assert result.total == 2 + 3 + 6 + 4 and result.success


def test_character_points_before_and_after_on_one_roll():
    asked: list[DiceRequest] = []
    result = check("1D", 5, [5, 2, 3, 4], asked, character_points=1, character_points_after=2)
    assert [r.count for r in asked] == [2, 2]
    assert result.total == 14 and result.detail["character_point_dice"] == 3


def test_character_point_dice_are_never_cancelled():
    # wild 1, CP die 5, plain 3: the 1 and the highest plain die (3) go, the CP 5 stays.
    result = check("2D", 3, [1, 5, 3], character_points=1)
    assert result.total == 5 and result.detail["cancelled"] == [1, 3]


def test_negative_character_points_are_refused():
    with pytest.raises(RulesError):
        check("2D", 5, [], character_points=-1)


# --- Fate Point -------------------------------------------------------------------------------

def test_fate_point_doubles_own_dice_with_one_wild_die_not_bonuses_or_pips():
    asked: list[DiceRequest] = []
    faces = [2, 3, 3, 3, 3, 3, 3]
    result = check("3D+1", 10, faces, asked, fate_point=True, bonus_dice=1)
    assert asked[0].count == 3 * 2 + 1
    assert roles(asked[0]).count(Role.WILD) == 1 and roles(asked[0])[0] is Role.WILD
    assert result.total == sum(faces) + 1
    assert result.detail["fate_point"] is True


def test_fate_point_on_1d_gives_a_wild_and_a_plain_die():
    asked: list[DiceRequest] = []
    check("1D", 2, [3, 4], asked, fate_point=True)
    assert roles(asked[0]) == [Role.WILD, None]


def test_fate_point_and_character_points_need_the_cinematic_override():
    with pytest.raises(RulesError, match="same roll"):
        check("2D", 5, [], fate_point=True, character_points=1)
    with pytest.raises(RulesError, match="same roll"):
        check("2D", 5, [], fate_point=True, character_points_after=1)
    result = check("2D", 5, [2, 3, 4, 5, 1], fate_point=True, character_points=1, cinematic=True)
    assert result.total == 15


# --- untrained, related skills, extra time, rushing -------------------------------------------

def test_untrained_adds_the_unskilled_modifier_to_the_difficulty():
    result = check("3D", 10, [4, 4, 4], unskilled_modifier=5)
    assert result.difficulty == 15 and not result.success and result.detail["base_difficulty"] == 10
    assert check("3D", 10, [4, 4, 4], unskilled_modifier=1).difficulty == 11


def test_negative_unskilled_modifier_is_refused():
    with pytest.raises(RulesError):
        check("3D", 10, [], unskilled_modifier=-1)


@pytest.mark.parametrize("points, modifier", [
    (4, 2),  # the seed's example: beat the difficulty by four points, +2
    (0, 1), (1, 1), (2, 1), (3, 2), (9, 5), (-1, -1), (-2, -1), (-3, -2), (-8, -4)])
def test_related_skill_modifier(points, modifier):
    assert related_skill_modifier(points) == modifier


def test_related_skills_modify_the_primary_total():
    result = check("3D", 10, [3, 3, 3], related=(4, -3))
    assert result.total == 9 + 2 - 2
    assert check("3D", 10, [3, 3, 3], related=(4,)).total == 11
    assert check("3D", 10, [3, 3, 3], related=(4,)).detail["related_modifier"] == 2


def test_check_reports_its_own_modifier_as_a_related_skill():
    # A search roll beating its difficulty by 4 gives +2 to the demolitions roll.
    search = check("3D", 10, [4, 5, 5])
    assert search.detail["modifier_as_related_skill"] == 2
    assert check("3D", 15, [4, 5, 5]).detail["modifier_as_related_skill"] == -1


@pytest.mark.parametrize("doublings, dice", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 3), (10, 3)])
def test_extra_time_gives_a_die_per_doubling_up_to_3(doublings, dice):
    assert extra_time_dice(doublings) == dice
    asked: list[DiceRequest] = []
    check("2D", 5, [2] * (2 + dice), asked, extra_time=doublings)
    assert asked[0].count == 2 + dice


def test_extra_time_dice_are_not_doubled_by_a_fate_point():
    asked: list[DiceRequest] = []
    check("2D", 5, [2] * 6, asked, extra_time=2, fate_point=True)
    assert asked[0].count == 6


@pytest.mark.parametrize("percent, modifier", [(0, 0), (25, 5), (50, 10), (75, 20)])
def test_rushing_raises_the_difficulty(percent, modifier):
    assert rush_modifier(percent) == modifier
    assert check("3D", 10, [4, 4, 4], rush=percent).difficulty == 10 + modifier


def test_the_seed_surgery_example_rushed_to_half_time_is_plus_10():
    assert check("3D", 15, [6, 4, 4, 2], rush=50).difficulty == 25


@pytest.mark.parametrize("percent", [80, 100, 30, -25])
def test_rushing_more_than_75_percent_or_off_the_steps_is_refused(percent):
    with pytest.raises(RulesError):
        check("3D", 10, [], rush=percent)


# --- difficulties, automatic, result points ---------------------------------------------------

def test_difficulty_names_stand_for_the_top_of_their_range():
    assert DIFFICULTIES == {"automatic": 0, "very easy": 5, "easy": 10, "moderate": 15, "difficult": 20,
                            "very difficult": 25, "heroic": 30, "legendary": 35}


def test_automatic_difficulty_needs_no_roll():
    asked: list[DiceRequest] = []
    result = check("3D", 0, [], asked)
    assert asked == [] and result.success and result.faces == ()
    with pytest.raises(RulesError, match="automatic"):
        check("3D", 0, [], character_points=1)


def test_automatic_difficulty_made_harder_is_rolled():
    assert check("3D", 0, [1, 1, 2], unskilled_modifier=5).difficulty == 5


def test_negative_difficulty_is_refused():
    with pytest.raises(RulesError):
        check("3D", -1, [])


@pytest.mark.parametrize("points, half, damage", [(-3, 0, 0), (0, 0, 0), (1, 1, 1), (4, 2, 1), (5, 3, 1),
                                                  (6, 3, 2), (10, 5, 2), (11, 6, 3)])
def test_result_point_bonuses_round_up(points, half, damage):
    assert half_bonus(points) == half and damage_bonus(points) == damage


def test_attack_reports_a_fifth_of_the_result_points_as_damage_bonus():
    hit = check("4D", 10, [6, 5, 5, 5, 5], attack=True)  # 26 vs 10: 16 result points
    assert hit.detail["result_points"] == 16 and hit.detail["damage_bonus"] == 4
    assert hit.detail["half_bonus"] == 8
    assert "damage_bonus" not in check("4D", 10, [2, 5, 5, 5]).detail


# --- opposed rolls ----------------------------------------------------------------------------

def opposed(mine: str, theirs: str, faces: list[int], asked=None, **options):
    return run(resolve_opposed(OpenD6Opposed(OpenD6Roll(parse_die_code(mine)), OpenD6Roll(parse_die_code(theirs)),
                                             **options)), faces, asked)


def test_opposed_higher_total_wins_initiator_throws_first():
    asked: list[DiceRequest] = []
    result = opposed("3D", "2D+1", [4, 4, 4, 5, 5], asked)
    assert [r.actor for r in asked] == ["initiator", "resistor"]
    assert (result.total, result.difficulty, result.margin, result.success) == (12, 11, 1, True)
    assert [f.role for f in result.faces] == [Role.WILD, None, None, Role.WILD, None]


def test_opposed_tie_goes_to_the_initiator_unless_told_otherwise():
    assert opposed("3D", "2D", [4, 4, 4, 6, 2, 4]).success  # 12 against wild 6, plain 2, wild again 4 = 12
    assert not opposed("3D", "2D", [4, 4, 4, 6, 2, 4], ties_to_initiator=False).success


def test_opposed_resistor_complication_is_reported():
    result = run(resolve_opposed(OpenD6Opposed(
        OpenD6Roll(DieCode(2)), OpenD6Roll(DieCode(2), critical=COMPLICATION))), [3, 3, 1, 2])
    assert result.success and result.detail["resistor"]["complication"] == "moderate"
    assert result.complication is None


def test_opposed_initiator_critical_failure():
    result = opposed("2D", "2D", [1, 6, 3, 3])
    assert result.total == 0 and result.outcome is Outcome.CRITICAL_FAILURE


# --- properties -------------------------------------------------------------------------------

checks = st.builds(
    OpenD6Check,
    st.builds(DieCode, st.integers(1, 6), st.integers(-2, 3)),
    st.integers(1, 40),
    critical=st.sampled_from(CriticalOption),
    character_points=st.integers(0, 2),
    character_points_after=st.integers(0, 2),
    bonus_dice=st.integers(0, 2),
    bonus_pips=st.integers(-2, 2),
    extra_time=st.integers(0, 4),
    related=st.lists(st.integers(-6, 6), max_size=2).map(tuple),
    rush=st.sampled_from([0, 25, 50, 75]),
    unskilled_modifier=st.none() | st.integers(0, 5),
)


@settings(max_examples=300, deadline=None)
@given(params=checks, data=st.data())
def test_random_faces_never_crash_and_the_total_stays_in_range(params, data):
    result = drive(resolve_check(params), drawn_faces(data))
    thrown = sum(f.value for f in result.faces)
    base = params.pips + params.related_modifier
    wild_first = result.faces[0]
    assert wild_first.role is Role.WILD
    if wild_first.value == 1 and params.critical is CANCEL:
        assert base + thrown - 7 <= result.total <= base + thrown - 1
    else:
        assert result.total == base + thrown
    assert result.success == (result.total >= params.effective_difficulty)
    assert result.margin == result.total - result.difficulty
    assert (result.complication is not None) == (wild_first.value == 1 and params.critical is COMPLICATION)
    assert sum(f.role is Role.BONUS_WILD for f in result.faces) >= params.character_points + \
        params.character_points_after


@settings(max_examples=100, deadline=None)
@given(faces=st.lists(st.integers(0, 8), max_size=8))
def test_arbitrary_scripted_faces_give_a_result_or_a_typed_error(faces):
    try:
        result = check("3D+1", 12, faces)
    except ThrowMismatch:
        return
    assert 1 <= result.total <= sum(faces) + 1
