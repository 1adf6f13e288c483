"""Klaverjassen for 3: each for himself, 10 cards, a skart of 2, roem claimed.

Rule text: ``seeds/004`` lines 32-75, "Klaverjassen, 3 spelers"; the rules as
implemented and the rulings (D1, D2, ...) are in ``games/jass/RULES.md``.

Three seats each get 10 cards; two lie face down as the skart (line 46).
From voorhand each says ``play`` or ``pass``; the first ``play`` ends the
bidding (line 49), all passing deals again. The player may take the skart
and lay two cards back, names trump (:class:`~games.jass.skart.SkartState`),
and voorhand leads. Cards rank and score as in klaverjassen
(:mod:`games.jass.scoring`); roem is :func:`games.jass.roem.trick_roem_three`
and counts only when the trick's winner claims it (line 69): after a trick
with roem its winner says ``roem`` or ``pass``. Played by four (line 34), the
dealer sits each deal out.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, NoReturn

from games.cards import PIQUET, SUITS
from games.jass.declarations import ROEM
from games.jass.klaverjassen import RULES, TRUMP_TABLES
from games.jass.moves import (
    DECLARE_ROEM,
    PASS_MOVE,
    TAKE_OR_LEAVE,
    card_move,
    suit_move,
)
from games.jass.roem import roem_parts_three, trick_roem_three
from games.jass.scoring import PIT_BONUS, round_score
from games.jass.skart import (
    DISCARD,
    LEAVE,
    PASS,
    PLAY,
    SKART,
    SUIT_ACTIONS,
    TAKE,
    TRUMP,
    HiddenCards,
    SkartState,
    deal_prefix,
)
from games.tricks import ROTTERDAM, TrickRecord
from harness import (
    ActionKind,
    Game,
    IllegalActionError,
    Option,
    Result,
    Sampler,
    View,
)
from harness.contracts.game import Aside, reject_action
from harness.contracts.seeding import deal_rng
from harness.contracts.view import new_view, pin_fields
from harness.match.narration import match_over_line

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding

__all__ = [
    "Klaverjassen3",
    "Klaverjassen3State",
    "Klaverjassen3View",
    "solo_deal_score",
]

#: The player needs this many points in tricks and roem, whatever the others'
#: roem (seed lines 58, 72: nat is "minder dan 82 punten"; D6, not R8's half).
TO_MAKE = 82
#: Cards per hand and in the skart (lines 39-40).
HAND, SKART_SIZE = 10, 2
BID, CLAIM = "bid", "roem"
#: Every action that is not a card.
WORDS = (PLAY, PASS, TAKE, LEAVE, ROEM, *SUIT_ACTIONS)


class Deal3Summary(NamedTuple):
    """How one deal was scored (kept by the State that played it)."""

    deal: int
    trump: int
    player: int
    #: The seats that played the deal, voorhand first.
    active: tuple[int, ...]
    #: Card points per seat, the last trick's 10 and the skart included.
    points: tuple[int, ...]
    #: Roem claimed per seat.
    roem: tuple[int, ...]
    #: The skart's card points and the seat that won them.
    skart: tuple[int, int]
    made: bool
    #: The seat that won every trick, or None.
    pit: int | None
    #: Per seat before and after rounding.
    raw: tuple[int, ...]
    scores: tuple[int, ...]


def solo_deal_score(
    player: int,
    active: Sequence[int],
    points: Sequence[int],
    roem: Sequence[int],
    tricks_won: Sequence[int],
) -> tuple[bool, int | None, tuple[int, ...], tuple[int, ...]]:
    """Score a deal of Klaverjassen for 3: ``(made, pit seat, raw, rounded)``.

    Seed lines 72-75: the player makes it with 82 or more in card points and
    claimed roem (D5, D6); then every seat scores its own. Else (nat) the other
    two share everything, cards and all roem, half each (D7). A seat with every
    trick scores 100 more (D8). Each score is rounded to tens (R9); a seat
    sitting out scores 0.
    """
    n = len(points)
    made = points[player] + roem[player] >= TO_MAKE
    raw = [0] * n
    if made:
        for s in active:
            raw[s] = points[s] + roem[s]
    else:
        # Halving then rounding: an odd total's half rounds as its floor does.
        half = (sum(points) + sum(roem)) // 2
        for s in active:
            if s != player:
                raw[s] = half
    total_tricks = sum(tricks_won)
    pit = next((s for s in active if tricks_won[s] == total_tricks), None)
    if pit is not None:
        raw[pit] += PIT_BONUS
    return made, pit, tuple(raw), tuple(round_score(r) for r in raw)


@dataclass(frozen=True)
class Klaverjassen3View(View):
    """What one seat knows: this deal with perfect recall, the scores (D10)."""

    #: Index of the current deal, from 0.
    deal: int
    #: The dealer's seat (with four seats he sits the deal out).
    dealer: int
    #: The seats playing this deal, voorhand first.
    active: tuple[int, ...]
    #: The seat to act, or ``None`` when the match is over.
    to_act: int | None
    #: ``bid``, ``skart``, ``trump``, ``discard``, ``play``, ``roem`` (a claim)
    #: or ``over``.
    phase: str
    #: This seat's cards, in deck order.
    hand: tuple[str, ...]
    #: This deal's bids: ``(seat, "play" | "pass")``.
    bids: tuple[tuple[int, str], ...]
    #: The player, or ``None`` while bidding.
    player: int | None
    #: Whether the player took the skart (``None``: not yet decided).
    took: bool | None
    #: How many cards lie in the skart now.
    skart_count: int
    #: The skart cards this seat knows (the player's own discards).
    skart: tuple[str, ...]
    #: The trump suit, or ``None`` until named.
    trump: str | None
    #: The trick on the table: ``(seat, card)``.
    trick: tuple[tuple[int, str], ...]
    #: This deal's finished tricks ``(leader, cards, winner, points, roem
    #: claimed)``.
    tricks: tuple[TrickRecord, ...]
    #: Each finished deal's rounded scores, per seat.
    deal_scores: tuple[tuple[int, ...], ...]
    #: The match totals, per seat.
    scores: tuple[int, ...]


#: The fields view() fills, in order: a changed Klaverjassen3View fails at import.
pin_fields(
    Klaverjassen3View,
    (
        "seat legal_actions deal dealer active to_act phase hand bids player "
        "took skart_count skart trump trick tricks deal_scores scores"
    ),
)


class Klaverjassen3State(SkartState):
    """The referee's truth of one match of Klaverjassen for 3 (or 4, D9)."""

    game: Klaverjassen3

    def __init__(self, game: Klaverjassen3, n_seats: int, seed: int) -> None:
        self._blank(game, n_seats, seed)
        self._start_deal()

    def _blank(self, game: Klaverjassen3, n_seats: int, seed: int) -> None:
        self.game = game
        self.n_seats = n_seats
        self.seed = seed
        self._target: int = game.options["target"]
        self._use_rules(RULES, n_seats)
        self.deal = 0
        self.dealer = n_seats - 1
        self.to_act: int | None = 0
        self._over = False
        self.phase = BID
        self.skart = self.stock = self.open_skart = 0
        self.skart_size = SKART_SIZE
        self.skart_open = False
        self._clear_skart()
        self._bids: tuple[tuple[int, str], ...] = ()
        self._deal_scores: tuple[tuple[int, ...], ...] = ()
        self._totals: tuple[int, ...] = (0,) * n_seats
        self._roem = 0
        self._last_tricks: tuple[TrickRecord, ...] = ()
        #: How each deal this State played was scored (a sampled state has none).
        self.history: list[Deal3Summary] = []

    def _start_deal(self) -> None:
        """Deal ``self.deal`` (lines 46, 75): 10 each from voorhand, 2 to the skart."""
        n, k = self.n_seats, self.deal
        self._reset_tricks(n)
        self.dealer = (k + n - 1) % n
        # D9: with four seats the dealer sits out; voorhand is left of him.
        self._set_active(tuple((k + i) % n for i in range(3)))
        order = deal_prefix(deal_rng(self.seed, k), 32)
        for i, seat in enumerate(self.active):
            for card in order[i * HAND : (i + 1) * HAND]:
                self.hands[seat] |= 1 << card
        self.skart = 0
        for card in order[3 * HAND :]:
            self.skart |= 1 << card
        self._clear_skart()
        self._bids = ()
        self.phase = BID
        self.to_act = self.active[0]

    # -- bidding, skart, claims ------------------------------------------------

    def _other_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        if self.phase == BID:
            return (PLAY, PASS)
        if self.phase == CLAIM:
            return (ROEM, PASS)
        skart = self._skart_actions()
        assert skart is not None
        return skart

    def _apply_other(self, action: str) -> None:
        if self._over:
            raise IllegalActionError(f"the match is over; {action!r} comes too late")
        if self._apply_skart(action):
            return
        if action not in self._other_actions():
            self._bad_action(action)
        self._legal = None
        seat = self.to_act
        assert seat is not None
        if self.phase == CLAIM:
            self._after_trick(self._roem if action == ROEM else 0)
            return
        self._bids += ((seat, action),)
        if action == PLAY:
            # Line 49: the first "play" ends the bidding; he names trump later.
            self._open_skart_phase(seat)
        elif len(self._bids) == 3:
            # Line 49: all passed; the next dealer deals (D3). The deal scores 0.
            self._end_deal((0,) * self.n_seats)
        else:
            self.to_act = self._next_seat[seat]

    def _bad_action(self, action: object) -> NoReturn:
        reject_action(
            self,
            action,
            lambda a: a in PIQUET.index or a in WORDS,
            "a klaverjassen-3 action: 'play', 'pass', 'take', 'leave', a suit "
            "('clubs' ... 'spades'), 'roem' or a card such as 'JC'",
        )

    # -- tricks and scoring ----------------------------------------------------

    def _trick_complete(self) -> None:
        a, b, c = self._trick
        roem = trick_roem_three(1 << a | 1 << b | 1 << c, self.trump)
        if roem:
            # Line 69 (D4): roem counts only if the trick's winner claims it.
            self._roem = roem
            self.phase = CLAIM
            self._playing = False
            self._legal = None
            self.to_act = self._winner
        else:
            self._after_trick(0)

    def _after_trick(self, roem: int) -> None:
        self._close_trick(roem)
        self.phase = "play"
        self._playing = True
        self._legal = None
        if self.hands[self._leader]:
            self.to_act = self._winner
        else:
            self._score_deal()

    def _score_deal(self) -> None:
        n = self.n_seats
        points, roem, won = [0] * n, [0] * n, [0] * n
        for _, _, winner, pts, rm in self._tricks:
            points[winner] += pts
            roem[winner] += rm
            won[winner] += 1
        # Line 52: the skart goes with the last trick.
        last = self._tricks[-1][2]
        skart = self.skart_points()
        points[last] += skart
        made, pit, raw, scores = solo_deal_score(
            self.player, self.active, points, roem, won
        )
        self.history.append(
            Deal3Summary(
                self.deal,
                self.trump,
                self.player,
                self.active,
                tuple(points),
                tuple(roem),
                (skart, last),
                made,
                pit,
                raw,
                scores,
            )
        )
        self._end_deal(scores)

    def _end_deal(self, scores: tuple[int, ...]) -> None:
        self._last_tricks = self._tricks
        self._deal_scores += (scores,)
        self._totals = tuple(a + b for a, b in zip(self._totals, scores, strict=True))
        self._playing = False
        self._legal = None
        if max(self._totals) >= self._target:
            # D8: the match ends after the deal in which a seat reaches the target.
            self._end_match()
            self.phase = "over"
        else:
            self.deal += 1
            if not self.halt_after_deal:
                self._start_deal()

    def result(self) -> Result:
        """Each seat's total; ``deal_points[k]`` each seat's score of deal k."""
        return Result.from_scores(
            self._totals, self.teams, [list(d) for d in self._deal_scores]
        )

    # -- views -----------------------------------------------------------------

    def view(self, seat: int) -> Klaverjassen3View:
        """What ``seat`` knows now (D10)."""
        # Filled without the frozen dataclass's __init__ (one setattr per field
        # costs more than the rules of a decision); same fields, same order.
        view = new_view(Klaverjassen3View)
        view.__dict__.update(
            seat=seat,
            legal_actions=self.legal_actions() if seat == self.to_act else (),
            deal=self.deal,
            dealer=self.dealer,
            active=self.active,
            to_act=self.to_act,
            phase=self.phase,
            hand=PIQUET.names(self.hands[seat]),
            bids=self._bids,
            player=None if self.player < 0 else self.player,
            took=self.took,
            skart_count=self.skart.bit_count(),
            skart=PIQUET.names(self.skart_known_to(seat)),
            trump=None if self.trump < 0 else SUITS[self.trump],
            trick=self._trick_view,
            tricks=self._tricks,
            deal_scores=self._deal_scores,
            scores=self._totals,
        )
        return view

    def clone(self) -> Klaverjassen3State:
        """An independent copy."""
        twin = super().clone()
        twin.history = self.history[:]
        return twin

    def deck(self) -> tuple[str, ...]:
        """The 32 cards of the piquet pack."""
        return PIQUET.cards

    # -- for people --------------------------------------------------------------

    def narrate_start(self) -> list[str]:
        """Deal 0 told as every later deal: the dealer and voorhand."""
        return self._opening_lines()

    def narrate(self, action: str) -> list[str]:
        """Apply ``action`` and tell what happened."""
        seat, deal, phase = self.to_act, self.deal, self.phase
        n_tricks = len(self._tricks)
        roem = self._roem
        self.apply(action)
        if phase == BID:
            if action == PLAY:
                lines = [f"seat {seat} takes the game"]
            else:
                lines = [f"seat {seat} passes"]
                if self.deal != deal:
                    lines.append(
                        "all pass: nobody takes the game; the next dealer deals"
                    )
                    lines += self._opening_lines()
            return lines
        if phase == SKART:
            return [f"seat {seat} {'takes' if action == TAKE else 'leaves'} the skart"]
        if phase == TRUMP:
            return [f"seat {seat} names {action} trump"]
        if phase == DISCARD:
            # The skart lies face down (D4): only the one who lays it knows the card.
            return [
                Aside(
                    f"seat {seat} lays {action} in the skart",
                    () if seat is None else {seat},
                    f"seat {seat} lays a card in the skart",
                )
            ]
        if phase == CLAIM:
            lines = [
                f"seat {seat} claims roem {roem}"
                if action == ROEM
                else f"seat {seat} does not claim the roem ({roem})"
            ]
        else:
            lines = [f"seat {seat} plays {action}"]
        if self.deal != deal or self._over:
            lines.append(_trick_line(self._last_tricks[-1], HAND, self.history[-1]))
            lines += _deal_lines(self.history[-1], self._totals)
            if self._over:
                lines.append(match_over_line(self.result()))
            else:
                lines += self._opening_lines()
        elif len(self._tricks) > n_tricks:
            lines.append(_trick_line(self._tricks[-1], n_tricks + 1, None))
        elif self.phase == CLAIM:
            cards = PIQUET.mask(c for _, c in self._trick_view)
            parts = roem_parts_three(cards, self.trump)
            names = " + ".join(name for name, _ in parts if name != "stuk")
            lines.append(
                f"seat {self._winner} wins the trick with roem {self._roem}"
                + (f" ({names})" if names else " (stuk)")
                + ": claim it?"
            )
        return lines

    def _opening_lines(self) -> list[str]:
        out = "" if self.n_seats == 3 else " (sits out)"
        return [
            f"deal {self.deal}: dealer seat {self.dealer}{out}, voorhand seat "
            f"{self.active[0]}"
        ]

    # -- construction for tests ------------------------------------------------

    @classmethod
    def from_hands(
        cls,
        game: Klaverjassen3,
        hands: Sequence[str],
        skart: str,
        *,
        deal: int = 0,
        seed: int = 0,
    ) -> Klaverjassen3State:
        """A state at the first bid of deal ``deal`` with the given hands
        (seat 0 first; ``""`` for a seat sitting out) and skart."""
        PIQUET.check_deal(hands, {"the skart": skart})
        n = len(hands)
        state = cls.__new__(cls)
        state._blank(game, n, seed)
        state.deal = deal
        state._reset_tricks(n)
        state.dealer = (deal + n - 1) % n
        state._set_active(tuple((deal + i) % n for i in range(3)))
        state.hands = [PIQUET.mask(h.split()) for h in hands]
        state.skart = PIQUET.mask(skart.split())
        union = state.skart
        for m in state.hands:
            union |= m
        if union != PIQUET.full or any(
            state.hands[s].bit_count() != HAND for s in state.active
        ):
            raise ValueError(f"need three hands of 10 and a skart of 2: {hands!r}")
        state.to_act = state.active[0]
        return state


