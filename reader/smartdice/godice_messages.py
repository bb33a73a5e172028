"""GoDice events (die -> host) and commands (host -> die) on the Nordic UART service.

Events start with an ASCII tag and carry raw bytes after it; tags sharing a first letter
(``TS``/``Tap``, ``Char``/``Col``) are matched as whole prefixes. Accelerometer axes are
signed bytes. :func:`decode_event` is pure and raises only
:class:`~reader.smartdice.errors.GoDicePacketError`. Commands are pure functions returning
the bytes to write.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from enum import Enum, IntEnum

from reader.smartdice.errors import GoDicePacketError


class GoDiceColour(IntEnum):
    """The dot colour a die reports (``Col`` event), as the wire numbers it."""

    BLACK = 0
    RED = 1
    GREEN = 2
    BLUE = 3
    YELLOW = 4
    ORANGE = 5

    @property
    def word(self) -> str:
        """The colour as the command line spells it (``--wild red``)."""
        return self.name.lower()


#: Colour letters of the advertised name ``GoDice_<id>_<letter>_<firmware>``.
NAME_LETTERS = {"K": GoDiceColour.BLACK, "R": GoDiceColour.RED, "G": GoDiceColour.GREEN,
                "B": GoDiceColour.BLUE, "Y": GoDiceColour.YELLOW, "O": GoDiceColour.ORANGE}


class StableKind(Enum):
    """The four ways a GoDice reports having stopped."""

    STABLE = "stable"  # after a legit roll
    TILT = "tilt"  # after a legit roll, but not flat on a face
    FAKE = "fake"  # after a "fake" roll (dropped or put down, not thrown)
    MOVE = "move"  # after a small movement from one face to another


@dataclass(frozen=True, slots=True)
class RollStart:
    """The die started rolling."""


@dataclass(frozen=True, slots=True)
class Stable:
    """The die stopped; ``xyz`` is its accelerometer vector (signed, about 64 = 1 g)."""

    kind: StableKind
    xyz: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Battery:
    """Battery level in percent."""

    percent: int


@dataclass(frozen=True, slots=True)
class Colour:
    """The die's dot colour."""

    colour: GoDiceColour


@dataclass(frozen=True, slots=True)
class Charging:
    """Charging started (True) or stopped (False)."""

    charging: bool


@dataclass(frozen=True, slots=True)
class Tap:
    """A single (``double`` False) or double tap, once tap events are enabled."""

    double: bool


GoDiceEvent = RollStart | Stable | Battery | Colour | Charging | Tap

_STABLE_TAGS = ((b"TS", StableKind.TILT), (b"FS", StableKind.FAKE), (b"MS", StableKind.MOVE), (b"S", StableKind.STABLE))


def _need(data: bytes, size: int, what: str) -> None:
    if len(data) < size:
        raise GoDicePacketError(f"GoDice {what} event is {len(data)} bytes, needs {size}")


def decode_event(data: bytes) -> GoDiceEvent:
    """Decode one notification from a GoDice."""
    data = bytes(data)
    if not data:
        raise GoDicePacketError("empty GoDice event")
    if data.startswith(b"Bat"):
        _need(data, 4, "battery")
        if data[3] > 100:
            raise GoDicePacketError(f"battery level {data[3]}% is impossible")
        return Battery(data[3])
    if data.startswith(b"Col"):
        _need(data, 4, "colour")
        try:
            return Colour(GoDiceColour(data[3]))
        except ValueError:
            raise GoDicePacketError(f"unknown GoDice colour {data[3]}") from None
    if data.startswith(b"Char"):
        _need(data, 5, "charging")
        if data[4] > 1:
            raise GoDicePacketError(f"charging flag {data[4]} is neither 0 nor 1")
        return Charging(bool(data[4]))
    if data.startswith(b"DTap"):
        return Tap(double=True)
    if data.startswith(b"Tap"):
        return Tap(double=False)
    for tag, kind in _STABLE_TAGS:
        if data.startswith(tag):
            _need(data, len(tag) + 3, f"{kind.value}-stable")
            return Stable(kind, struct.unpack_from(">bbb", data, len(tag)))
    if data[0] == ord("R"):
        return RollStart()
    raise GoDicePacketError(f"unknown GoDice event {data[:4].hex()}")


