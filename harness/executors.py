"""Where jobs run: in this process, or in a local pool of worker processes.

Both are ``concurrent.futures`` executors running :func:`run_jobs`. Each worker
process builds its plugin registry once, in the pool's initializer, from the
same plugin source as the parent: a registry does not pickle, and jobs carry
names only.
"""

from __future__ import annotations

import concurrent.futures
import functools
import multiprocessing
import os
import signal
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from harness.bot import Bot
from harness.botprocess import die_with_parent
from harness.game import Game
from harness.multiplex import MatchSpec, play_matches_interleaved
from harness.plan import Job
from harness.plugins import PluginSource, Registry, load_plugins
from harness.referee import abandon_bots, forfeit_before_start, play_match
from harness.result import ForfeitReason, Result
from harness.seeding import bot_seed

__all__ = ["InlineExecutor", "make_executor", "run_jobs"]

# The registry of this worker process: the one piece of module-level mutable
# state the design allows (built once per process by init_worker).
_registry: Registry | None = None
_games: dict[tuple[str, tuple[tuple[str, Any], ...]], Game] = {}


def init_worker(
    source: PluginSource, parent: int | None = None, *, ignore_sigint: bool = True
) -> None:
    """Load the plugins once in a worker process.

    :param parent: the pid of the process that owns the pool; the worker dies
        with it (so a killed ``troef run`` leaves no workers behind).
    """
    global _registry
    if parent is not None:
        die_with_parent(parent)
    if ignore_sigint:
        # The parent handles Ctrl-C and stops the pool; workers must not die mid-write.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _registry = load_plugins(**asdict(source))
    _games.clear()


def run_jobs(
    jobs: Sequence[Job], keep_logs: bool, in_flight: int = 4
) -> list[tuple[str, Result]]:
    """Play ``jobs``; return (job id, Result) for each, in order.

    A Result is a frozen dataclass of tuples, ints and strings: it pickles
    compactly (repeated action strings are pickled once) and needs no
    conversion on either side of the process boundary.

    When any bot runs in its own process, up to ``in_flight`` matches are
    interleaved so that the worker never idles waiting on one bot's pipe.
    """
    if _registry is None:
        raise RuntimeError("run_jobs called in a process whose plugins are not loaded")
    registry = _registry
    specs = [_spec(registry, job, keep_logs) for job in jobs]
    if any(any(job.process) for job in jobs) and in_flight > 1:
        results = play_matches_interleaved(specs, in_flight=in_flight)
    else:
        results = [_play(spec) for spec in specs]
    return list(zip((job.id for job in jobs), results, strict=True))


def _game(registry: Registry, job: Job) -> Game:
    key = (job.game, job.options)
    game = _games.get(key)
    if game is None:
        game = _games[key] = registry.game(job.game, dict(job.options))
    return game


def _spec(registry: Registry, job: Job, keep_logs: bool) -> MatchSpec:
    """The match of ``job`` with a factory per seat (bots are built when it starts)."""
    game = _game(registry, job)
    n_seats = len(job.bots)
    factories: list[Callable[[], Bot]] = []
    for seat, (name, options) in enumerate(job.bots):
        seed = bot_seed(job.seed, seat)
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

    def __init__(self, source: PluginSource) -> None:
        init_worker(source, ignore_sigint=False)

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


def make_executor(
    kind: str, workers: int, source: PluginSource
) -> concurrent.futures.Executor:
    """An executor of ``kind``: ``process`` (``workers`` processes) or ``inline``."""
    if kind == "inline":
        return InlineExecutor(source)
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(
            "fork" if os.name == "posix" else "spawn"
        ),
        initializer=init_worker,
        initargs=(source, os.getpid()),
    )