def _trick_line(record: TrickRecord, number: int, summary: Deal3Summary | None) -> str:
    _, _, winner, points, roem = record
    line = f"trick {number} to seat {winner}: {points} points"
    if roem:
        line += f", roem {roem}"
    if summary is not None:
        line += f"; the skart ({summary.skart[0]} points) to seat {summary.skart[1]}"
    return line


def _deal_lines(summary: Deal3Summary, totals: tuple[int, ...]) -> list[str]:
    p = summary.player
    mine = summary.points[p] + summary.roem[p]
    line = (
        f"deal {summary.deal} ({SUITS[summary.trump]} trump, seat {p} maker): "
        + ", ".join(
            f"seat {s} {summary.points[s]}"
            + (f" + roem {summary.roem[s]}" if summary.roem[s] else "")
            for s in sorted(summary.active)
        )
        + (": made" if summary.made else f": nat ({mine} < {TO_MAKE}), others share")
    )
    if summary.pit is not None:
        line += f"; all tricks, +{PIT_BONUS} to seat {summary.pit}"
    return [
        line,
        f"deal scores {'-'.join(map(str, summary.scores))}; match "
        f"{'-'.join(map(str, totals))}",
    ]


class Klaverjassen3Sampler(Sampler):
    """States consistent with one seat's view (D10): the other hands, the skart
    unless the seat laid it back itself, voids shown by the play."""

    def __init__(self, game: Klaverjassen3, view: Klaverjassen3View) -> None:
        n = len(view.scores)
        state = Klaverjassen3State.__new__(Klaverjassen3State)
        state._blank(game, n, 0)
        state.deal = view.deal
        state.dealer = view.dealer
        state._set_active(view.active)
        state.to_act = view.to_act
        state.phase = view.phase
        state._over = view.to_act is None
        state._bids = view.bids
        state.player = -1 if view.player is None else view.player
        state.took = view.took
        state.trump = -1 if view.trump is None else SUITS.index(view.trump)
        state._deal_scores = view.deal_scores
        state._totals = view.scores
        tables = TRUMP_TABLES[state.trump] if state.trump >= 0 else RULES.tables()
        public = state._restore_tricks(tables, ROTTERDAM, view.tricks, view.trick)
        state._playing = view.phase == "play"
        if view.phase == CLAIM:
            mask = PIQUET.mask(c for _, c in view.trick)
            state._roem = trick_roem_three(mask, state.trump)
        me = view.seat
        own = PIQUET.mask(view.hand)
        known_skart = PIQUET.mask(view.skart)
        state.hands = [0] * n
        state.hands[me] = own
        state.skart = known_skart
        self._state = state
        others = [s for s in view.active if s != me]
        sizes = []
        for s in others:
            size = HAND - public.played[s]
            if s == state.player and view.took:
                size += SKART_SIZE - view.skart_count
            sizes.append(size)
        self._hidden: HiddenCards | None = None
        if not state._over:
            self._hidden = HiddenCards(
                PIQUET.full & ~(public.seen | own | known_skart),
                others,
                sizes,
                [public.forbidden[s] for s in others],
                view.skart_count - known_skart.bit_count(),
                0,
            )

    def sample(self, rng: random.Random) -> Klaverjassen3State:
        """A world: the template with hidden cards and later deals' seed drawn."""
        state = self._state.clone()
        state.seed = rng.getrandbits(64)
        hidden = self._hidden
        if hidden is not None:
            hands, skart, _ = hidden.sample(rng)
            for seat, mask in zip(hidden.seats, hands, strict=True):
                state.hands[seat] = mask
            state.skart |= skart
        return state


