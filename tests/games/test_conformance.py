"""Every registered game passes the conformance suite (``troef check``).

The suite runs the short check: each game's ``check_options`` (a low target)
and a budget of actions per match, as ``troef check GAME`` does by default;
``troef check GAME --full`` plays whole matches of the default options.
"""

from __future__ import annotations

import pytest

from harness.contracts.game import Game
from harness.match.conformance import check_game
from harness.plugins import load_plugins

REGISTRY = load_plugins()
MATCHES = 4


@pytest.mark.slow  # seconds to a minute a game; the property tests stay quick
@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_game_passes_the_conformance_suite(name: str) -> None:
    cls = REGISTRY.game_class(name)
    report = check_game(cls, matches=MATCHES, seed=20261129)
    assert report.passed, report.summary()
    assert not report.full and report.options == dict(cls.for_checks().options)
    assert report.matches == MATCHES * len(cls.seat_counts)
    assert report.samples > 0
    # The hidden-information checks ran: twins compared, not only worlds drawn.
    assert report.twins > 0, report.summary()
    # Short matches must still cross deal boundaries: every match reaches a
    # second deal (a cut match counts the deals it reached).
    assert min(report.deals) >= 2, report.deals
    # Most matches must finish, or results, replay and repeatability go unchecked.
    assert report.cut <= report.matches // 2, report.summary()


@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_each_game_declares_valid_check_options(name: str) -> None:
    cls = REGISTRY.game_class(name)
    declared = any("check_options" in vars(k) for k in cls.__mro__ if k is not Game)
    assert declared, (
        f"{cls.__name__} does not declare check_options: give it the options of a "
        "short match (a low target), or {} if its default match is already short"
    )
    known = {spec.name for spec in cls.option_specs}
    assert set(cls.check_options) <= known
    short = cls.for_checks()  # validated by the game's option specs
    assert all(short.options[k] == v for k, v in cls.check_options.items())
