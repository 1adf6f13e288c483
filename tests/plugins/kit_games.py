"""Two small trick games built only from the game kit, to prove its reach.

- ``kit-double``: two seats, the 64-card bezique pack (two copies of every
  card), hearts trump, the Bezique games' final-phase duties (follow and beat
  the led card if possible, else trump): multisets in hands, actions, views,
  card locations and sampling.
- ``kit-tarot``: three to six seats, the 78-card tarot pack, 12 cards each
  and the rest undealt (a hidden place), La Rigueur's tiers (the tarot trumps
  above spades above the suit led), no duty to over-trump, and the excuse.

A match is one deal; a seat scores the card points of the tricks it wins.
Everything a trick game needs beyond that comes from ``games.cards``,
``games.tricks`` and ``games.sampling``; the conformance suite checks both.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.cards import BEZIQUE, TAROT, iter_bits
from games.sampling import ConstrainedDealer
from games.tricks import BEAT_LED, Duties, TrickRecord, TrickRules, TrickState
from harness import Game, Result, Sampler, View, hookimpl
from harness.contracts.seeding import deal_rng

JASS_POINTS = {"T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}


@dataclass(frozen=True)
class KitView(View):
    seats: int
    to_act: int | None
    hand: tuple[str, ...]
    trick: tuple[tuple[int, str], ...]
    tricks: tuple[TrickRecord, ...]


class KitState(TrickState):
    game: KitGame

    def __init__(self, game: KitGame, n_seats: int, seed: int) -> None:
        self.game, self.n_seats, self.seed, self.deal = game, n_seats, seed, 0
        self.to_act: int | None = 0
        self._use_rules(game.rules, n_seats)
        order = game.rules.deck.shuffled(deal_rng(seed, 0))
        size = game.hand_size(n_seats)
        self.hands = [
            sum(1 << c for c in order[s * size : (s + 1) * size])
            for s in range(n_seats)
        ]
        self.undealt = sum(1 << c for c in order[n_seats * size :])
        self._begin_tricks(game.rules.tables(*game.tiers), game.duties, 0)

    def _tricks_done(self) -> None:
        self._playing = False
        self._legal = None
        self.to_act = None

    def is_over(self) -> bool:
        return self.to_act is None

    def points(self) -> list[int]:
        points = [0] * self.n_seats
        for _, _, winner, won, _ in self._tricks:
            points[winner] += won
        return points

    def result(self) -> Result:
        points = self.points()
        return Result.from_scores(
            points, self.teams, [points] if self.is_over() else []
        )

    def view(self, seat: int) -> KitView:
        return KitView(
            seat=seat,
            legal_actions=self.legal_actions() if seat == self.to_act else (),
            seats=self.n_seats,
            to_act=self.to_act,
            hand=self.rules.deck.names(self.hands[seat]),
            trick=self._trick_view,
            tricks=self._tricks,
        )

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        return {
            **super().card_locations(),
            "undealt": self.rules.deck.names(self.undealt),
        }

    def hidden_from(self, seat: int) -> frozenset[str]:
        return super().hidden_from(seat) | {"undealt"}

    def deck(self) -> tuple[str, ...]:
        return self.rules.deck.cards


class KitSampler(Sampler):
    """The kit's recipe: a template state from the view, a dealer per view."""

    def __init__(self, game: KitGame, view: KitView) -> None:
        n = view.seats
        state = KitState.__new__(KitState)
        state.game, state.n_seats, state.seed, state.deal = game, n, 0, 0
        state.to_act = view.to_act
        state._use_rules(game.rules, n)
        tables = game.rules.tables(*game.tiers)
        public = state._restore_tricks(tables, game.duties, view.tricks, view.trick)
        state._playing = view.to_act is not None
        own = game.rules.deck.mask(view.hand, taken=public.seen)
        state.hands[view.seat] = own
        self.state = state
        self.others = [s for s in range(n) if s != view.seat]
        size = game.hand_size(n)
        unseen = list(iter_bits(game.rules.deck.full & ~(public.seen | own)))
        self.dealer = ConstrainedDealer(
            unseen,
            [public.forbidden[s] for s in self.others] + [0],
            [size - public.played[s] for s in self.others]
            + [len(game.rules.deck) - n * size],
        )

    def sample(self, rng: random.Random) -> KitState:
        state = self.state.clone()
        *hands, undealt = self.dealer.sample(rng)
        for seat, hand in zip(self.others, hands, strict=True):
            state.hands[seat] = hand
        state.undealt = undealt
        return state


class KitGame(Game):
    rules: ClassVar[TrickRules]
    tiers: ClassVar[tuple[int, ...]]
    duties: ClassVar[Duties]
    check_options: ClassVar[Mapping[str, object]] = {}

    def hand_size(self, n_seats: int) -> int:
        return len(self.rules.deck) // n_seats

    def new_match(self, n_seats: int, seed: int) -> KitState:
        self.check_seats(n_seats)
        return KitState(self, n_seats, seed)

    def sampler(self, view: View) -> KitSampler:
        assert isinstance(view, KitView)
        return KitSampler(self, view)


class DoubleDeckGame(KitGame):
    name = "kit-double"
    title = "Kit test: two copies of every card, follow and beat"
    seat_counts = frozenset({2})
    rules = TrickRules(BEZIQUE, plain_order="789JQKTA", plain_points=JASS_POINTS)
    tiers = (2,)
    duties = BEAT_LED


class TarotTiersGame(KitGame):
    name = "kit-tarot"
    title = "Kit test: tarot trumps above spades, the excuse, cards left undealt"
    seat_counts = frozenset({3, 4, 5, 6})
    rules = TrickRules(
        TAROT,
        plain_points={"K": 4, "Q": 3, "N": 2, "J": 1},
        trump_points={"21": 4, "1": 4},
        extra_points={"EX": 5},
        excuse="EX",
    )
    tiers = (4, 3)
    duties = Duties(must_overtrump=False)

    def hand_size(self, n_seats: int) -> int:
        return 12


@hookimpl
def troef_games() -> Sequence[type[Game]]:
    return [DoubleDeckGame, TarotTiersGame]