class Klaverjassen3(Game):
    """Klaverjassen for 3: each for himself, free trump, skart, claimed roem."""

    view_class = Klaverjassen3View
    #: The worlds behind a view (D10).
    sampler_class = Klaverjassen3Sampler

    name = "klaverjassen-3"
    description = (
        "Each says play or pass; the player may take the skart of 2 and names trump; "
        "roem counts only when its winner claims it"
    )
    title = "Klaverjassen for 3 (each for himself; four with the dealer sitting out)"
    seat_counts = frozenset({3, 4})
    check_options = {"target": 200}  # noqa: RUF012 - short: 2-4 deals
    action_kinds = (
        card_move(
            meaning="play this card to the trick; while laying back the skart, "
            "lay it face down in the skart (D4)"
        ),
        ActionKind("play", "play", "bid: be the player (D2)"),
        PASS_MOVE,
        TAKE_OR_LEAVE,
        suit_move("the player names trump (D4)"),
        DECLARE_ROEM,
    )
    option_specs = (
        Option(
            "target",
            1000,
            doc="the match ends after the deal in which a seat reaches this total",
            minimum=1,
        ),
    )

    def encoding(self, n_seats: int) -> Encoding:
        """The jass encoding (docs/ENCODING.md)."""
        # numpy is loaded only when an encoding is asked for.
        from games.jass.encoding import jass_encoding

        return jass_encoding(
            self,
            n_seats,
            PIQUET,
            WORDS,
            ("bid", "skart", "trump", "discard", "play", "roem", "over"),
        )

    def new_match(self, n_seats: int, seed: int) -> Klaverjassen3State:
        """The first deal of a match, dealt from ``seed``."""
        self.check_seats(n_seats)
        return Klaverjassen3State(self, n_seats, seed)
