"""Exact odds of OpenD6 checks and opposed rolls (the rulings of :mod:`rules.opend6`).

A roll's total depends on the wild die's first throw in three ways, so it is computed as a
mixture of three exact distributions:

- a first **1** (1/6): under ``cancel`` the plain dice lose their highest die (the
  distribution of *sum minus maximum*, counted exactly per maximum), under
  ``complication`` the 1 is added and a complication is flagged;
- a first **6** (1/6): 6 plus a fresh exploding wild die;
- **2-5** (4/6): that face.

Character Point dice (before or after the throw alike) are independent exploding dice.
Exploding dice are unbounded; they are held exactly to a depth chosen from the threshold
asked about, with the rest of their mass as an exact censored tail (see
:mod:`rules.odds.dist`), so a check's success and outcome probabilities are exact, with no
truncation error at all. An opposed roll compares two unbounded totals; there the chains
are held 20 re-throws deep and the mass where either total is censored (below 1e-13,
printed as the error bound) is left unresolved.

The resolver's guard against a broken source (100 sixes in a row on one wild die raise an
error) has probability ``6**-100`` and is ignored.
"""

from __future__ import annotations

from fractions import Fraction

from rules.odds.dist import Dist, constant, convolve, die, exploding, explode_depth_for, from_counts, mix, repeat
from rules.odds.tree import needs_dice
from rules.odds.result import Odds, missing_as_tail
from rules.opend6 import (SYSTEM, CriticalOption, OpenD6Check, OpenD6Opposed, OpenD6Roll, resolve_check,
                          resolve_opposed, resolve_roll)
from rules.result import Outcome

SIXTH = Fraction(1, 6)
#: Exploding chains held this deep in opposed rolls: a censored mass of about 6**-21 per die.
OPPOSED_DEPTH = 20
#: At least this depth for the distribution shown (its censored tail is below 6**-6 per die).
SHOWN_DEPTH = 5


def sum_minus_highest(n: int) -> Dist:
    """The sum of ``n`` d6 without their highest die (0 for no dice), counted exactly per maximum."""
    if n == 0:
        return constant(0)
    counts: dict[int, int] = {}
    below: Dist | None = None  # tuples of n dice all at most m-1
    for m in range(1, 7):
        upto = repeat(Dist(1, (1,) * m, m), n)  # counts = number of n-tuples with every die <= m
        for i, c in enumerate(upto.counts):
            s = upto.low + i
            exact = c - (below.counts[s - below.low] if below and below.low <= s < below.top else 0)
            if exact:
                counts[s - m] = counts.get(s - m, 0) + exact
        below = upto
    return from_counts(counts, 6 ** n)


def roll_parts(params: OpenD6Roll, depth: int) -> dict[str, tuple[Fraction, Dist]]:
    """The total of one roll for each first throw of the wild die: ``one``, ``six``, ``middle``."""
    plain_dice = params.dice - 1
    plain = repeat(die(6), plain_dice)
    wild = exploding(6, depth)
    bonus = repeat(wild, params.character_points + params.character_points_after)
    offset = params.pips + params.related_modifier
    if params.critical is CriticalOption.CANCEL:
        one = convolve(sum_minus_highest(plain_dice), bonus)
    else:
        one = plain + bonus + 1
    rest = plain + bonus
    return {"one": (SIXTH, one + offset),
            "six": (SIXTH, rest + wild + (6 + offset)),
            "middle": (4 * SIXTH, rest + Dist(2, (1, 1, 1, 1), 4) + offset)}


def _exact_parts(params: OpenD6Roll, threshold: int) -> dict[str, tuple[Fraction, Dist]]:
    """:func:`roll_parts` deep enough that ``P(total >= threshold)`` is exact in every part."""
    depth = max(SHOWN_DEPTH, explode_depth_for(threshold - params.pips - params.related_modifier))
    while True:
        parts = roll_parts(params, depth)
        if all(d.finite or d.top >= threshold for _, d in parts.values()):
            return parts
        depth += 2


