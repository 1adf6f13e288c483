"""Throughput of the tournament scheduler: 1 and 2 worker processes vs a plain loop.

For each match size (a Klaverjassen match to a small and to a normal target,
random bots), the same jobs are played three ways:

- ``loop``: a plain in-process loop over the jobs (``executors.run_jobs``),
  no store, no processes: the floor;
- ``1 worker`` and ``2 workers``: ``troef run``'s scheduler with a process pool,
  writing every result to a real SQLite file.

It prints matches/s (median of ``--repeats`` runs), the overhead per match of
the scheduler with 1 worker against the loop, and the parallel efficiency
(2-worker throughput / 1-worker throughput). Figures are ratios and medians:
these machines are shared and noisy.

    python bench/bench_scheduler.py [--repeats 3] [--matches 200]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from harness.config import load_config
from harness.executors import init_worker, run_jobs
from harness.plan import plan
from harness.plugins import PluginSource
from harness.scheduler import run_tournament

CONFIG = """
game = "klaverjassen"
matches = {matches}
seed = 3
keep_logs = true
[options]
target = {target}
[entrants.a]
bot = "random"
[entrants.b]
bot = "random"
[entrants.c]
bot = "random"
[entrants.d]
bot = "random"
"""


def measure(matches: int, target: int, repeats: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.toml"
        path.write_text(CONFIG.format(matches=matches, target=target))
        config = load_config(path)
        jobs = plan(config)
        init_worker(PluginSource(), ignore_sigint=False)
        loop, one, two = [], [], []
        for _ in range(repeats):
            start = time.perf_counter()
            run_jobs(jobs, config.keep_logs)
            loop.append(len(jobs) / (time.perf_counter() - start))
            for workers, sink in ((1, one), (2, two)):
                summary = run_tournament(config, workers=workers, fresh=True)
                sink.append(summary.played / summary.seconds)
        return {
            "jobs": len(jobs),
            "loop": statistics.median(loop),
            "one": statistics.median(one),
            "two": statistics.median(two),
        }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--matches",
        type=int,
        default=200,
        help="seeds per pairing "
        "(200: runs of a few seconds, so pool start-up does not dominate)",
    )
    args = parser.parse_args()
    print(
        f"{'match size':<22}{'jobs':>6}{'ms/match':>10}{'loop/s':>9}{'1 worker/s':>12}"
        f"{'2 workers/s':>13}{'overhead/match':>16}{'2w / 1w':>9}"
    )
    for label, target in (("one deal (target 1)", 1), ("to 1500 (default)", 1500)):
        m = measure(args.matches, target, args.repeats)
        overhead_us = (1 / m["one"] - 1 / m["loop"]) * 1e6
        print(
            f"{label:<22}{m['jobs']:>6}{1000 / m['loop']:>10.2f}{m['loop']:>9.0f}"
            f"{m['one']:>12.0f}{m['two']:>13.0f}{overhead_us:>13.0f} µs"
            f"{m['two'] / m['one']:>9.2f}"
        )


if __name__ == "__main__":
    main()
