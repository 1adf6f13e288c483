"""Cluster-bootstrap intervals for the rating models (docs/STATISTICS.md §3).

Each round resamples whole duplicate groups with replacement and refits
(:func:`bootstrap_ratings` with the pairwise model, :func:`bootstrap_plackett_luce`
with Plackett-Luce); the intervals are the percentile intervals of the
replicates, in a :class:`BootstrapFit`.

A replicate in which an entrant won or lost every game has no finite
maximum-likelihood rating for it: the fit shows it at a bound (docs R3), and
the bootstrap keeps it as one. Its replicate is +∞ (-∞) when ordering
entrants (:meth:`BootstrapFit.los`) and "at least (at most) the bound" in the
percentile intervals: the lower end of an interval reads the bound of a
perfect score, the upper end +∞ (docs/STATISTICS.md §3).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from harness.contracts.errors import close_names
from harness.stats.ratings import (
    ELO_TO_NATURAL,
    Clusters,
    FloatArray,
    PairResult,
    PairTable,
    RatingFit,
    _aggregate,
    _check_options,
    clusters_of,
)
from harness.stats.ratings_pairwise import fit_ratings
from harness.stats.ratings_plackett_luce import (
    Ranking,
    _Choices,
    _choices,
    _pl_solve,
    fit_plackett_luce,
)

__all__ = [
    "BootstrapFit",
    "BootstrapRating",
    "bootstrap_plackett_luce",
    "bootstrap_ratings",
]


# -- results -------------------------------------------------------------------


@dataclass(frozen=True)
class BootstrapRating:
    """One entrant's bootstrap interval."""

    entrant: str
    #: The maximum-likelihood rating on all the data.
    rating: float
    lower: float
    upper: float
    #: Standard deviation of the bootstrap replicates.
    sd: float


@dataclass(frozen=True)
class BootstrapFit:
    """Percentile intervals from a cluster bootstrap over duplicate groups."""

    ratings: tuple[BootstrapRating, ...]
    rounds: int
    seed: int
    confidence: float
    #: Number of resampling units (duplicate groups; ungrouped results count one each).
    groups: int
    seat_advantage: float | None
    seat_advantage_interval: tuple[float, float] | None
    #: The full-data fit the intervals belong to.
    fit: RatingFit = field(repr=False)
    notes: tuple[str, ...] = ()
    #: Replicates, rounds x entrants in ``names`` order (NaN where an entrant had no
    #: games; +∞ or -∞ where it won or lost every game of the replicate, whose
    #: likelihood grows without bound as its rating goes that way).
    samples: FloatArray = field(
        default_factory=lambda: np.zeros((0, 0)), repr=False, compare=False
    )
    names: tuple[str, ...] = field(default=(), repr=False)
    #: What each replicate's fit showed: ``samples`` with the bound in place of
    #: ±∞ (the best rating a perfect score beat, the worst a zero score lost to).
    #: Empty when no replicate had a bound.
    shown: FloatArray = field(
        default_factory=lambda: np.zeros((0, 0)), repr=False, compare=False
    )

    def __getitem__(self, entrant: str) -> BootstrapRating:
        for line in self.ratings:
            if line.entrant == entrant:
                return line
        raise KeyError(f"no entrant {entrant!r}; {close_names(entrant, self.names)}")

    def difference(self, a: str, b: str) -> tuple[float, float, float]:
        """(R_a - R_b of the full fit, percentile lower, upper) of paired replicates.

        A replicate where either is at a bound gives the difference as a range
        (its lowest value to the lower end, its highest to the upper end).
        """
        ia, ib = self.names.index(a), self.names.index(b)
        low, high = _ends(self.samples, self.shown)
        keep = ~(np.isnan(self.samples[:, ia]) | np.isnan(self.samples[:, ib]))
        lo = _quantile((low[:, ia] - high[:, ib])[keep], 0.5 - self.confidence / 2)
        hi = _quantile((high[:, ia] - low[:, ib])[keep], 0.5 + self.confidence / 2)
        return self[a].rating - self[b].rating, lo, hi

    def los(self, a: str, b: str) -> float:
        """Likelihood of superiority: the share of replicates rating ``a`` above ``b``
        (a tie counts half; replicates without games for either are left out).

        A perfect score is above, a zero score below every rated entrant of its
        replicate; two perfect (or two zero) scores of one replicate tie.
        """
        ia, ib = self.names.index(a), self.names.index(b)
        x, y = self.samples[:, ia], self.samples[:, ib]
        keep = ~(np.isnan(x) | np.isnan(y))
        x, y = x[keep], y[keep]
        if not len(x):
            return math.nan
        return float(np.mean((x > y) + 0.5 * (x == y)))


# -- pairwise ------------------------------------------------------------------


