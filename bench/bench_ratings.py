"""Speed of the rating fit: 100 entrants, 1,000,000 pair results.

Generates a seeded pool (true ratings ~ N(0, 150²), random pairings, 20 %
draws, duplicate groups of two results) and times, as the median of
``--repeats`` runs:

- ``aggregate``: summing the PairResult objects into a PairTable (the
  million results become one row per pair and seat order);
- ``fit (table)``: the Newton fit with analytic intervals on that table;
- ``fit (results)``: both together, as ``fit_ratings(results)`` does;
- ``fit + seat``: the same with the seat-advantage parameter;
- ``bootstrap``: ``bootstrap_ratings`` with ``--rounds`` rounds over the groups.

It prints figures and asserts nothing about speed.

    python bench/bench_ratings.py [--entrants 100] [--results 1000000] [--rounds 200]
    [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from harness.ratings import PairResult, aggregate, bootstrap_ratings, fit_ratings


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
    args = parser.parse_args()
    start = time.perf_counter()
    results = make_results(args.entrants, args.results, seed=1)
    print(
        f"generated {len(results):,} results for {args.entrants} entrants "
        f"in {time.perf_counter() - start:.1f} s (not timed below)"
    )
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
