"""What a smart die did, whatever its family: the vocabulary between drivers and throws.

Drivers (:mod:`~reader.smartdice.pixels_driver`, :mod:`~reader.smartdice.godice_driver`)
turn decoded protocol messages into these events; :mod:`~reader.smartdice.throws` turns
events into throws.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rolling:
    """The die is rolling (may repeat during one roll)."""


@dataclass(frozen=True, slots=True)
class Handled:
    """The die is being picked up or moved, not rolled."""


@dataclass(frozen=True, slots=True)
class Rest:
    """The die lies still on a face.

    ``rolled`` is True when the die says it came to rest after a proper roll, False when it
    says it did not (picked up and put down, a "fake" or a small move), None when it cannot
    tell (older Pixels firmware). ``snapshot`` marks the state a die reports when asked
    (after connecting), which is not news of a roll that just ended.
    """

    value: int
    sides: int
    rolled: bool | None
    snapshot: bool = False


@dataclass(frozen=True, slots=True)
class Crooked:
    """The die stopped after a roll but not flat on a face (tilted, cocked)."""


@dataclass(frozen=True, slots=True)
class Status:
    """Battery, charging or colour news; ``None`` fields are unchanged."""

    battery: int | None = None
    charging: bool | None = None
    colour: str | None = None


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the player should read (a die reporting another type than registered...)."""

    text: str


DieEvent = Rolling | Handled | Rest | Crooked | Status | Notice
