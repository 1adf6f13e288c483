"""Stopping a run on Dask and a ladder's one cluster, on real local clusters.

A stop (an SPRT's verdict, SIGINT to ``troef run``) reaches the Dask workers:
the chunks in play start no further match, none plays on after the run, what
was recorded is kept and identical to an undisturbed run's, and the run
resumes; a worker that sets up after the stop reads it from the scheduler. A
ladder's rounds share one local cluster, closed with the command, also when
the command is stopped.
"""

from __future__ import annotations

import logging
import random
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.tournament.config import TournamentConfig, load_config
from harness.tournament.ladder import Ladder
from harness.tournament.plan import Job
from harness.tournament.store import Store
from harness.tournament.workers import Worker
from tests.conftest import TOY_PLUGIN
from tests.harness.test_dask import DASK, _dask_config, _worker_pids
from tests.harness.test_formats import run_sprt
from tests.harness.test_scheduler import (
    TEST_BOTS,
    _cli,
    _wait_for_results,
    stop_run,
    stored,
)

distributed = pytest.importorskip("distributed")
from distributed.diagnostics.plugin import SchedulerPlugin  # noqa: E402

from harness.tournament.dask_executor import LOCAL_SCHEDULER  # noqa: E402


@pytest.fixture(autouse=True)
def _no_global_random() -> Iterator[None]:
    """Overrides the guard of conftest, as in test_dask: a local cluster's
    scheduler runs in this process and draws from the global stream."""
    before = random.getstate()
    yield
    random.setstate(before)


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, object]]:
    """A 2-worker cluster that outlives each run: (its address, a client)."""
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            scheduler_kwargs=LOCAL_SCHEDULER,
            silence_logs=logging.ERROR,
        ) as local,
        distributed.Client(local, set_as_default=False) as client,
    ):
        yield local.scheduler_address, client


class _ResultEvents(SchedulerPlugin):
    """Counts the result events the scheduler relays."""

    name = "troef-test-result-events"

    def __init__(self) -> None:
        self.count = 0

    def log_event(self, topic: str, msg: object) -> None:
        if topic.startswith("troef-results-"):
            self.count += 1


def _executing(client: object) -> dict[str, int]:
    """Tasks each worker is running now (a released task still running counts)."""
    return client.run(lambda dask_worker: len(dask_worker.state.executing))  # type: ignore[attr-defined,no-any-return]


def _ladder(folder: Path, executor: str, first: str = 'bot = "random"\n') -> Path:
    """The ladder of test_formats, on ``executor``."""
    folder.mkdir(exist_ok=True)
    path = folder / "ladder.toml"
    path.write_text(
        'game = "toy"\nformat = "ladder"\nseed = 4\n'
        f'plugins = ["{TOY_PLUGIN}"]\nchunk = 2\n{executor}'
        "[ladder]\nk = 32\nexplore = 0.2\nsets = 2\n"
        f'[entrants.r1]\n{first}[entrants.r2]\nbot = "random"\n'
        '[entrants.s1]\nbot = "search"\noptions = { samples = 2 }\n'
    )
    return path


def _at(address: str) -> str:
    return f'[executor]\nname = "dask"\naddress = "{address}"\nworkers = 2\n'


def _sprt(folder: Path, executor: str, delay: float) -> TournamentConfig:
    """Search against a random bot that takes ``delay`` s a move: an SPRT that
    decides within some 30 matches of plan order."""
    folder.mkdir(exist_ok=True)
    path = folder / "sprt.toml"
    path.write_text(
        'game = "toy"\nformat = "sprt"\nmatches = 400\nseed = 3\n'
        f'plugins = ["{TOY_PLUGIN}", "{TEST_BOTS}"]\n{executor}'
        "[sprt]\nelo0 = 0\nelo1 = 200\n"
        '[entrants.search]\nbot = "search"\noptions = { samples = 3 }\n'
        f'[entrants.random]\nbot = "sleepy"\nisolation = "in-process"\n'
        f"options = {{ delay = {delay} }}\n"
    )
    return load_config(path)


