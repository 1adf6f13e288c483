"""The Dask executor: a run's chunks as tasks on a ``dask.distributed`` cluster.

Needs the ``dask`` extra (from a checkout: ``pip install -e '.[dask]'``).
The runner connects to the scheduler at ``address``, or starts a local cluster
of ``workers`` worker processes on the loopback interface, and registers a
:class:`~harness.tournament.workers.Worker` as a Dask worker plugin: each Dask worker
process unpickles it once, loads the plugins on its first chunk and checks
that it runs the runner's troef and plugin code.

Finished matches are streamed to the runner as Dask events (pickled lists of
(job id, Result) on a topic of this run, each at most 0.1 s after it ends); a
chunk's return value brings those of its results that no event carried (the
last 0.1 s) and names the others with None, so each result crosses once and
the runner knows which to await. A worker that dies takes its task
with it; Dask's scheduler runs the task again on another worker. A task that
loses its worker twice (``allowed-failures`` of 1 on a local cluster; the
cluster's own setting at an ``address``) fails the run with an error naming
its jobs instead of retrying forever.

A stop (Ctrl-C, SIGTERM, an SPRT's verdict) reaches the workers: the runner
tells every worker of the cluster at once, keeps the stop at the scheduler (a
``distributed.Event`` named after the run) for workers that join later, and
cancels the chunks not started; a chunk in play ends after its current
match, as on the local pool. A chunk whose task the cluster gave up (its
runner was killed: no client wants it) ends the same way.

Inside :func:`dask_session` (a ladder's rounds) every run uses one client and
one local cluster, closed when the session ends.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import contextvars
import dataclasses
import logging
import pickle
import queue
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import dask
from distributed import Client, Event, LocalCluster, get_worker
from distributed import Worker as DaskWorker
from distributed.diagnostics.plugin import WorkerPlugin

from harness.contracts.errors import TroefError
from harness.contracts.result import Result
from harness.plugins import PluginSource, load_plugins
from harness.tournament.executors import Channel, run_jobs
from harness.tournament.plan import Job
from harness.tournament.workers import Worker, fingerprint

__all__ = ["LOCAL_SCHEDULER", "DaskExecutor", "dask_session", "start_dask"]

log = logging.getLogger("troef.dask")

#: Tries a task gets on a local cluster before its loss fails the run: a chunk
#: whose worker dies runs once more, then is recorded as a failure.
ALLOWED_FAILURES = 1

#: Most seconds a finished match waits on its worker before it is streamed to
#: the runner (a killed runner loses at most this much of each worker's play).
STREAM_INTERVAL = 0.1

#: What a local cluster's scheduler is started with. With its dashboard off it
#: still serves HTTP (health, metrics), by default on port 8787, so a second
#: cluster on the machine (another run, a test beside it, the user's own) warns
#: "Port 8787 is already in use" and moves: an ephemeral port on the loopback
#: never collides.
LOCAL_SCHEDULER: Mapping[str, str] = MappingProxyType(
    {"dashboard_address": "127.0.0.1:0"}
)

#: Most seconds a stop waits for the cluster's workers to hear it (a worker
#: being lost must not hold up Ctrl-C; the scheduler's copy still reaches it).
STOP_TIMEOUT = 2.0


#: The topic on which Dask's scheduler logs its own events, among them the
#: removal of a worker (``{"action": "remove-worker", "worker": ...,
#: "processing-tasks": keys, "expected": bool}``).
SCHEDULER_TOPIC = "all"


def _stop_name(topic: str) -> str:
    """The scheduler's Event that says the run of ``topic`` was stopped."""
    return f"{topic}-stop"


