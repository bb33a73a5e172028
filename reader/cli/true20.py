"""Command-line actions of True20: check, attack, save, opposed, compare, aid, simultaneous."""

from __future__ import annotations

import argparse

from reader.cli.actions import Action, int_or_name, non_negative
from rules import true20 as t20
from rules.errors import require

_DIFFICULTY = int_or_name(t20.DIFFICULTIES)
_DIFFICULTY_HELP = ("the Difficulty: a number or very-easy (0), easy (5), average (10), tough (15), "
                    "challenging (20), formidable (25), heroic (30), superheroic (35), nearly-impossible (40)")
_FORMS = [form.value for form in t20.ChallengeForm]


def _check_options(parser: argparse.ArgumentParser) -> None:
    """The options of one check (also the leader's check of an aid and the primary of simultaneous tasks)."""
    trait = parser.add_mutually_exclusive_group(required=True)
    trait.add_argument("--modifier", type=int, metavar="M", help="the check's total modifier")
    trait.add_argument("--ability", type=int, metavar="A",
                       help="the ability score: an ability check, or a skill check with --rank, "
                            "or a power check with --adept-level")
    parser.add_argument("--rank", type=non_negative, metavar="R", help="skill rank (with --ability): a skill check")
    parser.add_argument("--adept-level", type=int, metavar="L",
                        help="adept level (with --ability): a power check at power rank L + 3")
    parser.add_argument("--difficulty", type=_DIFFICULTY, required=True, metavar="D|NAME", help=_DIFFICULTY_HELP)
    parser.add_argument("--take", type=int, choices=t20.TAKES,
                        help="take 1, 5, 10 or 20 instead of rolling (1 only when the total bonus reaches the "
                             "Difficulty; 10 not under pressure; 20 not when failure has consequences)")
    parser.add_argument("--pressure", action="store_true",
                        help="distracted, threatened or in a rush: taking 10 is refused")
    parser.add_argument("--consequences", action="store_true",
                        help="failure carries a penalty (an alarm, a fall): taking 20 is refused")
    parser.add_argument("--favourable", action="count", default=0,
                        help="+2 to the modifier for helpful circumstances (repeat to stack)")
    parser.add_argument("--unfavourable", action="count", default=0,
                        help="-2 to the modifier for hampering circumstances (repeat to stack)")
    parser.add_argument("--easier", action="count", default=0,
                        help="-2 to the Difficulty for circumstances making the task easier (repeat to stack)")
    parser.add_argument("--harder", action="count", default=0,
                        help="+2 to the Difficulty for circumstances making the task harder (repeat to stack)")
    parser.add_argument("--tools", choices=[tools.value for tools in t20.Tools], default="proper",
                        help="tools the task needs: proper (default, or none needed), improvised (-2), missing (-4)")
    parser.add_argument("--fast", type=non_negative, default=0, metavar="N",
                        help="fast-task challenges: each shortens the action one step or the time by 25%%")
    parser.add_argument("--risk", type=non_negative, default=0, metavar="N",
                        help="calculated-risk challenges (needs --consequences): on success +5 each "
                             "on a follow-up check (pass it there as --carried-bonus)")
    parser.add_argument("--challenge", type=non_negative, default=0, metavar="N",
                        help="other challenges (a skill's own) accepted on the check")
    parser.add_argument("--challenge-as", choices=_FORMS, default="difficulty",
                        help="each challenge raises the Difficulty by 5 (default) or is -5 on the result")
    parser.add_argument("--action-time", choices=[time.value for time in t20.ActionTime],
                        help="how long the task normally takes, to report what fast-task challenges make of it")
    parser.add_argument("--aid-bonus", type=non_negative, default=0, metavar="N",
                        help="bonus already granted by helpers (see 'dicetable aid true20' to roll them)")
    parser.add_argument("--carried-bonus", type=non_negative, default=0, metavar="N",
                        help="bonus carried from a successful calculated risk")


def _check(args: argparse.Namespace) -> t20.True20Check:
    if args.modifier is not None:
        require(args.rank is None and args.adept_level is None, "--rank and --adept-level go with --ability, "
                                                                "not --modifier")
        kind, modifier = t20.CheckKind.CHECK, args.modifier
    else:
        require(args.rank is None or args.adept_level is None, "give --rank (a skill) or --adept-level (a power), "
                                                               "not both")
        if args.rank is not None:
            kind, modifier = t20.CheckKind.SKILL, args.ability + args.rank
        elif args.adept_level is not None:
            kind, modifier = t20.CheckKind.POWER, args.ability + t20.power_rank(args.adept_level)
        else:
            kind, modifier = t20.CheckKind.ABILITY, args.ability
    form = t20.ChallengeForm(args.challenge_as)
    challenges = tuple(t20.Challenge(challenge_kind, form)
                       for challenge_kind, n in ((t20.ChallengeKind.FAST_TASK, args.fast),
                                                 (t20.ChallengeKind.CALCULATED_RISK, args.risk),
                                                 (t20.ChallengeKind.OTHER, args.challenge))
                       for _ in range(n))
    step = t20.CIRCUMSTANCE_STEP
    return t20.True20Check(
        modifier, args.difficulty, take=args.take, under_pressure=args.pressure, consequences=args.consequences,
        circumstance=step * (args.favourable - args.unfavourable),
        difficulty_circumstance=step * (args.harder - args.easier),
        tools=t20.Tools(args.tools), challenges=challenges,
        action=t20.ActionTime(args.action_time) if args.action_time else None,
        aid_bonus=args.aid_bonus, carried_bonus=args.carried_bonus, kind=kind)


