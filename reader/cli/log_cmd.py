"""``dicetable log``: show the roll log (every throw, its source, faces and the check's outcome)."""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_log_options(parser: argparse.ArgumentParser) -> None:
    """``--since`` and ``--log``, shared with ``dicetable audit``."""
    parser.add_argument("--since", metavar="WHEN",
                        help="only throws since a duration ago (30m, 2h, 7d) or a date (2026-11-21, 2026-11-21T18:00)")
    parser.add_argument("--log", metavar="PATH",
                        help="the roll log to read (default: rolls.sqlite3 in the data folder)")


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``dicetable log``."""
    parser = commands.add_parser("log", help="show the roll log: every throw, its dice and the outcome",
                                 description=__doc__)
    add_log_options(parser)
    parser.add_argument("--secret", action="store_true", help="include secret rolls (hidden unless asked for)")
    parser.add_argument("--last", type=int, metavar="N", help="only the last N checks")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the checks of the log, oldest first."""
    from reader.log.record import log_path
    from reader.log.since import parse_since
    from reader.log.store import RollLog

    since = parse_since(args.since) if args.since else None
    with RollLog(log_path(args)) as log:
        checks = log.checks(since, secret=args.secret)
        hidden = 0 if args.secret else len(log.checks(since, secret=True)) - len(checks)
    if args.last is not None:
        checks = checks[-args.last:] if args.last > 0 else []
    if args.json:
        print(json.dumps({"checks": [c.to_json() for c in checks], "secret_hidden": hidden}))
        return 0
    for check in checks:
        print(describe_check(check))
    if hidden:
        print(f"({hidden} secret roll(s) hidden; --secret shows them)")
    if not checks and not hidden:
        print("the roll log is empty" + (" for that period" if since is not None else ""))
    return 0


def describe_check(check: Any) -> str:
    """One line for the check, then one indented line per throw."""
    from reader.log.store import iso

    result = check.result or {}
    marks = " [secret]" if check.secret else ""
    what = " ".join(x for x in (check.command, check.system or "") if x)
    if result.get("outcome"):
        against = f" vs {result['difficulty']}" if result.get("difficulty") is not None else ""
        ending = f"{str(result['outcome']).upper()}: total {result.get('total')}{against}"
    elif "total" in result:
        ending = f"total {result['total']}"
    else:
        ending = "no outcome recorded" if check.command != "throw" else ""
    lines = [f"{iso(check.time)}  {what}{marks}  {ending}".rstrip()]
    for throw in check.throws:
        faces = " ".join(_face(f) for f in throw.faces)
        kind = "scripted" if throw.scripted else throw.source
        evidence = f"  evidence: {', '.join(sorted(throw.evidence))}" if throw.evidence else ""
        lines.append(f"    [{kind}] {throw.request.get('purpose', '')}: {faces}{evidence}")
    return "\n".join(lines)


def _face(face: dict[str, Any]) -> str:
    label = f"{face['role']} " if face.get("role") else ""
    tag = ",".join(str(face[k]) for k in ("colour", "die_id") if face.get(k))
    return f"{label}{face['value']}" + (f"({tag})" if tag else "")
