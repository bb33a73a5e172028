"""Command-line actions of the osr system: check, attack, save, opposed, outcome (2d6 table), fate.

Every action takes ``--secret`` (a roll the players must not see) and ``--reveal`` (the
referee shows it anyway). A secret result is printed as a notice only; the full result
stays on the notice (:attr:`SecretRoll.result`) for whoever logs it. ``--led`` is refused on
an unrevealed secret roll: lit dice would tell the players.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reader.cli.actions import Action, int_or_name
from rules import osr
from rules.errors import require
from rules.protocol import Resolution
from rules.result import CheckResult


@dataclass(frozen=True)
class SecretRoll:
    """What the players see of a secret roll: that it was made, nothing more."""

    result: CheckResult

    @property
    def secret(self) -> bool:
        """Always true: this stands for a secret result."""
        return True

    def to_json(self) -> dict[str, object]:
        return {"system": self.result.system, "secret": True, "message": "secret roll made"}

    def summary(self) -> str:
        return "A secret roll was made (the referee can show it with --reveal)."


def _kept_secret(resolution: Resolution[CheckResult], reveal: bool) -> Resolution[CheckResult | SecretRoll]:
    result = yield from resolution
    return SecretRoll(result) if result.secret and not reveal else result


@dataclass(frozen=True)
class OsrAction(Action):
    """An action whose command-line run hides a secret result unless ``--reveal`` is given."""

    def build(self, args: argparse.Namespace) -> Resolution[Any]:
        require(not (args.secret and args.led and not args.reveal),
                "--led would show a secret roll's outcome on the dice: drop --led or add --reveal")
        return _kept_secret(self.resolve(self.parse(args)), args.reveal)


def _with_secrecy(configure: Callable[[argparse.ArgumentParser], None]) -> Callable[[argparse.ArgumentParser], None]:
    def configure_all(parser: argparse.ArgumentParser) -> None:
        configure(parser)
        parser.add_argument("--secret", action="store_true",
                            help="a secret roll: the output only says that a roll was made")
        parser.add_argument("--reveal", action="store_true", help="show a secret roll's result (for the referee)")
    return configure_all


def _modifier_options(parser: argparse.ArgumentParser, prefix: str = "") -> None:
    who = "the opponent's" if prefix else "a"
    parser.add_argument(f"--{prefix}modifier", type=int, action="append", default=[], metavar="M",
                        help=f"{who} modifier from careers, backgrounds or circumstances; repeat to add several "
                             f"(the total must stay within -5..+5)")


def _difficulty_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--difficulty", type=int_or_name(osr.DIFFICULTIES), default=osr.DEFAULT_DC,
                        metavar="N|NAME",
                        help="the DC: a number or easy (11), normal (16, the default), difficult (21), "
                             "extraordinary (26)")


def _check_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ability", type=int, required=True, metavar="A", help="the ability score added to the d20")
    _difficulty_option(parser)
    _modifier_options(parser)
    parser.add_argument("--tool", choices=sorted(osr.TOOLS),
                        help="an improvised (+1) or specialised (+2) tool, counted in the modifier")


def _check(args: argparse.Namespace) -> osr.OsrCheck:
    modifier = sum(args.modifier) + osr.TOOLS.get(args.tool, 0)
    return osr.OsrCheck(args.ability, args.difficulty, modifier, secret=args.secret)


def _save_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ability", type=int, required=True, metavar="A",
                        help="the relevant ability score added to the d20")
    parser.add_argument("--heritage", type=int, default=0, metavar="N",
                        help="heritage adjustment to the roll (e.g. +2 for a goblin against poison)")
    parser.add_argument("--difficulty", type=int, default=osr.SAVE_DC, metavar="N",
                        help=f"the DC (default {osr.SAVE_DC})")


def _attack_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ability", type=int, required=True, metavar="A",
                        help="STR for a melee attack, WIS for a ranged one")
    parser.add_argument("--ranged", action="store_true", help="a ranged attack (WIS) rather than melee (STR)")
    _difficulty_option(parser)


def _opposed_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ability", type=int, required=True, metavar="A", help="your ability score")
    parser.add_argument("--opponent-ability", type=int, required=True, metavar="A",
                        help="the opponent's ability score")
    _modifier_options(parser)
    _modifier_options(parser, "opponent-")
    parser.add_argument("--close-is-tie", action="store_true",
                        help="optional rule: a difference under 10 is a tie")


def _outcome_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reroll-average", action="store_true",
                        help="throw 2d6 again while the result is average (6-8)")


def _fate_options(parser: argparse.ArgumentParser) -> None:
    names = ", ".join(f"{name.replace(' ', '-')} ({chance})" for name, chance in osr.FATE_CHANCES.items())
    parser.add_argument("--chance", type=int_or_name(osr.FATE_CHANCES, "chance"), required=True,
                        metavar="X|NAME", help=f"the x-in-6 chance, 1 to 5, or a suggested one: {names}")
    parser.add_argument("--modifier", type=int, default=0, metavar="M",
                        help="moves the chance (e.g. a magic weapon's enhancement bonus)")


ACTIONS: list[Action] = [
    OsrAction("check", "osr", "an ability check: d20 + ability + modifier vs DC; a margin of 10 is a critical",
              _with_secrecy(_check_options), _check, osr.resolve_check),
    OsrAction("attack", "osr", "an attack roll: d20 + STR (melee) or WIS (ranged) vs DC; criticals at a margin of 10",
              _with_secrecy(_attack_options),
              lambda args: osr.OsrAttack(args.ability, args.difficulty, args.ranged, args.secret), osr.resolve_attack),
    OsrAction("save", "osr", "a saving throw: d20 + ability + heritage adjustment vs DC 16",
              _with_secrecy(_save_options),
              lambda args: osr.OsrSave(args.ability, args.heritage, args.difficulty, args.secret), osr.resolve_save),
    OsrAction("opposed", "osr", "an opposed check: both roll d20 + ability + modifier, the higher wins",
              _with_secrecy(_opposed_options),
              lambda args: osr.OsrOpposed(args.ability, args.opponent_ability, sum(args.modifier),
                                          sum(args.opponent_modifier), args.close_is_tie, args.secret),
              osr.resolve_opposed),
    OsrAction("outcome", "osr", "the 2d6 table: 2 disaster, 3-5 poor, 6-8 average, 9-11 good, 12 great",
              _with_secrecy(_outcome_options), lambda args: osr.OsrOutcomeTable(args.reroll_average, args.secret),
              osr.resolve_outcome_table),
    OsrAction("fate", "osr", "a die of fate: an x-in-6 chance on a d6",
              _with_secrecy(_fate_options), lambda args: osr.OsrFate(args.chance, args.modifier, args.secret),
              osr.resolve_fate),
]
