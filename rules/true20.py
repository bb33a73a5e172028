"""True20 checks, attack rolls, saving throws and the ways to resolve them without dice.

Every roll is ``d20 + modifier`` against a Difficulty and succeeds when it equals or exceeds
it. Each resolver takes one frozen parameter dataclass, yields
:class:`~rules.dice.DiceRequest` s and returns a :class:`~rules.result.CheckResult` whose
``margin`` is ``total - Difficulty`` (graded results are read off it).

Mapping to :class:`~rules.result.Outcome`: True20 has no critical successes or failures on
checks and saves (a natural 20 or 1 is not automatic), so every result is ``SUCCESS`` or
``FAILURE``. An attack's natural 20 hits automatically and only *threatens* a critical hit:
it is a ``SUCCESS`` with ``detail["critical_threat"] = True``, not ``CRITICAL_SUCCESS``; a
natural 1 is an automatic miss, a plain ``FAILURE``. Opposed and comparison checks report
the first party's side: ``SUCCESS`` when it wins.

Choices where the rules leave one (defaults first):

* Circumstances: a +-2 change to the modifier (``circumstance``) and a +-2 change to the
  Difficulty (``difficulty_circumstance``) are separate fields; several circumstances
  stack in steps of 2.
* Taking 1 is refused unless the total bonus reaches the Difficulty (the only case the
  rules define); it reports the minimum level of success (as if the die showed 1).
  Taking 10 is refused ``under_pressure``; taking 20 is refused when failure has
  ``consequences``. Taking 5 is always allowed. Taking N asks for no dice.
* Challenges: each is +5 Difficulty by default, or a -5 penalty to the result
  (:class:`ChallengeForm`); they may be mixed and repeated. A calculated risk requires a
  check with consequences for failure and, on success, carries +5 per calculated-risk
  challenge to the follow-up check (``detail["follow_up_bonus"]``; pass it back as
  ``carried_bonus``). The secondary check of simultaneous tasks takes -10 by default or
  +10 Difficulty.
* Aid: each helper's bonus (2, plus 1 per full 10 points over Difficulty 10) adds to the
  leader's check; helpers may take 1, 5 or 20 but not 10. The Narrator limits helpers.
* Saving throws follow the check rules (natural 20 and 1 not automatic). A Toughness save
  against damage has Difficulty 15 + damage bonus and reports the damage condition for
  each full 5 points of failure (bruised/hurt, dazed/wounded, staggered/disabled,
  unconscious/dying for non-lethal/lethal damage).
* Opposed ties go to the higher modifier; equal modifiers make both parties roll again.
  Comparison ties are settled by a coin (a d2 with role COIN, 2 = the first party wins).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace
from enum import Enum

from rules.dice import DiceRequest, Face, Role, Throw, requested
from rules.errors import require
from rules.protocol import ask
from rules.result import CheckResult, outcome_of

SYSTEM = "true20"

#: The sample Difficulties, by name.
DIFFICULTIES: dict[str, int] = {
    "very easy": 0, "easy": 5, "average": 10, "tough": 15, "challenging": 20,
    "formidable": 25, "heroic": 30, "superheroic": 35, "nearly impossible": 40,
}

#: The values a character may take instead of rolling.
TAKES: tuple[int, ...] = (1, 5, 10, 20)

#: Size of one circumstance step, of one challenge, and of the simultaneous-task handicap.
CIRCUMSTANCE_STEP = 2
CHALLENGE_STEP = 5
SECONDARY_HANDICAP = 10

#: Ties thrown again before the source is deemed broken (fair dice: 20**-100).
MAX_REROLLS = 100

#: Aid: helpers roll against this Difficulty; success grants this bonus, +1 per full 10 over.
AID_DIFFICULTY = 10
AID_BONUS = 2

#: Toughness saves against damage: Difficulty base, and the conditions per 5 points of failure.
TOUGHNESS_BASE = 15
DAMAGE_CONDITIONS: tuple[tuple[str, str], ...] = (
    ("bruised", "hurt"), ("dazed", "wounded"), ("staggered", "disabled"), ("unconscious", "dying"))

Check = Generator[DiceRequest, Throw, CheckResult]


class CheckKind(str, Enum):
    """What the modifier of a check is made of (reported, it does not change the rules)."""

    CHECK = "check"
    SKILL = "skill"  # skill rank + key ability
    ABILITY = "ability"  # ability score alone (also an untrained skill)
    POWER = "power"  # power rank (adept level + 3) + key ability


class Tools(str, Enum):
    """Tools for a task that needs them, and the penalty each situation carries."""

    PROPER = "proper"  # the right tools, or none needed
    IMPROVISED = "improvised"
    MISSING = "missing"

    @property
    def modifier(self) -> int:
        """Penalty on the check."""
        return {Tools.PROPER: 0, Tools.IMPROVISED: -2, Tools.MISSING: -4}[self]


class ChallengeKind(str, Enum):
    """The standard challenges; OTHER stands for a skill's own challenge."""

    FAST_TASK = "fast_task"
    CALCULATED_RISK = "calculated_risk"
    SIMULTANEOUS = "simultaneous"
    OTHER = "other"


