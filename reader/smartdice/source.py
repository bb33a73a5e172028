"""The smart-dice :class:`~reader.sources.base.DiceSource`: registered dice, read over Bluetooth.

Notifications are decoded and applied synchronously in bleak's callback, so the throw
completes the moment the last die's rest notification arrives. Raw packets of the dice
taking part are kept, with their time since the request, in ``Throw.evidence["smartdice"]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable, Sequence

from reader.smartdice.die_events import Notice, Status
from reader.smartdice.errors import DiceLinkError, PacketError, RegistryError, SmartDiceError, ThrowTimeout
from reader.smartdice.godice_driver import GoDiceDriver
from reader.smartdice.godice_faces import Shell
from reader.smartdice.link import Backends, Backoff, DiceLinks
from reader.smartdice.pixels_driver import PixelsDriver
from reader.smartdice.registry import PIXELS_TYPES, Family, RegisteredDie, Registry
from reader.smartdice.throws import ThrowTracker
from reader.sources.base import DiceSource
from rules.dice import DiceRequest, Throw
from rules.result import CheckResult

Driver = PixelsDriver | GoDiceDriver


def make_driver(die: RegisteredDie) -> Driver:
    """The protocol interpreter for one registered die."""
    if die.family is Family.PIXELS:
        return PixelsDriver(PIXELS_TYPES[die.die_type])
    return GoDiceDriver(Shell(die.die_type))


def say(text: str) -> None:
    """Default notice sink: one line on stderr (stdout stays clean for --json)."""
    sys.stderr.write(f"dicetable: {text}\n")
    sys.stderr.flush()


class SmartDiceSource(DiceSource):
    """Reads throws from the registered dice of one family.

    ``on_prompt`` is called with each request when the source starts waiting for it (the
    command line tells the player what to roll; simulations start rolling).
    """

    def __init__(self, family: Family, dice: Sequence[RegisteredDie], *, timeout: float = 120.0,
                 led: bool = False, backends: Backends = Backends(), backoff: Backoff = Backoff(),
                 notify: Callable[[str], None] = say,
                 on_prompt: Callable[[DiceRequest], None] | None = None) -> None:
        self.name = family.value
        self._dice = [d for d in dice if d.family is family]
        if not self._dice:
            raise RegistryError(f"no {family.value} dice are registered: find them with 'dicetable dice scan' "
                                "and register them with 'dicetable dice add'")
        self._drivers = {d.die_id: make_driver(d) for d in self._dice}
        self._timeout = timeout
        self._led = led
        self._notify = notify
        self._on_prompt = on_prompt
        self._links = DiceLinks(self._dice, self._drivers, on_packet=self._packet,  # type: ignore[arg-type]
                                on_connection=self._connection, on_failure=self._failed,
                                backends=backends, backoff=backoff)
        self._tracker: ThrowTracker | None = None
        self._done: asyncio.Event | None = None
        self._failure: SmartDiceError | None = None
        self._started = 0.0
        self._evidence: list[dict[str, object]] = []
        self._last: list[RegisteredDie] = []
        self._announced: set[str] = set()

    async def throw(self, request: DiceRequest) -> Throw:
        tracker = ThrowTracker(request, self._dice)
        self._tracker, self._done, self._evidence = tracker, asyncio.Event(), []
        self._started = time.perf_counter()
        self._links.start()
        if self._failure is not None:
            raise self._failure
        if self._on_prompt is not None:
            self._on_prompt(request)
        try:
            await asyncio.wait_for(self._done.wait(), self._timeout)
        except asyncio.TimeoutError:
            raise ThrowTimeout(f"no complete throw within {self._timeout:g} s; waiting for: "
                               + "; ".join(self._why(tracker))) from None
        finally:
            self._tracker = None
        if self._failure is not None:
            raise self._failure
        self._last = [s.die for s in tracker.slots if s.die]
        taking_part = {d.die_id for d in self._last}
        evidence = {"smartdice": {"family": self.name,
                                  "packets": [p for p in self._evidence if p["die"] in taking_part]}}
        return tracker.throw(self.name, evidence)

    def _why(self, tracker: ThrowTracker) -> list[str]:
        offline = [f"{d.label()}: not connected" for d in tracker.dice if not self._links.is_connected(d)]
        return tracker.pending() + offline

    async def show_outcome(self, result: CheckResult) -> None:
        """With ``--led``: blink the designated dice (all dice when none is) green or red."""
        if not self._led or not self._last:
            return
        designated = {f.die_id for f in result.faces if f.role is not None and f.die_id}
        dice = [d for d in self._last if d.die_id in designated] or self._last
        for die in dice:
            if not await self._links.send(die, self._drivers[die.die_id].outcome(result.outcome.succeeded)):
                self._notify(f"{die.label()}: could not show the outcome on its LEDs")

    async def close(self) -> None:
        await self._links.close()

    def _packet(self, die: RegisteredDie, data: bytes) -> None:
        tracker = self._tracker
        if tracker is not None:
            self._evidence.append({"die": die.die_id, "t": round(time.perf_counter() - self._started, 4),
                                   "hex": data.hex()})
        try:
            events = self._drivers[die.die_id].events(data)
        except PacketError as err:
            self._notify(f"{die.label()}: ignored a corrupt packet {data.hex()} ({err})")
            return
        for event in events:
            if isinstance(event, Status):
                self._status(die, event)
            elif isinstance(event, Notice):
                self._notify(f"{die.label()}: {event.text}")
            elif tracker is not None:
                for text in tracker.feed(die, event):
                    self._notify(text)
        if tracker is not None and tracker.complete and self._done is not None:
            self._done.set()

    def _status(self, die: RegisteredDie, status: Status) -> None:
        if status.battery is not None and die.die_id not in self._announced:
            self._announced.add(die.die_id)
            self._notify(f"{die.label()} connected, battery {status.battery}%")
        if status.colour is not None and die.colour and status.colour != die.colour.lower():
            self._notify(f"{die.label()} reports the colour {status.colour}")

    def _connection(self, die: RegisteredDie, connected: bool) -> None:
        if not connected:
            self._announced.discard(die.die_id)
            self._notify(f"{die.label()} dropped its connection; reconnecting")

    def _failed(self, error: DiceLinkError) -> None:
        self._failure = error
        if self._done is not None:
            self._done.set()


def open_smartdice_source(scheme: str, rest: str, args: argparse.Namespace) -> DiceSource:
    """``--source pixels`` / ``--source godice`` (``:sim`` for a simulated table of the registered dice)."""
    family = Family(scheme)
    dice = Registry.load().of_family(family)
    options = {"timeout": args.timeout, "led": args.led, "on_prompt": _prompt}
    if rest == "sim":
        from reader.smartdice.sim.demo import demo_source

        return demo_source(family, dice, seed=args.seed, **options)
    if rest:
        raise SmartDiceError(f"unknown --source {scheme}:{rest}; use {scheme} or {scheme}:sim")
    return SmartDiceSource(family, dice, **options)


def _prompt(request: DiceRequest) -> None:
    say(f"roll {request.describe()} ({request.purpose})")
