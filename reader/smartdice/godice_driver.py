"""GoDice: from decoded events to die events, plus the commands a connection sends.

After connecting we send the initialisation command, which makes the die report its
battery and its current top face (as a stable event, inferred from the reply users
observed) and a charging event; that first stable is a snapshot, not a roll.
"""

from __future__ import annotations

from reader.smartdice import godice_messages as msg
from reader.smartdice.die_events import Crooked, DieEvent, Rest, Rolling, Status
from reader.smartdice.gatt_ids import GODICE_NOTIFY, GODICE_SERVICE, GODICE_WRITE
from reader.smartdice.godice_faces import Shell, face_value

GATT_LAYOUTS = ((GODICE_SERVICE, GODICE_NOTIFY, GODICE_WRITE),)


class GoDiceDriver:
    """Per-die interpreter: knows the shell the die wears (the die cannot know it)."""

    family = "godice"
    gatt_layouts = GATT_LAYOUTS

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        self._snapshot_due = False

    def hello(self) -> list[bytes]:
        """Ask for the colour, then initialise (battery, current face, charging)."""
        self._snapshot_due = True
        return [msg.request_colour(), msg.initialise()]

    def outcome(self, success: bool) -> bytes:
        """Blink both LEDs green (success) or red (failure) three times."""
        return msg.blink_leds((0, 255, 0) if success else (255, 0, 0), count=3, on_10ms=40, off_10ms=30)

    def events(self, data: bytes) -> list[DieEvent]:
        """Events in one notification; corrupt data raises :class:`GoDicePacketError`."""
        event = msg.decode_event(data)
        if isinstance(event, msg.RollStart):
            self._snapshot_due = False
            return [Rolling()]
        if isinstance(event, msg.Stable):
            snapshot, self._snapshot_due = self._snapshot_due, False
            if event.kind is msg.StableKind.TILT:
                return [Crooked()]
            value, sides = face_value(self.shell, event.xyz)
            return [Rest(value, sides, rolled=event.kind is msg.StableKind.STABLE, snapshot=snapshot)]
        if isinstance(event, msg.Battery):
            return [Status(battery=event.percent)]
        if isinstance(event, msg.Charging):
            return [Status(charging=event.charging)]
        if isinstance(event, msg.Colour):
            return [Status(colour=event.colour.word)]
        return []
