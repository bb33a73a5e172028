"""Odds of d20 core checks and dice-expression rolls (the rulings of :mod:`rules.d20`).

A check is one d20, enumerated. A dice expression is a signed sum of independent terms, so
its distribution is built term by term (``d%`` is uniform on 1..100, exactly as two d10
read tens-and-units), then the combined multiplier and the rounded division are mapped
over it: exact for any number of dice, where enumeration would explode.
"""

from __future__ import annotations

from fractions import Fraction

from rules.d20 import SYSTEM, D20Check, DiceRoll, check, combine_multipliers, divide, roll
from rules.notation import PERCENTILE
from rules.odds.dist import Dist, constant, die, repeat
from rules.odds.result import Odds, by_enumeration
from rules.odds.tree import needs_dice


def expression_total(params: DiceRoll) -> Dist:
    """The distribution of a dice expression's total after multipliers and division."""
    total = constant(params.expression.constant)
    for term in params.expression.dice:
        dice = repeat(die(term.sides if term.sides != PERCENTILE else 100), term.count)
        total = total + (dice if term.sign > 0 else -dice)
    if params.multipliers:
        factor = combine_multipliers(params.multipliers)
        total = total.map(lambda v: v * factor)
    if params.divisor != 1 or params.minimum is not None:
        total = total.map(lambda v: divide(v, params.divisor, params.rounding, params.minimum))
    return total


def roll_odds(params: DiceRoll) -> Odds:
    """A dice expression has no difficulty: only its total's distribution."""
    needs_dice(roll(params))
    return Odds(SYSTEM, None, {}, Fraction(0), expression_total(params), None)


ODDS = {D20Check: by_enumeration(SYSTEM, check), DiceRoll: roll_odds}
