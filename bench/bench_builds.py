#!/usr/bin/env python
"""The same benches against builds of troef, interleaved: pure Python and compiled.

Run from the repository root with the project's venv::

    python bench/bench_builds.py --build mypyc=PATH [--build cython=PATH2] [--rounds 3]

Each ``PATH`` is a copy of this source tree in which the compiled modules sit
beside their sources (``TROEF_COMPILE=1 python setup.py build_ext --inplace``
there, or any tree where ``import games.cards`` loads a ``.so``); the first
build, ``pure``, is this tree. Each round runs, for each build in turn and as
a fresh process, ``bench_games.py --quick --no-peers`` (µs per decision with
views and without, clone, one sampled world; the floor), ``bench_search.py
--quick --no-peers`` (IS-MCTS iterations/s) and ``bench_sampling.py --quick``
(the dealer alone), each script taken from the build's own tree so that it
imports that build. Alternating the builds round by round, each round
starting with the next build, lets a machine that gets busier slow all alike;
the table gives the median over rounds of each figure and each build's ratio
to pure (below 1 for times: faster than pure).
Like every script here it never fails because something is slow.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES_FIGURES = ("us_per_decision", "us_per_decision_no_view", "clone_us", "sample_us")


def _run(tree: Path, script: str, *args: str) -> str:
    """stdout of ``tree/bench/script`` run by this interpreter in a fresh process."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    run = subprocess.run(
        [sys.executable, str(tree / "bench" / script), *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    if run.returncode:  # a build that breaks a bench loses that bench's rows
        last = run.stderr.strip().splitlines()[-1:] or ["(no output)"]
        print(f"note: {tree / 'bench' / script} failed: {last[0]}")
    return run.stdout


def _build_kind(tree: Path) -> str:
    """What ``games.cards`` is in ``tree``: a compiled extension or a .py file."""
    probe = "import games.cards as m; print(m.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tree,
        env=dict(os.environ, PYTHONPATH=str(tree)),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return "compiled" if out.endswith(".so") or out.endswith(".pyd") else "pure"


def one_round(tree: Path, games: list[str]) -> dict[str, float]:
    """Every figure of one build, by name."""
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.json"
        _run(tree, "bench_games.py", "--quick", "--no-peers", "--games", *games,
             "--json", str(path))  # fmt: skip
        data = json.loads(path.read_text()) if path.exists() else {}
    for game, entry in data.get("troef", {}).items():
        for key in GAMES_FIGURES:
            if (value := entry["median"].get(key)) is not None:
                figures[f"{game} {key}"] = value
    if floor := data.get("peers", {}).get("floor"):
        figures["floor us_per_decision"] = floor["median"]["us_per_decision"]
    # Only its klaverjassen row is read: the other games' would cost minutes.
    search = _run(tree, "bench_search.py", "--quick", "--no-peers", "--games",
                  "klaverjassen")  # fmt: skip
    if m := re.search(r"troef klaverjassen\s+([\d,]+)", search):
        figures["ismcts klaverjassen iterations/s"] = float(m.group(1).replace(",", ""))
    for line in _run(tree, "bench_sampling.py", "--quick").splitlines()[1:]:
        # position, deals, set-up, sample, shuffle: the last three are µs.
        parts = line.rsplit(None, 3)
        if len(parts) == 4:
            figures[f"dealer {parts[0].rsplit(None, 1)[0]} sample_us"] = float(parts[2])
    return figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--build",
        metavar="NAME=PATH",
        action="append",
        required=True,
        help="another build: a source tree holding compiled modules in place "
        "(repeatable)",
    )
    p.add_argument("--rounds", type=int, default=3, help="rounds (median taken)")
    p.add_argument(
        "--games",
        nargs="+",
        default=["klaverjassen", "gin-rummy"],
        help="troef games for bench_games.py",
    )
    args = p.parse_args(argv)
    builds = {"pure": ROOT}
    for entry in args.build:
        name, _, path = entry.partition("=")
        builds[name] = Path(path).resolve()
    for label, tree in builds.items():
        print(f"{label}: {tree} (games.cards is {_build_kind(tree)})")
    runs: dict[str, list[dict[str, float]]] = {label: [] for label in builds}
    order = list(builds.items())
    for r in range(args.rounds):
        # Each round starts with another build: the first slot of a round ran
        # slower on a shared machine, whatever build sat in it.
        for label, tree in order[r % len(order) :] + order[: r % len(order)]:
            runs[label].append(one_round(tree, args.games))
    keys = sorted(set().union(*(r.keys() for rs in runs.values() for r in rs)))
    others = list(builds)[1:]
    head = "".join(f" {label:>12} {'ratio':>6}" for label in others)
    print(f"{'figure (median of rounds)':52} {'pure':>10}{head}")
    for key in keys:
        meds = {
            label: statistics.median([r[key] for r in runs[label] if key in r] or [0])
            for label in builds
        }
        cells = "".join(
            f" {meds[label]:12.2f} "
            + (f"{meds[label] / meds['pure']:6.2f}" if meds["pure"] else "   n/a")
            for label in others
        )
        print(f"{key:52} {meds['pure']:10.2f}{cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
