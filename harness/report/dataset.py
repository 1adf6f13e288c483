"""Recorded matches as training data: one JSON line per decision (``troef export``).

Each recorded match is replayed from its seed and stored log as the referee
played it (``State.view`` of the seat to act, then ``State.apply``, as
:func:`harness.match.referee.referee_steps` does), so each decision's view is
the very View the referee sent that seat's bot, serialised as the protocol
sends it (``View.to_json``).
A line holds the ids of the decision, that view, the action taken and the
match's final utility for that seat (``Result.utilities``, higher better):
what imitation learning and offline RL read.

Everything streams: the store is read with one iterating cursor in plan
order, a match is replayed while its lines are written, and nothing of it is
kept once its last line is out, so memory does not grow with the database.

Rulings where the issue left room:

1. A line's keys, in order: ``match`` (job id), ``index`` (plan index),
   ``game``, ``options`` (as the job records them), ``seed``, ``deal``,
   ``step`` (the action's place in the match's log, from 0), ``seat``,
   ``entrant`` (the tournament's label), ``bot`` (the registered bot name),
   ``view``, ``action``, ``utility``.
2. A match that ended by forfeit gives its logged decisions with the
   utilities the Result recorded (the forfeiting team's the lowest); the
   forfeited answer itself was never played and is no decision. A match the
   referee cut at its cap (``Result.ended``) gives its decisions and its
   recorded utilities (a draw) likewise.
3. Matches recorded without their log (``keep_logs = false``) cannot be
   replayed and are left out; :class:`Export` counts them for the caller to
   say so.
4. A log the game no longer accepts (its rules changed since the run) is an
   error naming the match and the step, never a silently different data set.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import (
    IllegalActionError,
    InvalidActionError,
    TroefError,
)

if TYPE_CHECKING:
    from harness.contracts.game import Game
    from harness.tournament.store import Store, StoredMatch

__all__ = ["Export", "decision_lines"]


@dataclass
class Export:
    """What one export wrote and left out, for the caller to report."""

    matches: int = 0
    decisions: int = 0
    #: Matches recorded without their log, which cannot be replayed.
    without_log: int = 0


def decision_lines(
    store: Store,
    game_of: Callable[[Mapping[str, Any]], Game],
    *,
    entrant: str | None = None,
    bot: str | None = None,
    seat: int | None = None,
    counts: Export | None = None,
) -> Iterator[str]:
    """One JSON line (with its newline) per decision of every recorded match.

    :param game_of: the Game a stored job was played with (built from its
        ``game`` and ``options`` by the plugins of the run).
    :param entrant: only the decisions of seats this entrant held.
    :param bot: only the decisions of seats played by this bot name.
    :param seat: only the decisions of this seat.
    :param counts: filled in as the lines are made.
    :raises TroefError: a log that its game no longer replays.
    """
    counts = counts if counts is not None else Export()
    for match in store.matches():
        job = match.job
        wanted = [
            s
            for s in range(len(job["seating"]))
            if (seat is None or s == seat)
            and (entrant is None or job["seating"][s] == entrant)
            and (bot is None or job["bots"][s][0] == bot)
        ]
        if not wanted:
            continue
        if match.result.log is None:
            counts.without_log += 1
            continue
        counts.matches += 1
        for line in _match_lines(game_of(job), match, frozenset(wanted)):
            counts.decisions += 1
            yield line


def _match_lines(
    game: Game, match: StoredMatch, wanted: frozenset[int]
) -> Iterator[str]:
    """The lines of one match's decisions by the ``wanted`` seats."""
    job, result = match.job, match.result
    log = result.log
    assert log is not None
    n_seats = len(job["seating"])
    head = json.dumps(
        {
            "match": job["id"],
            "index": job["index"],
            "game": job["game"],
            "options": job["options"],
            "seed": job["seed"],
        },
        separators=(",", ":"),
    )[:-1]
    # What a seat's lines share, before the view and after the action.
    who = [
        f',"seat":{s},"entrant":{json.dumps(job["seating"][s])},'
        f'"bot":{json.dumps(job["bots"][s][0])},"view":'
        for s in range(n_seats)
    ]
    worth = [f',"utility":{json.dumps(u)}}}\n' for u in result.utilities]
    state = game.new_match(n_seats, job["seed"])
    for step, action in enumerate(log):
        acting = state.to_act
        if acting is None:
            raise _not_replayed(job, step, action, "the match is over")
        if acting in wanted:
            # The referee's own view of the decision (referee_steps builds it so).
            view = state.view(acting)
            if action not in view.legal_actions:
                legal = ", ".join(view.legal_actions)
                raise _not_replayed(job, step, action, f"legal: {legal}")
            yield (
                f'{head},"deal":{state.deal},"step":{step}{who[acting]}'
                f'{view.to_json()},"action":{json.dumps(action)}{worth[acting]}'
            )
        try:
            state.apply(action)
        except (IllegalActionError, InvalidActionError) as exc:
            raise _not_replayed(job, step, action, str(exc)) from exc


def _not_replayed(
    job: Mapping[str, Any], step: int, action: str, why: str
) -> TroefError:
    return TroefError(
        f"match {job['id']} (plan index {job['index']}): step {step}, {action!r} "
        f"does not replay ({why}); has game {job['game']!r} changed since the "
        "match was recorded?"
    )
