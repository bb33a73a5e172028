"""The "osr" system: ``d20 + ability score + modifiers`` against a DC ladder, a 2d6 table, dice of fate.

Each resolver takes one frozen parameter dataclass, yields
:class:`~rules.dice.DiceRequest` s and returns a :class:`~rules.result.CheckResult`.

Rules and the choices made where the text leaves one:

* A check succeeds when ``d20 + ability + modifier >= DC``. The DC ladder is easy 11,
  normal 16 (the default), difficult 21, extraordinary 26. The modifier (careers,
  backgrounds, tools: improvised +1, specialised +2, circumstances) is enforced to
  -5..+5 in total; the referee moves the DC itself for the environment.
* Criticals: a margin (``total - DC``) of +10 or more is ``CRITICAL_SUCCESS``, -10 or less
  ``CRITICAL_FAILURE``; anything else ``SUCCESS``/``FAILURE``. The rule text's worked
  example calls 21 against 15 a critical success and 7 against 15 a critical failure
  (margins +6 and -8, and "19 - 7" uses the wrong target); the stated rule wins here.
  Saving throws are checks and use the same critical rule.
* Attack rolls: ``d20 + STR`` in melee or ``d20 + WIS`` at range against a DC set by the
  referee (default normal 16); careers and backgrounds add nothing in combat, so there is
  no modifier. A critical failure breaks the weapon, a critical success allows a
  manoeuvre (both said in ``notes``).
* Saving throws: ``d20 + ability + heritage adjustment`` vs DC 16 (the referee may set
  another DC).
* Opposed checks: both roll ``d20 + ability + modifier``; the higher wins, an equal result
  is a tie. With ``close_is_tie`` (the optional rule, off by default) a difference under
  10 is a tie too. Success means the first party wins; there are no criticals.
* The 2d6 table: 2 disaster (``CRITICAL_FAILURE``), 3-5 poor (``FAILURE``), 6-8 average
  (reported as ``SUCCESS``: things go as expected; the band is in ``detail``), 9-11 good
  (``SUCCESS``), 12 great (``CRITICAL_SUCCESS``). ``reroll_average`` (off by default) asks
  for 2d6 again on 6-8. The table has no difficulty or margin.
* Dice of fate: x-in-6 succeeds when the d6 shows x or less; a modifier (a magic item's
  enhancement) moves x, and a chance moved to 0 or 6 or beyond is settled without a roll
  (no faces, total 0).
  ``difficulty`` holds x and ``margin`` is ``None`` (the die is read low).
* Secret rolls: any of these with ``secret=True`` returns a result flagged ``secret``; the
  command line keeps it from the players' output.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace

from rules.dice import DiceRequest, Face, Throw, requested
from rules.errors import require
from rules.protocol import ask
from rules.result import CheckResult, Outcome, outcome_of

SYSTEM = "osr"

#: The DC ladder by name.
DIFFICULTIES: dict[str, int] = {"easy": 11, "normal": 16, "difficult": 21, "extraordinary": 26}
DEFAULT_DC = DIFFICULTIES["normal"]
SAVE_DC = 16
#: Bounds of the total modifier of a check.
MODIFIER_LIMIT = 5
#: A margin this large either way is a critical.
CRITICAL_MARGIN = 10
#: Tool bonuses.
TOOLS: dict[str, int] = {"improvised": 1, "specialised": 2}
#: Suggested x-in-6 chances of the dice of fate.
FATE_CHANCES: dict[str, int] = {
    "torch": 2, "old trap": 2, "ammunition": 3, "friendly fire": 2, "glass": 2, "paper": 2,
    "wood": 3, "delicate metal": 3, "metal": 4, "magical": 5, "unique": 5,
}
#: Average results thrown again before the source is deemed broken (fair dice: (4/9)**100).
MAX_REROLLS = 100
#: The 2d6 table: (lowest total, band, outcome).
OUTCOME_BANDS: tuple[tuple[int, str, Outcome], ...] = (
    (2, "disaster", Outcome.CRITICAL_FAILURE), (3, "poor", Outcome.FAILURE), (6, "average", Outcome.SUCCESS),
    (9, "good", Outcome.SUCCESS), (12, "great", Outcome.CRITICAL_SUCCESS))

Check = Generator[DiceRequest, Throw, CheckResult]


def versus_dc(total: int, dc: int) -> Outcome:
    """The outcome of a total against a DC, criticals at a margin of 10 either way."""
    margin = total - dc
    if margin >= CRITICAL_MARGIN:
        return Outcome.CRITICAL_SUCCESS
    if margin <= -CRITICAL_MARGIN:
        return Outcome.CRITICAL_FAILURE
    return outcome_of(margin >= 0)


def _require_modifier(modifier: int) -> None:
    require(-MODIFIER_LIMIT <= modifier <= MODIFIER_LIMIT,
            f"the total modifier must be between -{MODIFIER_LIMIT} and +{MODIFIER_LIMIT}, not {modifier:+d}")


def _d20(purpose: str, actor: str | None = None) -> DiceRequest:
    return DiceRequest(requested(20), purpose, actor)


def _roll_against_dc(purpose: str, bonus: int, dc: int, secret: bool, detail: dict[str, object]) -> Check:
    face = (yield from ask(_d20(purpose))).faces[0]
    total = face.value + bonus
    outcome = versus_dc(total, dc)
    notes = (f"{outcome.value.replace('_', ' ')}: the margin is {abs(total - dc)}, "
             f"at least {CRITICAL_MARGIN}",) if outcome in (Outcome.CRITICAL_SUCCESS, Outcome.CRITICAL_FAILURE) else ()
    return CheckResult(SYSTEM, total, dc, outcome.succeeded, outcome, (face,), total - dc,
                       detail={"natural": face.value, **detail}, notes=notes, secret=secret)


@dataclass(frozen=True)
class OsrCheck:
    """An ability check: ``d20 + ability + modifier >= difficulty`` (DC, default normal 16)."""

    ability: int
    difficulty: int = DEFAULT_DC
    modifier: int = 0
    secret: bool = False


def resolve_check(check: OsrCheck) -> Check:
    """Resolve an ability check with criticals at a margin of 10."""
    _require_modifier(check.modifier)
    return (yield from _roll_against_dc("ability check", check.ability + check.modifier, check.difficulty,
                                        check.secret, {"ability": check.ability, "modifier": check.modifier}))


@dataclass(frozen=True)
class OsrSave:
    """A saving throw: ``d20 + ability + heritage adjustment`` vs DC 16."""

    ability: int
    heritage: int = 0
    difficulty: int = SAVE_DC
    secret: bool = False


def resolve_save(save: OsrSave) -> Check:
    """Resolve a saving throw (criticals as for checks)."""
    return (yield from _roll_against_dc("saving throw", save.ability + save.heritage, save.difficulty, save.secret,
                                        {"ability": save.ability, "heritage": save.heritage}))


@dataclass(frozen=True)
class OsrAttack:
    """An attack roll: ``d20 + STR`` (melee) or ``d20 + WIS`` (ranged) vs a DC; careers and backgrounds add nothing."""

    ability: int
    difficulty: int = DEFAULT_DC
    ranged: bool = False
    secret: bool = False


def resolve_attack(attack: OsrAttack) -> Check:
    """Resolve an attack; a critical failure breaks the weapon, a critical success allows a manoeuvre."""
    result = yield from _roll_against_dc("attack roll", attack.ability, attack.difficulty, attack.secret,
                                         {"ability": attack.ability, "attack": "ranged" if attack.ranged else "melee",
                                          "uses": "WIS" if attack.ranged else "STR"})
    combat = {Outcome.CRITICAL_FAILURE: "fumble: the weapon breaks (a magic weapon may get a die of fate with its "
                                        "enhancement bonus, or is dropped or taken instead)",
              Outcome.CRITICAL_SUCCESS: "a manoeuvre as the referee finds plausible (disarm, push, grapple, stun, "
                                        "blind, break gear, restrain); it may need a die of fate"}
    if result.outcome not in combat:
        return result
    return replace(result, notes=result.notes + (combat[result.outcome],))


@dataclass(frozen=True)
class OsrOpposed:
    """An opposed check: both parties roll ``d20 + ability + modifier``; the higher wins."""

    ability: int
    opponent_ability: int
    modifier: int = 0
    opponent_modifier: int = 0
    close_is_tie: bool = False
    secret: bool = False


def resolve_opposed(params: OsrOpposed) -> Check:
    """Higher total wins; equal totals (or, with ``close_is_tie``, a difference under 10) tie."""
    _require_modifier(params.modifier)
    _require_modifier(params.opponent_modifier)
    mine = (yield from ask(_d20("opposed check", "you"))).faces[0]
    theirs = (yield from ask(_d20("opposed check", "opponent"))).faces[0]
    total = mine.value + params.ability + params.modifier
    opposing = theirs.value + params.opponent_ability + params.opponent_modifier
    difference = total - opposing
    tied = difference == 0 or (params.close_is_tie and abs(difference) < CRITICAL_MARGIN)
    winner = "tie" if tied else ("you" if difference > 0 else "opponent")
    won = winner == "you"
    notes = ("a difference under 10 is a tie",) if tied and difference else ()
    detail: dict[str, object] = {"opponent_total": opposing, "winner": winner, "close_is_tie": params.close_is_tie}
    return CheckResult(SYSTEM, total, opposing, won, outcome_of(won), (mine, theirs), difference,
                       detail=detail, notes=notes, secret=params.secret)


@dataclass(frozen=True)
class OsrOutcomeTable:
    """A roll on the 2d6 catch-them-all table; ``reroll_average`` throws again on 6-8."""

    reroll_average: bool = False
    secret: bool = False


def outcome_band(total: int) -> tuple[str, Outcome]:
    """The band and outcome of a 2d6 total."""
    require(2 <= total <= 12, f"2d6 cannot total {total}")
    return next((band, outcome) for low, band, outcome in reversed(OUTCOME_BANDS) if total >= low)


def resolve_outcome_table(params: OsrOutcomeTable) -> Check:
    """Read the 2d6 table (asking again while the result is average, if told to)."""
    faces: list[Face] = []
    while True:
        throw = yield from ask(DiceRequest(requested(6, 2), "2d6 table"))
        faces += throw.faces
        total = sum(throw.values)
        band, outcome = outcome_band(total)
        if band != "average" or not params.reroll_average:
            break
        require(len(faces) // 2 <= MAX_REROLLS, f"{len(faces) // 2} average results in a row: "
                                                "the dice source looks broken")
    rerolls = len(faces) // 2 - 1
    notes = (f"re-rolled {rerolls} average result(s)",) if rerolls else ()
    return CheckResult(SYSTEM, total, None, outcome.succeeded, outcome, tuple(faces), None,
                       detail={"band": band, "rerolls": rerolls}, notes=notes, secret=params.secret)


@dataclass(frozen=True)
class OsrFate:
    """A die of fate: an x-in-6 ``chance`` (1-5), moved by ``modifier``."""

    chance: int
    modifier: int = 0
    secret: bool = False


def resolve_fate(params: OsrFate) -> Check:
    """Succeed when a d6 shows the chance or less; a certain chance asks for no die."""
    require(1 <= params.chance <= 5, f"a die of fate has a 1-in-6 to 5-in-6 chance, not {params.chance}-in-6")
    chance = params.chance + params.modifier
    faces: tuple[Face, ...] = ()
    if 1 <= chance <= 5:
        faces = (yield from ask(DiceRequest(requested(6), "die of fate"))).faces
        success, total = faces[0].value <= chance, faces[0].value
        notes: tuple[str, ...] = ()
    else:
        success, total = chance >= 6, 0
        notes = (f"a {chance}-in-6 chance is {'certain' if success else 'hopeless'}: no roll",)
    detail: dict[str, object] = {"chance": params.chance, "modifier": params.modifier, "effective_chance": chance}
    return CheckResult(SYSTEM, total, chance, success, outcome_of(success), faces, None,
                       detail=detail, notes=notes, secret=params.secret)
