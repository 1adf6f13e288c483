"""The cost of process isolation per decision, and matches/s, against in-process bots.

For the toy game of the harness tests (3 seats, 12 decisions a match) and for
Klaverjassen (4 seats), random bots play the same matches several ways:

- ``in-process``: ``play_match`` with ``RandomBot`` objects: the floor;
- ``process, sync``: ``play_match`` with ``ProcessBot``s served by the Python
  host, one blocking round trip per decision (the naive way);
- ``process, K one-at-a-time``: ``play_matches_interleaved`` with K matches at
  once in one worker, each match with its own processes, one request at a
  time per process (``pipeline = false``);
- ``process, K pipelined``: the same, but one process per seat serves all K
  matches (the host declares ``"matches": 8``): requests carry match ids and
  are written in batches, so one wake-up of the bot and of the worker serves
  many decisions;
- ``node, K pipelined``: the same with ``examples/bots/random_bot.js``.

With ``--secure`` the process bots run under the security defaults of a
tournament with untrusted entrants: bot seeds keyed with a secret, the worker's
watch of awaited bots kept up to date, and a process never serving one match
seed twice (each timed run plays fresh seeds, as a tournament's later matches
do, so processes are reused only across deals), and each pipelined mode is
measured again with the bots in the bubblewrap sandbox (``..., bwrap``: the
default of untrusted bots; under root each process a uid of its own). It also
times the start-up of a bot process, from its start to its ``ready``, without
and with the sandbox (medians of ``--starts`` starts): the sandbox is paid once
per process, and the goal is at most 50 ms more.

Bot processes are started before the timing (they are kept across matches in a
tournament too). The figure that counts is the *added cost per decision
measured as throughput*: (wall time of the mode - wall time in-process) /
decisions. It also prints the CPU time per decision of the worker and of the
bot processes (from ``/proc``), which is less sensitive to a busy machine than
wall time, and their sum less the in-process CPU (``added cpu``): on a machine
with a core free for the bots, the added wall time tends to the larger of the
worker's and the bots' added CPU, not their sum. Medians of ``--repeats``
runs. The machine is shared and noisy: compare figures from one run.

    python bench/bench_isolation.py [--quick] [--secure] [--starts N] [--json out.json]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bots.random_bot import RandomBot  # noqa: E402
from harness.contracts.seeding import bot_seed, new_secret  # noqa: E402
from harness.isolation.bothost import host_command  # noqa: E402
from harness.isolation.botpool import ProcessPool  # noqa: E402
from harness.isolation.botprocess import ProcessBot  # noqa: E402
from harness.isolation.multiplex import MatchSpec, play_matches_interleaved  # noqa: E402
from harness.isolation.reaper import set_watch  # noqa: E402
from harness.isolation.sandbox import (  # noqa: E402
    process_ids,
    python_binds,
    release_ids,
    unavailable,
    wrap,
)
from harness.match.referee import make_bots, play_match  # noqa: E402
from harness.plugins import load_plugins  # noqa: E402

TOY = ROOT / "tests" / "plugins" / "toy_game.py"
JS_BOT = ROOT / "examples" / "bots" / "random_bot.js"
GOAL_US = 30.0
#: The most start-up time the sandbox may add to a bot process, in ms.
GOAL_START_MS = 50.0
_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_of(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _pool_pids(pool: ProcessPool) -> list[int]:
    """The pool's bot processes and their descendants: under bwrap the bot
    is bwrap's grandchild, whose CPU time bwrap's own does not count."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    found = [p.pid for idle in pool._idle.values() for p in idle]
    todo = list(found)
    while todo:
        parent = todo.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        todo += children
    return found


def timed(run: Callable[[], list[Any]], pool: ProcessPool | None) -> dict[str, float]:
    """Run once; wall seconds, decisions, CPU seconds of this process and the bots."""
    pids = _pool_pids(pool) if pool else []
    bots_before = {pid: _cpu_of(pid) for pid in pids}
    own_before = _own_cpu()
    start = time.perf_counter()
    results = run()
    wall = time.perf_counter() - start
    own = _own_cpu() - own_before
    bots = sum(_cpu_of(pid) - cpu for pid, cpu in bots_before.items())
    assert all(r.forfeit is None for r in results), [
        r.forfeit for r in results if r.forfeit
    ]
    decisions = sum(len(r.log) for r in results)
    return {
        "wall": wall,
        "decisions": decisions,
        "matches": len(results),
        "own_cpu": own,
        "bot_cpu": bots,
    }


