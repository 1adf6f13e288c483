"""Every registered game plays its golden playthrough exactly (``tests/golden``).

A fresh playthrough (see ``tests/golden/__init__.py``) is compared with the
file as text; a difference fails with a unified diff. A game without a file
fails too: make one with ``python -m tests.golden --write GAME`` and read it.
"""

from __future__ import annotations

import difflib

import pytest

from harness.plugins import load_plugins
from tests.golden import golden_path, max_lines, playthrough, write_command

REGISTRY = load_plugins()


@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_the_game_plays_its_golden_playthrough(name: str) -> None:
    path = golden_path(name)
    if not path.exists():
        pytest.fail(
            f"{name} has no golden playthrough {path}: make it with "
            f"`{write_command(name)}` (from the repository root), read it, commit it"
        )
    expected = path.read_text()
    generated = playthrough(REGISTRY, name)
    if generated != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                generated.splitlines(keepends=True),
                f"{path.name} (golden)",
                f"{name} (played now)",
            )
        )
        pytest.fail(
            f"{name} no longer plays its golden playthrough:\n{diff}\n"
            f"If the change is meant, remake it with `{write_command(name)}`.",
            pytrace=False,
        )


@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_the_golden_match_is_short_and_crosses_deals(name: str) -> None:
    text = playthrough(REGISTRY, name)
    deals = text.split("\ndeal points\n")[1].splitlines()
    assert len(deals) >= 2, f"the golden match of {name} has one deal"
    assert text.count("\n") <= max_lines(name), (
        "pick a shorter seed in tests/golden SEEDS"
    )
