"""Two small trick games that test teams and ranking orders; a plugin file.

Both deal from a 32-card pack (7 to ace in four suits), ``HAND`` cards each,
the rest a hidden stock; follow suit, the highest card of the led suit wins
the trick and leads the next; each trick is one point for the winner's team
(every seat of a team shows the team's points). A match is ``deals`` deals.

- ``toy-teams``: six seats in two teams of three sitting alternately,
  ``teams(6) == (0, 1, 0, 1, 0, 1)`` (as in Klapper for six); most tricks win.
- ``toy-low``: two or three seats, each for itself; every trick is a penalty
  point and the fewest points win (``points_higher_is_better = False``).
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

RANKS = "789TJQKA"
CARDS = tuple(r + s for s in "CDHS" for r in RANKS)
HAND = 4


@dataclass(frozen=True)
class TrickView(View):
    hand: tuple[str, ...]
    #: Every card played in this deal, in order, with its seat.
    played: tuple[tuple[int, str], ...]
    #: Cards on the table in the current trick.
    trick: tuple[str, ...]
    #: Match points per seat, and per finished deal.
    points: tuple[int, ...]
    deal_points: tuple[tuple[int, ...], ...]
    deal: int


class TrickState(State):
    def __init__(self, game: TrickGame, n_seats: int, seed: int) -> None:
        self.game = game
        self.n_seats = n_seats
        self.seed = seed
        self.teams = game.teams(n_seats)
        self.deal = -1
        self.points = [0] * n_seats
        self.deal_points: list[list[int]] = []
        self.to_act: int | None = None
        self._next_deal()

    def _next_deal(self) -> None:
        self.deal += 1
        order = list(CARDS)
        deal_rng(self.seed, self.deal).shuffle(order)
        n = self.n_seats
        self.hands = [sorted(order[i * HAND : (i + 1) * HAND]) for i in range(n)]
        self.stock = sorted(order[n * HAND :])
        self.played: list[tuple[int, str]] = []
        self.trick: list[str] = []
        self.won: list[str] = []
        self.deal_points.append([0] * n)
        self.leader = self.deal % n
        self.to_act = self.leader

    def legal_actions(self) -> tuple[str, ...]:
        assert self.to_act is not None
        hand = self.hands[self.to_act]
        if self.trick:
            same = [c for c in hand if c[1] == self.trick[0][1]]
            if same:
                return tuple(same)
        return tuple(hand)

    def apply(self, action: str) -> None:
        if action not in CARDS:
            raise InvalidActionError(f"{action!r} is not a card of this pack")
        if self.to_act is None or action not in self.legal_actions():
            raise IllegalActionError(f"{action!r} is not legal now")
        seat = self.to_act
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
        for s in range(n):
            if self.teams[s] == self.teams[winner]:
                self.points[s] += 1
                self.deal_points[self.deal][s] += 1
        self.won += self.trick
        self.trick = []
        self.leader = self.to_act = winner
        if not self.hands[winner]:
            if self.deal + 1 < self.game.options["deals"]:
                self._next_deal()
            else:
                self.to_act = None

    def is_over(self) -> bool:
        return self.to_act is None

    def result(self) -> Result:
        # Only finished deals count in deal_points; the points so far stand.
        done = self.deal if self.to_act is not None else self.deal + 1
        return Result.from_scores(
            self.points,
            self.teams,
            self.deal_points[:done],
            higher_is_better=self.game.points_higher_is_better,
        )

    def view(self, seat: int) -> TrickView:
        return TrickView(
            seat=seat,
            legal_actions=self.legal_actions() if seat == self.to_act else (),
            hand=tuple(self.hands[seat]),
            played=tuple(self.played),
            trick=tuple(self.trick),
            points=tuple(self.points),
            deal_points=tuple(tuple(d) for d in self.deal_points),
            deal=self.deal,
        )

    def clone(self) -> TrickState:
        twin = object.__new__(type(self))
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
        others = [f"hand:{i}" for i in range(self.n_seats) if i != seat]
        return frozenset([*others, "stock"])

    def deck(self) -> tuple[str, ...]:
        return CARDS


class TrickGame(Game):
    """The shared rules; subclasses set the seats, the teams and the order."""

    state_class: ClassVar[type[TrickState]] = TrickState
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("deals", 2, "deals in a match", minimum=1),
    )

    def new_match(self, n_seats: int, seed: int) -> TrickState:
        self.check_seats(n_seats)
        return self.state_class(self, n_seats, seed)

    def sample_state(self, view: View, rng: random.Random) -> TrickState:
        assert isinstance(view, TrickView)
        n = len(view.points)
        state = object.__new__(self.state_class)
        state.game, state.n_seats, state.seed = self, n, 0
        state.teams = self.teams(n)
        state.deal = view.deal
        state.points = list(view.points)
        state.deal_points = [list(d) for d in view.deal_points]
        state.played = list(view.played)
        state.trick = list(view.trick)
        done = len(view.played) - len(view.trick)
        state.won = [card for _, card in view.played[:done]]
        state.leader, state.to_act = _leader_and_next(view, n)
        counts = [HAND - sum(1 for s, _ in view.played if s == i) for i in range(n)]
        voids = _voids(view.played, n)
        seen = set(view.hand) | {card for _, card in view.played}
        unseen = [c for c in CARDS if c not in seen]
        hands = _deal_hidden(unseen, view.seat, counts, voids, rng)
        hands[view.seat] = list(view.hand)
        state.hands = [sorted(h) for h in hands]
        dealt = {c for h in hands for c in h}
        state.stock = sorted(c for c in unseen if c not in dealt)
        return state


def _leader_and_next(view: TrickView, n: int) -> tuple[int, int]:
    """Who led the current trick and who acts next, from the public play."""
    if not view.played:
        return view.deal % n, view.deal % n
    if view.trick:
        leader = view.played[-len(view.trick)][0]
        return leader, (view.played[-1][0] + 1) % n
    last = view.played[-n:]
    led = last[0][1][1]
    winner = max(
        (p for p in last if p[1][1] == led), key=lambda p: RANKS.index(p[1][0])
    )[0]
    return winner, winner


def _voids(played: Sequence[tuple[int, str]], n: int) -> list[set[str]]:
    """The suits each seat showed it lacks by not following suit this deal."""
    voids: list[set[str]] = [set() for _ in range(n)]
    for start in range(0, len(played), n):
        trick = played[start : start + n]
        led = trick[0][1][1]
        for seat, card in trick[1:]:
            if card[1] != led:
                voids[seat].add(led)
    return voids


def _deal_hidden(
    unseen: list[str],
    me: int,
    counts: Sequence[int],
    voids: Sequence[set[str]],
    rng: random.Random,
) -> list[list[str]]:
    """Other seats' hands drawn from ``unseen``, respecting the voids they showed.

    Rejection sampling: uniform over the deals consistent with the voids, and
    quick here, since the true deal is one of them and the stock absorbs any
    card.
    """
    others = [s for s in range(len(counts)) if s != me]
    for _ in range(100_000):
        cards = list(unseen)
        rng.shuffle(cards)
        hands: list[list[str]] = [[] for _ in counts]
        at = 0
        for s in others:
            hands[s] = cards[at : at + counts[s]]
            at += counts[s]
        if all(c[1] not in voids[s] for s in others for c in hands[s]):
            return hands
    raise RuntimeError("no deal of the unseen cards fits the voids shown")


class TeamsGame(TrickGame):
    name = "toy-teams"
    title = "Toy tricks for six, two teams of three sitting alternately"
    seat_counts = frozenset({6})

    def teams(self, n_seats: int) -> tuple[int, ...]:
        return tuple(seat % 2 for seat in range(n_seats))


class LowGame(TrickGame):
    name = "toy-low"
    title = "Toy tricks where every trick is a penalty point (fewest win)"
    seat_counts = frozenset({2, 3})
    points_higher_is_better = False


class EliminationState(TrickState):
    """Ranks by the deal in which a seat first took no trick (its "life"),
    whatever its points: a later first blank ranks higher."""

    game: EliminationGame

    def result(self) -> Result:
        done = self.deal if self.to_act is not None else self.deal + 1
        rows = self.deal_points[:done]
        n = len(self.points)
        life = [
            next((k for k, row in enumerate(rows) if not row[s]), done)
            for s in range(n)
        ]
        return Result.from_rank_keys(self.points, life, self.teams, rows)


class EliminationGame(TrickGame):
    name = "toy-elimination"
    title = "Toy tricks ranked by the deal a seat first takes no trick"
    seat_counts = frozenset({3})
    ranks_follow_scores = False

    state_class = EliminationState


@hookimpl
def troef_games() -> Sequence[type[Game]]:
    return [TeamsGame, LowGame, EliminationGame]
