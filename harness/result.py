"""The outcome of one match: scores, ranks, teams, deal points, forfeit, log."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Forfeit", "ForfeitReason", "Result", "competition_ranks"]


class ForfeitReason(enum.Enum):
    """Why a bot lost a match by forfeit."""

    #: ``act`` raised an exception.
    EXCEPTION = "exception"
    #: ``act`` returned something that is not a string.
    NOT_A_STRING = "not-a-string"
    #: ``act`` returned a string that is not one of ``view.legal_actions``.
    ILLEGAL_ACTION = "illegal-action"
    #: ``act`` took longer than its time control allows.
    TIMEOUT = "timeout"
    #: The bot's process died or stopped answering.
    CRASH = "crash"
    #: The bot's process broke the protocol: a reply that is not JSON, of the
    #: wrong shape or version, or a flood of output.
    PROTOCOL = "protocol"


@dataclass(frozen=True)
class Forfeit:
    """Which seat forfeited, why, and what it did (traceback tail, bad value)."""

    seat: int
    reason: ForfeitReason
    detail: str


@dataclass(frozen=True)
class Result:
    """The result of one match, per seat in playing order.

    A partnership's score is the score of each of its seats. Rank 1 is best;
    equal ranks are ties (competition ranking: 1, 1, 3).
    """

    #: Final match score of each seat.
    scores: tuple[int, ...]
    #: Final rank of each seat, 1 = best.
    ranks: tuple[int, ...]
    #: Team index of each seat (every seat its own team unless partnerships).
    teams: tuple[int, ...]
    #: Points each seat scored in each deal: ``deal_points[k][seat]``.
    deal_points: tuple[tuple[int, ...], ...]
    #: Set when a bot forfeited; its team then ranks below every other team.
    forfeit: Forfeit | None = None
    #: Every action of the match in order, when the referee was asked to keep it.
    log: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready) for process boundaries and storage."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "teams": list(self.teams),
            "deal_points": [list(d) for d in self.deal_points],
            "forfeit": None
            if self.forfeit is None
            else {
                "seat": self.forfeit.seat,
                "reason": self.forfeit.reason.value,
                "detail": self.forfeit.detail,
            },
            "log": None if self.log is None else list(self.log),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        """Inverse of :meth:`to_dict`."""
        forfeit = data["forfeit"]
        return cls(
            scores=tuple(data["scores"]),
            ranks=tuple(data["ranks"]),
            teams=tuple(data["teams"]),
            deal_points=tuple(tuple(d) for d in data["deal_points"]),
            forfeit=None
            if forfeit is None
            else Forfeit(
                forfeit["seat"], ForfeitReason(forfeit["reason"]), forfeit["detail"]
            ),
            log=None if data["log"] is None else tuple(data["log"]),
        )

    @classmethod
    def from_scores(
        cls,
        scores: Sequence[int],
        teams: Sequence[int],
        deal_points: Sequence[Sequence[int]],
        *,
        higher_is_better: bool = True,
    ) -> Result:
        """Build a Result whose ranks follow the scores."""
        keys = [s if higher_is_better else -s for s in scores]
        return cls(
            scores=tuple(scores),
            ranks=competition_ranks(keys, teams),
            teams=tuple(teams),
            deal_points=tuple(tuple(d) for d in deal_points),
        )


def competition_ranks(
    keys: Sequence[float], teams: Sequence[int] | None = None
) -> tuple[int, ...]:
    """Rank by ``keys``, higher first, ties sharing the best rank: 1, 1, 3.

    With ``teams``, teams are ranked (partners share a key): two teams of two
    seats rank 1, 2, 1, 2, not 1, 3, 1, 3.
    """
    if teams is None:
        teams = range(len(keys))
    by_team = {team: key for team, key in zip(teams, keys, strict=True)}
    return tuple(1 + sum(1 for other in by_team.values() if other > k) for k in keys)
