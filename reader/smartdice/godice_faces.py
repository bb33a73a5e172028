"""GoDice faces from the accelerometer vector of a Stable event.

The die does not know which shell it wears; the host is told (the registry's die type).
Every official library takes the reference vector nearest (Euclidean) to the reported
vector, ties going to the lowest key, then maps the key through the shell's transform.
The tables below are the official ones (identical in the Python, JS, C and Unity SDKs),
including key 2 of the d20 table, whose z is 40 rather than 42.
"""

from __future__ import annotations

from enum import Enum

from rules.dice import face_from_percentile_tens, face_from_shown

Vector = tuple[int, int, int]


class Shell(str, Enum):
    """The shell a GoDice wears; the value is the registry's die type name."""

    D6 = "d6"
    D20 = "d20"
    D10 = "d10"
    D10X = "d00"  # the percentile tens shell (00..90)
    D4 = "d4"
    D8 = "d8"
    D12 = "d12"


D6_VECTORS: tuple[Vector, ...] = ((-64, 0, 0), (0, 0, 64), (0, 64, 0), (0, -64, 0), (0, 0, -64), (64, 0, 0))

D20_VECTORS: tuple[Vector, ...] = (
    (-64, 0, -22), (42, -42, 40), (0, 22, -64), (0, 22, 64), (-42, -42, 42),
    (22, 64, 0), (-42, -42, -42), (64, 0, -22), (-22, 64, 0), (42, -42, -42),
    (-42, 42, 42), (22, -64, 0), (-64, 0, 22), (42, 42, 42), (-22, -64, 0),
    (42, 42, -42), (0, -22, -64), (0, -22, 64), (-42, 42, -42), (64, 0, 22),
)

D24_VECTORS: tuple[Vector, ...] = (
    (20, -60, -20), (20, 0, 60), (-40, -40, 40), (-60, 0, 20), (40, 20, 40), (-20, -60, -20),
    (20, 60, 20), (-40, 20, -40), (-40, 40, 40), (-20, 0, 60), (-20, -60, 20), (60, 0, 20),
    (-60, 0, -20), (20, 60, -20), (20, 0, -60), (40, -20, -40), (-20, 60, -20), (-40, -40, -40),
    (40, -20, 40), (20, -60, 20), (60, 0, -20), (40, 20, -40), (-20, 0, -60), (-20, 60, 20),
)

#: Shown face per table key (key 1 first). d10 shows digits 0-9, the d00 shell 00-90.
_D10 = (8, 2, 6, 1, 4, 3, 9, 0, 7, 5, 5, 7, 0, 9, 3, 4, 1, 6, 2, 8)
_TRANSFORMS: dict[Shell, tuple[tuple[Vector, ...], tuple[int, ...]]] = {
    Shell.D6: (D6_VECTORS, tuple(range(1, 7))),
    Shell.D20: (D20_VECTORS, tuple(range(1, 21))),
    Shell.D10: (D20_VECTORS, _D10),
    Shell.D10X: (D20_VECTORS, tuple(10 * d for d in _D10)),
    Shell.D4: (D24_VECTORS, (3, 1, 4, 1, 4, 4, 1, 4, 2, 3, 1, 1, 1, 4, 2, 3, 3, 2, 2, 2, 4, 1, 3, 2)),
    Shell.D8: (D24_VECTORS, (3, 3, 6, 1, 2, 8, 1, 1, 4, 7, 5, 5, 4, 4, 2, 5, 7, 7, 8, 2, 8, 3, 6, 6)),
    Shell.D12: (D24_VECTORS, (*range(1, 13), *range(1, 13))),
}

#: Sides of the dicetable die each shell answers for.
SIDES: dict[Shell, int] = {Shell.D6: 6, Shell.D20: 20, Shell.D10: 10, Shell.D10X: 10, Shell.D4: 4, Shell.D8: 8,
                           Shell.D12: 12}


def nearest_key(table: tuple[Vector, ...], xyz: Vector) -> int:
    """1-based key of the reference vector nearest to ``xyz`` (the first one on a tie)."""
    x, y, z = xyz
    best, best_key = None, 0
    for key, (a, b, c) in enumerate(table, start=1):
        distance = (x - a) ** 2 + (y - b) ** 2 + (z - c) ** 2
        if best is None or distance < best:
            best, best_key = distance, key
    return best_key


def shown_face(shell: Shell, xyz: Vector) -> int:
    """The number printed on the top face (d10: 0-9, d00 shell: 0-90)."""
    table, transform = _TRANSFORMS[shell]
    return transform[nearest_key(table, xyz) - 1]


def face_value(shell: Shell, xyz: Vector) -> tuple[int, int]:
    """``(value, sides)`` for dicetable's :class:`~rules.dice.Face` (a d10 0 and a d00 00 read 10)."""
    shown = shown_face(shell, xyz)
    sides = SIDES[shell]
    if shell is Shell.D10X:
        return face_from_percentile_tens(shown), sides
    return face_from_shown(shown, sides), sides


def reference_vector(shell: Shell, shown: int) -> Vector:
    """The first reference vector that reads ``shown`` (the inverse of :func:`shown_face`)."""
    table, transform = _TRANSFORMS[shell]
    return table[transform.index(shown)]


def printed_faces(shell: Shell) -> tuple[int, ...]:
    """Every number the shell can show, in order (d10: 0-9, d00: 0-90)."""
    return tuple(sorted(set(_TRANSFORMS[shell][1])))
