"""Fixtures shared by the harness tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from harness.botpool import ProcessPool


@pytest.fixture
def pool() -> Iterator[ProcessPool]:
    """A bot-process pool of the test's own, closed (its processes ended) after."""
    pool = ProcessPool()
    yield pool
    pool.close()
