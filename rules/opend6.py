"""The OpenD6 / D6 System (seed 001): die codes, the wild die, Character and Fate Points.

A check rolls the dice of a die code (``4D+1``: four d6 plus one pip) against a difficulty.
Rulings, with the choices the rules leave to the gamemaster made here:

- **Success** when the total *meets or beats* the difficulty (the seed asks the player to
  "meet or beat" it and gives ties to the initiator, who is the roller of a plain check).
  ``ties_to_initiator=False`` reads the seed's "greater than" wording instead: a tie fails.
  Opposed rolls: the higher total wins, ties go to the initiator (same switch).
- **Wild die**: one die of every roll is the wild die (with 1D it is the only die). It comes
  first in each request. A 6 is added and the wild die alone is thrown again (a new
  request) while it shows 6.
- **Critical failure**: a 1 on the wild die's *first* throw (never on a re-throw after a 6).
  The gamemaster's two options are :class:`CriticalOption`; the default is ``cancel``:

  * ``cancel`` (default): the wild die's 1 and the highest *plain* die are both removed, the
    rest is added normally. Character Point dice are never cancelled (they are thrown on
    their own and cannot hurt the roll). With only the wild die, nothing else is removed.
  * ``complication``: the dice add normally and a complication is flagged in
    :attr:`CheckResult.complication`, its gravity gauged by the margin (see
    :func:`complication_gravity`): ``minor`` when the check succeeds anyway, ``moderate``
    when it fails by 1-5, ``serious`` by 6-10, ``disaster`` by 11 or more.
- **Opposed rolls**: the initiator throws first, then the resistor (``actor`` of each
  request); the result is the initiator's, the resistor's roll and complication (gauged by
  its own margin) are in ``detail["resistor"]``.
- **Outcomes**: ``critical_success`` = a success whose wild die showed 6 on its first throw;
  ``critical_failure`` = a failure whose wild die showed 1 on its first throw; a first-throw
  1 on a check that still succeeds is a plain ``success`` (with the complication flag under
  the ``complication`` option); otherwise ``success`` / ``failure``.
- **Bonuses**: ``bonus_dice`` (+1D from an Advantage or equipment; negative for a die code
  penalty) add plain dice, ``bonus_pips`` (+2) add to the total.
- **Character Points**: one extra wild die each (:attr:`Role.BONUS_WILD`), exploding on 6,
  its 1 counts 1. Spent before the throw they join the main request (after the wild die,
  before the plain dice); spent after (``character_points_after``) they are asked for in a
  request of their own once the main throw (and its explosions) is read.
- **Fate Point**: doubles the character's own dice (the die code's dice, not its pips) before
  any bonus or penalty; still one wild die; bonus dice are not doubled. Character Points and
  a Fate Point on the same roll are refused unless ``cinematic`` is set.
- **Untrained**: roll the attribute's code; ``unskilled_modifier`` (typically 5) is added to
  the difficulty.
- **Related skills**: each related roll's result points give a modifier of half their size
  rounded up, at least 1, added when the related roll succeeded (result points >= 0) and
  subtracted when it failed (:func:`related_skill_modifier`).
- **Extra time**: +1D per doubling of the time, at most +3D (more doublings add nothing).
  **Rushing**: +5/+10/+20 difficulty for 25/50/75% less time; more than 75% less is refused.
- **Difficulty names** (:data:`DIFFICULTIES`): the top of each range of the seed (Very Easy
  5 ... Heroic 30), Legendary ("31 or more") 35. Automatic (a difficulty of 0 after all
  modifiers) needs no roll: the check succeeds without asking for dice.
- **Result points** = total - difficulty; the result reports half of them rounded up (a
  bonus to another roll) and, for an attack, one fifth rounded up (a damage bonus).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import KW_ONLY, dataclass, field
from enum import Enum

from rules.dice import DiceRequest, Face, Role, Throw, requested
from rules.errors import require, validated
from rules.notation import MAX_DICE, DieCode
from rules.protocol import Resolution
from rules.result import CheckResult, Outcome, RollResult

SYSTEM = "opend6"

#: Standard difficulty names and the number each stands for (the top of the seed's range).
DIFFICULTIES: dict[str, int] = {
    "automatic": 0, "very easy": 5, "easy": 10, "moderate": 15, "difficult": 20,
    "very difficult": 25, "heroic": 30, "legendary": 35,
}

#: Rushing: percent less time -> added difficulty. Less than 25% of the time is refused.
RUSH_MODIFIERS: dict[int, int] = {0: 0, 25: 5, 50: 10, 75: 20}
MAX_EXTRA_TIME_DICE = 3
DEFAULT_UNSKILLED_MODIFIER = 5
#: Re-throws of exploding wild dice in one roll before the source is deemed broken.
MAX_EXPLOSIONS = 100

#: Complication gravities, mildest first (see :func:`complication_gravity`).
GRAVITIES = ("minor", "moderate", "serious", "disaster")


class CriticalOption(str, Enum):
    """The gamemaster's choice for a 1 on the wild die's first throw."""

    CANCEL = "cancel"  # the 1 and the highest plain die are removed
    COMPLICATION = "complication"  # add normally, flag a complication


@dataclass(frozen=True)
class OpenD6Roll:
    """One character's roll: the die code and everything that changes its dice or total.

    ``code`` is the character's own skill (or, untrained, attribute) code; Fate Points double
    its dice. ``related`` lists the result points of related-skill rolls made just before.
    """

    code: DieCode
    _: KW_ONLY
    critical: CriticalOption = CriticalOption.CANCEL
    character_points: int = 0
    character_points_after: int = 0
    fate_point: bool = False
    cinematic: bool = False
    bonus_dice: int = 0
    bonus_pips: int = 0
    extra_time: int = 0
    related: tuple[int, ...] = ()

    @property
    def dice(self) -> int:
        """The dice of the main throw, wild die included, Character Point dice excluded."""
        own = self.code.dice * (2 if self.fate_point else 1)
        return own + self.bonus_dice + extra_time_dice(self.extra_time)

    @property
    def related_modifier(self) -> int:
        """The sum of the related skills' modifiers."""
        return sum(related_skill_modifier(rp) for rp in self.related)

    @property
    def pips(self) -> int:
        """Pips added to the dice: the code's and the bonus's."""
        return self.code.pips + self.bonus_pips

    def validate(self) -> None:
        """Raise :class:`RulesError` for options the rules do not allow."""
        require(self.code.dice >= 1, f"die code {self.code}: at least 1D")
        require(self.character_points >= 0 and self.character_points_after >= 0,
                "Character Points spent cannot be negative")
        require(self.extra_time >= 0, "extra time is a number of doublings, 0 or more")
        require(self.cinematic or not (self.fate_point and self.character_points + self.character_points_after),
                "Character Points and a Fate Point cannot be spent on the same roll "
                "(unless the gamemaster allows it for a cinematic moment)")
        require(self.dice >= 1, f"penalties leave no dice to roll ({self.code}, {self.bonus_dice:+d}D)")
        require(self.dice + self.character_points + self.character_points_after <= MAX_DICE,
                f"more than {MAX_DICE} dice in one roll")


