"""The d20 core rules (seed 003): the core check, dice expressions, d%, rounding, multipliers.

- A check is d20 + modifiers against a target number; meeting the target succeeds.
  Natural 20 and natural 1 have no special meaning on a core check.
- Dice expressions (``3d4+3``, ``1d8+1d10``, ``2d6-1``) are thrown in one request;
  designated dice come first: for each ``d%`` its tens die (:attr:`Role.TENS`), then its
  units die (:attr:`Role.UNITS`), then the plain dice in the order written.
- ``d%`` reads tens digit and units digit; two 0s read 100.
- Fractions round down unless a rule says up; some results have a minimum of 1.
- Abstract multipliers (on modifiers and rolls) combine by adding each extra multiple's
  value less 1 (x2 and x2 make x3; x4 and x3 make x6); real-world multipliers multiply.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from rules.dice import DiceRequest, DieSpec, Face, Role, Throw
from rules.errors import require
from rules.notation import PERCENTILE, DiceTerm, Expression
from rules.protocol import Resolution
from rules.result import CheckResult, RollResult, outcome_of

SYSTEM = "d20"


class Rounding(str, Enum):
    """How a fraction is rounded: down by default, up only where a rule says so."""

    DOWN = "down"
    UP = "up"


def divide(value: int, divisor: int, rounding: Rounding = Rounding.DOWN, minimum: int | None = None) -> int:
    """``value / divisor`` rounded as the rule says, raised to ``minimum`` when one applies."""
    require(divisor > 0, "divide by a positive number")
    quotient = -(-value // divisor) if rounding is Rounding.UP else value // divisor
    return quotient if minimum is None else max(minimum, quotient)


def combine_multipliers(multipliers: Iterable[int]) -> int:
    """One multiple from several abstract ones: the first plus each other's value less 1."""
    values = list(multipliers)
    require(all(m >= 1 for m in values), "multipliers are whole numbers of 1 or more")
    return 1 + sum(m - 1 for m in values)


def real_multiplier(multipliers: Iterable[int | float]) -> float:
    """Real-world multipliers (weight, distance) multiply normally."""
    product = 1.0
    for m in multipliers:
        product *= m
    return product


def percentile_value(tens: Face, units: Face) -> int:
    """The 1..100 reading of a tens die and a units die (both d10; 0 and 0 read 100)."""
    return tens.digit * 10 + units.digit or 100


@dataclass(frozen=True)
class D20Check:
    """A core check: d20 + ``modifier`` against ``difficulty`` (the target number)."""

    modifier: int
    difficulty: int


def check(params: D20Check) -> Resolution[CheckResult]:
    """d20 + modifier >= difficulty succeeds."""
    throw = yield DiceRequest((DieSpec(20),), "d20 check")
    total = throw.faces[0].value + params.modifier
    success = total >= params.difficulty
    return CheckResult(SYSTEM, total, params.difficulty, success, outcome_of(success), throw.faces,
                       margin=total - params.difficulty, detail={"modifier": params.modifier})


@dataclass(frozen=True)
class DiceRoll:
    """A dice expression, with abstract multipliers and an optional rounded division."""

    expression: Expression
    multipliers: tuple[int, ...] = ()
    divisor: int = 1
    rounding: Rounding = Rounding.DOWN
    minimum: int | None = None


def dice_request(expression: Expression) -> DiceRequest:
    """All dice of ``expression`` in one throw, designated percentile dice first."""
    designated: list[DieSpec] = []
    plain: list[DieSpec] = []
    for term in expression.dice:
        if term.sides == PERCENTILE:
            for _ in range(term.count):
                designated += [DieSpec(10, Role.TENS), DieSpec(10, Role.UNITS)]
        else:
            plain += [DieSpec(term.sides)] * term.count
    return DiceRequest(tuple(designated + plain), str(expression))


def term_values(expression: Expression, throw: Throw) -> list[tuple[DiceTerm, int]]:
    """Each dice term with the signed sum its dice contributed, in the order written."""
    designated = iter([f for f in throw.faces if f.role is not None])
    plain = iter([f for f in throw.faces if f.role is None])
    out = []
    for term in expression.dice:
        if term.sides == PERCENTILE:
            value = sum(percentile_value(next(designated), next(designated)) for _ in range(term.count))
        else:
            value = sum(next(plain).value for _ in range(term.count))
        out.append((term, term.sign * value))
    return out


def roll(params: DiceRoll) -> Resolution[RollResult]:
    """Throw a dice expression and total it, applying combined multipliers then the division."""
    expression = params.expression
    if not expression.dice:
        return RollResult(SYSTEM, str(expression), expression.constant, ())
    throw = yield dice_request(expression)
    parts = term_values(expression, throw)
    total = sum(v for _, v in parts) + expression.constant
    notes: list[str] = []
    if params.multipliers:
        factor = combine_multipliers(params.multipliers)
        total *= factor
        notes.append(f"multipliers {' and '.join(f'x{m}' for m in params.multipliers)} combine to x{factor}")
    if params.divisor != 1 or params.minimum is not None:
        total = divide(total, params.divisor, params.rounding, params.minimum)
        notes.append(f"divided by {params.divisor}, rounded {params.rounding.value}"
                     + (f", minimum {params.minimum}" if params.minimum is not None else ""))
    terms = tuple({"term": str(t), "value": v} for t, v in parts)
    return RollResult(SYSTEM, str(expression), total, throw.faces, terms, tuple(notes))
