"""Where the pairwise maximum-likelihood estimate does not exist, and what is done.

The pool's components (who met whom) and, in each, whether the "scored
against" graph is strongly connected (Ford 1957; Hunter 2004): if not, the
component is regularised. Before that, entrants that won or lost every game
are taken out with their games, as Ordo does, and shown at the rating they
are bounded by (docs/STATISTICS.md R3). Used by :func:`fit_ratings`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

import numpy as np

from harness.stats.ratings import FloatArray, PairTable
from harness.stats.ratings_intervals import _Layout

__all__: list[str] = []  # helpers of the rating models only


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
