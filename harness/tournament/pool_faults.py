"""A broken pool: which process bot killed its worker (its forfeit), and
which jobs run again and how (alone when they keep breaking it); ending a
pool's workers at once.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import logging
import signal
import time
from typing import TYPE_CHECKING

from harness.contracts.errors import TroefError
from harness.contracts.result import Result
from harness.plugins import PluginSource
from harness.tournament.plan import Job

if TYPE_CHECKING:
    from harness.tournament.flight import _Flight

__all__ = ["MAX_BREAKS"]

log = logging.getLogger("troef.scheduler")

#: How often a chunk may break the pool before its jobs are tried one by one,
#: and how often one job may before the run stops with an error naming it.
MAX_BREAKS = 3


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
    *,
    pinned: bool = False,
) -> list[list[Job]]:
    """Put lost jobs back first; a job that keeps breaking the pool goes alone,
    as does one whose bot was awaited by a worker that died (``suspects``).

    One that breaks it still more often fails the run. ``pinned``: the death
    was pinned on a bot, which forfeits: the other lost jobs were ended with the
    pool through no fault of their own and are not counted (on a loaded machine
    two killer bots' races could otherwise charge one job seven deaths and stop
    the run), except the suspects, whose second catch must be seen.
    """
    suspects = suspects or set()
    for job in lost:
        if pinned and job.id not in suspects:
            continue
        breaks[job.id] = breaks.get(job.id, 0) + 1
        if breaks[job.id] > 2 * MAX_BREAKS:
            raise TroefError(
                f"job {job.id} (seed {job.seed}, seats {', '.join(job.seating)}) "
                f"killed its worker process {breaks[job.id]} times; stopping"
            )
    alone = [
        job for job in lost if breaks.get(job.id, 0) > MAX_BREAKS or job.id in suspects
    ]
    others = [job for job in lost if job not in alone]
    return [[job] for job in alone] + ([others] if others else []) + queue
