"""The Game contract's sampling: ``sample_state`` and ``sampler``, either one enough."""

from __future__ import annotations

import random

import pytest

from harness import Game, IllegalActionError, InvalidActionError, Sampler, State, View
from harness.contracts.game import reject_action
from harness.match.conformance import check_game
from tests.plugins.toy_game import ToyGame, ToyView


def a_view(game: Game) -> View:
    state = game.new_match(2, 5)
    state.apply(state.legal_actions()[0])
    return state.view(1)


def test_a_game_with_sample_state_gets_a_sampler() -> None:
    """The default sampler calls sample_state: same worlds from the same rng."""
    game = ToyGame()
    view = a_view(game)
    sampler = game.sampler(view)
    assert isinstance(sampler, Sampler)
    ours = [sampler.sample(random.Random(s)).card_locations() for s in range(5)]
    theirs = [
        game.sample_state(view, random.Random(s)).card_locations() for s in range(5)
    ]
    assert ours == theirs


class _Worlds(Sampler):
    def __init__(self, game: ToyGame, view: View) -> None:
        self.game = game
        self.view = view

    def sample(self, rng: random.Random) -> State:
        return ToyGame.sample_state(self.game, self.view, rng)


class SamplerOnly(ToyGame):
    """A game that implements only ``sampler`` (sample_state is the default)."""

    sample_state = Game.sample_state  # type: ignore[assignment]

    def sampler(self, view: View) -> Sampler:
        return _Worlds(self, view)


def test_a_game_with_only_a_sampler_gets_sample_state() -> None:
    game = SamplerOnly()
    view = a_view(game)
    state = game.sample_state(view, random.Random(3))
    assert state.view(1) == view
    assert check_game(game, matches=2, seed=4).passed


class Neither(ToyGame):
    sample_state = Game.sample_state  # type: ignore[assignment]


def test_a_game_with_neither_cannot_be_built() -> None:
    with pytest.raises(TypeError, match="Neither implements neither sample_state"):
        Neither()


class NamedSampler(ToyGame):
    """A game that names its Sampler class instead of writing ``sampler``."""

    sample_state = Game.sample_state  # type: ignore[assignment]
    view_class = ToyView
    sampler_class = _Worlds


def test_a_named_sampler_class_is_built_for_a_view_of_the_named_class() -> None:
    game = NamedSampler()
    view = a_view(game)
    sampler = game.sampler(view)
    assert isinstance(sampler, _Worlds)
    assert sampler.view is view
    assert game.sample_state(view, random.Random(3)).view(1) == view
    with pytest.raises(TypeError, match="samples from a ToyView"):
        game.sampler(View(seat=1, legal_actions=()))


def test_reject_action_tells_bad_notation_from_a_move_not_legal_now() -> None:
    state = ToyGame().new_match(2, 5)
    legal = ", ".join(state.legal_actions())
    with pytest.raises(InvalidActionError, match="an action is a string, not 7"):
        reject_action(state, 7, lambda a: True, "a toy action")
    with pytest.raises(
        IllegalActionError, match=f"seat 0 may not 'x' now; legal: {legal}"
    ):
        reject_action(state, "x", lambda a: a == "x", "a toy action")
    with pytest.raises(InvalidActionError, match="'y' is not a toy action; legal now"):
        reject_action(state, "y", lambda a: a == "x", "a toy action")
