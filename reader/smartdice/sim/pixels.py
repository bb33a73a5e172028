"""A simulated Pixels die, current or legacy firmware, speaking the real protocol."""

from __future__ import annotations

import asyncio
import struct

from reader.smartdice import gatt_ids as ids
from reader.smartdice import pixels_messages as msg
from reader.smartdice.pixels_faces import FACE_COUNT, PixelsDieType, shown_face
from reader.smartdice.sim.peripheral import Gatt, SimPeripheral

CURRENT_FIRMWARE = 1_735_000_000  # 2024-12-24: RollState 1 = rolled, 5 = on face
LEGACY_FIRMWARE = 1_700_000_000  # 2023-11-14: legacy UUIDs, 0xFFFF, 22-byte IAmADie, 1 = on face

# Raw RollState values
ROLLED_OR_ON_FACE, HANDLING, ROLLING, CROOKED, ON_FACE = 1, 2, 3, 4, 5


class SimPixel(SimPeripheral):
    """A Pixels die. ``legacy`` selects the firmware generation before 2024-09-30."""

    def __init__(self, pixel_id: int, die_type: PixelsDieType = PixelsDieType.D6, *, legacy: bool = False,
                 colorway: int = 1, battery: int = 80, address: str | None = None) -> None:
        super().__init__(address or f"C0:00:{pixel_id >> 24 & 0xFF:02X}:{pixel_id >> 16 & 0xFF:02X}:"
                         f"{pixel_id >> 8 & 0xFF:02X}:{pixel_id & 0xFF:02X}", f"Pixel{pixel_id:08x}")
        self.pixel_id = pixel_id
        self.die_type = die_type
        self.legacy = legacy
        self.colorway = colorway
        self.battery = battery
        self.firmware_time = LEGACY_FIRMWARE if legacy else CURRENT_FIRMWARE
        self.state = ROLLED_OR_ON_FACE
        self.face_index = 0
        self.blinks: list[int] = []  # colours of Blink commands
        self.notify_uuid = ids.PIXELS_LEGACY_NOTIFY if legacy else ids.PIXELS_NOTIFY

    @property
    def led_count(self) -> int:
        return {PixelsDieType.D6_PIPPED: 21}.get(self.die_type, FACE_COUNT.get(self.die_type, 6))

    def index_of(self, shown: int) -> int:
        """The face index that shows ``shown`` (d10 digit, d00 tens, fudge -1/0/+1)."""
        for index in range(FACE_COUNT[self.die_type]):
            if shown_face(self.die_type, index, self.firmware_time) == shown:
                return index
        raise ValueError(f"a {self.die_type.name} cannot show {shown}")

    # advertising

    def manufacturer_data(self) -> dict[int, bytes]:
        company = ids.PIXELS_LEGACY_COMPANY_ID if self.legacy else ids.PIXELS_COMPANY_ID
        design = self.die_type << 4 | self.colorway
        return {company: bytes([self.led_count, design, self.state, self.face_index, self.battery])}

    def service_data(self) -> dict[str, bytes]:
        return {ids.PIXELS_SERVICE_DATA_UUID: struct.pack("<II", self.pixel_id, self.firmware_time)}

    def service_uuids(self) -> list[str]:
        return [ids.PIXELS_LEGACY_SERVICE if self.legacy else ids.PIXELS_SERVICE]

    def gatt(self) -> Gatt:
        if self.legacy:
            return ((ids.PIXELS_LEGACY_SERVICE, ((ids.PIXELS_LEGACY_NOTIFY, ("notify",)),
                                                 (ids.PIXELS_LEGACY_WRITE, ("write", "write-without-response")))),)
        return ((ids.PIXELS_SERVICE, ((ids.PIXELS_NOTIFY, ("notify",)),
                                      (ids.PIXELS_WRITE, ("write", "write-without-response")))),)

    # protocol

    def i_am_a_die(self) -> bytes:
        """IAmADie in this firmware's form."""
        if self.legacy:
            return struct.pack("<BBBBIIHIBBBB", 2, self.led_count, self.colorway, self.die_type, 0x12345678,
                               self.pixel_id, 7728, self.firmware_time, self.state, self.face_index, self.battery, 0)
        chunks = [struct.pack("<HIHHHH", 0x100, self.firmware_time, 0x100, 0x100, 0x100, 0x100),
                  struct.pack("<IBBBBB", self.pixel_id, 1, self.die_type, self.led_count, self.colorway, 0),
                  b"\0" * 31, self.name.encode().ljust(31, b"\0"),
                  struct.pack("<III", 0, 10000, 20000),
                  bytes([self.battery, 0, self.state, self.face_index])]
        return bytes([2]) + b"".join(bytes([len(c) + 1]) + c for c in chunks)

    def on_write(self, char_uuid: str, data: bytes) -> None:
        kind = data[0]
        if kind == msg.MessageType.WHO_ARE_YOU:
            self.notify(self.i_am_a_die())
        elif kind == msg.MessageType.REQUEST_ROLL_STATE:
            self.notify(bytes([3, self.state, self.face_index]))
        elif kind == msg.MessageType.REQUEST_BATTERY_LEVEL:
            self.notify(bytes([34, self.battery, 0]))
        elif kind == msg.MessageType.BLINK:
            self.blinks.append(struct.unpack_from("<I", data, 4)[0])
            self.notify(bytes([msg.MessageType.BLINK_ACK]))

    def _set(self, state: int, index: int) -> None:
        self.state, self.face_index = state, index
        self.notify(bytes([3, state, index]))

    # what a player does

    async def roll(self, shown: int, tumbles: int = 3, pause: float = 0.0) -> None:
        """Roll and land on ``shown``: several 'rolling' messages, then the rest state."""
        for step in range(tumbles):
            self._set(ROLLING, (self.face_index + step + 1) % FACE_COUNT[self.die_type])
            await asyncio.sleep(pause)
        self._set(ROLLED_OR_ON_FACE, self.index_of(shown))
        await asyncio.sleep(pause)

    async def pick_up(self, shown: int | None = None, pause: float = 0.0) -> None:
        """Pick the die up and put it down (on ``shown``, default the same face) without rolling."""
        self._set(HANDLING, self.face_index)
        await asyncio.sleep(pause)
        index = self.face_index if shown is None else self.index_of(shown)
        self._set(ROLLED_OR_ON_FACE if self.legacy else ON_FACE, index)
        await asyncio.sleep(pause)

    async def roll_crooked(self, pause: float = 0.0) -> None:
        """Roll and end up cocked against something."""
        self._set(ROLLING, self.face_index)
        await asyncio.sleep(pause)
        self._set(CROOKED, self.face_index)
        await asyncio.sleep(pause)

    def start_rolling(self) -> None:
        """The die starts rolling (first half of a roll, for dropping the link mid-roll)."""
        self._set(ROLLING, self.face_index)

    def land(self, shown: int) -> None:
        """The die stops on ``shown`` (notified only if connected)."""
        self._set(ROLLED_OR_ON_FACE, self.index_of(shown))
