"""Issue 14, items 1 and 2: start-up, --version, and --plugin / --block anywhere."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main
from tests.conftest import TOY_PLUGIN


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def toy_config(tmp_path: Path, *, plugins: bool) -> Path:
    """A toy round robin; its plugin named in the file or left to --plugin."""
    path = tmp_path / "t.toml"
    named = f'plugins = ["{TOY_PLUGIN}"]\n' if plugins else ""
    path.write_text(
        f'game = "toy"\nseats = 2\nmatches = 2\nseed = 5\nworkers = 1\n{named}'
        '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
    )
    return path


@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("command", ["validate", "run"])
def test_plugin_is_honoured_by_config_commands_in_either_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str, command: str
) -> None:
    config = toy_config(tmp_path, plugins=False)
    plugin = ["--plugin", str(TOY_PLUGIN)]
    argv = (
        [*plugin, command, str(config)]
        if where == "before"
        else [command, str(config), *plugin]
    )
    code, out, err = run(capsys, *argv, *(["--quiet"] if command == "run" else []))
    assert code == 0, err
    assert ("valid" in out) if command == "validate" else ("played 4 matches" in out)


def test_without_the_plugin_the_config_names_the_unknown_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "validate", str(toy_config(tmp_path, plugins=False)))
    assert code == 2 and "no game named 'toy'" in err


def test_plugin_after_the_command_for_registry_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "games", "--plugin", str(TOY_PLUGIN))
    assert code == 0 and "toy" in out.split()


def test_a_plugin_file_that_registers_nothing_is_warned_about(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    misspelled = tmp_path / "highbot.py"
    misspelled.write_text(
        "from harness import hookimpl\n\n@hookimpl\ndef troef_bot():\n    return []\n"
    )
    code, _, err = run(capsys, "--plugin", str(misspelled), "bots")
    assert code == 0
    assert f"plugin {str(misspelled)!r} registers no game, bot or executor" in err
    assert "did you mean 'troef_bots'?" in err


def test_a_block_that_names_no_plugin_is_warned_about(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "games", "--block", "jas")
    assert code == 0
    assert "--block 'jas' names no plugin" in err and "jass" in err


def test_block_reaches_a_tournament(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Blocking the plugin that provides the entrants' bot makes the config invalid.
    config = toy_config(tmp_path, plugins=True)
    code, _, err = run(capsys, "validate", str(config), "--block", "random-bot")
    assert code == 2 and "no bot named 'random'" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("troef ") and out.strip() != "troef"


def test_help_and_games_import_no_numerics() -> None:
    """What keeps start-up short (timed in bench/bench_startup.py, not here)."""
    probe = (
        "import sys\n"
        "from harness.cli import main\n"
        "for argv in (['games'], ['bots']):\n"
        "    main(argv)\n"
        "heavy = sorted(m for m in ('numpy', 'scipy') if m in sys.modules)\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert "HEAVY []" in out
