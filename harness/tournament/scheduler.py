"""The scheduler: sends a plan's unfinished jobs to an executor, records results.

It knows no game logic. Jobs go out in chunks (to amortise the cost of crossing
a process boundary), large first and smaller as the plan runs out, a bounded
number in flight; finished matches are streamed back while a chunk plays and
each batch that arrives is written to the store in one transaction of whole
matches. The runner shares the machine's cores with the workers, so it does
little per match: workers send results encoded for the store, once. A worker
that dies takes its chunk with it: the pool is rebuilt and the jobs without a
result run again. Ctrl-C stops cleanly: what finished is kept.

Here: the run (its lock, store and summary) and the plan → chunks → executor
loop. Its parts: the progress line (:mod:`~harness.tournament.progress`), the
recording of results (:mod:`~harness.tournament.tracker`), the chunks in flight
and an interruption's wind-down (:mod:`~harness.tournament.flight`), a broken
pool's blame and requeue (:mod:`~harness.tournament.pool_faults`), the start-up
probe of the bots (:mod:`~harness.tournament.probe`).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import gc
import logging
import multiprocessing
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from harness.contracts.errors import TroefError
from harness.contracts.result import Result
from harness.plugins import PluginSource
from harness.tournament.config import TournamentConfig
from harness.tournament.database_file import remove_database, run_lock
from harness.tournament.executor_config import MAX_WORKERS, check_executor
from harness.tournament.executor_plugins import executor_plugin
from harness.tournament.executors import Channel, local_executor, run_jobs
from harness.tournament.flight import _POLL, _Flight, _sigterm_as_interrupt
from harness.tournament.plan import Job, plan
from harness.tournament.pool_faults import _abandon, _blame, _requeue
from harness.tournament.probe import probe_entrants, probe_forfeits, refusal
from harness.tournament.progress import Progress
from harness.tournament.store import Store, TakenSecret, take_secret
from harness.tournament.tracker import Monitor, RunSummary, _Tracker

__all__ = ["Interrupted", "execute", "run_tournament"]

log = logging.getLogger("troef.scheduler")


class Interrupted(TroefError):
    """The run was stopped by Ctrl-C; everything recorded so far is kept."""


def run_tournament(
    config: TournamentConfig,
    *,
    workers: int | None = None,
    fresh: bool = False,
    progress: Progress | None = None,
    on_result: Callable[[Job, Result], None] | None = None,
    monitor: Monitor | None = None,
    secret_from: Path | None = None,
) -> RunSummary:
    """Play every planned match of ``config`` that the database lacks.

    :param workers: overrides the config's ``workers`` (None: config, then cores).
    :param fresh: delete the database first.
    :param secret_from: an earlier database of ``config``, whose bot-seed
        secret (and drawn master seed) this run takes, to play its matches
        again exactly (:func:`~harness.tournament.store.take_secret`).
    :param monitor: sees every result and may stop the run early; an SPRT
        config gets its own by default.
    :raises Interrupted: on Ctrl-C, after keeping what finished.
    """
    if config.ladder is not None:
        raise TroefError(f"{config.path} is a ladder; play it with 'troef ladder run'")
    check_executor(config)  # before any file is made
    taken = None if secret_from is None else take_secret(config, secret_from)
    # Ruling: a run that fails before its first match leaves no database and
    # no lock file, if it made them; a database that was there (even empty)
    # is kept, and one that holds a match is never deleted.
    # A refused file (not a troef database, another config's) gets no lock
    # beside it either: one made here goes with the refusal.
    made = fresh or not config.database.exists()
    lock_was_there = Path(f"{config.database}.lock").exists()
    with run_lock(config.database) as lock, _sigterm_as_interrupt():
        try:
            store = Store.open(config.database, config, fresh=fresh)
        except BaseException:
            if not lock_was_there or (made and not config.database.exists()):
                lock.unlink(missing_ok=True)
            raise
        empty = False
        try:
            return _run_in(store, config, workers, progress, on_result, monitor, taken)
        except BaseException:
            empty = made and _holds_no_match(store)
            raise
        finally:
            store.close()
            if empty:
                remove_database(config.database)
                lock.unlink(missing_ok=True)


def _holds_no_match(store: Store) -> bool:
    """True when ``store`` records no match (False if it cannot be read)."""
    try:
        return store.counts()[0] == 0
    except sqlite3.Error:
        return False


def _run_in(
    store: Store,
    config: TournamentConfig,
    workers: int | None,
    progress: Progress | None,
    on_result: Callable[[Job, Result], None] | None,
    monitor: Monitor | None,
    taken: TakenSecret | None = None,
) -> RunSummary:
    """The body of :func:`run_tournament`, on its open store, under its lock."""
    # The master seed may be the store's (drawn once); bot seeds are keyed
    # with the store's secret when any entrant is untrusted.
    config = store.resolve(config, taken)
    secret = store.bot_secret(create=config.untrusted, taken=taken)
    jobs = plan(config)
    if monitor is None and config.sprt is not None:
        from harness.tournament.sprt import SprtMonitor

        monitor = SprtMonitor(config, jobs)
    store.add_jobs(jobs)
    tracker = _Tracker(
        [e.label for e in config.entrants],
        store,
        progress,
        len(jobs),
        on_result,
        monitor,
    )
    done = store.done_ids()
    pending = [job for job in jobs if job.id not in done]
    summary = tracker.summary
    summary.monitor = monitor
    if not pending or tracker.stopped():
        return summary
    failures = probe_entrants(config)
    if failures:
        if config.probe == "refuse":
            raise refusal(config, failures)
        # Ruling in harness.tournament.probe: their matches are forfeits, at once.
        forfeits = probe_forfeits(config, pending, failures)
        tracker.record(forfeits)
        for failure in failures:
            mine = sum(
                job.seating[result.forfeit.seat] == failure.entrant
                for job, result in forfeits
                if result.forfeit is not None
            )
            first = (failure.detail.splitlines() or [""])[0]
            tracker.note(
                f"entrant {failure.entrant!r} failed the start-up probe "
                f"({failure.reason.value}: {first[:160]}): its {mine} matches left "
                'are recorded as its forfeits; the others play (probe = "refuse" '
                "refuses the run instead)"
            )
        recorded = {job.id for job, _ in forfeits}
        pending = [job for job in pending if job.id not in recorded]
        if not pending or tracker.stopped():
            return summary
    started = time.perf_counter()
    cpu = os.times()
    try:
        execute(
            pending,
            tracker,
            source=config.plugin_source,
            executor=config.executor,
            executor_settings=config.executor_settings,
            workers=_workers(workers or config.workers, len(pending)),
            chunk=config.chunk,
            sprt=config.sprt is not None,
            keep_logs=config.keep_logs,
            matches_in_flight=config.in_flight,
            secret=secret,
        )
    except KeyboardInterrupt:
        raise Interrupted(
            f"interrupted: {tracker.done} of {len(jobs)} matches are recorded in "
            f"{config.database}; run 'troef run {config.path}' again to resume"
        ) from None
    finally:
        summary.seconds = time.perf_counter() - started
        now = os.times()
        summary.runner_cpu = now.user + now.system - cpu.user - cpu.system
        summary.children_cpu = (
            now.children_user
            + now.children_system
            - cpu.children_user
            - cpu.children_system
        )
        if progress is not None:
            progress.update(tracker.done, len(jobs), tracker.leader, final=True)
    return summary


def _workers(asked: int | None, jobs: int) -> int:
    """Worker processes for ``jobs`` jobs: as asked (else one per core), never
    more than the jobs nor :data:`~harness.tournament.config.MAX_WORKERS`."""
    if asked is not None and asked < 1:
        raise TroefError(f"workers is {asked}; it takes an integer >= 1")
    return max(1, min(asked or os.cpu_count() or 1, jobs, MAX_WORKERS))


def make_executor(
    kind: str,
    workers: int,
    source: PluginSource,
    *,
    tmpdir: str | None = None,
    settings: Sequence[tuple[str, Any]] = (),
) -> tuple[concurrent.futures.Executor, Channel]:
    """An executor of ``kind`` (a registered executor plugin: ``process``,
    ``inline``, ``dask`` or a plugin's) and the channel its workers stream to."""
    if kind in ("inline", "process") and not settings:
        # What their plugins' start() returns, without loading the plugins again
        # each time a broken pool is rebuilt.
        return local_executor(kind, workers, source, tmpdir=tmpdir)
    return executor_plugin(kind, source).start(
        dict(settings), workers, source, tmpdir=tmpdir
    )


def _chunks(jobs: Sequence[Job], size: int) -> list[list[Job]]:
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


def _guided_chunks(jobs: Sequence[Job], workers: int, largest: int) -> list[list[Job]]:
    """Chunks that shrink as the plan runs out: each a quarter of a worker's
    share of the jobs left (at most ``largest``, the executor's
    ``max_chunk``), never below a floor of at most 32.

    Large chunks early cost the runner little per match (a chunk is a
    submission, a wake-up and a return); small ones late keep every worker
    busy to the end. Which chunk a job is in changes no result.
    """
    floor = max(1, min(32, largest, len(jobs) // (workers * 8)))
    chunks, start = [], 0
    while start < len(jobs):
        left = len(jobs) - start
        size = max(floor, min(largest, left // (4 * workers)))
        chunks.append(list(jobs[start : start + size]))
        start += size
    return chunks


def execute(
    pending: Sequence[Job],
    tracker: _Tracker,
    *,
    source: PluginSource,
    executor: str,
    workers: int,
    chunk: int | None,
    keep_logs: bool,
    matches_in_flight: int = 4,
    secret: bytes = b"",
    executor_settings: Sequence[tuple[str, Any]] = (),
    sprt: bool = False,
) -> None:
    """Play ``pending`` on an executor and hand each result to ``tracker``.

    Jobs go out in chunks; each match's result is streamed back and recorded as
    it finishes. Stops submitting as soon as the tracker's monitor is done; the
    chunks in flight then finish and are recorded. On Ctrl-C no match starts,
    those that end within :data:`~harness.tournament.flight.GRACE` seconds are
    recorded, the rest abandoned.
    """
    kind = executor_plugin(executor, source)
    if sprt and not chunk:
        # An SPRT stops early: small chunks waste few matches past the verdict.
        chunk = kind.sprt_chunk
    if chunk:
        queue = _chunks(pending, chunk)
    else:
        queue = _guided_chunks(pending, workers, kind.max_chunk)
    breaks: dict[str, int] = {}
    # The bots' working folders live in one folder of the run, removed here even
    # when a worker was killed before it could remove its own.
    tmpdir = None
    if executor == "process" and any(any(job.process) for job in pending):
        _sweep_run_folders()
        tmpdir = tempfile.mkdtemp(prefix=f"troef-run-{os.getpid()}-")
    try:
        with _worker_logs_forwarded(executor == "process"), _gc_frozen():
            _run_queue(
                queue,
                tracker,
                source,
                executor,
                workers,
                keep_logs,
                matches_in_flight,
                breaks,
                tmpdir,
                secret,
                executor_settings,
            )
    finally:
        if tmpdir is not None:
            shutil.rmtree(tmpdir, ignore_errors=True)


@contextlib.contextmanager
def _gc_frozen() -> Iterator[None]:
    """Keep the objects of the run's set-up (plugins, plan) out of the garbage
    collector's full passes while results arrive: a pass over them per few
    thousand results cost the runner more than unpickling the results."""
    if gc.get_freeze_count():  # someone froze before us: theirs to undo
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _sweep_run_folders() -> None:
    """Remove the run folders of runs that were killed (SIGKILL leaves them)."""
    for folder in Path(tempfile.gettempdir()).glob("troef-run-*-*"):
        try:
            pid = int(folder.name.split("-")[2])
            if folder.stat().st_uid != os.getuid():
                continue
            os.kill(pid, 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except (ValueError, OSError):
            continue


def _run_queue(
    queue: list[list[Job]],
    tracker: _Tracker,
    source: PluginSource,
    executor: str,
    workers: int,
    keep_logs: bool,
    matches_in_flight: int,
    breaks: dict[str, int],
    tmpdir: str | None,
    secret: bytes = b"",
    executor_settings: Sequence[tuple[str, Any]] = (),
) -> None:
    while queue and not tracker.stopped():
        pool, channel = make_executor(
            executor, workers, source, tmpdir=tmpdir, settings=executor_settings
        )
        flight = _Flight(tracker, channel)
        clean = False
        try:
            try:
                while (queue and not tracker.stopped()) or flight.chunks:
                    if flight.lost:
                        queue.insert(0, flight.lost)
                        flight.lost = []
                    while (
                        queue
                        and flight.running() < 2 * workers
                        and not tracker.stopped()
                    ):
                        # Taken off the queue only once submitted: a pool that
                        # broke meanwhile raises in submit; the chunk is kept.
                        future = pool.submit(
                            run_jobs, queue[0], keep_logs, matches_in_flight, secret
                        )
                        flight.add(future, queue.pop(0))
                    if not flight.chunks:
                        break
                    flight.collect(_POLL)
                    if tracker.stopped() and not channel.stop.is_set():
                        # A verdict: the chunks in play start no further match.
                        channel.stop.set()
                clean = True
            except KeyboardInterrupt:
                flight.wind_down()
                raise
        except BrokenProcessPool:
            tracker.summary.pool_restarts += 1
            flight.record(channel.drain(), now=True)
            suspects: set[str] = set()
            done = tracker.store.done_ids()
            blamed: list[tuple[str, Result]] = []
            if tmpdir is not None:
                blamed = _blame(
                    pool, tmpdir, flight, breaks, source, keep_logs, suspects, done
                )
                flight.record(now=True, results=blamed)
                done = tracker.store.done_ids()
            lost = [job for chunk in flight.chunks.values() for job in chunk]
            lost = [job for job in lost + flight.lost if job.id not in done]
            log.warning(
                "a worker process died; %d unfinished jobs run again", len(lost)
            )
            queue = _requeue(lost, queue, breaks, suspects, pinned=bool(blamed))
        finally:
            # Whatever ended the pool, what arrived is written before it goes.
            flight.commit(now=True)
            if clean:
                pool.shutdown(wait=True, cancel_futures=True)
            else:
                _abandon(pool)


@contextlib.contextmanager
def _worker_logs_forwarded(enabled: bool) -> Iterator[None]:
    """Route worker processes' log records to the parent's handlers for a while.

    multiprocessing-logging wraps each root handler in one that also drains a
    queue the forked workers write to; afterwards the original handlers are
    put back, so repeated runs never wrap a wrapper.
    """
    if not enabled or multiprocessing.get_start_method(allow_none=True) not in (
        None,
        "fork",
    ):
        yield
        return
    import multiprocessing_logging

    root = logging.getLogger()
    originals = list(root.handlers)
    multiprocessing_logging.install_mp_handler(root)
    try:
        yield
    finally:
        for handler in list(root.handlers):
            if isinstance(handler, multiprocessing_logging.MultiProcessingHandler):
                root.removeHandler(handler)
                handler.close()
        for handler in originals:
            if handler not in root.handlers:
                root.addHandler(handler)