def bootstrap_ratings(
    results: Sequence[PairResult],
    *,
    rounds: int = 1000,
    seed: int,
    anchor: str | None = None,
    anchor_rating: float = 0.0,
    seat_advantage: bool = False,
    draw_model: str = "half",
    confidence: float = 0.95,
    prior_draws: float = 1.0,
) -> BootstrapFit:
    """Cluster-bootstrap intervals: resample whole duplicate groups with replacement.

    All results sharing a ``group`` are drawn together (a duplicate set is one
    sample: docs/STATISTICS.md §4); a result without a group is its own group.
    Each round draws G groups out of G with ``numpy.random.default_rng(seed)``,
    refits with the same anchoring, and the interval is the percentile interval
    of the replicates (Efron & Tibshirani 1993, §13.3).
    """
    _check_options(draw_model, confidence)
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds!r}")
    results = list(results)
    table, row_of = _aggregate(results)
    clusters = clusters_of(table, results, row_of)
    fit = fit_ratings(
        table,
        anchor=anchor,
        anchor_rating=anchor_rating,
        seat_advantage=seat_advantage,
        draw_model=draw_model,
        confidence=confidence,
        prior_draws=prior_draws,
        clusters=clusters,
    )
    groups = clusters.count
    columns = _per_group(table, clusters)
    rng = np.random.default_rng(seed)
    names = table.names
    samples = np.full((rounds, len(names)), np.nan)
    shown = np.full((rounds, len(names)), np.nan)
    seats = np.full(rounds, np.nan)
    failures = 0
    for r in range(rounds):
        multiplicity = np.bincount(
            rng.integers(0, groups, groups), minlength=groups
        ).astype(np.float64)
        counts = [m @ multiplicity for m in columns]
        keep = (counts[0] + counts[1] + counts[2]) > 0
        replicate = PairTable(
            names,
            table.i[keep],
            table.j[keep],
            table.side[keep],
            counts[0][keep],
            counts[1][keep],
            counts[2][keep],
            table.count[keep],
        )
        one = fit_ratings(
            replicate,
            anchor=anchor if anchor is None or _has_games(replicate, anchor) else None,
            anchor_rating=anchor_rating,
            seat_advantage=seat_advantage,
            draw_model=draw_model,
            confidence=confidence,
            prior_draws=prior_draws,
        )
        if len(one.components) > 1 or (anchor is not None and one.anchor is None):
            failures += 1
        for k, name in enumerate(names):
            line = one[name]
            shown[r, k] = line.rating
            # A separated entrant's interval is open on one side (docs R3).
            samples[r, k] = (
                math.inf
                if math.isinf(line.upper)
                else -math.inf
                if math.isinf(line.lower)
                else line.rating
            )
        if one.seat_advantage is not None:
            seats[r] = one.seat_advantage
    lo_q, hi_q = 0.5 - confidence / 2, 0.5 + confidence / 2
    if np.array_equal(shown, samples, equal_nan=True):
        shown = np.zeros((0, 0))
    lines, notes = _percentile_lines(
        names, samples, fit, confidence, failures, rounds, shown
    )
    seat_interval = None
    if fit.seat_advantage is not None:
        ok = seats[~np.isnan(seats)]
        seat_interval = (float(np.quantile(ok, lo_q)), float(np.quantile(ok, hi_q)))
    return BootstrapFit(
        ratings=tuple(lines),
        rounds=rounds,
        seed=seed,
        confidence=confidence,
        groups=groups,
        seat_advantage=fit.seat_advantage,
        seat_advantage_interval=seat_interval,
        fit=fit,
        notes=tuple(notes),
        samples=samples,
        names=names,
        shown=shown,
    )


