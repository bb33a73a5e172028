"""Command-line actions of the OpenD6 / D6 System: ``check``, ``attack`` and ``opposed``.

The rulings and defaults are those of :mod:`rules.opend6` (critical option ``cancel``,
success when the total meets the difficulty, difficulty names at the top of their range).
"""

from __future__ import annotations

import argparse

from reader.cli.actions import Action, int_or_name, non_negative
from rules.errors import NotationError
from rules.notation import DieCode, parse_die_code
from rules.opend6 import (DEFAULT_UNSKILLED_MODIFIER, DIFFICULTIES, RUSH_MODIFIERS, SYSTEM, CriticalOption,
                          OpenD6Check, OpenD6Opposed, OpenD6Roll, resolve_check, resolve_opposed)


def die_code(text: str) -> DieCode:
    """An argparse type for die codes such as ``4D+1``."""
    try:
        return parse_die_code(text)
    except NotationError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _add_roll_options(parser: argparse.ArgumentParser, who: str = "") -> None:
    """Options of one character's roll; ``who`` prefixes them (``opponent-``) for the other side."""
    whose = f"the {who.rstrip('-')}'s" if who else "the character's"
    parser.add_argument(f"--{who}critical", choices=[c.value for c in CriticalOption],
                        default=CriticalOption.CANCEL.value,
                        help=f"on a 1 on {whose} wild die's first throw: cancel (default: the 1 and the highest "
                             "plain die are removed) or complication (add normally, flag a complication)")
    parser.add_argument(f"--{who}character-points", type=non_negative, default=0, metavar="N",
                        help=f"Character Points spent before the throw: N extra wild dice in {whose} throw")
    parser.add_argument(f"--{who}character-points-after", type=non_negative, default=0, metavar="N",
                        help="Character Points spent after seeing the throw: N extra wild dice thrown next")
    parser.add_argument(f"--{who}fate-point", action="store_true",
                        help=f"spend a Fate Point: double {whose} own dice (not bonuses), still one wild die")
    parser.add_argument(f"--{who}cinematic", action="store_true",
                        help="allow Character Points and a Fate Point on the same roll (gamemaster's override)")
    parser.add_argument(f"--{who}bonus-dice", type=int, default=0, metavar="N",
                        help="dice added by an Advantage, ability or equipment (+1D), or a penalty (-1D)")
    parser.add_argument(f"--{who}bonus-pips", type=int, default=0, metavar="N",
                        help="a bonus (+2) or penalty (-1) added to the total")
    parser.add_argument(f"--{who}extra-time", type=non_negative, default=0, metavar="DOUBLINGS",
                        help="times the usual time was doubled: +1D each, at most +3D")
    parser.add_argument(f"--{who}related", type=int, action="append", default=[], metavar="RP",
                        help="result points of a related skill rolled just before (repeatable): "
                             "half rounded up, at least 1, added if RP >= 0, else subtracted")


def _roll_fields(args: argparse.Namespace, who: str = "") -> dict[str, object]:
    prefix = who.replace("-", "_")
    return {name: getattr(args, prefix + name) for name in (
        "character_points", "character_points_after", "fate_point", "cinematic", "bonus_dice", "bonus_pips",
        "extra_time")} | {"critical": CriticalOption(getattr(args, prefix + "critical")),
                          "related": tuple(getattr(args, prefix + "related"))}


def _configure_check(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--code", type=die_code, required=True, metavar="CODE",
                        help="the skill's die code, e.g. 4D+1 (untrained: the attribute's)")
    parser.add_argument("--difficulty", type=int_or_name(DIFFICULTIES), required=True, metavar="DIFFICULTY",
                        help="a number or a name: " + ", ".join(f"{n} {v}" for n, v in DIFFICULTIES.items()))
    _add_roll_options(parser)
    parser.add_argument("--untrained", type=non_negative, nargs="?", const=DEFAULT_UNSKILLED_MODIFIER,
                        metavar="MODIFIER",
                        help=f"the skill is used untrained: add MODIFIER (default {DEFAULT_UNSKILLED_MODIFIER}) "
                             "to the difficulty; give the attribute's code as --code")
    parser.add_argument("--rush", type=int, choices=sorted(RUSH_MODIFIERS)[1:], default=0, metavar="PERCENT",
                        help="do the task in 25, 50 or 75%% less time: +5, +10 or +20 to the difficulty")
    _add_ties_option(parser)


def _add_ties_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ties-lose", action="store_true",
                        help="a tie goes against the roller (success only when strictly greater); "
                             "default: ties go to the initiator")


def _parse_check(args: argparse.Namespace, attack: bool = False) -> OpenD6Check:
    return OpenD6Check(args.code, args.difficulty, **_roll_fields(args), rush=args.rush,
                       unskilled_modifier=args.untrained, ties_to_initiator=not args.ties_lose, attack=attack)


def _configure_opposed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--code", type=die_code, required=True, metavar="CODE",
                        help="the initiator's die code, e.g. 4D+1")
    parser.add_argument("--opponent", type=die_code, required=True, metavar="CODE",
                        help="the resisting character's die code, e.g. 3D+2")
    _add_roll_options(parser)
    _add_roll_options(parser, "opponent-")
    _add_ties_option(parser)


def _parse_opposed(args: argparse.Namespace) -> OpenD6Opposed:
    return OpenD6Opposed(OpenD6Roll(args.code, **_roll_fields(args)),
                         OpenD6Roll(args.opponent, **_roll_fields(args, "opponent-")),
                         ties_to_initiator=not args.ties_lose)


ACTIONS: list[Action] = [
    Action("check", SYSTEM, "skill check: roll a die code with its wild die against a difficulty",
           _configure_check, _parse_check, resolve_check),
    Action("attack", SYSTEM, "attack roll: a check whose result points also give a damage bonus (one fifth)",
           _configure_check, lambda args: _parse_check(args, attack=True), resolve_check),
    Action("opposed", SYSTEM, "opposed roll: the initiator's total against the resistor's, ties to the initiator",
           _configure_opposed, _parse_opposed, resolve_opposed),
]
