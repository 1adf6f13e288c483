"""Untrusted bots learn nothing and stop nothing (issue 19), tested as attacks.

Each test runs a whole tournament with the default settings for untrusted code
(a bot from a plugin file the config names runs in its own process) and a bot
that attacks: it searches the seeds, kills its worker, or remembers deals.
See ``docs/THREAT_MODEL.md``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from harness.config import load_config
from harness.scheduler import run_tournament
from harness.store import Store
from tests.conftest import TOY_PLUGIN

CHEATS = Path(__file__).parents[1] / "plugins" / "cheating_bots.py"


def write(tmp_path: Path, body: str, *, seed: int | None = 3) -> Path:
    path = tmp_path / "t.toml"
    head = f'game = "toy"\nplugins = ["{TOY_PLUGIN}", "{CHEATS}"]\n'
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
    from harness.plan import plan

    assert {job.seed for job in plan(resolved)} == seeds


def test_the_database_is_owner_only(tmp_path: Path) -> None:
    config = load_config(
        write(tmp_path, '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n')
    )
    run_tournament(config)
    assert config.database.stat().st_mode & 0o077 == 0
    db = sqlite3.connect(config.database)
    (secret,) = db.execute(
        "SELECT value FROM meta WHERE key='bot_secret'"
    ).fetchone() or (None,)
    db.close()
    assert secret is None  # trusted bots only: public, reproducible bot seeds


def test_a_bot_that_kills_its_worker_forfeits_and_every_other_match_is_recorded(
    tmp_path: Path,
) -> None:
    # Chunks of 6 jobs, 4 interleaved per worker: a death can catch several
    # awaited bots at once, which then replay alone and forfeit at the second.
    config = load_config(
        write(
            tmp_path,
            """
matches = 2
workers = 2
chunk = 6
[entrants.killer]
bot = "worker-killer"
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
