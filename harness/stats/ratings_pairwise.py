"""The pairwise rating model: Bradley-Terry on the Elo scale, by maximum likelihood.

Reads a :class:`harness.stats.ratings.PairTable` (or pair results, aggregated
first) and returns a :class:`harness.stats.ratings.RatingFit`. Owns the
likelihood and its Newton solve, the pool's components, the entrants taken out
with a perfect or zero score (as Ordo does) and the regularisation of
separated pools.

Model (docs/STATISTICS.md §2). The expected score of ``a`` against ``b`` is
E(D) = 1/(1 + 10^(-D/400)) with D = R_a - R_b (+ the seat advantage when
``a`` sat first). With ``draw_model="half"`` a draw is half a win and half a
loss, so the likelihood equations are Ordo's "predicted points = observed
points" for every entrant (Ordo ``manual.tex``; Hunter 2004, eq. 3).
``draw_model="davidson"`` uses Davidson (1970): P(win) ∝ e^(d/2),
P(loss) ∝ e^(-d/2), P(draw) ∝ nu.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
from numpy.typing import NDArray

from harness.contracts.errors import close_names
from harness.stats.ratings import (
    ELO_TO_NATURAL,
    Clusters,
    EntrantRating,
    FloatArray,
    IntArray,
    PairResult,
    PairTable,
    RatingFit,
    RatingFlag,
    _aggregate,
    _check_options,
    clusters_of,
    expit,
    log_expit,
)
from harness.stats.ratings_intervals import _anchor_transform, _covariance, _Layout
from harness.stats.ratings_separation import _bounds, _layout, _separate

__all__ = [
    "fit_ratings",
]


# -- the likelihood ------------------------------------------------------------


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
    #: The real rows' results by duplicate group (None: every game on its own).
    clusters: Clusters | None = None

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
        "meat" of the sandwich), for the half-point model; over duplicate groups
        of the outer product of the group's summed score vector when the results
        come in groups (:meth:`_cluster_outer`).

        A game of row r with score x adds (x - p)² (e_i - e_j + side·e_h)(…)ᵀ, so
        a row adds w(1 - p)² + d(½ - p)² + l·p² times that outer product.
        """
        n, m = self.n, self.n + 1
        d = theta[self.i] - theta[self.j] + theta[n + 1] * self.side
        p = expit(d)
        c = self.wins * (1 - p) ** 2 + self.draws * (0.5 - p) ** 2 + self.losses * p**2
        clustered = self.clusters is not None and self.clusters.grouped
        if clustered:
            c[: self.real] = 0.0  # the real rows' games enter by cluster below
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
        if clustered:
            out += self._cluster_outer(p)
        return out

    def _cluster_outer(self, p: FloatArray) -> FloatArray:
        """Σ over clusters g of s_g s_gᵀ·G/(G - 1), s_g the sum of the weighted score
        vectors w(x - p)(e_i - e_j + side·e_h) of g's games (Liang & Zeger 1986;
        the factor as for Plackett-Luce, §2b)."""
        from scipy import sparse  # lazy, as in ratings_separation

        k = self.clusters
        assert k is not None
        r = k.row
        u = k.weight * (k.score - p[r])
        scores = sparse.coo_matrix(
            (
                np.concatenate([u, -u, u * self.side[r]]),
                (
                    np.tile(k.cluster, 3),
                    np.concatenate([self.i[r], self.j[r], np.full(len(r), self.n + 1)]),
                ),
            ),
            shape=(k.count, self.size),
        ).tocsr()
        outer = np.asarray((scores.T @ scores).toarray(), dtype=np.float64)
        return outer * (k.count / (k.count - 1))

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


# -- the fit -------------------------------------------------------------------


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
    clusters: Clusters | None = None,
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
    :param clusters: the duplicate groups of a :class:`PairTable`'s results
        (:func:`harness.stats.ratings.clusters_of`); pair results bring their own.

    Intervals: the covariance of the free parameters is the sandwich
    I⁻¹·J·I⁻¹ (half-point model; Davidson's: I⁻¹), J summed over duplicate
    groups when some group holds more than one result, else over games
    (docs/STATISTICS.md R2, R2c); the anchored ratings are a linear map T·gamma
    of them, so their covariance is T·Σ·Tᵀ (for the mean anchor this is the
    constrained covariance; a named anchor has interval width 0).
    """
    _check_options(draw_model, confidence)
    if isinstance(results, PairTable):
        table = results
    else:
        listed = list(results)
        table, row_of = _aggregate(listed, entrants)
        clusters = clusters_of(table, listed, row_of)
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
    if clusters is not None and separated:
        clusters = clusters.keep_rows(rows)
    if clusters is not None and clusters.count < 2:
        clusters = None  # one cluster's summed score is 0 at the optimum
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
    problem.clusters = clusters
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
