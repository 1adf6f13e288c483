"""The ladder format: a persistent Elo-rated ladder that entrants join at any time.

A ladder config (``format = "ladder"``) names the game, the seed and the
starting entrants; ``troef ladder add`` stores more entrants in the ladder's
database. Each round pairs entrants of similar online Elo (a share of them,
``explore``, at random so no one is starved of opponents), plays one or more
duplicate sets per table on the pool, and updates the ratings.

Ratings are never stored: they are replayed from the recorded results in plan
order, so they are the same whatever the number of workers, and a killed
round resumes with exactly the jobs it had planned.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.contracts.errors import ConfigError, UnknownNameError
from harness.contracts.seeding import derive_seed
from harness.stats.elo import OnlineElo
from harness.tournament.config import TournamentConfig
from harness.tournament.entrants import Entrant, make_entrant, resolve_command
from harness.tournament.executor_plugins import executor_session
from harness.tournament.flight import _sigterm_as_interrupt
from harness.tournament.plan import Job, content_id, seatings
from harness.tournament.progress import Progress
from harness.tournament.scheduler import Interrupted, execute
from harness.tournament.store import Store
from harness.tournament.tracker import _Tracker

__all__ = ["Ladder", "LadderRound"]

_ENTRANTS_TABLE = """
CREATE TABLE IF NOT EXISTS ladder_entrants (
    label TEXT PRIMARY KEY, bot TEXT NOT NULL, options TEXT NOT NULL,
    joined INTEGER NOT NULL, spec TEXT
);
CREATE TABLE IF NOT EXISTS ladder_rounds (
    round INTEGER PRIMARY KEY, first_job INTEGER NOT NULL, jobs INTEGER NOT NULL
);
"""


@dataclass(frozen=True)
class LadderRound:
    """One round as played: its number and its tables (entrant labels)."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    played: int


