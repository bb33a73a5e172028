"""Each system's odds against brute force, against dyce and against simulation."""

from __future__ import annotations

import math
import random
import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from rules import d6pool, d20, opend6, osr, true20
from rules.d6pool import D6PoolAttack, D6PoolBlock, D6PoolCheck, D6PoolOpposed, PoolDifficulty, TieRule
from rules.dice import DiceRequest, Face, Throw
from rules.errors import RulesError
from rules.notation import DieCode, parse_expression
from rules.odds.dispatch import ODDS, odds_of
from rules.odds.result import Odds, odds_from_leaves
from rules.odds.tree import enumerate_checks
from rules.opend6 import CriticalOption, OpenD6Check, OpenD6Opposed, OpenD6Roll
from rules.protocol import drive
from rules.result import Outcome

CANCEL, COMPLICATION = CriticalOption.CANCEL, CriticalOption.COMPLICATION

#: (params, resolver) for every kind of check, small enough to brute-force and simulate.
CASES: list[tuple[Any, Callable[[Any], Any]]] = [
    (OpenD6Check(DieCode(2, 1), 9), opend6.resolve_check),
    (OpenD6Check(DieCode(2), 8, critical=COMPLICATION, ties_to_initiator=False), opend6.resolve_check),
    (OpenD6Check(DieCode(1, 2), 7, character_points=1), opend6.resolve_check),
    (OpenD6Check(DieCode(2), 10, critical=COMPLICATION, character_points_after=1), opend6.resolve_check),
    (OpenD6Check(DieCode(1), 6, fate_point=True, bonus_pips=-1, related=(3,)), opend6.resolve_check),
    (OpenD6Check(DieCode(1), 3, bonus_dice=1, unskilled_modifier=5, rush=25), opend6.resolve_check),
    (OpenD6Opposed(OpenD6Roll(DieCode(1, 1)), OpenD6Roll(DieCode(1), critical=COMPLICATION)), opend6.resolve_opposed),
    (OpenD6Roll(DieCode(2, 1), critical=COMPLICATION, character_points=1), opend6.resolve_roll),
    (D6PoolCheck(3, PoolDifficulty(11)), d6pool.resolve_check),
    (D6PoolCheck(2, PoolDifficulty(2, thrown=True)), d6pool.resolve_check),
    (D6PoolCheck(2, PoolDifficulty(14), helpers=1), d6pool.resolve_check),
    (D6PoolOpposed(2, 1), d6pool.resolve_opposed),
    (D6PoolOpposed(1, 2, TieRule.RESISTOR), d6pool.resolve_opposed),
    (D6PoolOpposed(1, 2, TieRule.REROLL), d6pool.resolve_opposed),
    (D6PoolAttack(3, 2), d6pool.resolve_attack),
    (D6PoolAttack(2, 2, TieRule.REROLL), d6pool.resolve_attack),
    (D6PoolAttack(4), d6pool.resolve_attack),
    (D6PoolBlock(3, 9), d6pool.resolve_block),
    (D6PoolBlock(3, 9, TieRule.RESISTOR), d6pool.resolve_block),
    (true20.True20Check(4, 15), true20.resolve_check),
    (true20.True20Check(4, 15, take=10), true20.resolve_check),
    (true20.True20Attack(5, 18), true20.resolve_attack),
    (true20.True20Save(3, 15), true20.resolve_save),
    (true20.True20Opposed(2, 2), true20.resolve_opposed),
    (true20.True20Opposed(3, 1), true20.resolve_opposed),
    (true20.True20Comparison(4, 4), true20.resolve_comparison),
    (true20.True20Aid(true20.True20Check(2, 18), (true20.True20Helper(3), true20.True20Helper(0, take=5))),
     true20.resolve_aid),
    (osr.OsrCheck(3, 16, 1), osr.resolve_check),
    (osr.OsrSave(2, 1), osr.resolve_save),
    (osr.OsrOpposed(3, 2, close_is_tie=True), osr.resolve_opposed),
    (osr.OsrOutcomeTable(reroll_average=True), osr.resolve_outcome_table),
    (osr.OsrFate(2, 1), osr.resolve_fate),
    (d20.D20Check(3, 14), d20.check),
    (d20.DiceRoll(parse_expression("1d4+d%-1d6+3")), d20.roll),
    (d20.DiceRoll(parse_expression("3d4"), multipliers=(2, 2), divisor=4, minimum=2), d20.roll),
]


def _id(case: tuple[Any, Any]) -> str:
    return type(case[0]).__name__


def brute(params: Any, resolve: Callable[[Any], Any]) -> Odds:
    """Every throw of every request, no symmetry assumed, explosions and re-rolls cut as deep as affordable."""
    deepest = None
    for depth in range(2, 10):
        try:
            deepest = enumerate_checks(lambda: resolve(params), max_requests=depth, symmetric=False, max_leaves=8000)
        except RulesError:
            break
        if not deepest.unresolved:
            break
    assert deepest is not None, "case too large to brute-force"
    return odds_from_leaves("brute", deepest)


