"""The odds of one check: what ``dicetable odds`` prints and ``dicetable check`` shows first."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.odds.dist import Dist, from_fractions
from rules.odds.tree import Leaves, enumerate_checks
from rules.protocol import Resolution
from rules.result import Outcome


@dataclass(frozen=True)
class Odds:
    """Exact probabilities of a check's outcomes, before any die is thrown.

    ``success`` is ``None`` for rolls without a difficulty. ``outcomes`` maps every
    :class:`~rules.result.Outcome` to its probability. ``total`` and ``margin`` are the
    distributions of the result's total and margin (``margin`` ``None`` when the check has
    none). ``error`` bounds how far any probability here may be from the true one: 0 when
    everything is exact (censored tails are exact), else the mass of paths cut at a stated
    depth, named in ``notes``.
    """

    system: str
    success: Fraction | None
    outcomes: dict[Outcome, Fraction]
    complication: Fraction
    total: Dist | None
    margin: Dist | None
    error: Fraction = Fraction(0)
    notes: tuple[str, ...] = field(default=())
    extra: dict[str, Fraction] = field(default_factory=dict)

    def summary(self) -> str:
        """One line such as ``odds: success 58.33% (critical success 8.33%, ...)``."""
        parts = [] if self.success is None else [f"success {pct(self.success)}"]
        crits = [f"{o.value.replace('_', ' ')} {pct(p)}" for o, p in self.outcomes.items()
                 if o in (Outcome.CRITICAL_SUCCESS, Outcome.CRITICAL_FAILURE) and p]
        if crits:
            parts[-1:] = [f"{parts[-1]} ({', '.join(crits)})"] if parts else crits
        if self.complication:
            parts.append(f"complication {pct(self.complication)}")
        if self.total is not None:
            parts.append(f"total {describe_range(self.total)}")
        if self.error:
            parts.append(f"error < {float(self.error):.1e}")
        return "odds: " + "; ".join(parts)

    def to_json(self) -> dict[str, object]:
        """Floats for reading plus exact fractions as strings for checking."""
        out: dict[str, object] = {
            "system": self.system,
            "success": None if self.success is None else float(self.success),
            "success_exact": None if self.success is None else str(self.success),
            "outcomes": {o.value: float(p) for o, p in self.outcomes.items()},
            "outcomes_exact": {o.value: str(p) for o, p in self.outcomes.items()},
            "complication": float(self.complication),
            "total": None if self.total is None else self.total.to_json(),
            "margin": None if self.margin is None else self.margin.to_json(),
            "error_bound": float(self.error),
            "notes": list(self.notes),
            "extra": {k: float(p) for k, p in self.extra.items()},
        }
        return out


def pct(p: Fraction) -> str:
    """A probability as a percentage with two decimals (``<0.01%`` rather than a false 0)."""
    if 0 < p < Fraction(1, 10000):
        return "<0.01%"
    if Fraction(9999, 10000) < p < 1:
        return ">99.99%"
    return f"{float(p) * 100:.2f}%"


def describe_range(d: Dist) -> str:
    """``9-45, mean 31.50``, or ``9 and up, median 31`` for an unbounded total."""
    values = [v for v, _ in d.items()]
    low = values[0] if values else d.top
    if not d.tail:
        return f"{low}-{values[-1]}, mean {float(d.mean()):.2f}"
    median = next((v for v in values if d.at_most(v) >= Fraction(1, 2)), None)
    return f"{low} and up" + (f", median {median}" if median is not None else "")


def odds_from_leaves(system: str, leaves: Leaves, notes: Iterable[str] = ()) -> Odds:
    """Aggregate enumerated results (see :mod:`rules.odds.tree`) into :class:`Odds`.

    Cut paths (``leaves.unresolved``) are left out of every distribution and bound the
    error; the point masses then add up to ``1 - error``, so the distributions keep that
    missing mass as a censored tail above the largest total seen.
    """
    totals: dict[int, Fraction] = {}
    margins: dict[int, Fraction] = {}
    outcomes: dict[Outcome, Fraction] = {o: Fraction(0) for o in Outcome}
    success = Fraction(0)
    complication = Fraction(0)
    has_success = has_margin = False
    for weight, result in leaves.results:
        total = getattr(result, "total", None)
        if total is not None:
            totals[total] = totals.get(total, Fraction(0)) + weight
        margin = getattr(result, "margin", None)
        if margin is not None:
            has_margin = True
            margins[margin] = margins.get(margin, Fraction(0)) + weight
        outcome = getattr(result, "outcome", None)
        if outcome is not None:
            has_success = True
            outcomes[outcome] += weight
            success += weight if result.success else 0
        if getattr(result, "complication", None):
            complication += weight
    lost = leaves.unresolved
    extra = (f"enumeration cut after the depth cap: every probability is exact to within {float(lost):.1e}",) \
        if lost else ()
    return Odds(system, success if has_success else None, outcomes if has_success else {}, complication,
                missing_as_tail(totals, lost) if totals else None, missing_as_tail(margins, lost) if has_margin else None,
                lost, (*notes, *extra))


def missing_as_tail(points: dict[int, Fraction], lost: Fraction) -> Dist:
    """A distribution of the known points, any unresolved mass held as a tail above them."""
    return from_fractions(points, lost, max(points) + 1 if lost else None)


def enumerated(system: str, make: Callable[[], Resolution[Any]], *, restart_after: int | None = None,
               max_requests: int = 12) -> Odds:
    """The odds of any resolver by enumerating its tree (see :func:`rules.odds.tree.enumerate_checks`)."""
    return odds_from_leaves(system, enumerate_checks(make, restart_after=restart_after, max_requests=max_requests))


def by_enumeration(system: str, resolve: Callable[[Any], Resolution[Any]]) -> Callable[[Any], Odds]:
    """An odds function for parameters whose resolver is small enough to enumerate."""
    return lambda params: enumerated(system, lambda: resolve(params))
