"""dicetable: resolve tabletop checks with real dice (camera, smart dice, a dice-table board) or virtual ones."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from reader.cli.actions import Action
from reader.cli.sources import add_source_options, open_source, designate
from reader.cli.systems import ACTIONS, EXTRA_COMMANDS
from reader.sources.base import DiceSource
from rules.errors import DicetableError
from rules.protocol import Resolution, drive_async

PROG = "dicetable"
_ROLE = re.compile(r":\w+:`~?([^`]+)`")


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr and exit code 2."""

    def format_help(self) -> str:
        # descriptions come from docstrings: show their reStructuredText markup as plain quotes
        return _ROLE.sub(r"\1", super().format_help()).replace("``", "'")

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    """The whole command tree: ``dicetable ACTION SYSTEM [options]`` plus extra commands."""
    parser = OneLineParser(prog=PROG, description=__doc__,
                           epilog="Run 'dicetable ACTION --help' or 'dicetable ACTION SYSTEM --help' for details.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    commands.required = True
    by_name: dict[str, list[Action]] = {}
    for action in ACTIONS:
        by_name.setdefault(action.name, []).append(action)
    for name, actions in by_name.items():
        systems = ", ".join(a.system for a in actions)
        sub = commands.add_parser(name, help=f"{actions[0].help.split(':')[0]} ({systems})",
                                  description=f"Resolve a {name} with the rules of a system: {systems}.")
        per_system = sub.add_subparsers(dest="system", metavar="SYSTEM", parser_class=OneLineParser)
        per_system.required = True
        for action in actions:
            leaf = per_system.add_parser(action.system, help=action.help, description=action.help)
            action.configure(leaf)
            add_source_options(leaf)
            leaf.set_defaults(run=_resolver_runner(action))
    for command in EXTRA_COMMANDS:
        command(commands)
    return parser


def _resolver_runner(action: Action):
    def run(args: argparse.Namespace) -> int:
        return run_resolution(action.build(args), args, action.system, action.parse(args), action.resolve)
    return run


def run_resolution(resolution: Resolution, args: argparse.Namespace, system: str | None = None,
                   params: object = None, resolve: Callable[[Any], Resolution] | None = None) -> int:
    """Show the exact odds, drive ``resolution`` against the chosen source (logging every throw), print the result.

    ``system``, ``params`` and ``resolve`` describe the check being resolved, for its odds
    line and the roll log; commands without them show no odds.
    """
    from reader.cli.odds_cmd import odds_before_throw

    odds = odds_before_throw(args, system, params, resolve) if resolve is not None else None
    if odds is not None and not args.json:
        print(odds.summary(), flush=True)
    result = asyncio.run(_drive(resolution, args, params))
    if args.json:
        print(json.dumps(result.to_json() | ({"odds": odds.to_json()} if odds is not None else {})))
    else:
        print(result.summary())
    return 0


async def _drive(resolution: Resolution, args: argparse.Namespace, params: object = None):
    from reader.log.record import Recorder

    source: DiceSource = open_source(args)
    recorder = Recorder(args, params)
    try:
        async def answer(request):
            request = designate(request, args)
            return recorder.record(request, await source.throw(request))

        result = await drive_async(resolution, answer)
        source.finish()
        recorder.finish(result)
        await source.show_outcome(result)
        return result
    finally:
        recorder.close()
        await source.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dicetable`` console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except DicetableError as err:
        sys.stderr.write(f"{PROG}: error: {err}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
