"""Exact odds of d6-pool checks, opposed checks, attacks and blocks (the rulings of :mod:`rules.d6pool`).

Everything here is a finite distribution: sums of d6 by repeated squaring, ``1d6 x stat``
by mapping. A difficulty the GM throws is one more independent sum. Ties thrown again
(:attr:`TieRule.REROLL`) are an identical repetition, so the odds are those of one throw
conditioned on not tying: exact, with no cap (the resolver's 100-re-roll guard against a
broken source, probability below ``6**-100``, is ignored).
"""

from __future__ import annotations

from fractions import Fraction

from rules.d6pool import (SYSTEM, D6PoolAttack, D6PoolBlock, D6PoolCheck, D6PoolOpposed, TieRule, resolve_attack,
                          resolve_block, resolve_check, resolve_opposed)
from rules.odds.dist import Dist, die, from_counts, repeat
from rules.odds.tree import needs_dice
from rules.odds.result import Odds
from rules.result import Outcome

D6 = die(6)


def pool(dice: int) -> Dist:
    """The sum of ``dice`` d6."""
    return repeat(D6, dice)


def _plain(success: Fraction, total: Dist, margin: Dist | None, notes: tuple[str, ...] = ()) -> Odds:
    return Odds(SYSTEM, success, {Outcome.SUCCESS: success, Outcome.FAILURE: 1 - success}, Fraction(0),
                total, margin, notes=notes)


def check_odds(params: D6PoolCheck) -> Odds:
    """A pool against a fixed difficulty or against the GM's thrown dice."""
    needs_dice(resolve_check(params))
    difficulty = params.difficulty.shifted(-params.helpers)
    total = pool(params.dice)
    if not difficulty.thrown:
        return _plain(total.at_least(difficulty.amount), total, total + (-difficulty.amount))
    return contest(total, pool(difficulty.amount), TieRule.INITIATOR)


def contest(mine: Dist, theirs: Dist, ties: TieRule) -> Odds:
    """My total against theirs: I win above it, a tie goes by ``ties`` (re-rolled ties condition on no tie)."""
    margin = mine - theirs
    total = mine
    notes: tuple[str, ...] = ()
    if ties is TieRule.REROLL:
        margin = without(margin, 0)
        total = from_counts({v: c * (theirs.denom - theirs.count(v)) for v, c in mine.pairs()},
                            mine.denom * theirs.denom - margin_ties(mine, theirs))
        notes = ("ties re-rolled: odds of the final throw",)
    first = 0 if ties is TieRule.INITIATOR else 1
    return _plain(margin.at_least(first), total, margin, notes)


def margin_ties(mine: Dist, theirs: Dist) -> int:
    """The count of tied outcomes over ``mine.denom * theirs.denom``."""
    return sum(c * theirs.count(v) for v, c in mine.pairs())


def without(d: Dist, value: int) -> Dist:
    """``d`` conditioned on not being ``value``."""
    counts = dict(d.pairs())
    removed = counts.pop(value, 0)
    return from_counts(counts, d.denom - removed)


def opposed_odds(params: D6PoolOpposed) -> Odds:
    """Two pools against each other, from the initiator's side."""
    needs_dice(resolve_opposed(params))
    return contest(pool(params.dice), pool(params.opponent_dice), params.ties)


def attack_odds(params: D6PoolAttack) -> Odds:
    """1d6 x Power, against 1d6 x Resilience when a block is given."""
    needs_dice(resolve_attack(params))
    attack = D6.map(lambda v: v * params.power)
    if params.block is None:
        return _plain(Fraction(1), attack, None, ("no block given: the attack total stands",))
    return contest(attack, D6.map(lambda v: v * params.block), params.ties)


def block_odds(params: D6PoolBlock) -> Odds:
    """1d6 x Resilience, holding against a known attack total unless the attack wins."""
    needs_dice(resolve_block(params))
    block = D6.map(lambda v: v * params.resilience)
    if params.attack is None:
        return _plain(Fraction(1), block, None, ("no attack given: the block total stands",))
    # The block holds when the attack does not win: above the attack, or level with a tie to the resistor.
    first = 1 if params.ties is TieRule.INITIATOR else 0
    return _plain(block.at_least(params.attack + first), block, block + (-params.attack))


ODDS = {D6PoolCheck: check_odds, D6PoolOpposed: opposed_odds, D6PoolAttack: attack_odds, D6PoolBlock: block_odds}
