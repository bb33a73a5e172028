"""Exact distributions of integer dice totals, as integer counts over a common denominator.

A :class:`Dist` holds exact point masses for every value below ``top`` and, for dice that
explode without bound, the exact mass of the whole tail ``value >= top`` in one number. A
censored tail loses nothing: ``P(X >= t)`` and ``P(X <= t)`` stay exact for every ``t`` up
to ``top``, and sums and mixtures carry the tail along (the sum of two censored variables
is exact below the smallest value a tail can reach). Queries beyond ``top`` raise, so a
caller can never read a truncated probability as an exact one: it builds the exploding
dice deeper instead (see :func:`exploding`). Integer arithmetic keeps this fast; fractions
appear only in answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
import sys
from array import array
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from rules.errors import RulesError


@dataclass(frozen=True, slots=True)
class Dist:
    """An integer random variable: ``P(X = low + i) = counts[i] / denom`` below ``top``.

    ``tail`` is the count of the mass at ``X >= top`` (``top = low + len(counts)``); it is 0
    for a variable with finite support.
    """

    low: int
    counts: tuple[int, ...]
    denom: int
    tail: int = 0

    def __post_init__(self) -> None:
        if sum(self.counts) + self.tail != self.denom or self.denom <= 0:
            raise ValueError("counts and tail must add up to the denominator")

    @property
    def top(self) -> int:
        """First value not held exactly (only meaningful when ``tail`` is not 0)."""
        return self.low + len(self.counts)

    @property
    def finite(self) -> bool:
        """True when every value's mass is known (no censored tail)."""
        return self.tail == 0

    def items(self) -> Iterable[tuple[int, Fraction]]:
        """``(value, probability)`` for every exactly known value with a non-zero mass."""
        return ((self.low + i, Fraction(c, self.denom)) for i, c in enumerate(self.counts) if c)

    @property
    def tail_probability(self) -> Fraction:
        """``P(X >= top)`` when the tail is censored, else 0."""
        return Fraction(self.tail, self.denom)

    def prob(self, value: int) -> Fraction:
        """``P(X = value)``; raises for values inside a censored tail."""
        self._known(value, inclusive=False)
        i = value - self.low
        return Fraction(self.counts[i], self.denom) if 0 <= i < len(self.counts) else Fraction(0)

    def at_least(self, value: int) -> Fraction:
        """``P(X >= value)``, exact for every value up to ``top``."""
        self._known(value, inclusive=True)
        i = max(0, value - self.low)
        return Fraction(sum(self.counts[i:]) + self.tail, self.denom)

    def at_most(self, value: int) -> Fraction:
        """``P(X <= value)``, exact for every value below ``top``."""
        return 1 - self.at_least(value + 1)

    def _known(self, value: int, inclusive: bool) -> None:
        limit = self.top if inclusive else self.top - 1
        if self.tail and value > limit:
            raise RulesError(f"P(X >= {value}) lies in the censored tail (>= {self.top}); explode deeper")

    def mean(self) -> Fraction:
        """The mean; only for finite distributions."""
        if self.tail:
            raise RulesError("the mean of a censored distribution is not held exactly")
        return Fraction(sum((self.low + i) * c for i, c in enumerate(self.counts)), self.denom)

    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):
            return Dist(self.low + other, self.counts, self.denom, self.tail)
        return convolve(self, other)

    __radd__ = __add__

    def __neg__(self) -> Dist:
        self._require_finite("negate")
        return Dist(-(self.top - 1), tuple(reversed(self.counts)), self.denom)

    def __sub__(self, other: Dist | int) -> Dist:
        return self + (-other)

    def map(self, f: Callable[[int], int]) -> Dist:
        """The distribution of ``f(X)``; only for finite distributions."""
        self._require_finite("map")
        return from_counts(_accumulate((f(v), c) for v, c in self.pairs()), self.denom)

    def pairs(self) -> Iterable[tuple[int, int]]:
        """``(value, count)`` for every exactly known value with a non-zero count."""
        return ((self.low + i, c) for i, c in enumerate(self.counts) if c)

    def count(self, value: int) -> int:
        """The count of ``value`` (0 outside the exact range)."""
        i = value - self.low
        return self.counts[i] if 0 <= i < len(self.counts) else 0

    def _require_finite(self, what: str) -> None:
        if self.tail:
            raise RulesError(f"cannot {what} a distribution with a censored tail")

    def to_json(self) -> dict[str, object]:
        """Point probabilities as floats keyed by value, plus the censored tail if any."""
        out: dict[str, object] = {"p": {str(v): float(p) for v, p in self.items()}}
        if self.tail:
            out["at_least"] = {"value": self.top, "p": float(self.tail_probability)}
        return out


