"""The scheduler with real worker processes and a real SQLite file.

Determinism across 1 and N workers and after a kill; a SIGKILL at a random
moment loses nothing and counts nothing twice; a dead worker is replaced;
Ctrl-C keeps what finished; a changed config is refused.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from harness.contracts.errors import ConfigError
from harness.tournament.config import load_config
from harness.tournament.scheduler import run_tournament
from harness.tournament.store import Store
from tests.conftest import TOY_PLUGIN

TEST_BOTS = Path(__file__).parents[1] / "plugins" / "test_bots.py"


def write_config(
    tmp_path: Path,
    *,
    matches: int = 6,
    extra: str = "",
    bot: str = "random",
    bot_options: str = "",
    name: str = "t",
) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'game = "toy"\nseats = 3\nmatches = {matches}\nseed = 5\n'
        f'plugins = ["{TOY_PLUGIN}", "{TEST_BOTS}"]\n{extra}'
        f'[entrants.a]\nbot = "{bot}"\nisolation = "in-process"\n{bot_options}'
        '[entrants.b]\nbot = "random"\n[entrants.c]\nbot = "random"\n'
        '[entrants.d]\nbot = "random"\n'
    )
    return path


def stored(db: Path) -> list[tuple[Any, ...]]:
    # Closed at once: a connection left to the garbage collector keeps this
    # process's view of the -wal and -shm files, which a run in another
    # process replaces; a later read here then finds the database "malformed".
    with contextlib.closing(sqlite3.connect(db)) as con:
        return con.execute(
            "SELECT r.job_id, r.result, l.log FROM results r "
            "JOIN jobs j ON j.id = r.job_id "
            "LEFT JOIN logs l ON l.job_id = r.job_id ORDER BY j.idx"
        ).fetchall()


def test_the_same_config_gives_identical_results_inline_and_with_1_and_2_workers(
    tmp_path: Path,
) -> None:
    results = []
    for executor, workers in (("inline", 1), ("process", 1), ("process", 2)):
        path = write_config(
            tmp_path,
            extra=f'executor = "{executor}"\n'
            f'database = "{executor}{workers}.sqlite"\nchunk = 5\n',
        )
        summary = run_tournament(load_config(path), workers=workers)
        assert summary.played == summary.planned == 4 * 3 * 6
        results.append(stored(tmp_path / f"{executor}{workers}.sqlite"))
    assert results[0] == results[1] == results[2]
    assert all(log for _, _, log in results[0])


def test_a_finished_tournament_is_not_played_again(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path, extra='executor = "inline"\n'))
    first = run_tournament(config)
    again = run_tournament(config)
    assert first.played == first.planned and again.played == 0
    assert again.already_done == first.planned


def test_a_changed_config_is_refused_with_what_changed(tmp_path: Path) -> None:
    run_tournament(
        load_config(write_config(tmp_path, matches=2, extra='executor = "inline"\n'))
    )
    changed = load_config(
        write_config(tmp_path, matches=3, extra='executor = "inline"\n')
    )
    with pytest.raises(
        ConfigError,
        match=r"holds results of a different config \(matches: 2 -> 3\); "
        r"run with --fresh",
    ):
        run_tournament(changed)
    fresh = run_tournament(changed, fresh=True)
    assert fresh.played == fresh.planned == 4 * 3 * 3
    # Where matches run is not part of the config's identity.
    moved = load_config(
        write_config(tmp_path, matches=3, extra='executor = "process"\nworkers = 2\n')
    )
    assert run_tournament(moved).played == 0


def test_a_dead_worker_is_replaced_and_its_jobs_run_again(tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    path = write_config(
        tmp_path,
        bot="kills-worker-once",
        bot_options=f'options = {{ marker = "{marker}" }}\n',
        extra="workers = 2\nchunk = 3\n",
    )
    summary = run_tournament(load_config(path))
    assert marker.exists()
    assert summary.pool_restarts == 1
    with Store.existing(tmp_path / "t.sqlite") as store:
        assert store.counts() == (summary.planned, summary.planned)


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "harness", *args]


def _wait_for_results(
    db: Path, at_least: int, proc: subprocess.Popen[Any], timeout: float = 60
) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if db.exists():
            try:
                with contextlib.closing(sqlite3.connect(db, timeout=5)) as con:
                    n = con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
                if n >= at_least:
                    return int(n)
            except sqlite3.OperationalError:
                pass
        assert proc.poll() is None, "the run ended before it could be interrupted"
        time.sleep(0.02)
    raise AssertionError("no results appeared")


@dataclass
class Stopped:
    """How a ``troef run`` ended that was signalled mid-run."""

    returncode: int
    stderr: str
    #: Matches recorded when the signal went.
    seen: int
    #: Seconds from the signal to the run's end.
    seconds: float


def stop_run(path: Path, after: int, signum: int) -> Stopped:
    """Start ``troef run path --quiet``; send ``signum`` once ``after`` matches
    are in its database (the config's name with ``.sqlite``, as
    :func:`write_config` sets it); wait for its end."""
    proc = subprocess.Popen(
        _cli("run", str(path), "--quiet"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        seen = _wait_for_results(path.with_suffix(".sqlite"), after, proc)
    finally:
        proc.send_signal(signum)
        sent = time.monotonic()
        _, err = proc.communicate(timeout=60)
    return Stopped(proc.returncode, err, seen, time.monotonic() - sent)


@pytest.mark.slow
def test_sigkill_at_any_moment_then_resume_gives_exactly_the_planned_matches(
    tmp_path: Path,
) -> None:
    path = write_config(
        tmp_path,
        matches=12,
        bot="sleepy",
        bot_options="options = { delay = 0.003 }\n",
        extra="workers = 2\nchunk = 2\n",
    )
    reference = write_config(
        tmp_path,
        matches=12,
        bot="sleepy",
        bot_options="options = { delay = 0.0 }\n",
        extra='executor = "inline"\n',
        name="reference",
    )
    db = tmp_path / "t.sqlite"
    for kill_after in (3, 40, 90):
        stop_run(path, kill_after, signal.SIGKILL)
        # The killed run's pool workers die with it: none is left behind.
        assert _processes_running(str(path), within=10.0) == []
    done = subprocess.run(
        _cli("run", str(path), "--quiet"), capture_output=True, text=True, check=True
    )
    assert "played" in done.stdout
    run_tournament(load_config(reference))
    ours = stored(db)
    assert len(ours) == 4 * 3 * 12 == len({job_id for job_id, _, _ in ours})
    # The delay is not part of a result: the interrupted run equals an
    # uninterrupted one.
    theirs = stored(tmp_path / "reference.sqlite")
    assert [r[1:] for r in ours] == [r[1:] for r in theirs]


def _processes_running(marker: str, within: float) -> list[int]:
    """Pids whose command line names ``marker``.

    Polled until none is left, or for at most ``within`` seconds.
    """
    deadline = time.monotonic() + within
    while True:
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline:
                pids.append(int(entry.name))
        if not pids or time.monotonic() > deadline:
            return pids
        time.sleep(0.05)


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_keeps_results_and_says_how_to_resume(
    tmp_path: Path,
) -> None:
    path = write_config(
        tmp_path,
        matches=8,
        bot="sleepy",
        bot_options="options = { delay = 0.002 }\n",
        extra="workers = 2\nchunk = 2\n",
    )
    db = tmp_path / "t.sqlite"
    stopped = stop_run(path, 10, signal.SIGINT)
    assert stopped.returncode == 130
    err = stopped.stderr
    assert "interrupted:" in err and f"run 'troef run {path}' again to resume" in err
    with Store.existing(db) as store:
        done, planned = store.counts()
    assert 10 <= done < planned
    subprocess.run(_cli("run", str(path), "--quiet"), check=True, capture_output=True)
    with Store.existing(db) as store:
        assert store.counts() == (planned, planned)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_worker_logs_reach_the_parents_handlers(tmp_path: Path) -> None:
    collect = _Collect()
    root = logging.getLogger()
    root.addHandler(collect)
    try:
        path = write_config(tmp_path, matches=2, bot="chatty", extra="workers = 2\n")
        summary = run_tournament(load_config(path))
    finally:
        root.removeHandler(collect)
    chatty = [r for r in collect.records if r.name == "troef.tests.chatty"]
    # One record per match the chatty entrant sat in, each from a worker process.
    assert len(chatty) == summary.played * 3 // 4
    assert {r.process for r in chatty} and os.getpid() not in {
        r.process for r in chatty
    }
    # And the handlers are as they were: nothing left wrapped.
    assert all(type(h).__name__ != "MultiProcessingHandler" for h in root.handlers)


def test_progress_lines_on_a_terminal_and_elsewhere() -> None:
    import io

    from harness.tournament.progress import Progress

    plain = io.StringIO()
    progress = Progress(stream=plain, live=False, interval=0.0)
    progress.start(0)
    progress.update(5, 10, lambda: "leader: alice (60.0%)")
    progress.update(10, 10, lambda: "leader: alice (61.0%)", final=True)
    lines = plain.getvalue().splitlines()
    assert lines[0].startswith("5/10 matches") and lines[0].endswith(
        "leader: alice (60.0%)"
    )
    assert "ETA" in lines[0] and len(lines) == 2
    live = io.StringIO()
    progress = Progress(stream=live, live=True)
    progress.start(0)
    progress.update(10, 10, lambda: "bob", final=True)
    assert live.getvalue().startswith(
        "\r\x1b[K10/10 matches"
    ) and live.getvalue().endswith("\n")


def test_the_eta_waits_for_results_after_the_first_and_leaves_start_up_out() -> None:
    """Issue #25: a 17-second run's first line said ETA 0:06:49. Synthetic
    times: 3 s of start-up, then 8 matches a second for 136 matches."""
    from harness.tournament.progress import Eta

    eta = Eta(min_results=8, min_seconds=2.0)
    eta.start(0)
    assert eta.left(0.0, 0, 136) is None  # nothing played yet
    eta.observe(3.0, 2)  # the first results, after start-up
    assert eta.rate(3.0, 2) is None and eta.left(3.0, 2, 136) is None
    eta.observe(4.0, 10)  # 8 more, but over 1 s only: results come in bursts
    assert eta.left(4.0, 10, 136) is None
    eta.observe(5.0, 18)
    rate = eta.rate(5.0, 18)
    assert rate == pytest.approx(8.0)  # 16 matches in 2 s; the 3 s wait is left out
    left = eta.left(5.0, 18, 136)
    assert left == pytest.approx(118 / 8.0)
    # A pace from the start would have said 136 / (2 / 3 s): over three minutes.
    assert left is not None and left < 20
    assert eta.left(20.0, 136, 136) == 0.0


def test_the_eta_of_a_resumed_run_counts_only_this_runs_results() -> None:
    from harness.tournament.progress import Eta

    eta = Eta(min_results=4, min_seconds=1.0)
    eta.start(100)  # 100 recorded by an earlier run
    eta.observe(1.0, 100)  # no new result yet: not a first arrival
    assert eta.rate(1.0, 100) is None
    eta.observe(2.0, 101)
    eta.observe(4.0, 109)
    assert eta.rate(4.0, 109) == pytest.approx(4.0)
    assert eta.left(4.0, 109, 129) == pytest.approx(5.0)


def test_the_progress_line_says_eta_unknown_until_the_estimate_is_ready() -> None:
    import io

    from harness.tournament.progress import Progress

    times = iter([0.0, 0.0, 3.0, 5.0, 6.0])  # made, started, then one per update
    stream = io.StringIO()
    progress = Progress(
        stream=stream, live=False, interval=0.0, clock=lambda: next(times)
    )
    progress.start(0)
    progress.update(1, 40, lambda: "leader: -")
    progress.update(20, 40, lambda: "leader: -")
    progress.update(40, 40, lambda: "leader: -", final=True)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "1/40 matches  ?/s  ETA ?  leader: -"
    # 19 matches in the 2 s after the first: 9.5/s, 20 left.
    assert lines[1] == "20/40 matches  9.5/s  ETA 0:00:02  leader: -"
    # The final rate is the whole run's, start-up included: 40 in 6 s.
    assert lines[2] == "40/40 matches  6.7/s  ETA 0:00:00  leader: -"


def test_a_notice_is_printed_at_once_and_stays_on_the_lines_after_it() -> None:
    """A lost worker's notice (Progress.note): printed even within the
    interval, kept on later lines, the count of earlier ones beside the latest."""
    import io

    from harness.tournament.progress import Progress

    times = iter([0.0, 0.0, 1.0, 2.0, 3.0])  # made, started, then one per line
    stream = io.StringIO()
    progress = Progress(
        stream=stream, live=False, interval=100.0, clock=lambda: next(times)
    )
    progress.start(0)
    progress.note("worker A lost", 1, 10, lambda: "leader: -")
    progress.note("worker B lost", 2, 10, lambda: "leader: -")
    progress.update(10, 10, lambda: "leader: -", final=True)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("1/10 matches") and lines[0].endswith(
        "leader: -  | worker A lost"
    )
    assert lines[1].startswith("2/10 matches") and lines[1].endswith(
        "leader: -  | worker B lost (+1 earlier)"
    )
    assert lines[2].endswith("leader: -  | worker B lost (+1 earlier)")


def test_the_store_answers_per_seat_and_per_deal_queries(tmp_path: Path) -> None:
    path = write_config(tmp_path, matches=1, extra='executor = "inline"\n')
    run_tournament(load_config(path))
    with Store.existing(tmp_path / "t.sqlite") as store:
        matches = list(store.matches())
    with sqlite3.connect(tmp_path / "t.sqlite") as con:
        for match in matches:
            seats = con.execute(
                "SELECT seat, entrant, score, rank, team FROM seat_results "
                "WHERE job_id = ? ORDER BY seat",
                (match.job["id"],),
            ).fetchall()
            assert seats == [
                (
                    s,
                    match.job["seating"][s],
                    match.result.scores[s],
                    match.result.ranks[s],
                    match.result.teams[s],
                )
                for s in range(3)
            ]
            deals = con.execute(
                "SELECT deal, seat, points FROM deal_points "
                "WHERE job_id = ? ORDER BY deal, seat",
                (match.job["id"],),
            ).fetchall()
            assert deals == [
                (k, s, p)
                for k, row in enumerate(match.result.deal_points)
                for s, p in enumerate(row)
            ]


def test_a_bot_that_cannot_be_built_forfeits_before_the_first_move(
    tmp_path: Path,
) -> None:
    path = write_config(
        tmp_path, matches=1, bot="fails-to-build", extra='executor = "inline"\n'
    )
    summary = run_tournament(load_config(path))
    assert summary.played == summary.planned and summary.forfeits == 3 * 3
    with Store.existing(tmp_path / "t.sqlite") as store:
        forfeited = [m.result for m in store.matches() if "a" in m.job["seating"]]
    assert len(forfeited) == 9
    for result in forfeited:
        assert result.forfeit is not None and result.forfeit.reason.value == "exception"
        assert "no table for this seat" in result.forfeit.detail
        assert result.log == ()  # not one move was played


def test_a_run_ends_when_streamed_results_outrun_the_pipe(tmp_path: Path) -> None:
    """Thousands of short matches with logs in one chunk: more streamed results
    are left unread at the end than a pipe holds. A leaving worker used to wait
    to flush them while the runner waited for the worker (found by the
    ten-seat Triomphe Forcée tournament): 1 run in 3 hung. Five runs in a row
    must each end promptly."""
    path = tmp_path / "big.toml"
    path.write_text(
        'game = "toy"\nseats = 2\nmatches = 1500\nseed = 5\nworkers = 1\n'
        f'chunk = 5000\nkeep_logs = true\nplugins = ["{TOY_PLUGIN}"]\n'
        '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
    )
    for _ in range(5):
        done = subprocess.run(
            _cli("run", str(path), "--fresh", "--quiet"),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert "played 3000 matches" in done.stdout
