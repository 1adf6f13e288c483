"""Plain standings from recorded results: pairwise score per entrant.

A match of n seats is decomposed into pairwise results between the entrants
of different teams: 1 for the better rank, ½ for equal ranks, 0 for the worse.
A team (``Game.teams``: partners, two teams of three, ...) is one entrant, so
a two-team match is one pair. Ranks are in the game's own order; raw scores
are shown, never compared.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from harness.contracts.result import Result

__all__ = ["Standing", "pairwise_outcomes", "standings"]


class _Table(dict[str, "Standing"]):
    def __missing__(self, entrant: str) -> Standing:
        row = self[entrant] = Standing(entrant)
        return row


@dataclass
class Standing:
    """One entrant's line in the standings."""

    entrant: str
    matches: int = 0
    #: Pairwise points (1 / ½ / 0 per opponent met in a match).
    points: float = 0.0
    #: Pairwise games (the denominator of the score).
    games: int = 0
    wins: int = 0
    forfeits: int = 0
    total_score: int = 0
    #: Sum of the entrant's utilities (``Result.utilities``, the game's order).
    total_utility: float = 0.0

    @property
    def score(self) -> float:
        """Pairwise score fraction, 0..1."""
        return self.points / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        """Mean match score (game points) per match."""
        return self.total_score / self.matches if self.matches else 0.0

    @property
    def mean_utility(self) -> float:
        """Mean utility per match: higher is better in every game."""
        return self.total_utility / self.matches if self.matches else 0.0


def pairwise_outcomes(
    seating: Sequence[str], result: Result
) -> list[tuple[str, str, float]]:
    """(a, b, score of a against b) for each pair of teams with different entrants."""
    first_seat: dict[int, int] = {}
    for seat, team in enumerate(result.teams):
        first_seat.setdefault(team, seat)
    seats = sorted(first_seat.values())
    out = []
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            if seating[a] == seating[b]:
                continue
            ra, rb = result.ranks[a], result.ranks[b]
            out.append(
                (seating[a], seating[b], 1.0 if ra < rb else 0.5 if ra == rb else 0.0)
            )
    return out


def standings(
    entrants: Iterable[str], matches: Iterable[tuple[Sequence[str], Result]]
) -> list[Standing]:
    """Standings sorted by pairwise score, then mean utility, then name.

    Not by mean score: in a game won on fewest points that would reward the
    worst.

    Entrants that played but are not in ``entrants`` (a ladder's later
    joiners) get a line too.
    """
    table: dict[str, Standing] = _Table()
    for e in entrants:
        table[e] = Standing(e)
    for seating, result in matches:
        seen: dict[str, int] = defaultdict(int)
        for seat, label in enumerate(seating):
            if seen[label]:
                continue
            seen[label] += 1
            row = table[label]
            row.matches += 1
            row.total_score += result.scores[seat]
            row.total_utility += result.utilities[seat]
            if result.ranks[seat] == 1 and list(result.ranks).count(1) == sum(
                1 for s in range(len(seating)) if result.teams[s] == result.teams[seat]
            ):
                row.wins += 1
            if (
                result.forfeit is not None
                and result.teams[result.forfeit.seat] == result.teams[seat]
            ):
                row.forfeits += 1
        for a, b, score in pairwise_outcomes(seating, result):
            table[a].points += score
            table[a].games += 1
            table[b].points += 1.0 - score
            table[b].games += 1
    return sorted(table.values(), key=lambda s: (-s.score, -s.mean_utility, s.entrant))
