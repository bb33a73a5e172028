"""End to end: simulated dice -> bleak (public backend API) -> link -> source -> resolver."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable, Generator

import pytest

from reader.cli.sources import designate
from reader.smartdice.errors import ThrowTimeout
from reader.smartdice.godice_faces import Shell
from reader.smartdice.godice_messages import GoDiceColour
from reader.smartdice.link import Backoff
from reader.smartdice.pixels_faces import PixelsDieType
from reader.smartdice.registry import Family, RegisteredDie
from reader.smartdice.sim.backend import SimWorld
from reader.smartdice.sim.godice import SimGoDice
from reader.smartdice.sim.peripheral import SimPeripheral
from reader.smartdice.sim.pixels import SimPixel
from reader.smartdice.source import SmartDiceSource
from rules.dice import DiceRequest, DieSpec, Role, Throw
from rules.dice import requested
from rules.notation import parse_die_code
from rules.opend6 import OpenD6Check, resolve_check
from rules.protocol import drive_async
from rules.result import CheckResult, Outcome

WILD_RED = argparse.Namespace(wild="red", tens=None)  # what the command line designates by default
Script = Callable[[], Awaitable[None]]
FAST = Backoff(first=0.01, cap=0.05, scan_window=0.5, connect_timeout=1.0)


class Table:
    """A simulated world, the player's registered dice and scripted hands for each request."""

    def __init__(self, family: Family) -> None:
        self.world = SimWorld(advert_interval=0.005)
        self.family = family
        self.registered: list[RegisteredDie] = []
        self.scripts: list[Script] = []
        self.notices: list[str] = []
        self.prompts: list[DiceRequest] = []
        self._tasks: list[asyncio.Task[None]] = []

    def pixel(self, pixel_id: int, die_type: PixelsDieType = PixelsDieType.D6, colour: str | None = None,
              legacy: bool = False, register: bool = True) -> SimPixel:
        die = self.world.add(SimPixel(pixel_id, die_type, legacy=legacy))
        if register:
            self.registered.append(RegisteredDie(f"{pixel_id:08x}", Family.PIXELS, "d6" if die_type is
                                                 PixelsDieType.D6 else die_type.name.lower(), colour=colour))
        return die

    def godice(self, die_id: str, colour: GoDiceColour, shell: Shell = Shell.D6, register: bool = True) -> SimGoDice:
        die = self.world.add(SimGoDice(die_id, colour, shell))
        if register:
            self.registered.append(RegisteredDie(die_id, Family.GODICE, shell.value, colour=colour.word))
        return die

    def source(self, timeout: float = 5.0, led: bool = False) -> SmartDiceSource:
        def prompt(request: DiceRequest) -> None:
            self.prompts.append(request)
            if self.scripts:
                self._tasks.append(asyncio.get_running_loop().create_task(self.scripts.pop(0)()))

        return SmartDiceSource(self.family, self.registered, timeout=timeout, led=led,
                               backends=self.world.backends(), backoff=FAST, notify=self.notices.append,
                               on_prompt=prompt)

    async def check(self, params: OpenD6Check, led: bool = False) -> tuple[CheckResult, list[Throw]]:
        source = self.source(led=led)
        throws: list[Throw] = []

        async def answer(request: DiceRequest) -> Throw:
            throws.append(await source.throw(designate(request, WILD_RED)))
            return throws[-1]

        try:
            result = await drive_async(resolve_check(params), answer)
            await source.show_outcome(result)
        finally:
            await source.close()
            for task in self._tasks:
                await task  # scripts must have finished cleanly
        return result, throws


async def connected(*dice: SimPeripheral) -> None:
    for die in dice:
        await die.wait_connected()


def check_3d(difficulty: int = 10) -> OpenD6Check:
    return OpenD6Check(parse_die_code("3D"), difficulty)


