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

Each way plays the plan (``--matches`` seeds per pairing) and twice the plan.
It prints matches/s of the long run (median of ``--repeats`` runs), the
overhead per match of each executor (a worker's time per match beyond the
loop's: for ``inline`` and ``1 worker`` 1/rate - 1/loop, for 2 workers
2/rate - 1/loop), the parallel efficiency (2-worker / 1-worker throughput)
and Dask against the 2-worker pool. Figures are ratios and medians: these
machines are shared and noisy.

A run also pays fixed costs (opening the store, planning, starting the pool,
the last chunk, when one worker may idle): a short run's wall ratio measures
them as much as the pace. So it also prints the *steady state*: the rate of
the matches that the long run adds over the short one, and the fixed seconds
a run spends beyond its matches at that rate. Beside the 2-worker/1-worker ratio
it prints the machine's *ceiling*: two plain loops in two processes at once
(half the jobs each) against one loop. On a virtual machine two busy cores may
each run slower than one alone, so the ceiling can be below 2.

Since wall-clock ratios on a shared machine mostly measure the neighbours, it
also prints the CPU each side spends per match (medians), which the load
barely moves: the runner process (for Dask it also hosts the local cluster's
scheduler) and the worker processes, for the 2-worker pool and Dask; and per
match the Dask tasks (chunks) and result events sent.

    python bench/bench_scheduler.py [--repeats 3] [--matches 200] [--no-dask]
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import multiprocessing
import resource
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.plugins import PluginSource
from harness.tournament.config import TournamentConfig, load_config
from harness.tournament.plan import Job, plan
from harness.tournament.scheduler import run_tournament
from harness.tournament.workers import Worker

try:
    from distributed.diagnostics.plugin import SchedulerPlugin
except ImportError:  # without the dask extra: --no-dask
    SchedulerPlugin = object  # type: ignore[assignment,misc]

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


def _cpu(who: int = resource.RUSAGE_SELF) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _worker_cpu(dask_worker: Any = None) -> float:
    """CPU seconds of the Dask worker process it runs in (run on each worker)."""
    return _cpu()


class EventCounter(SchedulerPlugin):
    """Counts the result events the scheduler relays (a run drops those it
    kept when it ends, so they cannot be counted afterwards)."""

    name = "troef-bench-events"

    def __init__(self) -> None:
        self.count = 0

    def log_event(self, topic: str, msg: Any) -> None:
        if topic.startswith("troef-results-"):
            self.count += 1


class Meter:
    """CPU of the runner and of the workers, and Dask's tasks and events, of one run.

    Pool workers are counted once the pool has joined them (RUSAGE_CHILDREN);
    Dask workers are asked. The local cluster's scheduler runs in this process:
    its CPU counts as the runner's.
    """

    def __init__(self, cluster: Any, client: Any) -> None:
        self.cluster = cluster
        self.client = client

    def _dask(self) -> tuple[float, int, int]:
        """Workers' CPU, chunks played and result events sent so far."""
        if self.client is None:
            return 0.0, 0, 0
        scheduler = self.cluster.scheduler
        prefix = scheduler.task_prefixes.get("play_chunk")
        tasks = 0 if prefix is None else prefix.state_counts["memory"]
        events = scheduler.plugins["troef-bench-events"].count
        return sum(self.client.run(_worker_cpu).values()), tasks, events

    def __enter__(self) -> Meter:
        self.runner = _cpu()
        self.children = _cpu(resource.RUSAGE_CHILDREN)
        self.dask = self._dask()
        return self

    def __exit__(self, *exc: object) -> None:
        dask = self._dask()
        self.runner = _cpu() - self.runner
        self.children = _cpu(resource.RUSAGE_CHILDREN) - self.children
        self.dask_cpu = dask[0] - self.dask[0]
        self.tasks = dask[1] - self.dask[1]
        self.events = dask[2] - self.dask[2]


_loop_worker: Worker | None = None


def _load_loop_worker(source: PluginSource) -> None:
    global _loop_worker
    _loop_worker = Worker(source)
    _loop_worker.load()


def _play_loop(jobs: Sequence[Job], keep_logs: bool) -> None:
    assert _loop_worker is not None
    _loop_worker.play(jobs, keep_logs)


