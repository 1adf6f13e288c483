"""Pairwise statistics, Holm, tiers and the GSPRT against hand computations and
published values.

Published values: fishtest's own LLRcalc test vector (STATISTICS.md §2.7) and the
LLRs fastchess tests against in ``app/tests/sprt_test.cpp`` (doctest
``Approx(x).epsilon(0.01)``, i.e. 1 % relative). fastchess's ``Stats`` takes
(wins, losses, draws) and, for pairs, (LL, LD, WL, DD, WD, WW).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st
from scipy.optimize import minimize

from harness.contracts.result import Result
from harness.stats.ratings import PairResult
from harness.stats.significance import (
    NELO_PER_T,
    elo_estimate,
    elo_from_samples,
    elo_from_score,
    holm,
    los,
    pair_statistics,
    paired_differences,
    score_from_elo,
    score_interval,
    significance,
    tiers,
)
from harness.stats.sprt import SPRT, llr, llr_approx, llr_batch, sprt_bounds, sprt_elo

# -- Elo, score, LOS ------------------------------------------------------------------


def test_elo_and_score_are_inverse_and_75_percent_is_400_log10_3() -> None:
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert score_from_elo(400 * math.log10(3)) == pytest.approx(0.75)
    for d in (-600.0, -35.5, 0.0, 12.0, 800.0):
        assert elo_from_score(score_from_elo(d)) == pytest.approx(d)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(1.0, clamp=1e-3) == pytest.approx(400 * math.log10(999))
    with pytest.raises(ValueError, match="between 0 and 1"):
        elo_from_score(1.5)


def test_trinomial_estimate_by_hand() -> None:
    """W=30, D=20, L=10 (STATISTICS.md §2.2-2.5, computed step by step)."""
    w, d, l_ = 30, 20, 10
    n = w + d + l_
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l_ * (0 - s) ** 2) / n
    se = math.sqrt(var / n)
    est = elo_estimate((l_, d, w))
    assert est.score == pytest.approx(s)
    assert est.elo == pytest.approx(-400 * math.log10(1 / s - 1))
    assert est.lower == pytest.approx(
        -400 * math.log10(1 / (s - 1.959964 * se) - 1), abs=1e-3
    )
    assert est.upper == pytest.approx(
        -400 * math.log10(1 / (s + 1.959964 * se) - 1), abs=1e-3
    )
    assert est.los == pytest.approx(
        0.5 * (1 - math.erf(-(s - 0.5) / math.sqrt(2 * var / n)))
    )
    assert los(w, l_, d) == est.los
    assert est.error == pytest.approx((est.upper - est.lower) / 2)


def test_los_counts_draws_unlike_cutechess() -> None:
    assert los(0, 0) == 0.5
    assert los(5, 0) == 1.0
    # (ŝ - ½)/SE simplifies to (W - L)/√(W + L - (W - L)²/N): draws enter through N,
    # and with many draws it tends to cutechess's draw-blind (W - L)/√(W + L).
    for w, l_, d in ((12, 8, 40), (12, 8, 0), (30, 10, 5)):
        n = w + l_ + d
        # An empty class counts 1e-3, as in fishtest's get_elo: hence abs=1e-5.
        assert los(w, l_, d) == pytest.approx(
            st.norm.cdf((w - l_) / math.sqrt(w + l_ - (w - l_) ** 2 / n)), abs=1e-5
        )
    assert los(12, 8, 40) != los(12, 8, 0)
    assert los(12, 8, 10**7) == pytest.approx(st.norm.cdf(4 / math.sqrt(20)), abs=1e-6)


def test_pentanomial_estimate_uses_pairs_as_samples() -> None:
    counts = (1, 4, 10, 4, 1)  # symmetric: score ½, Elo 0
    est = elo_estimate(counts)
    assert est.samples == 20
    assert est.elo == pytest.approx(0, abs=1e-9)
    a = np.arange(5) / 4
    sd = math.sqrt(float(np.dot(np.array(counts) / 20, (a - 0.5) ** 2)))
    upper = 0.5 + st.norm.ppf(0.975) * sd / math.sqrt(20)
    assert est.upper == pytest.approx(elo_from_score(upper))


def test_samples_estimate_reduces_to_trinomial_for_single_games() -> None:
    scores = [1.0] * 30 + [0.5] * 20 + [0.0] * 10
    assert elo_from_samples(scores) == elo_estimate((10, 20, 30))


# -- Holm and tiers
# ---------------------------------------------------------------------


def test_holm_by_hand() -> None:
    """p = .01 .04 .03 .005 → sorted .005·4 = .02, .01·3 = .03, .03·2 = .06, max(.04·1,
    .06) = .06.
    """
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_tiers_open_a_new_tier_at_the_first_entrant_that_differs_from_the_head() -> (
    None
):
    different = {
        frozenset(p)
        for p in [
            ("a", "c"),
            ("a", "d"),
            ("b", "d"),
            ("c", "e"),
            ("a", "e"),
            ("b", "e"),
        ]
    }

    def significant(x: str, y: str) -> bool:
        return frozenset((x, y)) in different

    assert tiers(["a", "b", "c", "d", "e"], significant) == [
        ["a", "b"],
        ["c", "d"],
        ["e"],
    ]
    assert tiers(["a", "b"], lambda x, y: False) == [["a", "b"]]
    assert tiers([], significant) == []


# -- pairwise statistics
# -----------------------------------------------------------------


def test_pair_statistics_without_groups_is_the_binomial_test_on_decisive_games() -> (
    None
):
    results = (
        [PairResult("b", "a", 0.0)] * 14
        + [PairResult("a", "b", 0.0)] * 4
        + [PairResult("a", "b", 0.5)] * 6
        + [PairResult("a", "c", 1.0)] * 3
    )
    pairs = {(p.a, p.b): p for p in pair_statistics(results)}
    ab = pairs[("a", "b")]
    assert (ab.wins, ab.draws, ab.losses, ab.samples) == (14, 6, 4, 24)
    assert ab.p_sign == pytest.approx(st.binomtest(14, 18, 0.5).pvalue)
    assert ab.test == "sign" and ab.p_value == ab.p_sign
    assert ab.elo == pytest.approx(elo_estimate((4, 6, 14)).elo)
    ac = pairs[("a", "c")]
    # Holm over the two pairs, by hand.
    assert [ab.p_holm, ac.p_holm] == pytest.approx(holm([ab.p_value, ac.p_value]))


def test_pair_statistics_with_groups_and_paired_differences_matches_scipy() -> None:
    # Each group: two matches of a and b with swapped seats.
    results = []
    for g, (x, y) in enumerate([(1, 1), (1, 0), (1, 0.5), (0, 0), (1, 1), (0.5, 1)]):
        results += [
            PairResult("a", "b", x, group=f"g{g}"),
            PairResult("b", "a", 1 - y, group=f"g{g}"),
        ]
    diffs = [30.0, 12.0, -5.0, 8.0, 21.0, 0.0, 17.0]
    (ab,) = pair_statistics(results, paired={("b", "a"): [-d for d in diffs]})
    assert ab.samples == 6
    assert ab.p_sign == pytest.approx(
        st.binomtest(4, 5, 0.5).pvalue
    )  # one group level at ½
    assert ab.p_wilcoxon == pytest.approx(st.wilcoxon([d for d in diffs if d]).pvalue)
    assert ab.p_ttest == pytest.approx(st.ttest_1samp(diffs, 0).pvalue)
    assert ab.mean_difference == pytest.approx(np.mean(diffs))
    assert ab.test == "wilcoxon" and ab.p_value == ab.p_wilcoxon
    means = [1.0, 0.5, 0.75, 0.0, 1.0, 0.75]
    assert ab.elo == pytest.approx(elo_from_samples(means).elo)


def test_paired_tests_on_degenerate_differences() -> None:
    results = [PairResult("a", "b", 0.5, group="g")]
    (zero,) = pair_statistics(results, paired={("a", "b"): [0.0, 0.0]})
    assert (zero.p_wilcoxon, zero.p_ttest) == (1.0, 1.0)
    (const,) = pair_statistics(results, paired={("a", "b"): [4.0, 4.0, 4.0]})
    assert const.p_ttest == 0.0


def test_paired_differences_from_matches() -> None:
    def match(scores: tuple[int, ...]) -> Result:
        return Result.from_scores(scores, (0, 1, 0, 1), ((0, 0, 0, 0),))

    matches = [
        (("ns", "ew", "ns", "ew"), match((100, 62, 100, 62)), "g1"),
        (("ew", "ns", "ew", "ns"), match((90, 72, 90, 72)), "g1"),
        (("ns", "ew", "ns", "ew"), match((50, 112, 50, 112)), "g2"),
        (("ew", "ns", "ew", "ns"), match((80, 82, 80, 82)), None),
    ]
    # Per group, ew's wins minus losses against ns (by rank): g1 one each way,
    # g2 an ew win, the ungrouped match an ns win. Margins do not count.
    assert paired_differences(matches) == {("ew", "ns"): [0, 1, -1]}


def test_paired_differences_follow_ranks_not_scores() -> None:
    """Fewest points win: the paired difference favours the low scorer."""

    def low(scores: tuple[int, ...]) -> Result:
        return Result.from_scores(scores, (0, 1, 2), (scores,), higher_is_better=False)

    matches = [
        (("a", "b", "c"), low((2, 5, 3)), "g"),
        (("b", "c", "a"), low((4, 1, 0)), "g"),
        (("c", "a", "b"), low((3, 3, 6)), "g"),
    ]
    # a against b: a ranks above in all three; a against c: above, above, tie;
    # b against c: below in all three.
    assert paired_differences(matches) == {
        ("a", "b"): [3],
        ("a", "c"): [2],
        ("b", "c"): [-3],
    }
    # Differences of raw scores would have favoured b over a (more points).
    assert sum(r.scores[s.index("a")] for s, r, _ in matches) < sum(
        r.scores[s.index("b")] for s, r, _ in matches
    )


def test_significance_predicate_feeds_tiers() -> None:
    results = (
        [PairResult("a", "b", 1.0)] * 20
        + [PairResult("b", "c", 0.5)] * 3
        + [PairResult("a", "c", 1.0)] * 20
    )
    predicate = significance(pair_statistics(results))
    assert predicate("a", "b") and predicate("c", "a")
    assert not predicate("b", "c") and not predicate("a", "zed")
    assert tiers(["a", "b", "c"], predicate) == [["a"], ["b", "c"]]


# -- SPRT: published values
# --------------------------------------------------------------


def test_sprt_bounds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert (lower, upper) == pytest.approx((-2.944439, 2.944439), abs=1e-6)
    assert sprt_bounds(0.05, 0.1) == pytest.approx(
        (math.log(0.1 / 0.95), math.log(0.9 / 0.05))
    )
    with pytest.raises(ValueError):
        sprt_bounds(0.6, 0.5)


def test_fishtest_vector_logistic_pentanomial() -> None:
    """Ref §2.7: [10789, 19328, 33806, 19402, 10543], elo0 -3, elo1 1 → 2.13107;
    approx 2.13124.
    """
    counts = [10789, 19328, 33806, 19402, 10543]
    assert llr(counts, -3, 1, elo_model="logistic") == pytest.approx(2.13107, abs=1e-5)
    assert llr_approx(counts, -3, 1) == pytest.approx(2.13124, abs=1e-5)


def tri(wins: int, losses: int, draws: int) -> list[int]:
    return [losses, draws, wins]


def penta(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> list[int]:
    return [ll, ld, wl + dd, wd, ww]


FASTCHESS = [  # app/tests/sprt_test.cpp: (counts, elo0, elo1, model, LLR)
    (tri(36433, 36027, 68692), 0, 2, "normalized", 0.92),
    (tri(10871, 10650, 20431), -1.75, 0.25, "normalized", 2.30),
    (tri(21404, 21184, 40708), 0.5, 2.5, "logistic", -1.57),
    (tri(57433, 57030, 106593), 0, 2, "logistic", -2.59),
    (penta(365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
    (penta(127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    (penta(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    (penta(871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "model", "expected"), FASTCHESS)
def test_fastchess_published_llrs(
    counts: list[int], elo0: float, elo1: float, model: str, expected: float
) -> None:
    assert llr(counts, elo0, elo1, elo_model=model) == pytest.approx(expected, rel=0.01)


def direct_llr_normalized(counts: list[int], nelo0: float, nelo1: float) -> float:
    """Independent GSPRT: maximise Σ p̂ log p under (μ - ½)/sigma = t by SLSQP (no fixed
    point).
    """
    c = np.array(counts, dtype=float)
    c[c == 0] = 1e-3
    n, k = c.sum(), len(c)
    phat, a = c / n, np.arange(k) / (k - 1)
    scale = math.sqrt((k - 1) / 2) / NELO_PER_T

    def best(t: float) -> float:
        def objective(z: np.ndarray) -> float:
            p = np.exp(z) / np.exp(z).sum()
            return float(-phat @ np.log(p))

        def constraint(z: np.ndarray) -> float:
            p = np.exp(z) / np.exp(z).sum()
            mu = p @ a
            return float((mu - 0.5) / math.sqrt(p @ (a - mu) ** 2) - t)

        fits = [
            minimize(
                objective,
                start,
                constraints=[{"type": "eq", "fun": constraint}],
                method="SLSQP",
                options={"ftol": 1e-15, "maxiter": 1000},
            )
            for start in (np.log(phat), np.zeros(k))
        ]
        return float(min(f.fun for f in fits))

    return float(n * (best(nelo0 * scale) - best(nelo1 * scale)))


@pytest.mark.parametrize(
    ("counts", "fastchess_value"),
    [(tri(0, 0, 16700), 2.97), (penta(0, 0, 0, 0, 0, 104), 2.94)],
)
def test_degenerate_fastchess_cases_follow_the_exact_mle(
    counts: list[int], fastchess_value: float
) -> None:
    """All draws / all WW pairs (normalized, 0..5): fastchess publishes 2.97 / 2.94.

    Both count vectors are nearly all in one class after the 1e-3
    regularisation. A direct constrained maximisation gives -3.45 (all draws:
    μ = ½ exactly, so H0 fits better) and 2.09; we follow the exact MLE. The
    gap comes from fastchess's root finder (ITP, absolute θ tolerance 1e-7),
    not from the formula. docs/STATISTICS.md, "SPRT".
    """
    ours = llr(counts, 0, 5)
    assert ours == pytest.approx(direct_llr_normalized(counts, 0, 5), abs=1e-4)
    assert ours != pytest.approx(fastchess_value, rel=0.01)


@pytest.mark.parametrize("seed", range(3))
def test_logistic_llr_matches_the_closed_form_approximation_near_zero(
    seed: int,
) -> None:
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(50_000, [0.1, 0.2, 0.4, 0.2, 0.1]).tolist()
    assert llr(counts, -1, 2, elo_model="logistic") == pytest.approx(
        llr_approx(counts, -1, 2), abs=0.01
    )


@pytest.mark.parametrize("classes", [3, 5])
@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_the_float_llr_of_one_vector_equals_the_numpy_batch(
    classes: int, model: str
) -> None:
    # llr solves on plain floats what llr_batch solves with numpy: the same
    # root to rounding, over counts from lopsided and empty classes to large.
    rng = np.random.default_rng(classes)
    counts = np.vstack(
        [
            rng.multinomial(n, rng.dirichlet(np.ones(classes)))
            for n in (1, 3, 20, 400, 100_000)
            for _ in range(8)
        ]
    )
    for elo0, elo1 in ((0, 5), (-3, 1), (0, 50), (-10, 0)):
        batch = llr_batch(counts, elo0, elo1, elo_model=model)
        ours = [llr(row.tolist(), elo0, elo1, elo_model=model) for row in counts]
        assert ours == pytest.approx(batch.tolist(), rel=1e-9, abs=1e-9)


def test_batch_equals_one_by_one() -> None:
    counts = np.array([[10, 20, 30], [5, 50, 9], [100, 3, 120]])
    for model in ("logistic", "normalized"):
        batch = llr_batch(counts, -2, 3, elo_model=model)
        assert batch.tolist() == pytest.approx(
            [llr(list(c), -2, 3, elo_model=model) for c in counts]
        )


# -- SPRT class
# ------------------------------------------------------------------------------


#: fishtest's update_SPRT state after each update, printed by its own code
#: (official-stockfish/fishtest b8eecff2, server/fishtest/stats/stat_util.py,
#: run outside troef on the cumulative counts after each update):
#: (elo0, elo1, alpha, beta, model, elo model, batch_size, updates) with each
#: update (counts added, LLR, o0, o1, state as "H1"/"H0"/"continue").
FishtestUpdate = tuple[list[int], float, float, float, str]
FISHTEST_UPDATES: dict[
    str, tuple[float, float, float, float, str, str, int, list[FishtestUpdate]]
] = {
    "issue 31: SPRT(0, 2) fed one pentanomial vector": (
        0, 2, 0.05, 0.05, "pentanomial", "normalized", 1,
        [([60, 1500, 4000, 1350, 40], -2.493045267336849, 0, 0, "continue")],
    ),
    "issue 31: trinomial logistic, alpha 0.01, beta 0.10, one vector": (
        0, 5, 0.01, 0.10, "trinomial", "logistic", 1,
        [([2900, 4000, 3150], 4.2483987707008675, 0, 0, "continue")],
    ),
    "fishtest's self-test vector (stat_util __main__)": (
        -3, 1, 0.05, 0.05, "pentanomial", "logistic", 1,
        [([10789, 19328, 33806, 19402, 10543], 2.1310678117940807, 0, 0, "continue")],
    ),
    "two vectors: each restarts the extremes": (
        0, 5, 0.05, 0.05, "trinomial", "logistic", 1,
        [
            ([2900, 4000, 3000], 0.6946586150282433, 0, 0, "continue"),
            ([0, 0, 400], 10.023637756280891, 0, 0, "H1"),
        ],
    ),
    "a vector of exactly one batch: overshoot LLR/2": (
        0, 5, 0.05, 0.05, "trinomial", "logistic", 9900,
        [([2900, 4000, 3000], 0.6946586150282433, 0, 0.34732930751412167, "continue")],
    ),
    "a losing pentanomial vector": (
        0, 5, 0.05, 0.05, "pentanomial", "normalized", 1,
        [([300, 1000, 2000, 900, 250], -5.160743450140687, 0, 0, "H0")],
    ),
    "a vector, then single samples tracked from its LLR": (
        0, 5, 0.05, 0.05, "trinomial", "logistic", 1,
        [
            ([200, 100, 190], -0.24454723618733146, 0, 0, "continue"),
            ([1, 0, 0], -0.26261918191462214, 0.009035972863645339, 0, "continue"),
            ([1, 0, 0], -0.28067271957124235, 0.009031373190977942, 0, "continue"),
            ([1, 0, 0], -0.2987079911328358, 0.00902679869929258, 0, "continue"),
            ([0, 0, 1], -0.2806429653519331, 0.00902679869929258, 0, "continue"),
            ([0, 0, 1], -0.2625968854000841, 0.00902679869929258, 0, "continue"),
            ([1, 0, 0], -0.28061560252830814, 0.00902679869929258, 0, "continue"),
            ([1, 0, 0], -0.2986164147329615, 0.00902679869929258, 0, "continue"),
            ([1, 0, 0], -0.3165994583643865, 0.009006669225952987, 0, "continue"),
            ([1, 0, 0], -0.3345648683895882, 0.009001886530515773, 0, "continue"),
        ],
    ),
    "batches of 5, then a total off the contract drops the correction": (
        0, 5, 0.05, 0.05, "trinomial", "logistic", 5,
        [
            ([3, 1, 1], -0.036592019813794556, 0.018296009906897278, 0, "continue"),
            ([3, 1, 1], -0.07318403962758911, 0.018296009906897278, 0, "continue"),
            ([1, 1, 3], -0.037907736980730036, 0.018296009906897278, 0, "continue"),
            ([4, 1, 0], -0.11044719761586108, 0.018409225671386358, 0, "continue"),
            ([4, 0, 1], -0.1571799389136962, 0.019883084074767132, 0, "continue"),
            ([2, 1, 0], -0.19609867825337543, 0, 0, "continue"),
            ([4, 1, 0], -0.2677759691690963, 0, 0, "continue"),
        ],
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(FISHTEST_UPDATES))
def test_sprt_batches_decide_where_fishtests_update_sprt_does(case: str) -> None:
    """Issue 31 item 1: one call with a whole count vector is several batches at
    once, so fishtest restarts its overshoot data and decides on Wald's bounds
    (SPRT(0, 2) on [60, 1500, 4000, 1350, 40]: LLR -2.493, continue on
    [-2.944, 2.944]; troef had moved the lower bound in by |LLR|/2 and said H0).
    """
    elo0, elo1, alpha, beta, model, elo_model, batch_size, updates = FISHTEST_UPDATES[
        case
    ]
    test = SPRT(
        elo0, elo1, alpha, beta, model=model, elo_model=elo_model, batch_size=batch_size
    )
    lower, upper = sprt_bounds(alpha, beta)
    for added, value, o0, o1, status in updates:
        test.add_counts(added)
        assert test.llr == pytest.approx(value, rel=1e-9, abs=1e-12), case
        assert test.overshoot == pytest.approx((o0, o1), rel=1e-9, abs=1e-12), case
        assert test.status == status, case
    assert lower == pytest.approx(math.log(beta / (1 - alpha)), rel=1e-12)
    assert upper == pytest.approx(math.log((1 - beta) / alpha), rel=1e-12)


def test_sprt_class_accumulates_and_decides() -> None:
    test = SPRT(0, 5, 0.05, 0.05, model="trinomial", elo_model="logistic")
    assert test.status == "continue" and test.llr == 0.0
    test.add_counts([2900, 4000, 3000])  # 9900 samples at once: Wald's bounds
    assert test.counts == (2900, 4000, 3000)
    assert test.llr == pytest.approx(
        llr([2900, 4000, 3000], 0, 5, elo_model="logistic")
    )
    assert test.overshoot == (0.0, 0.0)
    assert test.status == "continue"
    test.add(1.0, 400)  # 400 samples in one update, as add_counts
    assert test.status == "H1"
    assert test.counts == (2900, 4000, 3400)
    assert test.elo_estimate().elo == pytest.approx(elo_estimate(test.counts).elo)
    test.add(1.0, 0)  # no new sample: nothing moves
    assert test.overshoot == (0.0, 0.0) and test.counts == (2900, 4000, 3400)
    assert (
        repr(SPRT(0, 5, model="pentanomial"))
        == "SPRT(0, 5, 0.05, 0.05, model='pentanomial', elo_model='normalized')"
    )
    assert repr(SPRT(0, 5, batch_size=4)).endswith(
        "elo_model='normalized', batch_size=4)"
    )


def test_one_sample_at_a_time_is_the_normal_case() -> None:
    """The tournament's monitor adds one group per call: with the default batch of
    one sample every call is fishtest's normal update, and the first step from 0
    moves the bound by exactly half of it (sq/(2m) with one step)."""
    test = SPRT(0, 5, model="trinomial", elo_model="logistic")
    test.add(0.0)
    first = test.llr
    assert first < 0
    assert test.overshoot == pytest.approx((-first / 2, 0.0))
    test.add(1.0)
    test.add(1.0)
    assert test.llr > 0
    assert test.overshoot[1] == pytest.approx(test.llr / 2)


def test_sprt_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="elo0 must be less"):
        SPRT(5, 0)
    with pytest.raises(ValueError, match="accepted: trinomial, pentanomial"):
        SPRT(0, 5, model="heptanomial")
    with pytest.raises(ValueError, match="not a trinomial score"):
        SPRT(0, 5, model="trinomial").add(1.5)
    with pytest.raises(ValueError, match="5 entries"):
        SPRT(0, 5).add_counts([1, 2, 3])
    with pytest.raises(ValueError, match="batch_size must be at least 1, got 0"):
        SPRT(0, 5, batch_size=0)
    with pytest.raises(ValueError, match=r"batch_size must be an integer, got 2\.5"):
        SPRT(0, 5, batch_size=2.5)  # type: ignore[arg-type]


# -- head-to-head intervals at the boundary (docs R8)
# -----------------------------------------------------------


@pytest.mark.parametrize("wins", range(7))
def test_head_to_head_interval_at_k_wins_of_six_is_wilsons(wins: int) -> None:
    """Wins and losses only: the interval is Wilson's score interval, by hand.

    6 of 6 gives [6/(6 + z²), 1], a score of 0.6097 at 95 %: Elo [+77.46, +∞],
    not the point +1199.8 [+1199.8, +1199.8] a plain normal interval gives.
    """
    n, z = 6, st.norm.ppf(0.975)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    results = games("a", "b", wins, 0, n - wins)
    [row] = pair_statistics(results)
    assert row.lower == pytest.approx(elo_from_score(max(centre - half, 0.0)))
    assert row.upper == pytest.approx(elo_from_score(min(centre + half, 1.0)))
    assert row.lower < row.upper
    if wins == n:
        assert row.lower == pytest.approx(elo_from_score(6 / (6 + z * z)))
        assert row.lower == pytest.approx(77.46, abs=0.01)
        assert row.upper == math.inf
    if wins == 0:
        assert row.lower == -math.inf


def test_six_draws_keep_an_interval_around_zero() -> None:
    """All draws: no observed variance, yet the interval has width (r = 1/2.5)."""
    [row] = pair_statistics(games("a", "b", 0, 6, 0))
    assert row.elo == 0.0
    assert row.lower == pytest.approx(-row.upper)
    assert 50 < row.upper < 200


@pytest.mark.parametrize("draw_rate", [0.0, 0.4])
def test_head_to_head_intervals_cover_95_percent(draw_rate: float) -> None:
    """Simulated coverage of the true Elo over strengths and 20-50 games per pair
    is within 93-97 %, and no interval is empty or a point.
    """
    rng = np.random.default_rng(15)
    hits = total = 0
    for elo in (-200, -100, 0, 80, 200):
        s = score_from_elo(elo)
        win = s - draw_rate / 2
        for n in (20, 50):
            for _ in range(400):
                x = rng.choice(
                    [1.0, 0.5, 0.0], size=n, p=[win, draw_rate, 1 - win - draw_rate]
                )
                low, high = score_interval(x.tolist())
                assert low < high
                hits += low <= s <= high
                total += 1
    assert 0.93 <= hits / total <= 0.97


def games(a: str, b: str, wins: int, draws: int, losses: int) -> list[PairResult]:
    """a's wins, draws and losses against b, one ungrouped result each."""
    return (
        [PairResult(a, b, 1.0)] * wins
        + [PairResult(a, b, 0.5)] * draws
        + [PairResult(a, b, 0.0)] * losses
    )


