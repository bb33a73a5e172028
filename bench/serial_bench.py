"""Serial link benchmark: events per second through a pty pair, ACK round trip, line-rate CPU share.

The board is the Python emulator in a subprocess (``python -m firmware_bridge.emulator``) on
a pseudo-terminal, so the host process measured here runs only the link. Three figures:

1. events/s flat out: the emulator streams DIE_FACE events as fast as its window allows;
2. round-trip time of an acknowledged command (PING) with the emulator, median and 95th centile;
3. a 115200-baud line at its limit: 11520 bytes/s of 13-byte DIE_FACE frames (886 events/s),
   with the share of one CPU core the host spends keeping up, and whether any event was lost.

Run: ``python bench/serial_bench.py [--events N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.codec import Frame, encode_frame  # noqa: E402
from firmware_bridge.emulator import BoardEmulator, PtyBoard  # noqa: E402
from firmware_bridge.link import BoardEvent, SerialLink  # noqa: E402
from firmware_bridge.messages import DieFace, MsgType  # noqa: E402

LINE_BYTES_PER_S = 115200 / 10  # 8N1: ten bit times per byte
FRAME_BYTES = len(encode_frame(Frame(MsgType.DIE_FACE, 0, DieFace(0, 0, 0, 1, 6, 1).pack())))


class Counter:
    """Counts streamed events and checks they arrive in order, once each."""

    def __init__(self) -> None:
        self.count = 0
        self.out_of_order = 0
        self.first = self.last = 0.0
        self.done = threading.Event()
        self.expected = 0

    def __call__(self, event: BoardEvent) -> None:
        if event.type is not MsgType.DIE_FACE:
            return
        face = DieFace.unpack(event.frame.payload)
        number = face.throw_no << 8 | face.index
        if number != self.expected & 0xFFFF:
            self.out_of_order += 1
        self.expected += 1
        self.count += 1
        self.last = event.at
        if self.count == 1:
            self.first = event.at


def stream(events: int, rate: float) -> tuple[Counter, float, float, SerialLink]:
    """Stream ``events`` from an emulator subprocess at ``rate``; returns counter, wall and CPU seconds."""
    proc = subprocess.Popen([sys.executable, "-m", "firmware_bridge.emulator", "--stream", str(events),
                             "--rate", str(rate)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        path = proc.stdout.readline().strip()
        counter = Counter()
        link = SerialLink(path)
        link.add_listener(counter)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        link.open()
        deadline = time.monotonic() + 30 + events / rate
        while counter.count < events and time.monotonic() < deadline:
            time.sleep(0.01)
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        link.close()
        return counter, wall, cpu, link
    finally:
        proc.terminate()
        proc.wait()


def round_trips(count: int) -> list[float]:
    """PING round-trip times with the emulator on a pty in this process."""
    board = PtyBoard(BoardEmulator(seed=1))
    try:
        with SerialLink(board.path) as link:
            link.open()
            return [link.ping() for _ in range(count)]
    finally:
        board.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=20000, help="events for the flat-out run (default 20000)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of the line-rate run (default 10)")
    parser.add_argument("--pings", type=int, default=500, help="acknowledged commands to time (default 500)")
    args = parser.parse_args()

    counter, wall, cpu, link = stream(args.events, 1e9)
    span = max(counter.last - counter.first, 1e-9)
    print(f"flat out through a pty pair: {counter.count}/{args.events} events in {span:.2f} s = "
          f"{counter.count / span:,.0f} events/s ({counter.count * FRAME_BYTES / span / 1024:,.0f} KiB/s); "
          f"out of order {counter.out_of_order}, host CPU {cpu / wall:.0%} of one core")

    rtts = sorted(round_trips(args.pings))
    print(f"acked command (PING) round trip with the emulator: median {statistics.median(rtts) * 1000:.2f} ms, "
          f"p95 {rtts[int(len(rtts) * 0.95)] * 1000:.2f} ms, max {rtts[-1] * 1000:.2f} ms over {len(rtts)}")

    rate = LINE_BYTES_PER_S / FRAME_BYTES
    events = int(rate * args.seconds)
    counter, wall, cpu, link = stream(events, rate)
    lost = events - counter.count
    print(f"115200-baud line at its limit: {FRAME_BYTES}-byte frames at {rate:.0f} events/s for {args.seconds:g} s: "
          f"{counter.count}/{events} delivered, lost {lost}, out of order {counter.out_of_order}, "
          f"host CPU {cpu / wall:.1%} of one core ({cpu * 1e6 / max(counter.count, 1):.0f} us per event)")
    print(f"host counters: {link.stats}")
    return 0 if lost == 0 and counter.out_of_order == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
