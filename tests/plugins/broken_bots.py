"""Deliberately broken bots, for the fault tests of process isolation.

Two kinds, in one file:

- plugin bots (``@hookimpl troef_bots``), served by ``harness.isolation.bothost``: they
  break inside ``act`` (raise, hang, exit, get killed, eat memory, ...);
- raw protocol bots, run as ``python broken_bots.py MODE [MARKER]``: they break
  the protocol itself (garbage, end of output, floods), which a plugin served
  by the host cannot do.

Every bot plays legally for ``after`` decisions first (a fault mid-match). With
a ``once`` marker path it breaks only if it is the first to create that file,
so the next match (on a fresh process) is played cleanly.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any, cast

from harness import Bot, Option, View, hookimpl


def _first_time(marker: str) -> bool:
    if not marker:
        return True
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


class Broken(Bot):
    """Plays the first legal action ``after`` times, then calls :meth:`fault`."""

    name = "broken"
    option_specs = (
        Option("after", 1, "legal decisions before the fault", minimum=0),
        Option("once", "", "marker file: break only when creating it"),
        Option("pidfile", "", "where a child process writes its pid"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves = 0
        self.breaks: bool | None = None  # decided at the first chance to break

    def act(self, view: View) -> str:
        self.moves += 1
        if self.moves > self.options["after"]:
            if self.breaks is None:
                self.breaks = _first_time(self.options["once"])
            if self.breaks:
                # Deliberately not always a str: the referee must forfeit it.
                return cast(str, self.fault(view))
        return view.legal_actions[0]

    def fault(self, view: View) -> object:
        raise NotImplementedError


class Raises(Broken):
    name = "raises"

    def fault(self, view: View) -> object:
        raise RuntimeError("my bug")


class Illegal(Broken):
    name = "illegal"

    def fault(self, view: View) -> object:
        return "XX"


class ReturnsInt(Broken):
    name = "returns-int"

    def fault(self, view: View) -> object:
        return 7


class ReturnsObject(Broken):
    name = "returns-object"

    def fault(self, view: View) -> object:
        return object()


class Hangs(Broken):
    name = "hangs"

    def fault(self, view: View) -> object:
        if self.options["pidfile"]:
            # A child in the bot's process group: the kill must take it too.
            child = subprocess.Popen(["sleep", "1000"])
            with open(self.options["pidfile"], "w") as f:
                f.write(str(child.pid))
        time.sleep(3600)
        return view.legal_actions[0]


class Exits(Broken):
    name = "exits"

    def fault(self, view: View) -> object:
        sys.stderr.write("exits: giving up\n")
        sys.stderr.flush()
        os._exit(3)


class Killed(Broken):
    name = "killed"

    def fault(self, view: View) -> object:
        os.kill(os.getpid(), signal.SIGKILL)
        return view.legal_actions[0]


class MemoryHog(Broken):
    name = "memory-hog"

    def fault(self, view: View) -> object:
        hoard = []
        while True:  # 64 MiB at a time until the limit stops it
            hoard.append(bytearray(64 * 1024 * 1024))


class Prints(Broken):
    """Prints to stdout and reads stdin, as a careless bot might: harmless."""

    name = "prints"

    def fault(self, view: View) -> object:
        print("thinking about", view.legal_actions, flush=True)
        sys.stdin.read()
        return view.legal_actions[0]


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    return [
        Raises,
        Illegal,
        ReturnsInt,
        ReturnsObject,
        Hangs,
        Exits,
        Killed,
        MemoryHog,
        Prints,
    ]


# -- raw protocol bots ---------------------------------------------------------


def _nested(levels: int = 30_000) -> bytes:
    """A JSON list nested ``levels`` deep (60 kB: under the line limit), which
    Python's own JSON parser cannot parse without a RecursionError."""
    return b"[" * levels + b"]" * levels


def _raw(mode: str, marker: str) -> None:
    """A protocol bot: answers ``ready``, plays once, then breaks as ``mode`` says."""
    out = sys.stdout.buffer
    acts = 0
    breaks = False
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if message["type"] == "start":
            if mode == "bad-version":
                out.write(b'{"type":"ready","protocol":99}\n')
            elif mode == "nested-ready":
                out.write(b'{"type":"ready","x":' + _nested() + b"}\n")
            else:
                out.write(b'{"type":"ready"}\n')
            out.flush()
            continue
        if message["type"] != "act":
            continue
        acts += 1
        legal = message["view"]["legal_actions"]
        if acts == 2:
            breaks = mode != "good" and _first_time(marker)
        if not breaks:
            out.write(
                json.dumps({"type": "action", "action": legal[0]}).encode() + b"\n"
            )
            out.flush()
            continue
        if mode == "not-json":
            out.write(b"hello, referee\n")
        elif mode == "wrong-shape":
            out.write(b'["9C"]\n')
        elif mode == "unknown-type":
            out.write(b'{"type":"move","card":"9C"}\n')
        elif mode == "eof":
            out.flush()
            os.close(1)
            time.sleep(3600)
        elif mode == "flood-line":
            chunk = b"x" * 65536
            while True:
                out.write(chunk)
        elif mode == "flood-lines":
            reply = json.dumps({"type": "action", "action": legal[0]}).encode() + b"\n"
            while True:
                out.write(reply * 1000)
        elif mode == "nested":
            out.write(b'{"type":"action","action":' + _nested() + b"}\n")
        elif mode == "two-replies":
            reply = json.dumps({"type": "action", "action": legal[0]}).encode() + b"\n"
            out.write(reply + reply)
        out.flush()
    sys.exit(0)


if __name__ == "__main__":
    _raw(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "")
