"""Which odds function answers which parameters: one table per rule system, looked up by type.

Parameters no system module knows (a new action) fall back to enumerating the action's
resolver (:mod:`rules.odds.tree`), deepening the cut on repeated requests while the tree
stays under :data:`FALLBACK_LEAVES`; what is still cut is reported as the error bound.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.odds import d6pool, d20, opend6, osr, true20
from rules.errors import RulesError
from rules.odds.result import Odds, odds_from_leaves
from rules.odds.tree import Leaves, enumerate_checks
from rules.protocol import Resolution

#: Leaves the fallback enumeration may visit per depth (about a second at worst).
FALLBACK_LEAVES = 20_000

ODDS: dict[type, Callable[[Any], Odds]] = {**true20.ODDS, **opend6.ODDS, **osr.ODDS, **d20.ODDS, **d6pool.ODDS}


def odds_of(system: str, params: Any, resolve: Callable[[Any], Resolution[Any]]) -> Odds:
    """The exact odds of ``resolve(params)``, by the system's own module where it has one."""
    known = ODDS.get(type(params))
    if known is not None:
        return known(params)
    return _deepening(system, lambda: resolve(params))


def _deepening(system: str, make: Callable[[], Resolution[Any]]) -> Odds:
    deepest: Leaves | None = None
    for depth in (2, 4, 6, 8, 10, 12):
        try:
            leaves = enumerate_checks(make, max_requests=depth, max_leaves=FALLBACK_LEAVES)
        except RulesError:
            if deepest is None:
                raise
            break
        if not any(hasattr(r, "total") or getattr(r, "success", None) is not None for _, r in leaves.results):
            raise RulesError(f"{system}: this action has no success or total to give odds of")
        deepest = leaves
        if not leaves.unresolved:
            break
    assert deepest is not None
    return odds_from_leaves(system, deepest)
