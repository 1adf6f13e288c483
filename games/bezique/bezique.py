"""Bezique for two (seed 000 line 93): 64 cards, a turned trump, melds, two phases.

The rules as implemented and every ruling are in ``games/bezique/RULES.md``
(cited here as R1, R2, ...). A card is an index in :data:`games.cards.BEZIQUE`
(two copies of each piquet card side by side); a hand is an ``int`` mask. The
card play is :class:`games.tricks.TrickState`'s: any card while the stock lasts
(``FREE_PLAY``), follow-and-beat for the last eight tricks (``BEAT_LED``). The
combinations and the re-use rule are :mod:`games.bezique.melds`.

A deal: dealer ``(k + 1) % 2`` in deal ``k``, so seat ``k % 2`` leads first. The
stock is a list with the turned card at index 0 (it is drawn last) and the next
card to draw at the end. After a trick of the stock phase its winner may declare
one combination (``meld:KIND``), exchange the trump 7 for the turned card
(``dix``) or ``pass``; then both draw, the winner first. Seat ``s``'s *shown*
cards are those of its hand that everyone knows: laid open by a declaration, or
the turned card taken by the dix or the last draw.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NoReturn

from games.bezique.melds import Kind, bezique_kinds, choose_cards, face
from games.cards import BEZIQUE, SUITS, CardMask, iter_bits
from games.sampling import ConstrainedDealer
from games.tricks import BEAT_LED, FREE_PLAY, TrickRecord, TrickRules, TrickState
from harness import (
    Game,
    IllegalActionError,
    InvalidActionError,
    Option,
    Result,
    Sampler,
    View,
)
from harness.seeding import deal_rng

__all__ = ["Bezique", "BeziqueState", "BeziqueView"]

PASS, DIX = "pass", "dix"
MELD = "meld:"
#: Brisques: each ace and ten won scores 10 at once (seed 000 line 109).
RULES = TrickRules(
    BEZIQUE,
    plain_order="789JQKTA",
    trump_order="789JQKTA",
    plain_points={"A": 10, "T": 10},
    last_trick=10,
)
_TABLES = tuple(RULES.tables(t) for t in range(4))
_C0, _C1, _C2, _C3, _C4, _C5, _C6, _C7 = BEZIQUE.name_chunks
#: The chunks without repeats: a card's two copies share a chunk of 8 bits.
_D0, _D1, _D2, _D3, _D4, _D5, _D6, _D7 = (
    tuple(tuple(dict.fromkeys(names)) for names in chunk)
    for chunk in BEZIQUE.name_chunks
)


def _NAMES(mask: CardMask) -> tuple[str, ...]:
    """``BEZIQUE.names(mask)`` unrolled over its eight chunks (the hot path)."""
    return (
        _C0[mask & 255] + _C1[mask >> 8 & 255] + _C2[mask >> 16 & 255]
        + _C3[mask >> 24 & 255] + _C4[mask >> 32 & 255] + _C5[mask >> 40 & 255]
        + _C6[mask >> 48 & 255] + _C7[mask >> 56]
    )  # fmt: skip


def _distinct_names(mask: CardMask) -> tuple[str, ...]:
    """The distinct names of ``mask`` in deck order: the legal card actions."""
    return (
        _D0[mask & 255] + _D1[mask >> 8 & 255] + _D2[mask >> 16 & 255]
        + _D3[mask >> 24 & 255] + _D4[mask >> 32 & 255] + _D5[mask >> 40 & 255]
        + _D6[mask >> 48 & 255] + _D7[mask >> 56]
    )  # fmt: skip


_new_view = object.__new__
_CARDS = BEZIQUE.cards
_HAND = 8
#: What the dealer scores for a turned 7, the dix, a trump 7 played (R6, R7).
SEVEN = 10


_Needs = tuple[tuple[Kind, tuple[tuple[int, int], ...]], ...]
_NEEDS: dict[tuple[Kind, ...], _Needs] = {}


def _needs(kinds: tuple[Kind, ...]) -> _Needs:
    """Each kind with its ``(copies mask, copies needed)`` per face, cached: a
    quick test that the hand holds enough copies before choosing them."""
    needs = _NEEDS.get(kinds)
    if needs is None:
        needs = _NEEDS[kinds] = tuple(
            (
                k,
                tuple(
                    (BEZIQUE.face_masks[f], k.faces.count(f))
                    for f in dict.fromkeys(k.faces)
                ),
            )
            for k in kinds
        )
    return needs


@dataclass(frozen=True)
class BeziqueView(View):
    """What one seat knows: perfect recall of the deal, the scores of earlier ones."""

    #: Index of the current deal, from 0.
    deal: int
    #: The dealer's seat; the other seat leads the first trick.
    dealer: int
    #: The seat to act, or ``None`` when the match is over.
    to_act: int | None
    #: ``"stock"`` (any card), ``"meld"`` (a trick's winner declares or passes),
    #: ``"final"`` (the last eight tricks) or ``"over"``.
    phase: str
    #: The trump suit (``C D H S``).
    trump: str
    #: The card turned under the stock, while it is there; ``None`` once drawn.
    turned: str | None
    #: Cards left in the stock, the turned card included.
    stock: int
    #: This seat's cards, in deck order.
    hand: tuple[str, ...]
    #: Each seat's number of cards in hand.
    hand_sizes: tuple[int, int]
    #: Per seat, the cards of its hand everyone knows, each with the
    #: combinations it was declared in: ``((card, (kind, ...)), ...)``.
    shown: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]
    #: This deal's declarations: ``(seat, kind, cards, points)``; the dix is
    #: ``(seat, "dix", (seven, card taken), 10)``.
    melds: tuple[tuple[int, str, tuple[str, ...], int], ...]
    #: The trick on the table: ``(seat, card)`` in play order.
    trick: tuple[tuple[int, str], ...]
    #: This deal's finished tricks: ``(leader, cards, winner, brisques, 0)``;
    #: the last trick's points include its 10.
    tricks: tuple[TrickRecord, ...]
    #: This deal's points so far per seat (brisques, melds, sevens, last trick).
    points: tuple[int, int]
    #: Each finished deal's points per seat.
    deal_scores: tuple[tuple[int, int], ...]
    #: The match totals per seat.
    scores: tuple[int, int]


class BeziqueState(TrickState):
    """The referee's truth of one Bezique match (see the module docstring)."""

    game: Bezique

    def __init__(self, game: Bezique, seed: int) -> None:
        self._blank(game, seed)
        self._start_deal()

    def _blank(self, game: Bezique, seed: int) -> None:
        """Every attribute at the start of a match, before deal 0 is dealt."""
        self.game = game
        self.n_seats = 2
        self.seed = seed
        self._target: int = game.options["target"]
        self._hartendame = game.options["variant"] == "klaverjas-hartendame"
        self.deal = 0
        self.dealer = 1
        self.to_act: int | None = 0
        self._use_rules(RULES, 2)
        # The engine names a hand's legal cards with this when any card goes.
        self._names = _distinct_names
        self._over = False
        self.trump = 0
        self._kinds: tuple[Kind, ...] = ()
        self._kind_needs: _Needs = ()
        self._stock: list[int] = []
        self._shown = [0, 0]
        #: Per declared card in a hand: the mask of kinds it was declared in,
        #: and the highest value among them (the re-use rule).
        self._history: dict[int, int] = {}
        self._best: dict[int, int] = {}
        self._melding = False
        #: Bumped when a card's history changes (the view's cache of ``shown``).
        self._version = 0
        self._shown_key: tuple[int, int, int] | None = None
        self._shown_view: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = ()
        self._options: dict[str, tuple[int, ...]] = {}
        self._melds: tuple[tuple[int, str, tuple[str, ...], int], ...] = ()
        self._points = [0, 0]
        self._deal_scores: tuple[tuple[int, int], ...] = ()
        self._totals = (0, 0)
        self._final_trick: TrickRecord = (0, (), 0, 0, 0)

    def _start_deal(self) -> None:
        """Shuffle and deal deal ``self.deal`` from ``deal_rng(seed, deal)`` alone."""
        k = self.deal
        order = BEZIQUE.shuffled(deal_rng(self.seed, k))
        self.dealer = (k + 1) % 2
        leader = k % 2
        hands = [0, 0]
        # R2: eight cards each; the 17th card is turned, the rest is the stock.
        for i, card in enumerate(order[:16]):
            hands[(leader + i // _HAND) % 2] |= 1 << card
        turned = order[16]
        stock = [turned, *order[17:]]
        self._setup(hands, stock, leader)
        if turned // 2 == face("7", turned // 16):
            # Seed 000 line 101: a turned 7 scores 10 for the dealer.
            self._points[self.dealer] += SEVEN

    def _setup(self, hands: list[CardMask], stock: list[int], leader: int) -> None:
        """Start the play of a deal with these hands and stock (turned card first)."""
        self._reset_tricks(2)
        self.hands = hands
        self._stock = stock
        self.trump = stock[0] // 16
        self._kinds = bezique_kinds(self.trump, self._hartendame)
        self._kind_needs = _needs(self._kinds)
        self._shown = [0, 0]
        self._history = {}
        self._best = {}
        self._melding = False
        self._options = {}
        self._melds = ()
        self._points = [0, 0]
        # Seed 000 line 106: any card while the stock lasts.
        self._begin_tricks(_TABLES[self.trump], FREE_PLAY, leader)

    # -- the trick and what follows it ----------------------------------------

    def _trick_complete(self) -> None:
        leader = self._leader
        lead, answer = self._trick
        seven = face("7", self.trump)
        # R7: each trump 7 played scores 10 for the seat that plays it.
        if lead // 2 == seven:
            self._points[leader] += SEVEN
        if answer // 2 == seven:
            self._points[1 - leader] += SEVEN
        for card in (lead, answer):
            self._history.pop(card, None)
            self._best.pop(card, None)
        self._shown[leader] &= ~(1 << lead)
        self._shown[1 - leader] &= ~(1 << answer)
        record = self._close_trick()
        winner = record[2]
        self._points[winner] += record[3]
        self.to_act = winner
        if self._stock:
            options = self._meld_options(winner)
            if options:
                self._options = options
                self._melding = True
                self._playing = False
                self._legal = None
            else:
                self._draw(winner)
        elif not self.hands[winner]:
            self._finish_deal()

    def _meld_options(self, seat: int) -> dict[str, tuple[int, ...]]:
        """The declarations ``seat`` may make now: action -> cards (R3-R5)."""
        hand, shown = self.hands[seat], self._shown[seat]
        options: dict[str, tuple[int, ...]] = {}
        for kind, needs in self._kind_needs:
            for mask, need in needs:
                if (hand & mask).bit_count() < need:
                    break
            else:
                cards = choose_cards(
                    kind, hand, shown, self._history, self._best, BEZIQUE
                )
                if cards is not None:
                    options[MELD + kind.name] = cards
        turned = self._stock[0]
        seven = face("7", self.trump)
        sevens = hand & BEZIQUE.face_masks[seven]
        if sevens and turned // 2 != seven:
            options[DIX] = ((sevens & -sevens).bit_length() - 1,)
        return options

    def _other_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        return (*self._options, PASS)

    def _apply_other(self, action: str) -> None:
        if self._over:
            raise IllegalActionError(f"the match is over; {action!r} comes too late")
        if not isinstance(action, str):
            raise InvalidActionError(f"an action is a string, not {action!r}")
        seat = self.to_act
        assert seat is not None
        if action == PASS:
            pass
        elif action == DIX and DIX in self._options:
            self._dix(seat, self._options[DIX][0])
        elif action in self._options:
            self._declare(seat, action[len(MELD) :], self._options[action])
        else:
            self._bad_action(action)
        self._options = {}
        self._melding = False
        self._playing = True
        self._draw(seat)

    def _bad_action(self, action: object) -> NoReturn:
        if not isinstance(action, str):
            raise InvalidActionError(f"an action is a string, not {action!r}")
        legal = ", ".join(self.legal_actions())
        known = {PASS, DIX, *(MELD + k.name for k in bezique_kinds(0))}
        known |= {MELD + k.name for k in bezique_kinds(1)}
        if action in BEZIQUE.index or action in known:
            raise IllegalActionError(
                f"seat {self.to_act} may not {action!r} now; legal: {legal}"
            )
        raise InvalidActionError(
            f"{action!r} is not a bezique action: a card such as 'AS' or 'TH', "
            f"'pass', 'dix' or 'meld:' and a combination ('meld:stuk'); legal: {legal}"
        )

    def _declare(self, seat: int, name: str, cards: tuple[int, ...]) -> None:
        kind = next(k for k in self._kinds if k.name == name)
        for card in cards:
            self._history[card] = self._history.get(card, 0) | kind.bit
            self._best[card] = max(self._best.get(card, 0), kind.value)
            self._shown[seat] |= 1 << card
        self._points[seat] += kind.value
        self._version += 1
        names = tuple(_CARDS[c] for c in cards)
        self._melds += ((seat, name, names, kind.value),)

    def _dix(self, seat: int, seven: int) -> None:
        """Seed 000 line 123: the trump 7 for the turned card, 10 points."""
        turned = self._stock[0]
        self.hands[seat] ^= 1 << seven | 1 << turned
        self._stock[0] = seven
        self._shown[seat] |= 1 << turned  # R8: the card taken is known
        self._points[seat] += SEVEN
        self._melds += ((seat, DIX, (_CARDS[seven], _CARDS[turned]), SEVEN),)

    def _draw(self, winner: int) -> None:
        """Both draw, the winner first; the last card drawn is the turned one."""
        stock = self.hands
        card = self._stock.pop()
        stock[winner] |= 1 << card
        card = self._stock.pop()
        stock[1 - winner] |= 1 << card
        if not self._stock:
            # Seed 000 line 127: the loser takes the turned card (known
            # to both, R8); no more melds; follow and beat from now on.
            self._shown[1 - winner] |= 1 << card
            self._set_duties(BEAT_LED)
        self.to_act = winner
        self._legal = None

    def _finish_deal(self) -> None:
        self._final_trick = self._tricks[-1]
        scores = (self._points[0], self._points[1])
        self._deal_scores += (scores,)
        self._totals = (self._totals[0] + scores[0], self._totals[1] + scores[1])
        if max(self._totals) >= self._target:
            # R1: the match ends after the deal in which a seat reaches the target.
            self._end_match()
        else:
            self.deal += 1
            self._start_deal()

    # -- the contract ---------------------------------------------------------

    def result(self) -> Result:
        """Totals per seat; ``deal_points[k]`` is each seat's points of deal k."""
        return Result.from_scores(self._totals, (0, 1), list(self._deal_scores))

    def phase(self) -> str:
        """``"stock"``, ``"meld"``, ``"final"`` or ``"over"`` (see the view)."""
        if self._over:
            return "over"
        if self._melding:
            return "meld"
        return "stock" if self._stock else "final"

    def view(self, seat: int) -> BeziqueView:
        """What ``seat`` knows now.

        Built without the dataclass ``__init__`` (as klaverjassen's view is):
        the new instance's dict is filled in field order. The ``shown`` field is
        rebuilt only when the shown cards or their histories change.
        """
        hands = self.hands
        key = (self._shown[0] & hands[0], self._shown[1] & hands[1], self._version)
        if key != self._shown_key:
            self._shown_key = key
            history = self._history
            kinds = self._kinds
            self._shown_view = tuple(
                tuple(
                    (
                        _CARDS[c],
                        tuple(k.name for k in kinds if history.get(c, 0) & k.bit),
                    )
                    for c in iter_bits(mask)
                )
                for mask in key[:2]
            )
        to_act = self.to_act
        stock = self._stock
        view = _new_view(BeziqueView)
        view.__dict__.update(
            seat=seat,
            legal_actions=self.legal_actions() if seat == to_act else (),
            deal=self.deal,
            dealer=self.dealer,
            to_act=to_act,
            phase="over"
            if self._over
            else "meld"
            if self._melding
            else "stock"
            if stock
            else "final",
            trump=SUITS[self.trump],
            turned=_CARDS[stock[0]] if stock else None,
            stock=len(stock),
            hand=_NAMES(hands[seat]),
            hand_sizes=(hands[0].bit_count(), hands[1].bit_count()),
            shown=self._shown_view,
            melds=self._melds,
            trick=self._trick_view,
            tricks=self._tricks,
            points=(self._points[0], self._points[1]),
            deal_scores=self._deal_scores,
            scores=self._totals,
        )
        return view

    def clone(self) -> BeziqueState:
        """An independent copy (the mutable containers copied, the rest shared)."""
        twin = super().clone()
        twin._stock = self._stock[:]
        twin._shown = self._shown[:]
        twin._history = dict(self._history)
        twin._best = dict(self._best)
        twin._points = self._points[:]
        return twin

    def deck(self) -> tuple[str, ...]:
        """The 64 cards of two piquet packs."""
        return _CARDS

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """Hands (hidden part and shown part), stock, turned card, trick, won piles."""
        places: dict[str, tuple[str, ...]] = {}
        for s in (0, 1):
            places[f"hand:{s}"] = _NAMES(self.hands[s] & ~self._shown[s])
            places[f"shown:{s}"] = _NAMES(self.hands[s] & self._shown[s])
        stock = self._stock
        places["stock"] = _NAMES(sum(1 << c for c in stock[1:]))
        places["turned"] = (_CARDS[stock[0]],) if stock else ()
        places["trick"] = tuple(_CARDS[c] for c in self._trick)
        for s, won in enumerate(self.won_cards()):
            places[f"won:{s}"] = _NAMES(won)
        return places

    def hidden_from(self, seat: int) -> frozenset[str]:
        """The other seat's hidden cards and the stock under the turned card."""
        return frozenset({f"hand:{1 - seat}", "stock"})

    # -- for people -------------------------------------------------------------

    def narrate(self, action: str) -> list[str]:
        """Apply ``action`` and tell it: cards, tricks, melds on the table, scores."""
        seat, deal = self.to_act, self.deal
        n_tricks, n_melds = len(self._tricks), len(self._melds)
        stock_before = len(self._stock)
        melding = self._melding
        trick = self._trick_view
        seven = _CARDS[face("7", self.trump) * 2]
        first = deal == 0 and stock_before == 48 and not n_tricks and not trick
        opening = self.opening_line() if first else ""
        self.apply(action)
        new_deal = self.deal != deal or self._over
        lines: list[str] = []
        if first:
            lines.append(opening)  # the match's first card: say what is turned
        if melding:
            if action == PASS:
                lines.append(f"seat {seat} declares nothing")
            else:
                _, kind, cards, pts = self._melds[n_melds]
                if kind == DIX:
                    lines.append(
                        f"seat {seat}: dix, {cards[0]} for the turned {cards[1]}, "
                        f"{pts} points"
                    )
                else:
                    lines.append(
                        f"seat {seat} declares {kind} ({' '.join(cards)}) for {pts}"
                    )
                assert seat is not None
                shown = self.hands[seat] & self._shown[seat]
                lines.append(
                    f"on the table before seat {seat}: {' '.join(_NAMES(shown))}"
                )
        else:
            lines.append(f"seat {seat} plays {action}")
            if new_deal or len(self._tricks) > n_tricks:
                record = self._final_trick if new_deal else self._tricks[-1]
                _, cards, winner, pts, _ = record
                line = f"seat {seat} plays {action}: trick to seat {winner} " + (
                    f"({' '.join(cards)})"
                )
                if pts:
                    line += f": {pts} points"
                for who, card in (*trick, (seat, action)):
                    if card == seven:
                        line += f"; trump 7 by seat {who}: 10"
                lines[-1] = line
        if new_deal:
            a, b = self._deal_scores[-1]
            lines.append(
                f"deal {deal} scores {a}-{b}; match {self._totals[0]}-{self._totals[1]}"
            )
            if self._over:
                a, b = self._totals
                lines.append(
                    "match over: a draw"
                    if a == b
                    else f"match over: seat {0 if a > b else 1} wins {a}-{b}"
                )
            else:
                lines.append(self.opening_line())
            return lines
        if stock_before > len(self._stock):
            if self._stock:
                lines[-1] += f"; both draw, {len(self._stock)} left in the stock"
            else:
                lines.append(
                    "the stock is empty; open cards back to hand: follow suit and "
                    "beat from now on"
                )
        if self._melding:
            lines.append(f"seat {self.to_act} may declare: {', '.join(self._options)}")
        return lines

    def opening_line(self) -> str:
        """The line that opens the current deal (for narration)."""
        line = (
            f"deal {self.deal}: dealer seat {self.dealer}, turned "
            f"{_CARDS[self._stock[0]]}, {SUITS[self.trump]} trump"
        )
        if self._points[self.dealer]:
            line += "; the turned 7 scores 10 for the dealer"
        return line

    # -- construction for tests and sampling -------------------------------------

    @classmethod
    def from_cards(
        cls,
        game: Bezique,
        hands: Sequence[str],
        stock: Sequence[str],
        *,
        deal: int = 0,
        seed: int = 0,
    ) -> BeziqueState:
        """A state at the first card of deal ``deal``, for worked examples.

        ``hands`` are two strings of 8 cards (seat 0 first); ``stock`` is the
        stock in drawing order, its last card the turned one. Cards not named
        anywhere are left out of the deal (a short stock makes a short example).
        """
        state = object.__new__(cls)
        state._blank(game, seed)
        state.deal = deal
        state.dealer = (deal + 1) % 2
        masks = [BEZIQUE.mask(h.split()) for h in hands]
        rest = BEZIQUE.full & ~(masks[0] | masks[1])
        order: list[int] = []
        for name in stock:
            copies = rest & BEZIQUE.face_masks[BEZIQUE.index[name] // 2]
            card = (copies & -copies).bit_length() - 1
            rest ^= 1 << card
            order.append(card)
        state._setup(masks, [order[-1], *reversed(order[:-1])], deal % 2)
        return state


# -- the game -------------------------------------------------------------------


class Bezique(Game):
    """Bezique for two: 64 cards, a turned trump, one combination per trick won."""

    name = "bezique"
    title = "Bezique (2 players, 64 cards)"
    seat_counts = frozenset({2})
    check_options = {"target": 500}  # noqa: RUF012 - two or three deals
    option_specs = (
        Option(
            "variant",
            "standard",
            doc=(
                "'standard': the bezique is J of diamonds + Q of spades; "
                "'klaverjas-hartendame': J of clubs + Q of hearts when diamonds or "
                "spades is trump (seed 000 line 139)"
            ),
            choices=("standard", "klaverjas-hartendame"),
        ),
        Option(
            "target",
            1000,
            doc="the match ends after the deal in which a seat reaches this total (R1)",
            minimum=1,
        ),
    )

    def new_match(self, n_seats: int, seed: int) -> BeziqueState:
        """The first deal of a match for two, dealt from ``seed``."""
        self.check_seats(n_seats)
        return BeziqueState(self, seed)

    def sampler(self, view: View) -> BeziqueSampler:
        """The worlds behind ``view`` (R9): read once, sampled cheaply."""
        if not isinstance(view, BeziqueView):
            raise TypeError(f"bezique samples from a BeziqueView, not {view!r}")
        return BeziqueSampler(self, view)


class BeziqueSampler(Sampler):
    """Full States consistent with one seat's view (R9).

    Public: the trick play, the turned card, each seat's shown cards and their
    histories, the declarations, the scores. Hidden: the other seat's unshown
    cards and the stock under the turned card; the unseen cards are dealt over
    those two places uniformly (no duty binds the stock phase, and in the final
    phase the stock is empty, so the other hand is every unseen card).
    """

    def __init__(self, game: Bezique, view: BeziqueView) -> None:
        state = object.__new__(BeziqueState)
        state._blank(game, 0)
        state.deal = view.deal
        state.dealer = view.dealer
        state.trump = SUITS.index(view.trump)
        state._kinds = bezique_kinds(state.trump, state._hartendame)
        state._kind_needs = _needs(state._kinds)
        state._over = view.phase == "over"
        state._deal_scores = view.deal_scores
        state._totals = view.scores
        state._points = list(view.points)
        state._melds = view.melds
        final = view.phase == "final"
        # The kit gives the cards shown in tricks the lowest free copies.
        public = state._restore_tricks(
            _TABLES[state.trump], BEAT_LED if final else FREE_PLAY, view.tricks,
            view.trick,
        )  # fmt: skip
        taken = public.seen
        index = BEZIQUE.index
        masks = BEZIQUE.face_masks
        free = BEZIQUE.full & ~taken
        me, other = view.seat, 1 - view.seat
        hands = [0, 0]
        # Shown cards first (with their histories), then the rest of this hand.
        bits = {k.name: k for k in state._kinds}
        for s, shown in enumerate(view.shown):
            for name, kinds in shown:
                copies = free & masks[index[name] // 2]
                card = (copies & -copies).bit_length() - 1
                free ^= 1 << card
                hands[s] |= 1 << card
                state._shown[s] |= 1 << card
                if kinds:
                    state._history[card] = sum(bits[k].bit for k in kinds)
                    state._best[card] = max(bits[k].value for k in kinds)
        unshown = Counter(view.hand)
        unshown.subtract(name for name, _ in view.shown[me])
        for name, n in unshown.items():
            for _ in range(n):
                copies = free & masks[index[name] // 2]
                card = (copies & -copies).bit_length() - 1
                free ^= 1 << card
                hands[me] |= 1 << card
        turned = -1
        if view.turned is not None:
            copies = free & masks[index[view.turned] // 2]
            turned = (copies & -copies).bit_length() - 1
            free ^= 1 << turned
        state.hands = hands
        state._melding = view.phase == "meld"
        state._playing = view.phase in ("stock", "final")
        state.to_act = view.to_act
        self._state = state
        self._me, self._other = me, other
        self._turned = turned
        self._in_hand = view.hand_sizes[other] - len(view.shown[other])
        self._in_stock = max(view.stock - 1, 0)
        self._dealer = ConstrainedDealer(
            list(iter_bits(free)), [0, 0], [self._in_hand, self._in_stock]
        )
        if len(view.hand) != hands[me].bit_count():
            raise ValueError(
                f"the view's hand {view.hand} does not fit its shown cards"
            )

    def sample(self, rng: random.Random) -> BeziqueState:
        """A world: the hidden cards dealt, the stock's order and later seeds drawn."""
        state = self._state.clone()
        state.seed = rng.getrandbits(64)
        hand, stock = self._dealer.sample(rng)
        state.hands[self._other] |= hand
        order = list(iter_bits(stock))
        rng.shuffle(order)
        state._stock = [self._turned, *order] if self._turned >= 0 else []
        if state._melding:
            seat = state.to_act
            assert seat is not None
            state._options = state._meld_options(seat)
        state._legal = None
        return state
