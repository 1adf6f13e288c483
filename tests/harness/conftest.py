"""Fixtures shared by the harness tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from harness.contracts.game import Game
from harness.isolation.botpool import ProcessPool
from harness.plugins import Registry


@pytest.fixture
def pool() -> Iterator[ProcessPool]:
    """A bot-process pool of the test's own, closed (its processes ended) after."""
    pool = ProcessPool()
    yield pool
    pool.close()


@pytest.fixture
def toy(toy_registry: Registry) -> Game:
    """The toy game of the test plugin."""
    return toy_registry.game("toy")
