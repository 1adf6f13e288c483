"""Untrusted bots learn nothing and stop nothing (issue 19), tested as attacks.

Each test runs a whole tournament with the default settings for untrusted code
(a bot from a plugin file the config names runs in its own process) and a bot
that attacks: it searches the seeds, kills its worker, or remembers deals.
See ``docs/THREAT_MODEL.md``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from harness.tournament.config import load_config
from harness.tournament.scheduler import run_tournament
from harness.tournament.store import Store
from tests.conftest import TOY_PLUGIN

CHEATS = Path(__file__).parents[1] / "plugins" / "cheating_bots.py"


def write(tmp_path: Path, body: str, *, seed: int | None = 3) -> Path:
    """A toy config with the cheating bots. ``sandbox = "none"``: these tests
    show what the process boundary itself closes, and their bots report
    through files of ``tmp_path`` that the bwrap sandbox would hide (it is
    tested in ``test_sandbox.py``)."""
    path = tmp_path / "t.toml"
    head = f'game = "toy"\nplugins = ["{TOY_PLUGIN}", "{CHEATS}"]\nsandbox = "none"\n'
    if seed is not None:
        head += f"seed = {seed}\n"
    path.write_text(head + body)
    return path


def test_a_bot_searching_small_master_seeds_does_not_find_its_bot_seed(
    tmp_path: Path,
) -> None:
    # The config's seed (3) is within the search, as every shipped config's is:
    # with public bot seeds the cracker finds (3, m) in every match.
    report = tmp_path / "report.jsonl"
    config = load_config(
        write(
            tmp_path,
            f"""
matches = 3
[entrants.cracker]
bot = "seed-cracker"
options = {{ report = "{report}", seeds = 8, indexes = 4 }}
[entrants.other]
bot = "random"
""",
        )
    )
    assert config.entrant("cracker").isolation == "process"
    summary = run_tournament(config)
    assert summary.played == 6 and summary.forfeits == 0
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert len(lines) == 7  # the probe before the run, then 6 matches
    assert all(line["tried"] == 32 and line["found"] is None for line in lines)


@pytest.mark.parametrize("seed", [3, None])
def test_a_bot_searching_master_seeds_by_its_hand_needs_a_known_seed(
    tmp_path: Path, seed: int | None
) -> None:
    # With the seed in the config (3, small) the search by hand succeeds: the
    # reason validate warns. Without, the random 63-bit seed is out of reach.
    report = tmp_path / "report.jsonl"
    path = write(
        tmp_path,
        f"""
matches = 2
[entrants.cracker]
bot = "hand-cracker"
options = {{ report = "{report}", seeds = 8, indexes = 4 }}
[entrants.other]
bot = "random"
""",
        seed=seed,
    )
    config = load_config(path)
    assert any("is small" in w for w in config.warnings) == (seed is not None)
    run_tournament(config)
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert len(lines) == 4  # one search per match (the probe never acts)
    if seed is None:
        from harness.contracts.seeding import derive_seed

        with Store.existing(config.database) as store:
            dealt = {match.job["seed"] for match in store.matches()}
        for line in lines:
            if line["found"] is None:
                assert line["tried"] == 32
            else:
                # Its 3 cards of 24 also lie in one of the 32 deals it tried
                # (some 1.6% a search): a coincidence, not the deal it plays.
                assert derive_seed("match", *line["found"]) not in dealt
    else:
        assert all(
            line["found"] is not None and line["found"][0] == 3 for line in lines
        )


def test_a_config_without_seed_draws_a_random_master_seed_and_keeps_it(
    tmp_path: Path,
) -> None:
    body = """
