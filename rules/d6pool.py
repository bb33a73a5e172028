"""The d6 pool system (seed 004): roll as many d6 as the stat, sum against a difficulty.

Rulings, with the choices the seed leaves made here:

- **Check**: the sum of ``dice`` d6 succeeds when it is *greater than or equal to* the
  difficulty. The system has no criticals: outcomes are ``success`` or ``failure``.
- **Difficulty** (:class:`PoolDifficulty`): either dice the GM throws (``4d6``: the GM's
  dice, :attr:`Role.DIFFICULTY`, are asked for in a request of their own *before* the
  player's, since the GM sets the difficulty first) or a fixed number. The rating names of
  :data:`RATINGS` stand for the seed's numbers, which are the average of their dice rounded
  down (Effortless, 1d6, whose range is "1 - 6", is 3 by that same rule).
- **Moving a difficulty by dice** (assisting, multi-part challenges): a dice difficulty
  gains or loses dice; a rating number moves along the rating table (14 -> 10 for -1d6);
  any other number moves by the average of a d6, 3.5, rounded down. A difficulty never
  falls below 1d6 (Effortless, 3) by these moves; one already lower stays as it is.
- **Assisting**: each helper lowers the difficulty by 1d6, never below 1d6.
- **Multi-part challenge**: parts are resolved in order; each failure adds 1d6 to every
  later part's difficulty and each success removes 1d6; the adjustments add up before the
  1d6 floor is applied. The challenge as a whole succeeds when every part succeeded.
- **Opposed checks** (and attack against block): the opponent's total plays the part of
  the difficulty, so the initiator wins a tie by default, as a check that meets its
  difficulty succeeds; :class:`TieRule` gives ties to the resistor or re-rolls them instead.
- **Attack** = 1d6 x Power, **block** = 1d6 x Resilience; an attack against a block hits
  when it beats the block (ties by :class:`TieRule`), a block against a known attack total
  holds when the attack does not win. Alone (nothing to compare), either reports its total
  as a ``success`` with no difficulty.
- **Initiative**: each participant rolls a d6 (one request each, in the order named);
  highest goes first; participants tied for the highest roll again among themselves, as
  often as needed. Then turns go clockwise, as the seed says: the names are taken in
  seating order and the round starts with the winner (default). ``by_roll`` ranks everyone
  by their rolls instead, every tie rolled again among the tied.
- **Checks against a rating**: the seed's "beat the average" is read with its check rule:
  meeting the number succeeds.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from rules.dice import DiceRequest, Face, Role, Throw, requested
from rules.errors import RulesError, require, validated
from rules.notation import MAX_DICE
from rules.protocol import Resolution
from rules.result import CheckResult, Outcome, outcome_of

SYSTEM = "d6pool"

#: The seed's difficulty ratings: name -> the number of d6 it stands for.
RATINGS: dict[str, int] = {
    "effortless": 1, "simple": 2, "easy": 3, "straightforward": 4, "moderate": 5,
    "tough": 6, "difficult": 7, "demanding": 8, "challenging": 9, "nearly impossible": 10,
}
#: Re-rolls of a tie (opposed checks, initiative) before the source is deemed broken.
MAX_REROLLS = 100

_DICE_TEXT = re.compile(r"\s*(\d+)\s*[dD]6\s*")


def rating_value(dice: int) -> int:
    """The rating number standing for ``dice`` d6: their average rounded down (4d6 -> 14)."""
    return 7 * dice // 2


#: Rating names -> their numbers (Effortless 3 ... Nearly impossible 35).
DIFFICULTIES: dict[str, int] = {name: rating_value(n) for name, n in RATINGS.items()}


def _rating_level(value: int) -> int | None:
    """The number of d6 a rating number stands for, ``None`` for other numbers."""
    level = (2 * value + 6) // 7
    return level if level >= 1 and rating_value(level) == value else None


class TieRule(str, Enum):
    """Who wins a tie in an opposed check."""

    INITIATOR = "initiator"
    RESISTOR = "resistor"
    REROLL = "reroll"


@dataclass(frozen=True)
class PoolDifficulty:
    """A difficulty: ``amount`` d6 the GM throws when ``thrown``, else the number ``amount``."""

    amount: int
    thrown: bool = False

    @classmethod
    def parse(cls, text: str) -> PoolDifficulty:
        """``"4d6"`` (the GM throws 4d6), a rating name (``"tough"``) or a number (``"14"``)."""
        key = " ".join(text.strip().lower().replace("_", " ").replace("-", " ").split())
        if key in DIFFICULTIES:
            return cls(DIFFICULTIES[key])
        dice = _DICE_TEXT.fullmatch(text)
        if dice:
            return cls(int(dice.group(1)), thrown=True)
        require(text.strip().isdigit(),
                f"difficulty {text!r}: give a number, Nd6 or a rating ({', '.join(RATINGS)})")
        return cls(int(text))

    def validate(self) -> None:
        """Raise :class:`RulesError` for an impossible difficulty."""
        if self.thrown:
            require(1 <= self.amount <= MAX_DICE, f"the GM throws 1 to {MAX_DICE} dice, not {self.amount}")
        else:
            require(self.amount >= 0, "a difficulty cannot be negative")

    def shifted(self, d6: int) -> PoolDifficulty:
        """This difficulty made ``d6`` dice harder (negative: easier), never below 1d6 by the move."""
        if self.thrown:
            return PoolDifficulty(max(1, self.amount + d6), True)
        level = _rating_level(self.amount)
        moved = rating_value(level + d6) if level is not None else self.amount + (7 * d6) // 2
        return PoolDifficulty(max(min(self.amount, rating_value(1)), moved))

    def __str__(self) -> str:
        return f"{self.amount}d6" if self.thrown else str(self.amount)


@dataclass(frozen=True)
class D6PoolCheck:
    """Roll ``dice`` d6 (the stat) against ``difficulty``, lowered 1d6 per helper."""

    dice: int
    difficulty: PoolDifficulty
    helpers: int = 0

    def validate(self) -> None:
        """Raise :class:`RulesError` for options the rules do not allow."""
        require(1 <= self.dice <= MAX_DICE, f"roll 1 to {MAX_DICE} dice, not {self.dice}")
        require(self.helpers >= 0, "the number of helpers cannot be negative")
        self.difficulty.validate()


@dataclass(frozen=True)
class D6PoolChallenge:
    """A multi-part challenge: the parts in order (each a check with its own stat and difficulty)."""

    parts: tuple[D6PoolCheck, ...]


@dataclass(frozen=True)
class D6PoolOpposed:
    """Two pools against each other: the initiator's ``dice`` against ``opponent_dice``."""

    dice: int
    opponent_dice: int
    ties: TieRule = TieRule.INITIATOR


