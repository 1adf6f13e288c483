"""A protocol bot for a system Python (stdlib only), run as another user.

``python3 nobody_probe.py FILE...``: at its first decision it tries to read
each FILE and to signal its parent (the worker) and grandparent (``troef
run``) with signal 0. What it reached it names in an illegal action
(``REACHED:...``), so the forfeit detail tells the test; reaching nothing, it
plays the first legal action every time.
"""

from __future__ import annotations

import json
import os
import sys


def reached(files: list[str]) -> list[str]:
    found = []
    for path in files:
        try:
            with open(path, "rb") as f:
                f.read(16)
            found.append(os.path.basename(path))
        except OSError:
            pass
    parent = os.getppid()
    try:
        with open(f"/proc/{parent}/stat") as f:
            grandparent = int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        grandparent = 0
    for name, pid in (("signal-worker", parent), ("signal-run", grandparent)):
        try:
            if pid > 1:
                os.kill(pid, 0)
                found.append(name)
        except OSError:
            pass
    return found


def main() -> None:
    out = sys.stdout.buffer
    first = True
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if message["type"] == "start":
            out.write(b'{"type":"ready"}\n')
        elif message["type"] == "act":
            action = message["view"]["legal_actions"][0]
            if first:
                first = False
                found = reached(sys.argv[1:])
                if found:
                    action = "REACHED:" + ",".join(found)
            out.write(json.dumps({"type": "action", "action": action}).encode() + b"\n")
        else:
            continue
        out.flush()


if __name__ == "__main__":
    main()
