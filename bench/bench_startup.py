"""Start-up time of the ``troef`` command line.

Runs each command as a fresh process (the installed console script's Python,
``python -m harness``) ``--repeats`` times and prints the median and the
spread of the wall time, with the goal of issue 14: ``troef --help`` and
``troef games`` under 0.3 s on an idle machine. A bare ``python -c pass`` is
timed alongside as the floor: what the interpreter costs before troef does
anything. It is a script, not a test: it never fails because something is slow.

    python bench/bench_startup.py [--repeats 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

GOAL_SECONDS = 0.3

COMMANDS: dict[str, list[str]] = {
    "python -c pass (floor)": ["-c", "pass"],
    "troef --help": ["-m", "harness", "--help"],
    "troef --version": ["-m", "harness", "--version"],
    "troef games": ["-m", "harness", "games"],
    "troef bots": ["-m", "harness", "bots"],
}


def time_command(argv: list[str], repeats: int) -> list[float]:
    """Wall seconds of ``repeats`` fresh runs of ``python argv``, after one run
    that writes the bytecode caches (as an installed troef has them: some
    sandboxes set PYTHONDONTWRITEBYTECODE, which would time the compiler)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times = []
    for run in range(repeats + 1):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, *argv],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        if run:
            times.append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="runs per command")
    args = parser.parse_args(argv)
    print(f"{'command':<26} {'median s':>9} {'spread':>7}  goal")
    for name, command in COMMANDS.items():
        times = time_command(command, args.repeats)
        median = statistics.median(times)
        spread = (max(times) - min(times)) / median
        goal = (
            ""
            if "floor" in name or "bots" in name
            else ("met" if median < GOAL_SECONDS else f"NOT met (< {GOAL_SECONDS} s)")
        )
        print(f"{name:<26} {median:>9.3f} {spread:>6.0%}  {goal}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
