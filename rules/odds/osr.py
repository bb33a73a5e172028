"""Odds of the osr system's checks, saves, opposed checks, the 2d6 table and dice of fate.

One d20 per party (or 2d6, or one d6): the resolvers of :mod:`rules.osr` are enumerated
exactly. The 2d6 table thrown again on an average result repeats identically, so its odds
are one throw's conditioned on a non-average band (``restart_after=1``). Secret rolls have
odds like any other; ``dicetable check`` shows them only to whoever asked for the roll.
"""

from __future__ import annotations

from rules.odds.result import Odds, by_enumeration, enumerated
from rules.osr import (SYSTEM, OsrCheck, OsrFate, OsrOpposed, OsrOutcomeTable, OsrSave, resolve_check, resolve_fate,
                       resolve_opposed, resolve_outcome_table, resolve_save)


def table_odds(params: OsrOutcomeTable) -> Odds:
    """The 2d6 catch-them-all table, re-thrown while average if asked."""
    return enumerated(SYSTEM, lambda: resolve_outcome_table(params),
                      restart_after=1 if params.reroll_average else None)


ODDS = {OsrCheck: by_enumeration(SYSTEM, resolve_check), OsrSave: by_enumeration(SYSTEM, resolve_save),
        OsrOpposed: by_enumeration(SYSTEM, resolve_opposed), OsrOutcomeTable: table_odds,
        OsrFate: by_enumeration(SYSTEM, resolve_fate)}
