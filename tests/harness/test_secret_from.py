"""``troef run FILE --secret-from OLD.sqlite`` plays a tournament with an
untrusted entrant again exactly (issue 29, item 7).

Its bot seeds are keyed with a secret drawn per database (and a config
without ``seed`` draws its master seed per database too), so two fresh
databases of one config play different matches; ``--secret-from`` takes both
from an earlier database, and is refused while an entrant's bot could read
that file.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import TOY_PLUGIN
from tests.harness.test_sandbox import bwrap  # noqa: F401 - a fixture
from tests.harness.test_scheduler import _cli
from tests.harness.test_untrusted import SYSTEM_PYTHON, _reachable_by_others

PROGRAM = Path(__file__).parents[1] / "plugins" / "seeded_program.py"


def _config(
    tmp_path: Path, database: str, user: str | None, sandbox: str | None = "none"
) -> Path:
    # No 'seed': the master seed is drawn per database, as for untrusted bots
    # the config's warning advises.
    path = tmp_path / f"{Path(database).stem}.toml"
    user_line = "" if user is None else f'user = "{user}"\n'
    if sandbox is not None:
        user_line += f'sandbox = "{sandbox}"\n'
    path.write_text(
        f'game = "toy"\nseats = 3\nmatches = 3\nplugins = ["{TOY_PLUGIN}"]\n'
        f'keep_logs = true\nexecutor = "inline"\ndatabase = "{database}"\n'
        '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
        f'[entrants.s]\ncommand = ["{SYSTEM_PYTHON}", "-I", "{PROGRAM}"]\n'
        f"{user_line}"
    )
    path.chmod(0o600)
    return path


def _troef(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        _cli(*map(str, args)), capture_output=True, text=True, timeout=300
    )


def _played(db: Path) -> list[tuple[Any, ...]]:
    """Every recorded match: its job, result and action log."""
    with contextlib.closing(sqlite3.connect(db)) as con:
        return con.execute(
            "SELECT r.job_id, r.result, l.log FROM results r "
            "JOIN logs l ON l.job_id = r.job_id ORDER BY r.job_id"
        ).fetchall()


@pytest.mark.slow
@pytest.mark.skipif(
    os.geteuid() != 0
    or not Path(SYSTEM_PYTHON).exists()
    or not _reachable_by_others(Path(SYSTEM_PYTHON))
    or not _reachable_by_others(PROGRAM),
    reason="needs a root harness (to run the bot as 'nobody', who cannot read "
    "the database), and a Python and bot program that 'nobody' can run",
)
def test_two_fresh_databases_with_secret_from_play_identical_matches(
    tmp_path: Path,
) -> None:
    runs = {}
    for name in ("old", "again", "other"):
        path = _config(tmp_path, f"{name}.sqlite", "nobody")
        old = str(tmp_path / "old.sqlite")
        extra = ["--secret-from", old] if name == "again" else []
        done = _troef("run", path, "--quiet", *extra)
        assert done.returncode == 0, done.stderr
        runs[name] = _played(tmp_path / f"{name}.sqlite")
    assert len(runs["old"]) == 9  # 3 seeds, 3 rotations, one composition
    assert runs["again"] == runs["old"]
    # Without it a fresh database draws its own seeds: other matches.
    assert runs["other"] != runs["old"]
    # A database with seeds of its own does not take another's.
    done = _troef(
        "run", tmp_path / "other.toml", "--secret-from", tmp_path / "old.sqlite"
    )
    assert done.returncode == 2
    assert "has a master seed of its own already" in done.stderr, done.stderr
    assert _played(tmp_path / "other.sqlite") == runs["other"]
    # A resume of the database that took them keeps them (no second secret).
    done = _troef(
        "run", tmp_path / "again.toml", "--secret-from", tmp_path / "old.sqlite"
    )
    assert done.returncode == 0 and "nothing left to play" in done.stdout


@pytest.mark.slow
@pytest.mark.usefixtures("bwrap")
def test_a_sandboxed_bot_cannot_read_the_old_database_so_secret_from_replays(
    tmp_path: Path,
) -> None:
    """Under the default sandbox the bot is shown only its program and its
    installation: the old database is out of its sight, as root or not."""
    runs = {}
    for name in ("old", "again"):
        path = _config(tmp_path, f"{name}.sqlite", None, sandbox=None)
        extra = (
            ["--secret-from", str(tmp_path / "old.sqlite")] if name == "again" else []
        )
        done = _troef("run", path, "--quiet", *extra)
        assert done.returncode == 0, done.stderr
        runs[name] = _played(tmp_path / f"{name}.sqlite")
    assert len(runs["old"]) == 9 and runs["again"] == runs["old"]


def _harness_user() -> str | None:
    # Under root a bot without 'user' runs as nobody: name root to run it as
    # the harness; otherwise it runs as the harness anyway.
    return pwd.getpwuid(os.geteuid()).pw_name if os.geteuid() == 0 else None


def test_secret_from_is_refused_when_a_bot_could_read_the_old_database(
    tmp_path: Path,
) -> None:
    old = tmp_path / "old.sqlite"
    old.write_bytes(b"")  # refused before it is opened: its contents do not matter
    path = _config(tmp_path, "new.sqlite", _harness_user())
    done = _troef("run", path, "--quiet", "--secret-from", old)
    assert done.returncode == 2, done.stdout
    assert f"--secret-from {old}: entrant 's' could read that file" in done.stderr
    assert "runs as the harness's user" in done.stderr or "as root" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "new.sqlite").exists()
    assert not (tmp_path / "new.sqlite.lock").exists()


def test_secret_from_is_refused_for_a_config_that_uses_no_secret(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nseats = 3\nmatches = 1\nplugins = ["{TOY_PLUGIN}"]\n'
        'executor = "inline"\n[entrants.a]\nbot = "random"\n'
        '[entrants.b]\nbot = "random"\n'
    )
    done = _troef("run", path, "--secret-from", tmp_path / "old.sqlite")
    assert done.returncode == 2
    assert "has no process-isolated entrant" in done.stderr
    assert "follows from its seed alone" in done.stderr
    assert not (tmp_path / "t.sqlite").exists()
