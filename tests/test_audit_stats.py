"""The fairness audit: its chi-square arithmetic, its power claim, and the command."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from reader.cli.main import main
from reader.log.store import RollLog
from rules.audit import (ALPHA, POWER, Verdict, audit_counts, chi2_isf, chi2_sf, gamma_q, loaded_probabilities,
                         loaded_w, ncx2_cdf, power, rolls_needed)
from rules.dice import DiceRequest, DieSpec, Face, Role, Throw

# Critical values from a printed chi-square table: (df, x, upper-tail probability).
TABLE = [(1, 3.841, 0.05), (1, 6.635, 0.01), (5, 11.070, 0.05), (5, 15.086, 0.01), (10, 23.209, 0.01),
         (19, 36.191, 0.01), (19, 30.144, 0.05), (99, 134.642, 0.01), (2, 13.816, 0.001)]


@pytest.mark.parametrize("df,x,p", TABLE)
def test_chi2_survival_matches_table_values(df: int, x: float, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=2e-3)
    assert chi2_isf(p, df) == pytest.approx(x, rel=2e-4)


def test_gamma_edges() -> None:
    assert gamma_q(2.5, 0) == 1.0
    assert chi2_sf(2.0, 2) == pytest.approx(math.exp(-1.0), rel=1e-13)  # df 2 is an exponential
    assert chi2_sf(1000.0, 5) < 1e-200  # far tail from the continued fraction, not 1 - 1


def test_against_scipy_when_installed() -> None:
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 2, 3, 5, 9, 19, 99):
        for x in (0.01, 0.7, 4.0, 12.5, 40.0, 150.0):
            assert chi2_sf(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-9, abs=1e-300)
        for nc in (0.3, 8.0, 60.0):
            for x in (2.0, 15.0, 90.0):
                assert ncx2_cdf(x, df, nc) == pytest.approx(stats.ncx2.cdf(x, df, nc), abs=1e-10)


def test_effect_size_of_the_stated_loading() -> None:
    assert loaded_w(6) == pytest.approx(0.1720, abs=1e-4)
    assert sum(loaded_probabilities(20)) == pytest.approx(1)


def binomial_upper(n: int, p: float, tail: float = 1e-6) -> int:
    """The smallest k with P(Binomial(n, p) > k) below ``tail``."""
    mass = 0.0
    for k in range(n + 1):
        mass += math.comb(n, k) * p ** k * (1 - p) ** (n - k)
        if 1 - mass < tail:
            return k
    return n


@pytest.mark.parametrize("sides", [6, 20])
def test_loaded_die_is_caught_as_often_as_claimed(sides: int) -> None:
    """With the rolls the tool asks for, a 1.5x face is flagged at the stated power (loosely)."""
    need = rolls_needed(sides)
    rng = np.random.default_rng(sides)
    trials = 300
    flagged = sum(audit_counts(dict(enumerate(rng.multinomial(need, loaded_probabilities(sides)), 1)), sides).verdict
                  is Verdict.LOADED for _ in range(trials))
    spread = 4 * math.sqrt(POWER * (1 - POWER) / trials)
    assert abs(flagged / trials - POWER) <= spread + 0.02
    assert power(need, sides) >= POWER > power(need * 3 // 4, sides)


def test_fair_die_false_alarms_stay_at_alpha() -> None:
    rng = np.random.default_rng(99)
    trials = 1000
    need = rolls_needed(6)
    alarms = sum(audit_counts(dict(enumerate(rng.multinomial(need, [1 / 6] * 6), 1)), 6).verdict is Verdict.LOADED
                 for _ in range(trials))
    assert alarms <= binomial_upper(trials, ALPHA)


def test_verdicts_in_plain_words() -> None:
    few = audit_counts({1: 3, 2: 4, 3: 2, 4: 5, 5: 3, 6: 3}, 6)
    assert few.verdict is Verdict.UNDECIDED and "more" in few.explain()
    skewed = audit_counts({1: 100, 2: 100, 3: 100, 4: 100, 5: 100, 6: 200}, 6)
    assert skewed.verdict is Verdict.LOADED and "face 6" in skewed.explain()
    even = audit_counts({face: 120 for face in range(1, 7)}, 6)
    assert even.verdict is Verdict.FAIR and even.p_value == 1.0


def fill_log(path: Path, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    request = DiceRequest((DieSpec(6, Role.WILD, "red"), DieSpec(6)))
    loaded = rng.choice(np.arange(1, 7), size=900, p=loaded_probabilities(6)[::-1])  # face 6 heavy
    fair = rng.integers(1, 7, size=900)
    with RollLog(path) as log:
        check = log.begin("check", "opend6")
        for w, f in zip(loaded, fair):
            faces = (Face(int(w), 6, Role.WILD, "red", "R-1"), Face(int(f), 6, colour="white", die_id="W-2"))
            log.append(Throw(faces, "pixels"), request, check)
        log.append(Throw((Face(6, 6, Role.WILD, "red", "R-1"), Face(6, 6, die_id="W-2")), "scripted"), request)


def test_audit_command_flags_the_loaded_die_and_draws(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cv2 = pytest.importorskip("cv2")
    path = tmp_path / "log.sqlite3"
    fill_log(path)
    picture = tmp_path / "audit.png"
    assert main(["audit", "--log", str(path), "--json", "--plot", str(picture)]) == 0
    report = json.loads(capsys.readouterr().out)
    dice = {d["die"]: d for d in report["dice"]}
    assert dice["die R-1 (red d6)"]["verdict"] == "loaded" and dice["die W-2 (white d6)"]["verdict"] == "fair"
    assert dice["die R-1 (red d6)"]["rolls"] == 900  # the scripted throw is not a physical die's
    assert report["alpha"] == ALPHA and report["power"] == POWER
    image = cv2.imread(str(picture))
    assert image is not None and image.shape[0] >= 2 * 200
    assert main(["audit", "--log", str(path), "--die", "W-2"]) == 0
    out = capsys.readouterr().out
    assert "die W-2" in out and "R-1" not in out and "consistent with a fair die" in out
    assert main(["audit", "--log", str(path), "--colour", "red", "--sides", "6"]) == 0
    assert "looks LOADED" in capsys.readouterr().out
