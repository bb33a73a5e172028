"""Pixels messages: decoding what a die notifies, encoding what the host writes.

A message is one GATT value: byte 0 is the message type, the rest its little-endian,
packed payload. :func:`decode_message` is pure and raises only
:class:`~reader.smartdice.errors.PixelsPacketError`. IAmADie comes in two forms, told
apart by length as the official library does: the legacy 22-byte struct and the current
"chunked" form, where every chunk starts with its size (counting the size byte itself);
chunks are stepped over by that size so longer chunks from newer firmware still decode,
and missing trailing chunks leave their fields ``None``.

RollState values changed meaning across firmware generations (see :func:`motion_of`).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import Enum, IntEnum

from reader.smartdice.errors import PixelsPacketError
from reader.smartdice.pixels_faces import PixelsDieType, die_type_of


class MessageType(IntEnum):
    """Message type ids the reader sends or understands (ids 0-71 are stable since 2022-05)."""

    WHO_ARE_YOU = 1
    I_AM_A_DIE = 2
    ROLL_STATE = 3
    TELEMETRY = 4
    DEBUG_LOG = 18
    REMOTE_ACTION = 22
    REQUEST_ROLL_STATE = 23
    BLINK = 29
    BLINK_ACK = 30
    REQUEST_BATTERY_LEVEL = 33
    BATTERY_LEVEL = 34
    REQUEST_RSSI = 35
    RSSI = 36
    NOTIFY_USER = 39
    STOP_ALL_ANIMATIONS = 59
    REQUEST_TEMPERATURE = 60
    TEMPERATURE = 61
    BLINK_ID = 65
    BLINK_ID_ACK = 66


class BatteryState(IntEnum):
    """Battery state of BatteryLevel and IAmADie."""

    OK = 0
    LOW = 1
    CHARGING = 2
    DONE = 3
    BAD_CHARGING = 4
    ERROR = 5

    @property
    def charging(self) -> bool:
        """On the charger (charging or charged), as the firmware's ``isChargingOrDone``."""
        return self in (BatteryState.CHARGING, BatteryState.DONE)


class Motion(Enum):
    """What a RollState value means once the firmware generation is taken into account."""

    UNKNOWN = "unknown"
    ROLLING = "rolling"
    HANDLING = "handling"
    ROLLED = "rolled"  # at rest after a proper roll (current firmware)
    ON_FACE = "on_face"  # at rest without having rolled (current firmware)
    AT_REST = "at_rest"  # at rest, roll or not unknown (firmware before 2024-11)
    CROOKED = "crooked"  # stopped, not on a valid face


#: Firmware built from here on (2024-11-01, commit 43b416c) has value 1 = rolled, 5 = onFace.
ROLL_STATE_REORDERED_AT = 1_730_419_200
#: Before this build (2024-05-22) 6-LED dice reported "crooked" when slightly tilted on a face.
CROOKED_FIX_AT = 1_716_382_800


def motion_of(state: int, firmware_time: int | None = None, led_count: int | None = None) -> Motion:
    """Interpret a raw RollState value.

    Value 1 is "rolled" on firmware built from 2024-11-01 on and "on face" (any rest)
    before; without a known firmware date it is read as a rest whose roll is unknown, which
    is true for both generations. Firmware before 2024-05-22 reported a flat 6-LED die
    (d4/d6/fudge) as crooked when its accelerometer sat slightly tilted; like the official
    library we read that as a rest. Unknown values raise :class:`PixelsPacketError`.
    """
    new = firmware_time is not None and firmware_time >= ROLL_STATE_REORDERED_AT
    if state == 0:
        return Motion.UNKNOWN
    if state == 1:
        return Motion.ROLLED if new else Motion.AT_REST
    if state == 2:
        return Motion.HANDLING
    if state == 3:
        return Motion.ROLLING
    if state == 4:
        old_tilt_bug = led_count == 6 and firmware_time is not None and firmware_time < CROOKED_FIX_AT
        return Motion.AT_REST if old_tilt_bug else Motion.CROOKED
    if state == 5 and (new or firmware_time is None):
        return Motion.ON_FACE
    raise PixelsPacketError(f"unknown Pixels roll state {state}")


@dataclass(frozen=True, slots=True)
class IAmADie:
    """A die's identity and status, answering WhoAreYou.

    ``legacy_design`` is true when ``colorway`` holds the pre-2023-09 DesignAndColor enum
    (and ``die_type`` is then unknown). Fields only the chunked form carries are ``None``
    for the legacy form and when a chunk is missing.
    """

    pixel_id: int
    die_type: PixelsDieType
    led_count: int
    colorway: int
    firmware_time: int
    legacy_design: bool
    roll_state: int | None
    face_index: int | None
    battery_percent: int | None
    battery_state: BatteryState | None
    chunked: bool
    firmware_version: int | None = None
    name: str | None = None
    colorway_name: str | None = None
    data_hash: int | None = None
    available_flash: int | None = None


