"""Dice notation: ``XdY+Z`` expressions (d20 core) and OpenD6 die codes (``4D+1``).

The grammar is small and parsed by hand, with limits against abuse (a chat bot or a
mistyped ``100000d6`` must not hang the table):

    expression := term (("+" | "-") term)*
    term       := [count] ("d" | "D") (sides | "%")   -- dice
                | number                              -- a constant
    die_code   := count ("D" | "d") [("+" | "-") pips]

A term with no sides (``4D``) is an OpenD6 die code, not dice notation; :func:`parse_die_code`
reads those. ``d%`` and ``d100`` are two d10, the tens die designated before the throw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.dice import STANDARD_SIDES
from rules.errors import NotationError

MAX_DICE = 1000  # per expression: more is a typo or abuse, never a real table
MAX_TERMS = 50
MAX_CONSTANT = 1_000_000
MAX_LENGTH = 200
PERCENTILE = 100  # ``sides`` of a d% term

_TERM = re.compile(r"(\d*)[dD](\d+|%)|(\d+)")
_DIE_CODE = re.compile(r"\s*(\d+)\s*[dD]\s*(?:([+-])\s*(\d+))?\s*")


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` (``PERCENTILE`` for d%), added (sign +1) or subtracted (-1)."""

    count: int
    sides: int
    sign: int = 1

    def __str__(self) -> str:
        return f"{self.count}d{'%' if self.sides == PERCENTILE else self.sides}"


@dataclass(frozen=True, slots=True)
class Constant:
    """A number added to (or, when negative, subtracted from) the total."""

    value: int

    def __str__(self) -> str:
        return str(abs(self.value))


Term = DiceTerm | Constant


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed dice expression: terms in the order written."""

    terms: tuple[Term, ...]

    @property
    def dice(self) -> tuple[DiceTerm, ...]:
        """The dice terms only."""
        return tuple(t for t in self.terms if isinstance(t, DiceTerm))

    @property
    def constant(self) -> int:
        """The sum of the constant terms."""
        return sum(t.value for t in self.terms if isinstance(t, Constant))

    def __str__(self) -> str:
        text = ""
        for term in self.terms:
            negative = term.sign < 0 if isinstance(term, DiceTerm) else term.value < 0
            text += ("-" if negative else "+" if text else "") + str(term)
        return text


@dataclass(frozen=True, slots=True)
class DieCode:
    """An OpenD6 die code: ``dice`` six-sided dice plus ``pips`` (may be negative)."""

    dice: int
    pips: int = 0

    def __str__(self) -> str:
        return f"{self.dice}D" + (f"{self.pips:+d}" if self.pips else "")


def _check_length(text: str) -> None:
    if len(text) > MAX_LENGTH:
        raise NotationError(f"dice expression longer than {MAX_LENGTH} characters")
    if not text.strip():
        raise NotationError("empty dice expression")


def parse_expression(text: str) -> Expression:
    """Parse ``XdY+Z``-style notation, e.g. ``3d4+3``, ``1d8+1d10``, ``d%``, ``2d6-1``."""
    _check_length(text)
    compact = re.sub(r"\s+", "", text)
    terms: list[Term] = []
    pos, sign, dice = 0, 1, 0
    while True:
        match = _TERM.match(compact, pos)
        if not match:
            raise NotationError(f"malformed dice expression {text!r} at {compact[pos:] or 'its end'!r}")
        count_text, sides_text, number = match.groups()
        if number is not None:
            value = int(number)
            if value > MAX_CONSTANT:
                raise NotationError(f"constant {value} is larger than {MAX_CONSTANT}")
            terms.append(Constant(sign * value))
        else:
            count = int(count_text) if count_text else 1
            sides = PERCENTILE if sides_text in ("%", "100") else int(sides_text)
            if count < 1:
                raise NotationError(f"{compact[match.start():match.end()]!r}: roll at least one die")
            if sides != PERCENTILE and sides not in STANDARD_SIDES:
                raise NotationError(f"there is no d{sides}: dice are d2, d4, d6, d8, d10, d12, d20 and d%")
            dice += count * (2 if sides == PERCENTILE else 1)
            if dice > MAX_DICE:
                raise NotationError(f"more than {MAX_DICE} dice in one expression")
            terms.append(DiceTerm(count, sides, sign))
        if len(terms) > MAX_TERMS:
            raise NotationError(f"more than {MAX_TERMS} terms in one expression")
        pos = match.end()
        if pos == len(compact):
            return Expression(tuple(terms))
        if compact[pos] not in "+-":
            raise NotationError(f"malformed dice expression {text!r}: expected + or - at {compact[pos:]!r}")
        sign = 1 if compact[pos] == "+" else -1
        pos += 1


def parse_die_code(text: str) -> DieCode:
    """Parse an OpenD6 die code such as ``4D``, ``4D+1``, ``2D-1`` (pips may be any size)."""
    _check_length(text)
    match = _DIE_CODE.fullmatch(text)
    if not match:
        raise NotationError(f"malformed die code {text!r}: expected e.g. 4D or 4D+1")
    dice = int(match.group(1))
    pips = int(match.group(3) or 0) * (-1 if match.group(2) == "-" else 1)
    if dice < 1:
        raise NotationError(f"die code {text!r}: at least 1D")
    if dice > MAX_DICE:
        raise NotationError(f"die code {text!r}: more than {MAX_DICE} dice")
    if abs(pips) > MAX_CONSTANT:
        raise NotationError(f"die code {text!r}: pips larger than {MAX_CONSTANT}")
    return DieCode(dice, pips)


def is_die_code(text: str) -> bool:
    """True when ``text`` is an OpenD6 die code (dice with no sides given) rather than notation."""
    return _DIE_CODE.fullmatch(text) is not None