class ChallengeForm(str, Enum):
    """How a challenge (or the simultaneous secondary check) is paid for."""

    DIFFICULTY = "difficulty"  # raise the Difficulty
    PENALTY = "penalty"  # lower the check result


@dataclass(frozen=True)
class Challenge:
    """One challenge accepted on a check."""

    kind: ChallengeKind
    form: ChallengeForm = ChallengeForm.DIFFICULTY


class ActionTime(str, Enum):
    """How long the task normally takes, for the fast-task challenge."""

    FREE = "free"
    MOVE = "move"
    STANDARD = "standard"
    FULL_ROUND = "full-round"
    EXTENDED = "extended"  # rounds, minutes or longer


_ACTION_LADDER = (ActionTime.FREE, ActionTime.MOVE, ActionTime.STANDARD, ActionTime.FULL_ROUND)


class SaveKind(str, Enum):
    """The saving throws and the ability each adds."""

    TOUGHNESS = "toughness"
    FORTITUDE = "fortitude"
    REFLEX = "reflex"
    WILL = "will"

    @property
    def ability(self) -> str:
        """The ability score the save adds."""
        return {SaveKind.REFLEX: "dexterity", SaveKind.WILL: "wisdom"}.get(self, "constitution")


def power_rank(adept_level: int) -> int:
    """A power's rank: adept level + 3."""
    require(adept_level >= 1, f"an adept level is 1 or more, not {adept_level}")
    return adept_level + 3


@dataclass(frozen=True)
class True20Check:
    """A check: ``d20 + modifier`` (after circumstances, tools, challenges and bonuses) vs Difficulty.

    ``take`` replaces the roll (1, 5, 10 or 20). ``under_pressure`` (distracted, threatened,
    in a rush) forbids taking 10; ``consequences`` (failure has a penalty) forbids taking 20
    and is required by a calculated risk. ``secondary`` marks the secondary check of
    simultaneous tasks and says how its handicap is paid. ``action`` is the task's normal
    time, shortened by fast-task challenges.
    """

    modifier: int
    difficulty: int
    take: int | None = None
    under_pressure: bool = False
    consequences: bool = False
    circumstance: int = 0
    difficulty_circumstance: int = 0
    tools: Tools = Tools.PROPER
    challenges: tuple[Challenge, ...] = ()
    action: ActionTime | None = None
    aid_bonus: int = 0
    carried_bonus: int = 0
    secondary: ChallengeForm | None = None
    kind: CheckKind = CheckKind.CHECK

    def count(self, kind: ChallengeKind) -> int:
        """Number of challenges of ``kind`` accepted."""
        return sum(1 for c in self.challenges if c.kind == kind)

    def _handicap(self, form: ChallengeForm) -> int:
        challenges = CHALLENGE_STEP * sum(1 for c in self.challenges if c.form == form)
        return challenges + (SECONDARY_HANDICAP if self.secondary == form else 0)

    @property
    def effective_modifier(self) -> int:
        """The modifier with circumstances, tools, bonuses and challenge penalties applied."""
        return (self.modifier + self.circumstance + self.tools.modifier + self.aid_bonus + self.carried_bonus
                - self._handicap(ChallengeForm.PENALTY))

    @property
    def effective_difficulty(self) -> int:
        """The Difficulty with circumstances and challenges applied."""
        return self.difficulty + self.difficulty_circumstance + self._handicap(ChallengeForm.DIFFICULTY)


