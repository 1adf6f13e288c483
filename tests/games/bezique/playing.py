"""Play a line of actions on a Bezique-family State, forced passes included.

A trick's winner always gets a decision while it may declare (RULES.md F3),
``pass`` perhaps its only move. The worked examples name the moves that
choose something; this :func:`play` applies a ``pass`` that is the only legal
move whenever the next action (or the end of the line) comes to it. The
decision itself is pinned in ``test_family_views.py``.
"""

from __future__ import annotations

from typing import TypeVar

from games.bezique.family import PASS, FamilyState

S = TypeVar("S", bound=FamilyState)


def pass_forced(state: FamilyState) -> None:
    """Apply ``pass`` while it is the only legal move."""
    while not state.is_over() and state.legal_actions() == (PASS,):
        state.apply(PASS)


def play(state: S, actions: str) -> S:
    """Apply the space-separated ``actions`` in order, each forced ``pass``
    before them and after the last; ``state`` itself back."""
    for action in actions.split():
        if action != PASS:
            pass_forced(state)
        state.apply(action)
    pass_forced(state)
    return state
