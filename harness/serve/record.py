"""A match at a ``troef serve`` table written into a database of its own
(``table.py``'s ruling 3), as a one-match round-robin that ``troef report``
and ``troef replay`` read like any tournament's."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from harness.contracts.game import Game
from harness.contracts.result import Result
from harness.tournament.config import TournamentConfig
from harness.tournament.entrants import Entrant
from harness.tournament.plan import Job, content_id
from harness.tournament.store import Store

__all__ = ["PERSON_BOT", "record_match"]

#: The bot name a person's seat is recorded under; as a ``bots`` entry at a
#: table, a seat a person joins through its link.
PERSON_BOT = "person"


def record_match(
    folder: Path,
    game: Game,
    labels: Sequence[str],
    specs: Sequence[str],
    seed: int,
    result: Result,
) -> tuple[Path, str]:
    """Write one match into a new database in ``folder`` (``table.py``, ruling 3).

    :param specs: each seat's ``--bots`` entry (``person`` for a person).
    :returns: the database's path and the match's job id.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    path = folder / f"{stamp}-{game.name}-seed{seed}.sqlite"
    n = 2
    while path.exists():  # two matches in one second
        path = folder / f"{stamp}-{n}-{game.name}-seed{seed}.sqlite"
        n += 1
    entrants = tuple(
        Entrant(label, spec.split(":", 1)[0] if spec != PERSON_BOT else PERSON_BOT)
        for label, spec in zip(labels, specs, strict=True)
    )
    options = tuple(sorted(game.options.items()))
    config = TournamentConfig(
        path=path,
        name=f"{game.name} at the table",
        game=game.name,
        options=options,
        seats=len(labels),
        teams=game.teams(len(labels)),
        format="round-robin",
        matches=1,
        seed=seed,
        duplicate=False,
        database=path,
        keep_logs=True,
        plugins=(),
        workers=None,
        executor="inline",
        chunk=None,
        entrants=entrants,
    )
    bots = tuple((e.bot, e.options) for e in entrants)
    seating = tuple(labels)
    head = [game.name, config.record_options(), list(seating)]
    job = Job(
        id=content_id([*head, [[b, dict(o)] for b, o in bots], seed, 0]),
        index=0,
        game=game.name,
        options=options,
        seating=seating,
        bots=bots,
        seed=seed,
        group=content_id(["group", seed, list(seating), 0]),
        rotation=0,
    )
    with Store.open(path, config) as store:
        store.add_jobs([job])
        store.record(job, result)
    return path, job.id
