"""Issue 14, item 5: clean errors where tracebacks were."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli import main
from tests.conftest import TOY_PLUGIN


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def toy_config(tmp_path: Path, database: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nseats = 2\nmatches = 1\nseed = 5\nexecutor = "inline"\n'
        f'database = "{database}"\nplugins = ["{TOY_PLUGIN}"]\n'
        '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
    )
    return path


def test_a_bot_raising_in_init_under_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plugin = tmp_path / "initbot.py"
    plugin.write_text(
        "from harness import hookimpl\nfrom harness.contracts.bot import Bot\n\n"
        "class Fails(Bot):\n    name = 'fails-init'\n\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        raise RuntimeError('no model file')\n\n"
        "    def act(self, view):\n        return view.legal_actions[0]\n\n"
        "@hookimpl\ndef troef_bots():\n    return [Fails]\n"
    )
    code, _, err = run(
        capsys,
        *("--plugin", str(TOY_PLUGIN), "--plugin", str(plugin)),
        *("play", "toy", "--bots", "random,fails-init"),
    )
    assert code == 2
    assert "bot 'fails-init' (seat 1) failed to start: RuntimeError: no model file" in (
        err
    )
    assert "Traceback" not in err


def test_a_missing_database_folder_is_made_and_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(
        capsys, "run", str(toy_config(tmp_path, "results/new/t.sqlite")), "--quiet"
    )
    assert code == 0
    assert f"creating the folder {tmp_path / 'results' / 'new'}" in out
    assert (tmp_path / "results" / "new" / "t.sqlite").is_file()


def test_a_database_folder_that_cannot_be_made(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "plain-file").write_text("not a folder\n")
    code, _, err = run(
        capsys, "run", str(toy_config(tmp_path, "plain-file/sub/t.sqlite")), "--quiet"
    )
    assert code == 2
    assert "cannot create the folder" in err and "'database' key" in err
    assert "Traceback" not in err
