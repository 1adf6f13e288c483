"""Run control with real ``troef run`` processes (issue 13).

Stopping (Ctrl-C once, twice, SIGTERM), ending (no process or folder of a run
outlives it), streaming (a killed run keeps every match that finished) and one
run per database.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from harness.tournament.database_file import run_lock
from harness.tournament.flight import GRACE
from harness.tournament.store import Store
from tests.conftest import TOY_PLUGIN
from tests.harness.test_scheduler import (
    TEST_BOTS,
    _cli,
    _processes_running,
    _wait_for_results,
    write_config,
)


def _count(db: Path) -> int:
    with sqlite3.connect(db, timeout=5) as con:
        return int(con.execute("SELECT COUNT(*) FROM results").fetchone()[0])


def _start(path: Path, tmp: Path | None = None) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if tmp is not None:
        tmp.mkdir(exist_ok=True)
        env["TMPDIR"] = str(tmp)
    return subprocess.Popen(
        _cli("run", str(path), "--quiet"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _slow_config(tmp_path: Path, *, extra: str = "workers = 2\n") -> Path:
    # Matches of about a second each: several are in play at any moment.
    return write_config(
        tmp_path,
        matches=40,
        bot="sleepy",
        bot_options="options = { delay = 0.3 }\n",
        extra=extra,
    )


def _spawner_config(tmp_path: Path, *, matches: int) -> Path:
    # A process bot that leaves a helper in a new session and a file behind.
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nseats = 3\nmatches = {matches}\nseed = 5\n'
        f'plugins = ["{TOY_PLUGIN}", "{TEST_BOTS}"]\nworkers = 2\nchunk = 2\n'
        '[entrants.a]\nbot = "spawner"\nisolation = "process"\n'
        f'options = {{ delay = 0.01, marker = "{tmp_path}/helper" }}\n'
        '[entrants.b]\nbot = "random"\n[entrants.c]\nbot = "random"\n'
    )
    return path


def _assert_nothing_left(tmp_path: Path, tmp: Path) -> None:
    # Workers name the config (under tmp_path); helpers name their marker.
    assert _processes_running(str(tmp_path), within=5.0) == []
    assert sorted(p.name for p in tmp.iterdir()) == []


@pytest.mark.slow
def test_ctrl_c_twice_exits_within_two_seconds_and_loses_nothing(
    tmp_path: Path,
) -> None:
    path = _slow_config(tmp_path, extra="workers = 2\nchunk = 6\n")
    db = tmp_path / "t.sqlite"
    proc = _start(path)
    _wait_for_results(db, 3, proc)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.3)
    before = _count(db)
    proc.send_signal(signal.SIGINT)
    second = time.monotonic()
    _, err = proc.communicate(timeout=60)
    assert time.monotonic() - second < 2.5
    assert proc.returncode == 130
    assert "stopping: no new matches" in err
    assert f"run 'troef run {path}' again to resume" in err
    assert _processes_running(str(tmp_path), within=2.0) == []
    # Nothing recorded is lost; the abandoned matches are replayed on resume.
    with Store.existing(db) as store:
        done, planned = store.counts()
        assert before <= done < planned
        assert len(store.unfinished_jobs()) == planned - done


@pytest.mark.slow
def test_one_ctrl_c_stops_at_once_and_keeps_the_matches_that_end_in_grace(
    tmp_path: Path,
) -> None:
    path = _slow_config(tmp_path, extra="workers = 2\nchunk = 6\n")
    db = tmp_path / "t.sqlite"
    proc = _start(path)
    _wait_for_results(db, 3, proc)
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    before = _count(db)
    _, err = proc.communicate(timeout=60)
    assert time.monotonic() - sent < GRACE + 2.5
    assert proc.returncode == 130 and "stopping: no new matches" in err
    # The matches in play when Ctrl-C came (about one per worker) finished in
    # the grace period and were recorded; no chunk's remaining matches started.
    done = _count(db)
    assert before < done < before + 2 * 6


@pytest.mark.slow
def test_sigterm_stops_like_ctrl_c_and_leaves_no_process_or_folder(
    tmp_path: Path,
) -> None:
    path = _spawner_config(tmp_path, matches=40)
    tmp = tmp_path / "tmp"
    db = tmp_path / "t.sqlite"
    proc = _start(path, tmp)
    _wait_for_results(db, 4, proc)
    assert _processes_running(f"{tmp_path}/helper", within=0) != []
    proc.send_signal(signal.SIGTERM)
    sent = time.monotonic()
    _, err = proc.communicate(timeout=60)
    assert time.monotonic() - sent < GRACE + 2.5
    assert proc.returncode == 130
    assert f"run 'troef run {path}' again to resume" in err
    _assert_nothing_left(tmp_path, tmp)


@pytest.mark.slow
def test_sigkill_leaves_no_bot_or_bot_helper_behind(tmp_path: Path) -> None:
    """A SIGKILLed run cannot clean up itself: its workers must. They get
    SIGTERM when the run dies and end every bot and every bot descendant,
    even a helper in a new session (issue 13 item 2)."""
    path = _spawner_config(tmp_path, matches=40)
    tmp = tmp_path / "tmp"
    db = tmp_path / "t.sqlite"
    proc = _start(path, tmp)
    _wait_for_results(db, 4, proc)
    assert _processes_running(f"{tmp_path}/helper", within=0) != []
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert _processes_running(f"{tmp_path}/helper", within=5.0) == []
    assert _processes_running(str(path), within=5.0) == []


@pytest.mark.slow
def test_a_run_removes_the_folders_of_killed_runs(tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    dead = subprocess.Popen(["true"])
    dead.wait()  # a pid that no longer runs
    (tmp / f"troef-run-{dead.pid}-x1").mkdir()
    (tmp / f"troef-run-{dead.pid}-x1" / "troef-bot-y").mkdir()
    (tmp / f"troef-run-{os.getpid()}-x2").mkdir()  # alive: left alone
    path = _spawner_config(tmp_path, matches=1)
    proc = _start(path, tmp)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert sorted(p.name for p in tmp.iterdir()) == [f"troef-run-{os.getpid()}-x2"]


def test_a_normal_end_leaves_no_process_or_folder(tmp_path: Path) -> None:
    path = _spawner_config(tmp_path, matches=4)
    tmp = tmp_path / "tmp"
    proc = _start(path, tmp)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "played" in out
    _assert_nothing_left(tmp_path, tmp)


@pytest.mark.slow
def test_a_killed_run_keeps_every_match_that_finished_even_mid_chunk(
    tmp_path: Path,
) -> None:
    # One worker, one chunk holding the whole plan: a result recorded before
    # the kill can only have been streamed, match by match.
    path = write_config(
        tmp_path,
        matches=20,
        bot="sleepy",
        bot_options="options = { delay = 0.01 }\n",
        extra="workers = 1\nchunk = 1000\n",
    )
    db = tmp_path / "t.sqlite"
    tmp = tmp_path / "tmp"
    proc = _start(path, tmp)
    try:
        _wait_for_results(db, 5, proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
    assert 5 <= _count(db) < 240
    assert _processes_running(str(path), within=10.0) == []
    assert list(tmp.iterdir()) == []  # in-process bots: no run folder at all
    subprocess.run(_cli("run", str(path), "--quiet"), check=True, capture_output=True)
    with Store.existing(db) as store:
        assert store.counts() == (240, 240)


@pytest.mark.slow
def test_a_second_run_on_a_busy_database_is_refused_at_once_naming_the_first(
    tmp_path: Path,
) -> None:
    path = _slow_config(tmp_path)
    db = tmp_path / "t.sqlite"
    first = _start(path)
    try:
        _wait_for_results(db, 1, first)
        asked = time.monotonic()
        second = subprocess.run(
            _cli("run", str(path), "--quiet"),
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert time.monotonic() - asked < 10
        assert second.returncode == 2
        assert f"{db} is in use by another run (pid {first.pid} since" in second.stderr
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate()
    assert _processes_running(str(path), within=10.0) == []
    # The lock went with the killed run (its workers too): the next run may take it.
    with run_lock(db):
        pass


@pytest.mark.slow
def test_interleaved_clocks_charge_only_the_bot_that_thinks(tmp_path: Path) -> None:
    # One worker interleaves matches: an in-process bot that takes 1.2 s a move
    # blocks the loop while process bots of other matches have their answers
    # ready. Only the slow bot may lose on time (1.0 s a move), never them.
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nseats = 3\nmatches = 1\nseed = 5\nworkers = 1\nchunk = 12\n'
        f'plugins = ["{TOY_PLUGIN}", "{TEST_BOTS}"]\n'
        "[time_control]\nmove = 1.0\n"
        '[entrants.slow]\nbot = "sleepy"\nisolation = "in-process"\n'
        "options = { delay = 1.2 }\n"
        '[entrants.b]\nbot = "random"\nisolation = "process"\n'
        '[entrants.c]\nbot = "random"\nisolation = "process"\n'
        '[entrants.d]\nbot = "random"\nisolation = "process"\n'
    )
    done = subprocess.run(
        _cli("run", str(path), "--quiet"), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(tmp_path / "t.sqlite") as con:
        rows = con.execute(
            "SELECT s.entrant, r.forfeit_reason, r.forfeit_detail FROM results r "
            "JOIN seat_results s ON s.job_id = r.job_id AND s.seat = r.forfeit_seat"
        ).fetchall()
        planned = con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    assert planned == 12
    # The slow bot plays 9 of the 12 matches and loses each on time.
    assert sorted(entrant for entrant, _, _ in rows) == ["slow"] * 9, rows
    assert {reason for _, reason, _ in rows} == {"timeout"}


@pytest.mark.parametrize("command", [["run", "--quiet"], ["validate", "--probe"]])
def test_an_entrant_that_cannot_start_is_named_before_any_match(
    tmp_path: Path, command: list[str]
) -> None:
    # The old refusal, asked for (issue 29, item 3: by default the entrant
    # forfeits; tests/harness/test_probe_policy.py).
    path = write_config(
        tmp_path,
        extra='workers = 1\nprobe = "refuse"\n',
        name="t",
    )
    path.write_text(
        path.read_text() + '[entrants.ghost]\ncommand = ["definitely-not-a-program"]\n'
    )
    done = subprocess.run(
        _cli(command[0], str(path), *command[1:]),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert (
        f"troef: error: {path}: entrant 'ghost' cannot play: cannot start "
        "['definitely-not-a-program']"
    ) in done.stderr
    assert "Traceback" not in done.stderr
    # Nothing is left behind: the run made the database and takes it back.
    assert not (tmp_path / "t.sqlite").exists()
    assert not (tmp_path / "t.sqlite.lock").exists()


def test_validate_probe_starts_and_stops_a_bot_that_works(tmp_path: Path) -> None:
    path = _spawner_config(tmp_path, matches=1)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    done = subprocess.run(
        _cli("validate", str(path), "--probe"),
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TMPDIR": str(tmp)},
    )
    assert done.returncode == 0, done.stderr
    assert "probe      1 process bots started and answered 'ready'" in done.stdout
    # The spawner's helper (in a new session) and its folder went with the probe.
    _assert_nothing_left(tmp_path, tmp)
