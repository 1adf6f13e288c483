#!/usr/bin/env python
"""What an encoding for learning bots costs per view (``docs/ENCODING.md``).

Run from the repository root with the project's venv::

    python bench/bench_encoding.py                  # klaverjassen, ~10 s
    python bench/bench_encoding.py --all            # every registered game
    python bench/bench_encoding.py --quick          # a few seconds

For each game: the views of every decision of a few seeded random matches
(at the smallest seat count), then per view the best of several repeats of
``encode(view)`` and of ``mask(view)``, in µs; the figure is the median over
the views (and the slowest view's). The goal (issue 32) is a klaverjassen
``encode`` of at most 20 µs. A script, not a test: it asserts nothing about
speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import timeit
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.contracts.view import View
from harness.plugins import load_plugins

GOAL_US = 20.0


def best_us(fn: Callable[[], object], number: int, repeat: int) -> float:
    """The best of ``repeat`` timings of ``number`` calls, in µs per call."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def views_of(name: str, matches: int) -> tuple[list[View], int]:
    """The view of the seat to act at every decision of ``matches`` random matches."""
    game = load_plugins().game_class(name)()
    n = min(game.seat_counts)
    views: list[View] = []
    for seed in range(matches):
        state = game.new_match(n, seed)
        rng = random.Random(seed)
        while not state.is_over() and len(views) < 400 * (seed + 1):
            seat = state.to_act
            assert seat is not None
            views.append(state.view(seat))
            state.apply(rng.choice(state.legal_actions()))
    return views, n


def measure(name: str, *, matches: int, number: int, repeat: int) -> dict[str, float]:
    """Median and worst µs of encode and mask over the views of ``name``."""
    views, n = views_of(name, matches)
    encoding = load_plugins().game_class(name)().encoding(n)
    encode = [best_us(partial(encoding.encode, v), number, repeat) for v in views]
    mask = [best_us(partial(encoding.mask, v), number, repeat) for v in views]
    return {
        "views": len(views),
        "size": encoding.shape[0],
        "actions": encoding.num_actions,
        "encode": statistics.median(encode),
        "encode_max": max(encode),
        "mask": statistics.median(mask),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="every registered game")
    parser.add_argument("--games", nargs="*", default=None, help="these games only")
    parser.add_argument("--quick", action="store_true", help="fewer views, repeats")
    args = parser.parse_args(argv)
    names = args.games or (
        sorted(load_plugins().games) if args.all else ["klaverjassen"]
    )
    matches, number, repeat = (1, 10, 3) if args.quick else (2, 100, 5)
    print(
        f"{'game':<20} {'views':>6} {'size':>6} {'actions':>8} "
        f"{'encode µs':>10} {'max µs':>8} {'mask µs':>8}"
    )
    for name in names:
        row = measure(name, matches=matches, number=number, repeat=repeat)
        print(
            f"{name:<20} {row['views']:>6} {row['size']:>6} {row['actions']:>8} "
            f"{row['encode']:>10.1f} {row['encode_max']:>8.1f} {row['mask']:>8.1f}"
        )
        if name == "klaverjassen":
            met = "met" if row["encode"] <= GOAL_US else "NOT met"
            print(f"goal: klaverjassen encode median <= {GOAL_US:g} µs: {met}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
