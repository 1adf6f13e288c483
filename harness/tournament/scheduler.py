"""The scheduler: sends a plan's unfinished jobs to an executor, records results.

It knows no game logic. Jobs go out in chunks (to amortise the cost of crossing
a process boundary), large first and smaller as the plan runs out, a bounded
number in flight; finished matches are streamed back while a chunk plays and
each batch that arrives is written to the store in one transaction of whole
matches. The runner shares the machine's cores with the workers, so it does
little per match: workers send results encoded for the store, once. A worker
that dies takes its chunk with it: the pool is rebuilt and the jobs without a
result run again. Ctrl-C stops cleanly: what finished is kept.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import gc
import logging
import multiprocessing
import os
import shutil
import signal
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol, TextIO

from harness.contracts.errors import BotFault, TroefError
from harness.contracts.result import Result
from harness.plugins import PluginSource
from harness.stats.standings import Standing, standings
from harness.tournament.config import TournamentConfig
from harness.tournament.database_file import run_lock
from harness.tournament.executor_config import MAX_WORKERS, check_executor
from harness.tournament.executor_plugins import executor_plugin
from harness.tournament.executors import Channel, local_executor, run_jobs
from harness.tournament.plan import Job, plan
from harness.tournament.store import Encoded, Store, decode_log

__all__ = [
    "Eta",
    "Interrupted",
    "Monitor",
    "Progress",
    "RunSummary",
    "execute",
    "probe_entrants",
    "run_tournament",
]

log = logging.getLogger("troef.scheduler")

#: How often a chunk may break the pool before its jobs are tried one by one,
#: and how often one job may before the run stops with an error naming it.
MAX_BREAKS = 3


class Interrupted(TroefError):
    """The run was stopped by Ctrl-C; everything recorded so far is kept."""


@dataclass
class RunSummary:
    """What one ``run_tournament`` call did."""

    planned: int
    already_done: int
    played: int = 0
    forfeits: int = 0
    seconds: float = 0.0
    pool_restarts: int = 0
    #: CPU seconds, while the matches were played, of the runner (this
    #: process, every thread: scheduling, receiving results, writing the
    #: store) and of the child processes that ended meanwhile (a local pool's
    #: workers and their bots): what the pool's scaling depends on.
    runner_cpu: float = 0.0
    children_cpu: float = 0.0
    #: The monitor that watched the run (an SPRT's), if any.
    monitor: Monitor | None = None


#: The progress line shows no rate and no ETA until this many results have
#: arrived after the run's first one, over at least this many seconds.
ETA_MIN_RESULTS = 8
ETA_MIN_SECONDS = 2.0


@dataclass
class Eta:
    """The pace of a run and its time left, from timestamps the caller gives.

    Ruling: the pace is measured from the arrival of this run's first result,
    not from its start. Until then the workers and their bots start up (a
    second or more) while no match is done, and a pace over that wait makes
    the first line's ETA absurd (minutes for a run of seconds). The first
    results prove only that start-up is over, so they are not counted; the
    pace is the results after them over the time since, and it is given only
    once :data:`ETA_MIN_RESULTS` of them have come in over at least
    :data:`ETA_MIN_SECONDS` (results arrive in bursts). Until then the line
    says ``?``: no estimate rather than a wrong one.
    """

    min_results: int = ETA_MIN_RESULTS
    min_seconds: float = ETA_MIN_SECONDS
    _started_at: int = 0
    _first: tuple[float, int] | None = None

    def start(self, done: int) -> None:
        """Begin a run that found ``done`` matches already recorded."""
        self._started_at = done
        self._first = None

    def observe(self, now: float, done: int) -> None:
        """Note that ``done`` matches are recorded at time ``now`` (seconds)."""
        if self._first is None and done > self._started_at:
            self._first = (now, done)

    def rate(self, now: float, done: int) -> float | None:
        """Matches per second since the first result, or None: too early to say."""
        if self._first is None:
            return None
        since, counted = now - self._first[0], done - self._first[1]
        if counted < self.min_results or since < self.min_seconds:
            return None
        return counted / since

    def left(self, now: float, done: int, total: int) -> float | None:
        """Seconds until ``total`` at the current pace, or None: too early to say."""
        if done >= total:
            return 0.0
        rate = self.rate(now, done)
        return None if rate is None else (total - done) / rate


@dataclass
class Progress:
    """Reports progress: a live line on a terminal, periodic lines elsewhere.

    The rate and ETA come from :class:`Eta` (``?`` until it can tell); the
    final line's rate is the run's average, start-up included.
    """

    stream: TextIO = field(default_factory=lambda: sys.stderr)
    interval: float = 10.0
    live: bool | None = None
    #: Seconds on a monotonic clock; a test gives its own.
    clock: Callable[[], float] = time.perf_counter
    _last: float | None = None
    _start: float = 0.0
    _started_at: int = 0
    _eta: Eta = field(default_factory=Eta)
    _notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.live is None:
            self.live = self.stream.isatty()
        self._start = self.clock()

    def start(self, done: int) -> None:
        """Note how many matches were done before this run started."""
        self._start = self.clock()
        self._started_at = done
        self._eta.start(done)

    def update(
        self, done: int, total: int, leader: Callable[[], str], *, final: bool = False
    ) -> None:
        """Report ``done`` of ``total``; ``leader()`` (the leader, or the SPRT's
        LLR and bounds) is called only when printing."""
        now = self.clock()
        self._eta.observe(now, done)  # even when not printing: when it arrived
        wait = 0.2 if self.live else self.interval
        if not final and self._last is not None and now - self._last < wait:
            return
        self._last = now
        if final:
            elapsed = now - self._start
            average = (done - self._started_at) / elapsed if elapsed > 0 else 0.0
            rate: float | None = average
        else:
            rate = self._eta.rate(now, done)
        left = self._eta.left(now, done, total)
        pace = "?" if rate is None else f"{rate:.1f}"
        eta = "?" if left is None else _duration(left)
        text = f"{done}/{total} matches  {pace}/s  ETA {eta}  {leader()}"
        if self._notes:
            # The latest notice stays on the line (a live line is rewritten).
            earlier = len(self._notes) - 1
            text += f"  | {self._notes[-1]}" + (
                f" (+{earlier} earlier)" if earlier else ""
            )
        if self.live:
            end = "\n" if final else ""
            self.stream.write(f"\r\033[K{text}{end}")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def note(self, text: str, done: int, total: int, leader: Callable[[], str]) -> None:
        """Say ``text`` (a lost worker) on a progress line printed at once (a
        whole line, also on a terminal, so that it stays in view), and on
        every line after it until the next notice."""
        self._notes.append(text)
        self.update(done, total, leader, final=True)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Monitor(Protocol):
    """Watches results in plan order and may end a run early (an SPRT does)."""

    def feed(self, job: Job, result: Result) -> None:
        """Take one recorded result (any order; a monitor orders them itself)."""

    def done(self) -> bool:
        """True once no more jobs need to be played."""

    def progress(self) -> str:
        """Where the monitor stands, for the progress line."""


def probe_entrants(config: TournamentConfig, *, users_checked: bool = False) -> None:
    """Start every process bot of ``config`` once and wait for its handshake.

    The probes run in a child process, as a worker does, which ends whatever a
    bot started (even in a new session) before it leaves.

    :param users_checked: the caller ran
        :func:`~harness.tournament.botuser.check_entrants`.
    :raises TroefError: naming the first entrant whose bot cannot start or
        does not answer ``ready`` (before any match is played).
    """
    if all(e.process is None for e in config.entrants):
        return
    if not users_checked:
        from harness.tournament.botuser import check_entrants

        check_entrants(config)  # first: a user that cannot run the bot is named so
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    child = context.Process(
        target=_probe_in_child, args=(config, writer, os.getpid()), daemon=True
    )
    child.start()
    writer.close()
    try:
        try:
            problem = reader.recv()
        except EOFError:
            problem = f"{config.path}: the process probing the bots died"
        child.join()
    finally:
        if child.is_alive():
            child.kill()
            child.join()
        reader.close()
    if problem is not None:
        raise TroefError(problem)


def _probe_in_child(config: TournamentConfig, writer: Connection, parent: int) -> None:
    from harness.contracts.seeding import new_master_seed
    from harness.isolation.botpool import ProcessPool
    from harness.isolation.reaper import (
        become_subreaper,
        die_with_parent,
        end_descendants,
    )
    from harness.tournament.executor_plugins import load_registry

    die_with_parent(parent)
    become_subreaper()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    problem = None
    try:
        registry = load_registry(**dataclasses.asdict(config.plugin_source))
        game = registry.game(config.game, dict(config.options))
        pool = ProcessPool(max_idle=0)  # nothing kept: every probe ends its process
        for entrant in config.entrants:
            if entrant.process is None:
                continue
            bot = entrant.process.bot(
                game,
                0,
                # Never the master seed: a probed bot must learn nothing of the deals.
                new_master_seed(),
                entrant.options_dict(),
                bot_name=entrant.bot,
                source=registry.source,
                n_seats=config.seats,
                pool=pool,
            )
            try:
                bot.prepare()
            except BotFault as fault:
                problem = (
                    f"{config.path}: entrant {entrant.label!r} cannot play: "
                    f"{fault.detail.strip()}"
                )
                break
            finally:
                bot.abandon()
    except Exception as exc:  # reported to the parent, which raises it
        problem = f"{config.path}: probing the bots failed: {exc!r}"
    finally:
        end_descendants()
        writer.send(problem)
        writer.close()


def run_tournament(
    config: TournamentConfig,
    *,
    workers: int | None = None,
    fresh: bool = False,
    progress: Progress | None = None,
    on_result: Callable[[Job, Result], None] | None = None,
    monitor: Monitor | None = None,
) -> RunSummary:
    """Play every planned match of ``config`` that the database lacks.

    :param workers: overrides the config's ``workers`` (None: config, then cores).
    :param fresh: delete the database first.
    :param monitor: sees every result and may stop the run early; an SPRT
        config gets its own by default.
    :raises Interrupted: on Ctrl-C, after keeping what finished.
    """
    if config.ladder is not None:
        raise TroefError(f"{config.path} is a ladder; play it with 'troef ladder run'")
    check_executor(config)  # before any file is made
    # Ruling: a run that fails before its first match leaves no database and
    # no lock file, if it made them; a database that was there (even empty)
    # is kept, and one that holds a match is never deleted.
    made = fresh or not config.database.exists()
    with run_lock(config.database) as lock, _sigterm_as_interrupt():
        try:
            store = Store.open(config.database, config, fresh=fresh)
        except BaseException:
            if made and not config.database.exists():
                lock.unlink(missing_ok=True)
            raise
        empty = False
        try:
            return _run_in(store, config, workers, progress, on_result, monitor)
        except BaseException:
            empty = made and _holds_no_match(store)
            raise
        finally:
            store.close()
            if empty:
                for suffix in ("", "-wal", "-shm"):
                    Path(str(config.database) + suffix).unlink(missing_ok=True)
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
) -> RunSummary:
    """The body of :func:`run_tournament`, on its open store, under its lock."""
    # The master seed may be the store's (drawn once); bot seeds are keyed
    # with the store's secret when any entrant is untrusted.
    config = store.resolve(config)
    secret = store.bot_secret(create=config.untrusted)
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
    probe_entrants(config)
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


class _Tracker:
    """Records arriving results and keeps the counts progress needs."""

    def __init__(
        self,
        entrants: Sequence[str],
        store: Store,
        progress: Progress | None,
        planned: int,
        on_result: Callable[[Job, Result], None] | None = None,
        monitor: Monitor | None = None,
    ) -> None:
        self.entrants = list(entrants)
        self.store = store
        self.progress = progress
        self.on_result = on_result
        self.monitor = monitor
        # Results kept for the progress line's leader until it next folds them
        # into its table: none kept without a progress line.
        self._keep = progress is not None and monitor is None
        self._unfolded: list[tuple[Sequence[str], Result]] = []
        self._table: dict[str, Standing] = {}
        self.done = 0
        if self._keep or monitor is not None:
            for match in store.matches():
                self.done += 1
                if self._keep:
                    self._unfolded.append((match.job["seating"], match.result))
                if monitor is not None:
                    monitor.feed(Job.from_dict(match.job), match.result)
        else:  # only the count: decoding every recorded match cost a resume more
            self.done = store.counts()[0]
        self.summary = RunSummary(planned=planned, already_done=self.done)
        if progress is not None:
            progress.start(self.done)

    def stopped(self) -> bool:
        return self.monitor is not None and self.monitor.done()

    def leader(self) -> str:
        if self.monitor is not None:
            return self.monitor.progress()
        # Folded as they come: standings over every result at each print cost
        # the runner more, the longer a run went on, than the matches.
        for row in standings(self.entrants, self._unfolded):
            self._table[row.entrant] = _added(self._table.get(row.entrant), row)
        self._unfolded = []
        table = sorted(
            self._table.values(),
            key=lambda s: (-s.score, -s.mean_utility, s.entrant),
        )
        if not table or not table[0].games:
            return "leader: -"
        return f"leader: {table[0].entrant} ({100 * table[0].score:.1f}%)"

    def note(self, text: str) -> None:
        """An executor's notice: on the progress line, else as a warning."""
        if self.progress is None:
            log.warning("%s", text)
        else:
            self.progress.note(text, self.done, self.summary.planned, self.leader)

    def record(
        self,
        results: Sequence[tuple[Job, Result]],
        encoded: Mapping[str, Encoded] | None = None,
    ) -> None:
        """Write ``results`` in one transaction, then count and report them.

        :param encoded: results already encoded by their worker, by job id
            (those Results may lack their logs: the encodings hold them).
        """
        written = {job.id for job in self.store.record_many(results, encoded)}
        for job, result in results:
            if job.id not in written:
                continue
            self.done += 1
            self.summary.played += 1
            self.summary.forfeits += result.forfeit is not None
            if self._keep:
                self._unfolded.append((job.seating, result))
            if self.monitor is not None:
                self.monitor.feed(job, result)
            if self.on_result is not None:
                self.on_result(job, _with_log(result, (encoded or {}).get(job.id)))
        if self.progress is not None:
            self.progress.update(self.done, self.summary.planned, self.leader)


