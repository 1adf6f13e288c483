"""Every registered game passes the conformance suite (``troef check``)."""

from __future__ import annotations

import pytest

from harness.conformance import check_game
from harness.plugins import load_plugins

REGISTRY = load_plugins()


@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_game_passes_the_conformance_suite(name: str) -> None:
    report = check_game(REGISTRY.game(name), matches=4, seed=20261129)
    assert report.passed, report.summary()
    assert report.matches == 4 * len(REGISTRY.game_class(name).seat_counts)
    assert report.samples > 0