# -- fishtest equivalence (ref §2.3, §2.9, §2.10)
# -------------------------------------------------------------

#: Reference figures printed by fishtest's own code (official-stockfish/fishtest,
#: server/fishtest/stats: stat_util.get_elo and stat_util.SPRT_elo), run on these
#: counts with alpha = beta = 0.05: (counts, elo0, elo1, elo model) -> (elo, ci
#: lower, ci upper, LOS).
FISHTEST_SPRT_ELO = [
    (
        [10789, 19328, 33806, 19402, 10543],
        -3,
        1,
        "logistic",
        (-0.9925365594552716, -3.488492131294004, 1.4885858954857965, 0.188034793108),
    ),
    (
        [20, 50, 40],
        0,
        5,
        "logistic",
        (63.880337147004354, 16.706922122658494, 113.52053141679534, 0.996138859467),
    ),
    (
        [3000, 3000, 4000],  # LLR 19.1: clamped at the upper bound
        0,
        5,
        "logistic",
        (34.00678274149302, 19.3073211668017, 48.800882534469736, 0.999997137541),
    ),
    (
        [5, 30, 60, 40, 12],
        0,
        5,
        "normalized",
        (28.4253423301782, 1.542041297734071, 55.65330665558323, 0.980897707078),
    ),
    (
        [300, 900, 1500, 800, 250],  # LLR -1.72 under normalized bounds 0, 2
        0,
        2,
        "normalized",
        (-9.267146020810301, -14.936520124501788, -3.602702012779215, 0.000670747694),
    ),
]


