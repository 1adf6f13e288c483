"""A recorded match drawn as the table of live play: ``troef serve``'s replays.

The frames are the live table's messages again: the match is replayed from
its seed and log (:class:`~harness.match.narration.Narrator`, as ``troef
replay`` tells it), and after each action the chosen seat's View is drawn by
the same :class:`~harness.serve.table.Drawing`, with what that seat heard of
the action. The browser steps through them by action, by trick (a frame that
finishes one) and by deal.

Ruling: a replay is drawn from one seat's view (the seat's View is what the
table draws: a hand, legal moves); the referee's view, which shows every
hand, is ``troef replay`` and the HTML report's, not drawn here yet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.contracts.errors import ConfigError, TroefError
from harness.match.narration import Narrator
from harness.plugins import Registry
from harness.serve.table import Drawing, Message
from harness.tournament.store import Store

__all__ = ["recorded", "replay_frames"]


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


def replay_frames(
    registry: Registry, folder: Path, database: str, match: str, seat: int
) -> dict[str, Any]:
    """The frames of ``match`` in ``folder/database`` as ``seat`` saw it.

    :raises ConfigError: naming the database, match or seat that is not there.
    """
    path = folder / database
    if Path(database).name != database or not path.is_file():
        raise ConfigError(
            f"replay: no database {database!r} in {folder}; expected a file name "
            "that /api/recorded lists"
        )
    with Store.existing(path) as store:
        stored = store.match(match)
    job, result = stored.job, stored.result
    if result.log is None:
        raise ConfigError(f"replay: match {job['id']} was recorded without its log")
    seating = list(job["seating"])
    if not 0 <= seat < len(seating):
        raise ConfigError(
            f"replay: seat {seat} is not at a table of {len(seating)}; "
            f"expected 0 to {len(seating) - 1}"
        )
    game = registry.game(job["game"], job["options"])
    teams = game.teams(len(seating))
    narrator = Narrator(game, job["seed"], seating, seat=seat)
    drawing = Drawing(seating, teams)
    lines = narrator.start()
    frames: list[Message] = [
        {**drawing.message("frame", narrator.state.view(seat)), "lines": lines}
    ]
    for action in result.log:
        tricks = len(frames[-1]["view"].get("tricks") or ())
        lines = narrator.tell(action)
        frame = {**drawing.message("frame", narrator.state.view(seat)), "lines": lines}
        now = frame["view"]
        frame["trick_done"] = len(now.get("tricks") or ()) > tricks or now.get(
            "deal"
        ) != frames[-1]["view"].get("deal")
        frames.append(frame)
    return {
        "title": game.title,
        "seat": seat,
        "labels": seating,
        "teams": list(teams),
        "match": job["id"],
        "scores": list(result.scores),
        "frames": frames,
    }