def measure(
    game: Any,
    seats: int,
    matches: int,
    repeats: int,
    ks: list[int],
    node: bool,
    secure: bool = False,
) -> list[dict[str, Any]]:
    registry_source = host_command("random", load_plugins(files=[TOY]).source)
    rows: list[dict[str, Any]] = []
    seeds = range(matches)
    secret = new_secret() if secure else b""

    def in_process() -> list[Any]:
        return [
            play_match(game, make_bots(game, [RandomBot] * seats, s), s, keep_log=True)
            for s in seeds
        ]

    def process_bots(
        pool: ProcessPool,
        command: list[str],
        seed: int,
        lazy: bool,
        pipeline: bool = True,
        sandbox: str = "none",
    ) -> Any:
        binds = python_binds((), True) if command[0] != "node" else ()
        made = [
            functools.partial(
                ProcessBot,
                game,
                seat,
                bot_seed(seed, seat, secret),
                command=command,
                pool=pool,
                n_seats=seats,
                deal=seed if secure else None,
                tag=f"bench-{seed} {seat}" if secure else "",
                pipeline=pipeline,
                sandbox=sandbox,
                binds=binds if sandbox == "bwrap" else (),
            )
            for seat in range(seats)
        ]
        return made if lazy else [m() for m in made]

    fresh = [0]

    def next_seeds() -> range:
        # Secure: every run deals seeds no process has seen (a tournament's
        # later matches), else the pool would start new processes each run.
        if not secure:
            return seeds
        fresh[0] += 1
        return range(fresh[0] * 100_000, fresh[0] * 100_000 + matches)

    def sync(pool: ProcessPool, command: list[str]) -> Callable[[], list[Any]]:
        return lambda: [
            play_match(game, process_bots(pool, command, s, False), s, keep_log=True)
            for s in next_seeds()
        ]

    def interleaved(
        pool: ProcessPool,
        command: list[str],
        k: int,
        pipeline: bool,
        sandbox: str = "none",
    ) -> Callable[[], list[Any]]:
        return lambda: play_matches_interleaved(
            [
                MatchSpec(
                    game,
                    process_bots(pool, command, s, True, pipeline, sandbox),
                    s,
                    keep_log=True,
                )
                for s in next_seeds()
            ],
            in_flight=k,
        )

    js = ["node", str(JS_BOT)]
    # (name, how to run it with a pool, matches in flight, command, pipelined)
    # (name, how to run it with a pool, matches in flight, command, pipelined,
    # sandbox)
    modes: list[
        tuple[
            str,
            Callable[[ProcessPool], Callable[[], list[Any]]] | None,
            int,
            list[str],
            bool,
            str,
        ]
    ] = [
        ("in-process", None, 0, [], False, "none"),
        (
            "process, sync",
            lambda pool: sync(pool, registry_source),
            1,
            registry_source,
            False,
            "none",
        ),
    ]
    sandboxes = ["none", "bwrap"] if secure and unavailable() is None else ["none"]
    for k in ks:
        modes.append(
            (
                f"process, {k} one-at-a-time",
                functools.partial(
                    interleaved, command=registry_source, k=k, pipeline=False
                ),
                k,
                registry_source,
                False,
                "none",
            )
        )
        modes += [
            (
                f"process, {k} pipelined" + (", bwrap" if box == "bwrap" else ""),
                functools.partial(
                    interleaved,
                    command=registry_source,
                    k=k,
                    pipeline=True,
                    sandbox=box,
                ),
                k,
                registry_source,
                True,
                box,
            )
            for box in sandboxes
        ]
    if node:
        modes += [
            (
                f"node, {k} pipelined" + (", bwrap" if box == "bwrap" else ""),
                functools.partial(
                    interleaved, command=js, k=k, pipeline=True, sandbox=box
                ),
                k,
                js,
                True,
                box,
            )
            for k in ks[-2:]
            for box in sandboxes
        ]
    # A mode and its sandboxed twin are timed in alternation, repeat by
    # repeat, so that the machine's load changes hit both alike.
    groups: list[list[Any]] = []
    for mode in modes:
        if mode[5] == "bwrap" and groups and groups[-1][0][0] + ", bwrap" == mode[0]:
            groups[-1].append(mode)
        else:
            groups.append([mode])
    for group in groups:
        started: list[tuple[ProcessPool | None, Any, list[dict[str, float]]]] = []
        for name, make, k, command, pipeline, box in group:
            pool = ProcessPool() if make else None
            run = in_process if make is None or pool is None else make(pool)
            if pool is not None:
                # Start the bot processes before timing: a tournament keeps them.
                first = range(max(k, 1))
                if name.startswith("process, sync"):
                    for s in first:
                        play_match(
                            game, process_bots(pool, registry_source, s, False), s
                        )
                else:
                    play_matches_interleaved(
                        [
                            MatchSpec(
                                game,
                                process_bots(pool, command, s, True, pipeline, box),
                                s,
                            )
                            for s in first
                        ],
                        in_flight=k,
                    )
            started.append((pool, run, []))
        for _ in range(repeats):
            for pool, run, runs in started:
                runs.append(timed(run, pool))
        for (name, _, k, _, pipeline, box), (pool, _, runs) in zip(
            group, started, strict=True
        ):
            if pool is not None:
                pool.close()
            rows.append(
                {
                    "mode": name,
                    "in_flight": k,
                    "pipelined": pipeline,
                    "sandbox": box,
                    "us_per_decision": statistics.median(
                        r["wall"] / r["decisions"] for r in runs
                    )
                    * 1e6,
                    "matches_per_s": statistics.median(
                        r["matches"] / r["wall"] for r in runs
                    ),
                    "worker_cpu_us": statistics.median(
                        r["own_cpu"] / r["decisions"] for r in runs
                    )
                    * 1e6,
                    "bot_cpu_us": statistics.median(
                        r["bot_cpu"] / r["decisions"] for r in runs
                    )
                    * 1e6,
                    "runs": runs,
                }
            )
    floor = rows[0]["us_per_decision"]
    cpu_floor = rows[0]["worker_cpu_us"]
    for row in rows:
        row["added_us"] = row["us_per_decision"] - floor
        # CPU the isolation adds (worker and bots), less sensitive to the load.
        row["added_cpu_us"] = row["worker_cpu_us"] + row["bot_cpu_us"] - cpu_floor
    return rows


