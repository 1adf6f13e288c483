"""A one-deal toy that shows PIMC's strategy fusion (not registered by troef).

Seat 0 holds nothing; one card, the *coin* (``L`` or ``R``), lies face down
in the ``coin`` place, hidden from both seats. Seat 0 first chooses ``safe``
(deal points 6 : 4, a margin of +2) or ``gamble``; after ``gamble`` it guesses
``left`` or ``right``: a right guess scores 10 : 0, a wrong one 0 : 10.
Seat 1 never acts. The match is this one deal, won by the higher score: the
safe line always wins, the gamble wins half the time.

PIMC values ``gamble`` in each world *knowing* the coin (it always guesses
right there), so it gambles (strategy fusion). IS-MCTS values the
guess on the information set, where left and right are each right half the
time, and plays safe.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from harness import Game, Result, State, View, hookimpl


@dataclass(frozen=True)
class FusionView(View):
    """Seat, legal actions and the actions so far (the coin is never shown)."""

    history: tuple[str, ...]


class FusionState(State):
    """The coin and the actions so far."""

    def __init__(self, game: Game, coin: str) -> None:
        self.game = game
        self.n_seats = 2
        self.deal = 0
        self.coin = coin
        self.history: list[str] = []
        self.to_act: int | None = 0

    def legal_actions(self) -> tuple[str, ...]:
        if self.to_act is None:
            return ()
        return ("gamble", "safe") if not self.history else ("left", "right")

    def apply(self, action: str) -> None:
        assert action in self.legal_actions()
        self.history.append(action)
        if action != "gamble":
            self.to_act = None

    def is_over(self) -> bool:
        return self.to_act is None

    def points(self) -> tuple[int, int]:
        """The deal points once the deal is over."""
        if self.history == ["safe"]:
            return (6, 4)
        right = self.history[-1][0].upper() == self.coin
        return (10, 0) if right else (0, 10)

    def result(self) -> Result:
        deal = [self.points()] if self.is_over() else []
        scores = deal[0] if deal else (0, 0)
        return Result.from_scores(scores, (0, 1), deal)

    def view(self, seat: int) -> FusionView:
        legal = self.legal_actions() if seat == self.to_act else ()
        return FusionView(seat, legal, tuple(self.history))

    def clone(self) -> Self:
        twin = type(self)(self.game, self.coin)
        twin.history = self.history[:]
        twin.to_act = self.to_act
        return twin

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        return {"coin": (self.coin,), "out": ("R" if self.coin == "L" else "L",)}

    def hidden_from(self, seat: int) -> frozenset[str]:
        return frozenset({"coin", "out"})

    def deck(self) -> tuple[str, ...]:
        return ("L", "R")


class FusionGame(Game):
    """The toy game of the strategy-fusion example."""

    name = "fusion"
    title = "Strategy fusion toy"
    seat_counts: ClassVar[frozenset[int]] = frozenset({2})

    def new_match(self, n_seats: int, seed: int) -> FusionState:
        return FusionState(self, random.Random(seed).choice("LR"))

    def sample_state(self, view: View, rng: random.Random) -> FusionState:
        assert isinstance(view, FusionView)
        state = FusionState(self, rng.choice("LR"))
        for action in view.history:
            state.apply(action)
        return state


@hookimpl
def troef_games() -> Sequence[type[Game]]:
    """Register the toy."""
    return [FusionGame]
