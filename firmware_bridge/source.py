"""``--source serial:PORT``: dice read (or relayed) by the dice-table board.

``PORT`` is a device path (``/dev/ttyACM0``, ``/dev/serial/by-id/...``), any pyserial URL
(``socket://host:4000``, ``loop://``), ``usb:VID:PID[:SERIAL]`` to find the board by its USB
identity, or ``emulator`` for a simulated board on a pseudo-terminal (demos, no hardware).

A throw: when the board has a popper the source fires it (telling the board which dice it
expects), then waits for a complete board throw - the DIE_FACE events of one throw number -
that arrives after the request. Designated dice are matched by colour first (the red wild
die), the other dice by sides in the board's order. The raw frames (bytes, CRC included,
before COBS) go into ``Throw.evidence["frames"]``; the roll log keeps them as blobs. ``--led`` shows the outcome on the board.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import deque
from collections.abc import Callable

from firmware_bridge.link import BoardError, BoardEvent, SerialLink
from firmware_bridge.messages import Capability, DieFace, DieHint, MsgType, PayloadError, Shown, pack_hint
from firmware_bridge.motion import MotionFeed
from reader.sources.base import DiceSource
from rules.dice import DiceRequest, Face, Throw
from rules.errors import ThrowMismatch
from rules.result import CheckResult, Outcome

#: How long to wait for the board's first handshake (an Uno reboots for about 2 s when opened).
HANDSHAKE_WAIT = 6.0

SHOWN: dict[Outcome, Shown] = {Outcome.SUCCESS: Shown.SUCCESS, Outcome.FAILURE: Shown.FAILURE,
                               Outcome.CRITICAL_SUCCESS: Shown.CRITICAL_SUCCESS,
                               Outcome.CRITICAL_FAILURE: Shown.CRITICAL_FAILURE}


class ThrowTimeout(BoardError):
    """No complete throw came from the board in time."""


def match_faces(request: DiceRequest, faces: list[DieFace]) -> tuple[Face, ...]:
    """Assign a board throw's faces to the request's dice, designated dice by colour first.

    Raises :class:`ThrowMismatch` when the dice read cannot answer the request (wrong count,
    no die of the designated colour, wrong sides): the source never guesses which die is which.
    """
    if len(faces) != request.count:
        raise ThrowMismatch(f"the board read {len(faces)} dice; {request.purpose} needs {request.count} "
                            f"({request.describe()})")
    pool = sorted(faces, key=lambda f: f.index)
    chosen: list[DieFace | None] = [None] * request.count
    for i, spec in enumerate(request.dice):
        if spec.role is not None and spec.colour:
            j = next((k for k, f in enumerate(pool) if f.sides == spec.sides and f.colour == spec.colour), None)
            if j is None:
                read = ", ".join(f"{f.colour or 'uncoloured'} d{f.sides}" for f in faces)
                raise ThrowMismatch(f"{request.purpose}: no {spec.colour} d{spec.sides} for the {spec.role.value} "
                                    f"die among the dice read ({read})")
            chosen[i] = pool.pop(j)
    for i, spec in enumerate(request.dice):
        if chosen[i] is None:
            j = next((k for k, f in enumerate(pool) if f.sides == spec.sides), None)
            if j is None:
                raise ThrowMismatch(f"{request.purpose}: the board read no d{spec.sides} for die {i + 1}")
            chosen[i] = pool.pop(j)
    return tuple(Face(f.value, f.sides, spec.role, f.colour or None, str(f.die_id))
                 for spec, f in zip(request.dice, chosen) if f is not None)


def hint_for(request: DiceRequest) -> tuple[DieHint, ...]:
    """What to tell a popper board about the dice wanted; no hint when it does not fit a frame."""
    hint = tuple(DieHint(spec.sides, spec.colour or "") for spec in request.dice)
    try:
        pack_hint(hint)
    except PayloadError:
        return ()
    return hint


class SerialDiceSource(DiceSource):
    """Dice from a :class:`SerialLink`; ``motion`` is the board's :class:`MotionFeed`."""

    name = "serial"

    def __init__(self, link: SerialLink, *, timeout: float = 120.0, led: bool = False,
                 on_close: Callable[[], None] | None = None) -> None:
        self.link = link
        self.timeout = timeout
        self.led = led
        self.motion = MotionFeed()
        self._on_close = on_close
        self._inbox: deque[BoardEvent] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        link.add_listener(self.motion.handle)
        link.add_listener(self._on_event)
        link.start()

    def _on_event(self, event: BoardEvent) -> None:
        if event.type is not MsgType.DIE_FACE:
            return
        self._inbox.append(event)
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            loop.call_soon_threadsafe(wake.set)

    async def throw(self, request: DiceRequest) -> Throw:
        info = await asyncio.to_thread(self.link.wait_ready, HANDSHAKE_WAIT)
        if Capability.FACES not in info.capabilities:
            raise BoardError(f"board {info.board_id!r} reads no dice faces; use another --source for the dice")
        self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        since = time.monotonic()
        if Capability.POPPER in info.capabilities:
            await asyncio.to_thread(self.link.trigger_roll, hint_for(request))
        events = await self._board_throw(since, since + self.timeout)
        faces = [DieFace.unpack(e.frame.payload) for e in events]
        evidence: dict[str, object] = {
            "board": info.board_id, "firmware": info.firmware_version, "boot_id": events[0].boot_id,
            "throw_no": faces[0].throw_no, "frames": [e.frame.raw() for e in events]}
        return Throw(match_faces(request, faces), self.name, evidence)

    async def _board_throw(self, since: float, deadline: float) -> list[BoardEvent]:
        """The DIE_FACE events of the first board throw completed after ``since``."""
        assert self._wake is not None
        throw_no: int | None = None
        current: dict[int, BoardEvent] = {}  # by index within the board throw
        while True:
            while self._inbox:
                event = self._inbox.popleft()
                face = DieFace.unpack(event.frame.payload)
                if event.at < since or face.index >= face.count:
                    continue  # thrown before anyone asked, or not part of any throw
                if face.throw_no != throw_no:
                    throw_no, current = face.throw_no, {}  # the board started a new throw: the old one is void
                current[face.index] = event
                if len(current) == face.count:
                    return [current[i] for i in range(face.count)]
            self._wake.clear()
            if self._inbox:
                continue
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ThrowTimeout(f"no throw from the board within {self.timeout:g} s")
            try:
                await asyncio.wait_for(self._wake.wait(), remaining)
            except TimeoutError:
                pass

    async def show_outcome(self, result: CheckResult) -> None:
        if not (self.led and self.link.has(Capability.OUTCOME)):
            return
        try:
            await asyncio.to_thread(self.link.show, SHOWN[result.outcome])
        except BoardError as err:  # the check is resolved: report it even if the light stays dark
            sys.stderr.write(f"dicetable: warning: the board did not show the outcome: {err}\n")

    async def close(self) -> None:
        await asyncio.to_thread(self.link.close)
        if self._on_close is not None:
            self._on_close()


def open_serial_source(scheme: str, rest: str, args: argparse.Namespace) -> DiceSource:
    """The factory ``reader.cli.sources`` calls for ``--source serial:REST``."""
    on_close = None
    where = rest
    if rest == "emulator":
        from firmware_bridge.emulator import BoardEmulator, PtyBoard
        board = PtyBoard(BoardEmulator(seed=getattr(args, "seed", None)))
        where, on_close = board.path, board.close
    elif not rest:
        raise BoardError("serial needs a port: serial:/dev/ttyACM0, serial:usb:VID:PID, a pyserial URL "
                         "or serial:emulator")
    return SerialDiceSource(SerialLink(where), timeout=getattr(args, "timeout", 120.0),
                            led=getattr(args, "led", False), on_close=on_close)
