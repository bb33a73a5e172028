"""The board protocol's messages: type codes, payload layouts and their typed forms.

Pure data and packing, shared by the host link, the Python board emulator and the tests;
the C firmware mirrors these numbers in ``firmware/protocol.h``. ``PROTOCOL.md`` is the spec.
Multi-byte integers are big-endian. Text (board id, host name, colour) is ASCII.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum, IntFlag

from firmware_bridge.codec import MAX_PAYLOAD
from rules.errors import DicetableError

PROTO_MAJOR = 1
PROTO_MINOR = 0

#: Most events a board may have sent and not yet seen acknowledged (keeps seq comparisons unambiguous).
MAX_WINDOW = 64


class MsgType(IntEnum):
    """Message types. 0x01-0x7F travel host to board, 0x80-0xFF board to host."""

    # host -> board commands: answered by ACK/NAK (HELLO by HELLO_REPLY, GET_STATUS by STATUS)
    HELLO = 0x01
    PING = 0x02
    SET_LIGHT = 0x03
    SHOW_OUTCOME = 0x04
    TRIGGER_ROLL = 0x05
    GET_STATUS = 0x06
    INJECT = 0x3F  # test hook builds only (capability TEST_HOOK)
    # host -> board, never answered
    EVENT_ACK = 0x40
    # board -> host replies and link messages
    HELLO_REPLY = 0x81
    ACK = 0x82
    NAK = 0x83
    HEARTBEAT = 0x84
    STATUS = 0x85
    # board -> host events: sequenced, delivered exactly once (0x90-0xBF)
    BUTTON = 0x90
    MOTION_STARTED = 0x91
    MOTION_STOPPED = 0x92
    ROLL_DONE = 0x93
    DIE_FACE = 0x94
    HEALTH = 0x95
    ERROR = 0x96


EVENT_FIRST = 0x90
EVENT_LAST = 0xBF


def is_event(msg_type: int) -> bool:
    """True for the sequenced board-to-host range, including types this host does not know."""
    return EVENT_FIRST <= msg_type <= EVENT_LAST


def known_type(msg_type: int) -> MsgType | None:
    """The :class:`MsgType` for a code, or ``None`` for a type this version does not know."""
    try:
        return MsgType(msg_type)
    except ValueError:
        return None


class Capability(IntFlag):
    """What a board has, announced in HELLO_REPLY."""

    BUTTON = 0x0001
    MOTION = 0x0002
    POPPER = 0x0004
    FACES = 0x0008
    LIGHT = 0x0010
    OUTCOME = 0x0020
    BATTERY = 0x0040
    TEST_HOOK = 0x0080

    def names(self) -> list[str]:
        """Lower-case names of the set flags."""
        return [flag.name.lower() for flag in Capability if flag in self and flag.name]


class NakCode(IntEnum):
    """Why a board refused a command."""

    UNKNOWN_TYPE = 1
    BAD_PAYLOAD = 2
    UNSUPPORTED = 3
    BUSY = 4
    NOT_READY = 5  # no HELLO since the board booted


class Shown(IntEnum):
    """What SHOW_OUTCOME asks the board's outcome light to show."""

    IDLE = 0
    SUCCESS = 1
    FAILURE = 2
    CRITICAL_SUCCESS = 3
    CRITICAL_FAILURE = 4


class ErrorCode(IntEnum):
    """Codes of the ERROR event."""

    POPPER_JAMMED = 1
    SENSOR_FAULT = 2
    QUEUE_OVERFLOW = 3
    BROWN_OUT = 4


class PayloadError(DicetableError, ValueError):
    """A payload does not have the layout its message type requires (a faulty board or firmware)."""


def _unpack(fmt: str, payload: bytes, what: str) -> tuple:
    size = struct.calcsize(fmt)
    if len(payload) < size:
        raise PayloadError(f"{what}: payload of {len(payload)} bytes, need {size}")
    return struct.unpack_from(fmt, payload)


def _text(data: bytes, limit: int) -> str:
    return data[:limit].decode("ascii", "replace")


@dataclass(frozen=True, slots=True)
class Hello:
    """HELLO (host to board): the host's protocol version, session and name.

    ``session`` is chosen at random by each host link: a board forgets its memory of the last
    command only when a *different* session says HELLO, so a command retried across a
    reconnect is still carried out once.
    """

    session: int
    major: int = PROTO_MAJOR
    minor: int = PROTO_MINOR
    host: str = "dicetable"

    def pack(self) -> bytes:
        return struct.pack(">BBH", self.major, self.minor, self.session) + self.host.encode("ascii", "replace")[:16]

    @classmethod
    def unpack(cls, payload: bytes) -> Hello:
        major, minor, session = _unpack(">BBH", payload, "HELLO")
        return cls(session, major, minor, _text(payload[4:], 16))


