"""Tables a person reads at a glance (tabulate)."""

from __future__ import annotations

from collections.abc import Sequence

from tabulate import tabulate

from harness.result import Result
from harness.standings import Standing

__all__ = ["result_table", "standings_table"]


def standings_table(rows: Sequence[Standing]) -> str:
    """Rank, entrant, matches, pairwise score %, wins, mean match score, forfeits."""
    body = [
        [i, s.entrant, s.matches, f"{100 * s.score:.1f}", s.wins, f"{s.mean_score:.1f}", s.forfeits]
        for i, s in enumerate(rows, 1)
    ]
    return tabulate(
        body,
        headers=["#", "entrant", "matches", "score %", "wins", "mean score", "forfeits"],
        colalign=("right", "left", "right", "right", "right", "right", "right"),
    )


def result_table(result: Result, names: Sequence[str]) -> str:
    """One match's result per seat."""
    rows = [
        [seat, names[seat], result.teams[seat], result.scores[seat], result.ranks[seat]]
        for seat in range(len(names))
    ]
    return tabulate(rows, headers=["seat", "player", "team", "score", "rank"])
