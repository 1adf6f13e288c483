"""How a pool's results reach the runner: once, in batches, encoded for the store.

A pool worker sends its finished matches in one message per
``STREAM_INTERVAL`` (not one per match), each already encoded as the store
writes it; a chunk's return value names its jobs only. The runner records
each match once, and the progress line's leader is folded as results come.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import multiprocessing
import pickle
import queue
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from harness.contracts.result import Result
from harness.stats.standings import standings
from harness.tournament.config import load_config
from harness.tournament.executors import STREAM_INTERVAL, Batches
from harness.tournament.plan import Job, plan
from harness.tournament.progress import Progress
from harness.tournament.scheduler import run_tournament
from harness.tournament.store import Store, encode
from tests.harness.test_scheduler import stored, write_config


def _result(log: tuple[str, ...] | None) -> Result:
    result = Result.from_scores((3, 1), (0, 1), ((2, 0), (1, 1)))
    return dataclasses.replace(result, log=log)


def test_a_batch_carries_many_matches_in_one_message_encoded_for_the_store() -> None:
    transport = multiprocessing.get_context("fork").Queue()
    worker, runner = Batches(transport), Batches(transport)
    results = [_result(("play 7h", "play 8h", "pass")), _result(()), _result(None)]
    results += [_result(("pass",))] * 47
    started = time.monotonic()
    for k, result in enumerate(results):
        worker.put((f"job{k}", result))
    # The first match after a quiet spell goes at once; the others wait for
    # the timer and travel together (a few messages, not one per match).
    messages = [pickle.loads(transport.get(timeout=5))]
    while sum(map(len, messages)) < len(results):
        messages.append(pickle.loads(transport.get(timeout=5)))
    assert time.monotonic() - started >= STREAM_INTERVAL * 0.9
    assert len(messages[0]) == 1 and len(messages) <= 5
    for message in messages:
        transport.put(pickle.dumps(message))
    arrived: list[tuple[str, Result]] = []
    deadline = time.monotonic() + 10
    while len(arrived) < len(results) and time.monotonic() < deadline:
        runner.wait(1.0)  # the queue's feeder thread writes the pipe meanwhile
        with contextlib.suppress(queue.Empty):
            while True:
                arrived.append(runner.get_nowait())
    with pytest.raises(queue.Empty):
        runner.get_nowait()
    assert [job_id for job_id, _ in arrived] == [f"job{k}" for k in range(50)]
    # Sent without the log tuple; the encoding holds it, byte for byte.
    assert all(result.log is None for _, result in arrived)
    encoded = runner.take_encoded()
    assert encoded == {f"job{k}": encode(r) for k, r in enumerate(results)}
    assert encoded["job0"].log == "play 7h play 8h pass"
    assert encoded["job1"].log == "" and encoded["job2"].log is None
    assert runner.take_encoded() == {}  # taken once
    transport.close()
    transport.join_thread()


def test_each_pool_result_is_recorded_once_with_its_log(tmp_path: Path) -> None:
    seen: list[tuple[Job, Result]] = []
    path = write_config(
        tmp_path, extra='keep_logs = true\nchunk = 4\ndatabase = "p.sqlite"\n'
    )
    summary = run_tournament(
        load_config(path), workers=2, on_result=lambda j, r: seen.append((j, r))
    )
    assert summary.played == summary.planned == len(seen) == 4 * 3 * 6
    assert len({job.id for job, _ in seen}) == len(seen)
    # on_result hears whole Results: the log, sent only in the encoding, is back.
    logs = {job_id: log for job_id, _, log in stored(tmp_path / "p.sqlite")}
    assert all(" ".join(r.log or ()) == logs[job.id] for job, r in seen)
    assert all(r.log for _, r in seen)
    path = write_config(
        tmp_path,
        extra='keep_logs = true\nexecutor = "inline"\ndatabase = "i.sqlite"\n',
    )
    run_tournament(load_config(path))
    assert stored(tmp_path / "i.sqlite") == stored(tmp_path / "p.sqlite")


def test_the_progress_leader_is_folded_as_results_come(tmp_path: Path) -> None:
    """Standings folded batch by batch give the leader that standings over
    every recorded match give."""
    path = write_config(tmp_path, matches=10, extra="chunk = 3\n")
    lines = io.StringIO()
    progress = Progress(stream=lines, live=False, interval=0.0)
    run_tournament(load_config(path), workers=2, progress=progress)
    printed = lines.getvalue().splitlines()
    assert len(printed) > 2  # printed (and folded) along the way
    with Store.existing(tmp_path / "t.sqlite") as store:
        matches = [(m.job["seating"], m.result) for m in store.matches()]
    table = standings(["a", "b", "c", "d"], matches)
    leader = f"leader: {table[0].entrant} ({100 * table[0].score:.1f}%)"
    assert printed[-1].startswith(f"{len(matches)}/{len(matches)} matches")
    assert printed[-1].endswith(leader)


@pytest.mark.parametrize(("jobs", "workers"), [(2400, 2), (2400, 1), (72, 2), (5, 3)])
def test_chunks_shrink_as_the_plan_runs_out(jobs: int, workers: int) -> None:
    from harness.tournament.scheduler import _guided_chunks

    MAX_CHUNK = 256  # the local executors' max_chunk
    # Which jobs they are does not matter to the chunking: stand-ins will do.
    plan: list[Any] = [f"job{k}" for k in range(jobs)]
    chunks = _guided_chunks(plan, workers, MAX_CHUNK)
    assert [job for chunk in chunks for job in chunk] == plan  # each once, in order
    sizes = [len(chunk) for chunk in chunks]
    assert max(sizes) <= MAX_CHUNK
    assert sizes[:-1] == sorted(sizes[:-1], reverse=True)
    # The last chunks are as small as the old fixed size: no worker idles long.
    assert sizes[-2] <= max(1, min(32, jobs // (workers * 8)))
    if jobs >= 2400:
        assert sizes[0] == MAX_CHUNK and len(chunks) < jobs // 32


def test_a_commit_of_thousands_of_matches_skips_those_already_recorded(
    tmp_path: Path,
) -> None:
    """More results at once than an old SQLite takes parameters (999)."""
    path = write_config(tmp_path, matches=1, extra='executor = "inline"\n')
    config = load_config(path)
    result = Result.from_scores((3, 1, 0), (0, 1, 2), ((3, 1, 0),))
    one = plan(config)[0]  # toy: three seats
    jobs = [dataclasses.replace(one, id=f"{k:016x}", index=k) for k in range(2500)]
    with Store.open(tmp_path / "many.sqlite", config) as store:
        # As an SQLite before 3.32 is built.
        store.db.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)
        store.add_jobs(jobs)
        first = store.record_many([(job, result) for job in jobs[:1500]])
        again = store.record_many([(job, result) for job in jobs])
        assert len(first) == 1500 and len(again) == len(jobs) - 1500 > 999
        assert store.counts() == (len(jobs), len(jobs))
