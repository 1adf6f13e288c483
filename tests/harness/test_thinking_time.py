"""Issue 14, item 8: each bot's thinking time is recorded per match and shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli import main
from harness.match.referee import make_bots, play_match
from harness.plugins import load_plugins
from harness.tournament.store import Store
from tests.conftest import TOY_PLUGIN

SLEEPY = """
import time
from harness import hookimpl
from harness.contracts.bot import Bot


class Sleepy(Bot):
    name = "sleepy"

    def act(self, view):
        time.sleep(0.02)
        return view.legal_actions[0]


@hookimpl
def troef_bots():
    return [Sleepy]
"""


@pytest.fixture
def sleepy(tmp_path: Path) -> Path:
    path = tmp_path / "sleepy.py"
    path.write_text(SLEEPY)
    return path


def test_the_referee_measures_each_seat(sleepy: Path) -> None:
    registry = load_plugins(files=[TOY_PLUGIN, sleepy])
    game = registry.game("toy")
    classes = [registry.bot_class("sleepy"), registry.bot_class("random")]
    result = play_match(game, make_bots(game, classes, 2), 2)
    assert result.thinking is not None
    (slow_n, slow_total, slow_max), (fast_n, fast_total, _) = result.thinking
    assert slow_n == fast_n == 6  # the toy for two: two deals of three cards each
    # Lower bounds only (the sleep guarantees them); the random bot is far quicker.
    assert slow_total >= 6 * 0.02 and slow_max >= 0.02
    assert fast_total < slow_total
    # A measurement, not an outcome: results compare equal whatever the timing.
    again = play_match(game, make_bots(game, classes, 2), 2)
    assert again == result and again.thinking != result.thinking


@pytest.mark.parametrize("isolation", ["in-process", "process"])
def test_a_tournament_keeps_thinking_times_and_status_shows_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, sleepy: Path, isolation: str
) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        f'game = "toy"\nseats = 2\nmatches = 1\nseed = 3\nworkers = 1\n'
        f'plugins = ["{TOY_PLUGIN}", "{sleepy}"]\n'
        f'[entrants.slow]\nbot = "sleepy"\nisolation = "{isolation}"\n'
        '[entrants.quick]\nbot = "random"\nisolation = "in-process"\n'
    )
    assert main(["run", str(config), "--quiet"]) == 0
    with Store.existing(tmp_path / "t.sqlite") as store:
        thinking = {entrant: rest for entrant, *rest in store.thinking()}
    assert thinking["slow"][0] == thinking["quick"][0] == 12  # 2 matches x 6 moves
    assert thinking["slow"][1] >= 12 * 0.02 and thinking["slow"][2] >= 0.02
    assert thinking["quick"][1] < thinking["slow"][1]
    capsys.readouterr()
    assert main(["status", str(tmp_path / "t.sqlite")]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("slow "))
    assert " ms" in row and "12" in row.split()
