"""Which odds function answers which parameters: one table per rule system, looked up by type.

Parameters no system module knows (a new action) fall back to enumerating the action's
resolver (:func:`rules.odds.result.enumerated`), which is exact but limited in size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.odds import d6pool, d20, opend6, osr, true20
from rules.odds.result import Odds, enumerated
from rules.protocol import Resolution

ODDS: dict[type, Callable[[Any], Odds]] = {**true20.ODDS, **opend6.ODDS, **osr.ODDS, **d20.ODDS, **d6pool.ODDS}


def odds_of(system: str, params: Any, resolve: Callable[[Any], Resolution[Any]]) -> Odds:
    """The exact odds of ``resolve(params)``, by the system's own module where it has one."""
    known = ODDS.get(type(params))
    if known is not None:
        return known(params)
    return enumerated(system, lambda: resolve(params))