def test_an_sprt_verdict_stops_the_chunks_in_play_on_the_dask_workers(
    tmp_path: Path, cluster: tuple[str, object], caplog: pytest.LogCaptureFixture
) -> None:
    address, client = cluster
    reference, _ = run_sprt(_sprt(tmp_path / "inline", 'executor = "inline"\n', 0.005))
    # Chunks of 100 matches of some 30 ms: the two workers play jobs 0-99 and
    # 100-199 and two more chunks wait when the verdict comes; without
    # the stop all four (400 matches) would be played.
    config = _sprt(tmp_path / "dask", f"chunk = 100\n{_at(address)}", 0.005)
    caplog.set_level(logging.DEBUG, logger="troef.dask")
    verdict, summary = run_sprt(config)
    # The two waiting chunks were cancelled before they started.
    stops = [m for m in caplog.messages if m.startswith("stopped:")]
    assert len(stops) == 1
    assert int(re.findall(r"(\d+) cancelled", stops[0])[0]) >= 1, stops
    # The verdict of plan order, as inline.
    assert verdict == reference and verdict.status == "H0"
    assert summary.played < 200, "a chunk in play ran on past the verdict"
    assert set(_executing(client).values()) == {0}
    with Store.existing(config.database) as store:
        matches = list(store.matches())
    # Nothing recorded differs: the matches streamed from the chunk that the
    # stop cut short are those its jobs give when played alone.
    cut = [m for m in matches if m.job["index"] >= 100]
    assert cut, "the second worker's chunk recorded nothing"
    worker = Worker(config.plugin_source)
    jobs = [Job.from_dict(m.job) for m in cut[-6:]]
    assert [r for _, r in worker.play(jobs, config.keep_logs)] == [
        m.result for m in cut[-6:]
    ]
    # Resumed: the verdict is already in; nothing more is played.
    again, rerun = run_sprt(config)
    assert rerun.played == 0 and again == verdict


@pytest.mark.slow
def test_sigint_to_troef_run_stops_the_chunks_on_the_dask_workers_and_resumes(
    tmp_path: Path, cluster: tuple[str, object]
) -> None:
    address, client = cluster
    slow = "options = { delay = 0.03 }\n"
    # Two chunks of 12 matches of about 0.15 s: both in play at once, each
    # ending well within the stop's grace if the stop did not reach it.
    path = _dask_config(
        tmp_path, "t", _at(address), chunk=12, matches=2, bot="sleepy", bot_options=slow
    )
    db = tmp_path / "t.sqlite"
    stopped = stop_run(path, 2, signal.SIGINT)
    assert stopped.returncode == 130, stopped.stderr
    assert f"run 'troef run {path}' again to resume" in stopped.stderr
    # No chunk plays on: the workers are idle as the runner leaves.
    assert set(_executing(client).values()) == {0}
    with Store.existing(db) as store:
        done, planned = store.counts()
    assert planned == 4 * 3 * 2
    assert 2 <= done <= planned // 2, "the chunks in play ran on after the stop"
    subprocess.run(_cli("run", str(path), "--quiet"), capture_output=True, check=True)
    # Resumed to the end, with the results of an undisturbed run (the delay
    # is not part of a result).
    reference = _dask_config(
        tmp_path, "ref", 'executor = "inline"\n', matches=2, bot="sleepy"
    )
    from harness.tournament.scheduler import run_tournament

    run_tournament(load_config(reference))
    ours, theirs = stored(db), stored(tmp_path / "ref.sqlite")
    assert len(ours) == planned
    assert [r[1:] for r in ours] == [r[1:] for r in theirs]


def test_a_killed_runners_chunks_stop_on_the_dask_workers(
    tmp_path: Path, cluster: tuple[str, object]
) -> None:
    address, client = cluster
    slow = "options = { delay = 0.06 }\n"
    # Two chunks of 24 matches of some 0.3 s, one on each worker: seven
    # seconds each if nothing stopped them.
    path = _dask_config(
        tmp_path, "t", _at(address), chunk=24, matches=4, bot="sleepy", bot_options=slow
    )
    db = tmp_path / "t.sqlite"
    stop_run(path, 2, signal.SIGKILL)
    killed = time.monotonic()
    # The runner's client left the cluster: its tasks are given up, and each
    # chunk ends after its current match instead of playing on unrecorded.
    while any(_executing(client).values()) and time.monotonic() - killed < 30:
        time.sleep(0.05)
    assert time.monotonic() - killed < 2.5, "a chunk played on for its dead runner"
    with Store.existing(db) as store:
        done, planned = store.counts()
    assert 2 <= done < planned
    # A new runner resumes on the same workers and plays what is left.
    subprocess.run(_cli("run", str(path), "--quiet"), capture_output=True, check=True)
    with Store.existing(db) as store:
        assert store.counts() == (planned, planned)