class Ladder:
    """A ladder: its config and its database."""

    def __init__(self, config: TournamentConfig) -> None:
        if config.ladder is None:
            raise ConfigError(
                f'{config.path}: not a ladder config; set format = "ladder"'
            )
        self.settings = config.ladder
        self.store = Store.open(config.database, config)
        self.config = config = self.store.resolve(config)
        self.store.db.executescript(_ENTRANTS_TABLE)
        columns = [
            row[1]
            for row in self.store.db.execute("PRAGMA table_info(ladder_entrants)")
        ]
        if "spec" not in columns:  # a ladder from before entrants kept their table
            with self.store.db:
                self.store.db.execute(
                    "ALTER TABLE ladder_entrants ADD COLUMN spec TEXT"
                )
        self._entrants: list[Entrant] | None = None
        known = {e.label for e in self.entrants()}
        for entrant in config.entrants:
            if entrant.label not in known:
                self._insert(entrant, joined=0)

    def close(self) -> None:
        """Close the database."""
        self.store.close()

    def __enter__(self) -> Ladder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- entrants ---------------------------------------------------------

    def entrants(self) -> list[Entrant]:
        """Everyone on the ladder, in joining order."""
        if self._entrants is None:
            rows = self.store.db.execute(
                "SELECT label, bot, options, spec FROM ladder_entrants "
                "ORDER BY joined, label"
            )
            configured = {e.label: e for e in self.config.entrants}
            self._entrants = [
                configured.get(label) or self._rebuild(label, bot, opts, spec)
                for label, bot, opts, spec in rows
            ]
        return list(self._entrants)

    def _rebuild(self, label: str, bot: str, options: str, spec: str | None) -> Entrant:
        # A ladder entrant is built by the config's own factory, so that the same
        # isolation rule holds (a bot from a plugin file, or a program, runs in
        # its own process); rows from before specs were kept hold bot and options.
        table = (
            json.loads(spec)
            if spec is not None
            else {"bot": bot, "options": json.loads(options)}
        )
        return make_entrant(self.config, label, table, base=Path("/"))

    def add(
        self,
        label: str,
        bot: str = "",
        options: Mapping[str, Any] | None = None,
        *,
        plugin: str | None = None,
        command: Sequence[str] = (),
        isolation: str | None = None,
    ) -> Entrant:
        """Put a new entrant on the ladder; it plays from the next round on.

        :param plugin: a plugin file with the bot, not among the config's: the
            bot runs in its own process (as a config's plugin-file bots do).
        :param command: a bot program speaking the protocol (its own process).
        :param isolation: ``"process"`` or ``"in-process"``; by default the
            config's rule (installed bots in-process, everything else isolated).
        """
        if any(e.label == label for e in self.entrants()):
            raise ConfigError(
                f"the ladder {self.config.database} has an entrant {label!r} already"
            )
        spec: dict[str, Any] = {"options": dict(options or {})}
        if bot:
            spec["bot"] = bot
        if plugin is not None:
            spec["plugin"] = str(Path(plugin).resolve())
        if command:
            spec["command"] = list(resolve_command(command, Path.cwd()))
        if isolation is not None:
            spec["isolation"] = isolation
        entrant = make_entrant(self.config, label, spec, base=Path.cwd())
        spec["options"] = dict(entrant.options)  # resolved: defaults filled in
        self._insert(entrant, joined=self.rounds_played() + 1, spec=spec)
        return entrant

    def _insert(
        self, entrant: Entrant, joined: int, spec: Mapping[str, Any] | None = None
    ) -> None:
        self._entrants = None
        with self.store.db:
            self.store.db.execute(
                "INSERT INTO ladder_entrants VALUES (?, ?, ?, ?, ?)",
                (
                    entrant.label,
                    entrant.bot,
                    json.dumps(dict(entrant.options)),
                    joined,
                    None if spec is None else json.dumps(spec),
                ),
            )

    # -- ratings ----------------------------------------------------------

    def ratings(self) -> OnlineElo:
        """Online Elo replayed over every recorded match in plan order."""
        from harness.stats.standings import pairwise_outcomes

        elo = OnlineElo(k=self.settings.k, initial=self.settings.initial)
        for entrant in self.entrants():
            elo.rating(entrant.label)
        for match in self.store.matches():
            for a, b, score in pairwise_outcomes(match.job["seating"], match.result):
                elo.update(a, b, score)
        return elo

    def rounds_played(self) -> int:
        """How many rounds have been planned (the last may be unfinished)."""
        row = self.store.db.execute("SELECT MAX(round) FROM ladder_rounds").fetchone()
        return int(row[0] or 0)

    # -- rounds -----------------------------------------------------------

    def run(
        self,
        rounds: int,
        *,
        workers: int | None = None,
        progress: Progress | None = None,
    ) -> list[LadderRound]:
        """Finish an interrupted round if any, then play ``rounds`` new ones.

        Every round runs in one executor session: on Dask, one cluster (or one
        client) for the whole command, closed at the end, on an error and on
        Ctrl-C or SIGTERM.

        :raises Interrupted: on Ctrl-C or SIGTERM, after keeping what finished.
        """
        from harness.tournament.botuser import check_entrants

        config = self.config
        check_entrants(config, self.entrants())  # each bot's user can run it
        workers = workers or config.workers or os.cpu_count() or 1
        played: list[LadderRound] = []
        try:
            with (
                _sigterm_as_interrupt(),
                executor_session(
                    config.executor,
                    workers,
                    config.plugin_source,
                    config.executor_settings,
                ),
            ):
                unfinished = self.store.unfinished_jobs()
                if unfinished:
                    played.append(
                        self._play(self.rounds_played(), unfinished, workers, progress)
                    )
                for _ in range(rounds):
                    number = self.rounds_played() + 1
                    jobs = self._plan_round(number)
                    self.store.add_jobs(jobs)
                    with self.store.db:
                        self.store.db.execute(
                            "INSERT INTO ladder_rounds VALUES (?, ?, ?)",
                            (number, jobs[0].index if jobs else 0, len(jobs)),
                        )
                    played.append(self._play(number, jobs, workers, progress))
        except KeyboardInterrupt:
            raise Interrupted(
                f"interrupted: the rounds played are recorded in {config.database}; "
                f"run 'troef ladder run {config.path}' again to finish the round"
            ) from None
        return played

    def _play(
        self,
        number: int,
        jobs: list[Job],
        workers: int,
        progress: Progress | None,
    ) -> LadderRound:
        tracker = _Tracker(
            [e.label for e in self.entrants()], self.store, progress, len(jobs)
        )
        tracker.summary.already_done = 0
        tracker.done = 0
        if jobs:
            execute(
                jobs,
                tracker,
                source=self.config.plugin_source,
                executor=self.config.executor,
                executor_settings=self.config.executor_settings,
                workers=workers,
                chunk=self.config.chunk,
                keep_logs=self.config.keep_logs,
                matches_in_flight=self.config.in_flight,
                secret=self.store.bot_secret(
                    create=any(any(job.process) for job in jobs)
                ),
            )
        tables = tuple(dict.fromkeys(tuple(sorted(set(j.seating))) for j in jobs))
        return LadderRound(number, tables, tracker.summary.played)

    def _plan_round(self, number: int) -> list[Job]:
        config = self.config
        entrants = [e for e in self.entrants() if self._joined(e.label) <= number]
        sides = config.sides
        if len(entrants) < 2:
            raise UnknownNameError(
                f"the ladder {config.database} has {len(entrants)} entrant(s); "
                "add some with 'troef ladder add'"
            )
        tables = self.pair(number, entrants, sides)
        by_label = {e.label: e for e in entrants}
        first = self.store.counts()[1]
        jobs: list[Job] = []
        for t, table in enumerate(tables):
            for s in range(self.settings.sets):
                seed = derive_seed("ladder", config.seed, number, t, s)
                group = content_id(["ladder group", number, t, s])
                for rotation, seating in enumerate(seatings(table, config.teams)):
                    bots = tuple(
                        (by_label[x].bot, by_label[x].options) for x in seating
                    )
                    job_id = content_id(
                        [
                            "ladder",
                            config.game,
                            config.record_options(),
                            number,
                            list(seating),
                            [[b, dict(o)] for b, o in bots],
                            seed,
                            rotation,
                            *(
                                []
                                if config.max_actions is None
                                else [["max_actions", config.max_actions]]
                            ),
                        ]
                    )
                    jobs.append(
                        Job(
                            job_id,
                            first + len(jobs),
                            config.game,
                            config.options,
                            seating,
                            bots,
                            seed,
                            group,
                            rotation,
                            tuple(by_label[x].process for x in seating),
                            tuple(by_label[x].time_control for x in seating),
                            config.max_actions,
                        )
                    )
        return jobs

    def _joined(self, label: str) -> int:
        row = self.store.db.execute(
            "SELECT joined FROM ladder_entrants WHERE label = ?", (label,)
        ).fetchone()
        return int(row[0])

    def pair(
        self, number: int, entrants: Sequence[Entrant], sides: int
    ) -> list[tuple[str, ...]]:
        """Tables of ``sides`` entrants of similar rating, with some exploration.

        Entrants are sorted by rating; each, with probability ``explore``,
        swaps places with a random other before the sorted list is cut into
        tables. When the count does not divide, those who played most sit out.
        """
        rng = random.Random(derive_seed("ladder pairing", self.config.seed, number))
        elo = self.ratings()
        order = sorted((e.label for e in entrants), key=lambda x: (-elo.rating(x), x))
        for i in range(len(order)):
            if rng.random() < self.settings.explore:
                j = rng.randrange(len(order))
                order[i], order[j] = order[j], order[i]
        spare = len(order) % sides
        if spare:
            sitting = sorted(order, key=lambda x: (-elo.games(x), rng.random()))[:spare]
            order = [x for x in order if x not in sitting]
        return [tuple(order[i : i + sides]) for i in range(0, len(order), sides)]
