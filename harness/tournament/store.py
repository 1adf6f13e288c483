"""The results store: one SQLite file per tournament, in WAL mode.

It holds a snapshot of the config, the planned jobs, and per finished match
its result (per seat: entrant, score, rank, team; per deal: points; a forfeit
with its reason) and, when asked for, the action log. Results are written in
transactions of whole matches keyed by the job id, so a run killed at any
moment loses at most the matches not yet written (in flight, or streamed in
the last moments) and never counts one twice. The file itself (its private
folders, the check that an existing file is a troef database, the run lock) is
:mod:`harness.tournament.database_file`'s.

A writer merges the ``-wal`` file into the database file (a checkpoint) when it
opens the store, every :data:`CHECKPOINT_SECONDS` while it records and when it
closes, so that the database file alone holds the tables and nearly every
result even after a SIGKILL; until it closes cleanly, the file says a writer
is at work (the meta key ``writer``), so that a copy made without its
``-wal`` file is named as such instead of read as a smaller tournament.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import sqlite3
import time
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from harness.contracts.errors import ConfigError, TroefError
from harness.contracts.result import Result
from harness.tournament.database_file import (
    WRITER_KEY,
    not_a_troef_database,
    private_folders,
    read_only_connection,
    remove_database,
    run_lock_held,
    unmerged_wal,
    wal_beside,
)
from harness.tournament.plan import Job

if TYPE_CHECKING:
    from harness.tournament.config import TournamentConfig

__all__ = [
    "CHECKPOINT_SECONDS",
    "Encoded",
    "Store",
    "StoredMatch",
    "TakenSecret",
    "decode_log",
    "encode",
    "take_secret",
    "writer_alive",
]

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, idx INTEGER NOT NULL UNIQUE, seed INTEGER NOT NULL,
    grp TEXT NOT NULL, rotation INTEGER NOT NULL, spec TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    job_id TEXT PRIMARY KEY REFERENCES jobs(id),
    forfeit_seat INTEGER, forfeit_reason TEXT, forfeit_detail TEXT,
    deals INTEGER NOT NULL, result TEXT NOT NULL,
    recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE IF NOT EXISTS seat_results (
    job_id TEXT NOT NULL REFERENCES results(job_id), seat INTEGER NOT NULL,
    entrant TEXT NOT NULL, score INTEGER NOT NULL, rank INTEGER NOT NULL,
    team INTEGER NOT NULL, PRIMARY KEY (job_id, seat)
);
-- Per deal and seat, read from the result itself: a view, not a table, because
-- writing one row per deal and seat cost the parent more than a worker's match.
CREATE VIEW IF NOT EXISTS deal_points AS
    SELECT r.job_id AS job_id, CAST(d.key AS INTEGER) AS deal,
           CAST(p.key AS INTEGER) AS seat, p.value AS points
    FROM results r, json_each(r.result, '$.deal_points') d, json_each(d.value) p;
-- How long each seat's bot thought in a match (measured, so apart from results).
CREATE TABLE IF NOT EXISTS thinking (
    job_id TEXT NOT NULL REFERENCES results(job_id), seat INTEGER NOT NULL,
    decisions INTEGER NOT NULL, total REAL NOT NULL, longest REAL NOT NULL,
    PRIMARY KEY (job_id, seat)
);
CREATE TABLE IF NOT EXISTS logs (
    job_id TEXT PRIMARY KEY REFERENCES results(job_id), log TEXT NOT NULL
);
"""


#: How often a writer merges the ``-wal`` file into the database file while it
#: records: what a copy of the database file alone may lack after a SIGKILL.
#: A checkpoint writes (and syncs) the pages changed since the last one, so it
#: costs the runner little at this pace whatever the rate of matches.
CHECKPOINT_SECONDS = 5.0

log = logging.getLogger("troef.store")


class Encoded(NamedTuple):
    """A match's result as the store writes it, encoded where it was played:
    a pool worker encodes its matches, so that the runner, which writes every
    result, only inserts rows (the runner's CPU is the pool's bottleneck).
    A named tuple: it unpickles at C speed."""

    #: ``Result.to_dict()`` without the log, as JSON (the ``results`` column).
    json: str
    #: The action log, actions joined by spaces (the ``logs`` column), or None.
    log: str | None


