"""How a rule system plugs its commands into the command line.

Each module ``reader/cli/<system>.py`` lists :class:`Action` objects: the action's name
(``check``, ``attack``, ``opposed``...), the options it takes, a ``parse`` function that
turns parsed options into the resolver's frozen parameter dataclass, and the resolver
itself. Keeping the parameters a value of their own lets ``dicetable odds`` compute the
exact odds of the very check ``dicetable check`` would resolve. The main program adds the options every
action shares (dice source, ``--json``...), drives the resolver against the chosen source
and prints the result, so system modules never deal with sources or output.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from rules.protocol import Resolution


class Printable(Protocol):
    """What a resolver returns to the command line."""

    def to_json(self) -> dict[str, object]: ...

    def summary(self) -> str: ...


@dataclass(frozen=True)
class Action:
    """One ``dicetable ACTION SYSTEM`` command."""

    name: str
    system: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    parse: Callable[[argparse.Namespace], Any]
    resolve: Callable[[Any], Resolution[Any]]

    def build(self, args: argparse.Namespace) -> Resolution[Any]:
        """The resolver in progress for these options (raises :class:`RulesError` on bad ones)."""
        return self.resolve(self.parse(args))


def int_or_name(names: dict[str, int], what: str = "difficulty") -> Callable[[str], int]:
    """An argparse type accepting a number or one of ``names`` (case and spaces/underscores ignored)."""

    def convert(text: str) -> int:
        key = text.strip().lower().replace("_", " ").replace("-", " ")
        if key in names:
            return names[key]
        try:
            return int(text)
        except ValueError:
            choices = ", ".join(sorted(names, key=names.__getitem__))
            raise argparse.ArgumentTypeError(f"{what} must be a number or one of: {choices}") from None

    return convert


def non_negative(text: str) -> int:
    """An argparse type for counts that cannot be negative."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, not {value}")
    return value