class TroefWorkerPlugin(WorkerPlugin):
    """Keeps a :class:`Worker` on each Dask worker; plays chunks with it."""

    #: Where the worker's finished matches go (set up on the Dask worker).
    events: _Events

    def __init__(self, worker: Worker, topic: str) -> None:
        self.worker = worker
        self.topic = topic

    async def setup(self, worker: DaskWorker) -> None:
        self.worker.where = f"Dask worker {worker.address}"
        # Each match goes to the runner as an event as soon as it ends; the
        # stop is set by the runner's broadcast (_hear_stop).
        stop = _WorkerStop(worker)
        self.events = _Events(worker, self.topic)
        self.worker.channel = Channel(self.events, stop)
        # A worker that joins after the stop (one restarted in place of a lost
        # one) missed the broadcast: the scheduler kept the stop for it.
        if await worker.scheduler.event_is_set(name=_stop_name(self.topic)):
            stop.set()

    def teardown(self, worker: DaskWorker) -> None:
        # Bot processes kept for reuse end with the worker.
        from harness.isolation.botpool import default_pool

        default_pool.close()


class _WorkerStop:
    """What tells a Dask worker's chunk to start no further match: the run's
    stop (the runner's broadcast, or the scheduler's event for a worker that
    joins late), or, for the chunk that asks, its task no longer wanted: the
    runner is gone (killed, its client left the cluster), so nobody would
    record what it plays.
    """

    def __init__(self, worker: DaskWorker) -> None:
        self.worker = worker
        self.run = threading.Event()

    def is_set(self) -> bool:
        if self.run.is_set():
            return True
        try:
            key = self.worker.get_current_task()
        except KeyError:  # not asked from a task's thread
            return False
        task = self.worker.state.tasks.get(key)
        return task is None or task.state == "cancelled"

    def set(self) -> None:
        self.run.set()


class _Events:
    """A results queue whose ``put`` sends results to the runner as events.

    A finished match waits at most :data:`STREAM_INTERVAL` seconds, so that
    the matches of a fast game go in batches: an event per match would cost
    the scheduler more than the match. A chunk's results not sent when it
    ends go back in its return value instead (:meth:`settle`): each result
    crosses to the runner once.
    """

    def __init__(self, worker: DaskWorker, topic: str) -> None:
        self.worker = worker
        self.topic = topic
        self.lock = threading.Lock()
        self.batch: list[tuple[str, Result]] = []
        #: Job ids of the chunks in play whose results went as events.
        self.sent: set[str] = set()

    def put(self, item: tuple[str, Result], /) -> None:
        with self.lock:
            self.batch.append(item)
            first = len(self.batch) == 1
        if first:  # called in a task's thread; the loop's methods are not safe there
            self.worker.loop.add_callback(
                self.worker.loop.call_later, STREAM_INTERVAL, self.flush
            )

    def flush(self) -> None:
        """Send the batch (in the worker's event loop)."""
        with self.lock:
            batch, self.batch = self.batch, []
            if batch:
                self.sent.update(job for job, _ in batch)
                # Queued on the worker's stream to the scheduler ahead of the
                # end of the task (which this loop reports after this call):
                # the runner has every event of a chunk before its return value.
                self.worker.log_event(self.topic, pickle.dumps(batch))

    def settle(
        self, results: list[tuple[str, Result]]
    ) -> list[tuple[str, Result | None]]:
        """An ended chunk's return value: the results no event carried (taken
        out of the batch), and None for those an event did, which the runner
        awaits through its channel (each result crosses once)."""
        ids = {job for job, _ in results}
        with self.lock:
            self.batch = [item for item in self.batch if item[0] not in ids]
            sent = self.sent & ids
            self.sent -= ids
        return [(job, None if job in sent else result) for job, result in results]

    def get_nowait(self) -> tuple[str, Result]:
        raise NotImplementedError("the runner reads the events, not the worker")


def _hear_stop(plugin: str, dask_worker: DaskWorker) -> list[str]:
    """Run on each worker by a stopping runner: no match of this run starts.

    Returns the keys of the tasks the worker is running (their chunks end
    after the current match and bring what they played).
    """
    troef = dask_worker.plugins.get(plugin)
    if isinstance(troef, TroefWorkerPlugin) and troef.worker.channel is not None:
        troef.worker.channel.stop.set()
    return [str(task.key) for task in dask_worker.state.executing]