def encode(result: Result) -> Encoded:
    """``result`` as the store writes it: the same bytes wherever it is encoded."""
    plain = result.to_dict()
    log = plain.pop("log")
    return Encoded(
        json.dumps(plain, separators=(",", ":")),
        None if log is None else " ".join(log),
    )


def decode_log(text: str) -> list[str]:
    """The actions of a log as :func:`encode` wrote it (joined by spaces)."""
    return text.split(" ") if text else []


class StoredMatch:
    """One recorded match: its job (as stored) and its Result."""

    __slots__ = ("job", "result")

    def __init__(self, job: dict[str, Any], result: Result) -> None:
        self.job = job
        self.result = result


class Store:
    """A tournament's SQLite database."""

    def __init__(
        self, path: Path, connection: sqlite3.Connection, *, writer: bool = False
    ) -> None:
        self.path = path
        self._db = connection
        #: Opened by :meth:`open`: checkpoints, and clears ``writer`` on close.
        self._writer = writer
        #: A -wal file was beside the file when it opened (see close).
        self._wal_at_open = wal_beside(path)
        self._checkpointed = time.monotonic()

    # -- opening ----------------------------------------------------------

    @classmethod
    def open(
        cls, path: Path, config: TournamentConfig, *, fresh: bool = False
    ) -> Store:
        """Open (or create) the database of ``config``'s tournament.

        :param fresh: delete an existing database first and start afresh.
        :raises ConfigError: the database holds another config's results.
        """
        if fresh and path.exists():
            problem = not_a_troef_database(path)
            if problem is not None:
                raise TroefError(
                    f"--fresh: refusing to delete {path}: {problem}; "
                    "remove it yourself if it is yours, or set another 'database' path"
                )
            remove_database(path)
        if path.exists():
            problem = not_a_troef_database(path)
            if problem is not None:
                raise TroefError(
                    f"{path}: {problem}; troef will not start over on it: set "
                    "another 'database' path, or use --fresh on a troef database"
                )
            _warn_unmerged(path, "a run plays the matches it lacks again")
        else:
            # Results may be private: readable by the owner only.
            private_folders(path.parent)
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        store = cls(path, _connect(path), writer=True)
        store._db.executescript(SCHEMA)
        stored = store.meta("config")
        snapshot = config.snapshot_json()
        if stored is None:
            with store._db:
                store._db.execute(
                    "INSERT INTO meta VALUES ('config', ?), ('name', ?), ('source', ?)",
                    (snapshot, config.name, str(config.path)),
                )
        elif stored != snapshot and store._adopt_old_default_seed(stored, config):
            pass
        elif stored != snapshot:
            store.close()
            changes = describe_changes(json.loads(stored), config.snapshot())
            raise ConfigError(
                f"{config.path}: the database {path} holds results of a different "
                f"config ({changes}); run with --fresh to start afresh, or set "
                "another 'database' path"
            )
        with store._db:
            store._db.execute(
                "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                (WRITER_KEY, f"pid {os.getpid()}"),
            )
        store.checkpoint()  # the file alone holds the tables and the config now
        return store

    def _adopt_old_default_seed(self, stored: str, config: TournamentConfig) -> bool:
        """A database made before a config without ``seed`` drew a random one
        (the default was 1) resumes with its own seed: True when ``stored``
        differs from ``config`` by that alone (the seed is then kept here)."""
        old = json.loads(stored)
        if config.seed_given or not isinstance(old.get("seed"), int):
            return False
        if {**old, "seed": None} != config.snapshot():
            return False
        with self._db:
            self._db.execute(
                "UPDATE meta SET value = ? WHERE key = 'config'",
                (config.snapshot_json(),),
            )
            self._db.execute(
                "INSERT OR REPLACE INTO meta VALUES ('master_seed', ?)",
                (str(old["seed"]),),
            )
        return True

    def resolve(
        self, config: TournamentConfig, taken: TakenSecret | None = None
    ) -> TournamentConfig:
        """``config`` with its master seed: the config's, else the one kept here.

        A config without ``seed`` gets a random 63-bit master seed, drawn once
        and kept in the meta table, so that a resume plays the same plan;
        ``taken`` (``--secret-from``) gives it the earlier database's instead.
        """
        if config.seed_given:
            return config
        stored = self.meta("master_seed")
        given = None if taken is None else taken.master_seed
        if taken is not None and given is not None:
            self._check_taken("master seed", stored, str(given), taken)
        if stored is None:
            from harness.contracts.seeding import new_master_seed

            stored = str(new_master_seed() if given is None else given)
            with self._db:
                self._db.execute(
                    "INSERT INTO meta VALUES ('master_seed', ?)", (stored,)
                )
        return dataclasses.replace(config, seed=int(stored))

    def bot_secret(self, *, create: bool, taken: TakenSecret | None = None) -> bytes:
        """The tournament's secret that bot seeds are keyed with.

        Never sent to a bot: a bot seed then says nothing about the deals.
        Drawn once (when ``create``: the tournament has untrusted entrants)
        and kept in the meta table; b"" for a tournament of trusted bots only,
        whose bot seeds follow the public recipe (reproducible from the seed).
        ``taken`` (``--secret-from``) gives it an earlier database's instead.
        """
        stored = self.meta("bot_secret")
        if taken is not None:
            self._check_taken("bot-seed secret", stored, taken.secret.hex(), taken)
        if stored is None and create:
            from harness.contracts.seeding import new_secret

            stored = new_secret().hex() if taken is None else taken.secret.hex()
            with self._db:
                self._db.execute("INSERT INTO meta VALUES ('bot_secret', ?)", (stored,))
        return b"" if stored is None else bytes.fromhex(stored)

    def _check_taken(
        self, what: str, stored: str | None, given: str, taken: TakenSecret
    ) -> None:
        """Refuse to mix two tournaments' seeds in one database."""
        if stored is not None and stored != given:
            raise TroefError(
                f"--secret-from {taken.path}: {self.path} has a {what} of its "
                f"own already, not the one of {taken.path}; its matches were "
                "played with it: use --fresh to start this database afresh"
            )

    @classmethod
    def existing(cls, path: str | Path) -> Store:
        """Open a database that must exist already (status, replay, reports)."""
        path = Path(path)
        if path.suffix == ".toml" and path.is_file():
            raise TroefError(
                f"{path} is a tournament config, not a database; {_database_of(path)}"
            )
        if not path.is_file():
            raise TroefError(f"no database at {path}")
        problem = not_a_troef_database(path)
        if problem is not None:
            raise TroefError(f"{path}: {problem}")
        _warn_unmerged(path, "what follows shows only what this file holds")
        return cls(path, _connect(path))

    @classmethod
    @contextlib.contextmanager
    def read_snapshot(cls, path: Path) -> Iterator[Store]:
        """A Store of ``path`` opened read-only (``mode=ro``) in one read
        transaction: every read sees one moment of the file while a run writes
        it, nothing is written beside it, and nothing is held once closed.

        :raises sqlite3.Error: the file cannot be opened.
        """
        connection = read_only_connection(path)
        try:
            connection.execute("BEGIN")
            yield cls(path, connection)
        finally:
            connection.close()  # ends the read transaction

    @property
    def db(self) -> sqlite3.Connection:
        """The connection, for a format that keeps tables of its own (the ladder)."""
        return self._db

    def close(self) -> None:
        """Close the connection; a writer first says it is done and checkpoints."""
        if self._writer:
            try:
                with self._db:
                    self._db.execute("DELETE FROM meta WHERE key = ?", (WRITER_KEY,))
                self.checkpoint()
            except sqlite3.Error:
                pass  # closing a damaged or locked file: SQLite's own close merges
        else:
            self._settle_killed_writer()
        self._db.close()

    def _settle_killed_writer(self) -> None:
        """Clear the ``writer`` key of a killed run once its -wal file is merged.

        SQLite merges a -wal file and deletes it when the last connection
        closes, which may be this reader's: the key would then say a -wal
        file is missing that held nothing more. Only when the writer is gone:
        no run holds the run lock and its process (the key names it) is not
        alive.
        """
        if not self._wal_at_open:
            return  # a copy of the file alone keeps its key: it still lacks them
        try:
            writer = self.meta(WRITER_KEY)
            if writer is None or run_lock_held(self.path) or writer_alive(writer):
                return
            busy, frames, merged = self._db.execute(
                "PRAGMA wal_checkpoint(PASSIVE)"
            ).fetchone()
            if busy == 0 and frames == merged:  # the file holds every result
                with self._db:
                    self._db.execute("DELETE FROM meta WHERE key = ?", (WRITER_KEY,))
        except sqlite3.Error:
            pass  # a read-only or busy file: the key stays, and says "may"

    def checkpoint(self) -> None:
        """Merge the ``-wal`` file into the database file, as far as readers allow.

        PASSIVE: it never waits for a reader (``troef status`` in another
        process); what a reader holds is merged by a later checkpoint, or by
        SQLite when the last connection closes.
        """
        self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        self._checkpointed = time.monotonic()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ----------------------------------------------------------

    def add_jobs(self, jobs: Iterable[Job]) -> None:
        """Record the plan (jobs already present are left as they are).

        Only the jobs the store lacks are encoded: a resumed run of a large
        plan has them all already (encoding 200,000 again took over a second).
        """
        jobs = list(jobs)
        known = self._known((j.id for j in jobs), "jobs", "id")
        fresh = [j for j in jobs if j.id not in known]
        if not fresh:
            return
        with self._db:
            self._db.executemany(
                "INSERT OR IGNORE INTO jobs VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        j.id,
                        j.index,
                        j.seed,
                        j.group,
                        j.rotation,
                        json.dumps(j.to_dict()),
                    )
                    for j in fresh
                ],
            )

    def record(self, job: Job, result: Result) -> bool:
        """Write one match's result in one transaction.

        :returns: False when the job had a result already (nothing written).
        """
        return bool(self.record_many([(job, result)]))

    def record_many(
        self,
        results: Sequence[tuple[Job, Result]],
        encoded: Mapping[str, Encoded] | None = None,
    ) -> list[Job]:
        """Write several matches in one transaction (one commit, not one per match).

        A transaction holds whole matches only, so a kill loses whole matches
        or none; a job that already has a result is skipped.

        :param encoded: per job id, its result already encoded (:func:`encode`,
            by the worker that played it); the others are encoded here. A
            result given with its encoding may then lack its log.
        :returns: the jobs that were written.
        """
        done = self._known(job.id for job, _ in results)
        written = [(job, result) for job, result in results if job.id not in done]
        rows: list[tuple[Any, ...]] = []
        seats: list[tuple[Any, ...]] = []
        logs: list[tuple[str, str]] = []
        thinking: list[tuple[Any, ...]] = []
        encoded = encoded or {}
        for job, result in written:
            forfeit = result.forfeit
            stored = encoded.get(job.id) or encode(result)
            rows.append(
                (
                    job.id,
                    None if forfeit is None else forfeit.seat,
                    None if forfeit is None else forfeit.reason.value,
                    None if forfeit is None else forfeit.detail,
                    len(result.deal_points),
                    stored.json,
                )
            )
            seats.extend(
                (
                    job.id,
                    seat,
                    job.seating[seat],
                    result.scores[seat],
                    result.ranks[seat],
                    result.teams[seat],
                )
                for seat in range(len(job.seating))
            )
            if stored.log is not None:
                logs.append((job.id, stored.log))
            if result.thinking is not None:
                thinking.extend(
                    (job.id, seat, *spent) for seat, spent in enumerate(result.thinking)
                )
        with self._db:
            self._db.executemany(
                "INSERT INTO results (job_id, forfeit_seat, forfeit_reason, "
                "forfeit_detail, deals, result) VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
            self._db.executemany(
                "INSERT INTO seat_results VALUES (?, ?, ?, ?, ?, ?)", seats
            )
            self._db.executemany("INSERT INTO logs VALUES (?, ?)", logs)
            self._db.executemany(
                "INSERT INTO thinking VALUES (?, ?, ?, ?, ?)", thinking
            )
        if self._writer and time.monotonic() - self._checkpointed >= CHECKPOINT_SECONDS:
            self.checkpoint()
        return [job for job, _ in written]

    def _known(
        self, ids: Iterable[str], table: str = "results", column: str = "job_id"
    ) -> set[str]:
        """Which of ``ids`` the ``column`` of ``table`` holds."""
        ids = list(ids)
        known: set[str] = set()
        # In slices: an SQLite before 3.32 takes at most 999 parameters, and
        # a commit may hold a few thousand short matches.
        for start in range(0, len(ids), 900):
            part = ids[start : start + 900]
            marks = ",".join("?" * len(part))
            query = f"SELECT {column} FROM {table} WHERE {column} IN ({marks})"
            known.update(row[0] for row in self._db.execute(query, part))
        return known

    # -- reading ----------------------------------------------------------

    def meta(self, key: str) -> str | None:
        """A value of the meta table."""
        try:
            row = self._db.execute(
                "SELECT value FROM meta WHERE key = ?", (key,)
            ).fetchone()
        except sqlite3.DatabaseError:
            return None
        return None if row is None else str(row[0])

    def config_snapshot(self) -> dict[str, Any]:
        """The stored config snapshot."""
        return dict(json.loads(self.meta("config") or "{}"))

    def unfinished_jobs(self) -> list[Job]:
        """The planned jobs without a result, in plan order."""
        rows = self._db.execute(
            "SELECT spec FROM jobs WHERE id NOT IN (SELECT job_id FROM results) "
            "ORDER BY idx"
        )
        return [Job.from_dict(json.loads(spec)) for (spec,) in rows]

    def done_ids(self) -> set[str]:
        """The ids of the jobs that have a result."""
        return {row[0] for row in self._db.execute("SELECT job_id FROM results")}

    def counts(self) -> tuple[int, int]:
        """(matches recorded, matches planned)."""
        done = self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        planned = self._db.execute("SELECT COUNT(*) FROM jobs").fetchone()[0]
        return int(done), int(planned)

    def forfeit_count(self) -> int:
        """How many recorded matches ended in a forfeit."""
        return int(
            self._db.execute(
                "SELECT COUNT(*) FROM results WHERE forfeit_seat IS NOT NULL"
            ).fetchone()[0]
        )

    def forfeits(self) -> list[tuple[str, str, int]]:
        """(entrant, reason, matches) of every forfeit, most frequent first."""
        rows = self._db.execute(
            "SELECT s.entrant, r.forfeit_reason, COUNT(*) FROM results r "
            "JOIN seat_results s ON s.job_id = r.job_id AND s.seat = r.forfeit_seat "
            "GROUP BY s.entrant, r.forfeit_reason ORDER BY COUNT(*) DESC, s.entrant"
        )
        return [(str(e), str(reason), int(n)) for e, reason, n in rows]

    def _has_thinking(self) -> bool:
        """False for a database from before thinking times were kept."""
        return (
            self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'thinking'"
            ).fetchone()
            is not None
        )

    def thinking_by_match(self) -> dict[str, list[tuple[int, float, float]]]:
        """Per job id, per seat in seat order: (decisions, total seconds,
        longest decision), as ``Result.thinking`` recorded them."""
        out: dict[str, list[tuple[int, float, float]]] = {}
        if not self._has_thinking():
            return out
        rows = self._db.execute(
            "SELECT job_id, decisions, total, longest FROM thinking "
            "ORDER BY job_id, seat"
        )
        for job_id, decisions, total, longest in rows:
            out.setdefault(str(job_id), []).append(
                (int(decisions), float(total), float(longest))
            )
        return out

    def thinking(self) -> list[tuple[str, int, float, float]]:
        """(entrant, decisions, total seconds, longest decision) over all matches."""
        if not self._has_thinking():
            return []
        rows = self._db.execute(
            "SELECT s.entrant, SUM(t.decisions), SUM(t.total), MAX(t.longest) "
            "FROM thinking t JOIN seat_results s "
            "ON s.job_id = t.job_id AND s.seat = t.seat "
            "GROUP BY s.entrant ORDER BY s.entrant"
        )
        return [
            (str(e), int(n), float(total), float(most)) for e, n, total, most in rows
        ]

    def void_count(self) -> int:
        """Recorded matches that are void (the game plugin raised)."""
        (n,) = self._db.execute(
            "SELECT COUNT(*) FROM results WHERE json_extract(result, '$.void') "
            "IS NOT NULL"
        ).fetchone()
        return int(n)

    def matches(self, *, void: bool = False) -> Iterator[StoredMatch]:
        """Every recorded match in plan order, with its log if kept.

        A void match (``Result.void``: the game plugin raised) counts for
        nobody, so standings, ratings and tests never see it: it comes only
        with ``void=True`` (``troef matches``, ``troef status``).
        """
        query = f"{_MATCHES} ORDER BY jobs.idx"
        for spec, result, log, _ in self._db.execute(query):
            data = json.loads(result)
            if "void" in data and not void:
                continue
            yield _stored(spec, data, log)

    def recording_times(self, window: float) -> list[str]:
        """When each result of the last ``window`` seconds of recording (up to
        the latest result) was recorded, oldest first (ISO 8601, UTC)."""
        rows = self._db.execute(
            "SELECT recorded_at FROM results WHERE recorded_at >= strftime("
            "'%Y-%m-%dT%H:%M:%fZ', (SELECT MAX(recorded_at) FROM results), ?) "
            "ORDER BY recorded_at",
            (f"-{window} seconds",),
        )
        return [str(at) for (at,) in rows]

    def latest(self, n: int) -> list[tuple[StoredMatch, str]]:
        """The ``n`` matches recorded last, newest first, void ones too, each
        with the time it was recorded (ISO 8601, UTC: ``recorded_at``)."""
        query = f"{_MATCHES} ORDER BY results.recorded_at DESC, results.rowid DESC"
        rows = self._db.execute(f"{query} LIMIT ?", (n,))
        return [(_stored(spec, json.loads(r), log), at) for spec, r, log, at in rows]

    def match(self, key: str) -> StoredMatch:
        """One recorded match, by job id (or a unique prefix) or plan index."""
        if key.isdigit() and len(key) < 16:  # ids are 16 hex digits; indexes are short
            rows = self._db.execute(
                "SELECT id FROM jobs WHERE idx = ?", (int(key),)
            ).fetchall()
        else:
            rows = self._db.execute(
                "SELECT id FROM jobs WHERE id LIKE ?", (key.lower() + "%",)
            ).fetchall()
        if len(rows) != 1:
            what = "no match" if not rows else f"{len(rows)} matches"
            done, planned = self.counts()
            raise TroefError(
                f"{what} in {self.path} for {key!r}; give a job id (or a unique "
                f"prefix) or a plan index from 0 to {planned - 1} ({done} of "
                f"{planned} recorded); 'troef matches {self.path}' lists them"
            )
        job_id = rows[0][0]
        for match in self.matches(void=True):
            if match.job["id"] == job_id:
                return match
        raise TroefError(f"match {job_id} of {self.path} has no result yet")