def _validate(check: True20Check) -> None:
    for name, value in (("circumstance", check.circumstance),
                        ("difficulty circumstance", check.difficulty_circumstance)):
        require(value % CIRCUMSTANCE_STEP == 0,
                f"a {name} changes things in steps of {CIRCUMSTANCE_STEP} (+2 or -2 each), not {value:+d}")
    require(check.aid_bonus >= 0 and check.carried_bonus >= 0, "aid and carried bonuses cannot be negative")
    if check.take is not None:
        require(check.take in TAKES, f"you can take 1, 5, 10 or 20, not {check.take}")
        require(not (check.take == 10 and check.under_pressure),
                "cannot take 10 when distracted or under pressure: roll, or take 1 or 5")
        require(not (check.take == 20 and check.consequences),
                "cannot take 20 when failure has consequences: roll instead")
        require(check.take != 1 or check.effective_modifier >= check.effective_difficulty,
                f"taking 1 needs a total bonus of at least the Difficulty "
                f"({check.effective_modifier:+d} < {check.effective_difficulty}): roll instead")
    require(not check.count(ChallengeKind.CALCULATED_RISK) or check.consequences,
            "a calculated risk must be a check whose failure has consequences (one you could not take 20 on)")
    _shortened_time(check)


def _shortened_time(check: True20Check) -> dict[str, object]:
    """The fast-task challenges' effect on the task's time (refusing what the rules forbid)."""
    fast = check.count(ChallengeKind.FAST_TASK)
    if not fast or check.action is None:
        return {}
    if check.action == ActionTime.EXTENDED:
        require(fast <= 3, f"{fast} fast-task challenges would take away all the time (25% each, 3 at most)")
        return {"time_factor": 1 - fast / 4}
    start = _ACTION_LADDER.index(check.action)
    end = start - fast
    lowest = 1 if check.action in (ActionTime.STANDARD, ActionTime.FULL_ROUND) else 0
    require(end >= lowest, f"{fast} fast-task challenge(s) cannot shorten a {check.action.value} action that far "
                           f"(a standard action or longer never becomes a free action)")
    return {"action": _ACTION_LADDER[end].value}


def _d20(purpose: str, actor: str | None = None) -> DiceRequest:
    return DiceRequest(requested(20), purpose, actor)


def resolve_check(check: True20Check, actor: str | None = None) -> Check:
    """Resolve a skill, ability or power check (or take 1, 5, 10 or 20 without dice)."""
    _validate(check)
    modifier, difficulty = check.effective_modifier, check.effective_difficulty
    faces: tuple[Face, ...] = ()
    notes: list[str] = []
    if check.take is None:
        faces = (yield from ask(_d20(f"{check.kind.value} check", actor))).faces
        natural = faces[0].value
    else:
        natural = check.take
        notes.append(f"took {check.take}: no dice")
        if check.take == 1:
            notes.append("taking 1 achieves the minimum level of success")
    total = natural + modifier
    success = total >= difficulty
    detail: dict[str, object] = {
        "kind": check.kind.value, "modifier": check.modifier, "effective_modifier": modifier,
        "base_difficulty": check.difficulty, "natural": natural if check.take is None else None,
        "take": check.take,
    }
    if check.circumstance or check.difficulty_circumstance:
        detail["circumstance"] = check.circumstance
        detail["difficulty_circumstance"] = check.difficulty_circumstance
    if check.tools is not Tools.PROPER:
        detail["tools"] = check.tools.value
        detail["tool_modifier"] = check.tools.modifier
    if check.aid_bonus:
        detail["aid_bonus"] = check.aid_bonus
    if check.carried_bonus:
        detail["carried_bonus"] = check.carried_bonus
    if check.challenges:
        detail["challenges"] = [{"kind": c.kind.value, "form": c.form.value} for c in check.challenges]
        if not success:
            notes.append("failed a challenged check: the normal results of failure apply")
    risks = check.count(ChallengeKind.CALCULATED_RISK)
    if risks:
        detail["follow_up_bonus"] = CHALLENGE_STEP * risks if success else 0
        notes.append(f"calculated risk {'paid off' if success else 'failed'}: "
                     f"+{detail['follow_up_bonus']} on the follow-up check")
    if check.secondary is not None:
        detail["secondary"] = check.secondary.value
    detail.update(_shortened_time(check))
    return CheckResult(SYSTEM, total, difficulty, success, outcome_of(success), faces, total - difficulty,
                       detail=detail, notes=tuple(notes))


@dataclass(frozen=True)
class True20Attack:
    """An attack roll: ``d20 + bonus`` vs the target's Defense."""

    bonus: int
    defense: int


