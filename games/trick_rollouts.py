"""A quick rule of thumb for the card play of any trick game, for search rollouts.

A search bot with ``rollout = "game"`` plays its rollouts by the game's
``Game.rollout_action`` (``docs/SEARCH.md``). A trick game whose State is a
:class:`~games.tricks.TrickState` gets one by mixing in :class:`GreedyTricks`:
:func:`greedy_card` reads the trick on the table from
:meth:`~games.tricks.TrickState.trick_in_play` (no view per action, as a
heuristic bot needs) and plays as a beginner who counts only the trick in
front of him:

- leading, the card worth least (a blank rather than an honour);
- when a partner holds the trick, the card worth most that does not take it
  from him if this seat plays last, else the cheapest;
- when an opponent holds it and a legal card takes it, the cheapest such card if
  the trick holds points or this seat plays last, else the cheapest card;
- otherwise the cheapest card.

"Worth" is the card's points in the deal's tables, ties going to the lower
card index. Outside the card play (bids, declarations, a discard) the action is
drawn at random, as ``rollout = "random"`` would.
"""

from __future__ import annotations

import random

from games.cards import CardMask, iter_bits
from games.tricks import TrickState
from harness.contracts.game import Action, State

__all__ = ["GreedyTricks", "greedy_card"]


def _cheapest(mask: CardMask, points: tuple[int, ...]) -> int:
    return min(iter_bits(mask), key=points.__getitem__)


def _dearest(mask: CardMask, points: tuple[int, ...]) -> int:
    return max(iter_bits(mask), key=lambda c: (points[c], -c))


def greedy_card(state: State, rng: random.Random) -> Action:
    """The rule of thumb's action in ``state`` (see the module docstring)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    assert isinstance(state, TrickState)
    play = state.trick_in_play()
    if play is None:
        return legal[int(rng.random() * len(legal))]
    mask, points, trick = play.legal, play.points, play.cards
    if not trick:
        card = _cheapest(mask, points)
    else:
        seat = state.to_act
        assert seat is not None
        takers = mask & play.top
        last = len(trick) == play.size - 1
        if state.teams[play.winner] == state.teams[seat]:
            safe = mask & ~takers
            card = _dearest(safe, points) if last and safe else _cheapest(mask, points)
        elif takers and (last or any(points[c] for c in trick)):
            card = _cheapest(takers, points)
        else:
            card = _cheapest(mask, points)
    return play.names[card]


class GreedyTricks:
    """A trick game's ``Game.rollout_action``: :func:`greedy_card` (mix in
    before :class:`~harness.Game`)."""

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        """The quick rule of thumb of :func:`greedy_card`."""
        return greedy_card(state, rng)