@dataclass(frozen=True)
class D6PoolAttack:
    """An attack, 1d6 x ``power``; against a defender's block (1d6 x ``block``) when one is given."""

    power: int
    block: int | None = None
    ties: TieRule = TieRule.INITIATOR


@dataclass(frozen=True)
class D6PoolBlock:
    """A block, 1d6 x ``resilience``, against an attack total already rolled when one is given."""

    resilience: int
    attack: int | None = None
    ties: TieRule = TieRule.INITIATOR


@dataclass(frozen=True)
class D6PoolInitiative:
    """Everyone named, in clockwise seating order, rolls a d6 for the order of the round."""

    names: tuple[str, ...]
    by_roll: bool = False


@dataclass(frozen=True)
class ChallengeResult:
    """The parts of a multi-part challenge, each a :class:`CheckResult`."""

    parts: tuple[CheckResult, ...]

    @property
    def success(self) -> bool:
        """True when every part succeeded."""
        return all(p.success for p in self.parts)

    @property
    def outcome(self) -> Outcome:
        """The challenge's outcome as a whole."""
        return outcome_of(self.success)

    @property
    def faces(self) -> tuple[Face, ...]:
        """Every face of every part, in the order thrown."""
        return tuple(f for p in self.parts for f in p.faces)

    def to_json(self) -> dict[str, object]:
        """The JSON object printed by ``dicetable challenge d6pool --json``."""
        return {"system": SYSTEM, "success": self.success, "outcome": self.outcome.value,
                "successes": sum(p.success for p in self.parts),
                "parts": [p.to_json() for p in self.parts], "faces": [f.to_json() for f in self.faces]}

    def summary(self) -> str:
        """One line per part, then the overall outcome."""
        lines = [f"part {i}: {p.summary()}" for i, p in enumerate(self.parts, 1)]
        won = sum(p.success for p in self.parts)
        return "\n".join([*lines, f"{self.outcome.value.upper()}: {won} of {len(self.parts)} parts succeeded"])


@dataclass(frozen=True)
class InitiativeOrder:
    """The order of a round and every d6 each participant rolled for it."""

    order: tuple[str, ...]
    rolls: tuple[tuple[str, tuple[int, ...]], ...]
    faces: tuple[Face, ...]
    by_roll: bool = False

    def to_json(self) -> dict[str, object]:
        """The JSON object printed by ``dicetable initiative d6pool --json``."""
        return {"system": SYSTEM, "order": list(self.order), "first": self.order[0],
                "rule": "by roll" if self.by_roll else "clockwise",
                "rolls": {name: list(r) for name, r in self.rolls}, "faces": [f.to_json() for f in self.faces]}

    def summary(self) -> str:
        """``initiative (clockwise): Cy (4, 6), Ann (5), Bob (4, 2)``: the order with each one's rolls."""
        rolls = dict(self.rolls)
        rule = "by roll" if self.by_roll else "clockwise"
        return f"initiative ({rule}): " + ", ".join(f"{n} ({', '.join(map(str, rolls[n]))})" for n in self.order)


