"""Shared fixtures: the global-random guard and the toy plugin game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

TOY_PLUGIN = Path(__file__).parent / "plugins" / "toy_game.py"


@pytest.fixture(autouse=True)
def _no_global_random() -> Iterator[None]:
    """Fail any test whose code drew from the global ``random`` stream.

    Everything random in troef comes from a seed the record keeps; a draw from
    the module-level generator would make results irreproducible.
    """
    before = random.getstate()
    yield
    if random.getstate() != before:
        random.setstate(before)
        pytest.fail("the test used the global random module; pass a seeded Random")


@pytest.fixture(scope="session")
def toy_registry():  # type: ignore[no-untyped-def]
    """A registry with only the toy game and the built-in random bot."""
    from harness.plugins import load_plugins

    return load_plugins(
        entry_points=False, modules=["bots.random_bot"], files=[TOY_PLUGIN]
    )
