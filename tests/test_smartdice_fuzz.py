"""Fuzzing the decoders: whatever bytes arrive, only the decoders' own typed error comes out."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from reader.smartdice.errors import GoDicePacketError, PixelsPacketError
from reader.smartdice.gatt_ids import PIXELS_SERVICE_DATA_UUID
from reader.smartdice.godice_driver import GoDiceDriver
from reader.smartdice.godice_faces import Shell
from reader.smartdice.godice_messages import decode_event
from reader.smartdice.pixels_advert import decode_advert
from reader.smartdice.pixels_driver import PixelsDriver
from reader.smartdice.pixels_faces import PixelsDieType
from reader.smartdice.pixels_messages import decode_message
from reader.smartdice.sightings import identify
from reader.smartdice.sim.godice import SimGoDice
from reader.smartdice.sim.pixels import SimPixel

SEEDS_PIXELS = [SimPixel(0x01020304, t, legacy=legacy).i_am_a_die()
                for t in (PixelsDieType.D6, PixelsDieType.D20, PixelsDieType.D00) for legacy in (False, True)] + [
    bytes.fromhex("02140b0012a6beb35a8af006301e1787886401054f00"), b"\x03\x01\x05", b"\x03\x03\x02",
    b"\x22\x50\x02", b"\x24\xc4", b"\x3d\x01\x02\x03\x04", b"\x1e", b"\x16\x01\x02", b"\x12log"]
SEEDS_GODICE = [b"R", b"S\x00\x00\xc0", b"TS\x01\x02\x03", b"FS\x40\x00\x00", b"MS\x00\x40\x00", b"Bat\x50",
                b"Col\x02", b"Char\x01", b"Tap", b"DTap"]


def _pixels_driver(data: bytes) -> object:
    return PixelsDriver(PixelsDieType.D6).events(data)


def _godice_driver(data: bytes) -> object:
    return [GoDiceDriver(shell).events(data) for shell in Shell]


def only(error: type[Exception], decode: Callable[[bytes], object], data: bytes) -> None:
    try:
        decode(data)
    except error:
        pass


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=140))
def test_pixels_messages_random(data: bytes) -> None:
    only(PixelsPacketError, decode_message, data)
    only(PixelsPacketError, _pixels_driver, data)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SEEDS_PIXELS), st.integers(0, 139), st.integers(0, 255), st.integers(0, 140))
def test_pixels_messages_mutated(seed: bytes, where: int, value: int, cut: int) -> None:
    data = bytearray(seed)
    data[where % len(data)] = value
    only(PixelsPacketError, decode_message, bytes(data[:cut]))
    only(PixelsPacketError, _pixels_driver, bytes(data))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from([0x0D39, 0xFFFF, 0x140B, 0x004C]), st.binary(max_size=10), max_size=3),
       st.dictionaries(st.sampled_from([PIXELS_SERVICE_DATA_UUID, "0000fe59-0000-1000-8000-00805f9b34fb"]),
                       st.binary(max_size=12), max_size=2),
       st.one_of(st.none(), st.text(max_size=20), st.just("Pixel06f08a5a"), st.just("GoDice_8A8272_K_v04")))
def test_pixels_adverts_and_identification(manufacturer: dict, service: dict, name: str | None) -> None:
    only(PixelsPacketError, lambda _: decode_advert(manufacturer, service), b"")
    identify("AA:BB:CC:DD:EE:FF", name, manufacturer, service, [])  # never raises


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.binary(max_size=12),
                 st.builds(lambda tag, rest: tag + rest,
                           st.sampled_from([b"R", b"S", b"TS", b"FS", b"MS", b"Bat", b"Col", b"Char", b"Tap", b"DTap"]),
                           st.binary(max_size=6))))
def test_godice_events_random(data: bytes) -> None:
    only(GoDicePacketError, decode_event, data)
    only(GoDicePacketError, _godice_driver, data)


def test_bounded_random_and_mutated_run() -> None:
    """20 000 random and mutated packets through every decoder, reproducibly."""
    rng = random.Random(20261121)
    seeds = SEEDS_PIXELS + SEEDS_GODICE + [SimGoDice("5A0001").name.encode()]
    for _ in range(20_000):
        if rng.random() < 0.3:
            data = rng.randbytes(rng.randrange(0, 120))
        else:
            buf = bytearray(rng.choice(seeds))
            for _ in range(rng.randrange(1, 4)):
                op = rng.randrange(3)
                if op == 0 and buf:
                    buf[rng.randrange(len(buf))] = rng.randrange(256)
                elif op == 1:
                    buf = buf[:rng.randrange(len(buf) + 1)]
                else:
                    buf.insert(rng.randrange(len(buf) + 1), rng.randrange(256))
            data = bytes(buf)
        only(PixelsPacketError, decode_message, data)
        only(PixelsPacketError, _pixels_driver, data)
        only(GoDicePacketError, decode_event, data)
        only(GoDicePacketError, _godice_driver, data)
        only(PixelsPacketError, lambda d: decode_advert({0x0D39: d[:6]}, {PIXELS_SERVICE_DATA_UUID: d[6:]}), data)
