"""Exact odds of any resolver by walking the tree of its requests with every possible throw.

A resolver is a generator (see :mod:`rules.protocol`); it cannot be copied, so each node
of the tree is reached by replaying the throws on its path into a fresh generator. Each
leaf (a finished check) is weighted by the probability of its path. Checks that may ask
for dice forever (an exploding wild die, a tie thrown again) are cut after
``max_requests`` throws; the mass of the cut paths is reported as ``unresolved`` and
bounds the error of every probability computed from the leaves.

With ``symmetric=True`` the plain (role-less) dice of one request are enumerated as
multisets weighted by their number of orderings: exact for every resolver that treats
plain dice of the same size alike (sums, highest, counts), and far fewer leaves. Tests
brute-force with ``symmetric=False``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement, product
from math import factorial, prod
from typing import Any

from rules.dice import DiceRequest, Face, Throw
from rules.errors import RulesError
from rules.protocol import Resolution

#: Leaves enumerated before giving up (keeps ``dicetable odds`` interactive).
MAX_LEAVES = 100_000


@dataclass(frozen=True)
class Leaves:
    """Every finished check with its probability, and the mass cut at the depth cap."""

    results: tuple[tuple[Fraction, Any], ...]
    unresolved: Fraction


def enumerate_checks(make: Callable[[], Resolution[Any]], *, max_requests: int = 12, symmetric: bool = True,
                     restart_after: int | None = None, max_leaves: int = MAX_LEAVES) -> Leaves:
    """All outcomes of the resolver ``make()`` builds, each with its exact probability.

    ``restart_after``: for a resolver known to start over identically when its first
    ``restart_after`` requests leave the check undecided (a tie thrown again), the paths
    still asking for dice after them are restarts; the finished paths are then scaled by
    ``1 / (1 - P(restart))``, which is the exact answer of the unbounded repetition.
    """
    if restart_after is not None:
        once = enumerate_checks(make, max_requests=restart_after, symmetric=symmetric, max_leaves=max_leaves)
        if once.unresolved == 1:
            raise RulesError("the check never ends: every path starts over")
        scale = 1 / (1 - once.unresolved)
        return Leaves(tuple((w * scale, r) for w, r in once.results), Fraction(0))
    results: list[tuple[Fraction, Any]] = []
    unresolved = Fraction(0)
    stack: list[tuple[tuple[Throw, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        path, weight = stack.pop()
        request, result = _replay(make, path)
        if request is None:
            results.append((weight, result))
            if len(results) > max_leaves:
                raise RulesError(f"more than {max_leaves} outcomes: too many dice for exact enumeration")
            continue
        if len(path) >= max_requests:
            unresolved += weight
            continue
        for throw, p in throws(request, symmetric):
            stack.append(((*path, throw), weight * p))
    return Leaves(tuple(results), unresolved)


def needs_dice(resolution: Resolution[Any]) -> bool:
    """Run a resolver up to its first request, so its own validation raises on bad parameters.

    Returns False when the check finishes without asking for any die (an automatic success).
    """
    try:
        next(resolution)
    except StopIteration:
        return False
    return True


def _replay(make: Callable[[], Resolution[Any]], path: tuple[Throw, ...]) -> tuple[DiceRequest | None, Any]:
    """The request pending after ``path`` (or ``None`` and the result when the check is over)."""
    resolution = make()
    try:
        request = next(resolution)
        for throw in path:
            request = resolution.send(throw)
    except StopIteration as done:
        return None, done.value
    return request, None


def throws(request: DiceRequest, symmetric: bool) -> Iterator[tuple[Throw, Fraction]]:
    """Every throw answering ``request`` with its probability (plain dice as multisets if ``symmetric``)."""
    specs = request.dice
    if not symmetric:
        denom = prod(s.sides for s in specs)
        for values in product(*(range(1, s.sides + 1) for s in specs)):
            yield _throw(request, values), Fraction(1, denom)
        return
    designated = [i for i, s in enumerate(specs) if s.role is not None]
    groups: dict[int, list[int]] = {}
    for i, s in enumerate(specs):
        if s.role is None:
            groups.setdefault(s.sides, []).append(i)
    choices: list[list[tuple[dict[int, int], Fraction]]] = []
    for i in designated:
        sides = specs[i].sides
        choices.append([({i: v}, Fraction(1, sides)) for v in range(1, sides + 1)])
    for sides, slots in groups.items():
        choices.append([(dict(zip(slots, combo)), _orderings(combo) / Fraction(sides ** len(slots)))
                        for combo in combinations_with_replacement(range(1, sides + 1), len(slots))])
    for picks in product(*choices):
        values: dict[int, int] = {}
        p = Fraction(1)
        for assignment, weight in picks:
            values.update(assignment)
            p *= weight
        yield _throw(request, tuple(values[i] for i in range(len(specs)))), p


def _orderings(combo: tuple[int, ...]) -> int:
    counts: dict[int, int] = {}
    for v in combo:
        counts[v] = counts.get(v, 0) + 1
    return factorial(len(combo)) // prod(factorial(c) for c in counts.values())


def _throw(request: DiceRequest, values: tuple[int, ...]) -> Throw:
    return Throw(tuple(Face(v, s.sides, s.role, s.colour) for v, s in zip(values, request.dice)), "odds")
