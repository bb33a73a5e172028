"""A noisy, interrupted line: 1% of bytes corrupted both ways and the link cut and restored
mid-stream. Every event arrives exactly once and in order; every command is carried out once."""

from __future__ import annotations

import random
import select
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.link import BoardEvent, SerialLink
from firmware_bridge.messages import DieHint, Health, MsgType


class NoisyLine:
    """A TCP server playing the board's USB cable: corrupts bytes, and can be unplugged."""

    def __init__(self, emulator: BoardEmulator, error_rate: float, seed: int) -> None:
        self.emulator = emulator
        self.error_rate = error_rate
        self.corrupted = 0
        self._rng = random.Random(seed)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"socket://127.0.0.1:{self._listener.getsockname()[1]}"
        self._plugged = threading.Event()
        self._plugged.set()
        self._stop = threading.Event()
        self._conn: socket.socket | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _noise(self, data: bytes) -> bytes:
        out = bytearray(data)
        for i in range(len(out)):
            if self._rng.random() < self.error_rate:
                out[i] ^= self._rng.randrange(1, 256)
                self.corrupted += 1
        return bytes(out)

    def unplug(self, seconds: float) -> None:
        """Cut the line (the host's reads fail) and restore it ``seconds`` later."""
        self._plugged.clear()
        time.sleep(seconds)
        self._plugged.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._listener], [], [], 0.02)
            if not ready:
                continue
            conn, _ = self._listener.accept()
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # a wire does not wait to fill packets
            if self._plugged.is_set():
                self._serve(conn)
            conn.close()

    def _serve(self, conn: socket.socket) -> None:
        conn.setblocking(False)
        while self._plugged.is_set() and not self._stop.is_set():
            ready, _, _ = select.select([conn], [], [], 0.003)
            if ready:
                data = conn.recv(4096)
                if not data:
                    return
                self.emulator.receive(self._noise(data))
            out = self.emulator.take_output()
            if out:
                try:
                    conn.sendall(self._noise(out))
                except BlockingIOError:
                    pass  # the host is not reading: what does not fit is lost, like on a wire

    def close(self) -> None:
        self._stop.set()
        self._plugged.set()
        self._thread.join(timeout=2)
        self._listener.close()


@pytest.fixture
def line() -> Iterator[NoisyLine]:
    line = NoisyLine(BoardEmulator(seed=11, boot_id=0x1234, window=64), error_rate=0.01, seed=7)
    yield line
    line.close()


def test_no_event_lost_none_twice_and_commands_once(line: NoisyLine):
    total = 400
    received: list[int] = []
    rolls: list[int] = []

    def listen(event: BoardEvent) -> None:
        if event.type is MsgType.HEALTH:
            received.append(Health.unpack(event.frame.payload).battery_mv)
        elif event.type is MsgType.ROLL_DONE:
            rolls.append(event.frame.payload[0])

    def board_stream() -> None:  # the board raises numbered events as fast as its window allows
        i = 0
        while i < total:
            if line.emulator.protocol.pending < 16 and line.emulator.emit(MsgType.HEALTH, Health(i).pack()):
                i += 1
            else:
                time.sleep(0.002)

    link = SerialLink(line.url, command_timeout=0.2, retries=8)
    link.add_listener(listen)
    try:
        link.open(timeout=10)
        streamer = threading.Thread(target=board_stream, daemon=True)
        streamer.start()
        triggered = 0
        for cut in range(3):
            for _ in range(5):
                link.trigger_roll((DieHint(6, "red"),))  # four events: motion, roll done, motion, face
                triggered += 1
            time.sleep(0.15)
            line.unplug(0.4)
            link.wait_ready(10)
        streamer.join(timeout=60)
        deadline = time.monotonic() + 30
        while (len(received) < total or len(rolls) < triggered) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        link.close()
    assert line.emulator.protocol.counters.events_dropped == 0
    assert received == list(range(total))
    assert rolls == [(i + 1) & 0xFF for i in range(triggered)]  # each TRIGGER_ROLL carried out once
    assert line.corrupted > 50
    assert link.stats.link_losses >= 3
    assert sum(link.decoder_errors.values()) > 0
    assert link.stats.duplicates + link.stats.out_of_order > 0  # the board had to resend