def check_odds(params: OpenD6Check) -> Odds:
    """Exact odds of an OpenD6 check against its effective difficulty."""
    difficulty = params.effective_difficulty
    if not needs_dice(resolve_check(params)):
        return Odds(SYSTEM, Fraction(1), {Outcome.SUCCESS: Fraction(1)}, Fraction(0), constant(0), constant(0),
                    notes=("automatic difficulty: no roll needed",))
    threshold = difficulty if params.ties_to_initiator else difficulty + 1
    parts = _exact_parts(params, threshold)
    win = {name: w * d.at_least(threshold) for name, (w, d) in parts.items()}
    one_weight, one = parts["one"]
    success = sum(win.values(), Fraction(0))
    critical_success = win["six"]
    critical_failure = one_weight - win["one"]
    total = mix(parts.values())
    complication = one_weight if params.critical is CriticalOption.COMPLICATION else Fraction(0)
    extra = _gravities(one, difficulty, one_weight) if complication else {}
    return Odds(SYSTEM, success, _outcomes(success, critical_success, critical_failure), complication,
                total, total + (-difficulty), extra=extra,
                notes=("exact: the exploding dice's unbounded tail is summed in closed form",))


def _outcomes(success: Fraction, critical_success: Fraction, critical_failure: Fraction) -> dict[Outcome, Fraction]:
    return {Outcome.CRITICAL_SUCCESS: critical_success, Outcome.SUCCESS: success - critical_success,
            Outcome.FAILURE: 1 - success - critical_failure, Outcome.CRITICAL_FAILURE: critical_failure}


def _gravities(one: Dist, difficulty: int, weight: Fraction) -> dict[str, Fraction]:
    """P(complication of each gravity), from the margin when the wild die's first throw is 1."""
    minor = one.at_least(difficulty)
    moderate = one.at_least(difficulty - 5) - minor
    serious = one.at_least(difficulty - 10) - minor - moderate
    return {"complication_minor": weight * minor, "complication_moderate": weight * moderate,
            "complication_serious": weight * serious,
            "complication_disaster": weight * (1 - minor - moderate - serious)}


def roll_odds(params: OpenD6Roll) -> Odds:
    """A die code rolled with no difficulty: the distribution of its total (tail censored, exact)."""
    needs_dice(resolve_roll(params))
    parts = roll_parts(params, SHOWN_DEPTH)
    return Odds(SYSTEM, None, {}, Fraction(0), mix(parts.values()), None,
                notes=("exact: the exploding dice's unbounded tail is held as one censored mass",
                       "the wild die's first throw is a 1 one time in 6"))


def opposed_odds(params: OpenD6Opposed) -> Odds:
    """Odds of an opposed roll, from the initiator's side; exact to within the printed error bound."""
    needs_dice(resolve_opposed(params))
    mine = roll_parts(params.initiator, OPPOSED_DEPTH)
    theirs = mix(roll_parts(params.resistor, OPPOSED_DEPTH).values())
    margins: dict[str, tuple[Fraction, dict[int, Fraction]]] = {}
    lost = Fraction(0)
    for name, (w, d) in mine.items():
        points, missing = difference(d, theirs)
        margins[name] = (w, points)
        lost += w * missing
    first = 0 if params.ties_to_initiator else 1
    win = {name: w * sum((p for m, p in pts.items() if m >= first), Fraction(0)) for name, (w, pts) in margins.items()}
    success = sum(win.values(), Fraction(0))
    one_weight = mine["one"][0]
    # A first-throw 1 that does not win is a critical failure; unresolved mass lies in the error bound.
    critical_failure = one_weight * sum((p for m, p in margins["one"][1].items() if m < first), Fraction(0))
    margin: dict[int, Fraction] = {}
    for w, pts in margins.values():
        for m, p in pts.items():
            margin[m] = margin.get(m, Fraction(0)) + w * p
    complication = one_weight if params.initiator.critical is CriticalOption.COMPLICATION else Fraction(0)
    return Odds(SYSTEM, success, _outcomes(success, win["six"], critical_failure), complication,
                mix(mine.values()), missing_as_tail(margin, lost), error=lost,
                notes=(f"exploding chains held {OPPOSED_DEPTH} re-throws deep; "
                       f"every probability is exact to within {float(lost):.1e}",))


def difference(a: Dist, b: Dist) -> tuple[dict[int, Fraction], Fraction]:
    """``P(A - B = m)`` over the exactly known values of both, and the mass left unknown."""
    counts: dict[int, int] = {}
    for i, x in enumerate(a.counts):
        if x:
            for j, y in enumerate(b.counts):
                if y:
                    m = a.low + i - b.low - j
                    counts[m] = counts.get(m, 0) + x * y
    denom = a.denom * b.denom
    known = sum(counts.values())
    return {m: Fraction(c, denom) for m, c in counts.items()}, Fraction(denom - known, denom)


ODDS = {OpenD6Check: check_odds, OpenD6Opposed: opposed_odds, OpenD6Roll: roll_odds}
