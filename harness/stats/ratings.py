"""Ratings: the data every rating model reads and the result every one returns.

Where things are (``harness/stats/ratings*.py``, one module per job):

- this module: the records (:class:`PairResult`), their aggregation
  (:class:`PairTable`), the fit results (:class:`RatingFit`,
  :class:`EntrantRating`, :class:`RatingFlag`), the Elo scale and the options
  every fit checks;
- ``ratings_pairwise``: :func:`fit_ratings`, Bradley-Terry/Elo by maximum
  likelihood on pair results (half-point or Davidson draws, seat advantage);
- ``ratings_plackett_luce``: :class:`Ranking` and :func:`fit_plackett_luce`,
  whole rankings by Hunter's MM;
- ``ratings_intervals``: what turns a fit's parameters and information into
  anchored ratings and their covariance (anchoring, the sandwich);
- ``ratings_bootstrap``: :func:`bootstrap_ratings` and
  :func:`bootstrap_plackett_luce`, cluster-bootstrap intervals of either model.

A new rating model goes in a module ``ratings_<model>.py`` of its own: it
reads pair results (or its own records), returns a :class:`RatingFit`, maps
its parameters to anchored Elo with ``ratings_intervals``, and gets a name in
:data:`MODELS` for ``troef report --model``.

Data model. Every match is decomposed (``harness.stats.standings.pairwise_outcomes``)
into :class:`PairResult` records: the score of entrant ``a`` against entrant
``b`` (1, ½ or 0), the duplicate ``group`` the match belongs to, the entrant
that sat in the earlier seat (``first``) and a ``weight``. The fit never looks
at single records: :func:`aggregate` sums them into a :class:`PairTable`, one
row per (pair, seat order) with weighted wins, draws and losses, which is the
sufficient statistic of every pairwise model. A million results become a few
thousand rows, so the fit's cost depends on the number of entrants, not games.

Internally ratings are in natural units gamma = R·ln10/400 (so E = expit(gamma_a -
gamma_b));
everything returned is in Elo.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import NDArray

from harness.contracts.errors import close_names
from harness.contracts.result import Result
from harness.stats.standings import pairwise_outcomes

__all__ = [
    "Clusters",
    "EntrantRating",
    "PairResult",
    "PairTable",
    "RatingFit",
    "RatingFlag",
    "aggregate",
    "clusters_of",
    "group_index",
    "pair_results_from_matches",
    "pair_results_from_stored",
    "table_from_columns",
]


#: Natural units per Elo point: gamma = R · ELO_TO_NATURAL.
ELO_TO_NATURAL = math.log(10) / 400


#: Weights a k-team match gives each of its pairwise results (see
#: pair_results_from_matches).
WEIGHTINGS = ("entrant", "pair")


DRAW_MODELS = ("half", "davidson")


#: Rating models: pairwise results (``fit_ratings``) or whole rankings
#: (``fit_plackett_luce``).
MODELS = ("pairwise", "plackett-luce")


FloatArray = NDArray[np.float64]


def expit(x: FloatArray) -> FloatArray:
    """1/(1 + e^-x) without overflow (numpy only: scipy.special costs a second to
    import)."""
    return np.asarray(np.exp(-np.logaddexp(0.0, -x)), dtype=np.float64)


def log_expit(x: FloatArray) -> FloatArray:
    """log(1/(1 + e^-x)) without overflow."""
    return np.asarray(-np.logaddexp(0.0, -x), dtype=np.float64)


IntArray = NDArray[np.int64]


# -- records -------------------------------------------------------------------


@dataclass(frozen=True)
class PairResult:
    """One pairwise result: the score of ``a`` against ``b`` in one match."""

    #: The entrant whose score this is.
    a: str
    #: Its opponent (a different entrant).
    b: str
    #: ``a``'s score against ``b``: 1 win, 0.5 draw (equal ranks), 0 loss.
    score: float
    #: Duplicate group id: results sharing it are resampled together.
    group: str | None = None
    #: Which of ``a`` and ``b`` sat in the earlier seat (None: unknown).
    first: str | None = None
    #: Weight in the fit; 1/(k-1) for a k-team match by default (see
    #: docs/STATISTICS.md).
    weight: float = 1.0

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError(f"a pair result needs two entrants, got {self.a!r} twice")
        if self.score not in (0.0, 0.5, 1.0):
            raise ValueError(
                f"score of {self.a!r} against {self.b!r} is {self.score!r}; "
                "accepted: 1 (win), 0.5 (draw), 0 (loss)"
            )
        if self.first not in (None, self.a, self.b):
            raise ValueError(
                f"first={self.first!r} is neither {self.a!r} nor {self.b!r} (nor None)"
            )
        if not (self.weight > 0 and math.isfinite(self.weight)):
            raise ValueError(f"weight must be positive and finite, got {self.weight!r}")


def pair_results_from_matches(
    matches: Iterable[tuple[Sequence[str], Result, str | None]],
    *,
    weighting: str = "entrant",
) -> list[PairResult]:
    """Decompose matches ``(seating, result, group)`` into weighted pair results.

    Each pair of teams with different entrants gives one result
    (``harness.stats.standings.pairwise_outcomes``: 1 / ½ / 0 by rank), ``first`` the
    entrant of the team whose first seat comes earlier.

    :param weighting: ``"entrant"`` (default) weighs each of the k(k-1)/2
        results of a k-team match 1/(k-1), so the match counts once for every
        entrant; ``"pair"`` gives each weight 1, as ``harness.stats.standings`` counts
        them. Two-team matches (two pairs, two teams of three) weigh 1 either way.
        Why "entrant" is the default: docs/STATISTICS.md, "Weighting".
    """
    if weighting not in WEIGHTINGS:
        raise ValueError(
            f"weighting {weighting!r} unknown; accepted: {', '.join(WEIGHTINGS)}"
        )
    out: list[PairResult] = []
    for seating, result, group in matches:
        k = len(set(result.teams))
        weight = 1.0 / (k - 1) if weighting == "entrant" and k > 2 else 1.0
        for a, b, score in pairwise_outcomes(seating, result):
            # pairwise_outcomes lists the team with the earlier first seat as a.
            out.append(PairResult(a, b, score, group, a, weight))
    return out


def pair_results_from_stored(
    matches: Iterable[Any], *, weighting: str = "entrant"
) -> list[PairResult]:
    """:func:`pair_results_from_matches` over ``Store.matches()`` (seating, group)."""
    return pair_results_from_matches(
        ((m.job["seating"], m.result, m.job["group"]) for m in matches),
        weighting=weighting,
    )


# -- aggregation ---------------------------------------------------------------


@dataclass(frozen=True)
class PairTable:
    """Results summed by (entrant i, entrant j, seat order): what the fit reads.

    Row r says: ``names[i[r]]`` met ``names[j[r]]`` (i < j) with weighted
    ``wins[r]``, ``draws[r]``, ``losses[r]`` from i's side, in ``count[r]``
    results, ``side[r]`` = +1 when i sat first, -1 when j did, 0 unknown.
    """

    names: tuple[str, ...]
    i: IntArray = field(repr=False)
    j: IntArray = field(repr=False)
    side: IntArray = field(repr=False)
    wins: FloatArray = field(repr=False)
    draws: FloatArray = field(repr=False)
    losses: FloatArray = field(repr=False)
    count: IntArray = field(repr=False)

    @property
    def rows(self) -> int:
        """Number of rows."""
        return len(self.i)


def _columns(
    results: Sequence[PairResult], index: Mapping[str, int]
) -> tuple[Any, ...]:
    n = len(results)
    ia = np.fromiter((index[r.a] for r in results), np.int64, n)
    ib = np.fromiter((index[r.b] for r in results), np.int64, n)
    score = np.fromiter((r.score for r in results), np.float64, n)
    weight = np.fromiter((r.weight for r in results), np.float64, n)
    side = np.fromiter(
        (0 if r.first is None else 1 if r.first == r.a else -1 for r in results),
        np.int64,
        n,
    )
    return ia, ib, score, weight, side


def _aggregate(
    results: Sequence[PairResult], entrants: Iterable[str] = ()
) -> tuple[PairTable, IntArray]:
    """The table, and for every result the row it went to."""
    names = tuple(sorted({*entrants, *(r.a for r in results), *(r.b for r in results)}))
    index = {name: k for k, name in enumerate(names)}
    return table_from_columns(names, *_columns(results, index))


def table_from_columns(
    names: tuple[str, ...],
    ia: NDArray[np.integer[Any]],
    ib: NDArray[np.integer[Any]],
    score: FloatArray,
    weight: FloatArray,
    side: NDArray[np.integer[Any]],
) -> tuple[PairTable, IntArray]:
    """:func:`aggregate` on columns: entrant indices into ``names`` (sorted), a's
    score, weight, and side (+1 a sat first, -1 b did, 0 unknown), one per
    result. Returns the table and, for every result, the row it went to.
    """
    swap = ia > ib
    lo, hi = np.where(swap, ib, ia), np.where(swap, ia, ib)
    score = np.where(swap, 1.0 - score, score)
    side = np.where(swap, -side, side)
    n = max(len(names), 1)
    key = (lo.astype(np.int64) * n + hi) * 3 + (side + 1)
    if 3 * n * n <= 4 * len(key) + 1024:
        # Few possible keys: count them directly (no sort of a million keys).
        present = np.bincount(key, minlength=3 * n * n) > 0
        keys = np.flatnonzero(present)
        inverse = (np.cumsum(present) - 1)[key]
    else:
        keys, inverse = np.unique(key, return_inverse=True)
    rows = len(keys)

    def total(mask: NDArray[np.bool_]) -> FloatArray:
        return np.bincount(inverse, weight * mask, minlength=rows).astype(np.float64)

    table = PairTable(
        names=names,
        i=(keys // 3) // n,
        j=(keys // 3) % n,
        side=keys % 3 - 1,
        wins=total(score == 1.0),
        draws=total(score == 0.5),
        losses=total(score == 0.0),
        count=np.bincount(inverse, minlength=rows).astype(np.int64),
    )
    return table, inverse.astype(np.int64)


def aggregate(results: Iterable[PairResult], entrants: Iterable[str] = ()) -> PairTable:
    """Sum pair results into a :class:`PairTable` (``entrants``: names, no games)."""
    return _aggregate(list(results), entrants)[0]


@dataclass(frozen=True)
class Clusters:
    """Which results of a :class:`PairTable` share a duplicate group: one entry per
    result, for the clustered sandwich (docs/STATISTICS.md R2c).

    ``row[k]`` is the table row of result k, ``score[k]`` its score from the
    row's i side, ``weight[k]`` its weight, ``cluster[k]`` its cluster in
    0..count-1 (a duplicate group; a result without a group is one alone).
    """

    row: IntArray = field(repr=False)
    score: FloatArray = field(repr=False)
    weight: FloatArray = field(repr=False)
    cluster: IntArray = field(repr=False)
    count: int

    @property
    def grouped(self) -> bool:
        """True when some cluster holds more than one result."""
        return self.count < len(self.row)

    def keep_rows(self, rows: NDArray[np.bool_]) -> Clusters:
        """The clusters of a table reduced to ``rows`` (a mask over its rows)."""
        new_row = np.cumsum(rows) - 1
        kept = rows[self.row]
        ids, cluster = np.unique(self.cluster[kept], return_inverse=True)
        return Clusters(
            new_row[self.row[kept]].astype(np.int64),
            self.score[kept],
            self.weight[kept],
            cluster.astype(np.int64),
            len(ids),
        )


def group_index(results: Sequence[PairResult]) -> tuple[IntArray, int]:
    """Each result's duplicate group as 0, 1, ... (a result without a group is one
    alone), and how many there are."""
    ids: dict[object, int] = {}
    out = np.empty(len(results), np.int64)
    for k, r in enumerate(results):
        key: object = ("group", r.group) if r.group is not None else ("single", k)
        out[k] = ids.setdefault(key, len(ids))
    return out, len(ids)


def clusters_of(
    table: PairTable, results: Sequence[PairResult], row_of: IntArray
) -> Clusters:
    """The :class:`Clusters` of ``results``, which ``row_of`` maps into ``table``."""
    index = {name: k for k, name in enumerate(table.names)}
    ia, ib, score, weight, _ = _columns(results, index)
    cluster, count = group_index(results)
    return Clusters(
        row_of, np.where(ia > ib, 1.0 - score, score), weight, cluster, count
    )


# -- fit results ---------------------------------------------------------------


class RatingFlag(enum.Enum):
    """Why an entrant's rating needs a caveat. The value is the text a report prints."""

    #: Scored 100 %: taken out of the fit with its games (as Ordo does) and shown
    #: at the best rating it beat, so read it as "at least this" (docs R3).
    PERFECT_SCORE = "perfect score: rating is a lower bound"
    #: Scored 0 %: the mirror image of PERFECT_SCORE.
    ZERO_SCORE = "zero score: rating is an upper bound"
    #: In a component where some group of entrants never dropped a point to the
    #: rest and taking out perfect/zero scores did not mend it (so the MLE does
    #: not exist); one virtual draw against the pool average was added for each
    #: of its entrants.
    REGULARISED = (
        "separated results: rating regularised by a virtual draw "
        "against the pool average"
    )
    #: The pool is not connected: this entrant's component was anchored on its own.
    DISCONNECTED = (
        "not connected to the rest of the pool: rating not comparable across components"
    )
    #: Played no games: no rating (NaN).
    NO_GAMES = "no games: not rated"