def close(a: Fraction | None, b: Fraction | None, error: Fraction) -> bool:
    return (a is None and b is None) or abs(a - b) <= error


def test_every_system_module_is_dispatched() -> None:
    assert {type(p) for p, _ in CASES} <= set(ODDS)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_odds_match_brute_force_enumeration(case: tuple[Any, Any]) -> None:
    params, resolve = case
    odds = odds_of("test", params, resolve)
    reference = brute(params, resolve)
    error = odds.error + reference.error
    assert close(odds.success, reference.success, error)
    for outcome in Outcome:
        assert close(odds.outcomes.get(outcome, Fraction(0)), reference.outcomes.get(outcome, Fraction(0)), error)
    assert close(odds.complication, reference.complication, error)
    if reference.error == 0 and odds.error == 0 and odds.total is not None and odds.total.finite:
        assert dict(odds.total.items()) == dict(reference.total.items())
        if odds.margin is not None:
            assert dict(odds.margin.items()) == dict(reference.margin.items())
    elif odds.total is not None:  # censored or cut: every value both hold exactly agrees within the error
        for value, p in reference.total.items():
            if value < min(odds.total.top, reference.total.top):
                assert abs(odds.total.prob(value) - p) <= error
    for name, p in odds.extra.items():  # complication gravities add up to the complication
        assert p >= 0
    assert sum(odds.extra.values(), Fraction(0)) in (0, odds.complication)


def simulate(params: Any, resolve: Callable[[Any], Any], runs: int, seed: int) -> tuple[int, dict[Outcome, int]]:
    rng = random.Random(seed)

    def throw(request: DiceRequest) -> Throw:
        return Throw(tuple(Face(rng.randint(1, s.sides), s.sides, s.role) for s in request.dice))

    wins = 0
    outcomes: dict[Outcome, int] = {}
    for _ in range(runs):
        result = drive(resolve(params), throw)
        wins += bool(result.success) if hasattr(result, "success") and result.success is not None else 0
        if getattr(result, "outcome", None) is not None:
            outcomes[result.outcome] = outcomes.get(result.outcome, 0) + 1
    return wins, outcomes


def within(p: Fraction, hits: int, runs: int) -> bool:
    """A loose bound: 5 standard errors (a false failure about once in 1.7 million)."""
    q = float(p)
    return abs(hits / runs - q) <= 5 * math.sqrt(max(q * (1 - q), 1e-12) / runs) + 1e-9


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_odds_match_simulation(case: tuple[Any, Any]) -> None:
    params, resolve = case
    odds = odds_of("test", params, resolve)
    runs = 1500
    wins, outcomes = simulate(params, resolve, runs, seed=hash(repr(params)) % 1000)
    if odds.success is not None:
        assert within(odds.success, wins, runs)
    for outcome, p in odds.outcomes.items():
        assert within(p, outcomes.get(outcome, 0), runs)


def dyce_fraction(h: Any, outcome: Any = True) -> Fraction:
    return Fraction(h.get(outcome, 0), h.total)


@pytest.fixture
def dyce() -> Any:
    dyce = pytest.importorskip("dyce")
    warnings.simplefilter("ignore")  # dyce's expand and explode_n are flagged experimental
    return dyce


def opend6_in_dyce(dyce: Any, dice: int, pips: int, critical: CriticalOption, cp: int, depth: int) -> Any:
    """An independent OpenD6 total: dyce's expand over the wild die's first throw."""
    from dyce import H, P
    from dyce.evaluation import expand, explode_n

    d6 = H(6)
    plain = dice - 1
    bonus = [explode_n(d6, n=depth) for _ in range(cp)]
    rest = sum(bonus, plain @ d6) if plain else sum(bonus[1:], bonus[0]) if bonus else H({0: 1})

    def branch(wild: Any) -> Any:
        if wild.outcome == 1:
            if critical is COMPLICATION:
                return rest + 1
            kept = (plain @ P(d6)).at(slice(0, plain - 1)) if plain > 1 else H({0: 1})
            return sum(bonus, kept) if bonus else kept
        if wild.outcome == 6:
            return rest + 6 + explode_n(d6, n=depth)
        return rest + wild.outcome

    return expand(branch, d6) + pips