def resolve_attack(attack: True20Attack) -> Check:
    """Hit on total >= Defense; a natural 20 always hits and threatens a critical, a natural 1 always misses."""
    face = (yield from ask(_d20("attack roll"))).faces[0]
    total = face.value + attack.bonus
    notes: list[str] = []
    automatic: str | None = None
    if face.value == 20:
        automatic = "hit"
        notes.append("natural 20: automatic hit that threatens a critical")
    elif face.value == 1:
        automatic = "miss"
        notes.append("natural 1: automatic miss")
    hit = automatic == "hit" or (automatic is None and total >= attack.defense)
    detail: dict[str, object] = {"natural": face.value, "bonus": attack.bonus, "automatic": automatic,
                                 "critical_threat": face.value == 20}
    return CheckResult(SYSTEM, total, attack.defense, hit, outcome_of(hit), (face,), total - attack.defense,
                       detail=detail, notes=tuple(notes))


@dataclass(frozen=True)
class True20Save:
    """A saving throw: ``d20 + bonus`` (ability + save bonus + the rest) vs Difficulty.

    Give ``difficulty``, or for a Toughness save against damage give ``damage`` (the attack's
    damage bonus: Difficulty 15 + damage) and the result names the damage condition;
    ``lethal`` picks the lethal or non-lethal column.
    """

    bonus: int
    difficulty: int | None = None
    save: SaveKind | None = None
    damage: int | None = None
    lethal: bool = True


