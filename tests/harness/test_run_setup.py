"""Issue 25, item 5: what `validate` says of the executor and checks, and what a
run that fails before its first match leaves behind (nothing it made)."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.contracts.errors import TroefError
from harness.contracts.result import Result
from harness.tournament.config import load_config
from harness.tournament.scheduler import run_tournament
from harness.tournament.store import Store
from tests.conftest import TOY_PLUGIN

ENTRANTS = '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
GHOST = '[entrants.ghost]\ncommand = ["definitely-not-a-program"]\n'


def write(tmp_path: Path, head: str, entrants: str = ENTRANTS, table: str = "") -> Path:
    """A toy round robin whose database is ``out/t.sqlite`` beside it: ``head``
    on line 6, an ``[executor]`` ``table`` from line 10 (after the entrants)."""
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nmatches = 2\nseed = 4\nplugins = ["{TOY_PLUGIN}"]\n'
        f'database = "out/t.sqlite"\n{head}{entrants}{table}'
    )
    return path


def files_beside(tmp_path: Path) -> list[str]:
    """Every file the run may have made, relative to the config's folder."""
    return sorted(
        str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.name != "t.toml"
    )


@pytest.mark.parametrize(
    ("head", "table", "shown"),
    [
        ('executor = "inline"\n', "", "inline, every match in this process"),
        ("workers = 3\n", "", "process, a local pool of 3 workers"),
        ("", "", "process, a local pool of one worker per core"),
        (
            "",
            '[executor]\nname = "dask"\nworkers = 2\n',
            "dask, a local cluster on the loopback interface of 2 workers",
        ),
        (
            "",
            '[executor]\nname = "dask"\naddress = "tcp://10.0.0.5:8786"\n',
            "dask, the cluster at tcp://10.0.0.5:8786 (chunks in play at once: one "
            "per core here; set workers to the cluster's worker processes)",
        ),
        (
            "",
            '[executor]\nname = "dask"\naddress = "tcp://10.0.0.5:8786"\n'
            "workers = 16\n",
            "dask, the cluster at tcp://10.0.0.5:8786 (16 chunks in play at once)",
        ),
    ],
)
def test_validate_shows_the_executor(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    head: str,
    table: str,
    shown: str,
) -> None:
    path = write(tmp_path, head, table=table)
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"  executor   {shown}\n" in out
    # validate makes no file: no database, no lock, no folder.
    assert files_beside(tmp_path) == []


@pytest.mark.parametrize(
    ("head", "table", "where"),
    [
        ("", '[executor]\nname = "dask"\nworkers = 2\n', "t.toml:11: executor.name"),
        ('executor = "dask"\n', "", "t.toml:6: executor"),
    ],
)
@pytest.mark.parametrize("command", [["validate"], ["run", "--quiet"]])
def test_dask_without_distributed_is_refused_before_any_file_is_made(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    head: str,
    table: str,
    where: str,
    command: list[str],
) -> None:
    # As on a machine without the package: its import fails.
    monkeypatch.setitem(sys.modules, "distributed", None)
    path = write(tmp_path, head, table=table)
    assert main([command[0], str(path), *command[1:]]) == 2
    out, err = capsys.readouterr()
    assert "valid" not in out
    assert (
        f"troef: error: {tmp_path / where}: executor 'dask' needs the package "
        "distributed (" in err
    )
    assert "install it from the troef checkout with pip install -e '.[dask]'" in err
    assert files_beside(tmp_path) == []


def test_a_ladder_run_on_dask_without_distributed_is_refused_before_any_file(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    path = write(tmp_path, 'format = "ladder"\nexecutor = "dask"\n')
    assert main(["ladder", "run", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert (
        f"troef: error: {tmp_path / 't.toml'}:7: executor: executor 'dask' needs the "
        "package distributed (" in err
    )
    assert files_beside(tmp_path) == []


def test_a_run_that_fails_before_its_first_match_leaves_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, 'executor = "inline"\nprobe = "refuse"\n', ENTRANTS + GHOST)
    assert main(["run", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "entrant 'ghost' cannot play: cannot start" in err
    # The folder it made for the database stays (said when made); nothing in it.
    assert files_beside(tmp_path) == ["out"]
    # Run again once the entrant is fixed: a new database, as if never tried.
    write(tmp_path, 'executor = "inline"\n')
    assert main(["run", str(path), "--quiet"]) == 0
    assert (tmp_path / "out" / "t.sqlite").exists()


def test_a_database_that_was_there_is_kept_when_a_run_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, 'executor = "inline"\nprobe = "refuse"\n', ENTRANTS + GHOST)
    config = load_config(path)
    (tmp_path / "out").mkdir()
    Store.open(config.database, config).close()  # made before, holding no match
    assert main(["run", str(path), "--quiet"]) == 2
    assert "cannot play" in capsys.readouterr().err
    assert config.database.exists()


def test_a_run_that_fails_after_a_match_keeps_its_database(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, 'executor = "inline"\n'))

    def fail(job: object, result: Result) -> None:
        raise TroefError("the caller's callback failed")

    with pytest.raises(TroefError, match="callback failed"):
        run_tournament(config, on_result=fail)
    # Results are written before the callback sees them (a chunk at a time).
    db = sqlite3.connect(config.database)
    try:
        assert db.execute("SELECT COUNT(*) FROM results").fetchone()[0] > 0
    finally:
        db.close()
