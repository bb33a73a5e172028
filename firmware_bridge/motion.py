"""Motion started/stopped from the board, for whoever wants to know when the dice are still.

The camera reader's settle detection can be gated by the board's motion sensor: trust a frame
only while the board says the table is still. :class:`MotionFeed` receives the link's events
and offers the state three ways, all safe to use from an asyncio program:

* ``feed.moving`` - the last known state (``None`` before the first motion event);
* ``feed.subscribe(callback)`` - ``callback(MotionEvent)`` in the link's reader thread;
* ``async for event in feed.events(): ...`` - the same events in the caller's event loop;
  ``await feed.wait_still(timeout)`` returns once the board reports the dice stopped.

``SerialDiceSource.motion`` is such a feed; :func:`watch_motion` opens one on a port of
its own for a program that reads dice from somewhere else (the camera) but has a board.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from firmware_bridge.link import BoardEvent, SerialLink
from firmware_bridge.messages import MsgType, read_u32


@dataclass(frozen=True, slots=True)
class MotionEvent:
    """The table started (``moving``) or stopped moving; ``at`` is host ``time.monotonic()``,
    ``board_ms`` the board's own clock in milliseconds."""

    moving: bool
    at: float
    board_ms: int


class MotionFeed:
    """Motion events from a :class:`SerialLink` (attach with ``link.add_listener(feed.handle)``)."""

    def __init__(self) -> None:
        self.moving: bool | None = None
        self.last: MotionEvent | None = None
        self._callbacks: list[Callable[[MotionEvent], None]] = []
        self._lock = threading.Lock()

    def handle(self, event: BoardEvent) -> None:
        """Link listener: pass motion events on, ignore the rest."""
        if event.type not in (MsgType.MOTION_STARTED, MsgType.MOTION_STOPPED):
            return
        motion = MotionEvent(event.type is MsgType.MOTION_STARTED, event.at,
                             read_u32(event.frame.payload, event.type.name))
        with self._lock:
            self.moving = motion.moving
            self.last = motion
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback(motion)

    def subscribe(self, callback: Callable[[MotionEvent], None]) -> Callable[[], None]:
        """Call ``callback`` for each motion event (in the reader thread); returns the unsubscribe function."""
        with self._lock:
            self._callbacks.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)
        return unsubscribe

    async def events(self) -> AsyncIterator[MotionEvent]:
        """Motion events as they come, in the running event loop (until the consumer stops)."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[MotionEvent] = asyncio.Queue()
        unsubscribe = self.subscribe(lambda event: loop.call_soon_threadsafe(queue.put_nowait, event))
        try:
            while True:
                yield await queue.get()
        finally:
            unsubscribe()

    async def wait_still(self, timeout: float | None = None) -> MotionEvent | None:
        """Return at once if the board last said "stopped", else when it does (``None`` if it never
        reported motion); raises ``TimeoutError`` after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        stopped: asyncio.Future[MotionEvent] = loop.create_future()

        def settle(event: MotionEvent) -> None:
            if not stopped.done():
                stopped.set_result(event)

        unsubscribe = self.subscribe(
            lambda event: None if event.moving else loop.call_soon_threadsafe(settle, event))
        try:
            if self.moving is not True:
                return self.last
            return await asyncio.wait_for(stopped, timeout)
        finally:
            unsubscribe()


class watch_motion:  # noqa: N801 - used as a context manager, like open()
    """``with watch_motion("/dev/ttyACM0") as feed:`` a :class:`MotionFeed` on a link of its own."""

    def __init__(self, where: str, timeout: float = 5.0) -> None:
        self.link = SerialLink(where)
        self.feed = MotionFeed()
        self.link.add_listener(self.feed.handle)
        self._timeout = timeout

    def __enter__(self) -> MotionFeed:
        try:
            self.link.open(self._timeout)
        except BaseException:
            self.link.close()
            raise
        return self.feed

    def __exit__(self, *exc: object) -> None:
        self.link.close()