def test_get_elo_replaces_empty_classes_as_fishtest_does() -> None:
    """fishtest get_elo([0, 20, 10]) = (120.39462735484736, ±67.0326): the empty
    loss class counts 1e-3; the raw counts would give 120.412.
    """
    est = elo_estimate((0, 20, 10))
    assert est.elo == pytest.approx(120.39462735484736, abs=1e-9)
    assert est.error == pytest.approx(67.03258157407642, abs=1e-9)
    assert est.los == pytest.approx(0.9999460447010018, abs=1e-7)
    assert est.samples == 30
    assert elo_from_score(20 / 30) == pytest.approx(120.412, abs=1e-3)  # the raw counts


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1", "model", "expected"), FISHTEST_SPRT_ELO
)
def test_sprt_elo_is_fishtests_median_unbiased_estimate(
    counts: list[int],
    elo0: float,
    elo1: float,
    model: str,
    expected: tuple[float, float, float, float],
) -> None:
    got = sprt_elo(counts, elo0, elo1, elo_model=model)
    assert (got.elo, got.lower, got.upper) == pytest.approx(expected[:3], abs=1e-9)
    assert got.los == pytest.approx(expected[3], abs=1e-9)


def test_sprt_adjusted_elo_differs_from_the_raw_one_after_stopping() -> None:
    """Stopped at the upper bound, the raw estimate overstates: 34.0 adjusted vs
    the raw 34.9 on [3000, 3000, 4000] (the LLR path is clamped at the bound).
    """
    test = SPRT(0, 5, model="trinomial", elo_model="logistic")
    test.add_counts([3000, 3000, 4000])
    assert test.elo_estimate().elo == pytest.approx(34.86, abs=0.01)
    assert test.sprt_elo().elo == pytest.approx(34.0068, abs=1e-4)


