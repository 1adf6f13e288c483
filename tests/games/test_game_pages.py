"""The bot author's reference of every game (``docs/games/``, ``troef games
GAME --view``): complete, true to the code, and current."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, fields
from typing import Any

import pytest

from harness.cli import main
from harness.contracts.game import Game
from harness.contracts.view import View
from harness.plugins import load_plugins
from harness.report.reference import field_docs, undocumented_fields
from tests import game_pages
from tests.conftest import TOY_PLUGIN

REGISTRY = load_plugins()
GAMES = sorted(
    name for name, cls in REGISTRY.games.items() if cls.__module__.startswith("games.")
)


def _option_games(cls: type[Game]) -> list[Game]:
    """The game's short-check options, and one game per choice of an option."""
    out = [cls.for_checks()]
    for option in cls.option_specs:
        for choice in option.choices or ():
            if choice != option.default:
                out.append(cls.for_checks(**{option.name: choice}))
    return out


def _random_play(game: Game, n: int, seed: int, actions: int = 3000) -> Any:
    """Every state of a seeded random match, up to ``actions`` actions."""
    state = game.new_match(n, seed)
    choices = random.Random(seed)
    for _ in range(actions):
        yield state
        if state.is_over():
            return
        state.apply(choices.choice(state.legal_actions()))


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_is_one_documented_kind(name: str) -> None:
    cls = REGISTRY.games[name]
    kinds = [(k.form, re.compile(k.pattern)) for k in cls.action_kinds]
    assert kinds, f"{name} lists no action_kinds"
    for game in _option_games(cls):
        for n in sorted(cls.seat_counts):
            for seed in range(2):
                for state in _random_play(game, n, seed):
                    for action in state.legal_actions():
                        forms = [f for f, p in kinds if p.fullmatch(action)]
                        assert len(forms) == 1, (
                            f"{name} {game.options}: {action!r} matches {forms}"
                        )


@pytest.mark.parametrize("name", GAMES)
def test_every_view_field_has_a_doc(name: str) -> None:
    cls = REGISTRY.games[name]
    classes = {
        type(game.new_match(min(cls.seat_counts), 0).view(0))
        for game in _option_games(cls)
    }
    for view_class in classes:
        assert undocumented_fields(view_class) == [], view_class.__name__


def test_a_field_without_a_doc_is_found() -> None:
    @dataclass(frozen=True)
    class Half(View):
        #: Documented.
        known: int
        bare: str

    docs = {f.name: f.doc for f in field_docs(Half)}
    assert docs["known"] == "Documented." and docs["bare"] == ""
    assert docs["seat"] == "The seat this view belongs to."  # from View itself
    assert undocumented_fields(Half) == ["bare"]
    assert [f.name for f in field_docs(Half)] == [f.name for f in fields(Half)]


def test_the_pages_are_current() -> None:
    stale = [
        path.name
        for path, text in game_pages.pages().items()
        if not path.is_file() or path.read_text() != text
    ]
    assert stale == [], (
        f"stale reference pages {stale}: run `python -m tests.game_pages --write` "
        "and read the diff"
    )


def test_a_page_tells_moves_fields_options_and_cards() -> None:
    page = (game_pages.PAGES / "belote.md").read_text()
    assert "| `dix \\| keep` | the trump seven: exchange it for the turned card" in page
    row = next(x for x in page.splitlines() if x.startswith("| `hand` |"))
    assert "`tuple[str, ...]`" in row and '`["' in row  # a type and a real value
    assert "| `target` | `0` |" in page
    assert "32 cards, 32 different: `7C` `8C`" in page
    assert "[RULES.md](../../games/jass/RULES.md)" in page


def test_troef_games_view_prints_the_page_for_an_outside_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--plugin", str(TOY_PLUGIN), "games", "toy", "--view"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# ") and "Not documented: the game lists no" in out
    assert "| `hand` |" in out


def test_troef_games_view_needs_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--view"]) == 2
    assert "troef games NAME --view" in capsys.readouterr().err
