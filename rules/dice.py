"""The dice vocabulary shared by every source and every resolver.

A resolver describes what it needs thrown as a :class:`DiceRequest` (a tuple of
:class:`DieSpec`); a source (virtual dice, scripted faces, camera, smart dice, the serial
board) answers with a :class:`Throw` of :class:`Face` objects in the same order.
Designated dice (the OpenD6 wild die, the tens die of d%) always come first in a request.

Face values are normalised here, once, so no resolver has to know where a face came from:
a d10 face is 1..10 (the face printed ``0``, or ``00`` on a percentile die, reads 10).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from enum import Enum

from rules.errors import ThrowMismatch

#: Dice a physical or virtual source can deliver. 2 stands for a coin (heads = 2); a
#: percentile roll is two d10, one of them the designated tens die.
STANDARD_SIDES: frozenset[int] = frozenset({2, 4, 6, 8, 10, 12, 20})


class Role(str, Enum):
    """What a designated die stands for in a request; plain dice have role ``None``."""

    WILD = "wild"  # the OpenD6 wild die (explodes on 6, critical failure on a first 1)
    BONUS_WILD = "bonus_wild"  # an OpenD6 Character Point wild die (explodes, its 1 is just 1)
    TENS = "tens"  # the tens die of a percentile roll
    UNITS = "units"  # the units die of a percentile roll
    DIFFICULTY = "difficulty"  # dice the GM throws to set a difficulty (d6 pool)
    COIN = "coin"  # a coin flip that breaks a tie (a d2: 2 = the first party wins)


@dataclass(frozen=True, slots=True)
class DieSpec:
    """One die a resolver asks for: its number of sides, its role and optionally its colour."""

    sides: int
    role: Role | None = None
    colour: str | None = None

    def __post_init__(self) -> None:
        if self.sides not in STANDARD_SIDES:
            raise ThrowMismatch(f"there is no d{self.sides}")


@dataclass(frozen=True, slots=True)
class DiceRequest:
    """A throw a resolver asks for.

    ``dice`` lists designated dice first; ``purpose`` says in a few words what the throw is
    for (shown to the player: "wild die again", "opponent", "GM difficulty dice").
    ``actor`` names who throws when a check involves several parties.
    """

    dice: tuple[DieSpec, ...]
    purpose: str = "check"
    actor: str | None = None

    def __post_init__(self) -> None:
        if not self.dice:
            raise ThrowMismatch("a request must ask for at least one die")

    @property
    def count(self) -> int:
        """Number of dice asked for."""
        return len(self.dice)

    def describe(self) -> str:
        """Short human text such as ``3d6 + wild d6 (red)``."""
        parts: list[str] = []
        plain: dict[int, int] = {}
        for spec in self.dice:
            if spec.role is None:
                plain[spec.sides] = plain.get(spec.sides, 0) + 1
            else:
                colour = f" ({spec.colour})" if spec.colour else ""
                parts.append(f"{spec.role.value} d{spec.sides}{colour}")
        parts.extend(f"{n}d{sides}" for sides, n in plain.items())
        return " + ".join(parts)


@lru_cache(maxsize=1024)
def requested(sides: int, count: int = 1, role: Role | None = None, colour: str | None = None) -> tuple[DieSpec, ...]:
    """``count`` identical die specs (memoised: resolvers ask for the same dice again and again)."""
    return tuple(DieSpec(sides, role, colour) for _ in range(count))


@dataclass(frozen=True, slots=True)
class Face:
    """One die as read: its normalised value and where it came from.

    ``die_id`` identifies a physical die (smart-die id, board die id) when the source knows
    it; ``colour`` is the colour the source saw or registered; ``confidence`` is the
    source's confidence in the reading (1.0 for virtual and scripted dice).
    """

    value: int
    sides: int
    role: Role | None = None
    colour: str | None = None
    die_id: str | None = None
    confidence: float = 1.0

    def __post_init__(self) -> None:
        if not 1 <= self.value <= self.sides:
            raise ThrowMismatch(f"a d{self.sides} cannot show {self.value}")

    @property
    def digit(self) -> int:
        """The digit a d10 shows (0..9), as percentile dice are read."""
        return self.value % 10

    def to_json(self) -> dict[str, object]:
        """The JSON form of the command line's ``faces`` list."""
        out: dict[str, object] = {"value": self.value, "sides": self.sides,
                                  "role": self.role.value if self.role else None}
        if self.sides == 10:
            out["shown"] = self.digit  # what the die shows: 0 for the face whose value is 10
        if self.colour is not None:
            out["colour"] = self.colour
        if self.die_id is not None:
            out["die_id"] = self.die_id
        return out


@dataclass(frozen=True, slots=True)
class Throw:
    """The answer to a :class:`DiceRequest`: one face per requested die, in request order."""

    faces: tuple[Face, ...]
    source: str = "virtual"
    evidence: dict[str, object] = field(default_factory=dict, compare=False)

    @property
    def values(self) -> tuple[int, ...]:
        """The face values in request order."""
        return tuple(f.value for f in self.faces)


def face_from_shown(shown: int, sides: int) -> int:
    """Normalise the number a die shows to its value: a d10 showing the digit 0 is 10.

    Raises :class:`ThrowMismatch` for a face the die cannot show.
    """
    if sides == 10:
        if 0 <= shown <= 9:
            return shown or 10
        raise ThrowMismatch(f"a d10 shows a digit 0-9, not {shown}")
    if 1 <= shown <= sides:
        return shown
    raise ThrowMismatch(f"a d{sides} cannot show {shown}")


def face_from_percentile_tens(printed: int) -> int:
    """Value of a percentile tens die printed ``00``..``90``: its digit, with 00 reading 10."""
    if printed % 10 or not 0 <= printed <= 90:
        raise ThrowMismatch(f"a percentile tens die shows 00-90, not {printed}")
    return printed // 10 or 10


def check_throw(request: DiceRequest, throw: Throw) -> Throw:
    """Verify that ``throw`` answers ``request`` and return it with roles filled in.

    The number of dice, each die's sides and, where the request names one, each designated
    die's colour must match; otherwise :class:`ThrowMismatch` says what is wrong. Sources
    that already ordered designated dice first get their faces' roles set from the request.
    """
    if len(throw.faces) != request.count:
        raise ThrowMismatch(
            f"{request.purpose}: expected {request.count} dice ({request.describe()}), got {len(throw.faces)}")
    changed = False
    faces: list[Face] = []
    for i, (spec, face) in enumerate(zip(request.dice, throw.faces)):
        if face.sides != spec.sides:
            raise ThrowMismatch(f"{request.purpose}: die {i + 1} should be a d{spec.sides}, got a d{face.sides}")
        if spec.role is not None and spec.colour and face.colour and face.colour != spec.colour:
            raise ThrowMismatch(
                f"{request.purpose}: the {spec.role.value} die should be {spec.colour}, got {face.colour}")
        if face.role != spec.role:
            face = Face(face.value, face.sides, spec.role, face.colour, face.die_id, face.confidence)
            changed = True
        faces.append(face)
    return Throw(tuple(faces), throw.source, throw.evidence) if changed else throw