def _attack_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bonus", type=int, required=True, metavar="B", help="attack bonus")
    parser.add_argument("--defense", type=int, required=True, metavar="D", help="the target's Defense")


def _save_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bonus", type=int, required=True, metavar="B",
                        help="total save bonus: ability + save bonus + feats and the like")
    against = parser.add_mutually_exclusive_group(required=True)
    against.add_argument("--difficulty", type=_DIFFICULTY, metavar="D|NAME", help=_DIFFICULTY_HELP)
    against.add_argument("--damage", type=int, metavar="N",
                         help="Toughness save against damage +N: Difficulty 15 + N, reports the damage condition")
    parser.add_argument("--kind", choices=[kind.value for kind in t20.SaveKind],
                        help="which save (toughness and fortitude add Constitution, reflex Dexterity, will Wisdom)")
    parser.add_argument("--nonlethal", action="store_true",
                        help="with --damage: non-lethal damage (bruised, dazed, staggered, unconscious)")


def _save(args: argparse.Namespace) -> t20.True20Save:
    require(args.damage is not None or not args.nonlethal, "--nonlethal goes with --damage")
    return t20.True20Save(args.bonus, args.difficulty, t20.SaveKind(args.kind) if args.kind else None,
                          args.damage, lethal=not args.nonlethal)


def _opposed_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--modifier", type=int, required=True, metavar="M", help="your check's modifier")
    parser.add_argument("--opponent-modifier", type=int, required=True, metavar="M",
                        help="the opponent's check modifier (ties go to the higher modifier)")


def _compare_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--score", type=int, required=True, metavar="S", help="your score or modifier")
    parser.add_argument("--opponent-score", type=int, required=True, metavar="S",
                        help="the opponent's score or modifier (equal ones: a coin flip)")


def _helper(text: str) -> t20.True20Helper:
    """``MOD`` or ``MOD@TAKE``."""
    modifier, _, take = text.partition("@")
    try:
        return t20.True20Helper(int(modifier), int(take) if take else None)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a helper is MOD or MOD@TAKE (e.g. 3 or 3@20), not {text!r}") from None


def _aid_options(parser: argparse.ArgumentParser) -> None:
    _check_options(parser)
    parser.add_argument("--helper", type=_helper, action="append", required=True, metavar="MOD[@TAKE]",
                        help="a helper's modifier for the same check, optionally what they take (1, 5 or 20; "
                             "never 10); repeat for each helper")


def _simultaneous_options(parser: argparse.ArgumentParser) -> None:
    _check_options(parser)
    parser.add_argument("--second-modifier", type=int, required=True, metavar="M",
                        help="modifier of the secondary check (same or another trait)")
    parser.add_argument("--second-difficulty", type=_DIFFICULTY, required=True, metavar="D|NAME",
                        help="Difficulty of the secondary check")
    parser.add_argument("--second-as", choices=_FORMS, default="penalty",
                        help="the secondary check suffers -10 (penalty, default) or +10 Difficulty (difficulty)")


def _simultaneous(args: argparse.Namespace) -> t20.True20Simultaneous:
    secondary = t20.True20Check(args.second_modifier, args.second_difficulty)
    return t20.True20Simultaneous(_check(args), secondary, t20.ChallengeForm(args.challenge_as),
                                  t20.ChallengeForm(args.second_as))


ACTIONS: list[Action] = [
    Action("check", "true20", "a check: d20 + modifier vs Difficulty, or take 1, 5, 10 or 20",
           _check_options, _check, t20.resolve_check),
    Action("attack", "true20", "an attack roll: d20 + bonus vs Defense (natural 20 hits and threatens, 1 misses)",
           _attack_options, lambda args: t20.True20Attack(args.bonus, args.defense), t20.resolve_attack),
    Action("save", "true20", "a saving throw: d20 + save bonus vs Difficulty (Toughness: vs 15 + damage)",
           _save_options, _save, t20.resolve_save),
    Action("opposed", "true20", "an opposed check: the higher result wins, ties to the higher modifier",
           _opposed_options, lambda args: t20.True20Opposed(args.modifier, args.opponent_modifier),
           t20.resolve_opposed),
    Action("compare", "true20", "a comparison check: no roll, the higher score wins (a coin on a tie)",
           _compare_options, lambda args: t20.True20Comparison(args.score, args.opponent_score),
           t20.resolve_comparison),
    Action("aid", "true20", "an aided check: helpers vs Difficulty 10 grant +2 (+1 per full 10 over), then the "
                            "leader checks", _aid_options,
           lambda args: t20.True20Aid(_check(args), tuple(args.helper)), t20.resolve_aid),
    Action("simultaneous", "true20", "simultaneous tasks: a challenged check, then a secondary check at -10",
           _simultaneous_options, _simultaneous, t20.resolve_simultaneous),
]
