"""Scripted faces: a fixed list consumed in the order the resolver asks for dice."""

from __future__ import annotations

from collections.abc import Iterable

from reader.sources.base import ComputedSource
from rules.dice import DiceRequest, Face, Throw, face_from_shown
from rules.errors import ThrowMismatch


def parse_faces(text: str) -> list[int]:
    """Parse ``"6,3,5"`` into integers; anything else is a :class:`ThrowMismatch`."""
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part != ""]
    except ValueError:
        raise ThrowMismatch(f"--faces takes whole numbers separated by commas, not {text!r}") from None


class ScriptedDice(ComputedSource):
    """Answers requests from a list of shown faces (designated dice first within each throw).

    A d10 face is the digit it shows (0-9, 0 reading 10). Running out of faces, a face the
    die cannot show, or faces left over at the end (see :meth:`finish`) raise
    :class:`ThrowMismatch`: a scripted check never guesses.
    """

    name = "scripted"

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._used = 0

    def throw_now(self, request: DiceRequest) -> Throw:
        need = request.count
        left = len(self._faces) - self._used
        if left < need:
            raise ThrowMismatch(
                f"too few faces: {request.purpose} needs {need} more ({request.describe()}) "
                f"after the {self._used} given so far, only {left} left")
        shown = self._faces[self._used:self._used + need]
        faces = []
        for i, (spec, value) in enumerate(zip(request.dice, shown)):
            try:
                faces.append(Face(face_from_shown(value, spec.sides), spec.sides, spec.role, spec.colour))
            except ThrowMismatch as err:
                raise ThrowMismatch(f"face {self._used + i + 1} ({value}): {err}") from None
        self._used += need
        return Throw(tuple(faces), self.name)

    def finish(self) -> None:
        extra = len(self._faces) - self._used
        if extra:
            raise ThrowMismatch(f"too many faces: the check used {self._used}, {extra} left over")
