"""Time the exact odds of two checks against the same computation in dyce, in one run.

1. OpenD6 10D+2 with the wild die (critical option ``cancel``) against difficulty 35.
2. d6 pool 10d6 against 10d6 (opposed, ties to the initiator): success and margin distribution.

Both engines must agree exactly (the script checks it), then the best of several runs of
each is printed with the ratio. Run: ``python bench/odds_bench.py``.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from fractions import Fraction

from rules.d6pool import D6PoolOpposed
from rules.notation import DieCode
from rules.odds.d6pool import opposed_odds
from rules.odds.opend6 import check_odds
from rules.opend6 import OpenD6Check

DIFFICULTY = 35
PIPS = 2
DICE = 10


def best_ms(f: Callable[[], object], repeat: int = 7) -> tuple[float, object]:
    """The fastest of ``repeat`` runs of ``f`` in milliseconds, and its last value."""
    times = []
    value = None
    for _ in range(repeat):
        start = time.perf_counter()
        value = f()
        times.append(time.perf_counter() - start)
    return min(times) * 1000, value


def ours_opend6() -> Fraction:
    return check_odds(OpenD6Check(DieCode(DICE, PIPS), DIFFICULTY)).success


def dyce_opend6() -> Fraction:
    """The same check in dyce: the wild die's first throw decides the branch (dyce's ``expand``)."""
    from dyce import H, P
    from dyce.evaluation import expand, explode_n

    plain = DICE - 1
    d6 = H(6)
    # Exact P(total >= 35) needs the wild die's chain held to 6 * (n + 1) >= 35 - 2 - 9 (the rest's minimum).
    depth = -(-(DIFFICULTY - PIPS - plain) // 6) - 1
    rest = plain @ d6

    def branch(wild):  # wild.outcome: the wild die's first throw
        if wild.outcome == 1:  # the 1 and the highest plain die are cancelled
            return (plain @ P(d6)).at(slice(0, plain - 1))  # all but the highest
        if wild.outcome == 6:
            return rest + 6 + explode_n(d6, n=depth)
        return rest + wild.outcome

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dyce flags expand and explode_n as experimental
        total = expand(branch, d6) + PIPS
    hits = total.ge(DIFFICULTY)
    return Fraction(hits.get(True, 0), hits.total)


def ours_pool() -> tuple[Fraction, object]:
    odds = opposed_odds(D6PoolOpposed(DICE, DICE))
    return odds.success, odds.margin


def dyce_pool() -> tuple[Fraction, object]:
    from dyce import H

    margin = DICE @ H(6) - DICE @ H(6)
    wins = margin.ge(0)
    return Fraction(wins.get(True, 0), wins.total), margin


def main() -> None:
    dyce_opend6()  # import dyce outside the timings
    for name, ours, theirs in (("OpenD6 10D+2 (wild die) vs 35", ours_opend6, dyce_opend6),
                               ("d6 pool 10d6 vs 10d6 opposed", ours_pool, dyce_pool)):
        ours_ms, ours_value = best_ms(ours)
        dyce_ms, dyce_value = best_ms(theirs)
        if isinstance(ours_value, tuple):
            (p, margin), (q, h) = ours_value, dyce_value
            same = p == q and all(margin.prob(m) == Fraction(c, h.total) for m, c in h.items())
            p_value = p
        else:
            same, p_value = ours_value == dyce_value, ours_value
        print(f"{name}: P(success) = {float(p_value):.12f} (engines agree exactly: {same})")
        print(f"  dicetable {ours_ms:8.3f} ms   dyce {dyce_ms:8.3f} ms   dyce/dicetable = {dyce_ms / ours_ms:6.1f}x")


if __name__ == "__main__":
    main()
