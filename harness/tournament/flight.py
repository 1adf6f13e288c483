"""What one pool is playing: the chunks in flight, the results they stream
back and their recording in batches; and how an interruption winds them down
(Ctrl-C or SIGTERM: no new match, :data:`GRACE` seconds for those in play).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from harness.contracts.result import Result
from harness.tournament.executors import Channel
from harness.tournament.plan import Job
from harness.tournament.store import Encoded

if TYPE_CHECKING:
    from harness.tournament.tracker import _Tracker

__all__ = ["GRACE"]

log = logging.getLogger("troef.scheduler")


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
