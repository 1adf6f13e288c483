"""``troef serve DB``: the live page's data and page on a real database file
written by a real ``troef run`` beside it, updating as each result lands,
and never writing the file (issue 34, item 3).

The run's matches wait at gates (``tests/plugins/gated_bots.py``) that the
test opens one at a time, so each state (no database yet, no results yet, one
result, every result) is seen for certain, whatever the machine's speed.
``tests/browser/test_serve_live_browser.py`` drives the page in Chromium.
"""

from __future__ import annotations

import contextlib
import json
import re
import stat
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest
from starlette.testclient import TestClient

from harness.cli import main
from harness.plugins import Registry
from harness.serve.app import create_app
from harness.serve.live import Watch
from harness.tournament.executor_plugins import load_registry
from tests.conftest import TOY_PLUGIN

GATED = Path(__file__).parents[1] / "plugins" / "gated_bots.py"
T = TypeVar("T")


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_registry()


def gated_config(folder: Path) -> tuple[Path, Path, Path]:
    """An SPRT of one duplicate pair (two matches) of the toy game, the
    candidate gated: the config, its database and the gate folder."""
    gate = folder / "gate"
    gate.mkdir()
    database = folder / "live.sqlite"
    config = folder / "live.toml"
    config.write_text(
        'name = "live"\ngame = "toy"\nseats = 2\nformat = "sprt"\nmatches = 1\n'
        "seed = 5\nworkers = 1\nkeep_logs = true\n"
        f"database = {json.dumps(str(database))}\n"
        f"plugins = [{json.dumps(str(TOY_PLUGIN))}, {json.dumps(str(GATED))}]\n"
        '[sprt]\ncandidate = "gated"\nelo0 = 0\nelo1 = 50\n'
        '[entrants.gated]\nbot = "gated"\nisolation = "in-process"\n'
        f"options = {{ gate = {json.dumps(str(gate))} }}\n"
        '[entrants.random]\nbot = "random"\nisolation = "in-process"\n'
    )
    return config, database, gate


@contextlib.contextmanager
def gated_run(config: Path, gate: Path) -> Iterator[subprocess.Popen[str]]:
    """``troef run CONFIG`` in the background; on leaving, every gate opens
    and the run is waited for (killed only if it does not end)."""
    command = [sys.executable, "-m", "harness", "run", str(config), "--quiet"]
    run = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        yield run
    finally:
        for n in (1, 2):
            (gate / f"go-{n}").touch()
        try:
            run.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            run.kill()
            run.communicate()


def wait_for(probe: Callable[[], T | None], what: str, timeout: float = 60) -> T:
    """``probe()`` once it is not None: polled, never a guess of how long."""
    deadline = time.monotonic() + timeout
    while True:
        found = probe()
        if found is not None:
            return found
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(0.1)


