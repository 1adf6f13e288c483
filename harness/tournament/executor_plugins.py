"""The built-in executors, inline, process and dask, and their registry.

Their contract is :class:`~harness.contracts.executor.ExecutorPlugin`. They
register as the plugin ``troef-executors`` (which cannot be blocked) of every
registry a tournament loads: :func:`load_registry`, the plugin registry with
the built-in executors in it.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from harness.contracts.executor import ExecutorPlugin
from harness.contracts.hookspecs import hookimpl
from harness.plugins import PluginSource, Registry, load_plugins

if TYPE_CHECKING:
    from harness.tournament.executors import Channel

__all__ = [
    "DaskExecutorPlugin",
    "InlineExecutorPlugin",
    "ProcessExecutorPlugin",
    "executor_plugin",
    "executor_session",
    "load_registry",
    "snapshot_registry",
]

#: The plugin name the built-in executors are registered under.
BUILTIN_PLUGIN = "troef-executors"


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


def load_registry(
    *,
    entry_points: bool = True,
    modules: Iterable[str] = (),
    files: Iterable[str | Path] = (),
    blocked: Iterable[str] = (),
) -> Registry:
    """:func:`~harness.plugins.load_plugins` with the built-in executors in it:
    the registry every tournament command uses."""
    return load_plugins(
        entry_points=entry_points,
        modules=modules,
        files=files,
        blocked=blocked,
        builtins=[(BUILTIN_PLUGIN, sys.modules[__name__])],
    )


def snapshot_registry(snapshot: Mapping[str, Any]) -> Registry:
    """The registry a database's matches were played with: the entry points
    and the plugins its stored config snapshot names (files end in ``.py``,
    the rest are modules)."""
    plugins = [str(p) for p in snapshot.get("plugins", [])]
    return load_registry(
        files=[p for p in plugins if p.endswith(".py")],
        modules=[p for p in plugins if not p.endswith(".py")],
    )


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
    registry = load_registry(**asdict(source))
    return registry.executor_class(kind).session(dict(settings), workers)


@hookimpl
def troef_executors() -> Sequence[type[ExecutorPlugin]]:
    """The built-in executors."""
    return [InlineExecutorPlugin, ProcessExecutorPlugin, DaskExecutorPlugin]


def executor_plugin(kind: str, source: PluginSource) -> type[ExecutorPlugin]:
    """The class of executor ``kind`` (a built-in without loading the plugins)."""
    for builtin in (InlineExecutorPlugin, ProcessExecutorPlugin, DaskExecutorPlugin):
        if kind == builtin.name:
            return builtin
    return load_registry(**asdict(source)).executor_class(kind)