def test_pixels_opend6_check_end_to_end() -> None:
    table = Table(Family.PIXELS)
    red = table.pixel(0x06F08A5A, colour="red")
    plain = [table.pixel(0x11110001), table.pixel(0x11110002, legacy=True)]  # both firmware generations
    stranger = table.pixel(0x0BADF00D, register=False)

    async def throw() -> None:
        await connected(red, *plain)
        await plain[0].roll(5)
        await red.roll(4)
        await stranger.roll(6)  # someone else's die: never connected, never counted
        await plain[1].roll(3)

    table.scripts.append(throw)
    result, throws = asyncio.run(table.check(check_3d(), led=True))
    assert [(f.value, f.role, f.colour, f.die_id) for f in result.faces] == [
        (4, Role.WILD, "red", "06f08a5a"), (5, None, None, "11110001"), (3, None, None, "11110002")]
    assert result.total == 12 and result.outcome is Outcome.SUCCESS
    assert stranger.client is None and stranger.sent == []
    packets = throws[0].evidence["smartdice"]["packets"]
    assert {"die": "06f08a5a", "hex": "030103"} in [{k: p[k] for k in ("die", "hex")} for p in packets]
    assert all(p["die"] != "0badf00d" for p in packets)
    assert red.blinks == [0x00FF00]  # --led: the wild die blinks green on success
    assert plain[0].blinks == []
    assert any("battery 80%" in n for n in table.notices)


def test_godice_opend6_check_with_exploding_wild_die() -> None:
    table = Table(Family.GODICE)
    red = table.godice("8A8272", GoDiceColour.RED)
    black = table.godice("8A8273", GoDiceColour.BLACK)
    green = table.godice("8A8274", GoDiceColour.GREEN)
    table.godice("B0940", GoDiceColour.RED, register=False)  # a stranger's red die

    async def first() -> None:
        await connected(red, black, green)
        await red.roll(6)
        await black.roll(2)
        await green.roll(1)

    async def again() -> None:
        await red.roll(3)

    table.scripts += [first, again]
    result, throws = asyncio.run(table.check(check_3d(10), led=True))
    assert [t.values for t in throws] == [(6, 2, 1), (3,)]
    assert table.prompts[1].purpose.startswith("wild die again")
    assert result.total == 12 and result.outcome is Outcome.CRITICAL_SUCCESS
    assert throws[0].faces[0].colour == "red" and throws[0].faces[0].die_id == "8A8272"
    assert red.leds == [bytes([0x10, 3, 40, 30, 0, 255, 0, 1, 0])]  # blinks green
    assert black.leds == []


@pytest.mark.parametrize("legacy", [False, True])
def test_pixels_link_drops_mid_roll_and_reconnects(legacy: bool) -> None:
    table = Table(Family.PIXELS)
    red = table.pixel(0x0000000A, colour="red", legacy=legacy)
    other = table.pixel(0x0000000B)
    third = table.pixel(0x0000000C)

    async def throw() -> None:
        await connected(red, other, third)
        await other.roll(2)
        red.start_rolling()
        red.drop_link()  # the link drops while the wild die tumbles...
        red.land(5)  # ...and it comes to rest unheard
        await red.wait_connected()  # the source finds it again and asks WhoAreYou
        other.drop_link()  # a settled die drops too: its face must not count twice
        await other.wait_connected()
        await third.roll(6)

    table.scripts.append(throw)
    result, throws = asyncio.run(table.check(check_3d()))
    assert throws[0].values == (5, 2, 6)
    assert table.world.connects == 5
    assert sum("dropped" in n for n in table.notices) == 2


def test_godice_link_drops_mid_roll_and_reconnects() -> None:
    table = Table(Family.GODICE)
    red = table.godice("0000A1", GoDiceColour.RED)
    blue = table.godice("0000A2", GoDiceColour.BLUE)
    yellow = table.godice("0000A3", GoDiceColour.YELLOW)

    async def throw() -> None:
        await connected(red, blue, yellow)
        await blue.roll(4)
        red.start_rolling()
        red.drop_link()
        red.land(3)
        await red.wait_connected()  # initialisation reports the current face
        await yellow.roll(5)

    table.scripts.append(throw)
    result, throws = asyncio.run(table.check(check_3d()))
    assert throws[0].values == (3, 4, 5)


def test_picked_up_without_rolling_is_not_a_throw() -> None:
    table = Table(Family.PIXELS)
    red = table.pixel(0x000000A1, colour="red")
    plain = [table.pixel(0x000000A2), table.pixel(0x000000A3)]

    async def throw() -> None:
        await connected(red, *plain)
        await red.pick_up(6)  # turned to 6 by hand: handling, then on face
        await plain[0].pick_up()
        await asyncio.sleep(0.05)
        await red.roll(2)
        for die, face in zip(plain, (3, 4)):
            await die.roll(face)

    table.scripts.append(throw)
    result, throws = asyncio.run(table.check(check_3d()))
    assert throws[0].values == (2, 3, 4)
    assert any("without a roll" in n for n in table.notices)