@dataclass(frozen=True, slots=True)
class HelloReply:
    """HELLO_REPLY (board to host): versions, identity, capabilities and event stream position.

    ``boot_id`` changes on every boot: the host uses it to tell a reconnect (same boot, the
    event stream goes on) from a reboot (a new stream starting at ``next_event``).
    ``next_event`` is the seq of the oldest event the board still holds, or of the next one.
    """

    major: int
    minor: int
    firmware: tuple[int, int, int]
    capabilities: Capability
    boot_id: int
    next_event: int
    board_id: str

    _FMT = ">BBBBBHHB"

    def pack(self) -> bytes:
        return struct.pack(self._FMT, self.major, self.minor, *self.firmware, int(self.capabilities),
                           self.boot_id, self.next_event) + self.board_id.encode("ascii", "replace")[:16]

    @classmethod
    def unpack(cls, payload: bytes) -> HelloReply:
        major, minor, fw1, fw2, fw3, caps, boot_id, next_event = _unpack(cls._FMT, payload, "HELLO_REPLY")
        board_id = _text(payload[struct.calcsize(cls._FMT):], 16)
        return cls(major, minor, (fw1, fw2, fw3), Capability(caps), boot_id, next_event, board_id)

    @property
    def firmware_version(self) -> str:
        return ".".join(map(str, self.firmware))


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """HEARTBEAT (board to host, about once a second); its seq is the next event's seq."""

    boot_id: int
    uptime_s: int

    def pack(self) -> bytes:
        return struct.pack(">HI", self.boot_id, self.uptime_s)

    @classmethod
    def unpack(cls, payload: bytes) -> Heartbeat:
        return cls(*_unpack(">HI", payload, "HEARTBEAT"))


@dataclass(frozen=True, slots=True)
class Health:
    """HEALTH event, and the first fields of STATUS: battery and power state.

    ``battery_pct`` is 255 when the board cannot estimate it; ``flags`` bit 0 charging,
    bit 1 battery low, bit 2 on external power.
    """

    battery_mv: int
    battery_pct: int = 255
    flags: int = 0

    def pack(self) -> bytes:
        return struct.pack(">HBB", self.battery_mv, self.battery_pct, self.flags)

    @classmethod
    def unpack(cls, payload: bytes) -> Health:
        return cls(*_unpack(">HBB", payload, "HEALTH"))

    def to_json(self) -> dict[str, object]:
        return {"battery_mv": self.battery_mv,
                "battery_pct": None if self.battery_pct == 255 else self.battery_pct,
                "charging": bool(self.flags & 1), "low": bool(self.flags & 2), "external_power": bool(self.flags & 4)}


@dataclass(frozen=True, slots=True)
class Status:
    """STATUS (board to host, the answer to GET_STATUS): health, uptime and the board's counters."""

    health: Health
    uptime_s: int
    rx_frames: int
    rx_errors: int
    rx_unknown: int
    retransmits: int
    events_dropped: int

    _FMT = ">IHHHHH"

    def pack(self) -> bytes:
        return self.health.pack() + struct.pack(self._FMT, self.uptime_s, self.rx_frames, self.rx_errors,
                                                self.rx_unknown, self.retransmits, self.events_dropped)

    @classmethod
    def unpack(cls, payload: bytes) -> Status:
        health = Health.unpack(payload)
        return cls(health, *_unpack(cls._FMT, payload[4:], "STATUS"))

    def to_json(self) -> dict[str, object]:
        return {**self.health.to_json(), "uptime_s": self.uptime_s,
                "counters": {"rx_frames": self.rx_frames, "rx_errors": self.rx_errors, "rx_unknown": self.rx_unknown,
                             "retransmits": self.retransmits, "events_dropped": self.events_dropped}}


@dataclass(frozen=True, slots=True)
class DieFace:
    """DIE_FACE event: one die of board throw ``throw_no`` (``index`` of ``count``).

    ``value`` is normalised as in :mod:`rules.dice` (a d10 showing 0 is 10); ``colour`` is
    the die's registered colour, empty when the board does not know it.
    """

    throw_no: int
    index: int
    count: int
    die_id: int
    sides: int
    value: int
    colour: str = ""

    _FMT = ">BBBBBB"

    def pack(self) -> bytes:
        return struct.pack(self._FMT, self.throw_no, self.index, self.count, self.die_id, self.sides,
                           self.value) + self.colour.encode("ascii", "replace")[:12]

    @classmethod
    def unpack(cls, payload: bytes) -> DieFace:
        fields = _unpack(cls._FMT, payload, "DIE_FACE")
        return cls(*fields, _text(payload[struct.calcsize(cls._FMT):], 12).lower())


@dataclass(frozen=True, slots=True)
class DieHint:
    """One die in TRIGGER_ROLL's optional hint: what the host would like thrown.

    Boards that cannot choose their dice ignore the hint; the emulator throws exactly these.
    """

    sides: int
    colour: str = ""


def pack_hint(dice: tuple[DieHint, ...]) -> bytes:
    """TRIGGER_ROLL payload: per die ``sides (u8), colour length (u8), colour``."""
    out = bytearray()
    for die in dice:
        colour = die.colour.encode("ascii", "replace")[:12]
        out += bytes((die.sides, len(colour))) + colour
    if len(out) > MAX_PAYLOAD:
        raise PayloadError(f"a hint of {len(dice)} dice does not fit in one frame")
    return bytes(out)


def unpack_hint(payload: bytes) -> tuple[DieHint, ...]:
    """Inverse of :func:`pack_hint`."""
    dice: list[DieHint] = []
    i = 0
    while i < len(payload):
        if i + 2 > len(payload) or i + 2 + payload[i + 1] > len(payload):
            raise PayloadError("TRIGGER_ROLL: truncated dice hint")
        sides, size = payload[i], payload[i + 1]
        dice.append(DieHint(sides, _text(payload[i + 2:i + 2 + size], 12)))
        i += 2 + size
    return tuple(dice)


def u32(value: int) -> bytes:
    """A board timestamp or counter as 4 big-endian bytes."""
    return struct.pack(">I", value & 0xFFFFFFFF)


def read_u32(payload: bytes, what: str) -> int:
    """Inverse of :func:`u32`."""
    return _unpack(">I", payload, what)[0]