def _sum_of(dice: int, purpose: str, actor: str | None, role: Role | None = None
            ) -> Generator[DiceRequest, Throw, tuple[int, tuple[Face, ...]]]:
    throw = yield DiceRequest(requested(6, dice, role), purpose, actor)
    return sum(throw.values), throw.faces


def _check(params: D6PoolCheck, shift: int = 0) -> Generator[DiceRequest, Throw, CheckResult]:
    """One check, its difficulty moved ``shift`` d6 (multi-part) and lowered by the helpers."""
    validated(params)
    difficulty = params.difficulty.shifted(shift - params.helpers)
    faces: tuple[Face, ...] = ()
    target = difficulty.amount
    if difficulty.thrown:
        target, faces = yield from _sum_of(difficulty.amount, "GM difficulty dice", "GM", Role.DIFFICULTY)
    total, mine = yield from _sum_of(params.dice, "check", None)
    notes = []
    if params.helpers:
        notes.append(f"{params.helpers} helper(s): difficulty {params.difficulty} -> {difficulty} (never below 1d6)")
    if shift:
        notes.append(f"earlier parts moved the difficulty by {shift:+d}d6")
    success = total >= target
    detail = {"dice": params.dice, "set_difficulty": str(params.difficulty), "difficulty": str(difficulty),
              "helpers": params.helpers, "shift_d6": shift}
    return CheckResult(SYSTEM, total, target, success, outcome_of(success), faces + mine, total - target,
                       detail=detail, notes=tuple(notes))


def resolve_check(params: D6PoolCheck) -> Resolution[CheckResult]:
    """Resolve a check: the GM's difficulty dice first (if thrown), then the player's."""
    return (yield from _check(params))


def resolve_challenge(params: D6PoolChallenge) -> Resolution[ChallengeResult]:
    """Resolve the parts in order, each failure making later parts 1d6 harder, each success 1d6 easier."""
    require(len(params.parts) >= 2, "a multi-part challenge has at least two parts")
    for part in params.parts:
        validated(part)
    results: list[CheckResult] = []
    shift = 0
    for part in params.parts:
        result = yield from _check(part, shift)
        results.append(result)
        shift += -1 if result.success else 1
    return ChallengeResult(tuple(results))


class _Side(NamedTuple):
    """One party of a contest: ``dice`` d6 summed and multiplied by ``multiplier``."""

    dice: int
    multiplier: int
    purpose: str
    actor: str

    def throw(self) -> Generator[DiceRequest, Throw, tuple[int, tuple[Face, ...]]]:
        total, faces = yield from _sum_of(self.dice, self.purpose, self.actor)
        return total * self.multiplier, faces


def _contest(first: _Side, second: _Side, ties: TieRule
             ) -> Generator[DiceRequest, Throw, tuple[int, int, tuple[Face, ...], int]]:
    """Both sides throw until the tie rule settles a tie.

    Returns the two totals, every face thrown and the number of re-rolls.
    """
    faces: tuple[Face, ...] = ()
    for rerolls in range(MAX_REROLLS + 1):
        mine, thrown = yield from first.throw()
        theirs, more = yield from second.throw()
        faces += thrown + more
        if mine != theirs or ties is not TieRule.REROLL:
            return mine, theirs, faces, rerolls
    raise RulesError(f"tied {MAX_REROLLS + 1} times in a row: check the dice source")


def _wins(margin: int, ties: TieRule) -> bool:
    """Whether the initiator wins with ``margin`` (a tie left here is settled by ``ties``)."""
    return margin > 0 or (margin == 0 and ties is TieRule.INITIATOR)


def _opposed_result(mine: int, theirs: int, faces: tuple[Face, ...], rerolls: int, ties: TieRule,
                    detail: dict[str, object]) -> CheckResult:
    success = _wins(mine - theirs, ties)
    notes = [f"tie re-rolled {rerolls} time(s)"] if rerolls else []
    if mine == theirs:
        notes.append(f"tie: goes to the {ties.value}")
    return CheckResult(SYSTEM, mine, theirs, success, outcome_of(success), faces, mine - theirs,
                       detail={**detail, "ties": ties.value, "rerolls": rerolls}, notes=tuple(notes))


