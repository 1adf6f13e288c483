"""An executor and a bot for the executor tests, loaded as a plugin file.

``noting`` is the inline executor that first writes its ``note`` setting to a
file (so a test sees that the plugin's executor ran, with its settings);
``kills-worker`` ends its worker process at its first move, every time.
"""

from __future__ import annotations

import concurrent.futures
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from harness import Bot, View, hookimpl
from harness.executor_plugins import ExecutorPlugin
from harness.executors import Channel, local_executor
from harness.plugins import PluginSource


class Noting(ExecutorPlugin):
    name = "noting"
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
        Path(settings["note"]).write_text("started")
        return local_executor("inline", workers, source, tmpdir=tmpdir)


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