@dataclass(frozen=True)
class OpenD6Check(OpenD6Roll):
    """A check against a difficulty (a number; see :data:`DIFFICULTIES` for the names).

    ``rush`` is the percent of time saved (0, 25, 50, 75); ``unskilled_modifier`` is ``None``
    for a trained skill, else what untrained use adds to the difficulty; ``attack`` reports
    the damage bonus of the result points.
    """

    difficulty: int
    _: KW_ONLY
    rush: int = 0
    unskilled_modifier: int | None = None
    ties_to_initiator: bool = True
    attack: bool = False

    def validate(self) -> None:
        """Raise :class:`RulesError` for options the rules do not allow."""
        super().validate()
        require(self.difficulty >= 0, "a difficulty cannot be negative")
        require(self.unskilled_modifier is None or self.unskilled_modifier >= 0,
                "the unskilled modifier cannot be negative")
        rush_modifier(self.rush)

    @property
    def effective_difficulty(self) -> int:
        """The difficulty with the unskilled and rushing modifiers."""
        return self.difficulty + (self.unskilled_modifier or 0) + rush_modifier(self.rush)


@dataclass(frozen=True)
class OpenD6Opposed:
    """An opposed roll: the initiator's total against the resistor's; ties as ``ties_to_initiator``."""

    initiator: OpenD6Roll
    resistor: OpenD6Roll
    ties_to_initiator: bool = True


def extra_time_dice(doublings: int) -> int:
    """+1D per doubling of the time taken, at most +3D."""
    return min(max(doublings, 0), MAX_EXTRA_TIME_DICE)