def startup(game: Any, command: list[str], starts: int) -> dict[str, float]:
    """Median seconds from starting a bot process to its ``ready``, per
    sandbox; the two alternate, so that a change of the machine's load hits
    both alike."""
    binds = python_binds((), True) if command[0] != "node" else ()
    times: dict[str, list[float]] = {"none": [], "bwrap": []}
    for n in range(starts):
        for sandbox in times:
            pool = ProcessPool(max_idle=0)
            begin = time.perf_counter()
            bot = ProcessBot(
                game,
                0,
                n,
                command=command,
                pool=pool,
                n_seats=2,
                sandbox=sandbox,
                binds=binds if sandbox == "bwrap" else (),
            )
            bot.prepare()
            times[sandbox].append(time.perf_counter() - begin)
            bot.abandon()
            pool.close()
    return {box: statistics.median(t) for box, t in times.items()}


def _median_run(argv: list[str], starts: int) -> float:
    """Median seconds to run ``argv`` to its end."""
    times = []
    for _ in range(starts):
        begin = time.perf_counter()
        subprocess.run(argv, check=True, stdin=subprocess.DEVNULL)
        times.append(time.perf_counter() - begin)
    return statistics.median(times)


def startup_report(game: Any, node: bool, starts: int) -> dict[str, Any]:
    """Start-up of a bot process without and with the sandbox, in ms."""
    commands = [
        ("python host", host_command("random", load_plugins(files=[TOY]).source))
    ]
    if node:
        commands.append(("node", ["node", str(JS_BOT)]))
    print(
        f"\nstart-up to 'ready', median of {starts} starts (goal: bwrap adds "
        f"<= {GOAL_START_MS:g} ms)"
    )
    print(f"{'bot':<14}{'none ms':>10}{'bwrap ms':>10}{'added ms':>10}{'ratio':>8}")
    rows: dict[str, Any] = {}
    # The sandbox's own cost, without an interpreter's start-up to hide in.
    true = shutil.which("true") or "/bin/true"
    ids = process_ids()
    plain = _median_run([true], starts) * 1e3
    boxed = _median_run(wrap([true], cwd="/", binds=(), ids=ids), starts) * 1e3
    release_ids(ids)
    rows["true"] = {"none_ms": plain, "bwrap_ms": boxed, "added_ms": boxed - plain}
    print(f"{'true':<14}{plain:>10.1f}{boxed:>10.1f}{boxed - plain:>10.1f}")
    for name, command in commands:
        medians = startup(game, command, starts)
        plain, boxed = medians["none"] * 1e3, medians["bwrap"] * 1e3
        rows[name] = {"none_ms": plain, "bwrap_ms": boxed, "added_ms": boxed - plain}
        print(
            f"{name:<14}{plain:>10.1f}{boxed:>10.1f}{boxed - plain:>10.1f}"
            f"{boxed / plain:>8.2f}"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="fewer matches and repeats"
    )
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--in-flight", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument(
        "--json", type=Path, default=None, help="write the figures here"
    )
    parser.add_argument(
        "--secure",
        action="store_true",
        help="the security defaults for untrusted bots (keyed seeds, watch, "
        "fresh deals per process, the bwrap sandbox beside none; start-up times)",
    )
    parser.add_argument(
        "--starts", type=int, default=None, help="bot starts timed (--secure)"
    )
    args = parser.parse_args()
    if args.secure:
        import tempfile

        set_watch(os.path.join(tempfile.mkdtemp(prefix="troef-bench-"), "watch"))
    repeats = args.repeats or (2 if args.quick else 5)
    registry = load_plugins(files=[TOY])
    games = [
        ("toy (3 seats)", registry.game("toy"), 3, 150 if args.quick else 1000),
        (
            "klaverjassen (4 seats, to 1500)",
            registry.game("klaverjassen"),
            4,
            8 if args.quick else 24,
        ),
    ]
    node = shutil.which("node") is not None
    print(
        f"bench_isolation: {os.cpu_count()} cpus, "
        f"load {os.getloadavg()[0]:.1f}, repeats {repeats}"
        + (", security defaults on" if args.secure else "")
    )
    report: dict[str, Any] = {
        "goal_added_us": GOAL_US,
        "cpus": os.cpu_count(),
        "games": {},
    }
    for title, game, seats, matches in games:
        rows = measure(game, seats, matches, repeats, args.in_flight, node, args.secure)
        report["games"][title] = rows
        print(
            f"\n{title}: {matches} matches, {rows[0]['runs'][0]['decisions']} decisions"
        )
        print(
            f"{'mode':<26}{'us/decision':>12}{'added us':>10}{'matches/s':>11}"
            f"{'worker cpu':>12}{'bot cpu':>9}{'added cpu':>11}"
        )
        for row in rows:
            print(
                f"{row['mode']:<26}{row['us_per_decision']:>12.1f}{row['added_us']:>10.1f}"
                f"{row['matches_per_s']:>11.1f}{row['worker_cpu_us']:>12.1f}"
                f"{row['bot_cpu_us']:>9.1f}{row['added_cpu_us']:>11.1f}"
            )
        # The goal: at 4-8 matches in flight, pipelined, the Python host.
        for box in dict.fromkeys(r["sandbox"] for r in rows[1:]):
            goal_rows = [
                r
                for r in rows
                if r["pipelined"]
                and 4 <= r["in_flight"] <= 8
                and r["mode"][0] == "p"
                and r["sandbox"] == box
            ] or rows[2:]
            best = min(goal_rows, key=lambda r: r["added_us"])
            verdict = "met" if best["added_us"] <= GOAL_US else "NOT met"
            print(
                f"goal: added cost <= {GOAL_US:g} us/decision at 4-8 in flight, "
                f"sandbox {box}: {verdict} (best: {best['mode']}, "
                f"{best['added_us']:.1f} us)"
            )
        boxed = [r for r in rows if r["sandbox"] == "bwrap" and r["in_flight"] == 8]
        for row in boxed:
            plain = next(
                r for r in rows if r["mode"] == row["mode"].removesuffix(", bwrap")
            )
            print(
                f"sandbox at 8 in flight ({row['mode'].split(',')[0]}): "
                f"{row['added_us']:.1f} us/decision added to in-process, "
                f"{row['us_per_decision'] - plain['us_per_decision']:+.1f} us "
                "against the same mode unsandboxed"
            )
    if args.secure:
        if unavailable() is not None:
            print(f"\nno sandbox figures: {unavailable()}")
        else:
            starts = args.starts or (5 if args.quick else 20)
            report["startup"] = startup_report(registry.game("toy"), node, starts)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
