"""Where jobs run: in this process, or in a local pool of worker processes.

Both are ``concurrent.futures`` executors running :func:`run_jobs`. Each worker
process builds its :class:`~harness.workers.Worker` once, in the pool's
initializer, from the same plugin source as the parent: a registry does not
pickle, and jobs carry names only.

Each finished match is also streamed at once to the pool's ``results`` queue
(a chunk's return value comes too late for a run that is killed), and a set
``stop`` event keeps a chunk from starting further matches. A worker ends
everything it started when it leaves, by a normal shutdown or by SIGTERM.
"""

from __future__ import annotations

import concurrent.futures
import functools
import multiprocessing
import os
import queue
import signal
import tempfile
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing import util
from types import FrameType
from typing import Any, Protocol

from harness.bot import Bot
from harness.botprocess import (
    become_subreaper,
    default_pool,
    die_with_parent,
    end_descendants,
    note_ended,
    set_watch,
)
from harness.game import Game
from harness.multiplex import MatchSpec, play_matches_interleaved
from harness.plan import Job
from harness.plugins import PluginSource, Registry, load_plugins
from harness.referee import abandon_bots, forfeit_before_start, play_match
from harness.result import ForfeitReason, Result
from harness.seeding import bot_seed
from harness.workers import Worker

__all__ = ["Channel", "InlineExecutor", "make_executor", "run_jobs", "watch_path"]


class _Queue(Protocol):
    def put(self, item: tuple[str, Result], /) -> None: ...

    def get_nowait(self) -> tuple[str, Result]: ...


class _Event(Protocol):
    def is_set(self) -> bool: ...

    def set(self) -> None: ...


@dataclass
class Channel:
    """What a pool's workers share with the scheduler: streamed results, a stop."""

    results: _Queue = field(
        default_factory=lambda: queue.SimpleQueue[tuple[str, Result]]()
    )
    stop: _Event = field(default_factory=threading.Event)

    def drain(self) -> list[tuple[str, Result]]:
        """Every (job id, Result) that has arrived so far."""
        items = []
        while True:
            try:
                items.append(self.results.get_nowait())
            except queue.Empty:
                return items


# The Worker of this pool process (it owns the registry, the games built and the
# channel): the one per-process anchor a pool's initializer can set.
_worker: Worker | None = None


def init_worker(
    source: PluginSource,
    parent: int | None = None,
    *,
    ignore_sigint: bool = True,
    channel: Channel | None = None,
    tmpdir: str | None = None,
) -> None:
    """Load the plugins once in a worker process.

    :param parent: the pid of the process that owns the pool; the worker dies
        with it (so a killed ``troef run`` leaves no workers behind), ends its
        bots and their descendants when it leaves or gets SIGTERM.
    :param channel: where each finished match goes, and the stop signal.
    :param tmpdir: the run's folder for temporary files (the bots' working
        folders), removed by the scheduler whatever happens to the worker.
    """
    global _worker
    if parent is not None:
        # The handler first: the parent's death then always ends the bots too.
        signal.signal(signal.SIGTERM, _leave_now)
        become_subreaper()
        die_with_parent(parent, signal.SIGTERM)
        # Pool workers leave by os._exit: atexit never runs, these finalizers do.
        util.Finalize(None, _leave, exitpriority=100)
        cancel_join = getattr(
            channel.results if channel else None, "cancel_join_thread", None
        )
        if cancel_join is not None:
            # A leaving worker must not wait to flush streamed results the runner
            # no longer reads: it blocked on a full pipe, and the runner on it.
            # Nothing is lost: a chunk's return value carries every result again.
            cancel_join()
    if ignore_sigint:
        # The parent handles Ctrl-C and stops the pool; workers must not die mid-write.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if tmpdir is not None:
        tempfile.tempdir = tmpdir
        if parent is not None:
            # What this worker awaits, for the scheduler to read if a bot kills it.
            set_watch(watch_path(tmpdir, os.getpid()))
    _worker = Worker(source, channel=channel)
    _worker.load()


def watch_path(tmpdir: str, pid: int) -> str:
    """The file in which worker ``pid`` names the bots it awaits (``Watch``)."""
    return os.path.join(tmpdir, f"watch-{pid}")


def _leave() -> None:
    default_pool.close()
    end_descendants()


def _leave_now(signum: int, frame: FrameType | None) -> None:
    # Abandoned by the scheduler: no goodbyes to bots, and no unwinding (this
    # may run mid-write to the results queue, which the scheduler discards).
    # Or ended by a bot: the moment tells the scheduler which worker came first.
    note_ended()
    end_descendants()
    os._exit(128 + signum)


def run_jobs(
    jobs: Sequence[Job], keep_logs: bool, in_flight: int = 4, secret: bytes = b""
) -> list[tuple[str, Result]]:
    """Play ``jobs``; return (job id, Result) for each, in order.

    A Result is a frozen dataclass of tuples, ints and strings: it pickles
    compactly (repeated action strings are pickled once) and needs no
    conversion on either side of the process boundary.

    When any bot runs in its own process, up to ``in_flight`` matches are
    interleaved so that the worker never idles waiting on one bot's pipe.
    Bot seeds are keyed with the tournament's ``secret`` (``bot_seed``).
    """
    if _worker is None:
        raise RuntimeError("run_jobs called in a process whose plugins are not loaded")
    return _worker.play(jobs, keep_logs, in_flight, secret)


