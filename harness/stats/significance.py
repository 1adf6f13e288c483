"""Pairwise statistics: Elo from scores, LOS, paired tests, multiple comparisons, tiers.

Representation. A *sample* is one independent unit of play (docs/STATISTICS.md
§2, ../shared/STATISTICS.md notation): a single game, or one duplicate
group, whose outcome is a score in [0, 1]. Count vectors list how many samples
fell in each outcome class, classes scored i/(k-1): trinomial ``(L, D, W)``,
pentanomial ``(LL, LD, DD+WL, WD, WW)`` for pairs of games (fishtest
``LLRcalc``: "If the length is 5 then it should contain the frequencies of the
game pairs LL, LD+DL, LW+DD+WL, DW+WD, WW").

The sequential test (SPRT) on such counts is :mod:`harness.stats.sprt`.
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
    "EloEstimate",
    "PairStats",
    "elo_estimate",
    "elo_from_samples",
    "elo_from_score",
    "holm",
    "los",
    "pair_statistics",
    "paired_differences",
    "score_from_elo",
    "score_interval",
    "significance",
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


FloatArray = NDArray[np.float64]


#: The standard normal law; the stdlib's, so that importing this module does not
#: import scipy.stats (seconds on a cold start; scipy is imported where needed).
_NORMAL = NormalDist()


# -- counts --------------------------------------------------------------------


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


# -- Elo, score, LOS -----------------------------------------------------------


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


# -- pairwise statistics -------------------------------------------------------


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