def test_a_run_leaves_no_result_events_at_the_scheduler(
    tmp_path: Path, cluster: tuple[str, object]
) -> None:
    address, client = cluster
    slow = "options = { delay = 0.01 }\n"
    # Chunks of 6 matches of some 0.05 s: most results go as events.
    path = _dask_config(
        tmp_path, "t", _at(address), chunk=6, matches=2, bot="sleepy", bot_options=slow
    )
    from harness.tournament.scheduler import run_tournament

    def kept() -> set[str]:
        return set(
            client.run_on_scheduler(  # type: ignore[attr-defined]
                lambda dask_scheduler: [
                    topic
                    for topic in dask_scheduler.get_events()
                    if topic.startswith("troef-results-")
                ]
            )
        )

    before = kept()  # a killed runner's (an earlier test's) stay
    client.register_plugin(_ResultEvents())  # type: ignore[attr-defined]
    summary = run_tournament(load_config(path))
    assert summary.played == summary.planned
    sent = client.run_on_scheduler(  # type: ignore[attr-defined]
        lambda dask_scheduler: dask_scheduler.plugins[_ResultEvents.name].count
    )
    assert sent > 0, "no result went as an event: nothing to drop"
    assert kept() == before, "the run's result batches stayed at the scheduler"


def test_a_ladder_plays_every_round_on_one_local_cluster_and_closes_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    before = set(_worker_pids())
    config = load_config(_ladder(tmp_path / "dask", DASK))
    caplog.set_level(logging.INFO, logger="troef.dask")
    with Ladder(config) as ladder:
        rounds = ladder.run(2)
    assert [r.number for r in rounds] == [1, 2] and all(r.played for r in rounds)
    started = [m for m in caplog.messages if m.startswith("started a local Dask")]
    used = [
        re.sub(r".* at ", "", m)
        for m in caplog.messages
        if m.startswith("running on the Dask scheduler")
    ]
    assert len(started) == 1, started
    assert len(used) == 2 and used[0] == used[1] == started[0].split(" at ")[-1]
    # Closed with the command: no worker of it is left.
    deadline = time.monotonic() + 5
    while set(_worker_pids()) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not set(_worker_pids()) - before
    # And the rounds give what they give inline.
    inline = load_config(_ladder(tmp_path / "inline", 'executor = "inline"\n'))
    with Ladder(inline) as ladder:
        assert [r.tables for r in ladder.run(2)] == [r.tables for r in rounds]


@pytest.mark.slow
def test_sigterm_to_a_ladder_on_dask_closes_its_cluster(tmp_path: Path) -> None:
    # Slow matches, so that the command is still playing when stopped.
    slow = 'bot = "sleepy"\noptions = { delay = 0.05 }\n'
    path = _ladder(tmp_path, DASK, slow).resolve()
    path.write_text(
        path.read_text().replace("plugins = [", f'plugins = ["{TEST_BOTS}", ')
    )
    config = load_config(path)
    proc = subprocess.Popen(
        _cli("ladder", "run", str(path), "--rounds", "3", "--quiet"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_results(config.database, 1, proc)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert f"run 'troef ladder run {path}' again" in err
    # The survivor guard of conftest fails the test if a worker of the
    # ladder's cluster outlived it.


def test_a_worker_that_joins_after_the_stop_hears_it_from_the_scheduler(
    tmp_path: Path, cluster: tuple[str, object]
) -> None:
    from harness.tournament.dask_executor import TroefWorkerPlugin, _stop_name
    from harness.tournament.workers import fingerprint

    address, client = cluster
    config = load_config(_dask_config(tmp_path, "t", _at(address), matches=1))
    worker = Worker(
        config.plugin_source, fingerprint(Worker(config.plugin_source).load())
    )
    # A run stopped before these workers set up its plugin, as a worker that
    # joins the cluster after the stop (one restarted in place of a lost one).
    topics = {
        "stopped": "troef-results-test-stopped",
        "running": "troef-results-test-on",
    }
    distributed.Event(_stop_name(topics["stopped"]), client=client).set()
    try:
        for topic in topics.values():
            client.register_plugin(TroefWorkerPlugin(worker, topic), name=topic)  # type: ignore[attr-defined]

        def heard(dask_worker: object, name: str) -> bool:
            return bool(dask_worker.plugins[name].worker.channel.stop.is_set())  # type: ignore[attr-defined]

        for run, topic in topics.items():
            stops = client.run(heard, name=topic)  # type: ignore[attr-defined]
            assert len(stops) == 2
            assert set(stops.values()) == {run == "stopped"}
    finally:
        for topic in topics.values():
            client.unregister_worker_plugin(topic)  # type: ignore[attr-defined]
        distributed.Event(_stop_name(topics["stopped"]), client=client).clear()
