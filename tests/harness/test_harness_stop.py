"""A stopped harness charges no bot for its own pause (issue 29, item 4).

Stopping ``troef run``'s process group (Ctrl-Z, SIGSTOP) for 30 s gave correct
bots ``timeout`` forfeits: their clocks ran on while the harness could not
read their answers. :func:`harness.match.clock.harness_clock` leaves the
stop out; these tests stop real processes for clearly longer than a bot's
time and continue them.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from harness.match.clock import SLICE
from tests.conftest import TOY_PLUGIN
from tests.harness.test_scheduler import _cli

PROGRAM = Path(__file__).parents[1] / "plugins" / "stalling_program.py"


def _state(pid: int) -> str:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rindex(")") + 2]


def _group(pgid: int) -> list[int]:
    """The processes of process group ``pgid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2 :].split()[2]) == pgid:
            found.append(int(entry.name))
    return found


def _wait_until(test: object, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not test():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(0.01)


def _stopped(pgid: int) -> bool:
    # 'T': stopped by a signal; a process that exits meanwhile is not waited for.
    states = []
    for pid in _group(pgid):
        try:
            states.append(_state(pid))
        except OSError:
            continue
    return bool(states) and all(s in "TtZX" for s in states)


def test_the_clock_leaves_out_the_time_its_process_was_stopped() -> None:
    script = textwrap.dedent(
        """
        import os, signal, sys, time
        from harness.match.clock import harness_clock
        before = (harness_clock(), time.perf_counter())
        print("ready", flush=True)
        os.kill(os.getpid(), signal.SIGSTOP)
        after = (harness_clock(), time.perf_counter())
        print(after[0] - before[0], after[1] - before[1], flush=True)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n"
        _wait_until(lambda: _state(child.pid) == "T", "the child to stop")
        time.sleep(1.0)  # the length of the stop, not a wait for something
        child.send_signal(signal.SIGCONT)
        clock, wall = map(float, child.stdout.readline().split())
    finally:
        child.kill()
        child.wait()
    assert wall >= 1.0
    assert 0.0 <= clock <= SLICE + 0.25  # a stop costs at most a SLICE


def test_a_sigcont_without_a_stop_takes_nothing_off_the_clock() -> None:
    # A bot of the harness's user may send SIGCONT to its worker while it
    # thinks: between readings a SLICE apart, that must erase nothing.
    script = textwrap.dedent(
        """
        import os, signal, time
        from harness.match.clock import harness_clock
        start = (harness_clock(), time.perf_counter())
        for i in range(20):
            time.sleep(0.05)
            if i == 10:
                os.kill(os.getpid(), signal.SIGCONT)  # handled before the reading
                gap = time.perf_counter() - last
            last = time.perf_counter()
            harness_clock()
        end = (harness_clock(), time.perf_counter())
        print(end[0] - start[0], end[1] - start[1], gap)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    clock, wall, gap = map(float, done.stdout.split())
    # Only a gap longer than a SLICE (a very loaded machine) may be left out.
    assert clock >= wall - max(0.0, gap - SLICE) - 0.01


@pytest.mark.slow
@pytest.mark.parametrize(
    ("in_flight", "at"),
    [(4, "act"), (1, "act"), (4, "start")],
    ids=["interleaved", "one-at-a-time", "ready-handshake"],
)
def test_a_run_stopped_longer_than_a_bots_time_charges_the_bot_nothing(
    tmp_path: Path, in_flight: int, at: str
) -> None:
    # in_flight 4: the worker interleaves matches (isolation/multiplex.py);
    # 1: play_match waits on the one bot (isolation/botprocess.py). "start":
    # the stop falls in the 'ready' handshake of a match (the case),
    # with a startup_timeout of 2 s.
    folder = tmp_path / "cue"
    folder.mkdir()
    path = tmp_path / "t.toml"
    # hang_timeout: the 2 s the bot has for a decision without a time control.
    path.write_text(
        f'game = "toy"\nseats = 3\nmatches = 1\nseed = 5\nworkers = 1\n'
        f"in_flight = {in_flight}\n"
        f'plugins = ["{TOY_PLUGIN}"]\n'
        f'[entrants.s]\ncommand = ["{sys.executable}", "-I", "{PROGRAM}", '
        f'"{folder}", "{at}"]\nhang_timeout = 2\nstartup_timeout = 2\n'
        # The bot and the test talk through files in the cue folder, which the
        # sandbox would show the bot read-only: the clock is under test here.
        'sandbox = "none"\n'
        '[entrants.b]\nbot = "random"\n[entrants.c]\nbot = "random"\n'
    )
    run = subprocess.Popen(
        _cli("run", str(path), "--quiet"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a shell's job
    )
    try:
        _wait_until(lambda: (folder / "asked").exists(), "the bot's first decision")
        os.killpg(run.pid, signal.SIGSTOP)
        _wait_until(lambda: _stopped(run.pid), "the run's processes to stop")
        time.sleep(6.0)  # the stop: three times the bot's 2 s
        os.killpg(run.pid, signal.SIGCONT)
        # The answer comes after the run is back: before the fix, its first
        # look at the clock found the bot 6 s late.
        time.sleep(0.3)
        (folder / "go").touch()
        _, err = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate()
    assert run.returncode == 0, err
    with sqlite3.connect(tmp_path / "t.sqlite") as con:
        rows = con.execute(
            "SELECT forfeit_reason, forfeit_detail FROM results"
        ).fetchall()
    assert len(rows) == 3
    assert rows == [(None, None)] * 3, rows