def _added(row: Standing | None, more: Standing) -> Standing:
    """One entrant's standing over two sets of matches (every count adds up)."""
    if row is None:
        return more
    return Standing(
        row.entrant,
        row.matches + more.matches,
        row.points + more.points,
        row.games + more.games,
        row.wins + more.wins,
        row.forfeits + more.forfeits,
        row.total_score + more.total_score,
        row.total_utility + more.total_utility,
    )


def _with_log(result: Result, stored: Encoded | None) -> Result:
    """``result`` with its log, which a worker sent only in its encoding."""
    if stored is None or stored.log is None or result.log is not None:
        return result
    return dataclasses.replace(result, log=tuple(decode_log(stored.log)))


def _workers(asked: int | None, jobs: int) -> int:
    """Worker processes for ``jobs`` jobs: as asked (else one per core), never
    more than the jobs nor :data:`~harness.tournament.executor_config.MAX_WORKERS`."""
    if asked is not None and asked < 1:
        raise TroefError(f"workers is {asked}; it takes an integer >= 1")
    return max(1, min(asked or os.cpu_count() or 1, jobs, MAX_WORKERS))


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (``kill``, ``timeout``) stops a run the way Ctrl-C does."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGTERM, previous[1])


def _ignore_interrupts() -> None:
    """Once abandoning has begun, a further Ctrl-C must not cut the cleanup short
    (_sigterm_as_interrupt puts the handlers back when the run ends)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


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
    those that end within :data:`GRACE` seconds are recorded, the rest abandoned.
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
            if tmpdir is not None:
                flight.record(
                    now=True,
                    results=_blame(
                        pool, tmpdir, flight, breaks, source, keep_logs, suspects, done
                    ),
                )
                done = tracker.store.done_ids()
            lost = [job for chunk in flight.chunks.values() for job in chunk]
            lost = [job for job in lost + flight.lost if job.id not in done]
            log.warning(
                "a worker process died; %d unfinished jobs run again", len(lost)
            )
            queue = _requeue(lost, queue, breaks, suspects)
        finally:
            # Whatever ended the pool, what arrived is written before it goes.
            flight.commit(now=True)
            if clean:
                pool.shutdown(wait=True, cancel_futures=True)
            else:
                _abandon(pool)


class _Flight:
    """The chunks one pool is playing, and the recording of their results.

    A chunk's future may name jobs without their Result: those were streamed,
    and the chunk stays in flight (but no longer counts as running) until
    they have arrived through the channel.
    """

    def __init__(self, tracker: _Tracker, channel: Channel) -> None:
        self.tracker = tracker
        self.channel = channel
        self.chunks: dict[
            concurrent.futures.Future[list[tuple[str, Result | None]]], list[Job]
        ] = {}
        self.jobs: dict[str, Job] = {}
        #: Per finished chunk, the streamed jobs not yet arrived, and since when.
        self.awaited: dict[
            concurrent.futures.Future[list[tuple[str, Result | None]]],
            tuple[set[str], float],
        ] = {}
        #: The jobs whose result arrived through this flight.
        self.seen: set[str] = set()
        #: Jobs of finished chunks whose streamed results never came: to play again.
        self.lost: list[Job] = []
        #: Results arrived but not yet written, and when the store last committed.
        self.pending: list[tuple[Job, Result]] = []
        self.pending_encoded: dict[str, Encoded] = {}
        self.committed = 0.0

    def add(
        self,
        future: concurrent.futures.Future[list[tuple[str, Result | None]]],
        chunk: list[Job],
    ) -> None:
        self.chunks[future] = chunk
        self.jobs.update((job.id, job) for job in chunk)

    def running(self) -> int:
        """Chunks whose futures are not done yet (a worker may be playing them)."""
        return len(self.chunks) - len(self.awaited)

    def record(
        self, results: Sequence[tuple[str, Result | None]], *, now: bool = False
    ) -> None:
        """Take arrived results; write them with those pending (:meth:`commit`)."""
        fresh = [
            (self.jobs[i], r)
            for i, r in results
            if r is not None and i not in self.seen
        ]
        encoded = self.channel.encoded()
        if fresh:
            self.seen.update(job.id for job, _ in fresh)
            self.pending.extend(fresh)
            self.pending_encoded.update(encoded)
        self.commit(now=now)

    def commit(self, *, now: bool = False) -> None:
        """Write the pending results in one transaction, at most every
        :data:`_COMMIT_EVERY` seconds unless ``now`` (a commit costs the runner
        as much as a few matches' rows; a killed runner loses what is pending)."""
        if self.pending and (now or time.monotonic() - self.committed >= _COMMIT_EVERY):
            pending, encoded = self.pending, self.pending_encoded
            self.pending, self.pending_encoded = [], {}
            self.tracker.record(pending, encoded)
            self.committed = time.monotonic()

    def collect(self, timeout: float) -> None:
        """Record what the workers streamed and the chunks that ended."""
        running = [f for f in self.chunks if f not in self.awaited]
        if running:
            finished, _ = concurrent.futures.wait(
                running, timeout, return_when=concurrent.futures.FIRST_COMPLETED
            )
        else:  # every chunk has ended: only streamed results are awaited
            finished = set()
            self.channel.wait(timeout)
        # Before a chunk's error is raised below: a worker lost for the last
        # time is said before the run stops on it.
        for text in self.channel.take_notices():
            self.tracker.note(text)
        self.record(self.channel.drain())
        for future in finished:
            if future.cancelled():  # never handed to a worker (Ctrl-C)
                del self.chunks[future]
                continue
            # Popped only once its results are in: a broken pool raises here,
            # and the chunk's jobs without a result must run again.
            results = future.result()
            self.record(results)
            streamed = {i for i, r in results if r is None} - self.seen
            self.awaited[future] = (streamed, time.monotonic())
        for future, (streamed, since) in list(self.awaited.items()):
            streamed -= self.seen
            if streamed and time.monotonic() - since > _LOST_AFTER:
                # Streamed, never arrived (a transport failure): play them again.
                log.warning(
                    "%d streamed results did not arrive; their jobs run again",
                    len(streamed),
                )
                self.lost.extend(self.jobs[i] for i in sorted(streamed))
                streamed.clear()
            if not streamed:
                del self.awaited[future], self.chunks[future]
        if not self.chunks:
            self.commit(now=True)  # nothing more is coming from this pool

    def wind_down(self) -> None:
        """After a Ctrl-C: start nothing new, keep what ends within GRACE seconds.

        A second Ctrl-C (or SIGTERM) abandons the rest at once.
        """
        self.channel.stop.set()
        if not self.chunks:
            _ignore_interrupts()
            return
        for future in self.chunks:
            future.cancel()  # chunks not yet handed to a worker
        print(
            f"troef: stopping: no new matches; waiting up to {GRACE:.0f} s for the "
            "matches in play (Ctrl-C again to abandon them)",
            file=sys.stderr,
            flush=True,
        )
        deadline = time.monotonic() + GRACE
        try:
            # A chunk leaves the flight once its streamed results are in.
            while time.monotonic() < deadline and self.chunks:
                self.collect(_POLL)
            self.collect(0)
        except (KeyboardInterrupt, BrokenProcessPool):
            pass
        finally:
            _ignore_interrupts()
            self.commit(now=True)


#: How often the scheduler looks for streamed results (seconds).
_POLL = 0.05

#: Most seconds between two commits of arrived results while a pool plays.
_COMMIT_EVERY = 0.1

#: Seconds after its chunk ended that a streamed result is given up for lost.
_LOST_AFTER = 30.0

#: How long the first Ctrl-C waits for the matches in play before abandoning them.
GRACE = 5.0


def _abandon(pool: concurrent.futures.Executor) -> None:
    """Stop a pool's workers now: SIGTERM (they end their bots), then SIGKILL."""
    workers = dict(getattr(pool, "_processes", None) or {})
    for process in workers.values():
        with contextlib.suppress(OSError, ValueError):
            process.terminate()
    deadline = time.monotonic() + 1.0
    for process in workers.values():
        process.join(max(0.0, deadline - time.monotonic()))
        if process.exitcode is None:
            with contextlib.suppress(OSError, ValueError):
                process.kill()
            process.join(1.0)
    pool.shutdown(wait=True, cancel_futures=True)


def _blame(
    pool: concurrent.futures.Executor,
    tmpdir: str,
    flight: _Flight,
    breaks: dict[str, int],
    source: PluginSource,
    keep_logs: bool,
    suspects: set[str],
    done: set[str],
) -> list[tuple[str, Result]]:
    """Forfeits for the process bots that killed their worker.

    A worker that died by itself (not ended by the pool after another's death)
    left in its watch file the bots it was waiting on. One bot awaited: it
    forfeits. Several (interleaved matches): their jobs go back, each alone
    (``suspects``), and a job that a death catches a second time forfeits
    without a retry (the first awaited seat of it).
    """
    from harness.isolation.reaper import Watch
    from harness.tournament.executors import watch_path

    forfeits: dict[str, tuple[int, int | None]] = {}
    workers = list((getattr(pool, "_processes", None) or {}).values())
    for process in workers:
        process.join(2.0)  # the pool is ending them all; the dead one is dead
    ended = {128 + signal.SIGTERM, -signal.SIGTERM}
    dead = [p for p in workers if p.exitcode is not None and p.exitcode not in ended]
    if not dead:
        # All ended by SIGTERM: the pool's, after a death, and maybe a bot's
        # first. The first worker to end is the one whose death broke the pool.
        stamps = [
            (stamp, p)
            for p in workers
            if p.exitcode in ended
            and (stamp := Watch.ended_at(watch_path(tmpdir, p.pid))) is not None
        ]
        dead = [min(stamps, key=lambda sp: sp[0])[1]] if stamps else []
    for process in dead:
        code = process.exitcode
        awaited = [
            (job, seat)
            for job, seat in Watch.read(watch_path(tmpdir, process.pid))
            if job in flight.jobs and job not in done  # not a stale entry
        ]
        if len(awaited) == 1:
            forfeits.setdefault(awaited[0][0], (awaited[0][1], code))
            continue
        for job, seat in awaited:
            suspects.add(job)
            if breaks.get(job, 0) >= 1:
                forfeits.setdefault(job, (seat, code))
    if not forfeits:
        return []
    from harness.contracts.result import ForfeitReason
    from harness.match.referee import forfeit_before_start
    from harness.tournament.executor_plugins import load_registry

    registry = load_registry(**dataclasses.asdict(source))
    results = []
    for job_id, (seat, code) in forfeits.items():
        killed = flight.jobs[job_id]
        game = registry.game(killed.game, dict(killed.options))
        game = game.with_max_actions(killed.max_actions)
        how = f"signal {-code}" if code is not None and code < 0 else f"exit {code}"
        detail = (
            f"the worker process playing this match died ({how}) while waiting "
            f"for this seat's bot ({killed.seating[seat]}): the bot killed its worker"
        )
        log.warning("job %s: seat %d forfeits: %s", job_id, seat, detail)
        results.append(
            (
                job_id,
                forfeit_before_start(
                    game,
                    len(killed.seating),
                    killed.seed,
                    seat,
                    ForfeitReason.CRASH,
                    detail,
                    keep_logs,
                ),
            )
        )
    return results


def _requeue(
    lost: list[Job],
    queue: list[list[Job]],
    breaks: dict[str, int],
    suspects: set[str] | None = None,
) -> list[list[Job]]:
    """Put lost jobs back first; a job that keeps breaking the pool goes alone,
    as does one whose bot was awaited by a worker that died (``suspects``).

    One that breaks it still more often fails the run.
    """
    for job in lost:
        breaks[job.id] = breaks.get(job.id, 0) + 1
        if breaks[job.id] > 2 * MAX_BREAKS:
            raise TroefError(
                f"job {job.id} (seed {job.seed}, seats {', '.join(job.seating)}) "
                f"killed its worker process {breaks[job.id]} times; stopping"
            )
    suspects = suspects or set()
    alone = [job for job in lost if breaks[job.id] > MAX_BREAKS or job.id in suspects]
    others = [job for job in lost if job not in alone]
    return [[job] for job in alone] + ([others] if others else []) + queue


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
