"""Isolation and time controls from tournament configs, end to end.

A gauntlet of deliberately broken bots, each in its own process, against
random play on a real process pool: every fault is a forfeit with its reason,
the tournament plays every planned match, and nothing recorded is lost.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from harness.contracts.errors import ConfigError
from harness.tournament.config import load_config
from harness.tournament.scheduler import run_tournament
from tests.conftest import TOY_PLUGIN

BROKEN = Path(__file__).parents[1] / "plugins" / "broken_bots.py"
JS_BOT = Path(__file__).parents[2] / "examples" / "bots" / "random_bot.js"


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nseed = 2\nplugins = ["{TOY_PLUGIN}", "{BROKEN}"]\n' + body
    )
    return path


def test_defaults_trust_installed_bots_and_isolate_submitted_ones(
    tmp_path: Path,
) -> None:
    config = load_config(
        write(
            tmp_path,
            f"""
[entrants.builtin]
bot = "random"
[entrants.submitted]
bot = "raises"
[entrants.program]
command = ["node", "{JS_BOT}"]
[entrants.forced]
bot = "random"
isolation = "process"
prefix = ["env"]
memory_mb = 256
[entrants.forced.time_control]
move = 0.5
""",
        )
    )
    by = {e.label: e for e in config.entrants}
    assert by["builtin"].isolation == "in-process"
    assert by["submitted"].isolation == "process"  # from a plugin file the config names
    assert by["program"].process is not None and by["forced"].process is not None
    assert by["forced"].time_control is not None
    assert by["program"].isolation == "process" and by["program"].process.command == (
        "node",
        str(JS_BOT),
    )
    assert (
        by["forced"].process.prefix == ("env",)
        and by["forced"].process.memory_mb == 256
    )
    assert by["forced"].time_control.move == 0.5 and by["builtin"].time_control is None


@pytest.mark.parametrize(
    ("entrant", "message"),
    [
        (
            'bot = "random"\nisolation = "sandbox"',
            'isolation: \'sandbox\' is not allowed; expected "in-process" or "process"',
        ),
        (
            'bot = "random"\nisolation = "in-process"\nmemory_mb = 100',
            'memory_mb: only a bot with isolation = "process" takes this key',
        ),
        (
            'bot = "random"\nisolation = "process"\nmemory_mb = 2',
            "memory_mb: 2 is not allowed; expected an integer >= 16",
        ),
        (
            'bot = "random"\n[entrants.a.time_control]\nmove = -1',
            "time control 'move' is -1",
        ),
        (
            'bot = "random"\n[entrants.a.time_control]\nmoves = 1',
            "moves: unknown key; did you mean 'move'?",
        ),
        ('command = "node"\nbot = 3', "entrants.a.bot: missing or not a string"),
    ],
)
def test_bad_isolation_settings(tmp_path: Path, entrant: str, message: str) -> None:
    path = write(tmp_path, f'[entrants.a]\n{entrant}\n[entrants.b]\nbot = "random"\n')
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert message in str(info.value) and str(path) in str(info.value)


@pytest.mark.slow
def test_every_fault_forfeits_and_the_tournament_plays_on(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
format = "gauntlet"
candidates = ["raises", "illegal", "hangs", "exits", "killed", "memory-hog"]
workers = 2
in_flight = 3
[entrants.random]
bot = "random"
[entrants.raises]
bot = "raises"
[entrants.illegal]
bot = "illegal"
[entrants.hangs]
bot = "hangs"
[entrants.hangs.time_control]
move = 0.3
[entrants.exits]
bot = "exits"
[entrants.killed]
bot = "killed"
[entrants.memory-hog]
bot = "memory-hog"
memory_mb = 400
""",
    )
    summary = run_tournament(load_config(path))
    assert summary.played == summary.planned == 6 * 2
    with sqlite3.connect(tmp_path / "t.sqlite") as con:
        rows = con.execute(
            "SELECT s.entrant, r.forfeit_reason, r.forfeit_detail FROM results r "
            "JOIN seat_results s ON s.job_id = r.job_id AND s.seat = r.forfeit_seat"
        ).fetchall()
        ranks = con.execute(
            "SELECT s.entrant, s.rank FROM seat_results s "
            "JOIN results r ON r.job_id = s.job_id WHERE r.forfeit_seat = s.seat"
        ).fetchall()
    reasons = {(entrant, reason) for entrant, reason, _ in rows}
    assert reasons == {
        ("raises", "exception"),
        ("illegal", "illegal-action"),
        ("hangs", "timeout"),
        ("exits", "crash"),
        ("killed", "crash"),
        ("memory-hog", reasons_of(rows, "memory-hog")),
    }
    assert len(rows) == 12  # every match of a broken bot, each rotation: a forfeit
    assert all(rank == 2 for _, rank in ranks)  # the forfeiting seat loses
    details = {entrant: detail for entrant, _, detail in rows}
    assert "RuntimeError" in details["raises"] or "raise" in details["raises"].lower()
    assert "exit" in details["exits"].lower()
    assert "signal" in details["killed"].lower() or "SIGKILL" in details["killed"]


def reasons_of(rows: list[tuple[str, str, str]], entrant: str) -> str:
    # A memory limit shows as a MemoryError (exception) or as the process dying (crash).
    (reason,) = {r for e, r, _ in rows if e == entrant}
    assert reason in ("exception", "crash")
    return reason
