"""The database is never destroyed or misread (issue 13, item 8).

``--fresh`` deletes only a troef database; a foreign, empty or damaged file is
refused by ``run``, ``status`` and ``report`` with a clear message (never a
traceback, never a silent start over); new databases are private.
"""

from __future__ import annotations

import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest

from tests.harness.test_scheduler import _cli, write_config


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
