"""Shared set-up of the game tests: play a line of actions on a State, or a
whole match between bots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from harness import Bot, State

S = TypeVar("S", bound=State)


def play(state: S, actions: str) -> S:
    """Apply the space-separated ``actions`` in order; ``state`` itself back."""
    for action in actions.split():
        state.apply(action)
    return state


def play_bots(state: State, bots: Sequence[Bot]) -> int:
    """Play ``state`` to its end, each seat's bot choosing from its own view;
    every action must be legal. How many actions were played."""
    played = 0
    while not state.is_over():
        seat = state.to_act
        assert seat is not None
        action = bots[seat].act(state.view(seat))
        assert action in state.legal_actions(), (seat, action)
        state.apply(action)
        played += 1
    return played
