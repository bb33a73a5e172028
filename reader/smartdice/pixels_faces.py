"""Pixels die types and the face a Pixels face index stands for.

The wire carries a 0-based face index. What it means depends on the die type:
d4..d20 and the pipped d6 show ``index + 1``; a d10 shows the digit ``index`` and a d00
(percentile tens die) shows ``index * 10``. dicetable's :class:`rules.dice.Face` wants a
value in ``1..sides``, so a d10 digit 0 and a d00 ``00`` both read 10, as everywhere else.

Fudge dice: the Pixels documentation says indices 0 and 5 show "+", 1 and 4 show "-",
2 and 3 are blank, while the library's ``faceFromIndex`` returns ``index + 1`` as for a d6.
We follow the faces printed on the die (the documented symbols) and deliver a fudge die as a
**d3**: 1 is "-", 2 is blank, 3 is "+" (fudge value = face value - 2). A fudge die therefore
answers only a request for a d3; it never poses as a d6.

Firmware built up to 2024-01-01 (the JS library's ``FW_2023_11_17`` cut-off) had wrong face
normals on d4 and d6; their indices are remapped as the official library does.
"""

from __future__ import annotations

from enum import IntEnum

from reader.smartdice.errors import PixelsPacketError


class PixelsDieType(IntEnum):
    """The die type byte of IAmADie and of the advertisement's high nibble."""

    UNKNOWN = 0
    D4 = 1
    D6 = 2
    D8 = 3
    D10 = 4
    D00 = 5
    D12 = 6
    D20 = 7
    D6_PIPPED = 8
    D6_FUDGE = 9
    M20 = 10  # firmware only; a 20-face die


#: Number of faces per die type (UNKNOWN has none we can trust).
FACE_COUNT: dict[PixelsDieType, int] = {
    PixelsDieType.D4: 4, PixelsDieType.D6: 6, PixelsDieType.D8: 8, PixelsDieType.D10: 10,
    PixelsDieType.D00: 10, PixelsDieType.D12: 12, PixelsDieType.D20: 20, PixelsDieType.D6_PIPPED: 6,
    PixelsDieType.D6_FUDGE: 6, PixelsDieType.M20: 20,
}

#: Sides of the dicetable die a Pixels die answers for (see the fudge convention above).
DICETABLE_SIDES: dict[PixelsDieType, int] = {**FACE_COUNT, PixelsDieType.D6_FUDGE: 3}

#: Registry names of the die types (``dicetable dice add --type``).
TYPE_NAMES: dict[PixelsDieType, str] = {
    PixelsDieType.D4: "d4", PixelsDieType.D6: "d6", PixelsDieType.D8: "d8", PixelsDieType.D10: "d10",
    PixelsDieType.D00: "d00", PixelsDieType.D12: "d12", PixelsDieType.D20: "d20",
    PixelsDieType.D6_PIPPED: "d6pipped", PixelsDieType.D6_FUDGE: "fudge", PixelsDieType.M20: "m20",
}

#: Firmware up to this build time (UNIX seconds) had bad d4/d6 normals.
BAD_NORMALS_UNTIL = 1_704_150_000
_OLD_D4 = {3: 2, 2: 3, 5: 4}  # anything else reads 1
_OLD_D6 = {4: 2, 3: 3, 2: 4, 1: 5}  # anything else reads index + 1
#: Fudge symbol per index: +1, -1, 0, 0, -1, +1.
_FUDGE = (1, -1, 0, 0, -1, 1)


def die_type_of(value: int) -> PixelsDieType:
    """The die type for a wire byte; unknown future types raise :class:`PixelsPacketError`."""
    try:
        return PixelsDieType(value)
    except ValueError:
        raise PixelsPacketError(f"unknown Pixels die type {value}") from None


def shown_face(die_type: PixelsDieType, index: int, firmware_time: int | None = None) -> int:
    """The number printed on the face with ``index`` (d10: 0..9, d00: 0..90, fudge: -1/0/+1)."""
    faces = FACE_COUNT.get(die_type)
    if faces is None:
        raise PixelsPacketError("the die type is unknown, so its face cannot be read")
    old = firmware_time is not None and firmware_time <= BAD_NORMALS_UNTIL
    if old and die_type is PixelsDieType.D4:
        faces = 6  # the old d4 layout reported one of six axis-aligned normals
    if not 0 <= index < faces:
        raise PixelsPacketError(f"face index {index} is out of range for a {TYPE_NAMES[die_type]}")
    if die_type is PixelsDieType.D10:
        return index
    if die_type is PixelsDieType.D00:
        return index * 10
    if die_type is PixelsDieType.D6_FUDGE:
        return _FUDGE[index]
    if old and die_type is PixelsDieType.D4:
        return _OLD_D4.get(index, 1)
    if old and die_type is PixelsDieType.D6:
        return _OLD_D6.get(index, index + 1)
    return index + 1


def face_value(die_type: PixelsDieType, index: int, firmware_time: int | None = None) -> tuple[int, int]:
    """``(value, sides)`` of the dicetable :class:`~rules.dice.Face` for a face index."""
    shown = shown_face(die_type, index, firmware_time)
    sides = DICETABLE_SIDES[die_type]
    if die_type is PixelsDieType.D10:
        return shown or 10, sides
    if die_type is PixelsDieType.D00:
        return shown // 10 or 10, sides
    if die_type is PixelsDieType.D6_FUDGE:
        return shown + 2, sides
    return shown, sides


#: Die type guessed from the LED count, for firmware that does not report its type.
#: Six LEDs can be a d4, a d6 or a fudge die, so that guess is only a default to confirm.
_BY_LED_COUNT = {4: PixelsDieType.D4, 6: PixelsDieType.D6, 8: PixelsDieType.D8, 10: PixelsDieType.D10,
                 12: PixelsDieType.D12, 20: PixelsDieType.D20, 21: PixelsDieType.D6_PIPPED}


def estimate_die_type(led_count: int) -> PixelsDieType:
    """The die type an LED count suggests (UNKNOWN when it suggests none)."""
    return _BY_LED_COUNT.get(led_count, PixelsDieType.UNKNOWN)
