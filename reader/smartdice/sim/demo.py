"""``--source pixels:sim`` / ``godice:sim``: the registered dice on a simulated table.

Each registered die gets a simulated twin (a stranger's die lies in range too, and is
ignored); whenever the source asks for a throw, a simulated player rolls every die to a
random face (repeatable with ``--seed``). Useful to try the command line without dice.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence

from reader.smartdice.godice_faces import Shell, printed_faces
from reader.smartdice.godice_messages import GoDiceColour
from reader.smartdice.pixels_faces import FACE_COUNT, PixelsDieType, shown_face
from reader.smartdice.registry import PIXELS_TYPES, Family, RegisteredDie
from reader.smartdice.link import Backoff
from reader.smartdice.sim.backend import SimWorld
from reader.smartdice.sim.godice import SimGoDice
from reader.smartdice.sim.peripheral import SimPeripheral
from reader.smartdice.sim.pixels import SimPixel
from reader.smartdice.source import SmartDiceSource
from rules.dice import DiceRequest

_COLOURS = {c.word: c for c in GoDiceColour}


def twin(die: RegisteredDie, number: int) -> SimPeripheral:
    """A simulated die answering to a registered one."""
    if die.family is Family.PIXELS:
        try:
            pixel_id = int(die.die_id, 16) & 0xFFFFFFFF
        except ValueError:
            pixel_id = 0x5100_0000 + number
        return SimPixel(pixel_id, PIXELS_TYPES[die.die_type], address=die.address)
    return SimGoDice(die.die_id, _COLOURS.get((die.colour or "").lower(), GoDiceColour.BLACK),
                     Shell(die.die_type), address=die.address)


def stranger(family: Family) -> SimPeripheral:
    """Someone else's die in range."""
    if family is Family.PIXELS:
        return SimPixel(0x0BAD_F00D, PixelsDieType.D20)
    return SimGoDice("5712A6", GoDiceColour.BLUE)


def faces_of(peripheral: SimPeripheral) -> Sequence[int]:
    """What the simulated die can show."""
    if isinstance(peripheral, SimPixel):
        return sorted({shown_face(peripheral.die_type, i, peripheral.firmware_time)
                       for i in range(FACE_COUNT[peripheral.die_type])})
    assert isinstance(peripheral, SimGoDice)
    return printed_faces(peripheral.shell)


class SimPlayer:
    """Rolls every registered twin to a random face whenever a throw is asked for."""

    def __init__(self, dice: Sequence[SimPeripheral], seed: int | None) -> None:
        self._dice = list(dice)
        self._rng = random.Random(seed)
        self._tasks: set[asyncio.Task[None]] = set()

    def __call__(self, request: DiceRequest) -> None:
        task = asyncio.get_running_loop().create_task(self._throw())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _throw(self) -> None:
        for peripheral in self._dice:
            await peripheral.wait_connected(timeout=30)
        for peripheral in self._dice:
            face = self._rng.choice(list(faces_of(peripheral)))
            await peripheral.roll(face)  # type: ignore[attr-defined]


def demo_source(family: Family, dice: Sequence[RegisteredDie], *, seed: int | None, timeout: float, led: bool,
                on_prompt: Callable[[DiceRequest], None]) -> SmartDiceSource:
    """A smart-dice source reading simulated twins of the registered dice."""
    world = SimWorld()
    twins = [world.add(twin(d, n)) for n, d in enumerate(dice) if d.family is family]
    world.add(stranger(family))
    player = SimPlayer(twins, seed)

    def prompt(request: DiceRequest) -> None:
        on_prompt(request)
        player(request)

    return SmartDiceSource(family, dice, timeout=timeout, led=led, backends=world.backends(),
                           backoff=Backoff(first=0.05, cap=0.5, scan_window=1.0), on_prompt=prompt)


def demo_world() -> SimWorld:
    """A demo table for ``dicetable dice scan --sim``: Pixels and GoDice of several kinds."""
    world = SimWorld()
    for number, kind in enumerate((PixelsDieType.D6, PixelsDieType.D6, PixelsDieType.D6, PixelsDieType.D20), 1):
        world.add(SimPixel(0x5100_0000 + number, kind))
    world.add(SimPixel(0x5100_0005, PixelsDieType.D6, legacy=True))
    for number, colour in enumerate((GoDiceColour.RED, GoDiceColour.BLACK, GoDiceColour.GREEN, GoDiceColour.BLUE)):
        world.add(SimGoDice(f"5A000{number}", colour))
    return world