def resolve_save(params: True20Save) -> Check:
    """Resolve a saving throw; natural 20 and natural 1 are not automatic."""
    require((params.difficulty is None) != (params.damage is None),
            "give a saving throw either a Difficulty or (for Toughness) a damage bonus, not both")
    require(params.damage is None or params.save in (None, SaveKind.TOUGHNESS),
            "a damage bonus sets the Difficulty of a Toughness save only")
    kind = SaveKind.TOUGHNESS if params.damage is not None else params.save
    difficulty = params.difficulty if params.damage is None else TOUGHNESS_BASE + params.damage
    face = (yield from ask(_d20(f"{kind.value if kind else ''} saving throw".strip()))).faces[0]
    total = face.value + params.bonus
    margin = total - difficulty
    success = margin >= 0
    detail: dict[str, object] = {"natural": face.value, "bonus": params.bonus,
                                 "save": kind.value if kind else None,
                                 "ability": kind.ability if kind else None}
    notes: list[str] = []
    if params.damage is not None:
        degree = 0 if success else min(-margin // 5 + 1, len(DAMAGE_CONDITIONS))
        condition = "unharmed" if success else DAMAGE_CONDITIONS[degree - 1][1 if params.lethal else 0]
        detail.update(damage=params.damage, lethal=params.lethal, degree=degree, condition=condition)
        notes.append(f"Toughness against damage +{params.damage}: {condition}")
    return CheckResult(SYSTEM, total, difficulty, success, outcome_of(success), (face,), margin,
                       detail=detail, notes=tuple(notes))


@dataclass(frozen=True)
class True20Opposed:
    """An opposed check: both parties roll ``d20 + modifier``; the higher result wins."""

    modifier: int
    opponent_modifier: int


def resolve_opposed(params: True20Opposed) -> Check:
    """Higher total wins; a tie goes to the higher modifier; equal modifiers make both roll again."""
    faces: list[Face] = []
    rounds = 0
    while True:
        rounds += 1
        mine = (yield from ask(_d20("opposed check", "you"))).faces[0]
        theirs = (yield from ask(_d20("opposed check", "opponent"))).faces[0]
        faces += (mine, theirs)
        total, opposing = mine.value + params.modifier, theirs.value + params.opponent_modifier
        if total != opposing or params.modifier != params.opponent_modifier:
            break
        require(rounds <= MAX_REROLLS, f"{rounds} ties in a row: the dice source looks broken")
    notes = [f"re-rolled {rounds - 1} tie(s) with equal modifiers"] if rounds > 1 else []
    if total != opposing:
        won, decided_by = total > opposing, "total"
    else:
        won, decided_by = params.modifier > params.opponent_modifier, "modifier"
        notes.append("tie: the higher modifier wins")
    detail: dict[str, object] = {"opponent_total": opposing, "modifier": params.modifier,
                                 "opponent_modifier": params.opponent_modifier, "decided_by": decided_by,
                                 "rounds": rounds}
    return CheckResult(SYSTEM, total, opposing, won, outcome_of(won), tuple(faces), total - opposing,
                       detail=detail, notes=tuple(notes))


@dataclass(frozen=True)
class True20Comparison:
    """A comparison check: no luck involved, the higher score or modifier wins."""

    score: int
    opponent_score: int


def resolve_comparison(params: True20Comparison) -> Check:
    """No dice unless the scores are equal; then a coin decides (2 = the first party wins)."""
    faces: tuple[Face, ...] = ()
    coin: int | None = None
    if params.score != params.opponent_score:
        won = params.score > params.opponent_score
    else:
        faces = (yield from ask(DiceRequest(requested(2, role=Role.COIN), "coin flip to break the tie"))).faces
        coin = faces[0].value
        won = coin == 2
    notes = ("equal scores: a coin flip decided",) if coin is not None else ("no roll: the higher score wins",)
    return CheckResult(SYSTEM, params.score, params.opponent_score, won, outcome_of(won), faces,
                       params.score - params.opponent_score, detail={"coin": coin}, notes=notes)


@dataclass(frozen=True)
class True20Helper:
    """One helper in an aided check: the same check's modifier, and what they take (never 10)."""

    modifier: int
    take: int | None = None


def aid_bonus(helper_total: int) -> int:
    """The bonus a helper's check total grants the leader (0 when it misses Difficulty 10)."""
    if helper_total < AID_DIFFICULTY:
        return 0
    return AID_BONUS + (helper_total - AID_DIFFICULTY) // 10


@dataclass(frozen=True)
class True20Aid:
    """An aided check: each helper checks against Difficulty 10, then the leader checks with their bonuses."""

    leader: True20Check
    helpers: tuple[True20Helper, ...]


def _helper_check(helper: True20Helper) -> True20Check:
    return True20Check(helper.modifier, AID_DIFFICULTY, take=helper.take)


def resolve_aid(params: True20Aid) -> Check:
    """Helpers first (their bonuses add up), then the leader's check."""
    require(bool(params.helpers), "an aided check needs at least one helper")
    for helper in params.helpers:
        require(helper.take != 10, "a helper cannot take 10 on an aid check")
        _validate(_helper_check(helper))
    _validate(params.leader)
    faces: list[Face] = []
    helpers: list[dict[str, object]] = []
    for number, helper in enumerate(params.helpers, 1):
        helping = yield from resolve_check(_helper_check(helper), actor=f"helper {number}")
        faces += helping.faces
        helpers.append({"modifier": helper.modifier, "total": helping.total, "bonus": aid_bonus(helping.total)})
    bonus = sum(int(h["bonus"]) for h in helpers)
    leader = yield from resolve_check(replace(params.leader, aid_bonus=params.leader.aid_bonus + bonus),
                                      actor="leader")
    return replace(leader, faces=tuple(faces) + leader.faces, detail={**leader.detail, "helpers": helpers},
                   notes=(f"helpers grant +{bonus}",) + leader.notes)


@dataclass(frozen=True)
class True20Simultaneous:
    """Simultaneous tasks: the primary check carries a challenge, the secondary -10 or +10 Difficulty."""

    primary: True20Check
    secondary: True20Check
    challenge_form: ChallengeForm = ChallengeForm.DIFFICULTY
    secondary_form: ChallengeForm = ChallengeForm.PENALTY


def resolve_simultaneous(params: True20Simultaneous) -> Check:
    """The challenge check, then the secondary; the result is the primary's, the secondary in ``detail``."""
    challenge = Challenge(ChallengeKind.SIMULTANEOUS, params.challenge_form)
    first = replace(params.primary, challenges=params.primary.challenges + (challenge,))
    second = replace(params.secondary, secondary=params.secondary_form)
    _validate(second)  # refuse before the primary is thrown
    primary = yield from resolve_check(first, actor="primary task")
    secondary = yield from resolve_check(second, actor="secondary task")
    facts = {key: secondary.to_json()[key] for key in ("total", "difficulty", "margin", "success", "detail")}
    notes = primary.notes + tuple(f"secondary: {note}" for note in secondary.notes) + (
        f"secondary task {'succeeds' if secondary.success else 'fails'}; "
        "both take as long as the longer task",)
    return replace(primary, faces=primary.faces + secondary.faces, detail={**primary.detail, "secondary": facts},
                   notes=notes)
