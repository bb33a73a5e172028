"""The interface every dice source implements."""

from __future__ import annotations

from abc import ABC, abstractmethod

from rules.dice import DiceRequest, Throw
from rules.result import CheckResult


class DiceSource(ABC):
    """A source of thrown dice.

    ``throw`` waits until the dice asked for have been thrown and read (or raises a typed
    :class:`rules.errors.DicetableError` that says why not). Sources that only compute
    (virtual, scripted) also offer :meth:`throw_now` for synchronous callers.
    """

    name: str = "source"

    @abstractmethod
    async def throw(self, request: DiceRequest) -> Throw:
        """Deliver one throw answering ``request``, faces in request order."""

    async def show_outcome(self, result: CheckResult) -> None:
        """Give feedback on the resolved check where the hardware can (LEDs); default: nothing."""

    async def close(self) -> None:
        """Release the device; default: nothing to release."""

    def finish(self) -> None:
        """Called after the last request of a check; scripted faces complain about leftovers here."""


class ComputedSource(DiceSource):
    """A source that needs no I/O and can answer synchronously."""

    @abstractmethod
    def throw_now(self, request: DiceRequest) -> Throw:
        """Answer ``request`` at once."""

    async def throw(self, request: DiceRequest) -> Throw:
        return self.throw_now(request)