@dataclass(frozen=True, slots=True)
class RollState:
    """The die's roll state and the face index it is on (sent on every change)."""

    state: int
    face_index: int


@dataclass(frozen=True, slots=True)
class BatteryLevel:
    """Battery percentage and state (sent on every change and on request)."""

    percent: int
    state: BatteryState


@dataclass(frozen=True, slots=True)
class Rssi:
    """Signal strength the die measures, in dBm."""

    dbm: int


@dataclass(frozen=True, slots=True)
class Temperature:
    """MCU and battery temperatures in degrees Celsius (the firmware sends hundredths, signed)."""

    mcu_celsius: float
    battery_celsius: float


@dataclass(frozen=True, slots=True)
class Ack:
    """A payload-less acknowledgement such as BlinkAck or BlinkIdAck."""

    of: MessageType


@dataclass(frozen=True, slots=True)
class RemoteAction:
    """A die-side button/gesture action bound in the official app."""

    action_id: int


@dataclass(frozen=True, slots=True)
class DebugLog:
    """Text the firmware logs."""

    text: str


@dataclass(frozen=True, slots=True)
class Unhandled:
    """A well-formed message the reader has no use for (telemetry, transfers, newer ids)."""

    type_id: int
    payload: bytes


PixelsMessage = IAmADie | RollState | BatteryLevel | Rssi | Temperature | Ack | RemoteAction | DebugLog | Unhandled

LEGACY_I_AM_A_DIE_SIZE = 22
_LEGACY = struct.Struct("<BBBBIIHIBBBB")
_VERSION = struct.Struct("<HIHHHH")  # firmware version, build time, settings, 3 compat versions
_DIE_INFO = struct.Struct("<IBBBBB")  # pixel id, chip, die type, led count, colorway, run mode
_SETTINGS = struct.Struct("<III")  # profile hash, available flash, total usable flash
_STATUS = struct.Struct("<BBBB")  # battery %, battery state, roll state, face index
#: Colorway bytes before 2023-09-22 were the old DesignAndColor enum (0..12).
NIBBLE_DESIGN_SINCE = 1_695_340_800


def _battery_state(value: int) -> BatteryState:
    try:
        return BatteryState(value)
    except ValueError:
        raise PixelsPacketError(f"unknown Pixels battery state {value}") from None


def battery_percent(value: int) -> int:
    """A battery percentage byte, checked (0..100)."""
    if value > 100:
        raise PixelsPacketError(f"battery level {value}% is impossible")
    return value


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", errors="replace")


def _chunks(data: bytes) -> list[bytes]:
    """Split a chunked message's payload; each chunk's first byte is its size including itself."""
    chunks: list[bytes] = []
    offset = 1
    while offset < len(data):
        size = data[offset]
        if size == 0 or offset + size > len(data):
            raise PixelsPacketError(f"IAmADie chunk at byte {offset} has a bad size {size}")
        chunks.append(data[offset + 1:offset + size])
        offset += size
    return chunks


def _field(chunks: list[bytes], index: int, layout: struct.Struct, what: str) -> tuple | None:
    """Unpack chunk ``index`` (longer chunks from newer firmware are fine, shorter ones are not)."""
    if index >= len(chunks):
        return None
    chunk = chunks[index]
    if len(chunk) < layout.size:
        raise PixelsPacketError(f"IAmADie {what} chunk is {len(chunk)} bytes, needs {layout.size}")
    return layout.unpack_from(chunk)


def _i_am_a_die_legacy(data: bytes) -> IAmADie:
    (_, leds, colorway, die_type, data_hash, pixel_id, flash, built, roll_state, face, battery,
     battery_state) = _LEGACY.unpack(data)
    legacy_design = built < NIBBLE_DESIGN_SINCE
    return IAmADie(pixel_id, PixelsDieType.UNKNOWN if legacy_design else die_type_of(die_type), leds, colorway,
                   built, legacy_design, roll_state, face, battery_percent(battery), _battery_state(battery_state),
                   chunked=False, data_hash=data_hash, available_flash=flash)


