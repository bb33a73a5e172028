"""Virtual dice: a random generator, cryptographically random unless a seed is given."""

from __future__ import annotations

import os
import random
from array import array

from reader.sources.base import ComputedSource
from rules.dice import DiceRequest, DieSpec, Face, Throw

_SPAN = 1 << 16  # each die draws 16 random bits; values past the last whole multiple of sides are drawn again


def _unbiased(raw: int, sides: int) -> int | None:
    """Face 1..sides from 16 random bits, or None when ``raw`` falls in the biased tail."""
    return raw % sides + 1 if raw < _SPAN - _SPAN % sides else None


class VirtualDice(ComputedSource):
    """Rolls every die asked for; ``seed`` makes the sequence repeatable (for tests, demos).

    Unseeded dice read the operating system's cryptographic generator, one call per throw
    (not per die: the system call dominates the cost of a virtual check).
    """

    name = "virtual"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = None if seed is None else random.Random(seed)
        self._faces: dict[tuple[int, DieSpec], Face] = {}  # faces are values: build each one once

    def _value(self, sides: int) -> int:
        if self._rng is not None:
            return self._rng.randrange(sides) + 1
        while (value := _unbiased(int.from_bytes(os.urandom(2), "little"), sides)) is None:
            pass
        return value

    def throw_now(self, request: DiceRequest) -> Throw:
        dice = request.dice
        if self._rng is not None:
            values = [self._value(spec.sides) for spec in dice]
        else:
            raw = array("H", os.urandom(2 * len(dice)))
            values = [_unbiased(r, spec.sides) or self._value(spec.sides) for r, spec in zip(raw, dice)]
        faces = self._faces
        return Throw(tuple(faces.get(key) or self._new_face(*key) for key in zip(values, dice)), self.name)

    def _new_face(self, value: int, spec: DieSpec) -> Face:
        face = self._faces[value, spec] = Face(value, spec.sides, spec.role, spec.colour)
        return face
