"""Pairwise statistics, multiple comparisons, tiers and the SPRT.

Representation. A *sample* is one independent unit of play (docs/STATISTICS.md
§2, ../shared/STATISTICS.md notation): a single game, or one duplicate
group, whose outcome is a score in [0, 1]. Count vectors list how many samples
fell in each outcome class, classes scored i/(k-1): trinomial ``(L, D, W)``,
pentanomial ``(LL, LD, DD+WL, WD, WW)`` for pairs of games (fishtest
``LLRcalc``: "If the length is 5 then it should contain the frequencies of the
game pairs LL, LD+DL, LW+DD+WL, DW+WD, WW").

Elo models in the SPRT: ``"logistic"`` (the hypotheses constrain the expected
score, s = E(elo)) and ``"normalized"`` (they constrain the t-value
(μ - ½)/sigma: nElo). Both are the generalised SPRT of fishtest's ``LLRcalc``
(``LLR_logistic``, ``LLR_normalized``) and fastchess ``sprt.cpp``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from harness.contracts.result import Result
from harness.stats.ratings import PairResult
from harness.stats.standings import pairwise_outcomes

__all__ = [
    "SPRT",
    "EloEstimate",
    "PairStats",
    "SprtElo",
    "elo_estimate",
    "elo_from_samples",
    "elo_from_score",
    "holm",
    "llr",
    "llr_approx",
    "llr_batch",
    "los",
    "pair_statistics",
    "paired_differences",
    "score_from_elo",
    "score_interval",
    "significance",
    "sprt_bounds",
    "sprt_elo",
    "tiers",
]

#: nElo per unit of t-value: 800/ln 10 (fishtest ``LLRcalc.nelo_divided_by_nt``).
NELO_PER_T = 800 / math.log(10)
#: fishtest clamps scores to [1e-3, 1 - 1e-3] before converting to Elo
#: (``stat_util.elo``).
SCORE_CLAMP = 1e-3
#: fishtest and fastchess replace an empty outcome class by this count
#: (``LLRcalc.regularize``).
REGULARIZE = 1e-3
ELO_MODELS = ("logistic", "normalized")
SPRT_MODELS = ("trinomial", "pentanomial")

FloatArray = NDArray[np.float64]
#: The standard normal law; the stdlib's, so that importing this module does not
#: import scipy.stats (seconds on a cold start; scipy is imported where needed).
_NORMAL = NormalDist()


# -- Elo, score, LOS -------------------------------------------------------------


def score_from_elo(elo: float) -> float:
    """Expected score at an Elo difference: E(D) = 1/(1 + 10^(-D/400)) (STATISTICS.md
    §2.1).
    """
    return 1 / (1 + 10 ** (-elo / 400))


def elo_from_score(score: float, *, clamp: float = 0.0) -> float:
    """Elo difference of an expected score: D(s) = -400·log10(1/s - 1).

    :param clamp: clamp ``score`` to [clamp, 1 - clamp] first (fishtest uses 1e-3).
        Without it a score of 0 or 1 gives ∓/± infinity.
    """
    if not 0 <= score <= 1:
        raise ValueError(f"a score must be between 0 and 1, got {score!r}")
    s = min(max(score, clamp), 1 - clamp)
    if s == 0:
        return -math.inf
    if s == 1:
        return math.inf
    return -400 * math.log10(1 / s - 1)


@dataclass(frozen=True)
class EloEstimate:
    """Elo difference, its confidence interval and LOS (raw, not SPRT-adjusted)."""

    elo: float
    lower: float
    upper: float
    #: Likelihood of superiority, Φ((ŝ - ½)/SE).
    los: float
    #: Mean score per sample, 0..1.
    score: float
    #: Number of samples N (games, pairs or duplicate groups).
    samples: int
    confidence: float

    @property
    def error(self) -> float:
        """Half-width of the interval, the "±" figure (STATISTICS.md §2.3)."""
        return (self.upper - self.lower) / 2


def _estimate(
    score: float, sd: float, n: int, confidence: float, total: float | None = None
) -> EloEstimate:
    """STATISTICS.md §2.3 and §2.5 from ŝ, sigmâ and N (``total``: N with the 1e-3
    of empty classes, as fishtest's SE counts it).
    """
    if n == 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5, 0.5, 0, confidence)
    se = sd / math.sqrt(n if total is None else total)
    z = float(_NORMAL.inv_cdf(0.5 + confidence / 2))
    if se > 0:
        los_value = float(_NORMAL.cdf((score - 0.5) / se))
    else:
        los_value = 1.0 if score > 0.5 else 0.0 if score < 0.5 else 0.5
    elo = elo_from_score(score, clamp=SCORE_CLAMP)
    lower = elo_from_score(min(max(score - z * se, 0.0), 1.0), clamp=SCORE_CLAMP)
    upper = elo_from_score(min(max(score + z * se, 0.0), 1.0), clamp=SCORE_CLAMP)
    return EloEstimate(elo, lower, upper, los_value, score, n, confidence)


def score_interval(
    scores: Sequence[float], *, confidence: float = 0.95
) -> tuple[float, float]:
    """Wilson-type interval for the mean of per-sample scores in [0, 1].

    Solves (ŝ - p)² = z²·r·p(1 - p)/N for p (Wilson 1927 with the binomial
    variance scaled by r), where r = (Σ(xᵢ - ŝ)² + 1)/(N·ŝ(1 - ŝ) + 1) is the
    observed variance over the binomial one with one pseudo-unit added to each.
    With wins and losses only r = 1 and this is Wilson's interval; draws make r
    smaller, as they make the variance smaller; and where every sample is
    equal (6 wins of 6, or 6 draws) the interval keeps a width instead of
    collapsing to a point (docs/STATISTICS.md R8).
    """
    x = np.asarray(scores, dtype=np.float64)
    n = len(x)
    if n == 0:
        return 0.0, 1.0
    s = float(x.mean())
    ratio = (float(((x - s) ** 2).sum()) + 1) / (n * s * (1 - s) + 1)
    k = float(_NORMAL.inv_cdf(0.5 + confidence / 2)) ** 2 * ratio / n
    centre, half = 2 * s + k, math.sqrt(max(k * k + 4 * k * s * (1 - s), 0.0))
    lower = max((centre - half) / (2 * (1 + k)), 0.0)
    upper = min((centre + half) / (2 * (1 + k)), 1.0)
    return (0.0 if s == 0 else lower), (1.0 if s == 1 else upper)


def elo_estimate(counts: Sequence[float], *, confidence: float = 0.95) -> EloEstimate:
    """Elo from k-nomial counts, classes scored i/(k-1): (L, D, W) or 5 pair classes.

    ŝ = Σ p̂ᵢaᵢ, sigmâ² = Σ p̂ᵢ(aᵢ - ŝ)², SE = sigmâ/√N, interval [D(ŝ - z·SE), D(ŝ +
    z·SE)]
    (STATISTICS.md §2.2-2.3; fishtest ``stat_util.get_elo``, fastchess ``elo_wdl.cpp``).
    """
    raw = _distribution(counts, regularize=False)[2]
    if raw == 0:
        return _estimate(0.5, 0.0, 0, confidence)
    # fishtest's get_elo replaces empty classes by 1e-3 first (LLRcalc.regularize):
    # [0, 20, 10] gives 120.395, not the 120.412 of the raw counts.
    p, a, total = _distribution(counts, regularize=True)
    s = float(p @ a)
    sd = math.sqrt(float(p @ (a - s) ** 2))
    return _estimate(s, sd, round(raw), confidence, total)


def elo_from_samples(
    scores: Sequence[float], *, confidence: float = 0.95
) -> EloEstimate:
    """Elo from per-sample mean scores in [0, 1], e.g. one per duplicate group (§4)."""
    x = np.asarray(scores, dtype=np.float64)
    if len(x) == 0:
        return _estimate(0.5, 0.0, 0, confidence)
    return _estimate(float(x.mean()), float(x.std()), len(x), confidence)


def los(wins: float, losses: float, draws: float = 0.0) -> float:
    """Likelihood of superiority Φ((ŝ - ½)/SE) over W/D/L games (STATISTICS.md §2.5).

    Draws enter through N and sigmâ. This is fishtest's and fastchess's
    formula, not cutechess's draw-blind ½(1 + erf((W-L)/√(2(W+L)))) (fastchess PR #223).
    """
    return elo_estimate((losses, draws, wins)).los


# -- pairwise statistics ---------------------------------------------------------


@dataclass(frozen=True)
class PairStats:
    """Head-to-head statistics of ``a`` against ``b`` (a < b by name)."""

    a: str
    b: str
    #: ``a``'s wins, draws and losses against ``b`` (pair results, unweighted).
    wins: int
    draws: int
    losses: int
    #: Independent samples: duplicate groups (a result without a group is one).
    samples: int
    #: ``a``'s score fraction, 0..1.
    score: float
    #: Elo difference a - b (samples as units, STATISTICS.md §2.3) and its interval:
    #: :func:`score_interval` mapped to Elo, so ±∞ at a score of 1 or 0.
    elo: float
    lower: float
    upper: float
    #: Likelihood that a is the stronger (STATISTICS.md §2.5).
    los: float
    #: Two-sided sign test over samples (binomial on decisive games when ungrouped).
    p_sign: float
    #: Wilcoxon signed-rank and one-sample t-test on the paired differences
    #: (None without them).
    p_wilcoxon: float | None
    p_ttest: float | None
    #: Mean paired difference a - b per group (None without them): from
    #: :func:`paired_differences`, a's pairwise wins minus losses against b.
    mean_difference: float | None
    #: The primary test ("wilcoxon" when paired differences were given, else "sign").
    test: str
    p_value: float
    #: ``p_value`` after Holm's correction over every pair of the call.
    p_holm: float
    #: The smallest p the primary test could give at this sample size (every
    #: sample in a's favour): above alpha, "not significant" is no finding.
    p_floor: float = 0.0

    @property
    def games(self) -> int:
        """Pair results between a and b."""
        return self.wins + self.draws + self.losses


def paired_differences(
    matches: Iterable[tuple[Sequence[str], Result, str | None]],
) -> dict[tuple[str, str], list[float]]:
    """Per duplicate group, a's pairwise wins minus losses against b, for each a < b.

    Each match in which a and b sat in different teams adds +1 when a's team
    ranked above b's, -1 when below and 0 for a tie
    (:func:`harness.stats.standings.pairwise_outcomes`, so 2·score - 1), summed over
    the matches of the group. Ranks are in the game's own order, so this holds
    for games won on fewest points, lives or chips alike; raw scores are never
    compared (docs/STATISTICS.md, R7). Matches without a group are groups of
    one.
    """
    totals: dict[tuple[str, str], dict[object, float]] = defaultdict(
        lambda: defaultdict(float)
    )
    for number, (seating, result, group) in enumerate(matches):
        key: object = group if group is not None else ("match", number)
        for x, y, score in pairwise_outcomes(seating, result):
            a, b, s = (x, y, score) if x < y else (y, x, 1.0 - score)
            totals[(a, b)][key] += 2 * s - 1
    return {pair: list(groups.values()) for pair, groups in totals.items()}


def _paired_tests(diffs: Sequence[float]) -> tuple[float, float | None]:
    """(Wilcoxon p, t-test p) of paired differences against 0, both two-sided."""
    d = np.asarray(diffs, dtype=np.float64)
    nonzero = d[d != 0]
    from scipy import stats as st

    p_w = float(st.wilcoxon(nonzero).pvalue) if len(nonzero) else 1.0
    if len(d) < 2:
        return p_w, None
    if float(d.std()) == 0.0:  # t is 0/0 or ±∞: decide without scipy's warning
        return p_w, 1.0 if d[0] == 0 else 0.0
    return p_w, float(st.ttest_1samp(d, 0.0).pvalue)


def pair_statistics(
    results: Iterable[PairResult],
    *,
    paired: Mapping[tuple[str, str], Sequence[float]] | None = None,
    confidence: float = 0.95,
) -> list[PairStats]:
    """Statistics for every pair that met, with Holm-adjusted p-values.

    :param paired: per pair, paired differences (one per duplicate group,
        e.g. from :func:`paired_differences`); a key (b, a) is read negated.
        With them the primary test is Wilcoxon's signed-rank test; without, the
        exact sign test over samples.
    """
    by_pair: dict[tuple[str, str], dict[object, list[float]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for number, r in enumerate(results):
        a, b, s = (r.a, r.b, r.score) if r.a < r.b else (r.b, r.a, 1.0 - r.score)
        by_pair[(a, b)][r.group if r.group is not None else ("single", number)].append(
            s
        )
    rows: list[dict[str, Any]] = []
    for (a, b), groups in sorted(by_pair.items()):
        rows.append(_pair_row(a, b, groups, _lookup(paired, a, b), confidence))
    adjusted = holm([row["p_value"] for row in rows])
    return [PairStats(**row, p_holm=p) for row, p in zip(rows, adjusted, strict=True)]


def _lookup(
    paired: Mapping[tuple[str, str], Sequence[float]] | None, a: str, b: str
) -> list[float] | None:
    if paired is None:
        return None
    if (a, b) in paired:
        return [float(x) for x in paired[(a, b)]]
    if (b, a) in paired:
        return [-float(x) for x in paired[(b, a)]]
    return None


def _pair_row(
    a: str,
    b: str,
    groups: Mapping[object, list[float]],
    diffs: list[float] | None,
    confidence: float,
) -> dict[str, Any]:
    scores = [s for g in groups.values() for s in g]
    means = [sum(g) / len(g) for g in groups.values()]
    est = elo_from_samples(means, confidence=confidence)
    low, high = score_interval(means, confidence=confidence)
    ahead = sum(m > 0.5 for m in means)
    behind = sum(m < 0.5 for m in means)
    from scipy import stats as st

    p_sign = (
        float(st.binomtest(ahead, ahead + behind, 0.5).pvalue)
        if ahead + behind
        else 1.0
    )
    p_w = p_t = mean_diff = None
    decisive = ahead + behind
    p_floor = float(st.binomtest(decisive, decisive, 0.5).pvalue) if decisive else 1.0
    if diffs:
        p_w, p_t = _paired_tests(diffs)
        mean_diff = float(np.mean(diffs))
        # The same magnitudes, all in one direction: the most extreme ranking.
        p_floor, _ = _paired_tests([abs(d) for d in diffs])
    return dict(
        a=a,
        b=b,
        wins=scores.count(1.0),
        draws=scores.count(0.5),
        losses=scores.count(0.0),
        samples=len(means),
        score=sum(scores) / len(scores),
        elo=est.elo,
        lower=elo_from_score(low),
        upper=elo_from_score(high),
        los=est.los,
        p_sign=p_sign,
        p_wilcoxon=p_w,
        p_ttest=p_t,
        mean_difference=mean_diff,
        test="wilcoxon" if p_w is not None else "sign",
        p_value=p_w if p_w is not None else p_sign,
        p_floor=p_floor,
    )


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input order (Holm 1979).

    Sort ascending p₍₁₎ ≤ … ≤ p₍ₘ₎; adjusted p₍ᵢ₎ = max_{j≤i} min(1, (m - j + 1)·p₍ⱼ₎).
    Rejecting where adjusted p < alpha controls the family-wise error rate at alpha.
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda k: pvalues[k])
    out = [0.0] * m
    running = 0.0
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[k]))
        out[k] = running
    return out


def significance(
    pairs: Iterable[PairStats], *, alpha: float = 0.05, adjusted: bool = True
) -> Callable[[str, str], bool]:
    """A ``significant(a, b)`` predicate for :func:`tiers`: p (Holm-adjusted) < alpha.

    Pairs that never met are not significantly different.
    """
    table = {}
    for p in pairs:
        value = p.p_holm if adjusted else p.p_value
        table[(p.a, p.b)] = table[(p.b, p.a)] = value < alpha
    return lambda a, b: table.get((a, b), False)


def tiers(
    ordered: Sequence[str], significant: Callable[[str, str], bool]
) -> list[list[str]]:
    """Cut standings (best first) into consecutive tiers of statistically tied entrants.

    Walk down the order; an entrant joins the current tier unless it is
    significantly different from the tier's *first* (best) member, in which
    case it opens a new tier. So every member is tied with its tier's head,
    tiers never interleave, and a tier's head is significantly better than
    the head of the next tier... not necessarily than every member of it
    (ties are not transitive). docs/STATISTICS.md, "Tiers".
    """
    out: list[list[str]] = []
    for entrant in ordered:
        if out and not significant(out[-1][0], entrant):
            out[-1].append(entrant)
        else:
            out.append([entrant])
    return out


# -- SPRT ----------------------------------------------------------------------------


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds (ln(β/(1-alpha)), ln((1-β)/alpha)) (STATISTICS.md §2.6)."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError(
            f"need 0 < alpha, beta and alpha + beta < 1; got {alpha!r}, {beta!r}"
        )
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _distribution(
    counts: ArrayLike, *, regularize: bool
) -> tuple[FloatArray, FloatArray, float]:
    """(p̂, class scores a, N) of a count vector; zeros → 1e-3 when regularizing."""
    c = np.asarray(counts, dtype=np.float64)
    if c.ndim != 1 or len(c) < 2 or np.any(c < 0):
        raise ValueError(
            "counts must be a vector of at least 2 non-negative numbers, got "
            f"{counts!r}"
        )
    if regularize:
        c = np.where(c == 0, REGULARIZE, c)
    n = float(c.sum())
    a = np.arange(len(c)) / (len(c) - 1)
    return (c / n if n else c), a, n


def _secular(phat: FloatArray, x: FloatArray) -> FloatArray:
    """θ solving Σᵢ p̂ᵢxᵢ/(1 + θxᵢ) = 0 per row, in (-1/max x, -1/min x).

    The left side falls from +∞ to -∞ on that interval, so bisection (to
    machine precision) finds the unique root; fishtest ``LLRcalc.secular``
    uses Brent's method on the same bracket. ``x`` is rows x classes.
    """
    lo = -1 / x.max(axis=1)
    hi = -1 / x.min(axis=1)
    for _ in range(200):
        mid = (lo + hi) / 2
        f = np.sum(phat * x / (1 + mid[:, None] * x), axis=1)
        lo = np.where(f > 0, mid, lo)
        hi = np.where(f > 0, hi, mid)
        if np.all(hi - lo <= 1e-15 * np.maximum(1, np.abs(mid))):
            break
    return np.asarray((lo + hi) / 2, dtype=np.float64)


def _mle_expected(phat: FloatArray, a: FloatArray, s: float) -> FloatArray:
    """The ML distribution with mean ``s`` given p̂: p̂ᵢ/(1 + θ(aᵢ - s))
    (``LLRcalc.MLE_expected``).
    """
    x = np.broadcast_to(a - s, phat.shape)
    theta = _secular(phat, x)
    return phat / (1 + theta[:, None] * x)


def _mle_t_value(phat: FloatArray, a: FloatArray, t: float) -> FloatArray:
    """The ML distribution with (μ - ½)/sigma = t given p̂ (``LLRcalc.MLE_t_value``; §2.7
    steps 1-5).
    """
    p = np.full(phat.shape, 1 / phat.shape[1])
    for _ in range(100):
        mu = np.sum(p * a, axis=1)
        sigma = np.sqrt(np.sum(p * (a - mu[:, None]) ** 2, axis=1))
        phi = (
            a
            - 0.5
            - t * sigma[:, None] * (1 + ((a - mu[:, None]) / sigma[:, None]) ** 2) / 2
        )
        theta = _secular(phat, phi)
        new = phat / (1 + theta[:, None] * phi)
        done = np.max(np.abs(new - p)) < 1e-12
        p = new
        if done:
            break
    return p


def llr_batch(
    counts: ArrayLike, elo0: float, elo1: float, *, elo_model: str = "normalized"
) -> FloatArray:
    """Generalised-SPRT log-likelihood ratios of many count vectors (rows x classes).

    LLR = N·Σ p̂ᵢ·ln(pᵢ(H1)/pᵢ(H0)), where p(H) is the ML distribution under the
    hypothesis (STATISTICS.md §2.7): mean score E(elo) for ``"logistic"``;
    t-value nelo/(800/ln 10), x√2 for pentanomial rows, for ``"normalized"``.
    Zero counts are replaced by 1e-3 first, as fishtest and fastchess do.
    """
    if elo_model not in ELO_MODELS:
        raise ValueError(
            f"elo_model {elo_model!r} unknown; accepted: {', '.join(ELO_MODELS)}"
        )
    c = np.atleast_2d(np.asarray(counts, dtype=np.float64))
    c = np.where(c == 0, REGULARIZE, c)
    n = c.sum(axis=1)
    phat = c / n[:, None]
    k = c.shape[1]
    a = np.arange(k) / (k - 1)
    if elo_model == "logistic":
        p0 = _mle_expected(phat, a, score_from_elo(elo0))
        p1 = _mle_expected(phat, a, score_from_elo(elo1))
    else:
        # Games per sample: sigma of one game is √(games)·sigma of the sample mean
        # (§2.4).
        scale = math.sqrt((k - 1) / 2) / NELO_PER_T
        p0 = _mle_t_value(phat, a, elo0 * scale)
        p1 = _mle_t_value(phat, a, elo1 * scale)
    return np.asarray(n * np.sum(phat * np.log(p1 / p0), axis=1), dtype=np.float64)


def llr(
    counts: Sequence[float], elo0: float, elo1: float, *, elo_model: str = "normalized"
) -> float:
    """Generalised-SPRT LLR of one count vector (see :func:`llr_batch`).

    The same solution as :func:`llr_batch`, computed on plain floats: an
    SPRT takes it after every sample, and numpy's cost per call on a vector
    of 3 or 5 made it the runner's bottleneck (about 5 ms a sample).
    """
    if elo_model not in ELO_MODELS:
        raise ValueError(
            f"elo_model {elo_model!r} unknown; accepted: {', '.join(ELO_MODELS)}"
        )
    shares, scores, n = _distribution(counts, regularize=True)
    phat: list[float] = shares.tolist()
    a: list[float] = scores.tolist()
    k = len(a)
    if elo_model == "logistic":
        p0 = _mle_expected_one(phat, a, score_from_elo(elo0))
        p1 = _mle_expected_one(phat, a, score_from_elo(elo1))
    else:
        scale = math.sqrt((k - 1) / 2) / NELO_PER_T
        p0 = _mle_t_value_one(phat, a, elo0 * scale)
        p1 = _mle_t_value_one(phat, a, elo1 * scale)
    return n * math.fsum(
        h * math.log(q1 / q0) for h, q0, q1 in zip(phat, p0, p1, strict=True)
    )


def _secular_one(phat: Sequence[float], x: Sequence[float]) -> float:
    """:func:`_secular` of one row: Newton's method on the same bracket, kept
    inside it by bisection (the left side falls monotonically, so each step
    narrows the bracket)."""
    lo, hi = -1 / max(x), -1 / min(x)
    theta = 0.0  # inside: x has both signs when a root exists
    for _ in range(200):
        f = slope = 0.0
        for p, xi in zip(phat, x, strict=True):
            d = 1 + theta * xi
            f += p * xi / d
            slope -= p * xi * xi / (d * d)
        if f > 0:
            lo = theta
        else:
            hi = theta
        step = theta - f / slope if slope else (lo + hi) / 2
        if not lo < step < hi:
            step = (lo + hi) / 2
        if abs(step - theta) <= 1e-15 * max(1.0, abs(theta)):
            return step
        theta = step
    return theta


def _mle_expected_one(phat: list[float], a: list[float], s: float) -> list[float]:
    """:func:`_mle_expected` of one row."""
    x = [ai - s for ai in a]
    theta = _secular_one(phat, x)
    return [h / (1 + theta * xi) for h, xi in zip(phat, x, strict=True)]


def _mle_t_value_one(phat: list[float], a: list[float], t: float) -> list[float]:
    """:func:`_mle_t_value` of one row."""
    p = [1 / len(phat)] * len(phat)
    for _ in range(100):
        mu = sum(pi * ai for pi, ai in zip(p, a, strict=True))
        sigma = math.sqrt(sum(pi * (ai - mu) ** 2 for pi, ai in zip(p, a, strict=True)))
        phi = [ai - 0.5 - t * sigma * (1 + ((ai - mu) / sigma) ** 2) / 2 for ai in a]
        theta = _secular_one(phat, phi)
        new = [h / (1 + theta * f) for h, f in zip(phat, phi, strict=True)]
        done = max(abs(q - pi) for q, pi in zip(new, p, strict=True)) < 1e-12
        p = new
        if done:
            break
    return p


def llr_approx(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """Closed-form logistic LLR ≈ N(s1 - s0)(2ŝ - s0 - s1)/(2sigmâ²) (fishtest
    ``LLR_alt2``).
    """
    p, a, n = _distribution(counts, regularize=True)
    s = float(p @ a)
    var = float(p @ (a - s) ** 2)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


# -- Elo after an SPRT (ref §2.10) -------------------------------------------------


@dataclass(frozen=True)
class SprtElo:
    """fishtest's median-unbiased logistic Elo of an SPRT, its interval and LOS."""

    elo: float
    lower: float
    upper: float
    los: float
    confidence: float


def _brownian_cdf(
    a: float, b: float, mu: float, var: float, t: float, y: float
) -> float:
    """P(a Brownian path with drift mu, variance var, from 0, absorbed at a and b,
    ends to the right of (t, y)): fishtest ``brownian.Brownian.outcome_cdf``.
    """
    gamma, width = mu / var, b - a
    if var * t / width**2 < 1e-2 or abs(gamma * width) > 15:
        # Siegmund's approximation, with the asymptotic Phi where exp overflows.
        root = math.sqrt(t * var)
        z, za, zb = (
            (y - mu * t) / root,
            (-y + mu * t + 2 * a) / root,
            (y - mu * t - 2 * b) / root,
        )

        def term(bound: float, zz: float) -> float:
            if gamma * bound >= 5:
                return float(
                    -math.exp(-(zz**2) / 2 + 2 * gamma * bound)
                    / math.sqrt(2 * math.pi)
                    * (1 / zz - 1 / zz**3)
                )
            return math.exp(2 * gamma * bound) * float(_NORMAL.cdf(zz))

        return float(_NORMAL.cdf(z)) + term(a, za) - term(b, zb)
    x, y = -a, y - a
    lambda_1 = (math.pi / width) ** 2 * var / 2 + mu**2 / var / 2
    t0 = math.exp(-lambda_1 * t - x * gamma + y * gamma)
    total, n = 0.0, 1
    while True:
        lambda_n = (n * math.pi / width) ** 2 * var / 2 + mu**2 / var / 2
        t1 = math.exp(-(lambda_n - lambda_1) * t)
        u = (
            2 * width * gamma * math.sin(math.pi * n * y / width)
            - 2 * math.pi * n * math.cos(math.pi * n * y / width)
        ) / (width**2 * gamma**2 + math.pi**2 * n**2)
        total += t1 * u * math.sin(n * math.pi * x / width)
        if abs(t0 * t1 * u) <= 1e-9:
            break
        n += 1
    if gamma * width > 30:
        pre = math.exp(-2 * gamma * x)
    elif abs(gamma * width) < 1e-8:
        pre = (width - x) / width
    else:
        pre = (1 - math.exp(2 * gamma * (width - x))) / (
            1 - math.exp(2 * gamma * width)
        )
    return pre + t0 * total


def sprt_elo(
    counts: Sequence[float],
    elo0: float,
    elo1: float,
    *,
    alpha: float = 0.05,
    beta: float = 0.05,
    elo_model: str = "normalized",
    confidence: float = 0.95,
) -> SprtElo:
    """The Elo an SPRT-stopped run supports: fishtest's ``stat_util.SPRT_elo``.

    The LLR path is approximated by a Brownian motion with the drift and
    variance of ``LLRcalc.LLR_drift_variance_alt2``; the path is stopped at
    the bound it crossed (clamped there, at the time it would have reached
    it). The estimate is the Elo at which the observed outcome is the median
    (a worse outcome has probability ½), the interval the Elos where it is
    (1 ∓ confidence)/2. Logistic Elo per game whatever ``elo_model`` the bounds
    are in. Valid only for small Elo differences (fishtest's own caveat).
    """
    if elo_model not in ELO_MODELS:
        raise ValueError(
            f"elo_model {elo_model!r} unknown; accepted: {', '.join(ELO_MODELS)}"
        )
    lower_bound, upper_bound = sprt_bounds(alpha, beta)
    p, a, n = _distribution(counts, regularize=True)
    mean = float(p @ a)
    var = float(p @ (a - mean) ** 2)
    if elo_model == "normalized":
        sigma = math.sqrt(var * (len(a) - 1) / 2)  # per game (§2.4)
        s0, s1 = (0.5 + e / NELO_PER_T * sigma for e in (elo0, elo1))
    else:
        s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    drift = (mean - (s0 + s1) / 2) * (s1 - s0) / var
    spread = (s1 - s0) ** 2 / var
    llr_value, t = n * drift, n
    if llr_value < lower_bound:
        t, llr_value = lower_bound / drift, lower_bound
    elif llr_value > upper_bound:
        t, llr_value = upper_bound / drift, upper_bound

    def worse(elo: float) -> float:
        mu = (score_from_elo(elo) - (s0 + s1) / 2) * (s1 - s0) / var
        return _brownian_cdf(lower_bound, upper_bound, mu, spread, t, llr_value)

    from scipy.optimize import brentq

    def bound(q: float) -> float:
        centre, delta, k = (elo0 + elo1) / 2, elo1 - elo0, 30
        while True:
            lo, hi = max(centre - k * delta, -1000), min(centre + k * delta, 1000)
            f_lo, f_hi = worse(lo) - (1 - q), worse(hi) - (1 - q)
            if f_lo * f_hi <= 0:
                return float(brentq(lambda e: worse(e) - (1 - q), lo, hi))
            if lo > -1000 or hi < 1000:
                k *= 2
                continue
            return hi if f_lo > 0 else lo

    tail = (1 - confidence) / 2
    return SprtElo(bound(0.5), bound(tail), bound(1 - tail), worse(0.0), confidence)


class SPRT:
    """A sequential probability ratio test of elo0 against elo1 (GSPRT, ref §2.6-2.7).

    ``model="trinomial"`` counts games (L, D, W); ``"pentanomial"`` counts pairs
    of games, e.g. a duplicate set of two matches, by their total score
    0, ½, 1, 1½, 2. ``elo_model`` says what elo0/elo1 mean: ``"normalized"``
    (nElo, the default of fastchess and of STATISTICS.md) or ``"logistic"``.
    Status is decided on the current LLR against Wald's bounds moved by
    fishtest's overshoot correction (§2.9, ``stat_util.update_SPRT``): each
    call of :meth:`add` or :meth:`add_counts` is one batch, and the bounds
    move in by sq/(2m) of the batches' steps past the running minimum and
    maximum of the LLR (Siegmund 1985, Cor. 8.33).
    """

    def __init__(
        self,
        elo0: float,
        elo1: float,
        alpha: float = 0.05,
        beta: float = 0.05,
        *,
        model: str = "pentanomial",
        elo_model: str = "normalized",
    ) -> None:
        if not elo0 < elo1:
            raise ValueError(f"elo0 must be less than elo1, got {elo0!r} and {elo1!r}")
        if model not in SPRT_MODELS:
            raise ValueError(
                f"model {model!r} unknown; accepted: {', '.join(SPRT_MODELS)}"
            )
        if elo_model not in ELO_MODELS:
            raise ValueError(
                f"elo_model {elo_model!r} unknown; accepted: {', '.join(ELO_MODELS)}"
            )
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.model, self.elo_model = model, elo_model
        self.lower, self.upper = sprt_bounds(alpha, beta)
        self._counts = [0] * (3 if model == "trinomial" else 5)
        # fishtest's overshoot data: running extremes of the LLR (ref), sum (m)
        # and sum of squares (sq) of the steps that set a new extreme.
        self._ref0 = self._ref1 = self._m0 = self._m1 = self._sq0 = self._sq1 = 0.0
        self._llr = 0.0

    def add(self, outcome: float, count: int = 1) -> None:
        """Record ``count`` samples with this score: a game's 0/½/1, or a pair's 0..2 in
        halves.
        """
        slot = outcome * 2
        if slot != int(slot) or not 0 <= slot < len(self._counts) or count < 0:
            top = "1" if self.model == "trinomial" else "2"
            raise ValueError(
                f"outcome {outcome!r} is not a {self.model} score 0, 0.5, ... {top}"
            )
        self._counts[int(slot)] += count
        self._batch_done()

    def _batch_done(self) -> None:
        self._llr = (
            llr(self._counts, self.elo0, self.elo1, elo_model=self.elo_model)
            if any(self._counts)
            else 0.0
        )
        if self._llr < self._ref0:
            step = self._llr - self._ref0
            self._m0, self._sq0, self._ref0 = (
                self._m0 + step,
                self._sq0 + step**2,
                self._llr,
            )
        if self._llr > self._ref1:
            step = self._llr - self._ref1
            self._m1, self._sq1, self._ref1 = (
                self._m1 + step,
                self._sq1 + step**2,
                self._llr,
            )

    @property
    def overshoot(self) -> tuple[float, float]:
        """(o0, o1): how far the lower bound moves up and the upper bound down."""
        o0 = -self._sq0 / self._m0 / 2 if self._m0 else 0.0
        o1 = self._sq1 / self._m1 / 2 if self._m1 else 0.0
        return o0, o1

    def add_counts(self, counts: Sequence[int]) -> None:
        """Add a whole count vector ((L, D, W) or the 5 pair classes)."""
        if len(counts) != len(self._counts):
            raise ValueError(
                f"a {self.model} count vector has {len(self._counts)} entries, got "
                f"{counts!r}"
            )
        for k, c in enumerate(counts):
            self._counts[k] += int(c)
        self._batch_done()

    @property
    def counts(self) -> tuple[int, ...]:
        """Samples per outcome class, worst first."""
        return tuple(self._counts)

    @property
    def llr(self) -> float:
        """The current log-likelihood ratio (0 before any sample)."""
        return self._llr

    @property
    def status(self) -> str:
        """``"H1"`` (LLR ≥ upper - o1), ``"H0"`` (LLR ≤ lower + o0), or "continue"."""
        value = self.llr
        o0, o1 = self.overshoot
        return (
            "H1"
            if value >= self.upper - o1
            else "H0"
            if value <= self.lower + o0
            else "continue"
        )

    def elo_estimate(self, *, confidence: float = 0.95) -> EloEstimate:
        """Raw logistic Elo per game with its interval (§2.3); biased after stopping
        (§2.10).
        """
        return elo_estimate(self._counts, confidence=confidence)

    def sprt_elo(self, *, confidence: float = 0.95) -> SprtElo:
        """fishtest's median-unbiased Elo after stopping (:func:`sprt_elo`, §2.10)."""
        return sprt_elo(
            self._counts,
            self.elo0,
            self.elo1,
            alpha=self.alpha,
            beta=self.beta,
            elo_model=self.elo_model,
            confidence=confidence,
        )

    def __repr__(self) -> str:
        return (
            f"SPRT({self.elo0!r}, {self.elo1!r}, {self.alpha!r}, {self.beta!r}, "
            f"model={self.model!r}, elo_model={self.elo_model!r})"
        )
