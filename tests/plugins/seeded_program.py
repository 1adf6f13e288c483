"""A protocol bot for a system Python (stdlib only) whose play follows its seed.

``python3 seeded_program.py``: each decision it picks a legal action with a
``random.Random`` seeded by the ``start`` message's seed, so two runs play
alike exactly when they hand it the same bot seeds.
"""

from __future__ import annotations

import json
import random
import sys


def main() -> None:
    out = sys.stdout.buffer
    rng = random.Random(0)
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if message["type"] == "start":
            rng = random.Random(message["seed"])
            out.write(b'{"type":"ready"}\n')
        elif message["type"] == "act":
            action = rng.choice(message["view"]["legal_actions"])
            out.write(json.dumps({"type": "action", "action": action}).encode() + b"\n")
        else:
            continue
        out.flush()


if __name__ == "__main__":
    main()
