"""A recorded match drawn as the table of live play: ``troef serve``'s replays.

The frames are the live table's messages again: the match is replayed from
its seed and log (:class:`~harness.match.narration.Narrator`, as ``troef
replay`` tells it), and after each action the chosen seat's View is drawn by
the same :class:`~harness.serve.table.Drawing`, with what that seat heard of
the action. The browser steps through them by action, by trick (a frame that
finishes one) and by deal.

Rulings:

1. A seat's replay is built from that seat's View and that seat's account
   only, as live play is: nothing of another hand reaches the browser.
2. The referee's view (``seat`` None, ``?seat=referee``) draws every hand face
   up at its seat, the public View (:func:`~harness.report.replay.public_view`)
   around them and the other card places beside, with the referee's account:
   the HTML report's frames (:func:`harness.report.replay.replay_frames`),
   so both draw the referee's table from one source.
"""

from __future__ import annotations

import functools
import sqlite3
from pathlib import Path
from typing import Any

from harness.contracts.errors import ConfigError, TroefError
from harness.contracts.game import Game
from harness.match.narration import Narrator
from harness.plugins import Registry
from harness.report.replay import replay_frames as report_frames
from harness.serve.table import Drawing, Message
from harness.tournament.database_file import not_a_troef_database
from harness.tournament.executor_plugins import snapshot_registry
from harness.tournament.store import Store, StoredMatch

__all__ = ["database_in", "recorded", "replay_frames"]


def recorded(folder: Path) -> list[dict[str, Any]]:
    """The databases in ``folder`` (newest first) with their matches."""
    found = []
    for path in sorted(folder.glob("*.sqlite"), reverse=True):
        try:
            with Store.existing(path) as store:
                matches = [
                    {
                        "match": m.job["id"],
                        "game": m.job["game"],
                        "seating": m.job["seating"],
                    }
                    for m in store.matches()
                ]
        except TroefError:
            continue  # not a troef database: not ours to show
        found.append({"database": path.name, "matches": matches})
    return found


def database_in(folder: Path, database: str) -> Path:
    """The database file ``database`` of the results folder ``folder``.

    :raises ConfigError: naming it when it is no file name of that folder.
    """
    path = folder / database
    if Path(database).name != database or not path.is_file():
        raise ConfigError(
            f"replay: no database {database!r} in {folder}; expected a file name "
            "that /api/recorded lists"
        )
    return path


def replay_frames(
    registry: Registry, path: Path, match: str, seat: int | None
) -> dict[str, Any]:
    """The frames of ``match`` in the database ``path`` as ``seat`` saw it
    (None: the referee, every hand open).

    :raises ConfigError: naming the database, match or seat that is not there.
    """
    stored, plugins = _stored_match(path, match)
    job, result = stored.job, stored.result
    if result.log is None:
        raise ConfigError(f"replay: match {job['id']} was recorded without its log")
    seating = list(job["seating"])
    if seat is not None and not 0 <= seat < len(seating):
        raise ConfigError(
            f"replay: seat {seat} is not at a table of {len(seating)}; "
            f"expected 0 to {len(seating) - 1}, or referee"
        )
    if plugins:  # a tournament of an outside plugin's game or bots
        registry = _plugins_registry(plugins)
    game = registry.game(job["game"], job["options"])
    teams = game.teams(len(seating))
    frames = (
        _referee_frames(game, stored)
        if seat is None
        else _seat_frames(game, job["seed"], seating, teams, result.log, seat)
    )
    return {
        "title": game.title,
        "seat": seat,
        "labels": seating,
        "teams": list(teams),
        "match": job["id"],
        "scores": list(result.scores),
        "frames": frames,
    }


def _stored_match(path: Path, match: str) -> tuple[StoredMatch, tuple[str, ...]]:
    """One recorded match and the plugins its config named, read through a
    read-only connection.

    A replay never writes: it may be read beside a running ``troef run``
    (``troef serve DB``'s live page links its latest matches here) or from a
    file no one may write, and leaves no file beside it.
    """
    problem = not_a_troef_database(path)
    if problem is not None:
        raise ConfigError(f"replay: {path}: {problem}")
    try:
        with Store.read_snapshot(path) as store:  # one moment while a run writes
            plugins = store.config_snapshot().get("plugins", [])
            return store.match(match), tuple(str(p) for p in plugins)
    except sqlite3.Error as exc:
        raise ConfigError(f"replay: cannot read {path} ({exc})") from exc


@functools.cache
def _plugins_registry(plugins: tuple[str, ...]) -> Registry:
    """The registry of a database that names plugins, loaded once per set."""
    return snapshot_registry({"plugins": list(plugins)})


def _seat_frames(
    game: Game,
    seed: int,
    seating: list[str],
    teams: tuple[int, ...],
    log: tuple[str, ...],
    seat: int,
) -> list[Message]:
    """The live table's messages to ``seat`` again, one per action."""
    narrator = Narrator(game, seed, seating, seat=seat)
    drawing = Drawing(seating, teams)
    lines = narrator.start()
    frames: list[Message] = [
        {
            **drawing.message("frame", narrator.state.view(seat)),
            "lines": lines,
            "deal": narrator.state.deal,
        }
    ]
    for action in log:
        tricks = len(frames[-1]["view"].get("tricks") or ())
        lines = narrator.tell(action)
        frame = {
            **drawing.message("frame", narrator.state.view(seat)),
            "lines": lines,
            "deal": narrator.state.deal,
        }
        frame["trick_done"] = _trick_done(frames[-1], frame["view"], tricks)
        frames.append(frame)
    return frames


def _referee_frames(game: Game, stored: StoredMatch) -> list[Message]:
    """Every hand open: the report's frames, drawn as the live table's."""
    data = report_frames(game, stored)
    n = len(data["seating"])
    frames: list[Message] = []
    for f in data["frames"]:
        places = f["p"]
        tricks = len(frames[-1]["view"].get("tricks") or ()) if frames else 0
        frame: Message = {
            "type": "frame",
            "view": f["r"],
            "hands": [places.get(f"hand:{s}", []) for s in range(n)],
            "places": {k: v for k, v in places.items() if not k.startswith("hand:")},
            "words": [],
            "last_trick": f["k"]["r"],
            "lines": f["l"],
            "deal": f["d"],
        }
        if frames:
            frame["trick_done"] = _trick_done(frames[-1], frame["view"], tricks)
        frames.append(frame)
    return frames


def _trick_done(before: Message, view: dict[str, Any], tricks: int) -> bool:
    """A frame finishes a trick: the View has one more, or a new deal began."""
    return len(view.get("tricks") or ()) > tricks or view.get("deal") != before[
        "view"
    ].get("deal")
