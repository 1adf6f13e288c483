"""The Dask executor on real local clusters over loopback (no mocks).

The same config gives identical stored results inline, on the process pool,
on a local Dask cluster and on a cluster at an address; a Dask worker process
killed mid-run loses nothing; a ``troef run`` stopped by SIGTERM or killed
mid-run and run again resumes on Dask; a worker with other code refuses the
work; a chunk that kills its worker twice stops the run; no worker outlives
its run (the survivor guard checks).
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.contracts.errors import TroefError
from harness.tournament.config import load_config
from harness.tournament.flight import GRACE
from harness.tournament.scheduler import run_tournament
from harness.tournament.store import Store
from tests.harness.test_scheduler import (
    _cli,
    stop_run,
    stored,
    write_config,
)

distributed = pytest.importorskip("distributed")

from harness.tournament.dask_executor import LOCAL_SCHEDULER  # noqa: E402

KILLER = Path(__file__).parents[1] / "plugins" / "executor_plugin.py"


@pytest.fixture(autouse=True)
def _no_global_random() -> Iterator[None]:
    """Overrides the guard of conftest: a local cluster's Dask scheduler runs in
    the runner's process and draws from the global stream for its own choices
    (which worker gets a task). No result depends on it, as the identity test
    shows; the state is put back for the tests that follow."""
    before = random.getstate()
    yield
    random.setstate(before)


DASK = '[executor]\nname = "dask"\nworkers = 2\n'


def _dask_config(
    tmp_path: Path, name: str, executor: str, chunk: int = 3, **kw: object
) -> Path:
    # The [executor] table must come after every top-level key.
    extra = f"chunk = {chunk}\n"
    path = write_config(tmp_path, name=name, extra=extra, **kw)  # type: ignore[arg-type]
    text = path.read_text()
    head, _, tail = text.partition("[entrants.a]")
    path.write_text(f"{head}{executor}[entrants.a]{tail}")
    return path


def test_a_local_cluster_leaves_port_8787_alone(tmp_path: Path) -> None:
    """A local cluster's scheduler serves its HTTP on a port of its own, so a
    run beside another cluster (a test, the user's dashboard) does not collide
    on Dask's default 8787 and warn."""
    holder = socket.socket()
    try:
        holder.bind(("127.0.0.1", 8787))
        holder.listen()
    except OSError:
        pass  # already held by something else: the same situation
    try:
        path = _dask_config(tmp_path, "port", DASK, matches=1)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            summary = run_tournament(load_config(path))
    finally:
        holder.close()
    assert summary.played == summary.planned
    assert not [w for w in caught if "already in use" in str(w.message)]


@pytest.mark.slow
def test_the_same_config_gives_identical_results_inline_on_a_pool_and_on_dask(
    tmp_path: Path,
) -> None:
    runs = {}
    for name, executor in (
        ("inline", 'executor = "inline"\n'),
        ("process", 'executor = "process"\nworkers = 2\n'),
        ("dask", DASK),
    ):
        path = _dask_config(tmp_path, name, executor, matches=4)
        summary = run_tournament(load_config(path))
        assert summary.played == summary.planned == 4 * 3 * 4
        runs[name] = stored(tmp_path / f"{name}.sqlite")
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs=LOCAL_SCHEDULER,
    ) as cluster:
        executor = (
            f'[executor]\nname = "dask"\naddress = "{cluster.scheduler_address}"\n'
        )
        path = _dask_config(tmp_path, "address", executor, matches=4)
        run_tournament(load_config(path))
    runs["address"] = stored(tmp_path / "address.sqlite")
    assert runs["inline"] == runs["process"] == runs["dask"] == runs["address"]
    assert all(log for _, _, log in runs["dask"])


