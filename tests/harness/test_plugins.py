"""Plugin discovery and the registry's errors, with real modules and files."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.contracts.errors import PluginError, SeatCountError, UnknownNameError
from harness.plugins import Registry, load_plugins
from tests.conftest import TOY_PLUGIN


def write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


def test_entry_points_register_the_builtin_games_and_bots() -> None:
    registry = load_plugins()
    assert {"klaverjassen", "gin-rummy"} <= set(registry.games)
    assert "random" in registry.bots
    assert registry.provider[("game", "klaverjassen")] == "jass"
    assert registry.provider[("game", "gin-rummy")] == "rummy"
    assert registry.provider[("bot", "random")] == "random-bot"


def test_a_builtin_plugin_can_be_blocked_by_name() -> None:
    # A family's bot names its games, so a family is blocked with its bot's
    # plugin, as the error of blocking the games alone says.
    registry = load_plugins(blocked=["rummy", "gin-rummy-bot"])
    assert "gin-rummy" not in registry.games and "gin-rummy" not in registry.bots
    assert "klaverjassen" in registry.games
    with pytest.raises(
        PluginError,
        match=r"plugin 'gin-rummy-bot': bot 'gin-rummy' names game 'gin-rummy', "
        "which no plugin provides",
    ):
        load_plugins(blocked=["rummy"])


def test_a_plugin_file_registers_like_any_plugin(toy_registry: Registry) -> None:
    assert set(toy_registry.games) == {"toy"}
    assert toy_registry.provider[("game", "toy")] == str(TOY_PLUGIN)


def test_unknown_game_lists_close_names(toy_registry: Registry) -> None:
    with pytest.raises(
        UnknownNameError, match=r"no game named 'tooy'; did you mean 'toy'\? known: toy"
    ):
        toy_registry.game("tooy")


def test_unknown_bot_lists_close_names(toy_registry: Registry) -> None:
    with pytest.raises(
        UnknownNameError, match=r"no bot named 'randon'; did you mean 'random'\?"
    ):
        toy_registry.bot_class("randon")


def test_seat_count_the_game_does_not_take(toy_registry: Registry) -> None:
    with pytest.raises(SeatCountError, match=r"game 'toy' takes 2, 3 seats, not 5"):
        toy_registry.game("toy").new_match(5, seed=1)


def test_two_plugins_registering_one_name_are_both_named(tmp_path: Path) -> None:
    clash = write(
        tmp_path,
        "other_toy.py",
        f"""
        import importlib.util, sys
        from harness import hookimpl
        spec = importlib.util.spec_from_file_location("toy_copy", {str(TOY_PLUGIN)!r})
        mod = importlib.util.module_from_spec(spec); sys.modules["toy_copy"] = mod
        spec.loader.exec_module(mod)
        class Other(mod.ToyGame):
            pass
        @hookimpl
        def troef_games():
            return [Other]
        """,
    )
    with pytest.raises(PluginError) as info:
        load_plugins(entry_points=False, files=[TOY_PLUGIN, clash])
    message = str(info.value)
    assert "game name 'toy' is registered twice" in message
    assert str(TOY_PLUGIN) in message and str(clash) in message


def test_a_plugin_that_fails_to_import_is_named_with_its_error(tmp_path: Path) -> None:
    broken = write(tmp_path, "broken.py", "import not_a_module_anywhere\n")
    with pytest.raises(PluginError) as info:
        load_plugins(entry_points=False, files=[broken])
    assert f"plugin {str(broken)!r} failed to import" in str(info.value)
    assert "No module named 'not_a_module_anywhere'" in str(info.value)
    assert isinstance(info.value.__cause__, ModuleNotFoundError)


def test_a_missing_plugin_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match="no such plugin file"):
        load_plugins(entry_points=False, files=[tmp_path / "nope.py"])


def test_a_bot_naming_a_game_that_does_not_exist(tmp_path: Path) -> None:
    bot = write(
        tmp_path,
        "picky.py",
        """
        from harness import Bot, hookimpl
        class Picky(Bot):
            name = "picky"
            games = frozenset({"klaverjas"})
            def act(self, view):
                return view.legal_actions[0]
        @hookimpl
        def troef_bots():
            return [Picky]
        """,
    )
    with pytest.raises(PluginError) as info:
        load_plugins(entry_points=False, files=[TOY_PLUGIN, bot])
    assert f"plugin {str(bot)!r}: bot 'picky' names game 'klaverjas'" in str(info.value)


def test_a_bot_that_does_not_play_the_game(tmp_path: Path) -> None:
    bot = write(
        tmp_path,
        "only_toy.py",
        """
        from harness import Bot, hookimpl
        class OnlyToy(Bot):
            name = "only-toy"
            games = frozenset({"toy"})
            def act(self, view):
                return view.legal_actions[0]
        @hookimpl
        def troef_bots():
            return [OnlyToy]
        """,
    )
    registry = load_plugins(files=[TOY_PLUGIN, bot])
    assert registry.bot_class("only-toy", "toy").name == "only-toy"
    with pytest.raises(
        UnknownNameError, match="bot 'only-toy' does not play 'klaverjassen'"
    ):
        registry.bot_class("only-toy", "klaverjassen")


def test_every_plugin_module_imports_cleanly_in_a_fresh_interpreter() -> None:
    """Spawned workers import plugins from scratch, with warnings as errors."""
    code = (
        "from harness.plugins import load_plugins; "
        "r = load_plugins(); print(len(r.games))"
    )
    out = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        capture_output=True,
        text=True,
        check=True,
    )
    assert int(out.stdout) >= 2


def test_a_plugin_file_is_the_same_module_in_every_interpreter() -> None:
    """Issue 13, item 11: two interpreters (different hash seeds) name the
    module of one plugin file alike, so pickles cross process boundaries."""
    import os
    import subprocess
    import sys

    from tests.conftest import TOY_PLUGIN

    code = (
        "import sys; from harness.plugins import load_plugins; "
        f"r = load_plugins(entry_points=False, files=[{str(TOY_PLUGIN)!r}]); "
        "print(r.game_class('toy').__module__)"
    )
    names = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.strip()
        for seed in ("1", "2", "3")
    }
    assert len(names) == 1, names
    (name,) = names
    assert name.startswith("troef_plugin_") and name.endswith("_toy_game")
