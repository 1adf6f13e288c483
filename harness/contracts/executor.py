"""The executor contract: where a run's chunks of jobs are played.

An executor kind is a class with a ``name``, the settings its ``[executor]``
table takes, and :meth:`ExecutorPlugin.start`, which returns a
``concurrent.futures`` executor and the
:class:`~harness.tournament.executors.Channel` its workers stream results to.
Plugins return such classes from the ``troef_executors`` hook; the built-ins
(inline, process, dask) are in :mod:`harness.tournament.executor_plugins`.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from harness.plugins import PluginSource
    from harness.tournament.executors import Channel

__all__ = ["ExecutorPlugin"]


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

        Its ``submit`` is called with :func:`harness.tournament.executors.run_jobs` and
        a
        chunk's arguments; its futures hold the chunk's (job id, Result) list,
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
