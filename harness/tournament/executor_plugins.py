"""Executors as plugins: the contract; the built-ins inline, process and dask.

An executor kind is a class with a ``name``, the settings its ``[executor]``
table takes, and :meth:`ExecutorPlugin.start`, which returns a
``concurrent.futures`` executor and the :class:`~harness.tournament.executors.Channel`
its workers stream results to. Plugins return such classes from the
``troef_executors`` hook; the built-ins below are registered the same way, by
:func:`~harness.plugins.load_plugins`, as the plugin ``troef-executors``.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from harness.contracts.hookspecs import hookimpl

if TYPE_CHECKING:
    from harness.plugins import PluginSource
    from harness.tournament.config import TournamentConfig
    from harness.tournament.executors import Channel

__all__ = [
    "DaskExecutorPlugin",
    "ExecutorPlugin",
    "InlineExecutorPlugin",
    "ProcessExecutorPlugin",
    "check_executor",
    "describe_executor",
    "executor_plugin",
    "executor_session",
]

#: The plugin name the built-in executors are registered under.
BUILTIN_PLUGIN = "troef-executors"


class ExecutorPlugin:
    """Where a run's chunks of jobs are played.

    ``settings`` maps each key of the config's ``[executor]`` table (besides
    ``name``) to its accepted type and a description of what it takes; the
    config checks them with its usual file:line:key errors, then
    :meth:`check` sees the whole table.
    """

    name: ClassVar[str]
    settings: ClassVar[Mapping[str, tuple[type, str]]] = {}
    #: The most jobs the scheduler puts in a chunk unless the config's
    #: ``chunk`` says (chunks shrink to at most 32 as the plan runs out):
    #: more where sending a chunk costs more.
    max_chunk: ClassVar[int] = 32
    #: An SPRT's chunk size unless the config's ``chunk`` says: small, because
    #: what a worker plays ahead of the plan-order verdict is played for
    #: nothing; larger where a chunk shorter than a task's round trip would
    #: leave the workers waiting.
    sprt_chunk: ClassVar[int] = 2

    @classmethod
    def check(cls, settings: Mapping[str, Any]) -> tuple[str, str] | None:
        """(key, problem) of the first bad setting, or None (types already checked)."""
        return None

    @classmethod
    def missing(cls) -> str | None:
        """What this executor needs that is not installed, and how to install
        it; None when it can start. ``troef validate`` and ``troef run`` ask
        before a database or lock file is made."""
        return None

    @classmethod
    def start(
        cls,
        settings: Mapping[str, Any],
        workers: int,
        source: PluginSource,
        *,
        tmpdir: str | None = None,
    ) -> tuple[concurrent.futures.Executor, Channel]:
        """An executor for ``workers`` chunks at once and its result channel.

        Its ``submit`` is called with
        :func:`harness.tournament.executors.run_jobs` and a chunk's arguments;
        its futures hold the chunk's (job id, Result) list,
        a match per job played: its Result None where the match was already
        streamed to the channel, so that the runner awaits it there. The
        channel's ``stop`` is set when the run stops (Ctrl-C, SIGTERM, an
        SPRT's verdict): from then on no chunk may start another match.
        """
        raise NotImplementedError

    @classmethod
    def session(
        cls, settings: Mapping[str, Any], workers: int
    ) -> contextlib.AbstractContextManager[None]:
        """What the runs started inside may share (a ladder's rounds): by
        default nothing; each :meth:`start` stands alone."""
        return contextlib.nullcontext()


class _LocalExecutorPlugin(ExecutorPlugin):
    """An executor on this machine, of the kind its ``name`` says."""

    #: A chunk costs the runner a submission, a wake-up and a return; large
    #: ones early halve its CPU per one-deal match (``bench_scheduler.py``).
    max_chunk = 256

    @classmethod
    def start(
        cls,
        settings: Mapping[str, Any],
        workers: int,
        source: PluginSource,
        *,
        tmpdir: str | None = None,
    ) -> tuple[concurrent.futures.Executor, Channel]:
        from harness.tournament.executors import local_executor

        return local_executor(cls.name, workers, source, tmpdir=tmpdir)


class InlineExecutorPlugin(_LocalExecutorPlugin):
    """Every chunk at once in this process (tests, debugging)."""

    name = "inline"


class ProcessExecutorPlugin(_LocalExecutorPlugin):
    """A pool of ``workers`` local worker processes (the default)."""

    name = "process"
    #: An SPRT of 1,200 default-length Klaverjassen matches on 2 workers ran
    #: at 860 matches/s in chunks of 2, 1,000 in chunks of 8 (a chunk in play
    #: stops at the verdict: a worker plays at most a chunk past it). Inline
    #: keeps 2: its chunks play whole before the verdict is looked at.
    sprt_chunk = 8


class DaskExecutorPlugin(ExecutorPlugin):
    """A ``dask.distributed`` cluster: one at ``address``, or a local one."""

    name = "dask"
    #: A task costs the runner and the worker some 2-3 ms (the client, the
    #: scheduler) and a new one reaches a worker some 20 ms after the last
    #: ended: a chunk of 32 one-deal matches (6 ms) left the workers waiting.
    max_chunk = 256
    #: An SPRT of 1,200 default-length matches on a 2-worker local cluster kept
    #: 0.44x the process pool's pace (in its chunks of 8) in chunks of 2, 0.84x
    #: in chunks of 16, 0.94x in chunks of 32 (runs of 1.3 s, in which Dask's
    #: 0.2 s a run counts); a worker plays at most a chunk past the verdict.
    sprt_chunk = 16
    settings: ClassVar[Mapping[str, tuple[type, str]]] = {
        "address": (
            str,
            'the scheduler of a running cluster, e.g. "tcp://host:8786" '
            "(default: a local cluster of 'workers' processes)",
        ),
        "workers": (
            int,
            "worker processes of the local cluster, or chunks in play at once "
            "on the cluster at 'address' (an integer from 1 to 256)",
        ),
    }

    @classmethod
    def check(cls, settings: Mapping[str, Any]) -> tuple[str, str] | None:
        address = settings.get("address")
        if address is not None and "://" not in address:
            return "address", (
                f"{address!r} is not allowed; expected a scheduler address such "
                'as "tcp://host:8786"'
            )
        return None

    @classmethod
    def missing(cls) -> str | None:
        # Imported, not just looked up: a broken install fails here too.
        try:
            import distributed  # noqa: F401
        except ImportError as exc:
            return (
                f"executor 'dask' needs the package distributed ({exc}); install "
                "it from the troef checkout with pip install -e '.[dask]' (or "
                "pip install distributed)"
            )
        return None

    @classmethod
    def start(
        cls,
        settings: Mapping[str, Any],
        workers: int,
        source: PluginSource,
        *,
        tmpdir: str | None = None,
    ) -> tuple[concurrent.futures.Executor, Channel]:
        from harness.contracts.errors import TroefError

        problem = cls.missing()
        if problem is not None:
            raise TroefError(problem)
        from harness.tournament.dask_executor import start_dask

        return start_dask(settings.get("address"), workers, source)

    @classmethod
    def session(
        cls, settings: Mapping[str, Any], workers: int
    ) -> contextlib.AbstractContextManager[None]:
        """One client and local cluster for every run inside (not one a run)."""
        try:
            from harness.tournament.dask_executor import dask_session
        except ImportError:  # start() says what to install
            return contextlib.nullcontext()
        return dask_session(settings.get("address"), workers)


def executor_session(
    kind: str,
    workers: int,
    source: PluginSource,
    settings: Sequence[tuple[str, Any]] = (),
) -> contextlib.AbstractContextManager[None]:
    """The session of executor ``kind`` (see :meth:`ExecutorPlugin.session`),
    for a command that starts several runs, as ``troef ladder run`` does."""
    if kind in (InlineExecutorPlugin.name, ProcessExecutorPlugin.name):
        return contextlib.nullcontext()  # without loading the plugins again
    from dataclasses import asdict

    from harness.plugins import load_plugins

    registry = load_plugins(**asdict(source))
    return registry.executor_class(kind).session(dict(settings), workers)


def check_executor(config: TournamentConfig) -> None:
    """Refuse ``config``'s executor if its packages are missing, naming the
    config's file, line and key and the install command (``validate``, and
    ``run`` before it makes a database or lock file).

    :raises ConfigError: the executor cannot start here.
    """
    from harness.tournament.config import config_error

    problem = executor_plugin(config.executor, config.plugin_source).missing()
    if problem is not None:
        table = isinstance(config.raw.get("executor"), dict)
        raise config_error(
            config,
            "executor" if table else "",
            "name" if table else "executor",
            problem,
        )


def describe_executor(config: TournamentConfig) -> str:
    """The executor of ``config`` for ``troef validate``: its kind and where
    its workers are (unset workers: one per core of the machine that runs)."""
    settings = dict(config.executor_settings)
    workers = config.workers
    count = "one worker per core" if workers is None else f"{workers} workers"
    if config.executor == "dask":
        address = settings.get("address")
        if address is None:
            return f"dask, a local cluster on the loopback interface of {count}"
        if workers is None:
            return (
                f"dask, the cluster at {address} (chunks in play at once: one per "
                "core here; set workers to the cluster's worker processes)"
            )
        return f"dask, the cluster at {address} ({workers} chunks in play at once)"
    if config.executor == "process":
        return f"process, a local pool of {count}"
    if config.executor == "inline":
        return "inline, every match in this process"
    extra = "".join(f", {k} = {v!r}" for k, v in settings.items())
    return f"{config.executor} ({count}{extra})"


@hookimpl
def troef_executors() -> Sequence[type[ExecutorPlugin]]:
    """The built-in executors."""
    return [InlineExecutorPlugin, ProcessExecutorPlugin, DaskExecutorPlugin]


def executor_plugin(kind: str, source: PluginSource) -> type[ExecutorPlugin]:
    """The class of executor ``kind`` (a built-in without loading the plugins)."""
    for builtin in (InlineExecutorPlugin, ProcessExecutorPlugin, DaskExecutorPlugin):
        if kind == builtin.name:
            return builtin
    from dataclasses import asdict

    from harness.plugins import load_plugins

    return load_plugins(**asdict(source)).executor_class(kind)
