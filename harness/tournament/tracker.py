"""What a run records and counts: each arriving result written to the store,
handed to the monitor and the caller, and folded into the progress line's
leader; the run's summary (:class:`RunSummary`); the monitor's contract.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from harness.contracts.result import Result
from harness.stats.standings import Standing, standings
from harness.tournament.plan import Job
from harness.tournament.progress import Progress
from harness.tournament.store import Encoded, Store, decode_log

__all__ = ["Monitor", "RunSummary"]

log = logging.getLogger("troef.scheduler")


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
    #: The matches this run recorded void (the game plugin raised), with
    #: what ``Result.void`` says.
    void: list[tuple[Job, str]] = dataclasses.field(default_factory=list)


class Monitor(Protocol):
    """Watches results in plan order and may end a run early (an SPRT does)."""

    def feed(self, job: Job, result: Result) -> None:
        """Take one recorded result (any order; a monitor orders them itself),
        a void one too (``Result.void``: counted for nobody; an SPRT passes its
        group over)."""

    def done(self) -> bool:
        """True once no more jobs need to be played."""

    def progress(self) -> str:
        """Where the monitor stands, for the progress line."""


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
            for match in store.matches(void=True):
                self.done += 1
                if self._keep and match.result.void is None:
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
            if result.void is not None:
                # Counts for nobody: in no standing (an SPRT passes its group over).
                self.summary.void.append((job, result.void))
                self.note(result.void.partition("\n")[0])
            elif self._keep:
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
