"""The exact distribution engine against brute force, closed forms and its own invariants."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.odds.dist import Dist, constant, die, exploding, from_counts, mix, repeat

SIDES = st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20])


def brute_sum(sides: list[int]) -> dict[int, Fraction]:
    """Every combination of faces, counted."""
    counts = Counter(sum(faces) for faces in product(*(range(1, s + 1) for s in sides)))
    total = sum(counts.values())
    return {v: Fraction(c, total) for v, c in counts.items()}


def as_dict(d: Dist) -> dict[int, Fraction]:
    return dict(d.items())


@given(st.lists(SIDES, min_size=1, max_size=4))
@settings(max_examples=40, deadline=None)
def test_sums_of_dice_match_brute_force(sides: list[int]) -> None:
    total = constant(0)
    for s in sides:
        total = total + die(s)
    assert as_dict(total) == brute_sum(sides)
    assert total.finite and total.at_least(total.low) == 1


@given(SIDES, st.integers(0, 5))
@settings(max_examples=30, deadline=None)
def test_repeat_equals_repeated_addition(sides: int, n: int) -> None:
    added = constant(0)
    for _ in range(n):
        added = added + die(sides)
    assert repeat(die(sides), n) == added


def exploding_at_least(t: int) -> Fraction:
    """Closed form for one exploding d6: P(W >= 6k + r) = 6**-k * (7 - r) / 6 for r in 1..6."""
    if t <= 1:
        return Fraction(1)
    k, r = divmod(t - 1, 6)
    return Fraction(1, 6 ** k) * Fraction(7 - (r + 1), 6)


@pytest.mark.parametrize("depth", [0, 1, 3, 8])
def test_exploding_die_is_exact_up_to_its_censored_tail(depth: int) -> None:
    w = exploding(6, depth)
    assert w.top == 6 * (depth + 1)
    assert w.tail_probability == Fraction(1, 6 ** (depth + 1))
    for t in range(-2, w.top + 1):
        assert w.at_least(t) == exploding_at_least(t)
    with pytest.raises(RulesError):
        w.at_least(w.top + 1)  # beyond the censored tail nothing is claimed


def test_exploding_die_matches_enumerated_chains() -> None:
    """Enumerate every chain of up to three throws of a d6 that rethrows its 6s."""
    probabilities: dict[int, Fraction] = {}
    for throws in range(1, 4):
        for chain in product(range(1, 7), repeat=throws):
            if all(v == 6 for v in chain[:-1]) and (chain[-1] != 6 or throws == 3):
                key = min(sum(chain), 18)  # chains reaching a third 6 are the tail >= 18
                probabilities[key] = probabilities.get(key, Fraction(0)) + Fraction(1, 6 ** throws)
    w = exploding(6, 2)
    assert as_dict(w) == {v: p for v, p in probabilities.items() if v < 18}
    assert w.tail_probability == probabilities[18]


@given(st.integers(0, 4), st.integers(1, 3), st.integers(-3, 3))
@settings(max_examples=40, deadline=None)
def test_sum_with_exploding_dice_keeps_thresholds_exact(depth: int, plain: int, shift: int) -> None:
    """A censored sum agrees with a much deeper one wherever it claims to be exact."""
    shallow = repeat(die(6), plain) + exploding(6, depth) + exploding(6, depth + 1) + shift
    deep = repeat(die(6), plain) + exploding(6, depth + 6) + exploding(6, depth + 6) + shift
    for t in range(shallow.low - 1, shallow.top + 1):
        assert shallow.at_least(t) == deep.at_least(t)
    assert sum((p for _, p in shallow.items()), Fraction(0)) + shallow.tail_probability == 1


def test_mixture_weights_and_censoring() -> None:
    d = mix([(Fraction(1, 3), die(4)), (Fraction(2, 3), exploding(6, 1) + 10)])
    assert d.prob(1) == Fraction(1, 12)
    assert d.prob(11) == Fraction(2, 3) * Fraction(1, 6)
    assert d.top == 22 and d.tail_probability == Fraction(2, 3) * Fraction(1, 36)


def test_negation_mapping_and_mean() -> None:
    two = repeat(die(6), 2)
    assert as_dict(two - two)[0] == Fraction(146, 1296)
    assert (-die(4)).low == -4
    assert die(6).map(lambda v: v * 3).prob(18) == Fraction(1, 6)
    assert repeat(die(6), 3).mean() == Fraction(21, 2)
    with pytest.raises(RulesError):
        exploding(6, 1).mean()


def test_counts_must_add_up() -> None:
    with pytest.raises(ValueError):
        Dist(1, (1, 1), 3)
    assert from_counts({3: 2, 5: 2}, 4).prob(4) == 0


def test_large_pools_use_wide_slots() -> None:
    """Counts beyond 64 bits still convolve exactly."""
    big = repeat(die(6), 40)
    assert big.denom == 6 ** 40 and sum(big.counts) == 6 ** 40
    assert big.prob(40) == Fraction(1, 6 ** 40)
    assert big.prob(140) == (big + 0).prob(140)
    assert (big + die(6)).prob(41) == Fraction(1, 6 ** 41)