def two_loops(jobs: Sequence[Job], source: PluginSource, keep_logs: bool) -> float:
    """Matches/s of two plain loops in two processes at once, each half the jobs:
    the most two workers can reach on this machine (two busy cores may each
    run slower than one alone), with no runner, store or streaming."""
    context = multiprocessing.get_context("fork")
    with context.Pool(2, _load_loop_worker, (source,)) as pool:
        pool.starmap(_play_loop, [((), keep_logs)] * 2)  # both started and loaded
        start = time.perf_counter()
        pool.starmap(
            _play_loop, [(jobs[0::2], keep_logs), (jobs[1::2], keep_logs)], chunksize=1
        )
        return len(jobs) / (time.perf_counter() - start)


def measure(
    matches: int,
    target: int,
    repeats: int,
    address: str | None,
    meter: Meter,
) -> dict[str, float]:
    """Medians over ``repeats`` of each way's matches/s, CPU and Dask counts.

    Each way runs the plan of ``matches`` seeds per pairing and of twice as
    many: ``<way>`` is the long run's matches/s, ``<way> steady`` the rate of
    the matches the long run adds ((n2 - n1) / (t2 - t1): what a run's fixed
    costs, its set-up and its last chunk, leave out) and ``<way> fixed`` the
    seconds a run spends beyond its matches at that rate. ``two loops`` is the
    machine's ceiling (:func:`two_loops`).
    """
    with tempfile.TemporaryDirectory() as tmp:
        configs = []
        for size in (matches, 2 * matches):
            path = Path(tmp) / f"bench-{size}.toml"
            path.write_text(CONFIG.format(matches=size, target=target))
            configs.append(load_config(path))
        config = configs[1]
        jobs = plan(config)
        worker = Worker(config.plugin_source)
        worker.load()
        runs: list[tuple[str, str, int]] = [
            ("inline", "inline", 1),
            ("one", "process", 1),
            ("two", "process", 2),
        ]
        if address is not None:
            runs.append(("dask", "dask", 2))
        figures: dict[str, list[float]] = {}
        for _ in range(repeats):
            start = time.perf_counter()
            worker.play(jobs, config.keep_logs)
            figures.setdefault("loop", []).append(
                len(jobs) / (time.perf_counter() - start)
            )
            figures.setdefault("two loops", []).append(
                two_loops(jobs, config.plugin_source, config.keep_logs)
            )
            for name, executor, workers in runs:
                for length, sized in zip(("short", "long"), configs, strict=True):
                    variant = (
                        on_dask(sized, address)
                        if executor == "dask"
                        else dataclasses.replace(sized, executor=executor)
                    )
                    with meter:
                        summary = run_tournament(variant, workers=workers, fresh=True)
                    n = summary.played
                    figures.setdefault(f"{name} {length} n", []).append(n)
                    figures.setdefault(f"{name} {length} s", []).append(summary.seconds)
                if name in ("two", "dask"):
                    on_workers = meter.dask_cpu if name == "dask" else meter.children
                    figures.setdefault(f"{name} runner", []).append(meter.runner / n)
                    figures.setdefault(f"{name} workers", []).append(on_workers / n)
                if name == "dask":
                    figures.setdefault("dask tasks", []).append(meter.tasks / n)
                    figures.setdefault("dask events", []).append(meter.events / n)
        medians = {name: statistics.median(f) for name, f in figures.items()}
        for name, _, _ in runs:
            n1, t1 = medians[f"{name} short n"], medians[f"{name} short s"]
            n2, t2 = medians[f"{name} long n"], medians[f"{name} long s"]
            medians[name] = n2 / t2
            medians[f"{name} steady"] = (n2 - n1) / (t2 - t1)
            medians[f"{name} fixed"] = t2 - n2 / medians[f"{name} steady"]
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
    cluster = client = None
    if not args.no_dask:
        from distributed import Client, LocalCluster

        from harness.tournament.dask_executor import LOCAL_SCHEDULER

        cluster = LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            scheduler_kwargs=LOCAL_SCHEDULER,
            silence_logs=logging.ERROR,
        )
        client = Client(cluster, set_as_default=False)
        assert cluster.scheduler is not None  # a local cluster's, in this process
        cluster.scheduler.add_plugin(EventCounter())
    meter = Meter(cluster, client)
    address = cluster.scheduler_address if cluster is not None else None
    print(
        f"{'match size':<20}{'jobs':>5}{'ms/match':>9}{'loop/s':>8}{'inline/s':>9}"
        f"{'1 worker/s':>11}{'2 workers/s':>12}{'dask 2w/s':>10}{'2w / 1w':>8}"
        f"{'dask / 2w':>10}"
    )
    overheads = []
    cpu = []
    steady: list[tuple[str, float, float, float, float, float, float, float]] = []
    try:
        for label, target in (("one deal (target 1)", 1), ("to 1500 (default)", 1500)):
            m = measure(args.matches, target, args.repeats, address, meter)
            dask = m.get("dask", float("nan"))
            print(
                f"{label:<20}{m['jobs']:>5}{1000 / m['loop']:>9.2f}{m['loop']:>8.0f}"
                f"{m['inline']:>9.0f}{m['one']:>11.0f}{m['two']:>12.0f}{dask:>10.0f}"
                f"{m['two'] / m['one']:>8.2f}{dask / m['two']:>10.2f}"
            )
            nan = float("nan")
            steady.append(
                (
                    label,
                    m["one steady"],
                    m["two steady"],
                    m.get("dask steady", nan),
                    m["one fixed"],
                    m["two fixed"],
                    m.get("dask fixed", nan),
                    m["two loops"] / m["loop"],
                )
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
            cpu.append(
                (
                    label,
                    *(
                        m.get(key, nan) * 1e6
                        for key in (
                            "two runner",
                            "two workers",
                            "dask runner",
                            "dask workers",
                        )
                    ),
                    m.get("dask tasks", nan) * 1000,
                    m.get("dask events", nan) * 1000,
                )
            )
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    print(
        "\nsteady state: matches/s of the matches a run of twice the plan adds "
        "(its fixed costs left out),\nand each run's fixed seconds (set-up, start, "
        "last chunk) at that rate:"
    )
    print(
        f"{'match size':<20}{'1 worker/s':>11}{'2 workers/s':>12}{'dask 2w/s':>10}"
        f"{'2w / 1w':>8}{'ceiling':>8}{'dask / 2w':>10}{'fixed s: 1w':>12}{'2w':>6}"
        f"{'dask':>6}"
    )
    for label, one, two, dask_rate, f_one, f_two, f_dask, ceiling in steady:
        print(
            f"{label:<20}{one:>11.0f}{two:>12.0f}{dask_rate:>10.0f}{two / one:>8.2f}"
            f"{ceiling:>8.2f}{dask_rate / two:>10.2f}{f_one:>12.2f}{f_two:>6.2f}"
            f"{f_dask:>6.2f}"
        )
    print(
        "(ceiling: two plain loops in two processes at once ÷ one loop, the most "
        "2 workers can gain here)"
    )
    print("\noverhead per match (a worker's µs beyond the loop's):")
    header = f"{'inline':>9}{'1 worker':>10}{'2 workers':>11}{'dask 2w':>9}"
    print(f"{'match size':<20}{header}")
    for label, inline, one, two, dask_us in overheads:
        print(f"{label:<20}{inline:>9.0f}{one:>10.0f}{two:>11.0f}{dask_us:>9.0f}")
    print(
        "\nCPU per match (µs, medians; the runner's includes the local cluster's "
        "scheduler for Dask),\nDask tasks and result events per 1000 matches:"
    )
    print(
        f"{'match size':<20}{'pool runner':>12}{'pool workers':>13}"
        f"{'dask runner':>12}{'dask workers':>13}{'tasks/1k':>9}{'events/1k':>10}"
    )
    for row in cpu:
        size, p_run, p_work, d_run, d_work, tasks, events = row
        print(
            f"{size!s:<20}{p_run:>12.0f}{p_work:>13.0f}{d_run:>12.0f}{d_work:>13.0f}"
            f"{tasks:>9.1f}{events:>10.1f}"
        )
    if not args.no_dask:
        seconds = cluster_start(CONFIG.format(matches=1, target=1))
        print(
            f"\na run on its own 2-worker local cluster: {seconds:.1f} s start and stop"
        )


if __name__ == "__main__":
    main()
