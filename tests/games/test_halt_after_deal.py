"""``State.halt_after_deal``: a search's world stops at its deal's end, scored alike.

The searches (``bots/ismcts.py``, ``bots/pimc.py``, ``bots/search.py``) set it
on every world they sample, and read nothing of a world past the end of its
deal but ``deal``, ``is_over()`` and ``result()``. So a halted world must
agree with the same world dealt on in exactly those, in every game: then a
search decides as it did before the flag existed, only without shuffling the
next deal.
"""

from __future__ import annotations

import random

import pytest

from harness import State
from harness.plugins import load_plugins

REGISTRY = load_plugins()
GAMES = sorted(REGISTRY.games)


def _play_out_deal(state: State, twin: State, rng: random.Random) -> None:
    """The same random actions on both until ``state``'s deal ends."""
    deal = state.deal
    while state.to_act is not None and state.deal == deal:
        legal = state.legal_actions()
        assert twin.legal_actions() == legal
        action = legal[int(rng.random() * len(legal))]
        state.apply(action)
        twin.apply(action)


def _assert_alike(dealt_on: State, halted: State) -> None:
    assert halted.deal == dealt_on.deal
    assert halted.is_over() == dealt_on.is_over()
    assert halted.result() == dealt_on.result()


@pytest.mark.parametrize("name", GAMES)
def test_a_halted_state_scores_its_deal_as_one_dealt_on(name: str) -> None:
    cls = REGISTRY.game_class(name)
    game = cls()
    n = min(cls.seat_counts)
    halted_deals = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_match(n, seed)
        # Into the deal: a few actions, so that it halts mid-match, not at once.
        for _ in range(rng.randrange(8)):
            if state.to_act is None:
                break
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
        if state.to_act is None:
            continue
        twin = state.clone()
        twin.halt_after_deal = True
        _play_out_deal(state, twin, rng)
        _assert_alike(state, twin)
        if not state.is_over():
            # It halted: the next deal's cards were not dealt to the twin.
            assert twin.card_locations() != state.card_locations()
            halted_deals += 1
        assert not state.halt_after_deal  # the flag is the twin's alone
    # At the game's default match length the first deal seldom ends the match.
    assert halted_deals >= 2, f"{name}: too few deals halted mid-match to test"


@pytest.mark.parametrize("name", GAMES)
def test_a_halted_sampled_world_and_its_clones_agree_with_one_dealt_on(
    name: str,
) -> None:
    cls = REGISTRY.game_class(name)
    game = cls()
    n = min(cls.seat_counts)
    rng = random.Random(7)
    state = game.new_match(n, 7)
    for _ in range(3):
        if state.to_act is None:
            break
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
    seat = state.to_act
    assert seat is not None
    world = game.sampler(state.view(seat)).sample(rng)
    dealt_on = world.clone()
    world.halt_after_deal = True
    halted = world.clone()  # a search clones its world (PIMC: one per action)
    assert halted.halt_after_deal
    _play_out_deal(dealt_on, halted, rng)
    _assert_alike(dealt_on, halted)
