"""Virtual dice: a random generator, cryptographically random unless a seed is given."""

from __future__ import annotations

import random
import secrets

from reader.sources.base import ComputedSource
from rules.dice import DiceRequest, Face, Throw


class VirtualDice(ComputedSource):
    """Rolls every die asked for; ``seed`` makes the sequence repeatable (for tests, demos)."""

    name = "virtual"

    def __init__(self, seed: int | None = None) -> None:
        self._rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)

    def throw_now(self, request: DiceRequest) -> Throw:
        rand = self._rng.randrange
        return Throw(tuple(Face(rand(spec.sides) + 1, spec.sides, spec.role, spec.colour) for spec in request.dice),
                     self.name)