#: A recorded match's job, result, log and time, for :meth:`Store.matches`
#: and :meth:`Store.latest`.
_MATCHES = (
    "SELECT jobs.spec, results.result, logs.log, results.recorded_at FROM results "
    "JOIN jobs ON jobs.id = results.job_id "
    "LEFT JOIN logs ON logs.job_id = results.job_id"
)


def _stored(spec: str, data: dict[str, Any], log: str | None) -> StoredMatch:
    data["log"] = None if log is None else decode_log(log)
    return StoredMatch(json.loads(spec), Result.from_dict(data))


class TakenSecret(NamedTuple):
    """What ``troef run --secret-from OLD`` takes from an earlier database."""

    #: The database it was taken from.
    path: Path
    #: Its bot-seed secret (see :meth:`Store.bot_secret`).
    secret: bytes
    #: Its master seed, for a config without ``seed``; None when it gives one.
    master_seed: int | None


def take_secret(config: TournamentConfig, old: Path) -> TakenSecret:
    """The bot-seed secret (and drawn master seed) of ``old``, to play
    ``config`` again exactly as there.

    :raises TroefError: ``config`` uses no secret (no process-isolated
        entrant); ``old`` holds none; or a process-isolated entrant's bot
        could read ``old``, and with its secret compute every deal.
    """
    # Why the secret exists (Store.bot_secret): an untrusted entrant must
    # not learn the match seed from its bot seed. So no such entrant may be
    # able to read the file that holds the secret.
    if not config.untrusted:
        raise TroefError(
            f"--secret-from {old}: {config.path} has no process-isolated "
            "entrant, so its bot seeds use no secret and the whole tournament "
            "follows from its seed alone; run it without --secret-from"
        )
    from harness.tournament.botuser import reads_file

    for entrant in config.entrants:
        if entrant.process is None:
            continue
        how = reads_file(entrant, old, config.plugin_source)
        if how is not None:
            raise TroefError(
                f"--secret-from {old}: entrant {entrant.label!r} could read that "
                f"file ({how}), and with its secret compute every deal; the "
                "secret may be reused only with entrants that cannot read it: "
                'run them as another user (user = "nobody" under a root '
                f"harness) and keep {old} owner-only (chmod 600)"
            )
    with Store.existing(old) as store:
        secret = store.meta("bot_secret")
        seed = store.meta("master_seed")
    if secret is None:
        raise TroefError(
            f"--secret-from {old}: it holds no bot-seed secret (its tournament "
            "had no process-isolated entrant); expected a database of a run with one"
        )
    if not config.seed_given and seed is None:
        raise TroefError(
            f"--secret-from {old}: {config.path} gives no 'seed' and {old} kept "
            "no master seed (its config gave one): give that seed in the config"
        )
    return TakenSecret(
        old, bytes.fromhex(secret), None if config.seed_given else int(seed or 0)
    )


