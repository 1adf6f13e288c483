"""An executor and a bot for the executor tests, loaded as a plugin file.

``noting`` is the inline executor that first writes "started" to its ``note``
setting's file, then a line with each chunk's size (so a test sees that the
plugin's executor ran, with its settings, and the chunks it was given: at most
``max_chunk`` = 7 jobs, and ``sprt_chunk`` = 5 for an SPRT);
``kills-worker`` ends its worker process at its first move, every time.
"""

from __future__ import annotations

import concurrent.futures
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from harness import Bot, View, hookimpl
from harness.contracts.executor import ExecutorPlugin
from harness.plugins import PluginSource
from harness.tournament.executors import Channel, local_executor


class Noting(ExecutorPlugin):
    name = "noting"
    max_chunk = 7
    sprt_chunk = 5
    settings: ClassVar[Mapping[str, tuple[type, str]]] = {
        "note": (str, "a file the executor writes 'started' to"),
    }

    @classmethod
    def check(cls, settings: Mapping[str, Any]) -> tuple[str, str] | None:
        if "note" not in settings:
            return "note", "missing; expected a file path"
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
        note = Path(settings["note"])
        note.write_text("started")
        executor, channel = local_executor("inline", workers, source, tmpdir=tmpdir)
        return _NotingChunks(executor, note), channel


class _NotingChunks(concurrent.futures.Executor):
    """An executor that notes the size of each chunk, then hands it on."""

    def __init__(self, inner: concurrent.futures.Executor, note: Path) -> None:
        self.inner = inner
        self.note = note

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        with self.note.open("a") as f:
            f.write(f"\n{len(args[0])}")
        return self.inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.inner.shutdown(wait, cancel_futures=cancel_futures)


class KillsWorker(Bot):
    name = "kills-worker"

    def act(self, view: View) -> str:
        os._exit(3)


@hookimpl
def troef_executors() -> Sequence[type[ExecutorPlugin]]:
    return [Noting]


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    return [KillsWorker]
