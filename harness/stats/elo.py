"""Online Elo: the incremental rating a ladder updates after every result.

Unlike the maximum-likelihood fit of :mod:`harness.stats.ratings_pairwise`, it
depends on the order of the results; the ladder replays them in plan order, so
it is deterministic whatever the number of workers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

__all__ = ["OnlineElo"]


class OnlineElo:
    """Classic incremental Elo for ladders: R_a += K·(S - E(R_a - R_b)), R_b mirrors it.

    Deterministic: the ratings depend only on the sequence of updates. Unknown
    entrants start at ``initial``. (Elo 1978, §1.6; E is the logistic curve of
    docs/STATISTICS.md §2.1.)
    """

    def __init__(self, k: float = 16, initial: float = 1500) -> None:
        if not k > 0:
            raise ValueError(f"k must be positive, got {k!r}")
        self.k = k
        self.initial = initial
        self._ratings: dict[str, float] = {}
        self._games: dict[str, int] = defaultdict(int)

    def update(self, a: str, b: str, score: float) -> tuple[float, float]:
        """Record ``a``'s score (0..1) against ``b``; return their new ratings."""
        if a == b:
            raise ValueError(f"an entrant cannot play itself: {a!r}")
        if not 0 <= score <= 1:
            raise ValueError(f"score must be between 0 and 1, got {score!r}")
        ra = self._ratings.get(a, self.initial)
        rb = self._ratings.get(b, self.initial)
        delta = self.k * (score - 1 / (1 + 10 ** ((rb - ra) / 400)))
        self._ratings[a], self._ratings[b] = ra + delta, rb - delta
        self._games[a] += 1
        self._games[b] += 1
        return self._ratings[a], self._ratings[b]

    def rating(self, entrant: str) -> float:
        """Current rating (``initial`` for an entrant not seen yet)."""
        return self._ratings.get(entrant, self.initial)

    def games(self, entrant: str) -> int:
        """Games recorded for ``entrant``."""
        return self._games.get(entrant, 0)

    def ratings(self) -> dict[str, float]:
        """{entrant: rating}, best first (ties by name)."""
        return dict(sorted(self._ratings.items(), key=lambda kv: (-kv[1], kv[0])))

    def __iter__(self) -> Iterator[tuple[str, float]]:
        return iter(self.ratings().items())

    def __repr__(self) -> str:
        return f"OnlineElo(k={self.k!r}, initial={self.initial!r})"