def test_godice_fake_roll_and_tilt_are_reported_not_counted() -> None:
    table = Table(Family.GODICE)
    red = table.godice("0000B1", GoDiceColour.RED)
    others = [table.godice("0000B2", GoDiceColour.GREEN), table.godice("0000B3", GoDiceColour.BLUE)]

    async def throw() -> None:
        await connected(red, *others)
        red.start_rolling()
        await red.fake_roll(6)  # dropped, not thrown
        await red.roll_tilted()
        await asyncio.sleep(0.05)
        await red.roll(1)
        for die, face in zip(others, (6, 6)):
            await die.roll(face)

    table.scripts.append(throw)
    result, throws = asyncio.run(table.check(check_3d(), led=True))
    assert throws[0].values == (1, 6, 6)
    assert red.leds == [bytes([0x10, 3, 40, 30, 255, 0, 0, 1, 0])]  # --led: red on failure
    assert any("without a roll" in n for n in table.notices)
    assert any("tilted" in n for n in table.notices)
    assert result.outcome is Outcome.CRITICAL_FAILURE


def test_timeout_says_what_is_missing() -> None:
    table = Table(Family.PIXELS)
    red = table.pixel(0x000000C1, colour="red")
    table.registered.append(RegisteredDie("000000c2", Family.PIXELS, "d6"))  # registered, never in range

    async def run() -> None:
        source = table.source(timeout=0.4)
        try:
            await source.throw(DiceRequest((DieSpec(6, Role.WILD, "red"), DieSpec(6))))
        finally:
            await source.close()

    with pytest.raises(ThrowTimeout) as caught:
        asyncio.run(run())
    text = str(caught.value)
    assert "wild die red d6 (pixels 000000c1): not rolled yet" in text
    assert "d6 (pixels 000000c2): not connected" in text
    assert red.client is None  # closed


def _sum_d20_plus_wild() -> Generator[DiceRequest, Throw, int]:
    """A small resolver of our own: a d20 and a red wild d6, summed."""
    throw = yield DiceRequest((DieSpec(6, Role.WILD, "red"), *requested(20)))
    return sum(throw.values)


def test_mixed_die_types_with_a_small_resolver() -> None:
    table = Table(Family.PIXELS)
    red = table.pixel(0x000000D1, colour="red")
    d20 = table.pixel(0x000000D2, PixelsDieType.D20)
    d00 = table.pixel(0x000000D3, PixelsDieType.D00)  # registered but not asked for

    async def run() -> int:
        source = table.source()
        task = None

        def go(_request: DiceRequest) -> None:
            nonlocal task

            async def hands() -> None:
                await connected(red, d20, d00)
                await d00.roll(70)
                await d20.roll(17)
                await red.roll(3)
            task = asyncio.get_running_loop().create_task(hands())

        source._on_prompt = go
        try:
            return await drive_async(_sum_d20_plus_wild(), source.throw)
        finally:
            await source.close()
            await task

    assert asyncio.run(run()) == 20


def test_simulated_backends_satisfy_bleak_and_serve_real_bytes() -> None:
    from bleak import BleakClient, BleakScanner

    from reader.smartdice.gatt_ids import PIXELS_NOTIFY, PIXELS_WRITE
    from reader.smartdice.pixels_messages import IAmADie, decode_message, who_are_you

    world = SimWorld()
    world.add(SimPixel(0x06F08A5A, PixelsDieType.D20))
    backends = world.backends()
    assert not backends.scanner.__abstractmethods__ and not backends.client.__abstractmethods__

    async def run() -> object:
        device = await BleakScanner.find_device_by_filter(lambda d, adv: 0x0D39 in adv.manufacturer_data,
                                                          timeout=2, backend=backends.scanner)
        assert device is not None and device.name == "Pixel06f08a5a"
        replies: asyncio.Queue[bytes] = asyncio.Queue()
        async with BleakClient(device, backend=backends.client) as client:
            await client.start_notify(PIXELS_NOTIFY, lambda _c, data: replies.put_nowait(bytes(data)))
            await client.write_gatt_char(PIXELS_WRITE, who_are_you(), response=True)
            return decode_message(await asyncio.wait_for(replies.get(), 2))

    info = asyncio.run(run())
    assert isinstance(info, IAmADie) and info.pixel_id == 0x06F08A5A and info.die_type is PixelsDieType.D20
