"""A run may lower a game's match cap (issue 13, item 4).

Every game declares ``Game.max_actions``; a tournament config's top-level
``max_actions`` and ``troef play --max-actions`` lower it (never raise it).
The passive gin bots never go out, so only the cap ends their match: real
``troef run`` and ``troef play`` processes show it ends there, recorded with
its reason.
"""

from __future__ import annotations

import pickle
import subprocess
from pathlib import Path

import pytest

from games.rummy.gin import GinRummy
from harness.contracts.errors import ConfigError, OptionError
from harness.tournament.config import load_config
from harness.tournament.store import Store
from tests.harness.test_scheduler import _cli, _processes_running

PASSIVE = Path(__file__).parents[1] / "plugins" / "passive_bots.py"


def _passive_config(tmp_path: Path, cap: str) -> Path:
    path = tmp_path / "passive.toml"
    path.write_text(
        'game = "gin-rummy"\nmatches = 2\nseed = 3\nworkers = 1\n'
        f'plugins = ["{PASSIVE}"]\n'
        f"max_actions = {cap}\n"
        "[options]\ntarget = 10\n"
        '[entrants.still]\nbot = "passive"\n'
        '[entrants.calm]\nbot = "passive"\nisolation = "process"\n'
    )
    return path


def test_a_run_ends_passive_gin_matches_at_the_configured_cap(tmp_path: Path) -> None:
    """``max_actions = 300``: each of the 4 matches (2 seeds x 2 seatings)
    stops at 300 actions, a draw whose reason is in the store."""
    path = _passive_config(tmp_path, "300")
    done = subprocess.run(
        _cli("run", str(path), "--quiet"), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    with Store.existing(tmp_path / "passive.sqlite") as store:
        matches = list(store.matches())
        assert store.config_snapshot()["max_actions"] == 300
    assert len(matches) == 4
    for match in matches:
        result = match.result
        assert result.ended == (
            "no end after 300 actions (max_actions = 300, lowered for this run): "
            "stopped by the referee and counted as a draw"
        )
        assert result.log is not None and len(result.log) == 300
        assert result.ranks == (1, 1) and result.forfeit is None
        assert match.job["max_actions"] == 300
    assert _processes_running(str(tmp_path), within=5.0) == []


def test_troef_play_takes_a_lower_cap() -> None:
    done = subprocess.run(
        _cli(
            "--plugin",
            str(PASSIVE),
            "play",
            "gin-rummy",
            "--bots",
            "passive,passive",
            "-o",
            "target=10",
            "--max-actions",
            "250",
            "--quiet",
        ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert (
        "match ended by the referee: no end after 250 actions (max_actions = 250, "
        "lowered for this run)"
    ) in done.stdout


def test_troef_play_refuses_a_cap_above_the_games() -> None:
    done = subprocess.run(
        _cli("play", "gin-rummy", "--bots", "random,random", "--max-actions", "0"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "max_actions = 0 is not allowed; expected an integer from 1 to 1000000" in (
        done.stderr
    )
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("cap", "expected"),
    [
        (
            "1000001",
            "1000001 is not allowed; expected an integer from 1 "
            "to 1000000 (game 'gin-rummy' ends a match at 1000000 actions",
        ),
        ("0", "0 is not allowed; expected an integer from 1 to 1000000"),
        ('"100"', "'100' is not allowed; expected an integer from 1 to 1000000"),
        ("true", "True is not allowed; expected an integer from 1 to 1000000"),
    ],
)
def test_a_config_cap_outside_the_games_is_refused_with_file_line_key(
    tmp_path: Path, cap: str, expected: str
) -> None:
    path = _passive_config(tmp_path, cap)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    message = str(error.value)
    assert message.startswith(f"{path}:6: max_actions: "), message
    assert expected in message


def test_no_cap_leaves_the_snapshot_and_jobs_as_before(tmp_path: Path) -> None:
    # An older database must not look like another config's.
    path = _passive_config(tmp_path, "300")
    path.write_text(path.read_text().replace("max_actions = 300\n", ""))
    config = load_config(path)
    assert config.max_actions is None and "max_actions" not in config.snapshot()


def test_a_lowered_cap_survives_pickling_and_changes_equality() -> None:
    game = GinRummy(target=10)
    capped = game.with_max_actions(500)
    assert (game.action_cap, capped.action_cap) == (1_000_000, 500)
    assert capped != game and capped.options == game.options
    copy = pickle.loads(pickle.dumps(capped))
    assert copy == capped and copy.action_cap == 500
    assert game.with_max_actions(None) is game
    with pytest.raises(OptionError, match="not allowed"):
        game.with_max_actions(1_000_001)
