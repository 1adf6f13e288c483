"""Ratings from pairwise results: maximum likelihood, bootstrap, online Elo.

Data model. Every match is decomposed (``harness.stats.standings.pairwise_outcomes``)
into :class:`PairResult` records: the score of entrant ``a`` against entrant
``b`` (1, ½ or 0), the duplicate ``group`` the match belongs to, the entrant
that sat in the earlier seat (``first``) and a ``weight``. The fit never looks
at single records: :func:`aggregate` sums them into a :class:`PairTable`, one
row per (pair, seat order) with weighted wins, draws and losses, which is the
sufficient statistic of every model here. A million results become a few
thousand rows, so the fit's cost depends on the number of entrants, not games.

Model (docs/STATISTICS.md §2). Bradley-Terry on the logistic Elo scale: the
expected score of ``a`` against ``b`` is E(D) = 1/(1 + 10^(-D/400)) with
D = R_a - R_b (+ the seat advantage when ``a`` sat first). With
``draw_model="half"`` a draw is half a win and half a loss, so the likelihood
equations are Ordo's "predicted points = observed points" for every entrant
(Ordo ``manual.tex``; Hunter 2004, eq. 3). ``draw_model="davidson"`` uses
Davidson (1970): P(win) ∝ e^(d/2), P(loss) ∝ e^(-d/2), P(draw) ∝ nu.

Internally ratings are in natural units gamma = R·ln10/400 (so E = expit(gamma_a -
gamma_b));
everything returned is in Elo.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import NDArray

from harness.contracts.errors import close_names
from harness.contracts.result import Result
from harness.stats.standings import pairwise_outcomes

__all__ = [
    "BootstrapFit",
    "BootstrapRating",
    "EntrantRating",
    "PairResult",
    "PairTable",
    "Ranking",
    "RatingFit",
    "RatingFlag",
    "aggregate",
    "bootstrap_plackett_luce",
    "bootstrap_ratings",
    "fit_plackett_luce",
    "fit_ratings",
    "pair_results_from_matches",
    "pair_results_from_stored",
    "rankings_from_matches",
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


# -- records ---------------------------------------------------------------


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


# -- aggregation -------------------------------------------------------------


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


# -- fit results -----------------------------------------------------------------


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


# -- the likelihood ----------------------------------------------------------------


@dataclass
class _Problem:
    """Rows (real and virtual) plus the parameter layout θ = [gamma_0..gamma_{n-1},
    gamma_virtual, h, η].
    """

    n: int
    i: IntArray
    j: IntArray
    side: FloatArray
    wins: FloatArray
    draws: FloatArray
    losses: FloatArray
    davidson: bool
    #: True for parameters the Newton step moves.
    free: NDArray[np.bool_]
    #: Number of leading rows that are real data (the rest are virtual draws).
    real: int

    @property
    def size(self) -> int:
        return self.n + 3

    def derivatives(
        self, theta: FloatArray, order: int
    ) -> tuple[float, FloatArray, FloatArray]:
        """Log-likelihood, gradient and Hessian (order 0: only the first)."""
        n = self.n
        h, eta = theta[n + 1], theta[n + 2]
        d = theta[self.i] - theta[self.j] + h * self.side
        w, dr, lo = self.wins, self.draws, self.losses
        tot = w + dr + lo
        if self.davidson:
            log_z = np.logaddexp(np.logaddexp(d / 2, -d / 2), eta)
            ll_rows = (w - lo) * d / 2 + dr * eta - tot * log_z
        else:
            s = w + dr / 2
            ll_rows = s * log_expit(d) + (tot - s) * log_expit(-d)
        ll = float(ll_rows.sum())
        if order == 0:
            return ll, np.empty(0), np.empty((0, 0))
        if self.davidson:
            qw, ql, qd = (
                np.exp(d / 2 - log_z),
                np.exp(-d / 2 - log_z),
                np.exp(eta - log_z),
            )
            gd = (w - lo) / 2 - tot * (qw - ql) / 2
            hdd = -tot * (qw * ql + qd * (qw + ql) / 4)
            ge = dr - tot * qd
            hee = -tot * qd * (qw + ql)
            hde = tot * qd * (qw - ql) / 2
        else:
            p = expit(d)
            gd = w + dr / 2 - tot * p
            hdd = -tot * p * (1 - p)
            ge = hee = hde = np.zeros_like(d)
        m = n + 1
        grad = np.zeros(self.size)
        grad[:m] = np.bincount(self.i, gd, m) - np.bincount(self.j, gd, m)
        grad[n + 1] = float(self.side @ gd)
        grad[n + 2] = float(ge.sum())
        hess = np.zeros((self.size, self.size))
        flat = np.bincount(self.i * m + self.i, hdd, m * m) + np.bincount(
            self.j * m + self.j, hdd, m * m
        )
        flat -= np.bincount(self.i * m + self.j, hdd, m * m) + np.bincount(
            self.j * m + self.i, hdd, m * m
        )
        hess[:m, :m] = flat.reshape(m, m)
        for col, vec in ((n + 1, hdd * self.side), (n + 2, hde)):
            cross = np.bincount(self.i, vec, m) - np.bincount(self.j, vec, m)
            hess[:m, col] = hess[col, :m] = cross
        hess[n + 1, n + 1] = float(self.side**2 @ hdd)
        hess[n + 1, n + 2] = hess[n + 2, n + 1] = float(self.side @ hde)
        hess[n + 2, n + 2] = float(hee.sum())
        return ll, grad, hess

    def score_outer(self, theta: FloatArray) -> FloatArray:
        """Σ over games of the outer product of each game's score vector (the
        "meat" of the sandwich), for the half-point model.

        A game of row r with score x adds (x - p)² (e_i - e_j + side·e_h)(…)ᵀ, so
        a row adds w(1 - p)² + d(½ - p)² + l·p² times that outer product.
        """
        n, m = self.n, self.n + 1
        d = theta[self.i] - theta[self.j] + theta[n + 1] * self.side
        p = expit(d)
        c = self.wins * (1 - p) ** 2 + self.draws * (0.5 - p) ** 2 + self.losses * p**2
        out = np.zeros((self.size, self.size))
        flat = np.bincount(self.i * m + self.i, c, m * m) + np.bincount(
            self.j * m + self.j, c, m * m
        )
        flat -= np.bincount(self.i * m + self.j, c, m * m) + np.bincount(
            self.j * m + self.i, c, m * m
        )
        out[:m, :m] = flat.reshape(m, m)
        cross = np.bincount(self.i, c * self.side, m) - np.bincount(
            self.j, c * self.side, m
        )
        out[:m, n + 1] = out[n + 1, :m] = cross
        out[n + 1, n + 1] = float(self.side**2 @ c)
        return out

    def data_log_likelihood(self, theta: FloatArray) -> float:
        """Log-likelihood of the real rows only (the reported figure)."""
        real = _Problem(
            self.n,
            self.i[: self.real],
            self.j[: self.real],
            self.side[: self.real],
            self.wins[: self.real],
            self.draws[: self.real],
            self.losses[: self.real],
            self.davidson,
            self.free,
            self.real,
        )
        return real.derivatives(theta, 0)[0]


def _newton(
    problem: _Problem, theta: FloatArray, max_iter: int = 200
) -> tuple[FloatArray, FloatArray, int, bool]:
    """Maximise the (concave) log-likelihood by Newton steps with step halving.

    :returns: θ, the information matrix -H over the free parameters, iterations,
      converged.
    """
    free = problem.free
    theta = theta.copy()
    info = np.zeros((int(free.sum()),) * 2)
    for iteration in range(1, max_iter + 1):
        ll, grad, hess = problem.derivatives(theta, 2)
        info = -hess[np.ix_(free, free)]
        try:
            step = np.linalg.solve(info, grad[free])
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(info, grad[free], rcond=None)[0]
        t = 1.0
        while True:
            trial = theta.copy()
            trial[free] += t * step
            if problem.derivatives(trial, 0)[0] >= ll - 1e-12 * abs(ll) or t < 1e-8:
                break
            t /= 2
        theta = trial
        if float(np.max(np.abs(t * step), initial=0.0)) < 1e-10:
            _, _, hess = problem.derivatives(theta, 2)
            return theta, -hess[np.ix_(free, free)], iteration, True
    return theta, info, max_iter, False


# -- the fit ---------------------------------------------------------------------


@dataclass
class _Layout:
    """What fit_ratings decided before solving: components, references, priors."""

    components: list[list[int]]
    regularised: set[int]
    #: One entrant per unregularised component, held at 0 during the solve.
    references: set[int]
    played: NDArray[np.bool_]


def _layout(table: PairTable) -> _Layout:
    from scipy import sparse  # lazy: 0.3 s cold
    from scipy.sparse.csgraph import connected_components

    n = len(table.names)
    played = np.zeros(n, bool)
    played[table.i] = played[table.j] = True
    adjacency = sparse.coo_matrix(
        (np.ones(table.rows), (table.i, table.j)), shape=(n, n)
    )
    _, weak = connected_components(adjacency, directed=False)
    # "i scored against j" edges: the MLE exists iff they make each weak
    # component strongly connected (Ford 1957; Hunter 2004, Assumption 1).
    scored_i = (table.wins + table.draws) > 0
    scored_j = (table.losses + table.draws) > 0
    src = np.concatenate([table.i[scored_i], table.j[scored_j]])
    dst = np.concatenate([table.j[scored_i], table.i[scored_j]])
    digraph = sparse.coo_matrix((np.ones(len(src)), (src, dst)), shape=(n, n))
    _, strong = connected_components(digraph, directed=True, connection="strong")
    groups: dict[int, list[int]] = defaultdict(list)
    for k in range(n):
        if played[k]:
            groups[int(weak[k])].append(k)
    components = sorted(groups.values(), key=lambda c: (-len(c), c[0]))
    regularised = {
        c
        for c, members in enumerate(components)
        if len({int(strong[k]) for k in members}) > 1
    }
    references = {
        members[0] for c, members in enumerate(components) if c not in regularised
    }
    return _Layout(components, regularised, references, played)


def _separate(table: PairTable) -> dict[int, tuple[int, bool]]:
    """Entrants to take out before the fit, as Ordo does: {entrant: (round, perfect)}.

    Round by round, an entrant that won (``perfect``) or lost every game it
    still has against the entrants not yet taken out is taken out with its
    games, and the rest is looked at again (docs/STATISTICS.md R3). An
    entrant stays in when taking it out would leave it, or any entrant that
    stays, with no game against an entrant that stays: then there is nothing
    to bound it by, and the virtual-draw regularisation handles its component.
    """
    from scipy import sparse  # lazy, as above
    from scipy.sparse.csgraph import connected_components

    n = len(table.names)
    out: dict[int, tuple[int, bool]] = {}
    active = np.ones(n, bool)
    tot = table.wins + table.draws + table.losses
    pts_i = table.wins + table.draws / 2
    for round_ in range(n):
        live = active[table.i] & active[table.j]
        points = np.bincount(table.i, pts_i * live, n) + np.bincount(
            table.j, (tot - pts_i) * live, n
        )
        weight = np.bincount(table.i, tot * live, n) + np.bincount(
            table.j, tot * live, n
        )
        perfect = active & (weight > 0) & (points == weight)
        zero = active & (weight > 0) & (points == 0)
        leaving = perfect | zero
        if not leaving.any():
            break
        staying = active & ~leaving
        # Who keeps a game against an entrant that stays.
        kept = live & staying[table.i] & staying[table.j]
        has_game = np.zeros(n, bool)
        has_game[table.i[kept]] = has_game[table.j[kept]] = True
        bounded = np.zeros(n, bool)
        to_staying = live & staying[table.j]
        bounded[table.i[to_staying]] = True
        from_staying = live & staying[table.i]
        bounded[table.j[from_staying]] = True
        # Decide per weak component of the live games, so a stalled component
        # does not hold back the others.
        live_rows = np.flatnonzero(live)
        adjacency = sparse.coo_matrix(
            (np.ones(len(live_rows)), (table.i[live_rows], table.j[live_rows])),
            shape=(n, n),
        )
        _, component = connected_components(adjacency, directed=False)
        took = False
        for c in np.unique(component[leaving]):
            members = active & (component == c) & (weight > 0)
            ok = bool(
                np.all(bounded[members & leaving])
                and np.all(has_game[members & ~leaving])
            )
            if ok:
                for k in np.flatnonzero(members & leaving):
                    out[int(k)] = (round_, bool(perfect[k]))
                active[members & leaving] = False
                took = True
        if not took:
            break
    return out


def _build_problem(
    table: PairTable,
    layout: _Layout,
    *,
    seat_advantage: bool,
    davidson: bool,
    prior_draws: float,
) -> _Problem:
    n = len(table.names)
    virtual = [k for c in layout.regularised for k in layout.components[c]]
    extra = len(virtual)
    free = np.zeros(n + 3, bool)
    free[:n] = layout.played
    for k in layout.references:
        free[k] = False
    free[n + 1] = seat_advantage
    free[n + 2] = davidson
    zeros = np.zeros(extra)
    return _Problem(
        n=n,
        i=np.concatenate([table.i, np.array(virtual, np.int64)]),
        j=np.concatenate([table.j, np.full(extra, n, np.int64)]),
        side=np.concatenate([table.side.astype(np.float64), zeros]),
        wins=np.concatenate([table.wins, zeros]),
        draws=np.concatenate([table.draws, np.full(extra, prior_draws)]),
        losses=np.concatenate([table.losses, zeros]),
        davidson=davidson,
        free=free,
        real=table.rows,
    )


def _anchor_transform(
    names: Sequence[str], layout: _Layout, anchor: str | None
) -> tuple[FloatArray, list[list[int]]]:
    """Matrix T with anchored ratings = T·gamma (+ anchor_rating); components, anchor's
    first.
    """
    n = len(names)
    components = list(layout.components)
    anchor_index = names.index(anchor) if anchor is not None else -1
    components.sort(key=lambda c: anchor_index not in c)  # stable: the anchor's first
    t = np.eye(n + 3)
    for members in components:
        idx = np.array(members)
        if anchor_index in members:
            t[np.ix_(idx, np.array([anchor_index]))] -= 1.0
        else:
            t[np.ix_(idx, idx)] -= 1.0 / len(members)
    return t, components


def _check_options(draw_model: str, confidence: float) -> None:
    if draw_model not in DRAW_MODELS:
        raise ValueError(
            f"draw_model {draw_model!r} unknown; accepted: {', '.join(DRAW_MODELS)}"
        )
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")


def fit_ratings(
    results: Iterable[PairResult] | PairTable,
    *,
    anchor: str | None = None,
    anchor_rating: float = 0.0,
    seat_advantage: bool = False,
    draw_model: str = "half",
    confidence: float = 0.95,
    entrants: Iterable[str] = (),
    prior_draws: float = 1.0,
) -> RatingFit:
    """Fit Bradley-Terry (Elo scale) ratings by maximum likelihood.

    :param results: pair results, or a :class:`PairTable` already aggregated.
    :param anchor: the entrant held at ``anchor_rating``; None (default) holds
        the mean of each component at ``anchor_rating`` (Ordo's default).
    :param seat_advantage: also fit the Elo value of sitting first (needs ``first``).
    :param draw_model: ``"half"`` (a draw is half a point; Ordo, fishtest) or
      ``"davidson"``.
    :param confidence: level of the analytic intervals (observed Fisher information).
    :param entrants: names to list even without games (flagged NO_GAMES, rating NaN).
    :param prior_draws: weight of the virtual draw against the pool average that
        each entrant of a component still separated after perfect and zero scores
        were taken out gets (see RatingFlag.REGULARISED; docs R3).

    Intervals: the covariance of the free parameters is the inverse observed
    information; the anchored ratings are a linear map T·gamma of them, so their
    covariance is T·Σ·Tᵀ (for the mean anchor this is the constrained
    covariance; a named anchor has interval width 0). docs/STATISTICS.md §R2.
    """
    _check_options(draw_model, confidence)
    table = results if isinstance(results, PairTable) else aggregate(results, entrants)
    names = table.names
    if anchor is not None and anchor not in names:
        raise ValueError(
            f"anchor {anchor!r} is not an entrant; {close_names(anchor, names)}"
        )
    notes: list[str] = []
    separated = _separate(table)
    if anchor is not None and names.index(anchor) in separated:
        notes.append(
            f"the anchor {anchor!r} has a perfect or zero score and is not rated; "
            "ratings are anchored to the pool mean instead"
        )
        anchor = None
    if separated:
        keep = np.ones(len(names), bool)
        keep[list(separated)] = False
        rows = keep[table.i] & keep[table.j]
        rated = PairTable(
            names,
            table.i[rows],
            table.j[rows],
            table.side[rows],
            table.wins[rows],
            table.draws[rows],
            table.losses[rows],
            table.count[rows],
        )
    else:
        rated = table
    layout = _layout(rated)
    if seat_advantage and not np.any(table.side):
        notes.append("seat advantage not fitted: no result says who sat first")
        seat_advantage = False
    davidson = draw_model == "davidson"
    total_draws, total = (
        float(rated.draws.sum()),
        float((rated.wins + rated.draws + rated.losses).sum()),
    )
    if davidson and (total_draws == 0 or total_draws == total):
        what = "no draws" if total_draws == 0 else "only draws"
        notes.append(
            f"Davidson model not identifiable ({what}): fitted the half-point model "
            "instead"
        )
        davidson = False
    problem = _build_problem(
        rated,
        layout,
        seat_advantage=seat_advantage,
        davidson=davidson,
        prior_draws=prior_draws,
    )
    theta0 = np.zeros(problem.size)
    if davidson:
        rate = total_draws / total
        theta0[len(names) + 2] = math.log(2 * rate / (1 - rate))  # nu for equal players
    theta, info, iterations, converged = _newton(problem, theta0)
    if not converged:
        notes.append(
            f"the fit did not converge in {iterations} Newton steps; ratings are "
            "unreliable"
        )
    return _assemble(
        table,
        layout,
        problem,
        theta,
        info,
        anchor=anchor,
        anchor_rating=anchor_rating,
        confidence=confidence,
        iterations=iterations,
        notes=notes,
        seat_advantage=seat_advantage,
        separated=separated,
    )


def _covariance(problem: _Problem, theta: FloatArray, info: FloatArray) -> FloatArray:
    """Covariance of θ: the sandwich I⁻¹·J·I⁻¹ for the half-point model, I⁻¹ for
    Davidson's.

    The half-point likelihood treats a draw as half a win and half a loss, so
    its information I assumes the binomial variance p(1 - p) per game; draws
    make the true variance smaller and I⁻¹ too wide (95 % intervals covered
    98-99 % at 40 % draws). J, the observed variance of the score equations,
    holds with or without draws (Huber 1967; White 1982); without draws and
    with two entrants it equals I. Davidson's trinomial likelihood models the
    draws itself, so its own information is kept (docs/STATISTICS.md R2).
    """
    cov = np.zeros((problem.size, problem.size))
    free = problem.free
    try:
        inner = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        inner = np.linalg.pinv(info)
    if not problem.davidson:
        meat = problem.score_outer(theta)[np.ix_(free, free)]
        inner = inner @ meat @ inner
    cov[np.ix_(free, free)] = inner
    return cov


def _assemble(
    table: PairTable,
    layout: _Layout,
    problem: _Problem,
    theta: FloatArray,
    info: FloatArray,
    *,
    anchor: str | None,
    anchor_rating: float,
    confidence: float,
    iterations: int,
    notes: list[str],
    seat_advantage: bool,
    separated: Mapping[int, tuple[int, bool]],
) -> RatingFit:
    names = table.names
    n = len(names)
    transform, components = _anchor_transform(names, layout, anchor)
    scale = 1 / ELO_TO_NATURAL
    elo = transform @ theta * scale
    cov = transform @ _covariance(problem, theta, info) @ transform.T * scale**2
    for k in separated:  # a bound has no standard error
        cov[k, :] = cov[:, k] = math.nan
    sd = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    z = float(NormalDist().inv_cdf(0.5 + confidence / 2))
    stats = _entrant_totals(table)
    component_of = {k: c for c, members in enumerate(components) for k in members}
    ratings = np.where(layout.played[:n], elo[:n] + anchor_rating, math.nan)
    bounds = _bounds(table, separated, ratings, component_of)
    lines = []
    for k, name in enumerate(names):
        rating = ratings[k]
        lower, upper = rating - z * sd[k], rating + z * sd[k]
        if k in separated:
            perfect = separated[k][1]
            flags: tuple[RatingFlag, ...] = (
                RatingFlag.PERFECT_SCORE if perfect else RatingFlag.ZERO_SCORE,
            )
            if len(components) > 1:
                flags += (RatingFlag.DISCONNECTED,)
            rating = bounds[k]
            lower, upper = (rating, math.inf) if perfect else (-math.inf, rating)
        else:
            flags = _flags(k, stats, layout, len(components))
        lines.append(
            EntrantRating(
                entrant=name,
                rating=float(rating),
                lower=float(lower),
                upper=float(upper),
                games=int(stats["games"][k]),
                points=float(stats["points"][k]),
                weight=float(stats["weight"][k]),
                component=component_of.get(k, -1),
                flags=flags,
            )
        )
    # Best first within each component; components in order (the anchor's first),
    # since ratings are not comparable across them; entrants without games last.
    zero_names = {names[k] for k, (_, perfect) in separated.items() if not perfect}
    lines.sort(
        key=lambda e: (
            e.component < 0,
            e.component,
            -e.rating if e.component >= 0 else 0.0,
            # A bound ties with the rating it came from: perfect above it, zero below.
            -1 if RatingFlag.PERFECT_SCORE in e.flags else 0,
            1 if e.entrant in zero_names else 0,
            e.entrant,
        )
    )
    if separated:
        notes.append(
            f"{len(separated)} entrant(s) won or lost every game and were rated "
            "without their games, as Ordo does; each is shown at its bound (at "
            "least the best it beat, at most the worst it lost to)"
        )
    if len(components) > 1:
        notes.append(
            f"the pool has {len(components)} components that never met; each is "
            "anchored "
            "on its own and ratings are not comparable across components"
        )
    if layout.regularised:
        notes.append(
            "some entrants never dropped a point to others (the MLE does not "
            "exist); their "
            "components were regularised with one virtual draw per entrant against "
            "the pool average"
        )
    h = theta[n + 1] * scale
    davidson = problem.davidson
    return RatingFit(
        ratings=tuple(lines),
        anchor=anchor,
        anchor_rating=anchor_rating,
        confidence=confidence,
        draw_model="davidson" if davidson else "half",
        seat_advantage=float(h) if seat_advantage else None,
        seat_advantage_interval=(float(h - z * sd[n + 1]), float(h + z * sd[n + 1]))
        if seat_advantage
        else None,
        draw_parameter=float(math.exp(theta[n + 2])) if davidson else None,
        log_likelihood=problem.data_log_likelihood(theta),
        components=tuple(
            tuple(
                names[k]
                for k in sorted(
                    [*members, *(k for k in separated if component_of[k] == c)]
                )
            )
            for c, members in enumerate(components)
        ),
        iterations=iterations,
        notes=tuple(notes),
        covariance=cov[:n, :n],
        names=names,
    )


def _bounds(
    table: PairTable,
    separated: Mapping[int, tuple[int, bool]],
    ratings: FloatArray,
    component_of: dict[int, int],
) -> dict[int, float]:
    """The rating each separated entrant is shown at (fills ``component_of``).

    A perfect entrant is at the best rating it beat, a zero-score one at the
    worst it lost to, over the opponents still in play when it was taken out
    (rated, or taken out in a later round); so the last rounds go first.
    """
    out: dict[int, float] = {}
    value = dict(enumerate(ratings.tolist()))
    for k, (round_, perfect) in sorted(separated.items(), key=lambda kv: -kv[1][0]):
        opponents = np.concatenate([table.j[table.i == k], table.i[table.j == k]])
        present = [
            int(o)
            for o in opponents
            if int(o) not in separated or separated[int(o)][0] > round_
        ]
        pick = max if perfect else min
        best = pick(present, key=lambda o: value[o])
        out[k] = value[k] = value[best]
        component_of[k] = component_of[best]
    return out


def _entrant_totals(table: PairTable) -> dict[str, FloatArray]:
    n = len(table.names)
    tot = table.wins + table.draws + table.losses
    pts_i = table.wins + table.draws / 2

    def per_entrant(x: FloatArray, y: FloatArray) -> FloatArray:
        both = np.bincount(table.i, x, n) + np.bincount(table.j, y, n)
        return both.astype(np.float64)

    count = table.count.astype(np.float64)
    return {
        "games": per_entrant(count, count),
        "weight": per_entrant(tot, tot),
        "points": per_entrant(pts_i, tot - pts_i),
    }


def _flags(
    k: int, stats: Mapping[str, FloatArray], layout: _Layout, components: int
) -> tuple[RatingFlag, ...]:
    if not layout.played[k]:
        return (RatingFlag.NO_GAMES,)
    flags = []
    points, weight = stats["points"][k], stats["weight"][k]
    if points == weight:
        flags.append(RatingFlag.PERFECT_SCORE)
    elif points == 0:
        flags.append(RatingFlag.ZERO_SCORE)
    if any(k in layout.components[c] for c in layout.regularised):
        flags.append(RatingFlag.REGULARISED)
    if components > 1:
        flags.append(RatingFlag.DISCONNECTED)
    return tuple(flags)


# -- bootstrap -------------------------------------------------------------------


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
    #: games).
    samples: FloatArray = field(
        default_factory=lambda: np.zeros((0, 0)), repr=False, compare=False
    )
    names: tuple[str, ...] = field(default=(), repr=False)

    def __getitem__(self, entrant: str) -> BootstrapRating:
        for line in self.ratings:
            if line.entrant == entrant:
                return line
        raise KeyError(f"no entrant {entrant!r}; {close_names(entrant, self.names)}")

    def difference(self, a: str, b: str) -> tuple[float, float, float]:
        """(R_a - R_b of the full fit, percentile lower, upper) of paired replicates."""
        ia, ib = self.names.index(a), self.names.index(b)
        diff = self.samples[:, ia] - self.samples[:, ib]
        lo, hi = np.nanquantile(
            diff, [0.5 - self.confidence / 2, 0.5 + self.confidence / 2]
        )
        return self[a].rating - self[b].rating, float(lo), float(hi)


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
    fit = fit_ratings(
        table,
        anchor=anchor,
        anchor_rating=anchor_rating,
        seat_advantage=seat_advantage,
        draw_model=draw_model,
        confidence=confidence,
        prior_draws=prior_draws,
    )
    group_of, groups = _group_index(results)
    columns = _per_group(table, results, row_of, group_of, groups)
    rng = np.random.default_rng(seed)
    names = table.names
    samples = np.full((rounds, len(names)), np.nan)
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
        samples[r] = [one[name].rating for name in names]
        if one.seat_advantage is not None:
            seats[r] = one.seat_advantage
    lo_q, hi_q = 0.5 - confidence / 2, 0.5 + confidence / 2
    lines, notes = _percentile_lines(names, samples, fit, confidence, failures, rounds)
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
    )


def _percentile_lines(
    names: Sequence[str],
    samples: FloatArray,
    fit: RatingFit,
    confidence: float,
    failures: int,
    rounds: int,
) -> tuple[list[BootstrapRating], list[str]]:
    """Each entrant's percentile interval over the rounds (``samples[round,
    entrant]``, NaN where a round could not rate it), in the fit's order, and
    the note on rounds whose pool fell apart."""
    lo_q, hi_q = 0.5 - confidence / 2, 0.5 + confidence / 2
    lines = []
    for k, name in enumerate(names):
        column = samples[:, k]
        ok = column[~np.isnan(column)]
        lo, hi = np.quantile(ok, [lo_q, hi_q]) if len(ok) else (math.nan, math.nan)
        lines.append(
            BootstrapRating(
                name,
                fit[name].rating,
                float(lo),
                float(hi),
                float(ok.std(ddof=1)) if len(ok) > 1 else math.nan,
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


def _group_index(results: Sequence[PairResult]) -> tuple[IntArray, int]:
    ids: dict[object, int] = {}
    out = np.empty(len(results), np.int64)
    for k, r in enumerate(results):
        key: object = ("group", r.group) if r.group is not None else ("single", k)
        out[k] = ids.setdefault(key, len(ids))
    return out, len(ids)


def _per_group(
    table: PairTable,
    results: Sequence[PairResult],
    row_of: IntArray,
    group_of: IntArray,
    groups: int,
) -> list[Any]:
    """Sparse rows x groups matrices of weighted wins, draws, losses (as the table)."""
    from scipy import sparse

    index = {name: k for k, name in enumerate(table.names)}
    ia, ib, score, weight, _ = _columns(results, index)
    score = np.where(ia > ib, 1.0 - score, score)
    shape = (table.rows, groups)
    return [
        sparse.csr_matrix((weight * (score == value), (row_of, group_of)), shape=shape)
        for value in (1.0, 0.5, 0.0)
    ]


# -- Plackett-Luce -----------------------------------------------------------------


@dataclass(frozen=True)
class Ranking:
    """One match as the Plackett-Luce model reads it: one entry per team.

    ``entrants[k]`` finished at ``ranks[k]`` (1 best; equal ranks are a tie).
    An entrant may hold several teams of one match (it then meets itself,
    which says nothing about it but is part of the ranking's probability).
    """

    entrants: tuple[str, ...]
    ranks: tuple[int, ...]
    #: Duplicate group: the sandwich variance and the bootstrap treat a group as
    #: one sample (None: the match is its own).
    group: str | None = None

    def __post_init__(self) -> None:
        if len(self.entrants) != len(self.ranks) or len(self.entrants) < 2:
            raise ValueError(
                f"a ranking needs at least two teams and one rank each; got "
                f"entrants {self.entrants}, ranks {self.ranks}"
            )


def rankings_from_matches(
    matches: Iterable[tuple[Sequence[str], Result, str | None]],
) -> list[Ranking]:
    """One :class:`Ranking` per match ``(seating, result, group)``, teams as items.

    A team (``Game.teams``) is one item, named by the entrant in its first seat
    and ranked by that seat's rank, listed in the order of their first seats.
    Matches in which a single entrant holds every team are left out: they
    compare nothing.
    """
    out = []
    for seating, result, group in matches:
        first_seat: dict[int, int] = {}
        for seat, team in enumerate(result.teams):
            first_seat.setdefault(team, seat)
        seats = sorted(first_seat.values())
        entrants = tuple(seating[s] for s in seats)
        if len(set(entrants)) < 2:
            continue
        out.append(Ranking(entrants, tuple(result.ranks[s] for s in seats), group))
    return out


@dataclass
class _Choices:
    """A list of rankings as weighted choice events (docs/STATISTICS.md §PL).

    Event e: out of the multiset of items still present (row e of ``present``:
    how often each item, column, is present), ``chosen[e]`` was chosen, with
    weight ``weight[e]``; it belongs to resampling unit ``cluster[e]``. The
    log-likelihood is Σ_e weight_e·(g_chosen - log Σ_i present_ei·e^g_i).
    Column ``n`` is the virtual pool-average entrant of the regularisation.
    """

    n: int
    present: Any  # scipy.sparse.csr_matrix, events x (n + 1)
    chosen: IntArray
    weight: FloatArray
    cluster: IntArray
    clusters: int
    #: Events before this index are data; the rest are virtual draws.
    real: int


def _tie_events(
    block: Sequence[int], below: Sequence[int]
) -> Iterator[tuple[list[int], int, float]]:
    """(present, chosen, weight) of a block of tied items above ``below``.

    A tie is read as every order the tied items could have finished in, each
    with probability 1/d!, averaged on the log scale: the remaining tied set
    before a choice is then a uniform random subset T of the block, chosen
    with weight 1/(C(d, |T|)·|T|) per member. Two tied items thus score half a
    win each, as a draw does in the half-point pairwise model.
    """
    d = len(block)
    if d == 1:
        if below:
            yield [block[0], *below], block[0], 1.0
        return
    for t in range(1, d + 1):
        if t == 1 and not below:
            continue  # the last item left has no choice
        share = 1.0 / (math.comb(d, t) * t)
        for subset in itertools.combinations(block, t):
            for c in subset:
                yield [*subset, *below], c, share


def _choices(rankings: Sequence[Ranking], index: Mapping[str, int]) -> _Choices:
    """The choice events of the rankings (no virtual ones).

    Rankings without ties (the common case) are laid out with numpy, all
    rankings of one size at once; rankings with ties go through
    :func:`_tie_events` one by one.
    """
    from scipy import sparse

    n = len(index)
    rows: list[Any] = []
    cols: list[Any] = []
    chosen: list[Any] = []
    weight: list[Any] = []
    cluster: list[Any] = []
    events = 0
    units: dict[object, int] = {}
    strict: dict[int, tuple[list[list[int]], list[int]]] = defaultdict(lambda: ([], []))
    for k, ranking in enumerate(rankings):
        key: object = ("group", ranking.group) if ranking.group else ("single", k)
        unit = units.setdefault(key, len(units))
        items = [index[e] for e in ranking.entrants]
        if len(set(ranking.ranks)) == len(items):  # no tie: finishing order
            order, of = strict[len(items)]
            order.append([x for _, x in sorted(zip(ranking.ranks, items, strict=True))])
            of.append(unit)
            continue
        levels = sorted(set(ranking.ranks))
        blocks = [
            [items[p] for p, r in enumerate(ranking.ranks) if r == level]
            for level in levels
        ]
        for b, block in enumerate(blocks):
            below = [x for later in blocks[b + 1 :] for x in later]
            for present, c, share in _tie_events(block, below):
                rows.append(np.full(len(present), events))
                cols.append(np.array(present))
                chosen.append(np.array([c]))
                weight.append(np.array([share]))
                cluster.append(np.array([unit]))
                events += 1
    for k, (order, of) in strict.items():
        # Ranking r's choice s (0 .. k-2): order[r, s] out of order[r, s:].
        table = np.array(order, np.int64)
        m = len(table)
        first = events + np.arange(m) * (k - 1)
        for s_ in range(k - 1):
            for t in range(s_, k):
                rows.append(first + s_)
                cols.append(table[:, t])
        chosen.append(table[:, : k - 1].ravel())
        weight.append(np.ones(m * (k - 1)))
        cluster.append(np.repeat(np.array(of, np.int64), k - 1))
        events += m * (k - 1)

    # Events are numbered in the order their arrays were appended; chosen,
    # weight and cluster are appended in that same order.
    def joined(parts: list[Any], dtype: Any) -> Any:
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)

    row, col = joined(rows, np.int64), joined(cols, np.int64)
    present = sparse.csr_matrix(
        (np.ones(len(row)), (row, col)), shape=(events, n + 1)
    )  # duplicate (row, column) pairs are summed: an item present twice counts 2
    return _Choices(
        n,
        present,
        joined(chosen, np.int64),
        joined(weight, np.float64),
        joined(cluster, np.int64),
        len(units),
        events,
    )


def _with_virtual(
    choices: _Choices, regularise: Sequence[int], prior_draws: float
) -> _Choices:
    """``choices`` plus one virtual draw (two half-weight choices) of each entrant
    in ``regularise`` against the virtual entrant n, each draw its own cluster.
    """
    from scipy import sparse

    if not regularise:
        return choices
    n, events = choices.n, len(choices.chosen)
    who = np.repeat(np.asarray(regularise, np.int64), 2)
    extra = len(who)
    rows = np.repeat(np.arange(extra), 2)
    cols = np.column_stack([who, np.full(extra, n)]).ravel()
    block = sparse.csr_matrix((np.ones(2 * extra), (rows, cols)), shape=(extra, n + 1))
    chosen = who.copy()
    chosen[1::2] = n
    return _Choices(
        n,
        sparse.vstack([choices.present, block], format="csr"),
        np.concatenate([choices.chosen, chosen]),
        np.concatenate([choices.weight, np.full(extra, prior_draws / 2)]),
        np.concatenate([choices.cluster, choices.clusters + np.arange(extra) // 2]),
        choices.clusters + extra // 2,
        events,
    )


def _pl_layout(choices: _Choices, played: NDArray[np.bool_]) -> tuple[Any, Any]:
    """Weak components of "met" and strong components of "finished above or tied".

    The MLE exists iff every weak component is strongly connected in the second
    graph (Hunter 2004, Assumption 1 for Plackett-Luce).
    """
    from scipy import sparse
    from scipy.sparse.csgraph import connected_components

    n = choices.n
    coo = choices.present[: choices.real, :n].tocoo()
    src = choices.chosen[: choices.real][coo.row]
    keep = (src != coo.col) & (choices.weight[: choices.real][coo.row] > 0)
    graph = sparse.coo_matrix(
        (np.ones(int(keep.sum())), (src[keep], coo.col[keep])), shape=(n, n)
    )
    _, weak = connected_components(graph, directed=False)
    _, strong = connected_components(graph, directed=True, connection="strong")
    return weak, strong


def _pl_mm(
    choices: _Choices,
    components: Sequence[Sequence[int]],
    regularised: set[int],
    max_iter: int,
) -> tuple[FloatArray, int, bool]:
    """Hunter's (2004, §5) MM iteration for Plackett-Luce worths w = e^gamma.

    w_i ← W_i / Σ_e weight_e·present_ei / (Σ_k present_ek·w_k), W_i the weighted
    number of times i was chosen. Each step cannot lower the likelihood; the
    worths of a component without the virtual entrant are defined up to a
    factor, so each step rescales them to geometric mean 1.
    """
    n = choices.n
    present, present_t = choices.present, choices.present.T.tocsr()
    wins = np.bincount(choices.chosen, choices.weight, n + 1)
    free_groups = [
        np.array(members)
        for c, members in enumerate(components)
        if c not in regularised
    ]
    gamma = np.zeros(n + 1)
    active = np.zeros(n + 1, bool)
    for members in components:
        active[list(members)] = True
    for iteration in range(1, max_iter + 1):
        w = np.exp(gamma)
        denominator = present_t @ (choices.weight / (present @ w))
        new = gamma.copy()
        new[active] = np.log(wins[active]) - np.log(denominator[active])
        for group in free_groups:
            new[group] -= new[group].mean()
        change = float(np.max(np.abs(new - gamma), initial=0.0))
        gamma = new
        if change < 1e-10:
            return gamma, iteration, True
    return gamma, max_iter, False


def _pl_information(
    choices: _Choices, gamma: FloatArray
) -> tuple[FloatArray, FloatArray, float]:
    """Observed information, the sandwich's "meat" and the data log-likelihood.

    Per event, with p_i = present_ei·w_i/S_e: the score is weight·(1[i chosen] -
    p_i) and the information weight·(diag p - p pᵀ). The meat sums the outer
    products of the score summed per cluster (a match, or a duplicate group),
    times G/(G-1) for G clusters.
    """
    from scipy import sparse

    m = choices.n + 1
    w = np.exp(gamma)
    totals = choices.present @ w
    p = sparse.csr_matrix(
        choices.present.multiply(w[None, :]).multiply(1 / totals[:, None])
    )
    weighted = sparse.csr_matrix(p.multiply(choices.weight[:, None]))
    info = (
        np.diag(np.asarray(weighted.sum(axis=0)).ravel()) - (p.T @ weighted).toarray()
    )
    events = len(choices.chosen)
    onehot = sparse.csr_matrix(
        (choices.weight, (np.arange(events), choices.chosen)), shape=(events, m)
    )
    score = onehot - weighted
    by_cluster = sparse.csr_matrix(
        (np.ones(events), (choices.cluster, np.arange(events))),
        shape=(choices.clusters, events),
    )
    u = (by_cluster @ score).toarray()
    # G/(G-1): the usual small-sample factor of a cluster sandwich (CR1), which
    # matters when a few duplicate groups hold all the matches.
    g = choices.clusters
    meat = u.T @ u * (g / (g - 1) if g > 1 else 1.0)
    real = slice(0, choices.real)
    ll = float(
        choices.weight[real] @ (gamma[choices.chosen[real]] - np.log(totals[real]))
    )
    return info, meat, ll


def _pl_solve(
    data: _Choices, played: NDArray[np.bool_], prior_draws: float, max_iter: int
) -> tuple[_Choices, FloatArray, list[list[int]], set[int], int, bool]:
    """Components, regularisation and the MM fit of the events ``data``.

    :returns: the events with the virtual ones, gamma (natural units, entrant n the
        virtual one), components, regularised component indices, iterations,
        converged.
    """
    weak, strong = _pl_layout(data, played)
    groups: dict[int, list[int]] = defaultdict(list)
    for found in np.flatnonzero(played):
        groups[int(weak[found])].append(int(found))
    components = sorted(groups.values(), key=lambda c: (-len(c), c[0]))
    regularised = {
        c
        for c, members in enumerate(components)
        if len({int(strong[k]) for k in members}) > 1
    }
    virtual = [k for c in sorted(regularised) for k in components[c]]
    choices = _with_virtual(data, virtual, prior_draws)
    gamma, iterations, converged = _pl_mm(choices, components, regularised, max_iter)
    return choices, gamma, components, regularised, iterations, converged


def fit_plackett_luce(
    rankings: Iterable[Ranking],
    *,
    anchor: str | None = None,
    anchor_rating: float = 0.0,
    confidence: float = 0.95,
    entrants: Iterable[str] = (),
    prior_draws: float = 1.0,
    max_iter: int = 100_000,
) -> RatingFit:
    """Fit Plackett-Luce ratings (Elo scale) to whole rankings by Hunter's MM.

    A ranking of k teams has probability Π_s w_(s) / Σ_{t>=s} w_(t), the
    product over places of the chance that the team placed there is chosen
    out of those not yet placed (Plackett 1975; Luce 1959). Ratings are
    R = 400·log10(w), so with two teams this is the pairwise model. Ties: see
    :func:`_tie_events`. Intervals: the sandwich I⁻¹·J·I⁻¹, J summed per
    duplicate group (or match), mapped to the anchoring like ``fit_ratings``.
    A component whose entrants do not each finish above some other and below
    some other is regularised as ``fit_ratings`` does (one virtual draw per
    entrant against the pool average), and flagged.
    """
    _check_options("half", confidence)
    rankings = list(rankings)
    names = tuple(sorted({*entrants, *(e for r in rankings for e in r.entrants)}))
    if anchor is not None and anchor not in names:
        raise ValueError(
            f"anchor {anchor!r} is not an entrant; {close_names(anchor, names)}"
        )
    n = len(names)
    index = {name: k for k, name in enumerate(names)}
    played = np.zeros(n, bool)
    for r in rankings:
        played[[index[e] for e in r.entrants]] = True
    data = _choices(rankings, index)
    solved = _pl_solve(data, played, prior_draws, max_iter)
    choices, gamma, components, regularised, iterations, converged = solved
    info, meat, ll = _pl_information(choices, gamma)
    layout = _Layout(components, regularised, set(), played)
    # Free parameters: all played entrants but one per unregularised component.
    free = np.zeros(n + 1, bool)
    free[:n] = played
    for c, members in enumerate(components):
        if c not in regularised:
            free[members[0]] = False
    cov_free = np.zeros((n + 1, n + 1))
    sub = np.ix_(free, free)
    try:
        inverse = np.linalg.inv(info[sub])
    except np.linalg.LinAlgError:
        inverse = np.linalg.pinv(info[sub])
    cov_free[sub] = inverse @ meat[sub] @ inverse
    # _anchor_transform works on the pairwise layout θ (n + 3): pad and cut.
    transform, ordered = _anchor_transform(names, layout, anchor)
    t = transform[: n + 1, : n + 1]
    scale = 1 / ELO_TO_NATURAL
    elo = t @ gamma * scale
    cov = t @ cov_free @ t.T * scale**2
    sd = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    z = float(NormalDist().inv_cdf(0.5 + confidence / 2))
    component_of = {k: c for c, members in enumerate(ordered) for k in members}
    stats = _pairwise_totals(rankings, index)
    matches = np.zeros(n)
    for r in rankings:
        for seen in {index[e] for e in r.entrants}:
            matches[seen] += 1
    lines = []
    for k, name in enumerate(names):
        flags: tuple[RatingFlag, ...]
        if not played[k]:
            flags = (RatingFlag.NO_GAMES,)
        else:
            flags = ()
            if any(k in components[c] for c in regularised):
                flags += (RatingFlag.REGULARISED,)
            if len(ordered) > 1:
                flags += (RatingFlag.DISCONNECTED,)
        rating = elo[k] + anchor_rating if played[k] else math.nan
        lines.append(
            EntrantRating(
                entrant=name,
                rating=float(rating),
                lower=float(rating - z * sd[k]),
                upper=float(rating + z * sd[k]),
                games=int(matches[k]),
                points=float(stats["points"][k]),
                weight=float(stats["weight"][k]),
                component=component_of.get(k, -1),
                flags=flags,
            )
        )
    lines.sort(
        key=lambda e: (
            e.component < 0,
            e.component,
            -e.rating if e.component >= 0 else 0.0,
            e.entrant,
        )
    )
    notes = ["Plackett-Luce model: whole rankings, ties averaged over their orders"]
    if not converged:
        notes.append(
            f"the MM iteration did not converge in {iterations} steps; ratings are "
            "unreliable"
        )
    if len(ordered) > 1:
        notes.append(
            f"the pool has {len(ordered)} components that never met; each is "
            "anchored on its own and ratings are not comparable across components"
        )
    if regularised:
        notes.append(
            "some entrants never finished above (or below) the rest of their "
            "component (the MLE does not exist); those components were "
            "regularised with one virtual draw per entrant against the pool average"
        )
    return RatingFit(
        ratings=tuple(lines),
        anchor=anchor,
        anchor_rating=anchor_rating,
        confidence=confidence,
        draw_model="half",
        seat_advantage=None,
        seat_advantage_interval=None,
        draw_parameter=None,
        log_likelihood=ll,
        components=tuple(tuple(names[k] for k in sorted(c)) for c in ordered),
        iterations=iterations,
        notes=tuple(notes),
        covariance=cov[:n, :n],
        names=names,
        model="plackett-luce",
    )


def _pairwise_totals(
    rankings: Sequence[Ranking], index: Mapping[str, int]
) -> dict[str, FloatArray]:
    """Weighted pairwise points and games per entrant, as the pairwise model
    counts them (``pair_results_from_matches``, weighting "entrant"), for the
    score column: 1 / ½ / 0 per other team of another entrant, weight 1/(k-1).
    """
    points = np.zeros(len(index))
    weight = np.zeros(len(index))
    for r in rankings:
        k = len(r.entrants)
        share = 1.0 / (k - 1) if k > 2 else 1.0
        items = [index[e] for e in r.entrants]
        for p, (a, ra) in enumerate(zip(items, r.ranks, strict=True)):
            for b, rb in zip(items[p + 1 :], r.ranks[p + 1 :], strict=True):
                if a == b:
                    continue
                score = 1.0 if ra < rb else 0.5 if ra == rb else 0.0
                points[a] += share * score
                points[b] += share * (1.0 - score)
                weight[a] += share
                weight[b] += share
    return {"points": points, "weight": weight}


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
