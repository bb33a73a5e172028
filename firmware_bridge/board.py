"""The board's side of the protocol in Python: what the reference firmware does, minus the pins.

:class:`BoardProtocol` is a pure state machine: feed it received bytes and the time, read
back the bytes it wants to send. It holds the sequenced event queue (resent go-back-N until
the host acknowledges it), answers commands once per seq (a retried command gets the same
answer without being executed twice), sends heartbeats and counts what it could not parse.
The emulator (:mod:`firmware_bridge.emulator`) gives it dice and a transport.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.codec import Frame, FrameDecoder, encode_frame
from firmware_bridge.messages import (PROTO_MAJOR, PROTO_MINOR, Capability, ErrorCode, Health, Heartbeat, Hello,
                                      HelloReply, MsgType, NakCode, PayloadError, Status, is_event, known_type)

#: A command handler: (frame) -> NAK code, or None when the command was carried out.
Handler = Callable[[Frame], NakCode | None]


@dataclass
class BoardCounters:
    """The counters a board reports in STATUS."""

    rx_frames: int = 0
    rx_unknown: int = 0
    retransmits: int = 0
    events_dropped: int = 0


class BoardProtocol:
    """Board-side protocol engine; not thread-safe (its owner serialises calls)."""

    def __init__(self, *, board_id: str, capabilities: Capability, boot_id: int,
                 firmware: tuple[int, int, int] = (1, 0, 0), window: int = 8,
                 resend_after: float = 0.15, fast_resend_after: float = 0.03,
                 heartbeat_every: float = 1.0) -> None:
        self.board_id = board_id
        self.capabilities = capabilities
        self.boot_id = boot_id & 0xFFFF
        self.firmware = firmware
        self.window = window
        self.resend_after = resend_after  # since the oldest unacknowledged event was (re)sent
        self.fast_resend_after = fast_resend_after
        self.heartbeat_every = heartbeat_every
        self.handlers: dict[int, Handler] = {}
        self.health = Health(5000, 255, 4)
        self.counters = BoardCounters()
        self._decoder = FrameDecoder()
        self._out = bytearray()
        self._queue: deque[bytes] = deque()  # encoded event frames not yet acknowledged, oldest first
        self._oldest = 0  # seq of the queue's first event
        self._host_ready = False
        self._last_send = 0.0
        self._last_heartbeat = 0.0
        self._last_command: tuple[int, bytes] | None = None  # (seq, encoded answer)
        self._session: int | None = None
        self._overflowed = False  # an event was dropped: report it once there is room
        self._fast_at = float("-inf")  # when the oldest event was last resent on a duplicate acknowledgement
        self._booted_at: float | None = None

    @property
    def host_ready(self) -> bool:
        """True once a host has said HELLO since this boot."""
        return self._host_ready

    @property
    def pending(self) -> int:
        """Events sent (or waiting to be sent) and not yet acknowledged."""
        return len(self._queue)

    def take_output(self) -> bytes:
        """The bytes to write to the line now (and forget them)."""
        out = bytes(self._out)
        self._out.clear()
        return out

    def emit(self, msg_type: MsgType | int, payload: bytes, now: float) -> bool:
        """Queue an event; False (and counted) when the window is full."""
        if len(self._queue) >= self.window:
            self.counters.events_dropped += 1
            self._overflowed = True
            return False
        seq = (self._oldest + len(self._queue)) & 0xFF
        wire = encode_frame(Frame(int(msg_type), seq, payload))
        self._queue.append(wire)
        if self._host_ready:
            self._out += wire
            if len(self._queue) == 1:
                self._last_send = now
        return True

    def receive(self, data: bytes, now: float) -> None:
        """Handle bytes from the line."""
        for frame in self._decoder.feed(data):
            self.counters.rx_frames += 1
            self._handle(frame, now)

    def tick(self, now: float) -> None:
        """Timers: resend unacknowledged events, send the heartbeat."""
        if self._booted_at is None:
            self._booted_at = now
        if not self._host_ready:
            return
        if self._queue and now - self._last_send >= self.resend_after:
            self.counters.retransmits += len(self._queue)
            self._resend(now)
        if now - self._last_heartbeat >= self.heartbeat_every:
            self._last_heartbeat = now
            seq = (self._oldest + len(self._queue)) & 0xFF
            self._send(MsgType.HEARTBEAT, seq, Heartbeat(self.boot_id, self.uptime(now)).pack())

    def uptime(self, now: float) -> int:
        """Seconds since boot."""
        return int(now - (self._booted_at if self._booted_at is not None else now))

    def status(self, now: float) -> Status:
        """What GET_STATUS answers."""
        c = self.counters
        return Status(self.health, self.uptime(now), c.rx_frames & 0xFFFF, self._decoder.stats.errors & 0xFFFF,
                      c.rx_unknown & 0xFFFF, c.retransmits & 0xFFFF, c.events_dropped & 0xFFFF)

    def _send(self, msg_type: MsgType, seq: int, payload: bytes = b"") -> bytes:
        wire = encode_frame(Frame(int(msg_type), seq, payload))
        self._out += wire
        return wire

    def _resend(self, now: float) -> None:
        for wire in self._queue:
            self._out += wire
        self._last_send = now

    def _handle(self, frame: Frame, now: float) -> None:
        kind = known_type(frame.type)
        if kind is MsgType.HELLO:
            self._hello(frame, now)
        elif kind is MsgType.EVENT_ACK:
            if self._host_ready:  # before HELLO it can only be meant for an earlier boot's events
                self._acknowledged(frame.seq, now)
        elif frame.type >= 0x40 or is_event(frame.type):
            self.counters.rx_unknown += 1  # never answered: skip
        elif not self._host_ready:
            self._send(MsgType.NAK, frame.seq, bytes((NakCode.NOT_READY, frame.type)))
        elif self._last_command is not None and self._last_command[0] == frame.seq:
            self._out += self._last_command[1]  # a retry: same answer, not executed again
        else:
            self._last_command = (frame.seq, self._execute(kind, frame, now))

    def _hello(self, frame: Frame, now: float) -> None:
        reply = HelloReply(PROTO_MAJOR, PROTO_MINOR, self.firmware, self.capabilities, self.boot_id,
                           self._oldest, self.board_id)
        try:
            session = Hello.unpack(frame.payload).session
        except PayloadError:
            session = None
        self._send(MsgType.HELLO_REPLY, frame.seq, reply.pack())
        self._host_ready = True
        if session is None or session != self._session:
            self._last_command = None  # another host: its seqs mean nothing to the last one's
        self._session = session
        self._last_heartbeat = now
        self._resend(now)

    def _acknowledged(self, seq: int, now: float) -> None:
        done = (seq - self._oldest) & 0xFF
        if done >= len(self._queue):
            # acknowledges nothing new: the host holds later events and misses the oldest; resend it now
            if self._queue and now - self._fast_at >= self.fast_resend_after:
                self._fast_at = now
                self.counters.retransmits += 1
                self._out += self._queue[0]
            return
        for _ in range(done + 1):
            self._queue.popleft()
        self._oldest = (seq + 1) & 0xFF
        self._last_send = now
        self._fast_at = float("-inf")
        if self._overflowed:
            self._overflowed = False
            self.emit(MsgType.ERROR, bytes((ErrorCode.QUEUE_OVERFLOW, self.counters.events_dropped & 0xFF)), now)

    def _execute(self, kind: MsgType | None, frame: Frame, now: float) -> bytes:
        if kind is MsgType.GET_STATUS:
            return self._send(MsgType.STATUS, frame.seq, self.status(now).pack())
        if kind is MsgType.PING:
            return self._send(MsgType.ACK, frame.seq)
        handler = self.handlers.get(frame.type)
        if handler is None:
            self.counters.rx_unknown += kind is None
            code = NakCode.UNKNOWN_TYPE if kind is None else NakCode.UNSUPPORTED
        else:
            code = handler(frame)
        if code is None:
            return self._send(MsgType.ACK, frame.seq)
        return self._send(MsgType.NAK, frame.seq, bytes((code, frame.type)))
