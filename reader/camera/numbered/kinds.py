"""The numbered dice the camera learns: what each can show and what a shown number is worth."""

from __future__ import annotations

from calibration.faces import SHOWN
from rules.dice import face_from_percentile_tens, face_from_shown
from rules.errors import ThrowMismatch

#: Die kind -> the ``sides`` of the faces it delivers (a d00 answers a request for a d10).
SIDES: dict[str, int] = {"d4": 4, "d8": 8, "d10": 10, "d00": 10, "d12": 12, "d20": 20}


def check_kind(kind: str) -> str:
    """``kind`` in lower case, or :class:`ThrowMismatch` naming the kinds the camera learns."""
    kind = kind.lower()
    if kind == "d100":
        kind = "d00"
    if kind not in SHOWN:
        raise ThrowMismatch(f"no numbered die {kind!r}; use one of {', '.join(SHOWN)}")
    return kind


def value_of(kind: str, shown: int) -> int:
    """The normalised face value of ``shown`` on a ``kind`` die (d10 0 -> 10, d00 30 -> 3, 00 -> 10)."""
    if kind == "d00":
        return face_from_percentile_tens(shown)
    return face_from_shown(shown, SIDES[kind])


def label(kind: str, shown: int) -> str:
    """How the number is printed: ``00``..``90`` on a d00, the plain number otherwise."""
    return f"{shown:02d}" if kind == "d00" else str(shown)
