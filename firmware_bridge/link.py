"""The host side of the serial link: open, handshake, commands, events, reconnection.

:class:`SerialLink` owns one port and one reader thread. The thread decodes frames, keeps the
handshake state (HELLO again after every open, after a NOT_READY answer and when the board
falls silent), delivers each board event exactly once and in order to the listeners, and
acknowledges events. When the port fails (USB unplugged, socket closed) it closes it and
reopens with exponential backoff, finding the board again by USB vendor, product and serial
number when its device name changed. Commands are sent from the caller's thread, one at a
time, and are retried a bounded number of times until the board answers.

Ports are opened without toggling DTR/RTS where the driver allows it and, for device paths,
with an exclusive lock (a second program gets a clear error instead of stolen bytes).
"""

from __future__ import annotations

import os
import secrets
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum

import serial
import serial.tools.list_ports

from firmware_bridge.codec import Frame, FrameDecoder, encode_frame
from firmware_bridge.messages import (MAX_WINDOW, PROTO_MAJOR, Capability, DieHint, Hello, HelloReply, MsgType, NakCode,
                                      PayloadError, Shown, Status, Heartbeat, is_event, known_type, pack_hint)
from rules.errors import DicetableError

BAUDRATE = 115200
#: Longest the reader thread blocks waiting for bytes before it looks at its timers.
READ_TICK = 0.05
#: Time the reader lets more bytes arrive once the line speaks: fewer wake-ups, little latency.
BATCH_DELAY = 0.002


class BoardError(DicetableError):
    """The board cannot be reached or refused what was asked."""


class BoardUnavailable(BoardError):
    """No handshake with the board (port missing, busy, or the board does not answer)."""


class BoardRejected(BoardError):
    """The board answered a command with NAK."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class UsbIdentity:
    """How to recognise a USB serial board when its device name changes."""

    vid: int
    pid: int
    serial_number: str | None = None

    @classmethod
    def parse(cls, text: str) -> UsbIdentity:
        """``VID:PID[:SERIAL]`` in hex, e.g. ``2341:0043`` or ``2341:0043:85736323838351F0B0A1``."""
        parts = text.split(":", 2)
        try:
            return cls(int(parts[0], 16), int(parts[1], 16), parts[2] if len(parts) > 2 else None)
        except (IndexError, ValueError):
            raise BoardUnavailable(f"usb:{text}: expected usb:VID:PID[:SERIAL] in hex, e.g. usb:2341:0043") from None

    def matches(self, port: object) -> bool:
        """True when a ``serial.tools.list_ports`` entry is this board."""
        return (getattr(port, "vid", None) == self.vid and getattr(port, "pid", None) == self.pid
                and (self.serial_number is None or getattr(port, "serial_number", None) == self.serial_number))


#: Lists the serial ports (injectable: CI machines have no USB ports).
PortLister = Callable[[], list]


def find_port(identity: UsbIdentity, comports: PortLister) -> str | None:
    """The device path of the first port that is this board, if it is plugged in."""
    return next((p.device for p in comports() if identity.matches(p)), None)


def identity_of(device: str, comports: PortLister) -> UsbIdentity | None:
    """The USB identity of a device path (through symlinks such as /dev/serial/by-id), if it has one."""
    real = os.path.realpath(device)
    for port in comports():
        if os.path.realpath(port.device) == real and port.vid is not None:
            return UsbIdentity(port.vid, port.pid, port.serial_number)
    return None


def open_port(where: str, baudrate: int = BAUDRATE) -> serial.SerialBase:
    """Open a device path or pyserial URL without toggling DTR/RTS; device paths are locked.

    Reads do not block (timeout 0): the link waits with :func:`wait_readable` and then takes
    whatever has arrived.
    """
    if "://" in where:
        port = serial.serial_for_url(where, do_not_open=True)
    else:
        port = serial.Serial()
        port.port = where
        port.exclusive = True
    port.baudrate = baudrate
    port.timeout = 0
    port.write_timeout = 1.0
    port.dtr = False  # set before open: no reset pulse on boards whose driver honours it
    port.rts = False
    port.open()
    return port


def _name(code: int, kind: type[IntEnum]) -> str:
    """An enum member's name, or the number in hex for a code this version does not know."""
    try:
        return kind(code).name
    except ValueError:
        return f"{code:#04x}"


def wait_readable(port: serial.SerialBase, timeout: float) -> bool:
    """Block until ``port`` has bytes (True) or ``timeout`` passes; ports without a file
    descriptor (``loop://``) are polled."""
    try:
        fd = port.fileno()
    except (AttributeError, NotImplementedError, OSError, ValueError):
        time.sleep(BATCH_DELAY)
        return True
    return bool(select.select([fd], [], [], timeout)[0])


