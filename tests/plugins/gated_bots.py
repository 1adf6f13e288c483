"""A bot whose matches wait at a gate the test opens: results land on cue.

``gated`` with the option ``gate`` (a folder): at its first decision of a
match, the bot takes the next number ``n`` (it creates ``asked-n`` there, the
first free one) and plays on only once ``go-n`` exists, then plays randomly.
With one worker the matches of a run are played one at a time, so a test
that opens ``go-1``, then ``go-2``, sees each result land after its own cue
(the live view of ``troef serve DB``, ``tests/harness/test_serve_live.py``).
"""

from __future__ import annotations

import os
import time
from typing import Any, ClassVar

from harness import Bot, Option, View, hookimpl

#: Seconds a gate stays shut at most: a test that fails never strands the run.
LONGEST = 120.0


class Gated(Bot):
    """Random play after the gate of its match's number opens."""

    name = "gated"
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("gate", "", "folder of the asked-N and go-N files"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._through = False

    def act(self, view: View) -> str:
        if not self._through:
            self._through = True
            self._wait(self.options["gate"])
        return self.rng.choice(view.legal_actions)

    @staticmethod
    def _wait(folder: str) -> None:
        n = 1
        while True:
            try:
                # O_EXCL: each match takes a number of its own.
                os.close(
                    os.open(
                        os.path.join(folder, f"asked-{n}"),
                        os.O_CREAT | os.O_EXCL | os.O_WRONLY,
                    )
                )
                break
            except FileExistsError:
                n += 1
        go = os.path.join(folder, f"go-{n}")
        deadline = time.monotonic() + LONGEST
        while not os.path.exists(go) and time.monotonic() < deadline:
            time.sleep(0.01)


@hookimpl
def troef_bots() -> list[type[Bot]]:
    return [Gated]
