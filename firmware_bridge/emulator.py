"""A Python dice-table board: the reference firmware's protocol with simulated dice.

Use it for fast tests and for demos without hardware:

* ``dicetable check ... --source serial:emulator`` starts an emulator on a pseudo-terminal
  inside the process and talks to it through pyserial like to a real board;
* ``dicetable board emulate`` (or ``python -m firmware_bridge.emulator``) serves one on a
  pty until interrupted and prints its path, e.g. ``/dev/pts/7``, for
  ``--source serial:/dev/pts/7`` from another terminal.

The emulated board has every capability: a popper (TRIGGER_ROLL throws its dice: the dice of
the host's hint when there is one, else its own set), a face reader, a button, a motion
sensor, lights, a battery and the test hook (INJECT).
"""

from __future__ import annotations

import argparse
import errno
import os
import random
import secrets
import select
import signal
import sys
import threading
import time
import tty
from collections.abc import Callable, Sequence
from pathlib import Path

from firmware_bridge.codec import Frame
from firmware_bridge.messages import (Capability, DieFace, DieHint, MsgType, NakCode, Shown, is_event, u32,
                                      unpack_hint, PayloadError)
from firmware_bridge.board import BoardProtocol

#: The emulated board's own dice: a red wild d6, four white d6, a blue d20, a black and a white d10.
DEFAULT_DICE: tuple[DieHint, ...] = (DieHint(6, "red"), *(DieHint(6, "white"),) * 4, DieHint(20, "blue"),
                                     DieHint(10, "black"), DieHint(10, "white"))

#: INJECT's first byte: emit the event now, or when the next TRIGGER_ROLL throws.
INJECT_NOW = 0
INJECT_AT_NEXT_ROLL = 1


class BoardEmulator:
    """A simulated board; thread-safe (a transport thread and a test may drive it together)."""

    def __init__(self, *, seed: int | None = None, board_id: str = "emulator",
                 dice: tuple[DieHint, ...] = DEFAULT_DICE, window: int = 32,
                 clock: Callable[[], float] = time.monotonic, boot_id: int | None = None) -> None:
        self._rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
        self._clock = clock
        self.dice = dice
        self.protocol = BoardProtocol(board_id=board_id, capabilities=Capability(0xFF),
                                      boot_id=self._rng.randrange(0x10000) if boot_id is None else boot_id,
                                      window=window)
        self.protocol.handlers.update({MsgType.SET_LIGHT: self._set_light, MsgType.SHOW_OUTCOME: self._show,
                                       MsgType.TRIGGER_ROLL: self._trigger, MsgType.INJECT: self._inject})
        self.light = 0
        self.shown = Shown.IDLE
        self.throws = 0
        self._armed: list[tuple[int, bytes]] = []
        self._stream: tuple[int, float, float] | None = None  # (count, rate, start)
        self.streamed = 0
        self._lock = threading.RLock()

    # -- what the transport calls
    def receive(self, data: bytes) -> None:
        """Bytes from the host."""
        with self._lock:
            self.protocol.receive(data, self._clock())

    def take_output(self) -> bytes:
        """Run the timers and return the bytes for the host."""
        with self._lock:
            now = self._clock()
            self._pump_stream(now)
            self.protocol.tick(now)
            return self.protocol.take_output()

    # -- what a test or a demo does to the table
    def emit(self, msg_type: MsgType | int, payload: bytes = b"") -> bool:
        """Raise an event (False when the board's window is full and it is dropped)."""
        with self._lock:
            return self.protocol.emit(msg_type, payload, self._clock())

    def throw(self, dice: Sequence[DieHint] | None = None) -> list[DieFace]:
        """The player throws ``dice`` (default: the board's set) by hand; returns the faces reported."""
        with self._lock:
            self._motion(MsgType.MOTION_STARTED)
            self._motion(MsgType.MOTION_STOPPED)
            return self._report(tuple(dice) if dice else self.dice)

    def stream(self, count: int, rate: float) -> None:
        """Raise ``count`` DIE_FACE events at ``rate`` a second (benchmarks), as the window allows."""
        with self._lock:
            self._stream = (count, rate, self._clock())
            self.streamed = 0

    def reboot(self) -> None:
        """Power-cycle: a new boot id, nothing queued, no host until the next HELLO."""
        with self._lock:
            old = self.protocol
            self.protocol = BoardProtocol(board_id=old.board_id, capabilities=old.capabilities,
                                          boot_id=(old.boot_id + 1 + self._rng.randrange(0xFFFF)) & 0xFFFF,
                                          window=old.window)
            self.protocol.handlers.update(old.handlers)
            self._armed.clear()

    # -- internals
    def _motion(self, kind: MsgType) -> None:
        self.protocol.emit(kind, u32(int(self._clock() * 1000)), self._clock())

    def _report(self, dice: tuple[DieHint, ...]) -> list[DieFace]:
        self.throws = (self.throws + 1) & 0xFF
        faces = [DieFace(self.throws, i, len(dice), i + 1, die.sides, self._rng.randrange(die.sides) + 1, die.colour)
                 for i, die in enumerate(dice)]
        for face in faces:
            self.protocol.emit(MsgType.DIE_FACE, face.pack(), self._clock())
        return faces

    def _pump_stream(self, now: float) -> None:
        if self._stream is None:
            return
        count, rate, start = self._stream
        due = min(count, int((now - start) * rate) + 1)
        while self.streamed < due:
            i = self.streamed
            if self.protocol.pending >= self.protocol.window:
                break  # flow control: wait for the host's acknowledgements
            face = DieFace(i >> 8 & 0xFF, i & 0xFF, 0, 1, 6, i % 6 + 1)
            self.protocol.emit(MsgType.DIE_FACE, face.pack(), now)
            self.streamed += 1
        if self.streamed >= count:
            self._stream = None

    def _set_light(self, frame: Frame) -> NakCode | None:
        if len(frame.payload) != 1:
            return NakCode.BAD_PAYLOAD
        self.light = frame.payload[0]
        return None

    def _show(self, frame: Frame) -> NakCode | None:
        if len(frame.payload) != 1 or frame.payload[0] not in Shown._value2member_map_:
            return NakCode.BAD_PAYLOAD
        self.shown = Shown(frame.payload[0])
        return None

    def _trigger(self, frame: Frame) -> NakCode | None:
        try:
            hint = unpack_hint(frame.payload)
        except PayloadError:
            return NakCode.BAD_PAYLOAD
        now = self._clock()
        self._motion(MsgType.MOTION_STARTED)
        self.protocol.emit(MsgType.ROLL_DONE, bytes(((self.throws + 1) & 0xFF,)), now)
        self._motion(MsgType.MOTION_STOPPED)
        if self._armed:
            self.throws = (self.throws + 1) & 0xFF
            for msg_type, payload in self._armed:
                self.protocol.emit(msg_type, payload, now)
            self._armed.clear()
        else:
            self._report(hint or self.dice)
        return None

    def _inject(self, frame: Frame) -> NakCode | None:
        payload = frame.payload
        if len(payload) < 2 or payload[0] not in (INJECT_NOW, INJECT_AT_NEXT_ROLL) or not is_event(payload[1]):
            return NakCode.BAD_PAYLOAD
        if payload[0] == INJECT_AT_NEXT_ROLL:
            self._armed.append((payload[1], payload[2:]))
        elif not self.protocol.emit(payload[1], payload[2:], self._clock()):
            return NakCode.BUSY
        return None


