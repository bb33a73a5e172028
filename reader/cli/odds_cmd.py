"""``dicetable odds ACTION SYSTEM [options]``: exact odds of a check before any die is thrown.

Every ``ACTION SYSTEM`` pair that resolves a check is available here with the very options
it takes there (the action's own ``configure`` and ``parse``), so the odds are those of the
check ``dicetable ACTION SYSTEM`` would resolve. ``dicetable odds SYSTEM ...`` is short for
``dicetable odds check SYSTEM ...``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

#: Cumulative mass after which the printed distribution says "N or more" instead of listing.
SHOWN_MASS = 0.9999
BAR_WIDTH = 40


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``odds`` with one leaf per action and system, plus ``odds SYSTEM`` for checks."""
    from reader.cli.systems import ACTIONS

    odds = commands.add_parser("odds", help="exact odds of a check before throwing (no dice thrown)",
                               description=__doc__)
    kinds = odds.add_subparsers(dest="odds_action", metavar="ACTION|SYSTEM", parser_class=type(odds))
    kinds.required = True
    by_name: dict[str, list[Any]] = {}
    for action in ACTIONS:
        by_name.setdefault(action.name, []).append(action)
    for name, actions in by_name.items():
        sub = kinds.add_parser(name, help=f"odds of a {name} ({', '.join(a.system for a in actions)})")
        systems = sub.add_subparsers(dest="odds_system", metavar="SYSTEM", parser_class=type(odds))
        systems.required = True
        for action in actions:
            _leaf(systems.add_parser(action.system, help=action.help, description=action.help), action)
    for action in by_name.get("check", []):
        _leaf(kinds.add_parser(action.system, help=f"odds of a {action.system} check (same as: odds check "
                                                   f"{action.system})"), action)


def _leaf(parser: argparse.ArgumentParser, action: Any) -> None:
    action.configure(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object (exact fractions included)")
    parser.set_defaults(run=lambda args: run(action, args))


def run(action: Any, args: argparse.Namespace) -> int:
    """Compute and print the odds of ``action`` with the parsed options."""
    from rules.odds.dispatch import odds_of

    odds = odds_of(action.system, action.parse(args), action.resolve)
    if args.json:
        print(json.dumps({"action": action.name, **odds.to_json()}))
    else:
        print(describe(odds, f"{action.name} {action.system}"))
    return 0


def odds_before_throw(args: argparse.Namespace, system: str, params: Any, resolve: Any) -> Any:
    """The odds a resolving command shows before asking for the throw, or ``None``.

    None with ``--no-odds``, for a secret roll not revealed (odds would hint at its
    difficulty), and when the odds are too costly to enumerate (the check itself still runs).
    """
    from rules.errors import RulesError
    from rules.odds.dispatch import odds_of

    hidden = getattr(params, "secret", False) and not getattr(args, "reveal", False)
    if getattr(args, "no_odds", False) or hidden:
        return None
    try:
        return odds_of(system, params, resolve)
    except RulesError:
        return None


def describe(odds: Any, title: str) -> str:
    """The human report: the one-line summary, each outcome, then the distribution of the total."""
    from rules.odds.result import pct

    lines = [f"{title}: {odds.summary()}"]
    if odds.success is not None:
        lines.append(f"  {'any success':<18} {pct(odds.success):>8}  (exactly {odds.success})")
    for outcome, p in odds.outcomes.items():
        if p:
            lines.append(f"  {outcome.value.replace('_', ' '):<18} {pct(p):>8}")
    if odds.complication:
        lines.append(f"  {'complication':<18} {pct(odds.complication):>8}")
    for name, p in odds.extra.items():
        lines.append(f"    {name.replace('_', ' '):<16} {pct(p):>8}")
    if odds.total is not None:
        lines += ["distribution of the total:", *_histogram(odds.total)]
    if odds.margin is not None and not _same_shape(odds.total, odds.margin):
        lines += ["distribution of the margin:", *_histogram(odds.margin)]
    lines += [f"note: {note}" for note in odds.notes]
    return "\n".join(lines)


def _same_shape(a: Any, b: Any) -> bool:
    """True when ``b`` is ``a`` shifted (a check's margin is its total less a fixed difficulty)."""
    return a is not None and a.counts == b.counts and a.denom == b.denom and a.tail == b.tail


def _histogram(dist: Any) -> list[str]:
    """One line per value, the far ends (under 0.005% each) folded into ``N or less`` / ``N+``."""
    from fractions import Fraction

    from rules.odds.result import pct

    items = list(dist.items())
    peak = max((float(p) for _, p in items), default=0.0) or 1.0
    edge = (1 - SHOWN_MASS) / 2
    lines: list[str] = []
    below = 0.0
    seen = 0.0
    for n, (value, p) in enumerate(items):
        seen += float(p)
        if seen < edge:
            below = seen
            continue
        if below:
            lines.append(f"  {f'<={value - 1}':>6} {pct(Fraction(below)):>9}")
            below = 0.0
        if seen > 1 - edge and n < len(items) - 2:
            rest = 1 - seen + float(p)
            lines.append(f"  {f'{value}+':>6} {pct(Fraction(rest)):>9}")
            return lines
        lines.append(f"  {value:>6} {pct(p):>9} {'#' * round(float(p) / peak * BAR_WIDTH)}")
    if dist.tail:
        lines.append(f"  {f'{dist.top}+':>6} {pct(dist.tail_probability):>9}")
    return lines
