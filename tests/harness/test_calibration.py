"""Calibration by simulation: stated 95 % intervals cover the truth about 95 % of the
time,
and the SPRT's error rates are near alpha and beta.

Everything is drawn from ``numpy.random.default_rng`` with fixed seeds, so
each test is deterministic; the bounds on the observed rates allow for the
binomial noise of the number of simulations (±3 standard errors or more).
The simulations use the numpy paths (``fit_ratings`` on generated results,
``llr_batch`` on many SPRTs at once), never the tournament harness.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import brentq

from harness.report.compare import compare_fits
from harness.stats.ratings import PairResult, RatingFlag
from harness.stats.ratings_bootstrap import bootstrap_ratings
from harness.stats.ratings_pairwise import fit_ratings
from harness.stats.significance import NELO_PER_T, score_from_elo
from harness.stats.sprt import llr_batch, sprt_bounds

TRUE = {
    "p0": -150.0,
    "p1": -60.0,
    "p2": 0.0,
    "p3": 20.0,
    "p4": 70.0,
    "p5": 120.0,
}  # mean 0


def round_robin(
    rng: np.random.Generator, games: int, draw_rate: float
) -> list[PairResult]:
    names = sorted(TRUE)
    out = []
    for x, a in enumerate(names):
        for b in names[x + 1 :]:
            e = score_from_elo(TRUE[a] - TRUE[b])
            # Draws at draw_rate (less where the weaker could not score e with
            # them: draws alone give half a point each); wins and losses split so
            # the expected score is e.
            draws = min(draw_rate, 1.8 * min(e, 1 - e))
            win = e - draws / 2
            u = rng.random(games)
            out += [
                PairResult(a, b, 1.0 if v < win else 0.5 if v < win + draws else 0.0)
                for v in u
            ]
    return out


@pytest.mark.parametrize("draw_rate", [0.0, 0.2, 0.45])
def test_analytic_intervals_cover_the_true_ratings_at_the_stated_rate(
    draw_rate: float,
) -> None:
    """200 round robins of 6 entrants, 16 games a pair: coverage within 2 points of
    95 %, with and without draws.

    Checked: each rating against the true one (pool-mean anchor), and each
    difference to p2 (``RatingFit.difference``, the full covariance). The
    half-point model's Fisher information assumes the binomial variance
    p(1 - p) per game, which draws lower to p(1 - p) - d/4; its intervals
    covered 98-99 % at 20-45 % draws. The sandwich covariance
    (docs/STATISTICS.md R2) uses the observed variance and covers about 95 %.
    """
    rng = np.random.default_rng(20240601)
    hits = diff_hits = total = diff_total = 0
    for _ in range(200):
        fit = fit_ratings(round_robin(rng, 16, draw_rate))
        for name, true in TRUE.items():
            line = fit[name]
            hits += line.lower <= true <= line.upper
            total += 1
            if name != "p2":
                _, lo, hi = fit.difference(name, "p2")
                diff_hits += lo <= true - TRUE["p2"] <= hi
                diff_total += 1
    coverage, diff_coverage = hits / total, diff_hits / diff_total
    assert 0.93 <= coverage <= 0.97, coverage
    assert 0.93 <= diff_coverage <= 0.97, diff_coverage


def grouped_round_robin(
    rng: np.random.Generator, groups: int, copy: float
) -> list[PairResult]:
    """Duplicate groups of two games; the second repeats the first with prob. ``copy``.

    That is a within-group correlation of ``copy``: the games of a group are not
    independent, which the analytic intervals ignore and the cluster bootstrap does not.
    """
    names = ["p0", "p2", "p4", "p5"]
    out = []
    for x, a in enumerate(names):
        for b in names[x + 1 :]:
            e = score_from_elo(TRUE[a] - TRUE[b])
            for g in range(groups):
                first = float(rng.random() < e)
                second = first if rng.random() < copy else float(rng.random() < e)
                group = f"{a}-{b}-{g}"
                out += [
                    PairResult(a, b, first, group, a),
                    PairResult(b, a, 1 - second, group, b),
                ]
    return out


@pytest.mark.slow
def test_cluster_bootstrap_covers_when_games_of_a_group_are_correlated() -> None:
    """60 pools x 100 bootstrap rounds: percentile intervals of whole-group resamples.

    With correlation 0.6 inside groups the variance is 1.6 times what the
    independent-games Fisher information says, so the analytic intervals
    under-cover (about 0.88 expected); the bootstrap is near 0.95.
    """
    rng = np.random.default_rng(7)
    true = {
        name: float(TRUE[name] - np.mean([TRUE[n] for n in ("p0", "p2", "p4", "p5")]))
        for name in ("p0", "p2", "p4", "p5")
    }
    boot_hits = fisher_hits = total = 0
    for pool in range(60):
        boot = bootstrap_ratings(
            grouped_round_robin(rng, 12, 0.6), rounds=100, seed=pool
        )
        for name, value in true.items():
            line, fitted = boot[name], boot.fit[name]
            boot_hits += line.lower <= value <= line.upper
            fisher_hits += fitted.lower <= value <= fitted.upper
            total += 1
    boot_cov, fisher_cov = boot_hits / total, fisher_hits / total
    assert 0.88 <= boot_cov <= 0.99, boot_cov
    assert fisher_cov < boot_cov, (fisher_cov, boot_cov)


# -- SPRT error rates
# ---------------------------------------------------------------------------


def los_pool(rng: np.random.Generator, bounded: bool) -> list[PairResult]:
    """A round robin of ``TRUE``, 6 games a pair, no draws; with ``bounded`` also
    "top" (won its 5 games), "bottom" (lost its 3) and "few" (3 games against
    p0, p1, p2, one of them won), who sits at a bound in about 40 % of the
    replicates, like issue 31's Q.
    """
    names = sorted(TRUE)
    out = []
    for x, a in enumerate(names):
        for b in names[x + 1 :]:
            e = score_from_elo(TRUE[a] - TRUE[b])
            out += [PairResult(a, b, float(v < e)) for v in rng.random(6)]
    if bounded:
        out += [PairResult("top", str(o), 1.0) for o in rng.choice(names, 5, False)]
        out += [PairResult("bottom", str(o), 0.0) for o in rng.choice(names, 3, False)]
        wins = rng.permutation([1.0, 0.0, 0.0])
        out += [PairResult("few", o, w) for o, w in zip(names[:3], wins, strict=True)]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("bounded", [False, True])
def test_bootstrap_los_agrees_with_the_analytic_los(bounded: bool) -> None:
    """Issue 31 item 2: 6 pools x 300 rounds; the LOS of each neighbouring pair
    (by true rating) and, with ``bounded``, of "few" against each of the six.

    The mean of bootstrap minus analytic LOS (Φ(d/sd), ``RatingFit.los``) is
    within ±2 points in both designs, and so is that of "few"'s pairs alone.
    Observed here: -0.15 without bounds (mean absolute difference 1.27, the
    Monte Carlo error of 300 rounds included); with them +0.62 overall and
    +1.01 for "few" (absolute 3.9: a 3-game entrant's normal approximation is
    rough). Before issue 31, a replicate's bound read as a rating gave "few"
    +3.46 (absolute 5.8, at most 21 points). docs/STATISTICS.md §8 has a
    larger run.
    """
    rng = np.random.default_rng(31 + bounded)
    order = sorted(TRUE, key=TRUE.__getitem__)
    diffs, few = [], []
    for pool in range(6):
        boot = bootstrap_ratings(los_pool(rng, bounded), rounds=300, seed=pool)
        for a, b in zip(order[1:], order, strict=False):
            diffs.append(boot.los(a, b) - boot.fit.los(a, b))
        if bounded:
            assert RatingFlag.PERFECT_SCORE in boot.fit["top"].flags
            assert RatingFlag.ZERO_SCORE in boot.fit["bottom"].flags
            for other in order:
                few.append(boot.los("few", other) - boot.fit.los("few", other))
    d = 100 * np.array(diffs + few)
    assert abs(d.mean()) <= 2.0, d.mean()
    if bounded:
        f = 100 * np.array(few)
        assert abs(f.mean()) <= 2.0, f.mean()
    else:
        assert np.abs(d).mean() <= 2.0, np.abs(d).mean()


def simulate_sprts(
    probs: np.ndarray,
    runs: int,
    elo0: float,
    elo1: float,
    *,
    elo_model: str,
    batch: int,
    seed: int,
    max_batches: int = 2000,
) -> np.ndarray:
    """Run ``runs`` SPRTs side by side on samples from ``probs``; check each batch.

    Returns +1 (accepted H1), -1 (accepted H0) or 0 (undecided) per run.
    """
    rng = np.random.default_rng(seed)
    lower, upper = sprt_bounds(0.05, 0.05)
    counts = np.zeros((runs, len(probs)))
    decided = np.zeros(runs, dtype=int)
    for _ in range(max_batches):
        active = np.flatnonzero(decided == 0)
        if len(active) == 0:
            break
        counts[active] += rng.multinomial(batch, probs, size=len(active))
        value = llr_batch(counts[active], elo0, elo1, elo_model=elo_model)
        decided[active] = np.where(value >= upper, 1, np.where(value <= lower, -1, 0))
    return decided


def trinomial(elo: float, draw_rate: float) -> np.ndarray:
    e = score_from_elo(elo)
    return np.array([1 - e - draw_rate / 2, draw_rate, e - draw_rate / 2])


def pentanomial_with_nelo(nelo: float) -> np.ndarray:
    """A pair distribution whose t-value (μ - ½)/sigma is √2·nelo/(800/ln 10)
    (STATISTICS.md §2.7).
    """
    base = np.array([0.05, 0.2, 0.5, 0.2, 0.05])
    a = np.arange(5) / 4
    target = math.sqrt(2) * nelo / NELO_PER_T

    def tilted(lam: float) -> np.ndarray:
        p = base * np.exp(lam * a)
        return p / float(p.sum())

    def t_value(lam: float) -> float:
        p = tilted(lam)
        mu = p @ a
        return float((mu - 0.5) / math.sqrt(p @ (a - mu) ** 2) - target)

    return tilted(brentq(t_value, -5, 5))


@pytest.mark.parametrize(
    ("name", "make", "elo0", "elo1", "elo_model", "batch"),
    [
        (
            "logistic trinomial",
            lambda elo: trinomial(elo, 0.3),
            0.0,
            10.0,
            "logistic",
            250,
        ),
        ("normalized pentanomial", pentanomial_with_nelo, 0.0, 8.0, "normalized", 250),
    ],
)
def test_sprt_error_rates_are_near_alpha_and_beta(
    name: str, make: object, elo0: float, elo1: float, elo_model: str, batch: int
) -> None:
    """300 simulated tests with the truth at elo0, and 300 at elo1; alpha = β = 0.05.

    Wald's bounds give error rates at most about alpha/(1 - β) ≈ 0.053; checking
    only after each batch overshoots the bounds and lowers them a little.
    """
    assert callable(make)
    at_h0 = simulate_sprts(
        make(elo0), 300, elo0, elo1, elo_model=elo_model, batch=batch, seed=1
    )
    at_h1 = simulate_sprts(
        make(elo1), 300, elo0, elo1, elo_model=elo_model, batch=batch, seed=2
    )
    assert np.all(at_h0 != 0) and np.all(at_h1 != 0), name  # every test stopped
    false_positive = float(np.mean(at_h0 == 1))
    false_negative = float(np.mean(at_h1 == -1))
    assert 0.005 <= false_positive <= 0.085, (name, false_positive)
    assert 0.005 <= false_negative <= 0.085, (name, false_negative)


def pool(
    rng: np.random.Generator, true: dict[str, float], games: int
) -> list[PairResult]:
    """A round robin of ``true``'s entrants, ``games`` a pair, no draws."""
    names = sorted(true)
    out = []
    for x, a in enumerate(names):
        for b in names[x + 1 :]:
            e = score_from_elo(true[a] - true[b])
            out += [PairResult(a, b, float(v < e)) for v in rng.random(games)]
    return out


