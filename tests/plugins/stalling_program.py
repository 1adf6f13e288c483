"""A protocol bot for a system Python (stdlib only) that stalls once, on cue.

``python3 stalling_program.py FOLDER``: at its first decision it creates
``FOLDER/asked`` and answers only once ``FOLDER/go`` exists; every other
decision it answers at once (the first legal action). A test stops the
harness in between, to see what the harness charges the bot.
"""

from __future__ import annotations

import json
import os
import sys
import time


def main() -> None:
    folder = sys.argv[1]
    asked, go = os.path.join(folder, "asked"), os.path.join(folder, "go")
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if message["type"] == "start":
            out.write(b'{"type":"ready"}\n')
        elif message["type"] == "act":
            if not os.path.exists(asked):
                with open(asked, "w") as f:
                    f.write(str(os.getpid()))
                deadline = time.monotonic() + 120
                while not os.path.exists(go) and time.monotonic() < deadline:
                    time.sleep(0.01)
            action = message["view"]["legal_actions"][0]
            out.write(json.dumps({"type": "action", "action": action}).encode() + b"\n")
        else:
            continue
        out.flush()


if __name__ == "__main__":
    main()
