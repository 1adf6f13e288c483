"""Where jobs run: in this process, or in a local pool of worker processes.

Both are ``concurrent.futures`` executors running :func:`run_jobs`. Each worker
process builds its :class:`~harness.tournament.workers.Worker` once, in the pool's
initializer, from the same plugin source as the parent: a registry does not
pickle, and jobs carry names only.

Each finished match is streamed to the runner through the channel's
``results`` queue (a chunk's return value comes too late for a run that is
killed), and a set ``stop`` event keeps a chunk from starting further matches.
A pool worker sends its matches in batches (:class:`Batches`), already encoded
for the store, at most :data:`STREAM_INTERVAL` seconds after each ends; a
chunk's return value then names its jobs only, so each result crosses the
process boundary once. A worker ends everything it started when it leaves, by
a normal shutdown or by SIGTERM.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import functools
import gc
import multiprocessing
import os
import pickle
import queue
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import util
from types import FrameType
from typing import Any, Protocol

from harness.contracts.result import Result
from harness.isolation.botpool import default_pool
from harness.isolation.reaper import (
    become_subreaper,
    die_with_parent,
    end_descendants,
    note_ended,
    set_watch,
)
from harness.plugins import PluginSource
from harness.tournament.plan import Job
from harness.tournament.store import Encoded, encode
from harness.tournament.workers import Worker

__all__ = [
    "Batches",
    "Channel",
    "InlineExecutor",
    "run_jobs",
    "watch_path",
]


class _Queue(Protocol):
    def put(self, item: tuple[str, Result], /) -> None: ...

    def get_nowait(self) -> tuple[str, Result]: ...


class _Event(Protocol):
    def is_set(self) -> bool: ...

    def set(self) -> None: ...


@dataclass
class Channel:
    """What a pool's workers share with the scheduler: streamed results, a stop,
    and the executor's notices for the progress line (a lost worker)."""

    results: _Queue = field(
        default_factory=lambda: queue.SimpleQueue[tuple[str, Result]]()
    )
    stop: _Event = field(default_factory=threading.Event)
    #: Sentences for the person watching, put by the executor (from any thread:
    #: a deque's append and popleft are atomic) and taken by the scheduler.
    notices: collections.deque[str] = field(default_factory=collections.deque)

    def take_notices(self) -> list[str]:
        """The notices put since the last call, oldest first."""
        taken = []
        while self.notices:
            taken.append(self.notices.popleft())
        return taken

    def drain(self) -> list[tuple[str, Result]]:
        """Every (job id, Result) that has arrived so far."""
        items = []
        while True:
            try:
                items.append(self.results.get_nowait())
            except queue.Empty:
                return items

    def wait(self, timeout: float) -> None:
        """Return once a result may have arrived, or after ``timeout`` seconds."""
        wait = getattr(self.results, "wait", None)
        if wait is not None:
            wait(timeout)
        else:  # a queue filled in this process or by events: a short nap
            time.sleep(min(timeout, 0.005))

    def encoded(self) -> dict[str, Encoded]:
        """The store's encoding of results that arrived encoded, by job id (the
        caller takes them: the next call returns only those arrived since)."""
        take = getattr(self.results, "take_encoded", None)
        return {} if take is None else dict(take())


#: Most seconds a pool worker keeps a finished match before sending it: one
#: message per batch, not per match (a killed runner loses at most this much
#: of each worker's play besides the matches in play).
STREAM_INTERVAL = 0.05


