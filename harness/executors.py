"""Where jobs run: in this process, or in a local pool of worker processes.

Both are ``concurrent.futures`` executors running :func:`run_jobs`. Each worker
process builds its plugin registry once, in the pool's initializer, from the
same plugin source as the parent: a registry does not pickle, and jobs carry
names only.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from harness.game import Game
from harness.plan import Job
from harness.plugins import PluginSource, Registry, load_plugins
from harness.referee import forfeit_result, play_match
from harness.result import Forfeit, ForfeitReason
from harness.seeding import bot_seed

__all__ = ["InlineExecutor", "make_executor", "run_jobs"]

# The registry of this worker process: the one piece of module-level mutable
# state the design allows (built once per process by init_worker).
_registry: Registry | None = None
_games: dict[tuple[str, tuple[tuple[str, Any], ...]], Game] = {}


def init_worker(source: PluginSource, *, ignore_sigint: bool = True) -> None:
    """Load the plugins once in a worker process."""
    global _registry
    if ignore_sigint:
        # The parent handles Ctrl-C and stops the pool; workers must not die mid-write.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _registry = load_plugins(**asdict(source))
    _games.clear()


def run_jobs(jobs: Sequence[Job], keep_logs: bool) -> list[tuple[str, dict[str, Any]]]:
    """Play ``jobs`` in order; return (job id, result as plain data) for each."""
    if _registry is None:
        raise RuntimeError("run_jobs called in a process whose plugins are not loaded")
    return [(job.id, _play(_registry, job, keep_logs).to_dict()) for job in jobs]


def _play(registry: Registry, job: Job, keep_logs: bool):  # type: ignore[no-untyped-def]
    key = (job.game, job.options)
    game = _games.get(key)
    if game is None:
        game = _games[key] = registry.game(job.game, dict(job.options))
    bots = []
    for seat, (name, options) in enumerate(job.bots):
        try:
            cls = registry.bot_class(name, job.game)
            bots.append(cls(game, seat, bot_seed(job.seed, seat), dict(options)))
        except Exception:
            # A bot that cannot even be built forfeits before the first move.
            state = game.new_match(len(job.bots), job.seed)
            forfeit = Forfeit(seat, ForfeitReason.EXCEPTION, traceback.format_exc(limit=-8))
            return forfeit_result(state, forfeit, () if keep_logs else None)
    return play_match(game, bots, job.seed, keep_log=keep_logs)


class InlineExecutor(concurrent.futures.Executor):
    """Runs each submitted call at once, in this process (for tests and debugging)."""

    def __init__(self, source: PluginSource) -> None:
        init_worker(source, ignore_sigint=False)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


def make_executor(kind: str, workers: int, source: PluginSource) -> concurrent.futures.Executor:
    """An executor of ``kind`` (``process`` or ``inline``) with ``workers`` processes."""
    if kind == "inline":
        return InlineExecutor(source)
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork" if os.name == "posix" else "spawn"),
        initializer=init_worker,
        initargs=(source,),
    )