def _ends(samples: FloatArray, shown: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The lowest and highest value each replicate allows: the bound of a perfect
    score to +∞, -∞ to the bound of a zero score, else the point itself."""
    if not shown.size:
        return samples, samples
    low = np.where(samples == math.inf, shown, samples)
    high = np.where(samples == -math.inf, shown, samples)
    return low, high


def _quantile(values: FloatArray, q: float) -> float:
    """numpy's (linear) quantile of ``values`` with ±∞ allowed (NaN: none given).

    An infinite value is replaced by one beyond every finite one, so a quantile
    that interpolates towards it lies beyond them too and is read as infinite.
    """
    values = values[~np.isnan(values)]
    if not len(values):
        return math.nan
    finite = values[np.isfinite(values)]
    if len(finite) == len(values):
        return float(np.quantile(values, q))
    top, bottom = (float(finite.max()), float(finite.min())) if len(finite) else (0, 0)
    span = top - bottom + 1.0
    value = float(np.quantile(np.clip(values, bottom - span, top + span), q))
    if value > top or (not len(finite) and value == 0 and q >= 0.5):
        return math.inf
    if value < bottom or not len(finite):
        return -math.inf  # or halfway from -inf to +inf: the lower side
    return value


def _percentile_lines(
    names: Sequence[str],
    samples: FloatArray,
    fit: RatingFit,
    confidence: float,
    failures: int,
    rounds: int,
    shown: FloatArray | None = None,
) -> tuple[list[BootstrapRating], list[str]]:
    """Each entrant's percentile interval over the rounds (``samples[round,
    entrant]``, NaN where a round could not rate it; ±∞ at a bound, whose
    value ``shown`` holds), in the fit's order, and the note on rounds whose
    pool fell apart."""
    lo_q, hi_q = 0.5 - confidence / 2, 0.5 + confidence / 2
    low, high = _ends(samples, np.zeros((0, 0)) if shown is None else shown)
    lines = []
    for k, name in enumerate(names):
        column = samples[:, k]
        ok = column[~np.isnan(column)]
        spread = (
            math.inf
            if not np.all(np.isfinite(ok))
            else float(ok.std(ddof=1))
            if len(ok) > 1
            else math.nan
        )
        lines.append(
            BootstrapRating(
                name,
                fit[name].rating,
                _quantile(low[:, k], lo_q),
                _quantile(high[:, k], hi_q),
                spread,
            )
        )
    order = {line.entrant: p for p, line in enumerate(fit.ratings)}
    lines.sort(key=lambda line: order[line.entrant])
    notes = []
    if failures:
        notes.append(
            f"{failures} of {rounds} rounds drew a pool that was not connected (or "
            "lacked the anchor); their ratings were anchored per component"
        )
    return lines, notes


def _has_games(table: PairTable, name: str) -> bool:
    k = table.names.index(name)
    return bool(np.any(table.i == k) or np.any(table.j == k))


def _per_group(table: PairTable, clusters: Clusters) -> list[Any]:
    """Sparse rows x groups matrices of weighted wins, draws, losses (as the table)."""
    from scipy import sparse

    shape = (table.rows, clusters.count)
    where = (clusters.row, clusters.cluster)
    return [
        sparse.csr_matrix((clusters.weight * (clusters.score == value), where), shape)
        for value in (1.0, 0.5, 0.0)
    ]


# -- Plackett-Luce -------------------------------------------------------------


def bootstrap_plackett_luce(
    rankings: Sequence[Ranking],
    *,
    rounds: int = 1000,
    seed: int,
    anchor: str | None = None,
    anchor_rating: float = 0.0,
    confidence: float = 0.95,
    entrants: Iterable[str] = (),
    prior_draws: float = 1.0,
) -> BootstrapFit:
    """Cluster-bootstrap percentile intervals for :func:`fit_plackett_luce`.

    As :func:`bootstrap_ratings`: each round draws G duplicate groups (a match
    without a group is one) out of G with ``numpy.random.default_rng(seed)``
    and refits, here by reweighting each group's choice events by how often it
    was drawn; ratings are anchored as in the full fit.
    """
    _check_options("half", confidence)
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds!r}")
    rankings = list(rankings)
    fit = fit_plackett_luce(
        rankings,
        anchor=anchor,
        anchor_rating=anchor_rating,
        confidence=confidence,
        entrants=entrants,
        prior_draws=prior_draws,
    )
    names = fit.names
    n = len(names)
    data = _choices(rankings, {name: k for k, name in enumerate(names)})
    rng = np.random.default_rng(seed)
    samples = np.full((rounds, n), np.nan)
    failures = 0
    coo = data.present[:, :n].tocoo()
    anchor_index = names.index(anchor) if anchor is not None else -1
    for r in range(rounds):
        multiplicity = np.bincount(
            rng.integers(0, data.clusters, data.clusters), minlength=data.clusters
        ).astype(np.float64)
        weight = data.weight * multiplicity[data.cluster]
        replicate = _Choices(
            n, data.present, data.chosen, weight, data.cluster, data.clusters, data.real
        )
        played = np.zeros(n, bool)
        played[coo.col[weight[coo.row] > 0]] = True
        _, gamma, components, _, _, _ = _pl_solve(
            replicate, played, prior_draws, 100_000
        )
        if len(components) > 1 or (anchor is not None and not played[anchor_index]):
            failures += 1
        for members in components:
            idx = np.array(members)
            base = gamma[anchor_index] if anchor_index in members else gamma[idx].mean()
            samples[r, idx] = (gamma[idx] - base) / ELO_TO_NATURAL + anchor_rating
    lines, notes = _percentile_lines(names, samples, fit, confidence, failures, rounds)
    return BootstrapFit(
        ratings=tuple(lines),
        rounds=rounds,
        seed=seed,
        confidence=confidence,
        groups=data.clusters,
        seat_advantage=None,
        seat_advantage_interval=None,
        fit=fit,
        notes=tuple(notes),
        samples=samples,
        names=names,
    )
