"""The result every resolver returns, whatever the system."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from rules.dice import Face, Role


class Outcome(str, Enum):
    """The closed set of outcomes the command line reports."""

    SUCCESS = "success"
    FAILURE = "failure"
    CRITICAL_SUCCESS = "critical_success"
    CRITICAL_FAILURE = "critical_failure"

    @property
    def succeeded(self) -> bool:
        """True for both kinds of success."""
        return self in (Outcome.SUCCESS, Outcome.CRITICAL_SUCCESS)


@dataclass(frozen=True)
class CheckResult:
    """A resolved check.

    ``margin`` is ``total - difficulty`` (result points in OpenD6), always reported so that
    graded results can be read off. ``faces`` lists every face in the order thrown, across
    all stages of the check. ``complication`` is the OpenD6 complication flag and its
    gravity (``None`` when there is none). ``detail`` holds system-specific facts (the
    opponent's total, the degree, the multiplier used...) as plain JSON values; ``notes``
    are short human sentences explaining rulings the resolver made. ``secret`` marks a
    roll kept from the players' output (the 002 system's secret rolls).
    """

    system: str
    total: int
    difficulty: int | None
    success: bool
    outcome: Outcome
    faces: tuple[Face, ...]
    margin: int | None = None
    complication: str | None = None
    detail: dict[str, object] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    secret: bool = False

    def summary(self) -> str:
        """One human line: outcome, total against difficulty, margin and the faces."""
        word = self.outcome.value.replace("_", " ")
        against = f" vs {self.difficulty}" if self.difficulty is not None else ""
        margin = f" (margin {self.margin:+d})" if self.margin is not None else ""
        extra = f"; complication: {self.complication}" if self.complication else ""
        return f"{word.upper()}: total {self.total}{against}{margin}; dice {describe_faces(self.faces)}{extra}"

    def to_json(self) -> dict[str, object]:
        """The JSON object printed by ``dicetable ... --json``."""
        return {
            "system": self.system,
            "total": self.total,
            "difficulty": self.difficulty,
            "margin": self.margin,
            "success": self.success,
            "outcome": self.outcome.value,
            "complication": self.complication,
            "faces": [f.to_json() for f in self.faces],
            "detail": self.detail,
            "notes": list(self.notes),
            "secret": self.secret,
        }


def outcome_of(success: bool) -> Outcome:
    """Plain success or failure."""
    return Outcome.SUCCESS if success else Outcome.FAILURE


def describe_faces(faces: tuple[Face, ...]) -> str:
    """Faces as ``[wild 6, 6, 3] 4 2`` style text for human output."""
    def shown(face: Face) -> str:
        # percentile dice read as their printed digits, so "tens 0 units 7" reads 7
        value = face.digit if face.role in (Role.TENS, Role.UNITS) else face.value
        return f"{face.role.value} {value}" if face.role else str(value)

    return " ".join(map(shown, faces))


@dataclass(frozen=True)
class RollResult:
    """A roll with no difficulty: the total of a dice expression or die code and every face."""

    system: str
    expression: str
    total: int
    faces: tuple[Face, ...]
    terms: tuple[dict[str, object], ...] = ()
    notes: tuple[str, ...] = ()

    def summary(self) -> str:
        """One human line."""
        notes = "".join(f"; {n}" for n in self.notes)
        return f"{self.expression} = {self.total}; dice {describe_faces(self.faces)}{notes}"

    def to_json(self) -> dict[str, object]:
        """The same keys as a check, so scripts can read every command alike."""
        return {"system": self.system, "expression": self.expression, "total": self.total, "difficulty": None,
                "margin": None, "success": None, "outcome": None, "complication": None,
                "faces": [f.to_json() for f in self.faces], "terms": list(self.terms), "notes": list(self.notes)}
