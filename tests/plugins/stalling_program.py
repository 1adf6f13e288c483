"""A protocol bot for a system Python (stdlib only) that stalls once, on cue.

``python3 stalling_program.py FOLDER [act|start]``: at its first decision
(``act``, the default), or at the first ``start`` after the one the start-up
probe sends (``start``), it creates ``FOLDER/asked`` and answers only once
``FOLDER/go`` exists; everything else it answers at once (the first legal
action). A test stops the harness in between, to see what the harness
charges the bot.
"""

from __future__ import annotations

import json
import os
import sys
import time


def stall(asked: str, go: str) -> None:
    """The first time: say so in ``asked``, and wait for ``go``."""
    if os.path.exists(asked):
        return
    with open(asked, "w") as f:
        f.write(str(os.getpid()))
    deadline = time.monotonic() + 120
    while not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.01)


def main() -> None:
    folder = sys.argv[1]
    at = sys.argv[2] if len(sys.argv) > 2 else "act"
    asked, go = os.path.join(folder, "asked"), os.path.join(folder, "go")
    probed = os.path.join(folder, "probed")
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if message["type"] == "start":
            if at == "start" and os.path.exists(probed):
                stall(asked, go)
            open(probed, "a").close()  # the first start is the probe's
            out.write(b'{"type":"ready"}\n')
        elif message["type"] == "act":
            if at == "act":
                stall(asked, go)
            action = message["view"]["legal_actions"][0]
            out.write(json.dumps({"type": "action", "action": action}).encode() + b"\n")
        else:
            continue
        out.flush()


if __name__ == "__main__":
    main()
