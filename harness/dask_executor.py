"""The Dask executor: a run's chunks as tasks on a ``dask.distributed`` cluster.

Needs the ``dask`` extra (``pip install 'troef[dask]'``). The runner connects
to the scheduler at ``address``, or starts a local cluster of ``workers``
worker processes on the loopback interface, and registers a
:class:`~harness.workers.Worker` as a Dask worker plugin: each Dask worker
process unpickles it once, loads the plugins on its first chunk and checks
that it runs the runner's troef and plugin code.

Finished matches are streamed to the runner as Dask events (pickled lists of
(job id, Result) on a topic of this run, each at most 0.1 s after it ends), and the
chunk's return value brings the same results again; the scheduler records
each job once. A
worker that dies takes its task with it; Dask's scheduler runs the task again
on another worker. A task that loses its worker twice (``allowed-failures``
of 1 on a local cluster; the cluster's own setting at an ``address``) fails
the run with an error naming its jobs instead of retrying forever.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import logging
import pickle
import threading
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import dask
from distributed import Client, LocalCluster, get_worker
from distributed import Worker as DaskWorker
from distributed.diagnostics.plugin import WorkerPlugin

from harness.errors import TroefError
from harness.executors import Channel, run_jobs
from harness.plan import Job
from harness.plugins import PluginSource, load_plugins
from harness.result import Result
from harness.workers import Worker, fingerprint

__all__ = ["DaskExecutor", "start_dask"]

log = logging.getLogger("troef.dask")

#: Tries a task gets on a local cluster before its loss fails the run: a chunk
#: whose worker dies runs once more, then is recorded as a failure.
ALLOWED_FAILURES = 1

#: Most seconds a finished match waits on its worker before it is streamed to
#: the runner (a killed runner loses at most this much of each worker's play).
STREAM_INTERVAL = 0.1


class TroefWorkerPlugin(WorkerPlugin):
    """Keeps a :class:`Worker` on each Dask worker; plays chunks with it."""

    def __init__(self, worker: Worker, topic: str) -> None:
        self.worker = worker
        self.topic = topic

    def setup(self, worker: DaskWorker) -> None:
        self.worker.where = f"Dask worker {worker.address}"
        # Each match goes to the runner as an event as soon as it ends.
        self.worker.channel = Channel(_Events(worker, self.topic), threading.Event())

    def teardown(self, worker: DaskWorker) -> None:
        # Bot processes kept for reuse end with the worker.
        from harness.botprocess import default_pool

        default_pool.close()


class _Events:
    """A results queue whose ``put`` sends results to the runner as events.

    A finished match waits at most :data:`STREAM_INTERVAL` seconds, so that
    the matches of a fast game go in batches: an event per match would cost
    the scheduler more than the match.
    """

    def __init__(self, worker: DaskWorker, topic: str) -> None:
        self.worker = worker
        self.topic = topic
        self.lock = threading.Lock()
        self.batch: list[tuple[str, Result]] = []

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
            self.worker.log_event(self.topic, pickle.dumps(batch))

    def get_nowait(self) -> tuple[str, Result]:
        raise NotImplementedError("the runner reads the events, not the worker")


def _play_chunk(
    plugin: str,
    jobs: Sequence[Job],
    keep_logs: bool,
    in_flight: int,
    secret: bytes = b"",
) -> list[tuple[str, Result]]:
    """The task: play ``jobs`` with this Dask worker's :class:`Worker`."""
    dask_worker = get_worker()
    troef = dask_worker.plugins[plugin]
    assert isinstance(troef, TroefWorkerPlugin)
    return troef.worker.play(jobs, keep_logs, in_flight, secret)


class DaskExecutor(concurrent.futures.Executor):
    """A ``concurrent.futures`` face on a Dask client (and its local cluster).

    ``submit`` takes :func:`~harness.executors.run_jobs` and a chunk's
    arguments and runs them as a Dask task with the registered worker plugin.
    A future is marked running at once: Ctrl-C cannot cancel a chunk that a
    worker may be playing; the scheduler waits for it as for a pool's.
    """

    def __init__(
        self,
        client: Client,
        cluster: LocalCluster | None,
        plugin: str,
        topic: str,
    ) -> None:
        self.client = client
        self.cluster = cluster
        self.plugin = plugin
        self.topic = topic
        self._futures: list[Any] = []
        self._closed = False

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        if fn is not run_jobs:
            raise TypeError("the Dask executor runs chunks of jobs (run_jobs) only")
        jobs: Sequence[Job] = args[0]
        task = self.client.submit(_play_chunk, self.plugin, *args, **kwargs, pure=False)
        self._futures.append(task)
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.set_running_or_notify_cancel()

        def done(task: Any) -> None:
            try:
                future.set_result(task.result())
            except BaseException as exc:
                future.set_exception(_explain(exc, jobs))

        task.add_done_callback(done)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel what is left, disconnect, and close a local cluster fully."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            self.client.unsubscribe_topic(self.topic)
        if cancel_futures or not wait:
            with contextlib.suppress(Exception):
                self.client.cancel(self._futures)
        with contextlib.suppress(Exception):
            self.client.unregister_worker_plugin(self.plugin)
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


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


def start_dask(
    address: str | None, workers: int, source: PluginSource
) -> tuple[DaskExecutor, Channel]:
    """Connect to ``address`` or start a local cluster of ``workers`` processes."""
    cluster = None
    try:
        if address is None:
            with dask.config.set(
                {
                    "distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                    # Bot hosts are started by workers; daemonic ones may not.
                    "distributed.worker.daemon": False,
                }
            ):
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            client = Client(cluster, set_as_default=False)
        else:
            client = Client(address, set_as_default=False, timeout=10)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        where = address or "a local cluster"
        raise TroefError(f"cannot reach the Dask scheduler at {where}: {exc}") from None
    topic = f"troef-results-{uuid.uuid4().hex}"
    channel = Channel()
    results = channel.results

    def arrived(event: tuple[float, bytes]) -> None:
        for item in pickle.loads(event[1]):
            results.put(item)

    client.subscribe_topic(topic, arrived)
    worker = Worker(source, fingerprint(load_plugins(**dataclasses.asdict(source))))
    plugin = f"troef-{topic}"
    client.register_plugin(TroefWorkerPlugin(worker, topic), name=plugin)
    return DaskExecutor(client, cluster, plugin, topic), channel