def _accumulate(pairs: Iterable[tuple[int, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for value, count in pairs:
        out[value] = out.get(value, 0) + count
    return out


def from_counts(counts: Mapping[int, int], denom: int, tail: int = 0, top: int | None = None) -> Dist:
    """A distribution from ``{value: count}``; a non-zero ``tail`` sits at ``X >= top``."""
    if not counts:
        if top is None:
            raise ValueError("an empty distribution needs a censored tail and its top")
        return Dist(top, (), denom, tail)
    low = min(counts)
    high = max(counts) + 1 if top is None else top
    if tail and top is None:
        raise ValueError("a censored tail needs its top")
    return Dist(low, tuple(counts.get(v, 0) for v in range(low, high)), denom, tail)


def from_fractions(probabilities: Mapping[int, Fraction], tail: Fraction = Fraction(0),
                   top: int | None = None) -> Dist:
    """A distribution from ``{value: probability}`` (probabilities and tail add up to 1)."""
    denom = lcm(tail.denominator, *(p.denominator for p in probabilities.values()))
    counts = {v: int(p * denom) for v, p in probabilities.items() if p}
    return from_counts(counts, denom, int(tail * denom), top)


def constant(value: int) -> Dist:
    """A number that is not rolled."""
    return Dist(value, (1,), 1)


def die(sides: int) -> Dist:
    """One fair die, 1..``sides``."""
    return Dist(1, (1,) * sides, sides)


def convolve(a: Dist, b: Dist) -> Dist:
    """The distribution of the sum of two independent variables."""
    for x, y in ((a, b), (b, a)):
        if y.denom == 1:  # a constant: a shift
            return Dist(x.low + y.low, x.counts, x.denom, x.tail)
    width = _width(a.denom * b.denom)
    sums = _unpack(_pack(a.counts, width) * _pack(b.counts, width), width, len(a.counts) + len(b.counts) - 1)
    return _censor(a.low + b.low, sums, a.denom * b.denom, [t.top + o.low for t, o in ((a, b), (b, a)) if t.tail])


def repeat(d: Dist, n: int) -> Dist:
    """The sum of ``n`` independent copies of ``d`` (``n >= 0``), as one big-integer power."""
    if n == 0:
        return constant(0)
    denom = d.denom ** n
    width = _width(denom)
    sums = _unpack(_pack(d.counts, width) ** n, width, n * (len(d.counts) - 1) + 1)
    return _censor(n * d.low, sums, denom, [d.top + (n - 1) * d.low] if d.tail else [])


def _censor(low: int, sums: list[int], denom: int, tail_starts: list[int]) -> Dist:
    """The sum's counts, cut where a censored operand's tail can first reach (the rest is the tail)."""
    if not tail_starts:
        return Dist(low, tuple(sums), denom)
    kept = tuple(sums[:max(0, min(min(tail_starts) - low, len(sums)))])
    return Dist(low, kept, denom, denom - sum(kept))


# Polynomial products by Kronecker substitution: counts packed into one integer, one slot of
# ``width`` bytes per value, so CPython's big-integer multiplication does the convolution.
# Slots of 8 bytes go through ``array('Q')`` (C speed) on little-endian machines.
_FAST = sys.byteorder == "little"


def _width(bound: int) -> int:
    """Bytes per slot: enough for any coefficient of a product whose counts add up to ``bound``."""
    width = bound.bit_length() // 8 + 1
    return 8 if width <= 8 and _FAST else width


def _pack(counts: tuple[int, ...], width: int) -> int:
    if width == 8 and _FAST:
        return int.from_bytes(array("Q", counts).tobytes(), "little")
    return int.from_bytes(b"".join(c.to_bytes(width, "little") for c in counts), "little")


def _unpack(value: int, width: int, length: int) -> list[int]:
    raw = value.to_bytes(width * length, "little")
    if width == 8 and _FAST:
        return array("Q", raw).tolist()
    return [int.from_bytes(raw[i:i + width], "little") for i in range(0, width * length, width)]


def mix(parts: Iterable[tuple[Fraction, Dist]]) -> Dist:
    """The mixture: with probability ``w`` the variable follows the paired distribution."""
    chosen = [(Fraction(w), d) for w, d in parts if w]
    denom = lcm(*(w.denominator * d.denom for w, d in chosen))
    tops = [d.top for _, d in chosen if d.tail]
    top = min(tops) if tops else None
    counts: dict[int, int] = {}
    for w, d in chosen:
        scale = w.numerator * (denom // (w.denominator * d.denom))
        for v, c in d.pairs():
            if top is None or v < top:
                counts[v] = counts.get(v, 0) + c * scale
    return from_counts(counts, denom, denom - sum(counts.values()), top)


def exploding(sides: int, depth: int) -> Dist:
    """A die that is thrown again and added while it shows ``sides``, held exactly to ``depth`` rethrows.

    Values below ``sides * (depth + 1)`` are exact; the mass of every longer chain
    (``(1/sides) ** (depth + 1)``) is the censored tail at ``X >= sides * (depth + 1)``, so no
    probability is lost or misplaced.
    """
    rounds = depth + 1
    counts: dict[int, int] = {}
    for k in range(rounds):
        weight = sides ** (rounds - k - 1)  # one chain of k sixes then a stop, over sides**rounds
        for face in range(1, sides):
            counts[sides * k + face] = weight
    return from_counts(counts, sides ** rounds, 1, sides * rounds)


def explode_depth_for(threshold: int, sides: int = 6) -> int:
    """The rethrow depth that keeps ``P(X >= threshold)`` exact for one exploding die."""
    return max(0, -(-threshold // sides) - 1)