def _play_chunk(
    plugin: str,
    jobs: Sequence[Job],
    keep_logs: bool,
    in_flight: int,
    secret: bytes = b"",
) -> list[tuple[str, Result | None]]:
    """The task: play ``jobs`` with this Dask worker's :class:`Worker`; return
    (job id, Result) for each match played, the Result None where it was
    streamed as an event."""
    dask_worker = get_worker()
    troef = dask_worker.plugins[plugin]
    assert isinstance(troef, TroefWorkerPlugin)
    return troef.events.settle(troef.worker.play(jobs, keep_logs, in_flight, secret))


def _forget_events(topic: str, dask_scheduler: Any = None) -> None:
    """Run on the scheduler as a run ends: drop the result batches it kept of
    the run's topic (it keeps the last 1,000 of each topic for clients that
    ask later, which for a cluster that outlives many runs adds up to every
    run's results). Dask has no public call for it: without its broker, the
    events stay."""
    broker = getattr(dask_scheduler, "_broker", None)
    truncate = getattr(broker, "truncate", None)
    if truncate is not None:
        truncate(topic)


class DaskExecutor(concurrent.futures.Executor):
    """A ``concurrent.futures`` face on a Dask client (and its local cluster).

    ``submit`` takes :func:`~harness.tournament.executors.run_jobs` and a chunk's
    arguments and runs them as a Dask task with the registered worker plugin.
    A future is marked running at once: the scheduler waits for a chunk a
    worker may be playing, as for a pool's; :meth:`stop` ends the chunks not
    started with no results (their jobs stay unplayed).

    :param owned: the client (and cluster) are this run's, closed with it;
        else a :func:`dask_session`'s, left open for the session's next run.
    """

    def __init__(
        self,
        client: Client,
        cluster: LocalCluster | None,
        plugin: str,
        topic: str,
        *,
        owned: bool = True,
    ) -> None:
        self.client = client
        self.cluster = cluster
        self.plugin = plugin
        self.topic = topic
        self.owned = owned
        self._tasks: dict[Any, concurrent.futures.Future[Any]] = {}
        #: The jobs of each task by its key, for what a lost worker held.
        self._jobs: dict[Any, int] = {}
        self._stopped = False
        self._closed = False

    def worker_removed(self, message: Any) -> str | None:
        """The progress line's notice of a worker the scheduler removed (its
        ``remove-worker`` event), or None when it says nothing of this run: a
        worker closed on purpose holding none of this run's chunks."""
        if not isinstance(message, dict) or message.get("action") != "remove-worker":
            return None
        held = [
            self._jobs[k]
            for k in message.get("processing-tasks", ())
            if k in self._jobs
        ]
        if message.get("expected") and not held:
            return None
        what = "left" if message.get("expected") else "lost"
        where = message.get("worker", "?")
        if not held:
            return f"Dask worker {where} {what} (no chunk of this run on it)"
        chunks = f"{len(held)} chunk" + ("s" if len(held) > 1 else "")
        return (
            f"Dask worker {where} {what} with {chunks} ({sum(held)} matches) of "
            "this run in play (Dask runs them again elsewhere, up to "
            "allowed-failures)"
        )

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        if fn is not run_jobs:
            raise TypeError("the Dask executor runs chunks of jobs (run_jobs) only")
        jobs: Sequence[Job] = args[0]
        task = self.client.submit(_play_chunk, self.plugin, *args, **kwargs, pure=False)
        self._jobs[task.key] = len(jobs)
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.set_running_or_notify_cancel()
        self._tasks[task] = future

        def done(task: Any) -> None:
            if future.done():  # stopped before a worker took it
                return
            result: Any = None
            error: BaseException | None = None
            try:
                result = task.result()
            except BaseException as exc:
                error = _explain(exc, jobs)
            # Stop (in the runner's thread) may have ended it meanwhile.
            with contextlib.suppress(concurrent.futures.InvalidStateError):
                if error is None:
                    future.set_result(result)
                else:
                    future.set_exception(error)

        task.add_done_callback(done)
        return future

    def stop(self) -> None:
        """No match of this run starts any more, on any worker.

        The stop is kept at the scheduler first (for workers that join
        later), then told to every worker at once (a chunk in play ends after
        its current match); last, the chunks not started (waiting at the
        scheduler or on a worker) are cancelled and end with no results.
        Anything the cluster cannot answer within :data:`STOP_TIMEOUT` is left
        to the shutdown.
        """
        if self._stopped or self._closed:
            return
        self._stopped = True
        # In a thread, bounded: a scheduler or worker being lost must not
        # hold up Ctrl-C (the shutdown then cancels everything).
        stopping = threading.Thread(
            target=self._stop, name="troef-dask-stop", daemon=True
        )
        stopping.start()
        stopping.join(STOP_TIMEOUT)

    def _stop(self) -> None:
        client = self.client
        with contextlib.suppress(Exception):
            Event(_stop_name(self.topic), client=client).set()
        try:
            told = client.run(_hear_stop, self.plugin, on_error="ignore")
            playing = {key for keys in told.values() for key in keys}
            # Asked after the workers heard the stop: a chunk that a worker
            # took since plays nothing, so a chunk neither in play then nor
            # done now loses nothing when cancelled.
            pending = [task for task in list(self._tasks) if not task.done()]
            held = client.who_has(pending) if pending else {}
        except Exception:
            return
        cancelled = []
        for task in pending:
            if task.key in playing or held.get(task.key):
                continue
            with contextlib.suppress(concurrent.futures.InvalidStateError):
                self._tasks[task].set_result([])
                cancelled.append(task)
        with contextlib.suppress(Exception):
            client.cancel(cancelled)
        log.debug(
            "stopped: %d chunks not done, %d cancelled before they started",
            len(pending),
            len(cancelled),
        )

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel what is left, disconnect, and close a local cluster fully
        (only the run's topic and worker plugin when the client is a session's)."""
        if self._closed:
            return
        self._closed = True
        client = self.client
        with contextlib.suppress(Exception):
            client.unsubscribe_topic(self.topic)
        with contextlib.suppress(Exception):
            client.unsubscribe_topic(SCHEDULER_TOPIC)
        with contextlib.suppress(Exception):
            client.run_on_scheduler(_forget_events, self.topic)
        if cancel_futures or not wait or not self.owned:
            with contextlib.suppress(Exception):
                client.cancel(list(self._tasks))
        with contextlib.suppress(Exception):
            client.unregister_worker_plugin(self.plugin)
        if self._stopped:
            with contextlib.suppress(Exception):
                Event(_stop_name(self.topic), client=client).clear()  # frees it
        if self.owned:
            client.close()
            if self.cluster is not None:
                self.cluster.close()


class _RunStop:
    """The stop of a run on Dask (the runner's side of its :class:`Channel`)."""

    def __init__(self, executor: DaskExecutor) -> None:
        self.executor = executor
        self._set = False

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        if not self._set:
            self._set = True
            self.executor.stop()


def _explain(exc: BaseException, jobs: Sequence[Job]) -> BaseException:
    """A lost task's error naming its jobs; other errors as they are."""
    if type(exc).__name__ == "KilledWorker":
        first, last = jobs[0], jobs[-1]
        return TroefError(
            f"the chunk of jobs {first.id}..{last.id} ({len(jobs)} jobs, seeds "
            f"{first.seed}..{last.seed}) lost its Dask worker more often than the "
            "cluster allows (allowed-failures); stopping with the results so far "
            f"recorded: {exc}"
        )
    return exc


@dataclasses.dataclass
class _Session:
    """The client (and local cluster) every run inside a :func:`dask_session` uses."""

    address: str | None
    workers: int
    client: Client | None = None
    cluster: LocalCluster | None = None


_session: contextvars.ContextVar[_Session | None] = contextvars.ContextVar(
    "troef_dask_session", default=None
)


@contextlib.contextmanager
def dask_session(address: str | None, workers: int) -> Iterator[None]:
    """Let every Dask run started inside share one client and one local cluster.

    A ladder plays each round as a run; without a session each would start
    (and close) its own local cluster, seconds each. The cluster is started
    by the first run and closed when the session ends, also on an error or
    Ctrl-C. Runs asking for another address or size get their own.
    """
    session = _Session(address, workers)
    token = _session.set(session)
    try:
        yield
    finally:
        _session.reset(token)
        if session.client is not None:
            with contextlib.suppress(Exception):
                session.client.close()
        if session.cluster is not None:
            session.cluster.close()


def _connect(address: str | None, workers: int) -> tuple[Client, LocalCluster | None]:
    """A client of the cluster at ``address``, or of a new local cluster."""
    cluster = None
    try:
        if address is None:
            with dask.config.set(
                {
                    "distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                    # Bot hosts are started by workers; daemonic ones may not.
                    "distributed.worker.daemon": False,
                    # Dask's statistical profiler samples the playing thread
                    # every 10 ms: a few % of a worker's CPU nobody looks at.
                    "distributed.worker.profile.enabled": False,
                }
            ):
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    scheduler_kwargs=LOCAL_SCHEDULER,
                    silence_logs=logging.ERROR,
                )
            log.info("started a local Dask cluster at %s", cluster.scheduler_address)
            return Client(cluster, set_as_default=False), cluster
        return Client(address, set_as_default=False, timeout=10), None
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        where = address or "a local cluster"
        raise TroefError(f"cannot reach the Dask scheduler at {where}: {exc}") from None


