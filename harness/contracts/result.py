"""The outcome of one match: scores, ranks, utilities, teams, deal points, forfeit, log.

Ranks are in the game's own order, which is not always "more points": a game
ranks by lives left, by chips won, or by the fewest points. A game says which
through the rank keys it passes to :meth:`Result.from_rank_keys` (higher key,
better rank) or the direction it passes to :meth:`Result.from_scores`; the
displayed scores stay as the game counts them. Everything that compares seats
(standings, ratings, paired tests, forfeits) reads the ranks or the utilities,
never the raw scores.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

__all__ = [
    "Forfeit",
    "ForfeitReason",
    "Result",
    "Thinking",
    "competition_ranks",
    "rank_utilities",
]


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


#: One seat's thinking in a match: decisions, total seconds, longest decision.
Thinking: TypeAlias = tuple[int, float, float]


@dataclass(frozen=True)
class Result:
    """The result of one match, per seat in playing order.

    A team's score is the score of each of its seats. Rank 1 is best, in the
    game's own order; equal ranks are ties (competition ranking: 1, 1, 3).
    Build one with :meth:`from_scores` (ranks follow the scores, higher or
    lower first) or :meth:`from_rank_keys` (ranks follow keys of the game's
    choosing). Left empty, ``utilities`` are derived from the ranks
    (:func:`rank_utilities`).
    """

    #: Final match score of each seat, as the game counts and shows it.
    scores: tuple[int, ...]
    #: Final rank of each seat in the game's own order, 1 = best.
    ranks: tuple[int, ...]
    #: Team index of each seat (``Game.teams(n)``: every seat its own team,
    #: pairs of partners, two teams of three, ...).
    teams: tuple[int, ...]
    #: Points each seat scored in each deal: ``deal_points[k][seat]``.
    deal_points: tuple[tuple[int, ...], ...]
    #: Set when a bot forfeited; its team then ranks below every other team.
    forfeit: Forfeit | None = None
    #: Every action of the match in order, when the referee was asked to keep it.
    log: tuple[str, ...] | None = None
    #: What the match is worth to each seat (OpenSpiel's ``returns()``), higher
    #: better: by default :func:`rank_utilities` of the ranks (+1 / -1 / 0
    #: with two teams); a game may give its own (chips won from a pot, ...).
    utilities: tuple[float, ...] = field(default=())
    #: Why the match ended without the game ending it (the referee's cap on
    #: actions, ``Game.max_actions``); None for a match the rules finished.
    ended: str | None = None
    #: Set when the game plugin raised during the match (``State.view``,
    #: ``legal_actions``, ``apply``, ``result``, ...): the match is void, the
    #: fault of the game and of no bot. It counts for nobody (no standing,
    #: rating or test reads it); the text names the game, its plugin, the
    #: match, the call that raised and the traceback tail.
    void: str | None = None
    #: How long each seat's bot thought: ``(decisions, total s, max s per move)``
    #: per seat, as the referee measured it; None when not measured. A
    #: measurement, not an outcome: never compared, never part of
    #: :meth:`to_dict` (the store keeps it in a table of its own).
    thinking: tuple[Thinking, ...] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        n = len(self.ranks)
        if not (len(self.scores) == len(self.teams) == n):
            raise ValueError(
                f"a Result needs one score, rank and team per seat; got scores "
                f"{self.scores}, ranks {self.ranks}, teams {self.teams}"
            )
        if not self.utilities:
            # Frozen: the one place a derived field is filled in.
            object.__setattr__(
                self, "utilities", rank_utilities(self.ranks, self.teams)
            )
        elif len(self.utilities) != n:
            raise ValueError(
                f"utilities {self.utilities} do not give one value per seat "
                f"for {n} seats"
            )
        else:
            object.__setattr__(
                self, "utilities", tuple(float(u) for u in self.utilities)
            )

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready) for process boundaries and storage."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "teams": list(self.teams),
            "utilities": list(self.utilities),
            "deal_points": [list(d) for d in self.deal_points],
            "forfeit": None
            if self.forfeit is None
            else {
                "seat": self.forfeit.seat,
                "reason": self.forfeit.reason.value,
                "detail": self.forfeit.detail,
            },
            "log": None if self.log is None else list(self.log),
            # Only when set: results recorded before the field existed are unchanged.
            **({} if self.ended is None else {"ended": self.ended}),
            **({} if self.void is None else {"void": self.void}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        """Inverse of :meth:`to_dict`.

        Results stored before utilities existed have no ``"utilities"`` key;
        theirs are derived from the ranks, as the default is.
        """
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
            utilities=tuple(data.get("utilities") or ()),
            ended=data.get("ended"),
            void=data.get("void"),
        )

    @classmethod
    def from_rank_keys(
        cls,
        scores: Sequence[int],
        rank_keys: Sequence[float],
        teams: Sequence[int],
        deal_points: Sequence[Sequence[int]],
        *,
        utilities: Sequence[float] | None = None,
    ) -> Result:
        """Build a Result ranked by ``rank_keys`` in the game's own order.

        :param scores: what the game shows per seat (points, lives, chips).
        :param rank_keys: per seat, higher is better: lives left, chips won,
            or ``-score`` in a game where fewer points win. Partners must
            share a key.
        :param utilities: per seat, when the game has its own measure (chips
            won from a pot, ...); by default derived from the ranks.
        """
        return cls(
            scores=tuple(scores),
            ranks=competition_ranks(rank_keys, teams),
            teams=tuple(teams),
            deal_points=tuple(tuple(d) for d in deal_points),
            utilities=() if utilities is None else tuple(utilities),
        )

    @classmethod
    def from_scores(
        cls,
        scores: Sequence[int],
        teams: Sequence[int],
        deal_points: Sequence[Sequence[int]],
        *,
        higher_is_better: bool = True,
        utilities: Sequence[float] | None = None,
    ) -> Result:
        """Build a Result whose ranks follow the scores, higher (or lower) first."""
        keys = [s if higher_is_better else -s for s in scores]
        return cls.from_rank_keys(scores, keys, teams, deal_points, utilities=utilities)


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


def rank_utilities(ranks: Sequence[int], teams: Sequence[int]) -> tuple[float, ...]:
    """The default utilities: zero-sum over teams, from the ranks alone.

    A seat's utility is (other teams its team ranks above - other teams
    ranking above it) / (teams - 1): +1 / -1 with two teams (0 for a tie);
    +1, 0, -1 for first, second and third of three. With a single team,
    every utility is 0.
    """
    rank_of: dict[int, int] = {}
    for team, rank in zip(teams, ranks, strict=True):
        rank_of.setdefault(team, rank)
    others = len(rank_of) - 1
    if others <= 0:
        return tuple(0.0 for _ in ranks)
    out = []
    for team in teams:
        mine = rank_of[team]
        beaten = sum(1 for r in rank_of.values() if r > mine)
        beaten_by = sum(1 for r in rank_of.values() if r < mine)
        out.append((beaten - beaten_by) / others)
    return tuple(out)
