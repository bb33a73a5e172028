"""A simulated GoDice, speaking the real protocol; it reports accelerometer vectors."""

from __future__ import annotations

import asyncio
import struct

from reader.smartdice import gatt_ids as ids
from reader.smartdice.godice_faces import Shell, Vector, reference_vector, shown_face
from reader.smartdice.godice_messages import NAME_LETTERS, GoDiceColour
from reader.smartdice.sim.peripheral import Gatt, SimPeripheral


def _stable(tag: bytes, xyz: Vector) -> bytes:
    return tag + struct.pack(">bbb", *xyz)


class SimGoDice(SimPeripheral):
    """A GoDice wearing ``shell`` (which the die itself does not know)."""

    def __init__(self, die_id: str, colour: GoDiceColour = GoDiceColour.RED, shell: Shell = Shell.D6, *,
                 battery: int = 90, address: str | None = None) -> None:
        letter = next(k for k, v in NAME_LETTERS.items() if v is colour)
        super().__init__(address or f"D0:00:00:{die_id[-6:-4]}:{die_id[-4:-2]}:{die_id[-2:]}",
                         f"GoDice_{die_id}_{letter}_v04")
        self.colour = colour
        self.shell = shell
        self.battery = battery
        self.xyz: Vector = reference_vector(shell, 1)
        self.leds: list[bytes] = []  # LED commands received
        self.notify_uuid = ids.GODICE_NOTIFY

    def service_uuids(self) -> list[str]:
        return [ids.GODICE_SERVICE]

    def gatt(self) -> Gatt:
        return ((ids.GODICE_SERVICE, ((ids.GODICE_WRITE, ("write", "write-without-response")),
                                      (ids.GODICE_NOTIFY, ("notify",)))),)

    def on_write(self, char_uuid: str, data: bytes) -> None:
        kind = data[0]
        if kind == 0x03:
            self.notify(b"Bat" + bytes([self.battery]))
        elif kind == 0x17:
            self.notify(b"Col" + bytes([self.colour]))
        elif kind == 0x19:  # initialise: battery, current top face, charging
            self.notify(b"Bat" + bytes([self.battery]))
            self.notify(_stable(b"S", self.xyz))
            self.notify(b"Char\x00")
        elif kind in (0x08, 0x10, 0x14):
            self.leds.append(data)

    # what a player does

    async def roll(self, shown: int, pause: float = 0.0) -> None:
        """A legit roll landing on ``shown``."""
        self.start_rolling()
        await asyncio.sleep(pause)
        self.land(shown)
        await asyncio.sleep(pause)

    def start_rolling(self) -> None:
        self.notify(b"R")

    def land(self, shown: int, tag: bytes = b"S") -> None:
        """Stop on ``shown``; ``tag`` S (stable), FS (fake), MS (moved), TS (tilted)."""
        self.xyz = reference_vector(self.shell, shown)
        self.notify(_stable(tag, self.xyz))

    async def fake_roll(self, shown: int | None = None, pause: float = 0.0) -> None:
        """Dropped or put down, not thrown: a fake-stable (on ``shown``, default the same face)."""
        self.land(self.shown if shown is None else shown, b"FS")
        await asyncio.sleep(pause)

    async def roll_tilted(self, pause: float = 0.0) -> None:
        """A roll ending leaning against something."""
        self.start_rolling()
        await asyncio.sleep(pause)
        self.notify(_stable(b"TS", (40, 40, 0)))
        await asyncio.sleep(pause)

    @property
    def shown(self) -> int:
        """The number on top now."""
        return shown_face(self.shell, self.xyz)