def writer_alive(writer: str) -> bool:
    """Whether the process a ``writer`` key names (``pid N``) still runs."""
    try:
        pid = int(writer.removeprefix("pid "))
    except ValueError:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: it exists
    return True


def _warn_unmerged(path: Path, consequence: str) -> None:
    # Ruling: a warning, not a refusal: the file may lack nothing (see
    # unmerged_wal), and a run on it plays the missing matches again (the
    # same matches: the plan and its seeds are in the file).
    lost = unmerged_wal(path)
    if lost is not None:
        log.warning("troef: warning: %s: %s; %s", path, lost, consequence)


def _database_of(config: Path) -> str:
    """Where the tournament config at ``config`` keeps its results, if it says."""
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        data = {}
    # The default is the one harness.tournament.config gives: the config's name,
    # .sqlite.
    database = data.get("database", f"{config.stem}.sqlite")
    if not isinstance(database, str):
        return "give the database file that its 'database' key names"
    return f"its database is {config.parent / database}"


def _connect(path: Path) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(path, isolation_level="DEFERRED")
        db.execute("PRAGMA journal_mode=WAL")
        # NORMAL is durable against a killed process in WAL mode (not against
        # power loss), and much faster than FULL.
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
    except sqlite3.DatabaseError as exc:
        raise TroefError(f"{path}: cannot open as an SQLite database: {exc}") from None
    return db


def describe_changes(old: dict[str, Any], new: dict[str, Any], prefix: str = "") -> str:
    """A short list of what differs between two config snapshots."""
    changes = []
    for key in sorted(set(old) | set(new)):
        name = f"{prefix}{key}"
        a, b = old.get(key, "<absent>"), new.get(key, "<absent>")
        if isinstance(a, dict) and isinstance(b, dict):
            inner = describe_changes(a, b, name + ".")
            if inner:
                changes.append(inner)
        elif a != b:
            changes.append(f"{name}: {a!r} -> {b!r}")
    return "; ".join(changes)
