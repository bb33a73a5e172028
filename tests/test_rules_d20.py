"""d20 core rules (seed 003): notation, checks, d%, rounding and multipliers."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from reader.sources.scripted import ScriptedDice
from reader.sources.virtual import VirtualDice
from rules import d20
from rules.dice import Role
from rules.errors import NotationError, RulesError
from rules.notation import Constant, DiceTerm, is_die_code, parse_die_code, parse_expression
from rules.protocol import drive
from rules.result import RollResult


def roll(text: str, faces: list[int], **options) -> RollResult:
    return drive(d20.roll(d20.DiceRoll(parse_expression(text), **options)), ScriptedDice(faces).throw_now)


def test_seed_example_3d4_plus_3_spans_6_to_15() -> None:
    assert roll("3d4+3", [1, 1, 1]).total == 6
    assert roll("3d4+3", [4, 4, 4]).total == 15


def test_subtraction_and_mixed_dice() -> None:
    assert roll("2d6-1", [3, 4]).total == 6
    result = roll("1d8+1d10", [8, 0])
    assert result.total == 18
    assert [(f.sides, f.value) for f in result.faces] == [(8, 8), (10, 10)]


def test_percentile_tens_die_first_and_double_zero_is_100() -> None:
    assert roll("d%", [0, 0]).total == 100
    assert roll("d%", [0, 7]).total == 7
    assert roll("d%", [7, 0]).total == 70
    result = roll("d100+5", [4, 2])
    assert result.total == 47
    assert [f.role for f in result.faces] == [Role.TENS, Role.UNITS]


def test_percentile_designated_before_plain_dice() -> None:
    result = roll("1d6+d%", [9, 9, 2])
    assert [f.role for f in result.faces] == [Role.TENS, Role.UNITS, None]
    assert result.total == 99 + 2


def test_parse_round_trip_and_structure() -> None:
    expr = parse_expression(" 2d6 - 1 + d8 ")
    assert expr.terms == (DiceTerm(2, 6), Constant(-1), DiceTerm(1, 8))
    assert str(expr) == "2d6-1+1d8"
    assert parse_die_code("4D+1").dice == 4 and parse_die_code("4D+1").pips == 1
    assert parse_die_code("2D-2").pips == -2
    assert is_die_code("3D") and not is_die_code("3d6")


@pytest.mark.parametrize("text", ["", "d", "3d", "2d6+", "2x6", "100000d6", "1d7", "0d6", "d6++1",
                                  "1d6" + "+1" * 60, "9" * 300])
def test_malformed_or_absurd_expressions(text: str) -> None:
    with pytest.raises(NotationError):
        parse_expression(text)


@pytest.mark.parametrize("text", ["4D+", "D", "4", "4D+1D", "0D", "2000D"])
def test_malformed_die_codes(text: str) -> None:
    with pytest.raises(NotationError):
        parse_die_code(text)


def test_core_check_meets_or_beats_target_and_naturals_are_plain() -> None:
    hit = drive(d20.check(d20.D20Check(3, 15)), ScriptedDice([12]).throw_now)
    assert (hit.total, hit.success, hit.margin) == (15, True, 0)
    miss = drive(d20.check(d20.D20Check(-5, 16)), ScriptedDice([20]).throw_now)
    assert not miss.success and miss.outcome.value == "failure"
    low = drive(d20.check(d20.D20Check(30, 16)), ScriptedDice([1]).throw_now)
    assert low.success


def test_rounding_down_unless_told_and_minimum_one() -> None:
    assert d20.divide(7, 2) == 3
    assert d20.divide(-7, 2) == -4
    assert d20.divide(1, 3, d20.Rounding.UP) == 1  # "one third your level (rounded up)" at 1st level
    assert d20.divide(1, 3, minimum=1) == 1
    assert d20.divide(0, 3) == 0
    with pytest.raises(RulesError):
        d20.divide(1, 0)


def test_abstract_multipliers_combine_and_real_ones_multiply() -> None:
    assert d20.combine_multipliers([2, 2]) == 3
    assert d20.combine_multipliers([4, 3]) == 6
    assert d20.combine_multipliers([2, 2, 2]) == 4
    assert d20.combine_multipliers([5]) == 5
    assert d20.real_multiplier([8, 3]) == 24
    assert d20.real_multiplier([2, 2]) == 4
    assert roll("1d6+1", [5], multipliers=(2, 2)).total == 18
    assert roll("1d4", [1], divisor=3, minimum=1).total == 1


@given(st.lists(st.sampled_from([2, 4, 6, 8, 10, 12, 20]), min_size=1, max_size=8), st.integers(-50, 50),
       st.integers(0, 2**32))
def test_totals_stay_within_the_expression_range(sides: list[int], constant: int, seed: int) -> None:
    text = "+".join(f"1d{s}" for s in sides) + f"{constant:+d}"
    result = drive(d20.roll(d20.DiceRoll(parse_expression(text))), VirtualDice(seed).throw_now)
    assert len(sides) + constant <= result.total <= sum(sides) + constant