def play_chunk(
    registry: Registry,
    games: dict[tuple[str, tuple[tuple[str, Any], ...], int | None], Game],
    channel: Channel | None,
    jobs: Sequence[Job],
    keep_logs: bool,
    in_flight: int = 4,
    secret: bytes = b"",
) -> list[tuple[str, Result]]:
    """:func:`run_jobs` with its state given: the registry, a cache of built
    games, and where to stream each result (None: nowhere)."""

    def until_stopped() -> Iterator[MatchSpec]:
        for job in jobs:
            if channel is not None and channel.stop.is_set():
                return
            yield _spec(registry, job, keep_logs, games, secret)

    def stream(index: int, result: Result) -> None:
        if channel is not None:
            channel.results.put((jobs[index].id, result))

    if any(any(job.process) for job in jobs) and in_flight > 1:
        results = play_matches_interleaved(
            until_stopped(), in_flight=in_flight, on_result=stream
        )
    else:
        results = []
        for index, spec in enumerate(until_stopped()):
            results.append(_play(spec))
            stream(index, results[-1])
    return list(zip((job.id for job in jobs), results, strict=False))


def _game(
    registry: Registry,
    job: Job,
    games: dict[tuple[str, tuple[tuple[str, Any], ...], int | None], Game],
) -> Game:
    key = (job.game, job.options, job.max_actions)
    game = games.get(key)
    if game is None:
        game = registry.game(job.game, dict(job.options))
        game = games[key] = game.with_max_actions(job.max_actions)
    return game


def _spec(
    registry: Registry,
    job: Job,
    keep_logs: bool,
    games: dict[tuple[str, tuple[tuple[str, Any], ...], int | None], Game],
    secret: bytes = b"",
) -> MatchSpec:
    """The match of ``job`` with a factory per seat (bots are built when it starts)."""
    game = _game(registry, job, games)
    n_seats = len(job.bots)
    factories: list[Callable[[], Bot]] = []
    for seat, (name, options) in enumerate(job.bots):
        seed = bot_seed(job.seed, seat, secret)
        process = job.process[seat] if job.process else None
        if process is not None:
            factories.append(
                functools.partial(
                    process.bot,
                    game,
                    seat,
                    seed,
                    dict(options),
                    bot_name=name,
                    source=registry.source,
                    n_seats=n_seats,
                    tag=f"{job.id} {seat}",
                    deal=job.seed,
                )
            )
        else:
            factories.append(
                functools.partial(
                    _plugin_bot, registry, name, game, seat, seed, dict(options)
                )
            )
    clocks = job.time_controls if any(job.time_controls) else None
    return MatchSpec(game, factories, job.seed, keep_logs, clocks)


def _plugin_bot(
    registry: Registry,
    name: str,
    game: Game,
    seat: int,
    seed: int,
    options: dict[str, Any],
) -> Bot:
    return registry.bot_class(name, game.name)(game, seat, seed, options)


def _play(spec: MatchSpec) -> Result:
    bots = []
    for seat, factory in enumerate(spec.bots):
        try:
            bots.append(factory())
        except Exception:
            # A bot that cannot even be built forfeits before the first move; the
            # bots built so far give their processes back (as multiplex does).
            abandon_bots(bots)
            return forfeit_before_start(
                spec.game,
                len(spec.bots),
                spec.seed,
                seat,
                ForfeitReason.EXCEPTION,
                traceback.format_exc(limit=-8),
                spec.keep_log,
            )
    return play_match(
        spec.game,
        bots,
        spec.seed,
        keep_log=spec.keep_log,
        time_controls=spec.time_controls,
    )


class InlineExecutor(concurrent.futures.Executor):
    """Runs each submitted call at once, in this process (for tests and debugging)."""

    def __init__(self, source: PluginSource, channel: Channel | None = None) -> None:
        init_worker(source, ignore_sigint=False, channel=channel)

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """End the bot processes kept for reuse: nothing of a run outlives it,
        even when it ran in this process."""
        default_pool.close()


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
    registry = load_plugins(**asdict(source))
    return registry.executor_class(kind).start(
        dict(settings), workers, source, tmpdir=tmpdir
    )


def local_executor(
    kind: str,
    workers: int,
    source: PluginSource,
    *,
    tmpdir: str | None = None,
) -> tuple[concurrent.futures.Executor, Channel]:
    """The built-in executors: ``process`` (``workers`` processes) or ``inline``."""
    if kind == "inline":
        channel = Channel()
        return InlineExecutor(source, channel), channel
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    channel = Channel(context.Queue(), context.Event())
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=functools.partial(init_worker, channel=channel, tmpdir=tmpdir),
        initargs=(source, os.getpid()),
    )
    return pool, channel