class PtyBoard:
    """Serve a :class:`BoardEmulator` on a new pseudo-terminal from a background thread.

    ``path`` is the terminal to open with pyserial. With ``link`` the terminal is also reachable
    through that symlink, which :meth:`replug` moves to a fresh terminal (an unplug and replug).
    """

    def __init__(self, emulator: BoardEmulator, link: Path | None = None) -> None:
        self.emulator = emulator
        self.link = link
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._open()
        self._thread = threading.Thread(target=self._run, name="board-emulator", daemon=True)
        self._thread.start()

    @property
    def path(self) -> str:
        """What to open: the symlink when there is one, else the pty itself."""
        return str(self.link) if self.link else self._slave_name

    def _open(self) -> None:
        self._plug(*self._new_pty())

    @staticmethod
    def _new_pty() -> tuple[int, int]:
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        os.set_blocking(master, False)
        return master, slave

    def _plug(self, master: int, slave: int) -> None:
        self._master, self._slave, self._slave_name = master, slave, os.ttyname(slave)
        if self.link:
            tmp = self.link.with_name(self.link.name + ".new")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(self._slave_name)
            tmp.replace(self.link)

    def _close_fds(self) -> None:
        os.close(self._master)
        os.close(self._slave)

    def replug(self) -> None:
        """Unplug (the host's reads fail) and plug in again on a new terminal; the board keeps its state."""
        with self._lock:
            if self.link:
                self.link.unlink(missing_ok=True)
            fresh = self._new_pty()  # taken before the old one is freed: it gets another /dev/pts number
            self._close_fds()
            time.sleep(0.2)
            self._plug(*fresh)

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                master = self._master
                try:
                    ready, _, _ = select.select([master], [], [], 0.005)
                    if ready:
                        self.emulator.receive(os.read(master, 4096))
                    out = self.emulator.take_output()
                    if out:
                        os.write(master, out)  # a full pty drops what does not fit, like an unread line
                except OSError as err:
                    if err.errno not in (errno.EAGAIN, errno.EIO):
                        raise

    def close(self) -> None:
        """Stop serving and release the terminal."""
        self._stop.set()
        self._thread.join(timeout=2)
        self._close_fds()
        if self.link:
            self.link.unlink(missing_ok=True)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m firmware_bridge.emulator``: serve an emulated board on a pty until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.emulator", description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, help="repeatable dice")
    parser.add_argument("--link", type=Path, help="also make this symlink point at the terminal")
    parser.add_argument("--stream", type=int, default=0, metavar="N",
                        help="after the first HELLO, send N DIE_FACE events (benchmarks)")
    parser.add_argument("--rate", type=float, default=1e9, help="events a second for --stream (default: flat out)")
    args = parser.parse_args(argv)
    serve(BoardEmulator(seed=args.seed), args.link, args.stream, args.rate)
    return 0


def serve(emulator: BoardEmulator, link: Path | None = None, stream: int = 0, rate: float = 1e9) -> None:
    """Serve ``emulator`` on a pty, print its path, run until SIGINT/SIGTERM."""
    board = PtyBoard(emulator, link)
    print(board.path, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while stream and not emulator.protocol.host_ready and not stop.wait(0.01):
            pass
        if stream:
            emulator.stream(stream, rate)
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        board.close()


if __name__ == "__main__":
    sys.exit(main())
