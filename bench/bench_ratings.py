"""Speed of the rating fit: 100 entrants, 1,000,000 pair results.

Generates a seeded pool (true ratings ~ N(0, 150²), random pairings, 20 %
draws, duplicate groups of two results) and times, as the median of
``--repeats`` runs:

- ``aggregate``: summing the PairResult objects into a PairTable (the
  million results become one row per pair and seat order);
- ``fit (table)``: the Newton fit with analytic intervals on that table;
- ``fit (results)``: both together, as ``fit_ratings(results)`` does;
- ``fit + seat``: the same with the seat-advantage parameter;
- ``bootstrap``: ``bootstrap_ratings`` with ``--rounds`` rounds over the groups;
- ``troef rate (CSV)``: the command on the same results written as a
  ``white,black,result,group`` CSV, in its own process: wall time (median),
  and that process's CPU time and peak resident memory (``getrusage`` of the
  child; the goal of issue 15 is under 2 s wall on an idle machine and under
  200 MiB).

It prints figures and asserts nothing about speed.

    python bench/bench_ratings.py [--entrants 100] [--results 1000000] [--rounds 200]
    [--repeats 3] [--only-rate]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from harness.stats.ratings import PairResult, aggregate
from harness.stats.ratings_bootstrap import bootstrap_ratings
from harness.stats.ratings_pairwise import fit_ratings


def make_results(entrants: int, count: int, seed: int) -> list[PairResult]:
    rng = np.random.default_rng(seed)
    true = rng.normal(0, 150, entrants)
    names = [f"bot{k:03d}" for k in range(entrants)]
    pairs = count // 2
    a = rng.integers(0, entrants, pairs)
    b = (a + rng.integers(1, entrants, pairs)) % entrants
    expected = 1 / (1 + 10 ** (-(true[a] - true[b]) / 400))
    out = []
    for g in range(pairs):
        x, y, e = names[a[g]], names[b[g]], expected[g]
        for first, second in ((x, y), (y, x)):
            u = rng.random()
            win = e - 0.1 if first == x else 1 - e - 0.1
            score = 1.0 if u < win else 0.5 if u < win + 0.2 else 0.0
            out.append(PairResult(first, second, score, f"g{g}", first))
    return out


def write_csv(path: Path, results: list[PairResult]) -> None:
    notation = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}
    with path.open("w") as out:
        out.write("white,black,result,group\n")
        out.writelines(
            f"{r.a},{r.b},{notation[r.score]},{r.group or ''}\n" for r in results
        )


#: Runs ``troef rate`` and prints the process's peak RSS in KiB to stderr: VmHWM
#: belongs to the new process image, while ``ru_maxrss`` also counts the pages a
#: child shared with this (large) process between fork and exec.
_CHILD = """
import resource, sys
from harness.cli import main
code = main(["rate", sys.argv[1]])
try:
    with open("/proc/self/status") as status:
        peak = next(int(x.split()[1]) for x in status if x.startswith("VmHWM:"))
except OSError:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(peak, file=sys.stderr)
sys.exit(code)
"""


def rate_csv(path: Path, repeats: int) -> tuple[float, float, float]:
    """``troef rate PATH`` in a child process: median wall s, CPU s per run, and
    the largest peak resident memory of the runs in MiB.
    """
    walls, peaks = [], []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(repeats):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(path)],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        walls.append(time.perf_counter() - start)
        peaks.append(int(done.stderr.split()[-1]) / 1024)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (
        after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    ) / repeats
    return statistics.median(walls), cpu, max(peaks)


def timed(repeats: int, action: Callable[[], object]) -> float:
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=100)
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--only-rate", action="store_true", help="only the troef rate (CSV) row"
    )
    args = parser.parse_args()
    start = time.perf_counter()
    results = make_results(args.entrants, args.results, seed=1)
    print(
        f"generated {len(results):,} results for {args.entrants} entrants "
        f"in {time.perf_counter() - start:.1f} s (not timed below)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.csv"
        write_csv(path, results)
        size = os.path.getsize(path) / 2**20
        wall, cpu, peak = rate_csv(path, args.repeats)
    print(
        f"troef rate (CSV, {len(results):,} rows, {size:.0f} MiB): median wall "
        f"{wall:.2f} s, CPU {cpu:.2f} s per run, peak RSS {peak:.0f} MiB"
    )
    if args.only_rate:
        return
    table = aggregate(results)
    print(f"aggregated to {table.rows:,} rows")
    rows = [
        ("aggregate", timed(args.repeats, lambda: aggregate(results))),
        ("fit (table)", timed(args.repeats, lambda: fit_ratings(table))),
        ("fit (results)", timed(args.repeats, lambda: fit_ratings(results))),
        (
            "fit + seat",
            timed(args.repeats, lambda: fit_ratings(table, seat_advantage=True)),
        ),
        (
            f"bootstrap x{args.rounds}",
            timed(1, lambda: bootstrap_ratings(results, rounds=args.rounds, seed=1)),
        ),
    ]
    fit = fit_ratings(table)
    print(f"Newton iterations: {fit.iterations}; notes: {list(fit.notes) or 'none'}")
    print(f"\n{'step':<18}{'median s':>10}")
    for name, seconds in rows:
        print(f"{name:<18}{seconds:>10.3f}")
    print("(bootstrap: one run, not a median)")


if __name__ == "__main__":
    main()