matches = 1
[entrants.a]
bot = "random"
[entrants.b]
bot = "random"
"""
    config = load_config(write(tmp_path, body, seed=None))
    assert not config.seed_given
    run_tournament(config)
    with Store.existing(config.database) as store:
        master = int(store.meta("master_seed") or 0)
        assert master.bit_length() > 40  # 63 random bits (2^-23 to fail by chance)
        seeds = {m.job["seed"] for m in store.matches()}
        resolved = store.resolve(config)
    assert resolved.seed == master
    from harness.tournament.plan import plan

    assert {job.seed for job in plan(resolved)} == seeds


def test_a_database_from_before_random_seeds_resumes_with_its_seed(
    tmp_path: Path,
) -> None:
    import sqlite3

    from harness.tournament.plan import plan

    body = 'matches = 2\n[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
    config = load_config(write(tmp_path, body, seed=None))
    run_tournament(config)
    # Make it look as an old run made it: the snapshot says seed 1 (the old
    # default), no master seed kept, and the jobs dealt from seed 1.
    import dataclasses

    old = dataclasses.replace(config, seed=1, seed_given=True)
    db = sqlite3.connect(config.database)
    with db:
        db.execute("DELETE FROM meta WHERE key = 'master_seed'")
        db.execute(
            "UPDATE meta SET value = ? WHERE key = 'config'", (old.snapshot_json(),)
        )
        for table in ("logs", "thinking", "seat_results", "results", "jobs"):
            db.execute(f"DELETE FROM {table}")
    db.close()
    with Store.open(config.database, old) as store:
        store.add_jobs(plan(old)[:1])
    summary = run_tournament(config)
    assert summary.played == 4
    with Store.existing(config.database) as store:
        assert store.meta("master_seed") == "1"
        assert {m.job["seed"] for m in store.matches()} == {j.seed for j in plan(old)}


def test_the_database_is_owner_only_and_a_readable_config_is_warned_about(
    tmp_path: Path,
) -> None:
    trusted = '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
    path = write(tmp_path, trusted)
    path.chmod(0o644)
    config = load_config(path)
    assert config.warnings == ()  # trusted bots only: nothing to hide from them
    run_tournament(config)
    for suffix in ("", "-wal", "-shm", ".lock"):
        file = Path(str(config.database) + suffix)
        if file.exists():
            assert file.stat().st_mode & 0o077 == 0, file
    with Store.existing(config.database) as store:
        # Trusted bots only: no secret, public bot seeds (reproducible from the seed).
        assert store.meta("bot_secret") is None
    # An untrusted entrant: the seed in the config and the readable file are named.
    untrusted = write(tmp_path, trusted + 'isolation = "process"\n')
    untrusted.chmod(0o644)
    warnings = load_config(untrusted).warnings
    assert any("seed = 3 is small" in w for w in warnings)
    assert any("readable by other users" in w for w in warnings)
    untrusted.chmod(0o600)
    assert not any("readable" in w for w in load_config(untrusted).warnings)


@pytest.mark.parametrize("signal", [9, 15])
def test_a_bot_that_kills_its_worker_forfeits_and_every_other_match_is_recorded(
    tmp_path: Path, signal: int
) -> None:
    # Chunks of 6 jobs, 4 interleaved per worker: a death can catch several
    # awaited bots at once, which then replay alone and forfeit at the second.
    config = load_config(
        write(
            tmp_path,
            f"""
matches = 2
workers = 2
chunk = 6
[entrants.killer]
bot = "worker-killer"
options = {{ signal = {signal} }}
[entrants.a]
bot = "random"
[entrants.b]
bot = "random"
""",
        )
    )
    summary = run_tournament(config)
    assert summary.played == 12 and summary.forfeits == 8
    assert summary.pool_restarts >= 1
    with Store.existing(config.database) as store:
        matches = list(store.matches())
    assert len(matches) == 12
    for match in matches:
        seating = match.job["seating"]
        forfeit = match.result.forfeit
        if "killer" in seating:
            assert forfeit is not None and seating[forfeit.seat] == "killer"
            assert "killed its worker" in forfeit.detail
        else:
            assert forfeit is None


def ladder(tmp_path: Path, plugins: str) -> Path:
    """A toy ladder; ``sandbox = "none"`` as in :func:`write` (its thieves
    report through files)."""
    path = tmp_path / "ladder.toml"
    path.write_text(
        f'game = "toy"\nformat = "ladder"\nseed = 4\nplugins = [{plugins}]\n'
        'sandbox = "none"\n'
        'executor = "inline"\n[ladder]\nexplore = 0\n'
        '[entrants.r1]\nbot = "random"\n'
    )
    return path


def test_a_plugin_bot_added_to_a_ladder_runs_in_its_own_process(
    tmp_path: Path,
) -> None:
    from harness.cli import main
    from harness.tournament.ladder import Ladder

    path = ladder(tmp_path, f'"{TOY_PLUGIN}", "{CHEATS}"')
    report = tmp_path / "r.json"
    assert (
        main(
            ["ladder", "add", str(path), "thief", "gc-thief", "-o", f"report={report}"]
        )
        == 0
    )
    config = load_config(path)
    with Ladder(config) as lad:
        assert lad.entrants()[1].isolation == "process"
        lad.run(1)
    # In-process the thief walks gc to the referee's State; in its process, none.
    found = json.loads(report.read_text())
    assert found["hand"] is None and found["probes"]["states"] == "0"


def test_a_plugin_file_bot_and_a_program_join_a_running_ladder(
    tmp_path: Path,
) -> None:
    import shlex

    from harness.cli import main
    from harness.isolation.bothost import host_command
    from harness.plugins import PluginSource
    from harness.tournament.ladder import Ladder

    path = ladder(tmp_path, f'"{TOY_PLUGIN}"')
    (tmp_path / "r1").mkdir()
    with Ladder(load_config(path)) as lad:
        lad.add("r2", "random")
        lad.run(1)
    report = tmp_path / "r.json"
    argv = ["ladder", "add", str(path), "thief", "frame-thief", "--file", str(CHEATS)]
    assert main([*argv, "-o", f"report={report}"]) == 0
    program = host_command("random", PluginSource(files=(str(TOY_PLUGIN),)))
    assert (
        main(["ladder", "add", str(path), "prog", "--command", shlex.join(program)])
        == 0
    )
    with Ladder(load_config(path)) as lad:
        by = {e.label: e for e in lad.entrants()}
        assert by["thief"].isolation == "process" and by["prog"].isolation == "process"
        assert by["thief"].process is not None and by["prog"].process is not None
        assert by["thief"].process.plugins == (str(CHEATS),)
        assert by["prog"].process.command == tuple(program)
        rounds = lad.run(2)
        assert all(r.played for r in rounds)
        with Store.existing(config_db(path)) as store:
            assert store.forfeit_count() == 0, store.forfeits()
            seated = {x for m in store.matches() for x in m.job["seating"]}
    assert {"thief", "prog"} <= seated
    assert json.loads(report.read_text())["hand"] is None


def config_db(path: Path) -> Path:
    return load_config(path).database


def remember(
    tmp_path: Path, reuse: str, store: str = "", prefix: str = ""
) -> list[dict[str, Any]]:
    """A duplicate tournament of a bot remembering deals; its per-deal lines."""
    folder = tmp_path / f"{reuse}{'-store' if store else ''}{'-ro' if prefix else ''}"
    folder.mkdir()
    report = folder / "report.jsonl"
    path = write(
        folder,
        f"""
