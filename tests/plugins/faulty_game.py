"""A game plugin with a bug on purpose, for the game-fault tests (issue 29, item 2).

``faulty``: two or three seats each play a card from a hand of three, three
rounds; a round is worth a point to the highest card. Its ``fault`` option
makes one State method raise (``view``, ``legal_actions``, ``apply``,
``result``, ``new_match``) in the matches whose seed is a multiple of
``every`` (1: every match), after ``after`` actions. The other matches play
cleanly, so a run shows what happens to them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from harness import Game, Option, Result, State, View, hookimpl
from harness.contracts.seeding import deal_rng

CARDS = tuple(f"{r}{s}" for s in "CDHS" for r in "9TJQKA")
RANK = "9TJQKA"
FAULTS = ("none", "new_match", "view", "legal_actions", "apply", "result")


@dataclass(frozen=True)
class FaultyView(View):
    hand: tuple[str, ...]
    table: tuple[str, ...]
    points: tuple[int, ...]


class FaultyState(State):
    def __init__(self, game: FaultyGame, n_seats: int, seed: int) -> None:
        self.game = game
        self.n_seats = n_seats
        self.deal = 0
        self.broken = seed % game.options["every"] == 0
        order = list(CARDS)
        deal_rng(seed, 0).shuffle(order)
        self.hands = [sorted(order[3 * i : 3 * i + 3]) for i in range(n_seats)]
        self.rest = order[3 * n_seats :]
        self.table: list[str] = []
        self.points = [0] * n_seats
        self.actions = 0
        self.to_act: int | None = 0

    def _maybe_raise(self, where: str) -> None:
        options = self.game.options
        if (
            self.broken
            and options["fault"] == where
            and self.actions >= options["after"]
        ):
            raise RuntimeError(f"faulty {where}: a bug in the game plugin")

    def legal_actions(self) -> tuple[str, ...]:
        self._maybe_raise("legal_actions")
        return tuple(self.hands[self.to_act]) if self.to_act is not None else ()

    def apply(self, action: str) -> None:
        self._maybe_raise("apply")
        seat = self.to_act
        assert seat is not None
        self.hands[seat].remove(action)
        self.table.append(action)
        self.actions += 1
        if len(self.table) < self.n_seats:
            self.to_act = (seat + 1) % self.n_seats
            return
        best = max(range(self.n_seats), key=lambda i: RANK.index(self.table[i][0]))
        self.points[best] += 1
        self.table = []
        self.to_act = 0 if self.hands[0] else None

    def is_over(self) -> bool:
        return self.to_act is None

    def result(self) -> Result:
        self._maybe_raise("result")
        return Result.from_scores(
            self.points, self.game.teams(self.n_seats), [list(self.points)]
        )

    def view(self, seat: int) -> FaultyView:
        self._maybe_raise("view")
        return FaultyView(
            seat=seat,
            legal_actions=self.legal_actions() if seat == self.to_act else (),
            hand=tuple(self.hands[seat]),
            table=tuple(self.table),
            points=tuple(self.points),
        )

    def clone(self) -> FaultyState:
        twin = object.__new__(FaultyState)
        twin.__dict__.update(self.__dict__)
        twin.hands = [list(h) for h in self.hands]
        twin.table, twin.points = list(self.table), list(self.points)
        twin.rest = list(self.rest)
        return twin

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        places = {f"hand:{i}": tuple(h) for i, h in enumerate(self.hands)}
        places.update(table=tuple(self.table), rest=tuple(self.rest))
        return places

    def hidden_from(self, seat: int) -> frozenset[str]:
        return frozenset(
            [f"hand:{i}" for i in range(self.n_seats) if i != seat] + ["rest"]
        )

    def deck(self) -> tuple[str, ...]:
        return CARDS


class FaultyGame(Game):
    name = "faulty"
    title = "A game whose plugin raises (harness tests)"
    seat_counts = frozenset({2, 3})
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("fault", "none", "the State method that raises", choices=FAULTS),
        Option("every", 1, "raise in matches whose seed is a multiple", minimum=1),
        Option("after", 0, "actions played before it raises", minimum=0),
    )

    def new_match(self, n_seats: int, seed: int) -> FaultyState:
        self.check_seats(n_seats)
        if self.options["fault"] == "new_match" and seed % self.options["every"] == 0:
            raise RuntimeError("faulty new_match: a bug in the game plugin")
        return FaultyState(self, n_seats, seed)

    def sample_state(self, view: View, rng: random.Random) -> FaultyState:
        """A world the view allows: the unseen cards dealt anew."""
        assert isinstance(view, FaultyView)
        n = len(view.points)
        state = FaultyState(self, n, 1)
        state.broken = False
        seen = set(view.hand) | set(view.table)
        unseen = [c for c in CARDS if c not in seen]
        rng.shuffle(unseen)
        played = len(view.table)
        lead = len(view.hand) + (1 if view.seat < played else 0)
        for i in range(n):
            if i == view.seat:
                state.hands[i] = list(view.hand)
                continue
            count = lead - (1 if i < played else 0) - (1 if view.seat < played else 0)
            state.hands[i], unseen = sorted(unseen[:count]), unseen[count:]
        state.rest = unseen
        state.table = list(view.table)
        state.points = list(view.points)
        state.to_act = view.seat if view.legal_actions else played
        return state


@hookimpl
def troef_games() -> Sequence[type[Game]]:
    return [FaultyGame]