def resolve_opposed(params: D6PoolOpposed) -> Resolution[CheckResult]:
    """The initiator's pool, then the opponent's; from the initiator's side."""
    for dice in (params.dice, params.opponent_dice):
        require(1 <= dice <= MAX_DICE, f"roll 1 to {MAX_DICE} dice, not {dice}")
    mine, theirs, faces, rerolls = yield from _contest(_Side(params.dice, 1, "opposed check", "initiator"),
                                                       _Side(params.opponent_dice, 1, "opposed check", "opponent"),
                                                       params.ties)
    return _opposed_result(mine, theirs, faces, rerolls, params.ties,
                           {"dice": params.dice, "opponent_dice": params.opponent_dice})


def _require_stat(value: int, name: str) -> None:
    require(value >= 1, f"{name} must be 1 or more, not {value}")


def resolve_attack(params: D6PoolAttack) -> Resolution[CheckResult]:
    """1d6 x Power; against a block, the defender throws 1d6 x Resilience next."""
    _require_stat(params.power, "power")
    attacker = _Side(1, params.power, f"attack (x{params.power} power)", "attacker")
    if params.block is None:
        attack, faces = yield from attacker.throw()
        return CheckResult(SYSTEM, attack, None, True, Outcome.SUCCESS, faces, detail={"power": params.power},
                           notes=("no block given: the attack total stands",))
    _require_stat(params.block, "resilience")
    defender = _Side(1, params.block, f"block (x{params.block} resilience)", "defender")
    attack, block, faces, rerolls = yield from _contest(attacker, defender, params.ties)
    return _opposed_result(attack, block, faces, rerolls, params.ties,
                           {"power": params.power, "resilience": params.block})


def resolve_block(params: D6PoolBlock) -> Resolution[CheckResult]:
    """1d6 x Resilience; against a known attack total, the block holds when it beats it (ties by ``ties``)."""
    _require_stat(params.resilience, "resilience")
    require(params.attack is None or params.attack >= 0, "an attack total cannot be negative")
    require(params.attack is None or params.ties is not TieRule.REROLL,
            "a tie with an attack already rolled cannot be re-rolled: choose initiator or resistor")
    block, faces = yield from _Side(1, params.resilience, f"block (x{params.resilience} resilience)",
                                    "defender").throw()
    detail: dict[str, object] = {"resilience": params.resilience, "attack": params.attack}
    if params.attack is None:
        return CheckResult(SYSTEM, block, None, True, Outcome.SUCCESS, faces, detail=detail,
                           notes=("no attack given: the block total stands",))
    # The attacker is the initiator: the block holds when the attack does not win.
    success = not _wins(params.attack - block, params.ties)
    notes = (f"tie: goes to the {params.ties.value}",) if block == params.attack else ()
    return CheckResult(SYSTEM, block, params.attack, success, outcome_of(success), faces, block - params.attack,
                       detail={**detail, "ties": params.ties.value}, notes=notes)


def resolve_initiative(params: D6PoolInitiative) -> Resolution[InitiativeOrder]:
    """Everyone rolls a d6 and the highest goes first (ties roll again among the tied).

    Clockwise (the default), the others follow in seating order; ``by_roll`` ranks everyone by
    their rolls, so every tie is rolled again, not only a tie for the highest.
    """
    require(len(params.names) >= 2, "initiative needs at least two participants")
    require(len(set(params.names)) == len(params.names), "initiative participants need different names")
    rolls: dict[str, list[int]] = {name: [] for name in params.names}
    faces: list[Face] = []
    budget = [MAX_REROLLS]

    def ranking(group: tuple[str, ...], purpose: str) -> Generator[DiceRequest, Throw, list[str]]:
        by_value: dict[int, list[str]] = {}
        for name in group:
            value, thrown = yield from _sum_of(1, purpose, name)
            rolls[name].append(value)
            faces.extend(thrown)
            by_value.setdefault(value, []).append(name)
        ranked: list[str] = []
        for value in sorted(by_value, reverse=True):
            tied = tuple(by_value[value])
            if len(tied) > 1 and (params.by_roll or not ranked):
                budget[0] -= 1
                require(budget[0] >= 0, f"more than {MAX_REROLLS} initiative ties: check the dice source")
                tied = tuple((yield from ranking(tied, "initiative tie re-roll")))
            ranked.extend(tied)
        return ranked

    ranked = yield from ranking(params.names, "initiative")
    if not params.by_roll:
        first = params.names.index(ranked[0])
        ranked = [*params.names[first:], *params.names[:first]]
    return InitiativeOrder(tuple(ranked), tuple((n, tuple(rolls[n])) for n in params.names), tuple(faces),
                           params.by_roll)
