"""Shared set-up of the game tests: play a line of actions on a State."""

from __future__ import annotations

from typing import TypeVar

from harness import State

S = TypeVar("S", bound=State)


def play(state: S, actions: str) -> S:
    """Apply the space-separated ``actions`` in order; ``state`` itself back."""
    for action in actions.split():
        state.apply(action)
    return state