def test_overshoot_correction_by_hand() -> None:
    """update_SPRT's data after batches of ``batch_size``: each new minimum adds its
    step to m0 and its square to sq0; the lower bound moves up by sq0/(2·|m0|).
    """
    test = SPRT(0, 5, model="trinomial", elo_model="logistic", batch_size=5)
    steps = [(3, 1, 1), (3, 1, 1), (0, 1, 4), (4, 1, 0)]
    lows = 0.0
    m0 = sq0 = 0.0
    for batch in steps:
        test.add_counts(batch)
        value = llr(test.counts, 0, 5, elo_model="logistic")
        assert test.llr == value
        if value < lows:
            m0 += value - lows
            sq0 += (value - lows) ** 2
            lows = value
    assert m0 < 0
    assert test.overshoot[0] == pytest.approx(-sq0 / m0 / 2)
    assert test.overshoot[0] > 0


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 8])
def test_the_smallest_p_a_sign_test_can_give_at_n_samples(n: int) -> None:
    """Issue 14 item 9: n decisive samples cannot give p below 2 * 0.5**n."""
    results = [PairResult("a", "b", 1.0)] * n
    (ab,) = pair_statistics(results)
    assert ab.p_floor == pytest.approx(min(1.0, 2 * 0.5**n))
    assert ab.p_value == pytest.approx(ab.p_floor)  # every sample for a: the floor


def test_the_smallest_p_of_wilcoxon_on_four_pairs_is_one_eighth() -> None:
    """Four distinct paired differences: the exact signed-rank test reaches
    2/2**4 = 0.125 at best, whatever the sign of each difference."""
    results = [PairResult("a", "b", 1.0, group=f"g{g}") for g in range(4)]
    (ab,) = pair_statistics(results, paired={("a", "b"): [3.0, -1.0, 4.0, 2.0]})
    assert ab.test == "wilcoxon"
    assert ab.p_floor == pytest.approx(0.125)
    assert ab.p_value > ab.p_floor
    (big,) = pair_statistics(
        results, paired={("a", "b"): [float(k) for k in range(1, 13)]}
    )
    assert big.p_floor == pytest.approx(2 / 2**12)
