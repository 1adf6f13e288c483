"""A worker that owns its state: plugins loaded once, chunks of jobs played
(:func:`play_chunk`: each match built from its job and played, one after the
other or interleaved when bots run in their own process).

A :class:`Worker` is built from a :class:`~harness.plugins.PluginSource` and
the runner's :func:`fingerprint`; it pickles as those two alone, so it can be
sent to any worker process (a Dask worker keeps it as a worker plugin). The
first chunk it plays loads the plugins and checks that this process runs the
same troef and the same plugin code as the runner: a worker that differs
refuses the work with :class:`WorkerMismatch` instead of producing other results.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import inspect
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.contracts.bot import Bot
from harness.contracts.errors import GameFault, TroefError
from harness.contracts.game import Game
from harness.contracts.result import ForfeitReason, Result
from harness.contracts.seeding import bot_seed
from harness.isolation.multiplex import MatchSpec, play_matches_interleaved
from harness.match.referee import (
    abandon_bots,
    forfeit_before_start,
    place_fault,
    play_match,
)
from harness.plugins import PluginSource, Registry, load_plugins
from harness.tournament.plan import Job

if TYPE_CHECKING:
    from harness.tournament.executors import Channel

__all__ = ["Worker", "WorkerMismatch", "fingerprint", "name_void", "play_chunk"]

#: troef's engine: every module of ``harness/`` and its subpackages.
_HARNESS = Path(__file__).parents[1]


class WorkerMismatch(TroefError):
    """A worker runs another troef or other plugin code than the runner."""


def _digest(paths: Sequence[Path]) -> str:
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.name.encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


#: The digest of troef's own sources as this process imported them: taken at
#: import, so that files edited later do not pass for the code that runs.
_HARNESS_DIGEST = _digest(list(_HARNESS.rglob("*.py")))


def fingerprint(registry: Registry) -> dict[str, str]:
    """What the results depend on besides the jobs: troef's version and code,
    and, per plugin, a digest of the source files of the classes it registers.

    The harness's own sources are digested too, since an editable install
    keeps one version number across changes.
    """
    found: dict[str, str] = {
        "troef": f"{importlib.metadata.version('troef')} ({_HARNESS_DIGEST})",
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
    }
    files: dict[str, set[Path]] = {}
    tables: dict[str, dict[str, Any]] = {
        "game": dict(registry.games),
        "bot": dict(registry.bots),
        "executor": dict(registry.executors),
    }
    for (kind, name), plugin in registry.provider.items():
        source = inspect.getsourcefile(tables[kind][name])
        if source is not None:
            files.setdefault(plugin, set()).add(Path(source))
    for plugin, paths in sorted(files.items()):
        found[f"plugin {plugin}"] = _digest(sorted(paths))
    return found


def _differences(mine: dict[str, str], theirs: dict[str, str]) -> list[str]:
    return [
        f"{key}: worker has {mine.get(key, 'none')}, runner has "
        f"{theirs.get(key, 'none')}"
        for key in sorted(set(mine) | set(theirs))
        if mine.get(key) != theirs.get(key)
    ]


@dataclass
class Worker:
    """Plays chunks of jobs in one worker process; loads the plugins once.

    :param source: how the runner loaded its plugins.
    :param expected: the runner's :func:`fingerprint` (None: not checked).
    :param where: names this worker in messages (e.g. its Dask address).
    """

    source: PluginSource
    expected: dict[str, str] | None = None
    where: str = "a worker"
    #: Where each finished match is streamed, and the stop signal (not pickled:
    #: each executor gives its workers their own).
    channel: Channel | None = field(default=None, repr=False, compare=False)
    _registry: Registry | None = field(default=None, repr=False, compare=False)
    _games: dict[Any, Game] = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        # Only how to build the state travels; the state is built where it runs.
        return {"source": self.source, "expected": self.expected, "where": self.where}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def load(self) -> Registry:
        """The registry, loaded and checked on first use.

        :raises WorkerMismatch: this process's troef or plugins differ from
            the runner's.
        """
        if self._registry is None:
            registry = load_plugins(**asdict(self.source))
            if self.expected is not None:
                differences = _differences(fingerprint(registry), self.expected)
                if differences:
                    raise WorkerMismatch(
                        f"{self.where} refuses the work: it runs other code than "
                        f"the runner ({'; '.join(differences)}); install the same "
                        "troef and plugins on every worker (docs/DISTRIBUTED.md)"
                    )
            self._registry = registry
        return self._registry

    def play(
        self,
        jobs: Sequence[Job],
        keep_logs: bool,
        in_flight: int = 4,
        secret: bytes = b"",
    ) -> list[tuple[str, Result]]:
        """Play ``jobs``; return (job id, Result) for each, in order (plain data).

        ``secret`` keys the bot seeds (``harness.contracts.seeding.bot_seed``)."""
        return play_chunk(
            self.load(), self._games, self.channel, jobs, keep_logs, in_flight, secret
        )


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
            channel.results.put(
                (jobs[index].id, name_void(registry, jobs[index], result))
            )

    if any(any(job.process) for job in jobs) and in_flight > 1:
        results = play_matches_interleaved(
            until_stopped(), in_flight=in_flight, on_result=stream
        )
    else:
        results = []
        for index, spec in enumerate(until_stopped()):
            results.append(_play(spec))
            stream(index, results[-1])
    return [
        (job.id, name_void(registry, job, result))
        for job, result in zip(jobs, results, strict=False)
    ]


def name_void(registry: Registry, job: Job, result: Result) -> Result:
    """``result``, a void one naming the plugin of its game and its match.

    The referee knows the game, not where it came from nor which match of the
    plan it played: the record names both, so an organiser finds the plugin
    to fix and the match to look at (``troef matches``).
    """
    if result.void is None:
        return result
    plugin = registry.provider.get(("game", job.game), "?")
    where = f"in match {job.index} ({job.id}), plugin {plugin!r}"
    return replace(result, void=place_fault(result.void, where))


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
            try:
                return forfeit_before_start(
                    spec.game,
                    len(spec.bots),
                    spec.seed,
                    seat,
                    ForfeitReason.EXCEPTION,
                    traceback.format_exc(limit=-8),
                    spec.keep_log,
                )
            except GameFault as fault:
                return fault.result
    try:
        return play_match(
            spec.game,
            bots,
            spec.seed,
            keep_log=spec.keep_log,
            time_controls=spec.time_controls,
        )
    except GameFault as fault:
        # The game's fault: this match is void, the chunk plays on.
        return fault.result
