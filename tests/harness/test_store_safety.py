"""The database is never destroyed or misread (issue 13, item 8).

``--fresh`` deletes only a troef database; a foreign, empty or damaged file is
refused by ``run``, ``status`` and ``report`` with a clear message (never a
traceback, never a silent start over); new databases are private.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import sqlite3
import stat
import subprocess
import time
from pathlib import Path

import pytest

from tests.harness.test_run_control import _start
from tests.harness.test_scheduler import _cli, _wait_for_results, write_config


def _troef(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_cli(*args), capture_output=True, text=True, timeout=120)


def _config(tmp_path: Path, database: str) -> Path:
    return write_config(
        tmp_path, matches=1, extra=f'executor = "inline"\ndatabase = "{database}"\n'
    )


def test_fresh_refuses_to_delete_a_file_that_is_not_a_troef_database(
    tmp_path: Path,
) -> None:
    path = _config(tmp_path, "t.toml")  # the config names itself as database
    text = path.read_text()
    done = _troef("run", str(path), "--fresh", "--quiet")
    assert done.returncode == 2
    assert f"--fresh: refusing to delete {path}: not a troef database" in done.stderr
    assert "Traceback" not in done.stderr
    assert path.read_text() == text


def test_fresh_deletes_a_troef_database_and_starts_afresh(tmp_path: Path) -> None:
    path = _config(tmp_path, "t.sqlite")
    assert _troef("run", str(path), "--quiet").returncode == 0
    db = tmp_path / "t.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("UPDATE results SET recorded_at = 'marked'")
    assert _troef("run", str(path), "--fresh", "--quiet").returncode == 0
    with sqlite3.connect(db) as con:
        marked = con.execute(
            "SELECT COUNT(*) FROM results WHERE recorded_at = 'marked'"
        ).fetchone()[0]
        assert marked == 0


def test_a_foreign_sqlite_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "shop.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE orders (id INTEGER)")
    before = db.read_bytes()
    path = _config(tmp_path, "shop.sqlite")
    for args in (("run", str(path), "--quiet"), ("run", str(path), "--fresh")):
        done = _troef(*args)
        assert done.returncode == 2
        assert "an SQLite database of something else" in done.stderr
        assert "(tables: orders)" in done.stderr and "Traceback" not in done.stderr
    assert db.read_bytes() == before


def test_an_empty_file_is_refused_not_silently_started_over(tmp_path: Path) -> None:
    (tmp_path / "t.sqlite").write_bytes(b"")
    path = _config(tmp_path, "t.sqlite")
    done = _troef("run", str(path), "--quiet")
    assert done.returncode == 2
    assert "the file is empty (0 bytes)" in done.stderr
    assert (tmp_path / "t.sqlite").read_bytes() == b""


@pytest.mark.parametrize("command", ["run", "status", "report"])
def test_a_garbled_page_gives_a_clear_error_from_run_status_and_report(
    tmp_path: Path, command: str
) -> None:
    path = write_config(tmp_path, matches=8, extra='executor = "inline"\n')
    assert _troef("run", str(path), "--quiet").returncode == 0
    db = tmp_path / "t.sqlite"
    data = bytearray(db.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[2 * page : 3 * page] = b"\xa5" * page  # a page of the results, garbled
    db.write_bytes(bytes(data))
    target = str(path) if command == "run" else str(db)
    done = _troef(command, target)
    assert done.returncode == 2, done.stdout
    assert "the database is damaged" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_new_database_and_its_folder_are_readable_by_the_owner_only(
    tmp_path: Path,
) -> None:
    path = _config(tmp_path, "results/deep/t.sqlite")
    assert _troef("run", str(path), "--quiet").returncode == 0
    db = tmp_path / "results" / "deep" / "t.sqlite"
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "results").stat().st_mode) == 0o700


@pytest.mark.parametrize("kind", ["text", "sqlite", "config", "devnull"])
def test_refusing_a_foreign_file_leaves_no_lock_or_other_file_beside_it(
    tmp_path: Path, kind: str
) -> None:
    # Issue 29, item 6: a refusal used to leave '<file>.lock' beside the file.
    database = {
        "text": "notes.txt",
        "sqlite": "shop.sqlite",
        "config": "t.toml",
        "devnull": "/dev/null",
    }[kind]
    path = _config(tmp_path, database)
    if kind == "text":
        (tmp_path / "notes.txt").write_text("groceries: milk, eggs\n")
    elif kind == "sqlite":
        with sqlite3.connect(tmp_path / "shop.sqlite") as con:
            con.execute("CREATE TABLE orders (id INTEGER)")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    for args in (("run", str(path), "--quiet"), ("run", str(path), "--fresh")):
        done = _troef(*args)
        assert done.returncode == 2, done.stdout
        assert "Traceback" not in done.stderr
        assert "not a troef database" in done.stderr or "not troef" in done.stderr
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert not Path("/dev/null.lock").exists()


def _results_in_file_alone(db: Path) -> int | None:
    """The results the database file holds without its -wal (None: torn copy)."""
    copy = db.with_name("alone.sqlite")
    shutil.copyfile(db, copy)
    uri = copy.as_uri() + "?mode=ro&immutable=1"  # reads the file alone, makes none
    try:
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as con:
            return int(con.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.DatabaseError:  # no tables yet, or copied mid-checkpoint
        return None
    finally:
        copy.unlink()


@pytest.mark.slow
def test_a_killed_run_leaves_its_results_in_the_database_file_and_a_copy_says_so(
    tmp_path: Path,
) -> None:
    # Issue 29, item 5: with 23 matches recorded the file alone had no tables.
    path = write_config(
        tmp_path,
        matches=40,
        bot="sleepy",
        bot_options="options = { delay = 0.05 }\n",
        extra="workers = 1\n",
    )
    db = tmp_path / "t.sqlite"
    proc = _start(path)
    try:
        _wait_for_results(db, 3, proc)
        # Checkpointed while it records: the file alone holds results too.
        deadline = time.monotonic() + 60
        while not _results_in_file_alone(db):
            assert proc.poll() is None, "the run ended before it was killed"
            assert time.monotonic() < deadline, "the database file alone holds none"
            time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
    assert Path(f"{db}-wal").exists()
    copied = tmp_path / "copy" / "t.sqlite"
    copied.parent.mkdir()
    shutil.copyfile(db, copied)  # the file alone, as a user copies it
    for _ in range(2):  # reading the copy does not silence the warning
        done = _troef("status", str(copied))
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert "did not end cleanly" in done.stderr
        assert "the -wal file beside the original holds the results" in done.stderr
    assert sorted(p.name for p in copied.parent.iterdir()) == ["t.sqlite"]
    # The original with its -wal file reads without a warning, before and
    # after a reader merged the -wal file (SQLite does when it closes).
    for _ in range(2):
        done = _troef("status", str(db))
        assert done.returncode == 0 and "warning" not in done.stderr, done.stderr


def test_a_database_file_copied_without_its_wal_says_the_wal_holds_the_results(
    tmp_path: Path,
) -> None:
    # Before a checkpoint every table is in the -wal file: its file alone,
    # copied, used to read as "an SQLite database of something else".
    db = tmp_path / "t.sqlite"
    con = sqlite3.connect(db)
    try:
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA wal_autocheckpoint=0")
        with con:
            con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        copied = tmp_path / "copy" / "t.sqlite"
        copied.parent.mkdir()
        shutil.copyfile(db, copied)
    finally:
        con.close()
    for command in ("status", "report"):
        done = _troef(command, str(copied))
        assert done.returncode == 2
        assert "the -wal file beside it holds the results" in done.stderr
        assert f"{copied}-wal is missing" in done.stderr, done.stderr
    assert sorted(p.name for p in copied.parent.iterdir()) == ["t.sqlite"]
    # An empty -wal and a -shm beside it (what a reader leaves) say the same.
    for suffix in ("-wal", "-shm"):
        Path(f"{copied}{suffix}").write_bytes(b"")
    done = _troef("status", str(copied))
    assert done.returncode == 2
    assert "the -wal file beside it holds the results" in done.stderr
    assert f"{copied}-wal is empty" in done.stderr, done.stderr


def test_a_clean_run_leaves_a_database_file_that_holds_everything_alone(
    tmp_path: Path,
) -> None:
    path = _config(tmp_path, "t.sqlite")
    assert _troef("run", str(path), "--quiet").returncode == 0
    db = tmp_path / "t.sqlite"
    assert _results_in_file_alone(db) == 12
    copied = tmp_path / "copy" / "t.sqlite"
    copied.parent.mkdir()
    shutil.copyfile(db, copied)
    done = _troef("status", str(copied))
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
