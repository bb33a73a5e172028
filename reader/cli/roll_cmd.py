"""``dicetable roll EXPR``: dice notation (``3d4+3``, ``1d8+1d10``, ``d%``) and OpenD6 die codes."""

from __future__ import annotations

import argparse

from reader.cli.sources import add_source_options
from rules import d20
from rules.notation import parse_expression


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``roll`` command."""
    parser = commands.add_parser(
        "roll", help="roll a dice expression (3d4+3, 1d8+1d10, d%%, 2d6-1)",
        description="Roll dice notation: XdY+Z, XdY-Z, sums of mixed dice such as 1d8+1d10, and d%% "
                    "(two d10, the tens die designated: name its colour with --tens). d100 means d%%.")
    parser.add_argument("expression", metavar="EXPR", help="dice expression, e.g. 3d4+3 or d%%")
    parser.add_argument("--times", type=int, action="append", default=[], metavar="N",
                        help="abstract multiplier on the result; several combine by the d20 rule "
                             "(x2 and x2 make x3)")
    parser.add_argument("--divide", type=int, default=1, metavar="N", help="divide the result by N")
    parser.add_argument("--round", choices=[r.value for r in d20.Rounding], default="down",
                        help="rounding of --divide (default down, as the d20 rules say)")
    parser.add_argument("--minimum", type=int, metavar="N", help="the result is at least N (e.g. 1)")
    add_source_options(parser)
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from reader.cli.main import run_resolution

    params = d20.DiceRoll(parse_expression(args.expression), tuple(args.times), args.divide,
                          d20.Rounding(args.round), args.minimum)
    return run_resolution(d20.roll(params), args)
