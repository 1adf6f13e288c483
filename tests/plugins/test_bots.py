"""Bots for harness tests, loaded as a plugin file: slow ones and destructive ones."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from harness import Bot, Option, View, hookimpl


class Sleepy(Bot):
    """Random play, slowed down so that a run lasts long enough to be killed."""

    name = "sleepy"
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("delay", 0.002, "seconds per decision", minimum=0.0),
    )

    def act(self, view: View) -> str:
        time.sleep(self.options["delay"])
        return self.rng.choice(view.legal_actions)


class KillsWorkerOnce(Bot):
    """Kills its worker process the first time any instance acts (a marker file
    remembers), then plays randomly: the scheduler must replace the worker."""

    name = "kills-worker-once"
    option_specs = (Option("marker", "", "file that records the kill"),)

    def act(self, view: View) -> str:
        try:
            # O_EXCL: of two workers racing here, exactly one dies.
            os.close(
                os.open(self.options["marker"], os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            )
        except FileExistsError:
            pass
        else:
            os._exit(3)
        return self.rng.choice(view.legal_actions)


class Chatty(Bot):
    """Logs one warning per match from wherever it runs, then plays randomly."""

    name = "chatty"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        logging.getLogger("troef.tests.chatty").warning(
            "chatty seat %d in pid %d", self.seat, os.getpid()
        )

    def act(self, view: View) -> str:
        return self.rng.choice(view.legal_actions)


class FailsToBuild(Bot):
    """Raises in its constructor: it forfeits before the first move."""

    name = "fails-to-build"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        raise RuntimeError("no table for this seat")

    def act(self, view: View) -> str:
        return view.legal_actions[0]


class Spawner(Sleepy):
    """Starts a long-lived helper in a new session (out of its own process group),
    writes a file in its working folder, then plays like Sleepy: nothing of it
    may outlive the run. The helper's command line names ``marker``."""

    name = "spawner"
    option_specs = (*Sleepy.option_specs, Option("marker", "", "names the helper"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import time; time.sleep(300)",
                self.options["marker"],
            ],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        with open("scratch.txt", "w") as f:
            f.write("a bot's own file")


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    return [Sleepy, KillsWorkerOnce, Chatty, FailsToBuild, Spawner]
