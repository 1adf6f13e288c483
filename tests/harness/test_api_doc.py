"""``docs/API.md`` runs as doctests, and the notebook API keeps its promises.

The doctests run in an empty temporary folder (the page's tournament writes
its database there). The other tests pin what the page says in prose: the
keyword options meet the errors a config gets, a dict config is a config,
and ``from harness import Bot`` does not pull the notebook API in.
"""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import harness
from harness import api
from harness.contracts.errors import ConfigError, OptionError
from harness.tournament.config import load_config

DOC = Path(__file__).parents[2] / "docs" / "API.md"


def test_the_api_page_runs_as_doctests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    failed, attempted = doctest.testfile(
        str(DOC),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        verbose=False,
        report=True,
    )
    assert attempted > 30, f"{DOC} holds only {attempted} examples"
    assert failed == 0, f"{failed} of {attempted} examples of {DOC} failed (above)"
    assert (tmp_path / "kj.sqlite").is_file()


def test_keyword_options_fail_as_a_config_does(tmp_path: Path) -> None:
    """The same OptionError text, the config's with its file and line in front."""
    config = tmp_path / "t.toml"
    config.write_text(
        'game = "belote"\n[options]\ntarget = -1\n'
        '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
    )
    with pytest.raises(OptionError) as from_api:
        api.load_game("belote", target=-1)
    with pytest.raises(ConfigError) as from_file:
        load_config(config)
    assert str(from_api.value) in str(from_file.value)
    assert "'target' = -1" in str(from_api.value)


def test_a_dict_config_is_the_file_config(tmp_path: Path) -> None:
    """The same keys as a dict or in a file: the same plan, the same results."""
    keys = (
        'game = "gin-rummy"\nmatches = 1\nseed = 3\nexecutor = "inline"\n'
        "[options]\ntarget = 20\n"
        '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
    )
    config = tmp_path / "file.toml"
    config.write_text(keys)
    from_file = api.run_tournament(config)

    from_dict = api.run_tournament(
        tomllib.loads(keys), database=tmp_path / "dict.sqlite"
    )
    assert from_file == tmp_path / "file.sqlite"
    assert api.results(from_file) == api.results(from_dict)
    assert len(api.results(from_dict)) == 2


def test_a_dict_config_must_name_its_database() -> None:
    with pytest.raises(ConfigError, match=r"<config dict>: database: .*database="):
        api.run_tournament({"game": "gin-rummy"})


def test_a_table_takes_no_more_options() -> None:
    table = api.load_game("gin-rummy")
    with pytest.raises(OptionError, match="target given with a Table"):
        api.play_match(table, ["random", "random"], target=20)
    with pytest.raises(OptionError, match="3 bots for a Table of 2 seats"):
        api.play_match(table, ["random"] * 3)


def test_play_match_is_the_referees() -> None:
    """The API's match is the referee's match of the same bots and seed."""
    from harness.match.referee import make_bots, play_match
    from harness.plugins import load_plugins

    registry = load_plugins()
    game = registry.game("gin-rummy", {"target": 20})
    random_bot = registry.bot_class("random")
    direct = play_match(game, make_bots(game, [random_bot] * 2, 5), 5, keep_log=True)
    via_api = api.play_match("gin-rummy", ["random", "random"], seed=5, target=20)
    assert via_api.log and via_api == direct


def test_the_plugin_authors_import_stays_light() -> None:
    """``from harness import Bot`` loads neither the notebook API nor scipy;
    ``harness.load_game`` loads it when first used."""
    probe = (
        "import sys\n"
        "from harness import Bot, hookimpl\n"
        "print(sorted(m for m in ('harness.api', 'scipy') if m in sys.modules))\n"
        "from harness import load_game\n"
        "print('harness.api' in sys.modules, load_game.__module__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == ["[]", "True harness.api"]


def test_the_package_reexports_the_api() -> None:
    assert set(harness.__all__) >= set(api.__all__) - {"BotSpec"}
    with pytest.raises(AttributeError, match="no attribute 'load_gmae'"):
        harness.load_gmae  # noqa: B018


def test_results_and_ratings_are_the_commands_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Plain data (a JSON round trip gives it back unchanged), and the very
    records ``troef matches`` and ``troef report`` print as JSON."""
    from harness.cli import main

    database = api.run_tournament(
        {
            "game": "gin-rummy",
            "matches": 2,
            "seed": 4,
            "executor": "inline",
            "options": {"target": 20},
            "entrants": {"a": {"bot": "random"}, "b": {"bot": "random"}},
        },
        database=tmp_path / "g.sqlite",
    )
    matches, report = api.results(database), api.report_data(database)
    assert json.loads(json.dumps(matches)) == matches and len(matches) == 4
    assert json.loads(json.dumps(report)) == report
    assert api.ratings(database) == report["standings"]
    assert {r["entrant"] for r in report["standings"]} == {"a", "b"}
    capsys.readouterr()
    assert main(["matches", str(database), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == matches
    assert main(["report", str(database), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == report
    with pytest.raises(ConfigError, match=r"anchor='c' is no entrant"):
        api.report_data(database, anchor="c")