def _when(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def test_the_live_data_follows_a_real_run_as_its_results_land(
    registry: Registry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, database, gate = gated_config(tmp_path)
    app = create_app(registry, results=tmp_path / "tables", pace=0, watch=database)
    with TestClient(app) as client:

        def live() -> dict[str, Any]:
            answer = client.get("/api/live")
            assert answer.status_code == 200
            return dict(answer.json())

        def when(test: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
            data = live()
            return data if test(data) else None

        # No database yet: said, naming the file; the page keeps polling.
        before = live()
        assert before["state"] == "missing"
        assert str(database) in before["message"]
        with gated_run(config, gate) as run:
            # The run created the database and waits at match 1's gate.
            empty = wait_for(
                lambda: when(lambda d: d["state"] == "empty" and d["planned"] > 0),
                "the database without results",
            )
            assert empty["state"] == "empty", empty
            assert empty["message"] == f"{database} holds no results yet"
            assert (empty["recorded"], empty["planned"]) == (0, 2)
            assert empty["running"] is True
            assert empty["sprt"]["samples"] == 0
            (gate / "go-1").touch()
            one = wait_for(
                lambda: when(lambda d: d.get("recorded") == 1), "the first result"
            )
            assert one["state"] == "results"
            assert one["running"] is True  # match 2 waits at its gate
            assert [m["index"] for m in one["recent"]] == [0]
            standings = one["report"]["standings"]
            assert {s["entrant"] for s in standings} == {"gated", "random"}
            for line in standings:
                assert line["lower"] <= line["rating"] <= line["upper"]
            # A duplicate pair is one SPRT sample: none yet after one match.
            assert one["sprt"]["samples"] == 0
            assert one["sprt"]["lower"] <= one["sprt"]["llr"] <= one["sprt"]["upper"]
            # The latest match opens as a replay while the run still writes.
            latest = one["recent"][0]["job id"]
            replay = client.get(
                "/api/replay",
                params={"live": "1", "match": latest, "seat": "referee"},
            )
            assert replay.status_code == 200, replay.text
            frames = replay.json()["frames"]
            assert len(frames) > 1 and frames[-1]["lines"]
            assert replay.json()["labels"] == one["recent"][0]["seating"]
            (gate / "go-2").touch()
            output, _ = run.communicate(timeout=60)
            assert run.returncode == 0, output
        # The tables are read again once the last reading's cost allows it.
        done = wait_for(
            lambda: when(lambda d: d["recorded"] == 2 and not d["running"]),
            "the second result",
        )
        assert done["planned"] == 2
        # The latest first; the rate is the one between the two results.
        assert [m["index"] for m in done["recent"]] == [1, 0]
        second, first = (_when(m["recorded_at"]) for m in done["recent"])
        assert done["rate_per_minute"] == pytest.approx(60 / (second - first))
        assert done["sprt"]["samples"] == 1

        # Read-only: polls leave the file's bytes, its time and its folder as
        # they were, and a file no one may write is still served.
        files = sorted(p.name for p in tmp_path.iterdir())
        content, mtime = database.read_bytes(), database.stat().st_mtime_ns
        for _ in range(3):
            assert live() == done
            last = client.get(
                "/api/replay",
                params={"live": "1", "match": "1", "seat": "0"},
            )
            assert last.status_code == 200, last.text
        assert client.get("/live").status_code == 200
        assert sorted(p.name for p in tmp_path.iterdir()) == files
        assert (database.read_bytes(), database.stat().st_mtime_ns) == (
            content,
            mtime,
        )
        database.chmod(stat.S_IRUSR)
        try:
            assert Watch(database).data() == done
        finally:
            database.chmod(stat.S_IRUSR | stat.S_IWUSR)

    # Every figure is troef status's and troef report's, not a second count.
    assert main(["status", str(database), "--format", "json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert (status["recorded"], status["planned"]) == (2, 2)
    assert status["sprt"] == done["sprt"]
    assert main(["report", str(database), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert done["report"]["standings"] == report["standings"]
    assert done["report"]["pairs"] == report["pairs"]


def test_a_file_that_is_no_troef_database_yet_is_named_and_polled_again(
    registry: Registry, tmp_path: Path
) -> None:
    database = tmp_path / "results.sqlite"
    database.write_bytes(b"")  # as 'troef run' creates it, before the schema
    app = create_app(registry, results=tmp_path / "tables", pace=0, watch=database)
    with TestClient(app) as client:
        data = client.get("/api/live").json()
        assert data["state"] == "unreadable"
        assert data["message"].startswith(f"{database}: the file is empty (0 bytes)")
        database.write_text("name,score\n")
        data = client.get("/api/live").json()
        assert data["message"] == (
            f"{database}: not a troef database (not even an SQLite file)"
        )
        # The page and its assets are served from here: nothing from a network.
        page = client.get("/live").text
        assert "http" not in page
        for asset in re.findall(r'(?:src|href)="([^"]+)"', page):
            assert asset.startswith("/static/")
            assert client.get(asset).status_code == 200
    assert database.read_text() == "name,score\n"


def test_troef_serve_db_prints_the_live_page_and_serves_the_lobby_too(
    tmp_path: Path,
) -> None:
    database = tmp_path / "later.sqlite"
    command = [sys.executable, "-m", "harness", "serve", str(database), "--port", "0"]
    command += ["--results", str(tmp_path / "tables")]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as server:
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            found = re.search(r"(http://127\.0\.0\.1:\d+)/live ", line)
            assert found, line
            with urllib.request.urlopen(f"{found[1]}/api/live", timeout=60) as answer:
                data = json.load(answer)
            assert data["state"] == "missing"
            assert str(database) in data["message"]
            # The lobby beside it lists the games of the registry serve loads.
            with urllib.request.urlopen(f"{found[1]}/api/games", timeout=60) as answer:
                games = json.load(answer)
            assert "klaverjassen" in {g["name"] for g in games}
        finally:
            server.terminate()
            server.wait(timeout=60)
    assert not database.exists()


def test_troef_serve_refuses_a_config_given_for_its_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, _, _ = gated_config(tmp_path)
    assert main(["serve", str(config), "--port", "0"]) == 2
    assert capsys.readouterr().err == (
        f"troef: error: DB {config}: a tournament config, not its results "
        "database; expected the SQLite file its 'database' key names\n"
    )