@pytest.mark.parametrize("dice,pips,critical,cp,difficulty", [
    (10, 2, CANCEL, 0, 35), (6, 1, COMPLICATION, 2, 30), (8, 0, CANCEL, 1, 33), (4, 0, CANCEL, 0, 12),
])
def test_opend6_matches_dyce(dyce: Any, dice: int, pips: int, critical: CriticalOption, cp: int,
                             difficulty: int) -> None:
    odds = odds_of("opend6", OpenD6Check(DieCode(dice, pips), difficulty, critical=critical, character_points=cp),
                   opend6.resolve_check)
    # dyce's truncated explosions keep P(total >= difficulty) exact once 6 * (depth + 1) >= difficulty.
    total = opend6_in_dyce(dyce, dice, pips, critical, cp, depth=difficulty // 6 + 1)
    assert odds.success == dyce_fraction(total.ge(difficulty))
    for value, p in odds.total.items():
        if value < difficulty:
            assert p == Fraction(total.get(value, 0), total.total)


@pytest.mark.parametrize("mine,theirs", [(10, 10), (7, 9), (12, 3)])
def test_d6pool_opposed_matches_dyce(dyce: Any, mine: int, theirs: int) -> None:
    from dyce import H

    odds = odds_of("d6pool", D6PoolOpposed(mine, theirs), d6pool.resolve_opposed)
    margin = mine @ H(6) - theirs @ H(6)
    assert odds.success == dyce_fraction(margin.ge(0))
    assert dict(odds.margin.items()) == {m: Fraction(c, margin.total) for m, c in margin.items()}
    thrown = odds_of("d6pool", D6PoolCheck(mine, PoolDifficulty(theirs, thrown=True)), d6pool.resolve_check)
    assert thrown.success == odds.success


def test_d20_expression_matches_dyce(dyce: Any) -> None:
    from dyce import H

    odds = odds_of("d20", d20.DiceRoll(parse_expression("3d8+2d10-1d4+5+d%")), d20.roll)
    reference = 3 @ H(8) + 2 @ H(10) - H(4) + 5 + H(100)
    assert dict(odds.total.items()) == {v: Fraction(c, reference.total) for v, c in reference.items()}


def test_opposed_opend6_error_bound_is_printed_and_tiny() -> None:
    odds = odds_of("opend6", OpenD6Opposed(OpenD6Roll(DieCode(4, 1), character_points=2), OpenD6Roll(DieCode(5))),
                   opend6.resolve_opposed)
    assert 0 < odds.error < Fraction(1, 10 ** 12)
    assert "error <" in odds.summary()


def test_single_check_odds_are_exact_without_truncation() -> None:
    from rules.odds.dist import mix
    from rules.odds.opend6 import roll_parts

    params = OpenD6Check(DieCode(3), 60, character_points=3)
    odds = odds_of("opend6", params, opend6.resolve_check)
    assert odds.error == 0 and sum(odds.outcomes.values()) == 1
    # Far deeper chains than the engine chose give the very same fraction: nothing was truncated.
    assert odds.success == mix(roll_parts(params, 25).values()).at_least(60)


def test_automatic_difficulty_needs_no_dice() -> None:
    odds = odds_of("opend6", OpenD6Check(DieCode(2), 0), opend6.resolve_check)
    assert odds.success == 1


def test_invalid_parameters_raise_the_resolvers_error() -> None:
    with pytest.raises(RulesError):
        odds_of("opend6", OpenD6Check(DieCode(2), 10, fate_point=True, character_points=1), opend6.resolve_check)
    with pytest.raises(RulesError):
        odds_of("d6pool", D6PoolOpposed(0, 3), d6pool.resolve_opposed)


def test_symmetric_enumeration_agrees_with_full_enumeration() -> None:
    params = OpenD6Check(DieCode(3), 11)
    full = enumerate_checks(lambda: opend6.resolve_check(params), max_requests=4, symmetric=False)
    folded = enumerate_checks(lambda: opend6.resolve_check(params), max_requests=4, symmetric=True)
    assert len(folded.results) < len(full.results)
    assert odds_from_leaves("x", full).outcomes == odds_from_leaves("x", folded).outcomes
    assert full.unresolved == folded.unresolved


@pytest.mark.parametrize("params,resolve", [
    (D6PoolOpposed(2, 2, TieRule.REROLL), d6pool.resolve_opposed),
    (D6PoolAttack(3, 2, TieRule.REROLL), d6pool.resolve_attack),
])
def test_rerolled_ties_are_exact_restarts(params: Any, resolve: Callable[[Any], Any]) -> None:
    """The closed form (conditioning on no tie) equals enumerating one round and restarting the rest."""
    odds = odds_of("d6pool", params, resolve)
    restarted = odds_from_leaves("x", enumerate_checks(lambda: resolve(params), restart_after=2))
    assert odds.success == restarted.success
    assert dict(odds.total.items()) == dict(restarted.total.items())
    assert dict(odds.margin.items()) == dict(restarted.margin.items())
    assert odds.margin.prob(0) == 0


def test_actions_without_a_module_fall_back_to_enumeration() -> None:
    from rules.d6pool import D6PoolChallenge, D6PoolInitiative

    params = D6PoolChallenge((D6PoolCheck(2, PoolDifficulty(7)), D6PoolCheck(1, PoolDifficulty(4))))
    assert type(params) not in ODDS
    odds = odds_of("d6pool", params, d6pool.resolve_challenge)
    assert odds.success == brute(params, d6pool.resolve_challenge).success and odds.error == 0
    with pytest.raises(RulesError, match="no success or total"):
        odds_of("d6pool", D6PoolInitiative(("Ann", "Bob")), d6pool.resolve_initiative)
