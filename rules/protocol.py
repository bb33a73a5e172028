"""How resolvers ask for dice: a generator that yields requests and receives throws.

A resolver is a generator function. Each ``yield`` hands a :class:`~rules.dice.DiceRequest`
to whoever drives it and receives the :class:`~rules.dice.Throw` that answers it; the
generator's ``return`` value is the result. Multi-stage checks simply yield again (the
OpenD6 wild die explodes: ask for the wild die alone; a True20 opposed tie: ask both
parties again). Because the resolver never touches a die, the same code runs against
virtual dice, scripted faces, a camera or smart dice, synchronously with :func:`drive`
or inside an asyncio program with :func:`drive_async`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from typing import TypeVar

from rules.dice import DiceRequest, Throw, check_throw

R = TypeVar("R")

#: The type of a resolver in progress: yields requests, receives throws, returns R.
Resolution = Generator[DiceRequest, Throw, R]


def drive(resolution: Resolution[R], answer: Callable[[DiceRequest], Throw]) -> R:
    """Run a resolver to its end, answering each request with ``answer``.

    Every throw is checked against its request (count, sides, designated colours) before the
    resolver sees it, so a resolver can trust what it receives.
    """
    try:
        request = next(resolution)
        while True:
            request = resolution.send(check_throw(request, answer(request)))
    except StopIteration as done:
        return done.value


async def drive_async(resolution: Resolution[R], answer: Callable[[DiceRequest], Awaitable[Throw]]) -> R:
    """:func:`drive` for sources that wait on I/O (camera frames, Bluetooth notifications)."""
    try:
        request = next(resolution)
        while True:
            request = resolution.send(check_throw(request, await answer(request)))
    except StopIteration as done:
        return done.value


def ask(request: DiceRequest) -> Generator[DiceRequest, Throw, Throw]:
    """Sub-generator used inside resolvers: ``throw = yield from ask(request)``."""
    throw = yield request
    return throw