matches = 4
workers = 1
in_flight = 1
[entrants.memo]
bot = "rememberer"
options = {{ report = "{report}", store = "{store}" }}
reuse = "{reuse}"
{prefix}
[entrants.r]
bot = "random"
""",
        seed=None,
    )
    summary = run_tournament(load_config(path))
    assert summary.played == 8 and summary.forfeits == 0
    return [json.loads(line) for line in report.read_text().splitlines()]


def test_a_bot_remembering_duplicate_deals_predicts_nothing(tmp_path: Path) -> None:
    # Free reuse (trusted bots): one process plays a deal, then its twin in the
    # other seat, and knows the other hand from memory.
    free = remember(tmp_path, "free")
    assert sum(int(line["right"]) for line in free) >= 8
    # The default: a process never sees a match seed twice; its folder (memory.json)
    # goes with it. What is left is chance (a 3-card guess among 9 unseen cards).
    fresh = remember(tmp_path, "fresh-deals")
    assert len(fresh) == 16  # 8 matches of 2 deals
    predicted = sum(int(line["predicted"]) for line in fresh)
    right = sum(int(line["right"]) for line in fresh)
    # By chance a third of the predicted cards are right (mean + 4: under 0.5 %
    # to fail by chance); remembering, three quarters are (18 of 24 above).
    assert right <= predicted / 3 + 4
    # The private folders are removed with their processes.
    assert not any(Path(str(line["cwd"])).exists() for line in fresh + free)


#: The sandbox of docs/THREAT_MODEL.md: a mount namespace in which every mount
#: is read-only but the bot's own folder (as root; otherwise add
#: "--user", "--map-root-user" after "unshare").
READ_ONLY = (
    'for m in $(cut -d" " -f2 /proc/self/mounts); do '
    'mount -o remount,bind,ro "$m" 2>/dev/null; done; '
    'mount --bind "$PWD" "$PWD" && mount -o remount,bind,rw "$PWD" && '
    'cd "$PWD" && exec "$@"'
)


def _can_mount_read_only() -> bool:
    import shutil
    import subprocess

    if shutil.which("unshare") is None:
        return False
    probe = ["unshare", "--mount", "--propagation", "private", "--"]
    probe += ["sh", "-c", READ_ONLY, "sandbox", "true"]
    return subprocess.run(probe, capture_output=True).returncode == 0


@pytest.mark.skipif(
    not _can_mount_read_only(),
    reason="needs unshare and the right to make a mount namespace (root, or "
    "unprivileged user namespaces)",
)
def test_shared_storage_carries_memory_unless_the_sandbox_makes_it_read_only(
    tmp_path: Path,
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    store = str(shared / "memory.json")
    # Fresh processes, but a file every process can write: the memory survives.
    open_store = remember(tmp_path, "fresh-deals", store=store)
    assert sum(int(line["right"]) for line in open_store) >= 8
    Path(store).unlink()
    # The same bot under the read-only sandbox (the report's folder is made
    # writable for the test's sake: it is the test's instrument, not the bot's).
    report_dir = tmp_path / "fresh-deals-store-ro"
    script = READ_ONLY.replace(
        "cd ",
        f'mount --bind "{report_dir}" "{report_dir}" && '
        f'mount -o remount,bind,rw "{report_dir}" && cd ',
    )
    argv = ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c"]
    prefix = "prefix = " + json.dumps([*argv, script, "sandbox"])
    sandboxed = remember(tmp_path, "fresh-deals", store=store, prefix=prefix)
    assert len(sandboxed) == 16
    assert not Path(store).exists()
    predicted = sum(int(line["predicted"]) for line in sandboxed)
    right = sum(int(line["right"]) for line in sandboxed)
    assert right <= predicted / 3 + 4


SYSTEM_PYTHON = "/usr/bin/python3"
PROBE = Path(__file__).parents[1] / "plugins" / "nobody_probe.py"


def _reachable_by_others(path: Path) -> bool:
    """Every folder on the way world-searchable, the file world-readable."""
    path = path.resolve()
    folders_ok = all(p.stat().st_mode & 0o001 for p in path.parents)
    return folders_ok and bool(path.stat().st_mode & 0o004)


@pytest.mark.skipif(
    os.geteuid() != 0
    or not Path(SYSTEM_PYTHON).exists()
    or not _reachable_by_others(Path(SYSTEM_PYTHON))
    or not _reachable_by_others(PROBE),
    reason="needs a root harness, and a Python and probe that user 'nobody' can run",
)
def test_a_bot_run_as_nobody_reads_no_owner_only_file_and_signals_nothing() -> None:
    import shutil
    import tempfile

    # A world-searchable folder, so that only the files' own modes decide.
    folder = Path(tempfile.mkdtemp(prefix="troef-nobody-"))
    folder.chmod(0o755)
    try:
        found = []
        for mode in (0o644, 0o600):
            path = folder / f"t{mode:o}.toml"
            database = folder / f"t{mode:o}.sqlite"
            path.write_text(
                f'game = "toy"\nplugins = ["{TOY_PLUGIN}"]\nmatches = 1\n'
                f'database = "{database}"\n[entrants.r]\nbot = "random"\n'
                f'[entrants.probe]\ncommand = ["{SYSTEM_PYTHON}", "-I", "{PROBE}", '
                f'"{path}", "{database}"]\nuser = "nobody"\nsandbox = "none"\n'
            )
            path.chmod(mode)
            summary = run_tournament(load_config(path))
            assert summary.played == 2
            with Store.existing(database) as store:
                found.append(
                    [
                        m.result.forfeit.detail
                        for m in store.matches()
                        if m.result.forfeit is not None
                    ]
                )
        # A world-readable config is read; the owner-only database never is,
        # and neither the worker nor 'troef run' can be signalled.
        assert found[0] and all("REACHED:t644.toml" in d for d in found[0])
        assert all("sqlite" not in d and "signal" not in d for d in found[0])
        assert found[1] == []
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _state(pid: int, wanted: str = "") -> str:
    """The process's state letter; with ``wanted``, waited for up to 2 s (a
    signal takes effect when the process is next scheduled)."""
    import time

    deadline = time.monotonic() + 2.0
    while True:
        stat = Path(f"/proc/{pid}/stat").read_text()
        state = stat[stat.rindex(")") + 2]
        if not wanted or state == wanted or time.monotonic() > deadline:
            return state
        time.sleep(0.01)


def test_an_idle_bot_process_is_stopped_between_its_matches() -> None:
    from bots.random_bot import RandomBot
    from harness.isolation.bothost import host_command
    from harness.isolation.botpool import ProcessPool
    from harness.isolation.botprocess import ProcessBot
    from harness.match.referee import play_match
    from harness.plugins import load_plugins

    registry = load_plugins(files=[TOY_PLUGIN])
    toy = registry.game("toy")
    command = host_command("random", registry.source)
    pool = ProcessPool()
    try:
        bot = ProcessBot(toy, 0, 1, command=command, pool=pool, deal=1)
        pid = bot.pid
        assert pid is not None
        play_match(toy, [bot, RandomBot(toy, 1, 2)], 1)
        # Idle in the pool: stopped, it can neither act nor take CPU.
        assert pool.idle_count() == 1 and _state(pid, "T") == "T"
        again = ProcessBot(toy, 0, 3, command=command, pool=pool, deal=2)
        assert again.pid == pid and _state(pid, "S") != "T"
        result = play_match(toy, [again, RandomBot(toy, 1, 4)], 2)
        assert result.forfeit is None
        # A match of a deal it served already gets a fresh process.
        third = ProcessBot(toy, 0, 5, command=command, pool=pool, deal=1)
        assert third.pid != pid
        third.abandon()
    finally:
        pool.close()
