"""The Plackett-Luce rating model: whole rankings, fitted by Hunter's MM.

Owns :class:`Ranking` (one match as a ranking of its teams), the choice
events a list of rankings is read as (ties averaged over their orders), the MM
iteration, and its sandwich information per duplicate group
(docs/STATISTICS.md §2b). Returns a :class:`harness.stats.ratings.RatingFit`
like the pairwise model, anchored the same way (``ratings_intervals``).
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import NDArray

from harness.contracts.errors import close_names
from harness.contracts.result import Result
from harness.stats.ratings import (
    ELO_TO_NATURAL,
    EntrantRating,
    FloatArray,
    IntArray,
    RatingFit,
    RatingFlag,
    _check_options,
)
from harness.stats.ratings_intervals import _anchor_transform, _Layout

__all__ = [
    "Ranking",
    "fit_plackett_luce",
    "rankings_from_matches",
]


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


# -- choice events -------------------------------------------------------------


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


# -- the fit -------------------------------------------------------------------


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