@dataclass(frozen=True, slots=True)
class GoDiceName:
    """What the advertised name ``GoDice_8A8272_K_v04`` tells: id, colour, firmware."""

    die_id: str | None
    colour: GoDiceColour | None
    firmware: str | None


_NAME = re.compile(r"GoDice(?:_([0-9A-Fa-f]+))?(?:_([A-Za-z]))?(?:_(\w+))?")


def parse_name(name: str) -> GoDiceName | None:
    """Parse an advertised name; ``None`` when it is not a GoDice name (older firmware omits parts)."""
    match = _NAME.fullmatch(name.strip())
    if match is None:
        return None
    die_id, letter, firmware = match.groups()
    return GoDiceName(die_id.upper() if die_id else None,
                      NAME_LETTERS.get(letter.upper()) if letter else None, firmware)


# Commands: pure functions, bytes out.

Rgb = tuple[int, int, int]
OFF: Rgb = (0, 0, 0)
BLINK_FOREVER = 255


def _byte(value: int, what: str) -> int:
    if not 0 <= value <= 255:
        raise GoDicePacketError(f"{what} must be 0..255, not {value}")
    return value


def request_battery() -> bytes:
    """Ask for a ``Bat`` event."""
    return b"\x03"


def request_colour() -> bytes:
    """Ask for a ``Col`` event."""
    return b"\x17"


def set_sensitivity(sensitivity: int = 30) -> bytes:
    """Roll-detection sensitivity (the official apps use 30 for every shell)."""
    return bytes([0x06, _byte(sensitivity, "sensitivity")])


def set_leds(led1: Rgb = OFF, led2: Rgb = OFF) -> bytes:
    """Both LEDs on in constant colours; both ``OFF`` turns them off."""
    return bytes([0x08, *(_byte(c, "colour") for c in (*led1, *led2))])


def blink_leds(colour: Rgb, count: int = 1, on_10ms: int = 50, off_10ms: int = 50,
               parallel: bool = True, leds: int = 0) -> bytes:
    """Blink ``count`` times (255 = forever); ``leds`` 0 both, 1 the first, 2 the second."""
    values = (count, on_10ms, off_10ms, *colour, int(parallel), leds)
    return bytes([0x10, *(_byte(v, "blink setting") for v in values)])


def leds_off() -> bytes:
    """Stop blinking and turn the LEDs off."""
    return b"\x14"


def initialise(sensitivity: int = 30, blink: bytes | None = None) -> bytes:
    """The initialisation command: sensitivity plus a blink pattern (the 8 bytes after 0x10).

    The die answers with its battery level, its current top face and a charging event.
    """
    pattern = (blink if blink is not None else blink_leds((0, 0, 0), count=0))[1:]
    if len(pattern) != 8:
        raise GoDicePacketError("the blink pattern of the initialisation command must be 8 bytes")
    return bytes([0x19, _byte(sensitivity, "sensitivity"), *pattern])


def enable_taps(single: bool, double: bool) -> tuple[bytes, bytes]:
    """Commands that enable or disable single-tap and double-tap events."""
    return bytes([0x31, int(single)]), bytes([0x32, int(double)])


def detection_settings(samples: int = 4, movement_count: int = 2, face_count: int = 1, min_flat_deg: int = 10,
                       max_flat_deg: int = 54, weak_stable: int = 20, movement_deg: int = 50,
                       roll_threshold: int = 30) -> bytes:
    """Roll-detection settings (the defaults are the official ones)."""
    values = (samples, movement_count, face_count, min_flat_deg, max_flat_deg, weak_stable, movement_deg,
              roll_threshold)
    return bytes([0x65, *(_byte(v, "detection setting") for v in values)])
