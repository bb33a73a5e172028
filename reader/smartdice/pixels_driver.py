"""Pixels: from decoded messages to die events, plus the commands a connection sends."""

from __future__ import annotations

from reader.smartdice import pixels_messages as msg
from reader.smartdice.die_events import Crooked, DieEvent, Handled, Notice, Rest, Rolling, Status
from reader.smartdice.gatt_ids import (PIXELS_LEGACY_NOTIFY, PIXELS_LEGACY_SERVICE, PIXELS_LEGACY_WRITE,
                                       PIXELS_NOTIFY, PIXELS_SERVICE, PIXELS_WRITE)
from reader.smartdice.pixels_faces import TYPE_NAMES, PixelsDieType, face_value

#: (service, notify characteristic, write characteristic), current firmware first.
GATT_LAYOUTS = ((PIXELS_SERVICE, PIXELS_NOTIFY, PIXELS_WRITE),
                (PIXELS_LEGACY_SERVICE, PIXELS_LEGACY_NOTIFY, PIXELS_LEGACY_WRITE))

GREEN = 0x00FF00
RED = 0xFF0000


class PixelsDriver:
    """Per-die interpreter: remembers the die type, firmware date and LED count the die reported.

    ``die_type`` is the registered type, used until the die reports its own; a die that
    reports another type than registered is believed (its faces follow its own layout) and
    a :class:`Notice` says so.
    """

    family = "pixels"
    gatt_layouts = GATT_LAYOUTS

    def __init__(self, die_type: PixelsDieType) -> None:
        self.die_type = die_type
        self.registered_type = die_type
        self.firmware_time: int | None = None
        self.led_count: int | None = None

    def hello(self) -> list[bytes]:
        """Commands sent after subscribing: WhoAreYou (its answer carries the current state)."""
        return [msg.who_are_you()]

    def outcome(self, success: bool) -> bytes:
        """Blink the whole die green (success) or red (failure) three times."""
        return msg.blink(GREEN if success else RED, count=3, duration_ms=1500, fade=128)

    def events(self, data: bytes) -> list[DieEvent]:
        """Events in one notification; corrupt data raises :class:`PixelsPacketError`."""
        message = msg.decode_message(data)
        if isinstance(message, msg.RollState):
            return self._roll(message.state, message.face_index, snapshot=False)
        if isinstance(message, msg.BatteryLevel):
            return [Status(battery=message.percent, charging=message.state.charging)]
        if isinstance(message, msg.IAmADie):
            return self._identity(message)
        return []

    def _identity(self, info: msg.IAmADie) -> list[DieEvent]:
        self.firmware_time, self.led_count = info.firmware_time, info.led_count
        out: list[DieEvent] = []
        if info.die_type is not PixelsDieType.UNKNOWN and info.die_type is not self.die_type:
            out.append(Notice(f"the die says it is a {TYPE_NAMES[info.die_type]}, "
                              f"registered as a {TYPE_NAMES.get(self.registered_type, 'die of unknown type')}"))
            self.die_type = info.die_type
        if info.battery_percent is not None:
            charging = info.battery_state.charging if info.battery_state is not None else None
            out.append(Status(battery=info.battery_percent, charging=charging))
        if info.roll_state is not None and info.face_index is not None:
            out.extend(self._roll(info.roll_state, info.face_index, snapshot=True))
        return out

    def _roll(self, state: int, index: int, snapshot: bool) -> list[DieEvent]:
        motion = msg.motion_of(state, self.firmware_time, self.led_count)
        if motion is msg.Motion.ROLLING:
            return [Rolling()]
        if motion is msg.Motion.HANDLING:
            return [Handled()]
        if motion is msg.Motion.CROOKED:
            return [Crooked()]
        if motion is msg.Motion.UNKNOWN:
            return []
        rolled = {msg.Motion.ROLLED: True, msg.Motion.ON_FACE: False}.get(motion)
        value, sides = face_value(self.die_type, index, self.firmware_time)
        return [Rest(value, sides, rolled, snapshot)]