def rush_modifier(percent_less_time: int) -> int:
    """Difficulty added for doing a task in ``percent_less_time`` % less time."""
    require(percent_less_time <= max(RUSH_MODIFIERS),
            f"no task can be done in less than 25% of its time ({percent_less_time}% less asked)")
    require(percent_less_time in RUSH_MODIFIERS, f"rushing saves 25, 50 or 75% of the time, not {percent_less_time}%")
    return RUSH_MODIFIERS[percent_less_time]


def ceil_div(value: int, divisor: int) -> int:
    """``value / divisor`` rounded up."""
    return -(-value // divisor)


def related_skill_modifier(result_points: int) -> int:
    """A related skill's modifier: half the result points rounded up, at least 1, signed by success."""
    size = max(1, ceil_div(abs(result_points), 2))
    return size if result_points >= 0 else -size


def half_bonus(result_points: int) -> int:
    """Half the result points, rounded up, as a bonus to another roll (nothing on a failure)."""
    return ceil_div(result_points, 2) if result_points > 0 else 0


def damage_bonus(result_points: int) -> int:
    """One fifth of an attack's result points, rounded up, added to damage (nothing on a miss)."""
    return ceil_div(result_points, 5) if result_points > 0 else 0


def complication_gravity(margin: int) -> str:
    """The gravity of a complication from the margin: mild on a high total, grave on a low one."""
    if margin >= 0:
        return GRAVITIES[0]
    return GRAVITIES[min(3, 1 + (-margin - 1) // 5)]


@dataclass
class _Tally:
    """What one character's roll came to (internal to the resolvers)."""

    total: int
    faces: list[Face]
    wild: list[int]  # the wild die's throws in order (6, 6, 3)
    cancelled: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def wild_one(self) -> bool:
        return self.wild[0] == 1

    @property
    def wild_six(self) -> bool:
        return self.wild[0] == 6


def _exploding(request: DiceRequest) -> Generator[DiceRequest, Throw, tuple[list[Face], list[int]]]:
    """Throw ``request``; each designated die showing 6 is thrown again alone while 6s come.

    Returns every face in the order thrown and each requested die's running sum.
    """
    throw = yield request
    faces = list(throw.faces)
    sums = [f.value for f in throw.faces]
    live = [i for i, spec in enumerate(request.dice) if spec.role is not None and sums[i] == 6]
    for _ in range(MAX_EXPLOSIONS):
        if not live:
            return faces, sums
        again = yield DiceRequest(tuple(request.dice[i] for i in live),
                                  "wild die again" if len(live) == 1 else "wild dice again", request.actor)
        faces.extend(again.faces)
        for i, face in zip(live, again.faces):
            sums[i] += face.value
        live = [i for i, face in zip(live, again.faces) if face.value == 6]
    require(not live, f"the wild dice showed 6 more than {MAX_EXPLOSIONS} times in a row: check the dice source")
    return faces, sums


def _roll(params: OpenD6Roll, actor: str | None = None) -> Generator[DiceRequest, Throw, _Tally]:
    """Throw one character's roll and add it up (the critical option ``cancel`` applied)."""
    cp = params.character_points
    main = DiceRequest((*requested(6, 1, Role.WILD), *requested(6, cp, Role.BONUS_WILD), *requested(6, params.dice - 1)),
                       "check", actor)
    faces, sums = yield from _exploding(main)
    wild_throws = [f.value for f in faces if f.role is Role.WILD]
    plain = sums[1 + cp:]
    dice_total = sum(sums)
    if params.character_points_after:
        after = DiceRequest(requested(6, params.character_points_after, Role.BONUS_WILD),
                            "Character Point dice (after the throw)", actor)
        more, after_sums = yield from _exploding(after)
        faces += more
        dice_total += sum(after_sums)
    tally = _Tally(0, faces, wild_throws)
    if tally.wild_one and params.critical is CriticalOption.CANCEL:
        tally.cancelled = [1, max(plain)] if plain else [1]
        dice_total -= sum(tally.cancelled)
        tally.notes.append("critical failure: the wild die's 1 cancels itself and the highest plain die"
                           if plain else "critical failure: the wild die's 1 counts for nothing")
    elif tally.wild_one:
        tally.notes.append("critical failure: the dice add normally and a complication occurs")
    if len(wild_throws) > 1:
        tally.notes.append(f"the wild die exploded: {' + '.join(map(str, wild_throws))}")
    tally.total = dice_total + params.pips + params.related_modifier
    return tally


def _roll_detail(params: OpenD6Roll, tally: _Tally) -> dict[str, object]:
    """The facts of one roll, as plain JSON values."""
    return {
        "code": str(params.code),
        "dice": params.dice,
        "pips": params.pips,
        "wild_die": tally.wild,
        "wild_critical_failure": tally.wild_one,
        "cancelled": tally.cancelled,
        "character_point_dice": params.character_points + params.character_points_after,
        "fate_point": params.fate_point,
        "extra_time_dice": extra_time_dice(params.extra_time),
        "related_modifier": params.related_modifier,
    }


def _outcome(success: bool, tally: _Tally) -> Outcome:
    if success:
        return Outcome.CRITICAL_SUCCESS if tally.wild_six else Outcome.SUCCESS
    return Outcome.CRITICAL_FAILURE if tally.wild_one else Outcome.FAILURE


def _complication(params: OpenD6Roll, tally: _Tally, margin: int) -> str | None:
    if tally.wild_one and params.critical is CriticalOption.COMPLICATION:
        return complication_gravity(margin)
    return None


def _result_points(margin: int, attack: bool) -> dict[str, object]:
    points: dict[str, object] = {"result_points": margin, "half_bonus": half_bonus(margin),
                                 "modifier_as_related_skill": related_skill_modifier(margin)}
    if attack:
        points["damage_bonus"] = damage_bonus(margin)
    return points


def resolve_roll(params: OpenD6Roll) -> Resolution[RollResult]:
    """Roll a die code with no difficulty (``dicetable roll 4D+1``): the wild die explodes, and a
    first-throw 1 is handled by the critical option (``complication`` is noted, not graded)."""
    validated(params)
    tally = yield from _roll(params)
    return RollResult(SYSTEM, str(params.code), tally.total, tuple(tally.faces), notes=tuple(tally.notes))


def resolve_check(params: OpenD6Check) -> Resolution[CheckResult]:
    """Resolve an OpenD6 check: yields the throws it needs, returns the :class:`CheckResult`."""
    validated(params)
    difficulty = params.effective_difficulty
    base = {"base_difficulty": params.difficulty, "unskilled_modifier": params.unskilled_modifier,
            "rush_modifier": rush_modifier(params.rush)}
    if difficulty == 0:
        require(not (params.character_points or params.character_points_after or params.fate_point),
                "an automatic action needs no roll: spend no Character or Fate Points on it")
        return CheckResult(SYSTEM, 0, 0, True, Outcome.SUCCESS, (), 0, detail=base,
                           notes=("automatic difficulty: no roll needed",))
    tally = yield from _roll(params)
    margin = tally.total - difficulty
    success = margin > 0 or (margin == 0 and params.ties_to_initiator)
    notes = list(tally.notes)
    if params.unskilled_modifier:
        notes.append(f"untrained: +{params.unskilled_modifier} to the difficulty")
    if params.rush:
        notes.append(f"rushed ({params.rush}% less time): +{rush_modifier(params.rush)} to the difficulty")
    return CheckResult(SYSTEM, tally.total, difficulty, success, _outcome(success, tally), tuple(tally.faces),
                       margin, _complication(params, tally, margin),
                       {**_roll_detail(params, tally), **base, **_result_points(margin, params.attack)},
                       tuple(notes))


def resolve_opposed(params: OpenD6Opposed) -> Resolution[CheckResult]:
    """Resolve an opposed roll: the initiator throws, then the resistor; from the initiator's side."""
    validated(params.initiator)
    validated(params.resistor)
    mine = yield from _roll(params.initiator, "initiator")
    theirs = yield from _roll(params.resistor, "resistor")
    margin = mine.total - theirs.total
    success = margin > 0 or (margin == 0 and params.ties_to_initiator)
    notes = [f"initiator: {n}" for n in mine.notes] + [f"resistor: {n}" for n in theirs.notes]
    if margin == 0:
        notes.append(f"tie: goes to the {'initiator' if params.ties_to_initiator else 'resistor'}")
    detail = {**_roll_detail(params.initiator, mine), **_result_points(margin, False),
              "resistor": {**_roll_detail(params.resistor, theirs), "total": theirs.total,
                           "complication": _complication(params.resistor, theirs, -margin)}}
    return CheckResult(SYSTEM, mine.total, theirs.total, success, _outcome(success, mine),
                       tuple(mine.faces + theirs.faces), margin, _complication(params.initiator, mine, margin),
                       detail, tuple(notes))