def start_dask(
    address: str | None, workers: int, source: PluginSource
) -> tuple[DaskExecutor, Channel]:
    """Connect to ``address`` or start a local cluster of ``workers`` processes
    (or use the current :func:`dask_session`'s)."""
    session = _session.get()
    owned = session is None or (session.address, session.workers) != (
        address,
        workers,
    )
    if owned:
        client, cluster = _connect(address, workers)
    else:
        assert session is not None
        if session.client is None or session.client.status != "running":
            if session.cluster is not None:  # lost with its client: a new one
                with contextlib.suppress(Exception):
                    session.cluster.close()
            session.client, session.cluster = _connect(address, workers)
        client, cluster = session.client, session.cluster
    log.info(
        "running on the Dask scheduler at %s",
        address or (cluster.scheduler_address if cluster is not None else "?"),
    )
    topic = f"troef-results-{uuid.uuid4().hex}"
    results = queue.SimpleQueue[tuple[str, Result]]()

    def arrived(event: tuple[float, bytes]) -> None:
        for item in pickle.loads(event[1]):
            results.put(item)

    client.subscribe_topic(topic, arrived)
    worker = Worker(source, fingerprint(load_plugins(**dataclasses.asdict(source))))
    plugin = f"troef-{topic}"
    client.register_plugin(TroefWorkerPlugin(worker, topic), name=plugin)
    executor = DaskExecutor(client, cluster, plugin, topic, owned=owned)
    channel = Channel(results, _RunStop(executor))

    def scheduler_event(event: tuple[float, Any]) -> None:
        # Called in the client's thread; the scheduler takes the notice.
        notice = executor.worker_removed(event[1])
        if notice is not None:
            channel.notices.append(notice)

    # The scheduler's own events (a worker added or removed, ...): Dask's topic.
    client.subscribe_topic(SCHEDULER_TOPIC, scheduler_event)
    return executor, channel
