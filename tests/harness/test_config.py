"""Tournament configs: valid ones load; each mistake names file, line, key and fix."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from harness.contracts.errors import ConfigError
from harness.tournament.config import load_config
from tests.conftest import TOY_PLUGIN

HEAD = f'''
game = "toy"
plugins = ["{TOY_PLUGIN}"]
'''
TWO = """
[entrants.alice]
bot = "random"
[entrants.bob]
bot = "random"
"""


def write(tmp_path: Path, body: str, name: str = "t.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


def test_a_valid_config_with_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, HEAD + TWO))
    assert config.game == "toy" and config.seats == 2 and config.format == "round-robin"
    # No seed: a random one is drawn by the store (test_untrusted).
    assert config.matches == 1 and not config.seed_given and config.duplicate
    assert config.database == tmp_path / "t.sqlite"  # beside the config, named after it
    assert [e.label for e in config.entrants] == ["alice", "bob"]
    assert config.workers is None and config.executor == "process"


def test_paths_are_relative_to_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "toy.py").write_text(TOY_PLUGIN.read_text())
    body = 'game = "toy"\nplugins = ["toy.py"]\ndatabase = "out/r.sqlite"\n' + TWO
    config = load_config(write(tmp_path / "sub", body))
    assert config.database == tmp_path / "sub" / "out" / "r.sqlite"
    assert config.plugins == (str((tmp_path / "sub" / "toy.py").resolve()),)


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        (
            HEAD + "matchs = 3\n" + TWO,
            4,
            "matchs: unknown key; did you mean 'matches'?",
        ),
        (
            HEAD + "matches = 0\n" + TWO,
            4,
            "matches: 0 is not allowed; expected an integer >= 1",
        ),
        (
            HEAD + 'matches = "3"\n' + TWO,
            4,
            "matches: '3' is not allowed; expected an integer >= 1",
        ),
        (
            HEAD + 'format = "roundrobin"\n' + TWO,
            4,
            "format: unknown format 'roundrobin'; did you mean 'round-robin'?",
        ),
        (HEAD + "seats = 5\n" + TWO, 4, "seats: game 'toy' takes 2, 3 seats, not 5"),
        (
            HEAD + 'workers = "many"\n' + TWO,
            4,
            "workers: 'many' is not allowed; expected \"auto\" or an integer "
            "from 1 to 256",
        ),
        (
            HEAD + "[options]\nleaky = 3\n" + TWO,
            5,
            "options.leaky: game 'toy': option 'leaky' = 3 is not allowed; "
            "expected a bool",
        ),
        (
            HEAD + "[options]\nleeky = true\n" + TWO,
            5,
            "unknown option 'leeky'; did you mean 'leaky'?",
        ),
        (
            HEAD + '[entrants.alice]\nbot = "randon"\n[entrants.bob]\nbot = "random"\n',
            5,
            "entrants.alice.bot: no bot named 'randon'; did you mean 'random'?",
        ),
        (
            HEAD
            + '[entrants.alice]\nbott = "random"\n[entrants.bob]\nbot = "random"\n',
            5,
            "entrants.alice.bott: unknown key; did you mean 'bot'?",
        ),
        (
            HEAD + '[entrants.alice]\nbot = "random"\n',
            None,
            "a tournament needs at least 2 entrants, not 1",
        ),
        (HEAD + 'candidates = ["alice"]\n' + TWO, 4, "only a gauntlet has candidates"),
        (
            HEAD + 'format = "gauntlet"\ncandidates = ["alce"]\n' + TWO,
            5,
            "candidates: no entrant 'alce'; did you mean 'alice'?",
        ),
        (
            HEAD + 'format = "gauntlet"\ncandidates = ["alice", "bob"]\n' + TWO,
            5,
            "the pool is empty",
        ),
    ],
)
def test_mistakes_name_file_line_key_and_what_is_accepted(
    tmp_path: Path, body: str, line: int | None, message: str
) -> None:
    path = write(tmp_path, body)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    text = str(info.value)
    assert text.startswith(f"{path}:{line}:" if line else f"{path}")
    assert message in text


def test_unknown_game_with_close_names(tmp_path: Path) -> None:
    path = write(tmp_path, 'game = "klaverjasen"\n' + TWO)
    with pytest.raises(
        ConfigError,
        match=r"t.toml:1: game: no game named 'klaverjasen'; "
        r"did you mean 'klaverjassen'",
    ):
        load_config(path)


def test_invalid_toml_names_the_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, 'game = "toy"\nmatches = = 3\n')
    with pytest.raises(ConfigError, match=r"t.toml: not valid TOML: .*line 2"):
        load_config(path)


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the config"):
        load_config(tmp_path / "nope.toml")


def test_a_plugin_that_fails_to_import_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("raise RuntimeError('boom')\n")
    path = write(tmp_path, 'game = "toy"\nplugins = ["bad.py"]\n' + TWO)
    with pytest.raises(
        ConfigError,
        match=r"t.toml:2: plugins: plugin '.*bad.py' failed to import: "
        r"RuntimeError: boom",
    ):
        load_config(path)


def test_bot_options_are_validated(tmp_path: Path) -> None:
    tests_bots = Path(__file__).parents[1] / "plugins" / "test_bots.py"
    body = (
        HEAD.replace(f'["{TOY_PLUGIN}"]', f'["{TOY_PLUGIN}", "{tests_bots}"]')
        + """
[entrants.alice]
bot = "sleepy"
options = { delay = -1.0 }
[entrants.bob]
bot = "random"
"""
    )
    path = write(tmp_path, body)
    with pytest.raises(
        ConfigError,
        match=r"t.toml:7: entrants.alice.options: bot 'sleepy': "
        r"option 'delay' = -1.0 is not allowed; expected float >= 0.0",
    ):
        load_config(path)
