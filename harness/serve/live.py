"""A tournament followed live: ``troef serve DB``'s page and its data.

``GET /live`` is the page (``static/live.html``, its script and style from
``/static``); ``GET /api/live`` the data it polls: the progress (recorded of
planned, the rate, whether a run is writing), the standings with their
intervals, the pairwise results, the SPRT's verdict and LLR against its bounds
(an SPRT only) and the latest matches. Every figure comes from the code that
``troef status`` and ``troef report`` print from: the counts of
:func:`~harness.tournament.sprt.recorded_of_planned`, the report model of
:func:`~harness.report.model.stored_report` and
:func:`~harness.report.model.report_model`, the match records of
:func:`~harness.report.tables.match_record`; nothing is counted a second way.

Rulings (the issue left them open):

1. Read-only, and safe beside a running ``troef run``: each poll opens the
   file read-only (``mode=ro``, :meth:`~harness.tournament.store.Store.
   read_snapshot`; SQLite is told the file is immutable when no -wal
   file is beside it, so no -wal or -shm is made beside a finished
   database), reads everything in one short read transaction (one snapshot:
   the counts and the standings agree) and closes the connection before it
   answers. Nothing is held between polls, so the run's checkpoints are never
   kept waiting, and the Store is never closed as a Store (its reader's close
   may tidy a killed writer's key, a write).
2. A file that does not exist yet, that is not yet (or not) a troef
   database, or that has no results yet is a state of the page, said in
   words naming the file, never an error status: the page keeps polling
   and shows the tournament as soon as there is one.
3. The rate is matches per minute over the results recorded in the
   :data:`RATE_SECONDS` before the latest one (the store's ``recorded_at``),
   so a resumed run is timed by its own results, not by the gap before it,
   and a stopped one keeps its last rate; the time left is
   the planned matches not yet recorded at that rate, said only while a run
   is writing (the database's ``writer`` key names a live process).
4. The counts, the SPRT's verdict, the report model and the latest matches
   are read again only when the database changed (its file, its recorded or
   planned matches), and no more often than keeps that reading to a quarter
   of the time (:data:`SHARE`): a report of 6,000 matches takes a second or
   two to read and fit, and the page must not take a core from the run it
   watches. Until then a poll gives the last tables, whose counts agree with
   them; it costs two counts and the writer's key.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sqlite3
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import BaseRoute, Route

from harness.contracts.errors import TroefError
from harness.report.model import json_safe, report_model, stored_report
from harness.report.tables import match_record
from harness.tournament.database_file import (
    WRITER_KEY,
    not_a_troef_database,
)
from harness.tournament.sprt import recorded_of_planned
from harness.tournament.store import Store, writer_alive

__all__ = [
    "LIVE_PAGE",
    "POLL_SECONDS",
    "RATE_SECONDS",
    "RECENT",
    "SHARE",
    "Watch",
    "live_routes",
]

#: The live page; its script and style are ``static/live.js`` and ``live.css``.
LIVE_PAGE = Path(__file__).parent / "static" / "live.html"
#: How many of the latest matches the page lists.
RECENT = 10
#: The rate is measured over the results of this many seconds before the latest.
RATE_SECONDS = 60.0
#: Seconds between the page's polls.
POLL_SECONDS = 1.0
#: The share of its time the page's reader spends on the tables at most: a
#: database whose tables take t seconds to read is read again t / SHARE
#: seconds later at the earliest, however fast its results land.
SHARE = 0.25
#: What the page shows of the report model (``troef report --format json``).
_REPORT_KEYS = ("matches", "model", "confidence", "notes", "standings", "pairs")


class Watch:
    """One database followed by the live page; :meth:`data` is one poll."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        #: The last tables' key (the file, the recorded and planned counts)
        #: and the tables.
        self._cached: tuple[tuple[int, ...], dict[str, Any]] | None = None
        #: When the tables were last read (time.monotonic) and in how long.
        self._read_at = 0.0
        self._cost = 0.0
        #: The file (device, inode) last found a sound troef database.
        self._sound: tuple[int, int] | None = None

    def data(self) -> dict[str, Any]:
        """The page's data now (JSON-safe: no NaN); ``state`` says which:
        ``missing``, ``unreadable`` (not a troef database, or not yet),
        ``empty`` (no results yet) or ``results``."""
        with self._lock:  # polls of two browsers: one reading at a time
            return {
                "database": str(self.path),
                "poll_seconds": POLL_SECONDS,
                **self._read(),
            }

    def _read(self) -> dict[str, Any]:
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            return _waiting(
                "missing",
                f"no database at {self.path} yet: this page shows the tournament "
                "as soon as 'troef run' creates it",
            )
        except OSError as exc:
            return _waiting(
                "unreadable", f"{self.path}: cannot read it ({exc.strerror})"
            )
        identity = (stat.st_dev, stat.st_ino)
        if self._sound != identity:
            problem = not_a_troef_database(self.path)
            if problem is not None:
                # Also a database 'troef run' is creating this moment: polled again.
                return _waiting("unreadable", f"{self.path}: {problem}")
            self._sound = identity
        try:
            with Store.read_snapshot(self.path) as store:
                return self._figures(store, identity)  # one moment of the file
        except (sqlite3.Error, TroefError) as exc:
            # A file replaced or checkpointed under a reader: the next poll
            # reads it afresh.
            self._sound = None
            return _waiting("unreadable", f"{self.path}: cannot read it ({exc})")

    def _figures(self, store: Store, identity: tuple[int, int]) -> dict[str, Any]:
        key = (*identity, *store.counts())
        began = time.monotonic()
        if (
            self._cached is None
            or self._cached[0][:2] != identity  # another file: nothing holds
            or (self._cached[0] != key and began - self._read_at >= self._cost / SHARE)
        ):
            self._cached = (key, self._report(store))
            self._read_at = time.monotonic()
            self._cost = self._read_at - began
        tables = self._cached[1]
        writer = store.meta(WRITER_KEY)
        running = writer is not None and writer_alive(writer)
        rate = tables["rate_per_minute"]
        left = tables["planned"] - tables["recorded"]
        return {
            **tables,
            "running": running,
            "seconds_left": None if rate is None or not running else 60 * left / rate,
        }

    def _report(self, store: Store) -> dict[str, Any]:
        """What changes only with a result: the counts, the SPRT's verdict,
        the report model's tables and the latest matches."""
        done, planned, monitor = recorded_of_planned(store)
        facts: dict[str, Any] = {
            "name": store.meta("name") or self.path.name,
            "recorded": done,
            "planned": planned,
            "sprt": None
            if monitor is None
            else json_safe(dataclasses.asdict(monitor.verdict())),
        }
        recent = [
            {**match_record(m.job, m.result), "recorded_at": at}
            for m, at in store.latest(RECENT)
        ]
        times = [_moment(at) for at in store.recording_times(RATE_SECONDS)]
        # Results land in batches, each at one time: those after the first
        # batch, over the time since it.
        after_first = sum(t > times[0] for t in times)
        facts["rate_per_minute"] = (
            60 * after_first / (times[-1] - times[0]) if after_first else None
        )
        if done == store.void_count():
            return {
                **facts,
                "state": "empty",
                "message": f"{self.path} holds no results yet",
                "recent": recent,
            }
        model = report_model(stored_report(store)).as_json()
        return {
            **facts,
            "state": "results",
            "message": None,
            "recent": recent,
            "report": {key: model[key] for key in _REPORT_KEYS},
        }


def _waiting(state: str, message: str) -> dict[str, Any]:
    return {"state": state, "message": message}


def _moment(text: str) -> float:
    """Seconds since the epoch of a store's ``recorded_at`` (ISO 8601, UTC)."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def live_routes(database: Path) -> list[BaseRoute]:
    """``/live`` and ``/api/live`` following ``database``."""
    watch = Watch(database)

    async def page(_: Request) -> FileResponse:
        return FileResponse(LIVE_PAGE)

    async def data(_: Request) -> JSONResponse:
        # In a thread: a report fit must not stall the tables' sockets.
        return JSONResponse(await asyncio.to_thread(watch.data))

    return [Route("/live", page), Route("/api/live", data)]
