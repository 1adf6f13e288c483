"""The referee: plays one match, and replays a recorded one.

The boundary with a bot is deliberately narrow: a View goes in, an action
string comes out. Anything else a bot does (raising, returning a non-string,
returning an action not in ``view.legal_actions``) forfeits the match for its
seat's team; the Result records who and why.
"""

from __future__ import annotations

import traceback
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from harness.bot import Bot
from harness.errors import TroefError
from harness.game import Game, State
from harness.result import Forfeit, ForfeitReason, Result, competition_ranks
from harness.seeding import bot_seed

__all__ = ["forfeit_result", "make_bots", "play_match", "replay"]

_DETAIL_LIMIT = 2000


def make_bots(
    game: Game,
    bot_classes: Sequence[type[Bot]],
    seed: int,
    options: Sequence[Mapping[str, Any] | None] | None = None,
) -> list[Bot]:
    """Build one bot per seat, each with its own seed derived from ``seed``."""
    game.check_seats(len(bot_classes))
    opts = options or [None] * len(bot_classes)
    return [
        cls(game, seat, bot_seed(seed, seat), opts[seat])
        for seat, cls in enumerate(bot_classes)
    ]


def play_match(
    game: Game, bots: Sequence[Bot], seed: int, *, keep_log: bool = False
) -> Result:
    """Play one whole match of ``game`` with ``bots`` seated in order.

    :param seed: the match seed; every deal is shuffled from it alone.
    :param keep_log: put the list of actions into ``Result.log``.
    """
    state = game.new_match(len(bots), seed)
    log: list[str] = []
    while not state.is_over():
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        try:
            action = bots[seat].act(view)
        except Exception:
            return _forfeit(state, seat, ForfeitReason.EXCEPTION, _tail(), log, keep_log)
        if type(action) is not str:
            return _forfeit(
                state, seat, ForfeitReason.NOT_A_STRING,
                f"act() returned {_short(action)}, not a string", log, keep_log,
            )
        if action not in view.legal_actions:
            return _forfeit(
                state, seat, ForfeitReason.ILLEGAL_ACTION,
                f"act() returned {action[:80]!r}, not one of "
                f"{', '.join(view.legal_actions)}", log, keep_log,
            )
        state.apply(action)
        log.append(action)
    result = state.result()
    return replace(result, log=tuple(log)) if keep_log else result


def replay(
    game: Game,
    n_seats: int,
    seed: int,
    log: Sequence[str],
    *,
    forfeit: Forfeit | None = None,
) -> Result:
    """Replay ``log`` from ``seed`` and return the Result it leads to.

    :param forfeit: the forfeit recorded for the match, which ends it after
        the last logged action.
    :raises TroefError: an action of the log is not legal where it stands.
    """
    state = game.new_match(n_seats, seed)
    for index, action in enumerate(log):
        if state.is_over():
            raise TroefError(f"log action {index} ({action!r}) comes after the end")
        state.apply(action)
    if forfeit is not None:
        return forfeit_result(state, forfeit, tuple(log))
    if not state.is_over():
        raise TroefError(f"log of {len(log)} actions ends before the match does")
    return replace(state.result(), log=tuple(log))


def forfeit_result(state: State, forfeit: Forfeit, log: tuple[str, ...] | None) -> Result:
    """The Result of a match that ``forfeit`` ended in ``state``.

    Ruling: scores and deal points stand as they were when the match ended;
    the forfeiting team ranks below every other team, which are ranked among
    themselves by their scores so far.
    """
    partial = state.result()
    teams = state.game.teams(state.n_seats)
    losing_team = teams[forfeit.seat]
    keys = [
        float("-inf") if teams[s] == losing_team else partial.scores[s]
        for s in range(state.n_seats)
    ]
    return Result(
        scores=partial.scores,
        ranks=competition_ranks(keys, teams),
        teams=teams,
        deal_points=partial.deal_points,
        forfeit=forfeit,
        log=log,
    )


def _forfeit(
    state: State,
    seat: int,
    reason: ForfeitReason,
    detail: str,
    log: list[str],
    keep_log: bool,
) -> Result:
    forfeit = Forfeit(seat, reason, detail[-_DETAIL_LIMIT:])
    return forfeit_result(state, forfeit, tuple(log) if keep_log else None)


def _tail() -> str:
    return traceback.format_exc(limit=-8)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
