"""Team layouts: who plays with whom at a table, as ``Game.teams(n)`` gives it.

A layout is a tuple with the team index of each seat in playing order:
``(0, 1, 2)`` every seat for itself, ``(0, 1, 0, 1)`` two pairs of partners,
``(0, 1, 0, 1, 0, 1)`` two teams of three sitting alternately (Klapper for
six). ``Game.teams`` is the one source; the harness reads it through
:func:`team_layout`, which checks it, and never derives teams itself.

Ruling on unequal teams: a layout may have teams of different sizes (say
``(0, 1, 1)``, one seat against two). Every team is still one entrant at the
table, and the cyclic rotations of a duplicate group give each entrant every
team's seats, so each entrant still holds every hand; pairwise results and
ratings count teams, not seats, so team size does not weigh in them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from harness.contracts.errors import TeamLayoutError

if TYPE_CHECKING:
    from harness.contracts.game import Game

__all__ = [
    "check_teams",
    "describe_teams",
    "team_count",
    "team_layout",
    "team_seats",
]


def check_teams(
    layout: Sequence[int], n_seats: int, *, game: str = ""
) -> tuple[int, ...]:
    """``layout`` as a tuple, if it is a layout of ``n_seats`` seats.

    :raises TeamLayoutError: not one int per seat, fewer than two teams, or
        teams not numbered 0..m-1 (which is also how every team is non-empty).
    """
    where = f"game {game!r}: " if game else ""
    seats = tuple(layout)
    if len(seats) != n_seats or not all(
        isinstance(t, int) and not isinstance(t, bool) for t in seats
    ):
        raise TeamLayoutError(
            f"{where}teams({n_seats}) is {layout!r}; expected one team index "
            f"(an int) per seat, {n_seats} in all"
        )
    used = set(seats)
    if used != set(range(len(used))):
        raise TeamLayoutError(
            f"{where}teams({n_seats}) is {seats}; teams must be numbered "
            f"0..m-1 with a seat in each, e.g. {tuple(s % 2 for s in range(n_seats))}"
        )
    if len(used) < 2:
        raise TeamLayoutError(
            f"{where}teams({n_seats}) is {seats}: a single team has no one to "
            "play against; expected at least two teams"
        )
    return seats


def team_layout(game: Game, n_seats: int) -> tuple[int, ...]:
    """``game.teams(n_seats)``, checked by :func:`check_teams`."""
    return check_teams(game.teams(n_seats), n_seats, game=game.name)


def team_count(layout: Sequence[int]) -> int:
    """The number of teams m of a layout."""
    return len(set(layout))


def team_seats(layout: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The seats of each team, team 0 first: (0, 1, 0, 1) -> ((0, 2), (1, 3))."""
    return tuple(
        tuple(s for s, t in enumerate(layout) if t == team)
        for team in range(team_count(layout))
    )


def describe_teams(layout: Sequence[int]) -> str:
    """A short phrase: ``"each for itself"`` or ``"teams 0,1,0,1"``."""
    if tuple(layout) == tuple(range(len(layout))):
        return "each for itself"
    return "teams " + ",".join(str(t) for t in layout)
