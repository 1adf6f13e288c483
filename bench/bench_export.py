"""Throughput and memory of ``troef export DB --format jsonl`` on a large database.

Builds a database of ``--matches`` recorded matches fast: a small real
tournament (random against the jass heuristic, inline, logs kept), then copies
of its matches written through the store's own API, each a job of its own.
Then runs ``troef export`` on it in its own process and prints its wall time,
matches and decisions per second, the output's size, and that process's peak
resident memory (its VmHWM, Linux). Issue 32 asks for a
100,000-match database in bounded memory: the peak should not depend on
``--matches``; compare two sizes. It prints figures and asserts nothing.

    python bench/bench_export.py [--matches 100000] [--game klaverjassen]
    [--target 300] [--folder DIR]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.api import run_tournament
from harness.tournament.config import load_config
from harness.tournament.plan import Job
from harness.tournament.store import Store

#: Matches written per transaction while copying.
BATCH = 10_000


def build(folder: Path, game: str, target: int, matches: int) -> Path:
    """A database of ``matches`` recorded matches in ``folder``."""
    config = folder / "export-bench.toml"
    config.write_text(
        f'game = "{game}"\nmatches = 4\nseed = 32\nexecutor = "inline"\n'
        f"keep_logs = true\n[options]\ntarget = {target}\n"
        '[entrants.random]\nbot = "random"\n[entrants.jass]\nbot = "jass"\n',
        encoding="utf-8",
    )
    database = run_tournament(config)
    with Store.existing(database) as store:
        originals = [(Job.from_dict(m.job), m.result) for m in store.matches()]
    have = len(originals)
    with Store.open(database, load_config(config)) as store:
        while have < matches:
            end = min(matches, have + BATCH)
            batch = [
                (dataclasses.replace(job, id=f"{i:016x}", index=i), result)
                for i in range(have, end)
                for job, result in [originals[i % len(originals)]]
            ]
            store.add_jobs(job for job, _ in batch)
            store.record_many(batch)
            have = end
    return database


#: The export in its own process, which then says its own peak resident set
#: (VmHWM: getrusage and wait4 would count what the process held before exec,
#: a copy of this bench's own memory).
_CHILD = """
import sys
from harness.cli import main
code = main(["export", sys.argv[1], "-o", sys.argv[2]])
with open("/proc/self/status") as status:
    peak = [line.split()[1] for line in status if line.startswith("VmHWM:")]
print("VmHWM", *peak, file=sys.stderr)
sys.exit(code)
"""


def export(database: Path) -> tuple[float, float, int, int, str]:
    """Wall s, CPU s, peak RSS (KiB) of the export's process, output bytes, its note."""
    out = database.with_suffix(".jsonl")
    before = os.times()
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(database), str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = os.times()
    if proc.returncode != 0:
        raise SystemExit(f"troef export failed ({proc.returncode}): {proc.stderr}")
    cpu = (after.children_user + after.children_system) - (
        before.children_user + before.children_system
    )
    note, _, peak = proc.stderr.strip().rpartition("\nVmHWM ")
    return wall, cpu, int(peak.split()[0]), out.stat().st_size, note


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--game", default="klaverjassen")
    parser.add_argument("--target", type=int, default=300)
    parser.add_argument(
        "--folder", type=Path, help="keep the database here (default: a temp dir)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = args.folder or Path(temp)
        folder.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        database = build(folder, args.game, args.target, args.matches)
        built = time.perf_counter() - start
        size = database.stat().st_size
        wall, cpu, rss, written, note = export(database)
        decisions = int(note.split()[1]) if note.startswith("exported") else 0
        print(
            f"database: {args.matches:,} matches of {args.game} "
            f"({size / 2**20:.1f} MiB, built in {built:.1f} s)"
        )
        print(f"export: {note.splitlines()[0]}")
        print(f"  wall {wall:.1f} s, CPU {cpu:.1f} s")
        print(
            f"  {args.matches / wall:,.0f} matches/s, {decisions / wall:,.0f} "
            f"decisions/s, {written / 2**20 / wall:.1f} MiB/s of JSON lines "
            f"({written / 2**20:.1f} MiB)"
        )
        print(f"  peak resident memory of the export process: {rss / 1024:.0f} MiB")
        print(
            f"  load average at the end: {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} CPUs"
        )


if __name__ == "__main__":
    main()
