"""Odds of True20 checks, attacks, saves, opposed checks, comparisons, aid and simultaneous tasks.

Every True20 roll is one d20 per party, so the resolvers of :mod:`rules.true20` are
enumerated exactly (:mod:`rules.odds.tree`): at most 20 x 20 outcomes per round. An opposed
check with equal modifiers throws a tie again, identically, so its odds are one round's
conditioned on not tying (``restart_after=2``). Aid is computed helper by helper: the
leader's check depends on the helpers only through the sum of their bonuses.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rules.odds.dist import Dist, constant, from_fractions
from rules.odds.result import Odds, by_enumeration, enumerated, odds_from_leaves
from rules.odds.tree import Leaves, enumerate_checks, needs_dice
from rules.true20 import (SYSTEM, True20Aid, True20Attack, True20Check, True20Comparison, True20Opposed, True20Save,
                          True20Simultaneous, aid_bonus, resolve_aid, resolve_attack, resolve_check,
                          resolve_comparison, resolve_opposed, resolve_save, resolve_simultaneous)


def opposed_odds(params: True20Opposed) -> Odds:
    """Higher total wins; a tie goes to the higher modifier, equal modifiers throw again."""
    again = 2 if params.modifier == params.opponent_modifier else None
    return enumerated(SYSTEM, lambda: resolve_opposed(params), restart_after=again)


def aid_odds(params: True20Aid) -> Odds:
    """The helpers' bonuses add up; the leader checks with their sum."""
    needs_dice(resolve_aid(params))
    bonus: Dist = constant(0)
    for helper in params.helpers:
        helping = enumerate_checks(lambda h=helper: resolve_check(True20Check(h.modifier, 10, take=h.take)))
        bonus = bonus + from_fractions(_accumulate((aid_bonus(r.total), w) for w, r in helping.results))
    results = []
    for b, p in bonus.items():
        leader = replace(params.leader, aid_bonus=params.leader.aid_bonus + b)
        results += [(p * w, r) for w, r in enumerate_checks(lambda: resolve_check(leader)).results]
    return odds_from_leaves(SYSTEM, Leaves(tuple(results), Fraction(0)))


def _accumulate(pairs) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for value, p in pairs:
        out[value] = out.get(value, Fraction(0)) + p
    return out


ODDS = {True20Check: by_enumeration(SYSTEM, resolve_check), True20Attack: by_enumeration(SYSTEM, resolve_attack),
        True20Save: by_enumeration(SYSTEM, resolve_save), True20Opposed: opposed_odds,
        True20Comparison: by_enumeration(SYSTEM, resolve_comparison), True20Aid: aid_odds,
        True20Simultaneous: by_enumeration(SYSTEM, resolve_simultaneous)}