class Batches:
    """A pool's results queue that carries batches of encoded matches.

    In a worker, ``put`` keeps each match, encoded for the store and without
    its log (the encoding holds it), and sends what it keeps as one pickled
    message :data:`STREAM_INTERVAL` seconds after the first (a timer thread),
    at once after a quiet spell, and when a chunk ends. In the runner,
    ``get_nowait`` hands out the matches one by one and keeps their encodings
    for the store.
    """

    def __init__(self, transport: Any) -> None:
        #: A ``multiprocessing`` queue: its feeder thread writes to the pipe,
        #: so a worker never waits on a runner that is busy writing the store.
        self.transport = transport
        self._lock = threading.Lock()
        self._kept: list[tuple[str, Result, Encoded]] = []
        self._sent = 0.0
        self._arrived: collections.deque[tuple[str, Result]] = collections.deque()
        self._encoded: dict[str, Encoded] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"transport": self.transport}  # a spawned worker gets its own

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["transport"])  # type: ignore[misc]

    # -- in the worker ------------------------------------------------------

    def put(self, item: tuple[str, Result], /) -> None:
        """Keep one finished match; send the batch now or start its timer."""
        job_id, result = item
        stored = encode(result)
        if result.log is not None:
            # A copy without the log, field for field (not through __init__,
            # which would check and convert what the referee already did).
            copy = object.__new__(Result)
            copy.__dict__.update(result.__dict__, log=None)
            result = copy
        with self._lock:
            self._kept.append((job_id, result, stored))
            first = len(self._kept) == 1
        if not first:
            return
        if time.monotonic() - self._sent >= STREAM_INTERVAL:
            self.flush()  # slow matches: each goes at once
        else:
            timer = threading.Timer(STREAM_INTERVAL, self.flush)
            timer.daemon = True
            timer.start()

    def flush(self) -> None:
        """Send what is kept, as one message (pickled here: an error is ours to
        see, not the feeder thread's to print and drop)."""
        with self._lock:
            batch, self._kept = self._kept, []
            self._sent = time.monotonic()
        if batch:
            self.transport.put(pickle.dumps(batch, pickle.HIGHEST_PROTOCOL))

    def cancel_join_thread(self) -> None:
        """A leaving worker must not wait to flush what the runner no longer reads."""
        self.transport.cancel_join_thread()

    # -- in the runner ------------------------------------------------------

    def get_nowait(self) -> tuple[str, Result]:
        """The next match that arrived; raises ``queue.Empty`` when none has."""
        if not self._arrived:
            self._unpack(self.transport.get_nowait())
        return self._arrived.popleft()

    def wait(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for a batch (none kept yet)."""
        if not self._arrived:
            with contextlib.suppress(queue.Empty):
                self._unpack(self.transport.get(timeout=timeout))

    def take_encoded(self) -> dict[str, Encoded]:
        """The encodings of the matches handed out so far (then forgotten)."""
        encoded, self._encoded = self._encoded, {}
        return encoded

    def _unpack(self, message: bytes) -> None:
        for job_id, result, stored in pickle.loads(message):
            self._arrived.append((job_id, result))
            self._encoded[job_id] = stored


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
            # A worker leaves once the runner has every result it awaits, or
            # when the run is abandoned: what was not recorded runs again.
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
    if parent is not None:
        # A pool process keeps what it has loaded until it leaves: the garbage
        # collector need not scan the plugins again and again (a full pass
        # over them cost more than the bookkeeping of a short match).
        gc.freeze()


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
) -> list[tuple[str, Result | None]]:
    """Play ``jobs``; return (job id, Result) for each match played, in order.

    The Result is None when the match was streamed to the channel: the runner
    awaits it there (each result crosses the process boundary once).

    When any bot runs in its own process, up to ``in_flight`` matches are
    interleaved so that the worker never idles waiting on one bot's pipe.
    Bot seeds are keyed with the tournament's ``secret`` (``bot_seed``).
    """
    if _worker is None:
        raise RuntimeError("run_jobs called in a process whose plugins are not loaded")
    results = _worker.play(jobs, keep_logs, in_flight, secret)
    if _worker.channel is None:
        return list(results)
    flush = getattr(_worker.channel.results, "flush", None)
    if flush is not None:
        flush()  # the chunk's last matches: the runner awaits them now
    return [(job_id, None) for job_id, _ in results]


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
    channel = Channel(Batches(context.Queue()), context.Event())
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=functools.partial(init_worker, channel=channel, tmpdir=tmpdir),
        initargs=(source, os.getpid()),
    )
    return pool, channel
