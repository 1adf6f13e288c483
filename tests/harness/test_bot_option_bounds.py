"""Bot options have upper bounds, checked when a config is validated (issue 13,
item 4): ``samples = 2**64`` for the search bot would hang a run."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bots.search import MAX_SAMPLES, SearchBot
from bots.searchkit import MAX_ROLLOUT
from harness.contracts.errors import ConfigError, OptionError
from harness.plugins import load_plugins
from harness.tournament.config import load_config
from tests.harness.test_scheduler import _cli

REGISTRY = load_plugins()


@pytest.mark.parametrize("name", sorted(REGISTRY.bots))
def test_every_numeric_option_of_troefs_bots_has_an_upper_bound(name: str) -> None:
    for spec in REGISTRY.bot_class(name).option_specs:
        if isinstance(spec.default, (int, float)) and not isinstance(
            spec.default, bool
        ):
            assert spec.maximum is not None, f"bot {name!r}: {spec.name} is unbounded"
            assert spec.minimum is not None, f"bot {name!r}: {spec.name} is unbounded"


def _config(tmp_path: Path, options: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(
        'game = "gin-rummy"\n'
        '[entrants.deep]\nbot = "search"\n'
        f"options = {{ {options} }}\n"
        '[entrants.plain]\nbot = "random"\n'
    )
    return path


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            "samples = 18446744073709551616",
            "bot 'search': option 'samples' = 18446744073709551616 is not allowed; "
            f"expected int from 1 to {MAX_SAMPLES}",
        ),
        (
            f"max_rollout = {MAX_ROLLOUT + 1}",
            f"bot 'search': option 'max_rollout' = {MAX_ROLLOUT + 1} is not allowed; "
            f"expected int from 1 to {MAX_ROLLOUT}",
        ),
    ],
)
def test_validate_refuses_a_bot_option_above_its_bound(
    tmp_path: Path, options: str, message: str
) -> None:
    path = _config(tmp_path, options)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value) == f"{path}:4: entrants.deep.options: {message}"
    # The same in a real `troef validate`, before anything runs.
    done = subprocess.run(
        _cli("validate", str(path)), capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_the_bounds_themselves_are_accepted(tmp_path: Path) -> None:
    path = _config(tmp_path, f"samples = {MAX_SAMPLES}, max_rollout = {MAX_ROLLOUT}")
    entrant = load_config(path).entrant("deep")
    assert entrant.options_dict() == {
        "samples": MAX_SAMPLES,
        "max_rollout": MAX_ROLLOUT,
    }
    with pytest.raises(OptionError):
        SearchBot(REGISTRY.game("gin-rummy"), 0, 1, {"samples": MAX_SAMPLES + 1})
