#!/usr/bin/env python
"""What dealing hidden hands costs: games.sampling's dealer on fixed positions.

Run from the repository root with the project's venv::

    python bench/bench_sampling.py          # ~20 s
    python bench/bench_sampling.py --quick  # a few seconds

For each position: the dealer's set-up (``ConstrainedDealer(...)``, once per
view), one sample from it, and for reference a plain ``random.shuffle`` of the
unseen cards (the floor: no constraint honoured). Every figure is the best of several
repeats, in µs. A script, not a test: it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import random
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.cards import PIQUET
from games.sampling import ConstrainedDealer

C, D, H, S = PIQUET.suit_masks
TAROT_SUITS = [sum(1 << c for c in range(14 * s, 14 * s + 14)) for s in range(4)]
TAROT_TRUMPS = sum(1 << c for c in range(56, 77))


def _unseen(seed: int, n: int, deck: int = 32) -> list[int]:
    return sorted(random.Random(seed).sample(range(deck), n))


#: name -> (cards, forbidden per hidden hand, hand sizes). Klaverjassen: the
#: three other hands after 0-6 tricks, voids from not following or trumping.
POSITIONS: dict[str, tuple[list[int], list[int], list[int]]] = {
    "klaverjassen 8/7/7, no voids": (_unseen(1, 22), [0, 0, 0], [8, 7, 7]),
    "klaverjassen 8/7/7, one void": (_unseen(1, 22), [H, 0, 0], [8, 7, 7]),
    "klaverjassen 8/7/7, voids, no trumps": (_unseen(1, 22), [H, S | C, 0], [8, 7, 7]),
    "klaverjassen 5/5/4, three voids": (_unseen(2, 14), [H, S, D], [5, 5, 4]),
    "klaverjassen 3/3/2, two voids": (_unseen(3, 8), [H, S, 0], [3, 3, 2]),
    "tarot-like 9 x 7 + talon 8, no voids": (
        _unseen(4, 71, 78),
        [0] * 10,
        [7] * 9 + [8],
    ),
    "tarot-like 9 x 5 + talon 8, four voids": (
        _unseen(5, 53, 78),
        [TAROT_SUITS[0], TAROT_SUITS[1], TAROT_SUITS[0] | TAROT_TRUMPS, TAROT_SUITS[2]]
        + [0] * 6,
        [5] * 9 + [8],
    ),
}


def best_us(fn: Callable[[], object], number: int, repeat: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def measure(
    cards: list[int], forbidden: list[int], sizes: list[int], scale: int
) -> tuple[ConstrainedDealer, float, float, float]:
    """The dealer and µs of: its set-up, a sample, a shuffle."""
    rng = random.Random(1)
    dealer = ConstrainedDealer(cards, forbidden, sizes)
    pool = list(cards)
    return (
        dealer,
        best_us(lambda: ConstrainedDealer(cards, forbidden, sizes), 20, scale),
        best_us(lambda: dealer.sample(rng), 2000, scale),
        best_us(lambda: rng.shuffle(pool), 2000, scale),
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="fewer repeats")
    args = p.parse_args(argv)
    scale = 1 if args.quick else 5
    header = f"{'position':40} {'deals':>10} {'set-up':>9} {'sample':>8}"
    print(header + f" {'shuffle':>8}  (µs)")
    for name, (cards, forbidden, sizes) in POSITIONS.items():
        dealer, setup, sample, floor = measure(cards, forbidden, sizes, scale)
        count = f"{dealer.count:.2e}" if dealer.count else "(rejection)"
        print(f"{name:40} {count:>10} {setup:9.1f} {sample:8.2f} {floor:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
