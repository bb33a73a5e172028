"""``dicetable roll EXPR``: dice notation (``3d4+3``, ``1d8+1d10``, ``d%``) and OpenD6 die codes (``4D+1``)."""

from __future__ import annotations

import argparse
import re

from reader.cli.sources import add_source_options
from rules import d20, opend6
from rules.errors import NotationError, RulesError
from rules.notation import is_die_code, parse_die_code, parse_expression

_LOOKS_LIKE_DIE_CODE = re.compile(r"^\s*\d+\s*[dD](?![\d%])")


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``roll`` command."""
    parser = commands.add_parser(
        "roll", help="roll dice notation (3d4+3, 1d8+1d10, d%%) or an OpenD6 die code (4D+1)",
        description="Roll dice notation: XdY+Z, XdY-Z, sums of mixed dice such as 1d8+1d10, and d%% "
                    "(two d10, the tens die designated: name its colour with --tens; d100 means d%%). "
                    "A die code with no sides (4D, 4D+1) is an OpenD6 roll: one wild die that "
                    "explodes on 6 (name its colour with --wild).")
    parser.add_argument("expression", metavar="EXPR", help="dice expression (3d4+3, d%%) or die code (4D+1)")
    parser.add_argument("--critical", choices=[c.value for c in opend6.CriticalOption], default="cancel",
                        help="OpenD6 codes: what a first-throw 1 on the wild die does (default cancel)")
    parser.add_argument("--times", type=int, action="append", default=[], metavar="N",
                        help="abstract multiplier on the result; several combine by the d20 rule "
                             "(x2 and x2 make x3)")
    parser.add_argument("--divide", type=int, default=1, metavar="N", help="divide the result by N")
    parser.add_argument("--round", choices=[r.value for r in d20.Rounding], default="down",
                        help="rounding of --divide (default down, as the d20 rules say)")
    parser.add_argument("--minimum", type=int, metavar="N", help="the result is at least N (e.g. 1)")
    add_source_options(parser)
    parser.set_defaults(run=_run)


def roll_params(args: argparse.Namespace) -> tuple[str, d20.DiceRoll | opend6.OpenD6Roll]:
    """The rule system and the parameters of the roll ``dicetable roll`` options describe."""
    if is_die_code(args.expression):
        if args.times or args.divide != 1 or args.minimum is not None:
            raise RulesError("--times, --divide and --minimum apply to dice notation, not to OpenD6 die codes")
        code = parse_die_code(args.expression)
        return opend6.SYSTEM, opend6.OpenD6Roll(code, critical=opend6.CriticalOption(args.critical))
    try:
        expression = parse_expression(args.expression)
    except NotationError:
        if _LOOKS_LIKE_DIE_CODE.search(args.expression):
            parse_die_code(args.expression)  # raises the die code's own, clearer, error
        raise
    return d20.SYSTEM, d20.DiceRoll(expression, tuple(args.times), args.divide, d20.Rounding(args.round),
                                    args.minimum)


def _run(args: argparse.Namespace) -> int:
    from reader.cli.main import run_resolution

    system, params = roll_params(args)
    resolve = opend6.resolve_roll if system == opend6.SYSTEM else d20.roll
    return run_resolution(resolve(params), args, system, params, resolve)
