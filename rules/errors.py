"""Typed errors of the rules layer.

Every user mistake becomes one of these inside the program; the command line turns
them into a one-line message and exit code 2.
"""

from functools import lru_cache
from typing import Protocol, TypeVar


class DicetableError(Exception):
    """Base of every error a user can cause (bad input, unreadable die, missing device)."""


class RulesError(DicetableError):
    """A check was asked for with options the rules do not allow."""


class NotationError(DicetableError):
    """A dice expression or die code could not be parsed, or exceeds the limits."""


class ThrowMismatch(DicetableError):
    """A throw does not answer the request: wrong number of dice, impossible face, wrong roles."""


def require(condition: bool, message: str) -> None:
    """Raise :class:`RulesError` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise RulesError(message)


class Validated(Protocol):
    """Frozen parameters that can check themselves."""

    def validate(self) -> None: ...


V = TypeVar("V", bound=Validated)


@lru_cache(maxsize=512)
def validated(params: V) -> V:
    """``params`` after ``params.validate()``; memoised, since a table repeats the same check
    many times and frozen parameters cannot become invalid (errors are not cached)."""
    params.validate()
    return params
