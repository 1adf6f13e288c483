"""Throughput of the tournament scheduler on each executor vs a plain loop.

For each match size (a Klaverjassen match to a small and to a normal target,
random bots), the same jobs are played these ways:

- ``loop``: a plain in-process loop over the jobs (a :class:`Worker`'s
  ``play``), no store, no processes: the floor;
- ``inline``: ``troef run``'s scheduler in this process, writing every result
  to a real SQLite file;
- ``1 worker`` and ``2 workers``: the scheduler with a process pool;
- ``dask 2w``: the scheduler on a 2-worker Dask ``LocalCluster`` (processes,
  loopback), started once beforehand and reached by its address, so the row is
  the steady state; the start-up of a run's own local cluster is printed apart.

It prints matches/s (median of ``--repeats`` runs), the overhead per match of
each executor (a worker's time per match beyond the loop's: for ``inline`` and
``1 worker`` 1/rate - 1/loop, for 2 workers 2/rate - 1/loop), the parallel
efficiency (2-worker / 1-worker throughput) and Dask against the 2-worker
pool. Figures are ratios and medians: these machines are shared and noisy.

    python bench/bench_scheduler.py [--repeats 3] [--matches 200] [--no-dask]
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import statistics
import tempfile
import time
from pathlib import Path

from harness.config import TournamentConfig, load_config
from harness.plan import plan
from harness.scheduler import run_tournament
from harness.workers import Worker

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


def on_dask(config: TournamentConfig, address: str | None) -> TournamentConfig:
    settings = (("address", address),) if address else (("workers", 2),)
    return dataclasses.replace(config, executor="dask", executor_settings=settings)


def measure(
    matches: int, target: int, repeats: int, address: str | None
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.toml"
        path.write_text(CONFIG.format(matches=matches, target=target))
        config = load_config(path)
        jobs = plan(config)
        worker = Worker(config.plugin_source)
        worker.load()
        rates: dict[str, list[float]] = {}
        runs: list[tuple[str, TournamentConfig, int]] = [
            ("inline", dataclasses.replace(config, executor="inline"), 1),
            ("one", config, 1),
            ("two", config, 2),
        ]
        if address is not None:
            runs.append(("dask", on_dask(config, address), 2))
        for _ in range(repeats):
            start = time.perf_counter()
            worker.play(jobs, config.keep_logs)
            rates.setdefault("loop", []).append(
                len(jobs) / (time.perf_counter() - start)
            )
            for name, variant, workers in runs:
                summary = run_tournament(variant, workers=workers, fresh=True)
                rates.setdefault(name, []).append(summary.played / summary.seconds)
        medians = {name: statistics.median(r) for name, r in rates.items()}
        return {"jobs": len(jobs), **medians}


def cluster_start(config_text: str) -> float:
    """Seconds a run spends starting (and closing) its own 2-worker local cluster
    beyond its matches: a one-match run on it, less the match."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.toml"
        path.write_text(config_text)
        config = on_dask(load_config(path), None)
        start = time.perf_counter()
        run_tournament(config, fresh=True)
        return time.perf_counter() - start


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
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask rows")
    args = parser.parse_args()
    cluster = None
    if not args.no_dask:
        from distributed import LocalCluster

        cluster = LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
    address = cluster.scheduler_address if cluster is not None else None
    print(
        f"{'match size':<20}{'jobs':>5}{'ms/match':>9}{'loop/s':>8}{'inline/s':>9}"
        f"{'1 worker/s':>11}{'2 workers/s':>12}{'dask 2w/s':>10}{'2w / 1w':>8}"
        f"{'dask / 2w':>10}"
    )
    overheads = []
    try:
        for label, target in (("one deal (target 1)", 1), ("to 1500 (default)", 1500)):
            m = measure(args.matches, target, args.repeats, address)
            dask = m.get("dask", float("nan"))
            print(
                f"{label:<20}{m['jobs']:>5}{1000 / m['loop']:>9.2f}{m['loop']:>8.0f}"
                f"{m['inline']:>9.0f}{m['one']:>11.0f}{m['two']:>12.0f}{dask:>10.0f}"
                f"{m['two'] / m['one']:>8.2f}{dask / m['two']:>10.2f}"
            )
            overheads.append(
                (
                    label,
                    (1 / m["inline"] - 1 / m["loop"]) * 1e6,
                    (1 / m["one"] - 1 / m["loop"]) * 1e6,
                    (2 / m["two"] - 1 / m["loop"]) * 1e6,
                    (2 / dask - 1 / m["loop"]) * 1e6,
                )
            )
    finally:
        if cluster is not None:
            cluster.close()
    print("\noverhead per match (a worker's µs beyond the loop's):")
    header = f"{'inline':>9}{'1 worker':>10}{'2 workers':>11}{'dask 2w':>9}"
    print(f"{'match size':<20}{header}")
    for label, inline, one, two, dask_us in overheads:
        print(f"{label:<20}{inline:>9.0f}{one:>10.0f}{two:>11.0f}{dask_us:>9.0f}")
    if not args.no_dask:
        seconds = cluster_start(CONFIG.format(matches=1, target=1))
        print(
            f"\na run on its own 2-worker local cluster: {seconds:.1f} s start and stop"
        )


if __name__ == "__main__":
    main()
