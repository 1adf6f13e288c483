"""Compare troef's ML ratings with Ordo and with an independent MM fit, same data.

For a few seeded result sets (written as PGN into a temporary folder) it fits:

- troef: ``fit_ratings(results)`` (pool mean anchored at 0);
- MM: Hunter's (2004) minorization-maximization algorithm for the same
  Bradley-Terry model, written here from the paper (no Newton step, no shared
  code with harness.stats.ratings_pairwise), anchored the same way;
- Ordo, when an ``ordo`` binary is found (``--ordo PATH`` or on PATH), run as
  ``ordo -a 0 -z 200.2409 -p FILE -c OUT.csv``. ``-a 0`` fixes the pool average
  at 0, as troef's default; ``-z`` sets the rating of a 76 % expectancy, and
  the logistic Elo scale troef uses gives 400·log10(76/24) = 200.2409, not
  Ordo's default 202. With ``-W`` Ordo also fits the white advantage, compared
  with ``fit_ratings(..., seat_advantage=True)``.

It prints the largest absolute difference per result set and per method and
exits non-zero if one exceeds ``--tolerance`` (0.01 Elo). Ordo prints ratings
rounded to its output precision, so the tolerance for Ordo is that precision
when it is coarser.

    python bench/compare_ordo.py [--ordo PATH] [--tolerance 0.01]
"""

from __future__ import annotations

import argparse
import csv
import math
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from harness.stats.ratings import PairResult
from harness.stats.ratings_pairwise import fit_ratings

#: Rating difference at a 76 % expected score on the logistic Elo scale.
LOGISTIC_Z = 400 * math.log10(0.76 / 0.24)


def result_sets() -> dict[str, list[PairResult]]:
    """Seeded pools: a round robin with draws, an incomplete schedule, a gauntlet."""
    sets = {}
    for name, players, keep, seed in (
        ("round-robin", 8, 1.0, 1),
        ("incomplete", 12, 0.4, 2),
        ("gauntlet", 10, 0.0, 3),
    ):
        rng = np.random.default_rng(seed)
        true = rng.normal(0, 200, players)
        out = []
        for x in range(players):
            for y in range(x + 1, players):
                if (
                    x != 0 and rng.random() >= keep
                ):  # a gauntlet: only player 0 meets everyone
                    continue
                e = 1 / (1 + 10 ** (-(true[x] - true[y]) / 400))
                for game in range(int(rng.integers(4, 40))):
                    u = rng.random()
                    score = 0.5 if u < 0.25 else float(rng.random() < e)
                    white, black = (x, y) if game % 2 == 0 else (y, x)
                    s = score if white == x else 1 - score
                    out.append(
                        PairResult(
                            f"P{white:02d}", f"P{black:02d}", s, None, f"P{white:02d}"
                        )
                    )
        sets[name] = out
    return sets


def mm_fit(results: list[PairResult]) -> dict[str, float]:
    """Hunter (2004), eq. (3): π_i ← W_i / Σ_j n_ij/(π_i + π_j); draws half points."""
    names = sorted({r.a for r in results} | {r.b for r in results})
    idx = {n: k for k, n in enumerate(names)}
    m = len(names)
    played, points = np.zeros((m, m)), np.zeros(m)
    for r in results:
        i, j = idx[r.a], idx[r.b]
        played[i, j] += r.weight
        played[j, i] += r.weight
        points[i] += r.weight * r.score
        points[j] += r.weight * (1 - r.score)
    pi = np.ones(m)
    for _ in range(1_000_000):
        new = points / (played / (pi[:, None] + pi[None, :])).sum(axis=1)
        new /= np.exp(np.log(new).mean())
        done = np.max(np.abs(np.log(new / pi))) < 1e-14
        pi = new
        if done:
            break
    elo = 400 * np.log10(pi)
    return dict(zip(names, elo - elo.mean(), strict=True))


def write_pgn(results: list[PairResult], path: Path) -> None:
    notation = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}
    with path.open("w") as out:
        for k, r in enumerate(results):
            out.write(
                f'[Event "troef"]\n[Round "{k + 1}"]\n[White "{r.a}"]\n[Black '
                f'"{r.b}"]\n'
                f'[Result "{notation[r.score]}"]\n\n{notation[r.score]}\n\n'
            )


def run_ordo(binary: str, pgn: Path, white: bool) -> dict[str, float]:
    out = pgn.with_suffix(".csv")
    command = [
        binary,
        "-a",
        "0",
        "-z",
        f"{LOGISTIC_Z:.4f}",
        "-p",
        str(pgn),
        "-c",
        str(out),
    ]
    if white:
        command.append("-W")
    subprocess.run(command, check=True, capture_output=True)
    rows = list(csv.reader(out.read_text().splitlines()))
    header = [h.strip().strip('"').upper() for h in rows[0]]
    who, rating = header.index("PLAYER"), header.index("RATING")
    return {row[who].strip().strip('"'): float(row[rating]) for row in rows[1:] if row}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--ordo", default=shutil.which("ordo"), help="path of an ordo binary"
    )
    parser.add_argument("--tolerance", type=float, default=0.01)
    args = parser.parse_args()
    if not args.ordo:
        print("ordo: not found (give --ordo PATH); comparing with the MM fit only")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, results in result_sets().items():
            ours = fit_ratings(results).as_dict()
            mm = mm_fit(results)
            gap = max(abs(ours[k] - mm[k]) for k in ours)
            worst = max(worst, gap)
            print(
                f"{name:<12} {len(results):>5} games  max |troef - MM|   = "
                f"{gap:.2e} Elo"
            )
            if args.ordo:
                pgn = Path(tmp) / f"{name}.pgn"
                write_pgn(results, pgn)
                for white in (False, True):
                    fit = fit_ratings(results, seat_advantage=white).as_dict()
                    ordo = run_ordo(args.ordo, pgn, white)
                    gap = max(abs(fit[k] - ordo[k]) for k in fit)
                    worst = max(worst, gap)
                    label = "Ordo -W" if white else "Ordo"
                    print(
                        f"{'':<12} {'':>5}        max |troef - {label}| = {gap:.2e} Elo"
                    )
    print(f"largest difference {worst:.2e} Elo (tolerance {args.tolerance})")
    return 0 if worst <= args.tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
