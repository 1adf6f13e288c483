"""A tiny trick game used to test the harness, and an example of a plugin file.

Two or three seats; a 12-card pack (9 to ace in four suits); three cards each,
the rest a hidden stock; follow suit, highest card of the led suit wins;
a match is two deals (``ToyGame.deals``: a subclass may vary it by seed);
a trick is worth one point. ``leaky = True`` makes the view show the next
seat's hand: the conformance suite must catch that.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from harness import (
    Game,
    IllegalActionError,
    InvalidActionError,
    Option,
    Result,
    State,
    View,
    hookimpl,
)
from harness.contracts.seeding import deal_rng

RANKS = "9TJQKA"
CARDS = tuple(r + s for s in "CDHS" for r in RANKS)
HAND = 3
DEALS = 2


@dataclass(frozen=True)
class ToyView(View):
    hand: tuple[str, ...]
    trick: tuple[str, ...]
    played: tuple[tuple[int, str], ...]
    points: tuple[int, ...]
    deal: int
    peek: tuple[str, ...] = ()


class ToyState(State):
    def __init__(self, game: ToyGame, n_seats: int, seed: int) -> None:
        self.game = game
        self.n_seats = n_seats
        self.seed = seed
        self.deals = game.deals(seed)
        self.deal = -1
        self.points = [0] * n_seats
        self.deal_points: list[list[int]] = []
        self.hands: list[list[str]] = []
        self.stock: list[str] = []
        self.trick: list[str] = []
        self.played: list[tuple[int, str]] = []
        self.won: list[str] = []
        self.leader = 0
        self.to_act: int | None = 0
        self._next_deal()

    def _next_deal(self) -> None:
        self.deal += 1
        order = list(CARDS)
        deal_rng(self.seed, self.deal).shuffle(order)
        n = self.n_seats
        self.hands = [sorted(order[i * HAND : (i + 1) * HAND]) for i in range(n)]
        self.stock = order[n * HAND :]
        self.won, self.trick, self.played = [], [], []
        self.deal_points.append([0] * n)
        self.leader = self.deal % n
        self.to_act = self.leader

    def legal_actions(self) -> tuple[str, ...]:
        hand = self.hands[self.to_act]  # type: ignore[index]
        if self.trick:
            same = [c for c in hand if c[1] == self.trick[0][1]]
            if same:
                return tuple(same)
        return tuple(hand)

    def apply(self, action: str) -> None:
        if action not in CARDS:
            raise InvalidActionError(f"{action!r} is not a card")
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action!r} is not legal now")
        seat = self.to_act
        assert seat is not None
        self.hands[seat].remove(action)
        self.trick.append(action)
        self.played.append((seat, action))
        n = self.n_seats
        if len(self.trick) < n:
            self.to_act = (seat + 1) % n
            return
        led = self.trick[0][1]
        best = max(
            (i for i in range(n) if self.trick[i][1] == led),
            key=lambda i: RANKS.index(self.trick[i][0]),
        )
        winner = (self.leader + best) % n
        self.points[winner] += 1
        self.deal_points[-1][winner] += 1
        self.won += self.trick
        self.trick = []
        self.leader = self.to_act = winner
        if not self.hands[winner]:
            if self.deal + 1 < self.deals:
                self._next_deal()
            else:
                self.to_act = None

    def is_over(self) -> bool:
        return self.to_act is None

    def result(self) -> Result:
        return Result.from_scores(
            self.points, self.game.teams(self.n_seats), self.deal_points
        )

    def validate(self) -> None:
        """Raise unless every hand holds what the play leaves it (three cards a
        deal, less those played) and the stock the rest (the optional hook the
        conformance suite calls on every sampled world)."""
        for i, hand in enumerate(self.hands):
            owed = HAND - sum(1 for s, _ in self.played if s == i)
            if len(hand) != owed:
                raise ValueError(f"hand {i} holds {len(hand)} cards, not {owed}")
        if len(self.stock) != len(CARDS) - HAND * self.n_seats:
            raise ValueError(f"the stock holds {len(self.stock)} cards")

    def view(self, seat: int) -> ToyView:
        peek: tuple[str, ...] = ()
        if self.game.options["leaky"]:
            peek = tuple(self.hands[(seat + 1) % self.n_seats])
        return ToyView(
            seat=seat,
            legal_actions=self.legal_actions() if seat == self.to_act else (),
            hand=tuple(self.hands[seat]),
            trick=tuple(self.trick),
            played=tuple(self.played),
            points=tuple(self.points),
            deal=self.deal,
            peek=peek,
        )

    def clone(self) -> ToyState:
        twin = object.__new__(ToyState)
        twin.__dict__.update(self.__dict__)
        twin.points = list(self.points)
        twin.deal_points = [list(d) for d in self.deal_points]
        twin.hands = [list(h) for h in self.hands]
        twin.stock, twin.trick = list(self.stock), list(self.trick)
        twin.played, twin.won = list(self.played), list(self.won)
        return twin

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        places = {f"hand:{i}": tuple(h) for i, h in enumerate(self.hands)}
        places.update(
            stock=tuple(self.stock), trick=tuple(self.trick), won=tuple(self.won)
        )
        return places

    def hidden_from(self, seat: int) -> frozenset[str]:
        return frozenset(
            [f"hand:{i}" for i in range(self.n_seats) if i != seat] + ["stock"]
        )

    def deck(self) -> tuple[str, ...]:
        return CARDS


class ToyGame(Game):
    name = "toy"
    title = "Toy tricks (harness tests)"
    seat_counts = frozenset({2, 3})
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("leaky", False, "show the next seat's hand (a deliberate leak)"),
    )

    def deals(self, seed: int) -> int:
        """The number of deals in the match of ``seed``."""
        return DEALS

    def new_match(self, n_seats: int, seed: int) -> ToyState:
        self.check_seats(n_seats)
        return ToyState(self, n_seats, seed)

    def sample_state(self, view: View, rng: random.Random) -> ToyState:
        assert isinstance(view, ToyView)
        n = len(view.points)
        # Rebuild the public part by replaying nothing: copy it from the view.
        state = object.__new__(ToyState)
        state.game, state.n_seats, state.seed = self, n, 0
        state.deal = view.deal
        state.deals = max(DEALS, view.deal + 1)  # later deals are not in the view
        state.points = list(view.points)
        state.deal_points = [[0] * n for _ in range(view.deal + 1)]
        state.trick = list(view.trick)
        deal_played = [c for _, c in view.played]
        state.played = list(view.played)
        state.won = [c for c in deal_played[: len(deal_played) - len(view.trick)]]
        state.leader = (view.played[-len(view.trick)][0] if view.trick else None) or 0
        # Who is to act and how many cards each seat still holds follow from the play.
        to_act = view.seat if view.legal_actions else None
        counts = [HAND - sum(1 for s, _ in view.played if s == i) for i in range(n)]
        unseen = [c for c in CARDS if c not in view.hand and c not in deal_played]
        rng.shuffle(unseen)
        hands: list[list[str]] = []
        for i in range(n):
            if i == view.seat:
                hands.append(list(view.hand))
            elif view.peek and i == (view.seat + 1) % n:
                hands.append(list(view.peek))
                unseen = [c for c in unseen if c not in view.peek]
            else:
                hands.append(None)  # type: ignore[arg-type]
        for i in range(n):
            if hands[i] is None:
                hands[i] = sorted(unseen[: counts[i]])
                unseen = unseen[counts[i] :]
        state.hands = [sorted(h) for h in hands]
        state.stock = unseen
        state.to_act = to_act if to_act is not None else _next_to_act(view, n)
        if view.trick:
            state.leader = view.played[-len(view.trick)][0]
        else:
            state.leader = state.to_act
        return state


def _next_to_act(view: ToyView, n: int) -> int:
    if view.trick:
        return (view.played[-1][0] + 1) % n
    if view.played:
        # The last trick's winner leads; recompute it from the last n cards.
        last = view.played[-n:]
        led = last[0][1][1]
        return max(
            (p for p in last if p[1][1] == led), key=lambda p: RANKS.index(p[1][0])
        )[0]
    return view.deal % n


@hookimpl
def troef_games() -> Sequence[type[Game]]:
    return [ToyGame]