def _i_am_a_die_chunked(data: bytes) -> IAmADie:
    chunks = _chunks(data)
    version = _field(chunks, 0, _VERSION, "version")
    info = _field(chunks, 1, _DIE_INFO, "die info")
    if version is None or info is None:
        raise PixelsPacketError("IAmADie lacks its version or die-info chunk")
    firmware_version, built = version[0], version[1]
    pixel_id, _chip, die_type, leds, colorway, _run_mode = info
    colorway_name = _text(chunks[2]) if len(chunks) > 2 else None
    name = _text(chunks[3]) if len(chunks) > 3 else None
    settings = _field(chunks, 4, _SETTINGS, "settings")
    status = _field(chunks, 5, _STATUS, "status")
    battery, battery_state, roll_state, face = status if status else (None, None, None, None)
    return IAmADie(pixel_id, die_type_of(die_type), leds, colorway, built, False, roll_state, face,
                   None if battery is None else battery_percent(battery),
                   None if battery_state is None else _battery_state(battery_state),
                   chunked=True, firmware_version=firmware_version, name=name, colorway_name=colorway_name,
                   data_hash=settings[0] if settings else None, available_flash=settings[1] if settings else None)


def _exact(data: bytes, size: int, what: str) -> None:
    if len(data) < size:
        raise PixelsPacketError(f"{what} message is {len(data)} bytes, needs {size}")


def decode_message(data: bytes) -> PixelsMessage:
    """Decode one notification from a Pixels die."""
    data = bytes(data)
    if not data:
        raise PixelsPacketError("empty Pixels message")
    kind = data[0]
    if kind == MessageType.I_AM_A_DIE:
        if len(data) == LEGACY_I_AM_A_DIE_SIZE:
            return _i_am_a_die_legacy(data)
        return _i_am_a_die_chunked(data)
    if kind == MessageType.ROLL_STATE:
        _exact(data, 3, "RollState")
        return RollState(data[1], data[2])
    if kind == MessageType.BATTERY_LEVEL:
        _exact(data, 3, "BatteryLevel")
        return BatteryLevel(battery_percent(data[1]), _battery_state(data[2]))
    if kind == MessageType.RSSI:
        _exact(data, 2, "Rssi")
        return Rssi(struct.unpack_from("<b", data, 1)[0])
    if kind == MessageType.TEMPERATURE:
        _exact(data, 5, "Temperature")
        mcu, battery = struct.unpack_from("<hh", data, 1)
        return Temperature(mcu / 100, battery / 100)
    if kind in (MessageType.BLINK_ACK, MessageType.BLINK_ID_ACK):
        return Ack(MessageType(kind))
    if kind == MessageType.REMOTE_ACTION:
        _exact(data, 3, "RemoteAction")
        return RemoteAction(struct.unpack_from("<H", data, 1)[0])
    if kind == MessageType.DEBUG_LOG:
        return DebugLog(_text(data[1:]))
    if kind == 0:
        raise PixelsPacketError("Pixels message type 0 (none) is not a message")
    return Unhandled(kind, data[1:])


# Encoders: pure functions, bytes out.

def who_are_you() -> bytes:
    """Ask the die for IAmADie."""
    return bytes([MessageType.WHO_ARE_YOU])


def request_roll_state() -> bytes:
    """Ask for a RollState (used after reconnecting)."""
    return bytes([MessageType.REQUEST_ROLL_STATE])


def request_battery_level() -> bytes:
    """Ask for a BatteryLevel."""
    return bytes([MessageType.REQUEST_BATTERY_LEVEL])


def stop_all_animations() -> bytes:
    """Stop every animation the die plays."""
    return bytes([MessageType.STOP_ALL_ANIMATIONS])


def request_rssi(mode: int = 1, min_interval_ms: int = 0) -> bytes:
    """Ask for Rssi: mode 0 off, 1 once, 2 repeatedly at most every ``min_interval_ms``."""
    return struct.pack("<BBH", MessageType.REQUEST_RSSI, mode, min_interval_ms)


def blink(colour: int, count: int = 1, duration_ms: int = 1000, face_mask: int = 0xFFFFFFFF,
          fade: int = 0, loop_count: int = 1) -> bytes:
    """Blink the die's LEDs: ``colour`` is 0xRRGGBB, ``fade`` 0 (sharp) .. 255 (smooth)."""
    return struct.pack("<BBHIIBB", MessageType.BLINK, count, duration_ms, colour & 0xFFFFFF, face_mask,
                       fade, loop_count)


def blink_id(brightness: int = 0x80, loop_count: int = 1) -> bytes:
    """Blink the die's identification pattern (to find it on the table)."""
    return bytes([MessageType.BLINK_ID, brightness, loop_count])
