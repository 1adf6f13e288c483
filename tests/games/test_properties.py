"""Property tests over random matches of every registered game (Hypothesis).

Actions are drawn one decision at a time, so a failure shrinks to a short
sequence of choices rather than an opaque seed.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness import State
from harness.match.referee import replay
from harness.plugins import load_plugins

REGISTRY = load_plugins()
GAMES = sorted(REGISTRY.games)
#: Decisions explored per example; enough to cross deal boundaries in every game.
HORIZON = 400


def held(state: State) -> Counter[str]:
    cards: Counter[str] = Counter()
    for place in state.card_locations().values():
        cards.update(place)
    return cards


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_the_invariants(
    name: str, data: st.DataObject, seed: int
) -> None:
    game = REGISTRY.game_class(name).for_checks()  # short matches (check options)
    n = data.draw(st.sampled_from(sorted(game.seat_counts)), label="seats")
    state = game.new_match(n, seed)
    deck = Counter(state.deck())
    log: list[str] = []
    probe_at = data.draw(st.integers(0, HORIZON - 1), label="probe at")
    while not state.is_over() and len(log) < HORIZON:
        legal = state.legal_actions()
        assert legal, "a seat is to act with no legal action"
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        assert view.legal_actions == legal
        if len(log) == probe_at:
            # Information set: a state sampled from any seat's view gives that
            # view back.
            for p in range(n):
                mine = state.view(p)
                sample = game.sample_state(mine, random.Random(seed + p))
                assert sample.view(p) == mine
                assert held(sample) == deck
            twin = state.clone()
            twin.apply(legal[0])
            assert state.view(seat) == view, "a clone shares state with its original"
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="choice")]
        state.apply(action)
        log.append(action)
        assert held(state) == deck, f"cards not conserved after {action!r}"
    if state.is_over():
        result = state.result()
        assert replay(game, n, seed, log).scores == result.scores
        again = game.new_match(n, seed)
        for action in log:
            again.apply(action)
        assert again.result() == result, "the same seed and actions gave another result"