def _worker_pids() -> list[int]:
    """Dask worker processes below this one (spawned: they run spawn_main)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid() and b"spawn_main" in cmdline:
            pids.append(int(entry.name))
    return pids


@pytest.mark.slow
def test_a_killed_dask_worker_loses_nothing(tmp_path: Path) -> None:
    slow = "options = { delay = 0.004 }\n"
    path = _dask_config(tmp_path, "t", DASK, matches=6, bot="sleepy", bot_options=slow)
    reference = _dask_config(
        tmp_path, "ref", 'executor = "inline"\n', matches=6, bot="sleepy"
    )
    db = tmp_path / "t.sqlite"
    killed: list[int] = []

    def kill_one_worker() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with contextlib.closing(
                    sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
                ) as con:
                    done = con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
            except sqlite3.OperationalError:  # not created yet
                done = 0
            if done:
                pids = _worker_pids()
                if done >= 3 and pids:
                    os.kill(pids[0], signal.SIGKILL)
                    killed.append(done)
                    return
            time.sleep(0.01)

    killer = threading.Thread(target=kill_one_worker)
    killer.start()
    summary = run_tournament(load_config(path))
    killer.join()
    assert killed and killed[0] < summary.planned, "the worker was not killed mid-run"
    run_tournament(load_config(reference))
    ours, theirs = stored(db), stored(tmp_path / "ref.sqlite")
    assert len(ours) == 4 * 3 * 6 == len({job_id for job_id, _, _ in ours})
    # The delay is not part of a result: the run with a lost worker equals
    # an undisturbed one.
    assert [r[1:] for r in ours] == [r[1:] for r in theirs]


@pytest.mark.slow
def test_troef_run_stopped_or_killed_and_run_again_resumes_on_dask(
    tmp_path: Path,
) -> None:
    slow = "options = { delay = 0.004 }\n"
    # Two chunks of 36: the matches recorded before a stop were streamed from
    # chunks still in play.
    path = _dask_config(
        tmp_path, "t", DASK, chunk=36, matches=6, bot="sleepy", bot_options=slow
    )
    db = tmp_path / "t.sqlite"
    recorded = [0]
    for stop in (signal.SIGKILL, signal.SIGTERM):
        stopped = stop_run(path, recorded[-1] + 3, stop)
        if stop == signal.SIGTERM:
            # Like Ctrl-C: no new chunk, the matches in play waited for (GRACE).
            assert stopped.seconds < GRACE + 2.5
            assert stopped.returncode == 130
            assert f"run 'troef run {path}' again to resume" in stopped.stderr
        with Store.existing(db) as store:
            done, planned = store.counts()
        # A kill loses the matches in play; a stop may see them all end in grace.
        seen = stopped.seen
        assert seen <= done < planned or (stop == signal.SIGTERM and done == planned)
        recorded.append(done)
    again = subprocess.run(
        _cli("run", str(path), "--quiet"), capture_output=True, text=True, check=True
    )
    assert ("played" if recorded[-1] < planned else "nothing left") in again.stdout
    with Store.existing(db) as store:
        assert store.counts() == (planned, planned)


def test_a_dask_worker_with_other_code_refuses_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import harness.tournament.dask_executor
    from harness.tournament.workers import fingerprint

    # The runner believes it runs another troef; the workers compute their own.
    monkeypatch.setattr(
        harness.tournament.dask_executor,
        "fingerprint",
        lambda registry: {**fingerprint(registry), "troef": "9.9.9 (elsewhere)"},
    )
    path = _dask_config(tmp_path, "t", DASK, matches=1)
    with pytest.raises(TroefError, match=r"Dask worker tcp://127\.0\.0\.1:\d+ refuses"):
        run_tournament(load_config(path))
    # Refused before any match: the run takes back the database it made.
    assert not (tmp_path / "t.sqlite").exists()
    assert not (tmp_path / "t.sqlite.lock").exists()


def test_a_chunk_that_kills_its_worker_twice_stops_the_run_naming_it(
    tmp_path: Path,
) -> None:
    path = _dask_config(tmp_path, "t", DASK, matches=1, bot="kills-worker")
    path.write_text(path.read_text().replace("plugins = [", f'plugins = ["{KILLER}", '))
    started = time.monotonic()
    with pytest.raises(TroefError, match="lost its Dask worker more often"):
        run_tournament(load_config(path))
    assert time.monotonic() - started < 60


def test_a_lost_dask_worker_is_said_in_the_progress_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25, item 5. The worker dies at the bot's first move, every time
    (no timing): each loss is said on the progress line, the last before
    the run stops on the chunk that lost its worker twice."""
    path = _dask_config(tmp_path, "t", DASK, matches=1, bot="kills-worker")
    path.write_text(path.read_text().replace("plugins = [", f'plugins = ["{KILLER}", '))
    from harness.cli import main

    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err
    said = re.compile(
        r"^\d+/12 matches  .*  \| Dask worker tcp://127\.0\.0\.1:\d+ lost with "
        r"\d+ chunks? \(\d+ matches\) of this run in play \(Dask runs them again "
        r"elsewhere, up to allowed-failures\)( \(\+(\d+) earlier\))?$"
    )
    notices = [m for m in map(said.match, err.splitlines()) if m]
    # A chunk is lost twice before the run stops: two losses at least, each
    # said as it came (the count of earlier ones goes up by one each time).
    earlier = [int(m.group(2) or 0) for m in notices]
    assert len(set(earlier)) >= 2, err
    assert sorted(set(earlier)) == list(range(len(set(earlier)))), err
    assert "lost its Dask worker more often than the cluster allows" in err