@dataclass(frozen=True)
class BoardEvent:
    """One event from the board, delivered once: its frame, decoded data and arrival time."""

    type: MsgType
    frame: Frame
    boot_id: int
    at: float = field(default_factory=time.monotonic)


@dataclass
class LinkStats:
    """Host-side counters (``dicetable board status`` prints them)."""

    frames_rx: int = 0
    frames_tx: int = 0
    events: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    unknown: int = 0
    malformed: int = 0
    retries: int = 0
    naks: int = 0
    handshakes: int = 0
    board_reboots: int = 0
    link_losses: int = 0

    def to_json(self, decoder_errors: dict[str, int]) -> dict[str, object]:
        return {**self.__dict__, "rejected": decoder_errors}


class _Reply:
    """The answer a command waits for."""

    def __init__(self, seq: int) -> None:
        self.seq = seq
        self.frame: Frame | None = None
        self.done = threading.Event()


class SerialLink:
    """A connection to a dice-table board; see the module docstring.

    ``where`` is a device path, a pyserial URL (``loop://``, ``socket://host:port``) or
    ``usb:VID:PID[:SERIAL]``. Listeners get :class:`BoardEvent` objects in the reader thread
    and must return quickly.
    """

    def __init__(self, where: str, *, comports: PortLister = serial.tools.list_ports.comports,
                 command_timeout: float = 0.3,
                 retries: int = 4, hello_every: float = 0.25, silent_after: float = 3.0,
                 handshake_timeout: float = 4.0, max_backoff: float = 2.0, host: str = "dicetable") -> None:
        self.where = where
        self._comports = comports
        self.command_timeout = command_timeout
        self.retries = retries
        self.hello_every = hello_every
        self.silent_after = silent_after
        self.handshake_timeout = handshake_timeout
        self.max_backoff = max_backoff
        self.host = host
        self._identity = UsbIdentity.parse(where[4:]) if where.startswith("usb:") else None
        self.stats = LinkStats()
        self.info: HelloReply | None = None
        self.device: str | None = None
        self._decoder = FrameDecoder()
        self._listeners: list[Callable[[BoardEvent], None]] = []
        self._port: serial.SerialBase | None = None
        self._tx_lock = threading.Lock()
        self._command_lock = threading.Lock()
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._failure: BoardError | None = None
        self._last_error = ""
        self._session = secrets.randbits(16)
        self._seq = secrets.randbits(8)
        self._hello_counter = 0
        self._want_hello = False
        self._reply: _Reply | None = None
        self._hello_seq: int | None = None
        self._hello_sent = 0.0
        self._handshake_started = 0.0
        self._last_rx = 0.0
        self._boot_id: int | None = None
        self._expected = 0
        self._held: dict[int, Frame] = {}  # events received after a gap, by seq
        self._broken = False
        self._thread: threading.Thread | None = None

    # -- lifecycle
    def start(self) -> None:
        """Start the reader thread (it opens the port and says HELLO); returns at once."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"board-link {self.where}", daemon=True)
            self._thread.start()

    def open(self, timeout: float = 5.0) -> HelloReply:
        """Start the link and wait for the first handshake; raises :class:`BoardUnavailable`."""
        self.start()
        return self.wait_ready(timeout)

    def wait_ready(self, timeout: float) -> HelloReply:
        """Block until the link is up (handshake done); raises :class:`BoardUnavailable` after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not self._ready.wait(min(0.05, max(0.0, deadline - time.monotonic()))):
            if self._failure:
                raise self._failure
            if time.monotonic() >= deadline:
                why = f": {self._last_error}" if self._last_error else ""
                raise BoardUnavailable(f"no handshake with the board at {self.where} within {timeout:g} s{why}")
        assert self.info is not None
        return self.info

    @property
    def ready(self) -> bool:
        """True while the handshake holds."""
        return self._ready.is_set()

    def close(self) -> None:
        """Stop the reader thread and release the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._drop_port()

    def __enter__(self) -> SerialLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add_listener(self, listener: Callable[[BoardEvent], None]) -> None:
        """Call ``listener`` (in the reader thread) for every event, in board order, once each."""
        self._listeners.append(listener)

    @property
    def decoder_errors(self) -> dict[str, int]:
        """Rejected chunks by reason (CRC, COBS, short, long)."""
        return dict(self._decoder.stats.rejected)

    # -- commands
    def command(self, msg_type: MsgType | int, payload: bytes = b"", *, wait: float = 5.0) -> Frame:
        """Send a command and return the board's answer (ACK, or STATUS for GET_STATUS).

        Retries ``retries`` times after ``command_timeout`` without an answer, re-handshakes on
        NOT_READY, waits up to ``wait`` seconds for the link to come back; raises
        :class:`BoardRejected` on NAK and :class:`BoardUnavailable` when the board never answers.
        """
        with self._command_lock:
            self._seq = (self._seq + 1) & 0xFF  # one seq for all tries: the board executes it once
            attempts = 0
            while True:
                self.wait_ready(wait)
                reply = _Reply(self._seq)
                self._reply = reply
                self._write(encode_frame(Frame(int(msg_type), reply.seq, payload)))
                if reply.done.wait(self.command_timeout) and reply.frame is not None:
                    answer = reply.frame
                    if answer.type != MsgType.NAK:
                        return answer
                    code = answer.payload[0] if answer.payload else 0
                    self.stats.naks += 1
                    if code != NakCode.NOT_READY:
                        raise BoardRejected(f"the board refused {_name(msg_type, MsgType)}: "
                                            f"{_name(code, NakCode).lower()}", code)
                    self._ready.clear()  # it rebooted: the reader thread says HELLO again
                    self._want_hello = True
                attempts += 1
                self.stats.retries += 1
                if attempts > self.retries:
                    raise BoardUnavailable(f"the board did not answer {_name(msg_type, MsgType)} "
                                           f"({attempts} tries, {self.command_timeout:g} s each)")

    def ping(self) -> float:
        """Round-trip time of an acknowledged PING, in seconds."""
        start = time.perf_counter()
        self.command(MsgType.PING)
        return time.perf_counter() - start

    def set_light(self, level: int) -> None:
        """Table light level 0..255."""
        self.command(MsgType.SET_LIGHT, bytes((max(0, min(255, level)),)))

    def show(self, shown: Shown) -> None:
        """Show an outcome (or idle) on the board's outcome light."""
        self.command(MsgType.SHOW_OUTCOME, bytes((shown,)))

    def trigger_roll(self, hint: tuple[DieHint, ...] = ()) -> None:
        """Fire the popper; ``hint`` says which dice the host expects (boards may ignore it)."""
        self.command(MsgType.TRIGGER_ROLL, pack_hint(hint))

    def status(self) -> Status:
        """The board's battery, uptime and counters."""
        return Status.unpack(self.command(MsgType.GET_STATUS).payload)

    def inject(self, msg_type: MsgType, payload: bytes = b"", *, at_next_roll: bool = False) -> None:
        """Test hook (boards with the TEST_HOOK capability): make the board raise an event.

        With ``at_next_roll`` the event is held until the next TRIGGER_ROLL, as if the popper
        threw and the board read it.
        """
        self.command(MsgType.INJECT, bytes((int(at_next_roll), msg_type)) + payload)

    # -- the reader thread
    def _run(self) -> None:
        backoff = 0.05
        while not self._stop.is_set():
            if self._port is None or self._broken:
                self._drop_port()
                if not self._connect():
                    self._stop.wait(backoff)
                    backoff = min(backoff * 2, self.max_backoff)
                    continue
                backoff = 0.05
            try:
                data = b""
                if wait_readable(self._port, READ_TICK):
                    time.sleep(BATCH_DELAY)
                    data = self._port.read(4096)
            except (serial.SerialException, OSError, TypeError, AttributeError) as err:
                # TypeError/AttributeError: pyserial's socket and posix ports after close() from another thread
                self._lost(err)
                continue
            now = time.monotonic()
            if data:
                self._receive(data, now)
            self._timers(now)

    def _connect(self) -> bool:
        device = self._resolve()
        if device is None:
            return False
        try:
            port = open_port(device)
        except (serial.SerialException, OSError, ValueError) as err:
            self._last_error = str(err)
            if "exclusively lock" in str(err):
                self._failure = BoardUnavailable(f"{device} is in use by another program")
            return False
        if self._identity is None and "://" not in device:
            self._identity = identity_of(device, self._comports)
        with self._tx_lock:
            self._port = port
            self._broken = False
        self.device = device
        self._failure = None
        self._decoder.reset()
        self._begin_handshake(time.monotonic())
        return True

    def _resolve(self) -> str | None:
        """The device to open: the given path while it exists, else wherever the board is now."""
        if self.where.startswith("usb:") or ("://" not in self.where and not os.path.exists(self.where)):
            if self._identity is None:
                self._last_error = f"{self.where} does not exist"
                return None
            device = find_port(self._identity, self._comports)
            if device is None:
                self._last_error = f"no USB serial port {self._identity.vid:04x}:{self._identity.pid:04x} plugged in"
            return device
        return self.where

    def _lost(self, err: BaseException) -> None:
        self._last_error = str(err)
        self.stats.link_losses += 1
        self._ready.clear()
        with self._tx_lock:
            self._broken = True

    def _drop_port(self) -> None:
        with self._tx_lock:
            port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def _write(self, data: bytes) -> None:
        with self._tx_lock:
            port = self._port
            if port is None or self._broken:
                return
            try:
                port.write(data)
                self.stats.frames_tx += 1
            except (serial.SerialException, OSError, TypeError, AttributeError):
                self._broken = True
                self._ready.clear()

    def _begin_handshake(self, now: float) -> None:
        self._ready.clear()
        self._want_hello = False
        self._hello_counter = (self._hello_counter + 1) & 0xFF
        self._hello_seq = self._hello_counter
        self._handshake_started = now
        self.stats.handshakes += 1
        self._send_hello(now)

    def _send_hello(self, now: float) -> None:
        self._hello_sent = now
        # the leading delimiter ends whatever half frame the board was collecting
        hello = Hello(self._session, host=self.host).pack()
        self._write(b"\x00" + encode_frame(Frame(MsgType.HELLO, self._hello_seq or 0, hello)))

    def _timers(self, now: float) -> None:
        if self._port is None:
            return
        if self._want_hello:
            self._begin_handshake(now)
        elif self._ready.is_set():
            if now - self._last_rx > self.silent_after:
                self._begin_handshake(now)  # silent board: it may have rebooted
        elif now - self._handshake_started > self.handshake_timeout:
            self._lost(TimeoutError(f"no HELLO_REPLY within {self.handshake_timeout:g} s"))
        elif now - self._hello_sent >= self.hello_every:
            self._send_hello(now)

    def _receive(self, data: bytes, now: float) -> None:
        ack = False
        for frame in self._decoder.feed(data):
            self.stats.frames_rx += 1
            self._last_rx = now
            if is_event(frame.type):
                ack |= self._event(frame, now)
                continue
            try:
                self._reply_frame(frame, now)
            except PayloadError:
                self.stats.malformed += 1  # a good frame with a payload too short for its type: skipped
        if ack:
            self._write(encode_frame(Frame(MsgType.EVENT_ACK, (self._expected - 1) & 0xFF)))

    def _event(self, frame: Frame, now: float) -> bool:
        if not self._ready.is_set():
            return False  # before the handshake: the board sends it again afterwards
        ahead = (frame.seq - self._expected) & 0xFF
        if ahead >= 128 or frame.seq in self._held:
            self.stats.duplicates += 1
        elif ahead:
            self.stats.out_of_order += 1  # an earlier one was lost: hold this one until the board resends it
            if ahead < MAX_WINDOW:
                self._held[frame.seq] = frame
        else:
            while frame is not None:
                self._deliver(frame, now)
                self._expected = (self._expected + 1) & 0xFF
                frame = self._held.pop(self._expected, None)
        return True

    def _deliver(self, frame: Frame, now: float) -> None:
        kind = known_type(frame.type)
        if kind is None:
            self.stats.unknown += 1  # a newer board's event: counted, skipped, acknowledged
            return
        self.stats.events += 1
        event = BoardEvent(kind, frame, self._boot_id or 0, now)
        for listener in list(self._listeners):
            try:
                listener(event)
            except PayloadError:
                self.stats.malformed += 1  # delivered, but too short for its type: that listener skips it

    def _reply_frame(self, frame: Frame, now: float) -> None:
        kind = known_type(frame.type)
        if kind is MsgType.HELLO_REPLY:
            self._hello_reply(frame)
        elif kind is MsgType.HEARTBEAT:
            beat = Heartbeat.unpack(frame.payload)
            if self._ready.is_set() and beat.boot_id != self._boot_id:
                self._begin_handshake(now)
        elif kind in (MsgType.ACK, MsgType.NAK, MsgType.STATUS):
            reply = self._reply
            if reply is not None and reply.seq == frame.seq and not reply.done.is_set():
                reply.frame = frame
                reply.done.set()
        else:
            self.stats.unknown += 1

    def _hello_reply(self, frame: Frame) -> None:
        if frame.seq != self._hello_seq or self._ready.is_set():
            return  # an answer to an older HELLO
        info = HelloReply.unpack(frame.payload)
        if info.major != PROTO_MAJOR:
            self._failure = BoardUnavailable(
                f"the board speaks protocol {info.major}.{info.minor}, this dicetable speaks {PROTO_MAJOR}.x: "
                "update the firmware or dicetable")
            self._stop.set()
            return
        if info.boot_id != self._boot_id:
            if self._boot_id is not None:
                self.stats.board_reboots += 1
            self._boot_id = info.boot_id
            self._expected = info.next_event
            self._held.clear()
        self.info = info
        self._ready.set()

    def has(self, capability: Capability) -> bool:
        """True when the handshake announced ``capability``."""
        return self.info is not None and capability in self.info.capabilities