@dataclass(frozen=True)
class EntrantRating:
    """One entrant's line in a :class:`RatingFit`."""

    entrant: str
    #: Rating on the Elo scale, relative to the anchor.
    rating: float
    #: Lower end of the confidence interval.
    lower: float
    #: Upper end of the confidence interval.
    upper: float
    #: Pairwise results played.
    games: int
    #: Weighted points scored.
    points: float
    #: Weighted games (the denominator of ``score``).
    weight: float
    #: Index into ``RatingFit.components``.
    component: int
    flags: tuple[RatingFlag, ...] = ()

    @property
    def score(self) -> float:
        """Weighted score fraction, 0..1 (NaN without games)."""
        return self.points / self.weight if self.weight else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """(lower, upper)."""
        return self.lower, self.upper


@dataclass(frozen=True)
class RatingFit:
    """Maximum-likelihood ratings with analytic intervals.

    The per-entrant intervals are relative to the anchor (or the pool mean);
    the error of a *difference* between two entrants is not the sum of theirs
    (Ordo manual, "-e"): use :meth:`difference`.
    """

    #: Entrants, best first.
    ratings: tuple[EntrantRating, ...]
    anchor: str | None
    anchor_rating: float
    confidence: float
    draw_model: str
    #: Elo points the first seat is worth (None unless fitted).
    seat_advantage: float | None
    seat_advantage_interval: tuple[float, float] | None
    #: Davidson's nu (None for the "half" model); draw rate between equals is nu/(2+nu).
    draw_parameter: float | None
    #: Log-likelihood of the (weighted) data at the fit, natural log, prior excluded.
    log_likelihood: float
    #: Entrant names per connected component, the first holding the anchor if any.
    components: tuple[tuple[str, ...], ...]
    iterations: int
    notes: tuple[str, ...] = ()
    #: Covariance of the anchored ratings (Elo²), rows in ``names`` order.
    covariance: FloatArray = field(
        default_factory=lambda: np.zeros((0, 0)), repr=False, compare=False
    )
    names: tuple[str, ...] = field(default=(), repr=False)
    #: "pairwise" (fit_ratings) or "plackett-luce" (fit_plackett_luce).
    model: str = "pairwise"

    def __getitem__(self, entrant: str) -> EntrantRating:
        for line in self.ratings:
            if line.entrant == entrant:
                return line
        raise KeyError(
            f"no entrant {entrant!r} in the fit; {close_names(entrant, self.names)}"
        )

    def as_dict(self) -> dict[str, float]:
        """{entrant: rating}."""
        return {line.entrant: line.rating for line in self.ratings}

    def difference(self, a: str, b: str) -> tuple[float, float, float]:
        """(R_a - R_b, lower, upper) with the interval from the full covariance.

        :raises ValueError: a and b are in different components (not comparable).
        """
        ra, rb = self[a], self[b]
        if ra.component != rb.component:
            raise ValueError(
                f"{a!r} and {b!r} are in different components; their ratings are "
                "not comparable"
            )
        ia, ib = self.names.index(a), self.names.index(b)
        c = self.covariance
        sd = math.sqrt(max(c[ia, ia] + c[ib, ib] - 2 * c[ia, ib], 0.0))
        z = float(NormalDist().inv_cdf(0.5 + self.confidence / 2))
        d = ra.rating - rb.rating
        return d, d - z * sd, d + z * sd

    def los(self, a: str, b: str) -> float:
        """Likelihood of superiority of ``a`` over ``b``: Φ(d/sd) of :meth:`difference`
        (1, 0 or ½ by the sign of d when sd is 0 or unknown, as for a bound).

        :raises ValueError: a and b are in different components.
        """
        d, lo, hi = self.difference(a, b)
        z = float(NormalDist().inv_cdf(0.5 + self.confidence / 2))
        sd = (hi - lo) / (2 * z)
        return (
            float(NormalDist().cdf(d / sd))
            if sd > 0
            else (1.0 if d > 0 else 0.0 if d < 0 else 0.5)
        )


# -- options every fit checks --------------------------------------------------


def _check_options(draw_model: str, confidence: float) -> None:
    if draw_model not in DRAW_MODELS:
        raise ValueError(
            f"draw_model {draw_model!r} unknown; accepted: {', '.join(DRAW_MODELS)}"
        )
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
