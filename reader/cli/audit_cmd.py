"""``dicetable audit``: is each physical die fair? Counts per face from the roll log, a chi-square test.

Dice are told apart by their id (smart dice, the board) or else by colour and size. Virtual
and scripted throws are left out unless ``--source`` names them. The test flags a die at
alpha = 0.01 and states how many rolls a meaningful verdict needs: enough to catch, 80% of
the time, a die with one face 1.5 times as likely as each other (see :mod:`rules.audit`).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from typing import Any

from reader.cli.log_cmd import add_log_options


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``dicetable audit``."""
    parser = commands.add_parser("audit", help="test each physical die for fairness (chi-square) from the roll log",
                                 description=__doc__)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--die", metavar="ID", help="only the die with this id (smart die, board die)")
    which.add_argument("--colour", "--color", metavar="COLOUR", help="only dice of this colour")
    parser.add_argument("--sides", type=int, metavar="N", help="only dice with N sides")
    parser.add_argument("--source", action="append", metavar="NAME",
                        help="only throws from this source (camera, pixels, godice, serial...; repeatable); "
                             "default: every physical source")
    add_log_options(parser)
    parser.add_argument("--plot", metavar="FILE.png", help="also draw each die's face counts to a PNG picture")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def die_name(die_id: str | None, colour: str | None, sides: int) -> str:
    """How a die is named in the audit: its id if known, else its colour and size."""
    look = f"{colour or 'uncoloured'} d{sides}"
    return f"die {die_id} ({look})" if die_id else look


def group_faces(records: Iterable[Any]) -> dict[tuple[str, int], dict[int, int]]:
    """Counts per face for each die, keyed by ``(name, sides)``."""
    groups: dict[tuple[str, int], dict[int, int]] = {}
    for r in records:
        counts = groups.setdefault((die_name(r.die_id, r.colour, r.sides), r.sides), {})
        counts[r.value] = counts.get(r.value, 0) + 1
    return groups


def run(args: argparse.Namespace) -> int:
    """Audit every die the filters select and print a verdict per die."""
    from reader.log.record import log_path
    from reader.log.since import parse_since
    from reader.log.store import RollLog
    from rules.audit import ALPHA, LOADING, POWER, audit_counts

    since = parse_since(args.since) if args.since else None
    with RollLog(log_path(args)) as log:
        records = list(log.physical_faces(since, args.die, args.colour, args.sides, args.source))
    audits = [(name, audit_counts(counts, sides)) for (name, sides), counts in sorted(group_faces(records).items())]
    if args.plot and audits:
        from reader.audit.plot import write_png

        write_png(audits, args.plot)
    if args.json:
        print(json.dumps({"dice": [{"die": name, **a.to_json()} for name, a in audits],
                          "alpha": ALPHA, "power": POWER, "effect": f"one face {LOADING}x as likely as each other"}))
        return 0
    if not audits:
        print("no throws of physical dice in the roll log match (virtual and scripted throws are not audited)")
        return 0
    print(f"fairness test: chi-square at alpha {ALPHA}; rolls needed = enough to catch a face {LOADING}x as "
          f"likely as the others {POWER:.0%} of the time")
    for name, audit in audits:
        counts = " ".join(f"{face}:{c}" for face, c in enumerate(audit.counts, 1))
        print(f"{name}: {audit.rolls} rolls [{counts}] chi2 {audit.chi2:.2f} (df {audit.sides - 1}), "
              f"p = {audit.p_value:.3g}, {audit.rolls_needed} needed")
        print(f"  {audit.explain()}")
    if args.plot:
        print(f"histogram written to {args.plot}")
    return 0