def test_compare_change_intervals_are_right_for_the_reported_quantity() -> None:
    """Two six-entrant pools sharing A and B (issue 15 item 4).

    ``troef compare`` reports R_A - (R_A + R_B)/2 in each pool and its change;
    the true change is 0. Its 95 % interval covers 0 in 93-97 % of 300 pairs
    of pools, and the stated standard deviation matches the spread of the
    simulated changes within 10 %. The entrant's own interval (relative to its
    pool's mean) overstated it: about 1.3 times too wide here.
    """
    rng = np.random.default_rng(415)
    first = {"A": 40.0, "B": -20.0, "C": 100.0, "D": 0.0, "E": -60.0, "F": -120.0}
    second = {"A": 40.0, "B": -20.0, "G": 150.0, "H": 30.0, "I": -30.0, "J": -200.0}
    changes, sds, own, hits = [], [], [], 0
    for _ in range(300):
        fits = [
            ("one", fit_ratings(pool(rng, first, 12))),
            ("two", fit_ratings(pool(rng, second, 12))),
        ]
        [row, _] = compare_fits(fits, ["A", "B"])
        changes.append(row["change"])
        sds.append(row["sd"])
        hits += abs(row["change"]) <= 1.959964 * row["sd"]
        own.append(
            math.hypot(
                *((fit["A"].upper - fit["A"].lower) / (2 * 1.959964) for _, fit in fits)
            )
        )
    spread = float(np.std(changes))
    assert 0.93 <= hits / 300 <= 0.97, hits / 300
    assert float(np.mean(sds)) == pytest.approx(spread, rel=0.10)
    assert float(np.mean(own)) > 1.2 * spread
