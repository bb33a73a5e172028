"""Command-line actions of the d6 pool system: check, challenge, opposed, attack, block, initiative.

The rulings and defaults are those of :mod:`rules.d6pool` (GM difficulty dice thrown before
the player's, the initiator winning ties, the 1d6 floor on lowered difficulties).
"""

from __future__ import annotations

import argparse

from reader.cli.actions import Action, non_negative
from rules.d6pool import (RATINGS, SYSTEM, D6PoolAttack, D6PoolBlock, D6PoolChallenge, D6PoolCheck,
                          D6PoolInitiative, D6PoolOpposed, PoolDifficulty, TieRule, resolve_attack, resolve_block,
                          resolve_challenge, resolve_check, resolve_initiative, resolve_opposed)
from rules.errors import RulesError

_DIFFICULTY_HELP = ("a number, Nd6 (the GM throws N d6 before the player) or a rating: "
                    + ", ".join(RATINGS))


def difficulty(text: str) -> PoolDifficulty:
    """An argparse type for a difficulty: number, rating name or ``Nd6``."""
    try:
        parsed = PoolDifficulty.parse(text)
        parsed.validate()
    except RulesError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return parsed


def positive(text: str) -> int:
    """An argparse type for a stat or a number of dice: 1 or more."""
    value = non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError("expected 1 or more, not 0")
    return value


def part(text: str) -> D6PoolCheck:
    """An argparse type for one part of a challenge: ``DICE:DIFFICULTY`` (``3:4d6``, ``2:easy``)."""
    dice, sep, rest = text.partition(":")
    if not sep:
        raise argparse.ArgumentTypeError(f"a part is DICE:DIFFICULTY, e.g. 3:4d6, not {text!r}")
    return D6PoolCheck(positive(dice), difficulty(rest))


def _add_helpers(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--helpers", type=non_negative, default=0, metavar="N",
                        help="characters assisting: each lowers the difficulty by 1d6, never below 1d6")


def _add_ties(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ties", choices=[t.value for t in TieRule], default=TieRule.INITIATOR.value,
                        help="who wins a tie: initiator (default), resistor, or reroll (both throw again)")


def _configure_check(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", type=positive, required=True, metavar="N", help="the stat: how many d6 to roll")
    parser.add_argument("--difficulty", type=difficulty, required=True, metavar="DIFFICULTY", help=_DIFFICULTY_HELP)
    _add_helpers(parser)


def _configure_challenge(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--part", type=part, action="append", required=True, metavar="DICE:DIFFICULTY",
                        help="one part, in order (repeat for each, at least two): the stat's dice and the "
                             "difficulty, e.g. 3:4d6 or 2:easy; a failure makes later parts 1d6 harder, "
                             "a success 1d6 easier")
    _add_helpers(parser)


def _parse_challenge(args: argparse.Namespace) -> D6PoolChallenge:
    return D6PoolChallenge(tuple(D6PoolCheck(p.dice, p.difficulty, args.helpers) for p in args.part))


def _configure_opposed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", type=positive, required=True, metavar="N", help="the initiator's stat (d6)")
    parser.add_argument("--opponent-dice", type=positive, required=True, metavar="N",
                        help="the opponent's stat (d6)")
    _add_ties(parser)


def _configure_attack(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--power", type=positive, required=True, metavar="P", help="Power: the attack is 1d6 x P")
    parser.add_argument("--block", type=positive, metavar="R",
                        help="the defender's Resilience: the defender throws 1d6 x R to block")
    _add_ties(parser)


def _configure_block(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--resilience", type=positive, required=True, metavar="R",
                        help="Resilience: the block is 1d6 x R")
    parser.add_argument("--attack", type=non_negative, metavar="TOTAL",
                        help="the attack total to block (the block holds when it beats it)")
    parser.add_argument("--ties", choices=[TieRule.INITIATOR.value, TieRule.RESISTOR.value],
                        default=TieRule.INITIATOR.value,
                        help="who wins a tie: initiator (the attacker, default) or resistor (the blocker)")


def _configure_initiative(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--names", nargs="+", required=True, metavar="NAME",
                        help="everyone taking part, in clockwise seating order (each throws a d6 in this order)")
    parser.add_argument("--by-roll", action="store_true",
                        help="rank everyone by their rolls (every tie rolled again) instead of the seed's rule: "
                             "the highest starts and turns go clockwise")


ACTIONS: list[Action] = [
    Action("check", SYSTEM, "challenge check: roll the stat's d6 and meet the difficulty",
           _configure_check, lambda a: D6PoolCheck(a.dice, a.difficulty, a.helpers), resolve_check),
    Action("challenge", SYSTEM, "multi-part challenge: each failure makes later parts 1d6 harder, each success easier",
           _configure_challenge, _parse_challenge, resolve_challenge),
    Action("opposed", SYSTEM, "opposed check: two pools, the higher total wins",
           _configure_opposed, lambda a: D6PoolOpposed(a.dice, a.opponent_dice, TieRule(a.ties)), resolve_opposed),
    Action("attack", SYSTEM, "attack: 1d6 x Power, against a block of 1d6 x Resilience if given",
           _configure_attack, lambda a: D6PoolAttack(a.power, a.block, TieRule(a.ties)), resolve_attack),
    Action("block", SYSTEM, "block or dodge: 1d6 x Resilience, against an attack total if given",
           _configure_block, lambda a: D6PoolBlock(a.resilience, a.attack, TieRule(a.ties)), resolve_block),
    Action("initiative", SYSTEM,
           "initiative: everyone rolls a d6, the highest starts (ties roll again), then clockwise",
           _configure_initiative, lambda a: D6PoolInitiative(tuple(a.names), a.by_roll), resolve_initiative),
]
