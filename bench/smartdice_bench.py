"""Smart-dice benchmark: decoding throughput and rest-to-outcome latency.

1. Events decoded per second: real protocol packets (Pixels RollState, BatteryLevel, both
   IAmADie forms; GoDice roll/stable/battery) through the family drivers, decode included.
2. Latency from the last die's rest notification to the printed outcome, in process:
   simulated Pixels and GoDice dice notify through bleak (public backend API), the source
   completes the throw, the OpenD6 resolver resolves it and the summary line is printed.

Run: ``python bench/smartdice_bench.py [--checks 200] [--packets 200000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reader.cli.sources import designate  # noqa: E402
from reader.smartdice.godice_driver import GoDiceDriver  # noqa: E402
from reader.smartdice.godice_faces import Shell, reference_vector  # noqa: E402
from reader.smartdice.godice_messages import GoDiceColour  # noqa: E402
from reader.smartdice.link import Backoff  # noqa: E402
from reader.smartdice.pixels_driver import PixelsDriver  # noqa: E402
from reader.smartdice.pixels_faces import PixelsDieType  # noqa: E402
from reader.smartdice.registry import Family, RegisteredDie  # noqa: E402
from reader.smartdice.sim.backend import SimWorld  # noqa: E402
from reader.smartdice.sim.godice import SimGoDice  # noqa: E402
from reader.smartdice.sim.pixels import SimPixel  # noqa: E402
from reader.smartdice.source import SmartDiceSource  # noqa: E402
from rules.notation import parse_die_code  # noqa: E402
from rules.opend6 import OpenD6Check, resolve_check  # noqa: E402
from rules.protocol import drive_async  # noqa: E402


def decode_rate(count: int) -> tuple[float, float]:
    """(Pixels events/s, GoDice events/s)."""
    pixels = [bytes([3, 3, i % 6]) for i in range(5)] + [b"\x03\x01\x04", b"\x22\x50\x00",
                                                         SimPixel(1, PixelsDieType.D6).i_am_a_die(),
                                                         SimPixel(1, PixelsDieType.D6, legacy=True).i_am_a_die()]
    godice = [b"R", b"S" + bytes(v & 0xFF for v in reference_vector(Shell.D20, 17)), b"Bat\x50",
              b"FS\x00\x00\xc0", b"Col\x01"]
    rates = []
    for driver, packets in ((PixelsDriver(PixelsDieType.D6), pixels), (GoDiceDriver(Shell.D20), godice)):
        stream = [packets[i % len(packets)] for i in range(count)]
        start = time.perf_counter()
        for data in stream:
            driver.events(data)
        rates.append(count / (time.perf_counter() - start))
    return rates[0], rates[1]


async def latency(family: Family, checks: int, seed: int) -> list[float]:
    """Milliseconds from the last rest notification to the printed outcome, per check."""
    world = SimWorld(advert_interval=0.005)
    if family is Family.PIXELS:
        dice = [world.add(SimPixel(0x7000_0000 + n, PixelsDieType.D6)) for n in range(3)]
        registered = [RegisteredDie(f"{d.pixel_id:08x}", family, "d6", colour=c)
                      for d, c in zip(dice, ("red", "white", "grey"))]
    else:
        colours = (GoDiceColour.RED, GoDiceColour.BLACK, GoDiceColour.GREEN)
        dice = [world.add(SimGoDice(f"7A000{n}", c)) for n, c in enumerate(colours)]
        registered = [RegisteredDie(d.name.split("_")[1], family, "d6", colour=c.word) for d, c in zip(dice, colours)]
    rng = random.Random(seed)
    prompted = asyncio.Event()
    source = SmartDiceSource(family, registered, timeout=10, backends=world.backends(),
                             backoff=Backoff(first=0.01, cap=0.05, scan_window=1.0),
                             notify=lambda _text: None, on_prompt=lambda _request: prompted.set())
    args = argparse.Namespace(wild="red", tens=None)
    out = io.StringIO()
    samples = []
    try:
        for _ in range(checks):
            prompted.clear()
            check = asyncio.get_running_loop().create_task(drive_async(
                resolve_check(OpenD6Check(parse_die_code("3D"), 10)),
                lambda request: source.throw(designate(request, args))))
            await prompted.wait()
            for die in dice:
                await die.wait_connected()
            for die in dice[:-1]:
                await die.roll(rng.randint(1, 5))  # the wild die never explodes: one request per check
            last = dice[-1]
            last.start_rolling()
            await asyncio.sleep(0)
            start = time.perf_counter()
            last.land(rng.randint(1, 6))
            result = await check
            print(result.summary(), file=out)
            samples.append((time.perf_counter() - start) * 1000)
    finally:
        await source.close()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=200)
    parser.add_argument("--packets", type=int, default=200_000)
    args = parser.parse_args()
    pixels_rate, godice_rate = decode_rate(args.packets)
    print(f"decode: Pixels {pixels_rate:,.0f} events/s, GoDice {godice_rate:,.0f} events/s "
          f"({args.packets:,} packets each, driver + decoder)")
    for family in Family:
        samples = asyncio.run(latency(family, args.checks, seed=1))
        ordered = sorted(samples)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        print(f"rest -> printed outcome ({family.value}, {len(samples)} OpenD6 checks, 3 dice): "
              f"median {statistics.median(samples):.3f} ms, p95 {p95:.3f} ms, max {max(samples):.3f} ms "
              f"(target < 5 ms)")


if __name__ == "__main__":
    main()
