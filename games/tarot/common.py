"""What the tarot games share: the pack, card points, the duties, the excuse.

Rule texts: ``seeds/000`` line 331 (Maison Tarot) and line 296 (La Rigueur);
the rules as implemented and every ruling are in ``games/tarot/RULES.md``
(cited here as R1, R2, ...).

Play is counter-clockwise in the texts; seats are numbered in playing order,
so the dealer of deal ``k`` is seat ``(k - 1) % n`` and voorhand (right of the
dealer, the next seat to play) is seat ``k % n`` (R1).

The excuse (``EX``, seed 000 line 356) may be played instead of any card and
never wins; the engine (:class:`games.tricks.TrickRules` with ``excuse``)
does that. What happens after the trick is this module's: the excuse goes back
to its player's won cards and he owes the trick's winner a blank card, given
at once if he has won one, else as soon as he wins one, else at the end of
the deal a point card, or the excuse itself when he won nothing else (R3-R6).
:class:`TarotState` keeps each seat's won cards after these exchanges.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Self

from games.cards import TAROT, CardMask, field_names, iter_bits
from games.sampling import ConstrainedDealer
from games.tricks import Duties, TrickRecord, TrickRules, TrickState, TrickTables
from harness import ActionKind, Sampler, View
from harness.contracts.seeding import deal_rng
from harness.contracts.view import new_view, pin_fields
from harness.match.narration import match_over_line

__all__ = [
    "BLANK",
    "CARD_MOVE",
    "EXCUSE",
    "POINTS",
    "RULES",
    "TAROT_DUTIES",
    "TarotSampler",
    "TarotState",
    "TarotView",
    "card_points",
    "excuse_settlement",
    "tables_of",
    "won_piles",
]

#: Playing a card, the move of every tarot game, for its reference page.
CARD_MOVE = ActionKind(
    "<card>",
    TAROT.pattern(),
    "play this card to the trick (1C ... KS, 1T ... 21T, EX)",
)
#: Card points by rank (seed 000 lines 362-367); the excuse and 21T, 1T apart.
PLAIN_POINTS = {"K": 4, "Q": 3, "N": 2, "J": 1}
#: How the cards rank and score: suits K Q N J 10 ... 1 (the deck's index
#: order), trumps 21T high to 1T low, the excuse never wins (seed 000 line 351).
RULES = TrickRules(
    TAROT,
    plain_points=PLAIN_POINTS,
    trump_points={"21": 4, "1": 4},
    extra_points={"EX": 5},
    excuse="EX",
)
#: Follow suit; if void, trump; no duty to over-trump (seed 000 lines 351, 354).
TAROT_DUTIES = Duties(must_overtrump=False)
#: The trump suit's number in :data:`TAROT` (C D H S T).
TRUMPS = 4
SPADES = 3
EXCUSE: CardMask = RULES.excuse_mask
_EX = EXCUSE.bit_length() - 1
#: Each card's points (the tables' points do not depend on the trump tiers).
POINTS: tuple[int, ...] = RULES.tables(TRUMPS).points
#: The cards worth nothing: what the excuse's player gives back (R3).
BLANK: CardMask = sum(1 << c for c, p in enumerate(POINTS) if p == 0)
FULL: CardMask = TAROT.full
#: The red suits (diamonds, hearts) by deck number.
RED_SUITS = (1, 2)
#: Red suits in Maison Troggen and Triomphe Forcee, weakest first: 10 ... 1 J N
#: Q K (seed 000 line 155 and line 211).
RED_REVERSED = ("10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "J", "N", "Q", "K")


@cache
def tables_of(
    tiers: tuple[int, ...],
    red_reversed: bool = False,
    points: tuple[int, ...] | None = None,
) -> TrickTables:
    """The trick tables for trump ``tiers``; with ``red_reversed`` the red suits
    rank K Q N J 1 2 ... 10 (the older games), the black suits as usual; with
    ``points`` the cards score those values in the trick records."""
    tables = RULES.tables(*tiers)
    if points is not None:
        tables = replace(tables, points=points, leads={})
    if not red_reversed:
        return tables
    beats = list(tables.beats)
    for suit in RED_SUITS:
        cards = [TAROT.index[r + "DH"[suit - 1]] for r in RED_REVERSED]
        for i, b in enumerate(cards):
            higher = tables.above[suit]
            for c in cards[i + 1 :]:
                higher |= 1 << c
            beats[b] = higher
    return replace(tables, beats=tuple(beats), leads={})


def _hand_namer() -> Callable[[CardMask], tuple[str, ...]]:
    """Names of a mask of the 78 cards in six look-ups of 13 bits (a view names
    a hand at every decision; the deck's own namer loops over ten bytes)."""
    tables = [field_names(TAROT.cards, base, 13) for base in range(0, 78, 13)]
    t0, t1, t2, t3, t4, t5 = tables

    def names(mask: CardMask) -> tuple[str, ...]:
        return (
            t0[mask & 8191]
            + t1[mask >> 13 & 8191]
            + t2[mask >> 26 & 8191]
            + t3[mask >> 39 & 8191]
            + t4[mask >> 52 & 8191]
            + t5[mask >> 65]
        )

    return names


#: The names of a mask of tarot cards, in deck order.
hand_names = _hand_namer()


def card_points(mask: CardMask) -> int:
    """The card points of the cards in ``mask``."""
    return sum(POINTS[c] for c in iter_bits(mask))


def cheapest(mask: CardMask) -> int:
    """The card of ``mask`` worth fewest points (lowest index among equals)."""
    return min(iter_bits(mask), key=lambda c: (POINTS[c], c))


def excuse_settlement(won: CardMask) -> int:
    """The card a seat owing a blank gives from its won cards ``won``.

    A blank card if it has one (R3: the lowest in deck order, since every
    blank is worth the same); else, at the end of the deal, the point card
    worth least (R5); else the excuse itself (R6, seed 000 line 356).
    """
    blank = won & BLANK
    if blank:
        return (blank & -blank).bit_length() - 1
    others = won & ~EXCUSE
    return cheapest(others) if others else _EX


@dataclass(frozen=True)
class TarotView(View):
    """What one seat knows: its hand, this deal's tricks and excuse exchanges,
    the scores (R9). The undealt cards are seen by nobody."""

    #: Index of the current deal, from 0.
    deal: int
    #: The dealer's seat; voorhand (who leads) is the next seat.
    dealer: int
    #: The seat to act, or ``None`` when the match is over.
    to_act: int | None
    #: This seat's cards in deck order (C D H S 1..K, trumps 1T..21T, EX).
    hand: tuple[str, ...]
    #: The trick on the table: ``(seat, card)`` in play order.
    trick: tuple[tuple[int, str], ...]
    #: This deal's finished tricks: ``(leader, cards, winner, points, 0)``;
    #: ``points`` are the cards' points as they fell, excuse included.
    tricks: tuple[TrickRecord, ...]
    #: This deal's excuse exchanges: ``(from seat, to seat, card)`` (R3-R6).
    exchanges: tuple[tuple[int, int, str], ...]
    #: ``(debtor, creditor)`` while the excuse's blank card is owed, else ``None``.
    debt: tuple[int, int] | None
    #: Each finished deal's scores per seat.
    deal_scores: tuple[tuple[int, ...], ...]
    #: The match totals per seat (points, or net chips in a game of stakes).
    scores: tuple[int, ...]


pin_fields(
    TarotView,
    "seat legal_actions deal dealer to_act hand trick tricks exchanges debt"
    " deal_scores scores",
)


class TarotState(TrickState):
    """The card play of a tarot deal with the excuse's exchange; games subclass it.

    A subclass sets :attr:`hand_size` and :attr:`tiers` in :meth:`_setup`,
    scores a finished deal in :meth:`_score_deal` and says when the match ends
    in :meth:`_match_over`.
    """

    #: Cards dealt to each seat.
    hand_size: int
    #: The trump tiers, highest first: ``(4,)`` trumps, ``(4, 3)`` La Rigueur.
    tiers: tuple[int, ...]
    #: Each seat's won cards after the excuse's exchanges (R3-R6).
    won: list[CardMask]
    #: Whether the red suits rank K Q N J 1 ... 10 (Troggen, Triomphe Forcee).
    red_reversed: bool = False
    #: Whether the excuse's player owes the trick's winner a card (R3); without
    #: card points (Triomphe Forcee) the excuse just goes back to its player.
    excuse_exchange: bool = True
    #: Each card's value in the trick records; ``None``: :data:`POINTS`.
    card_values: tuple[int, ...] | None = None
    #: Whether narration gives a trick's card points (the family's values; off
    #: where a game counts otherwise or not at all).
    narrate_points: bool = True
    #: What the match totals count, as the last line names them.
    totals_word: str = "scores"
    #: The cards nobody was dealt this deal.
    undealt: CardMask

    def _blank(self, game: object, n_seats: int, seed: int) -> None:
        """Every attribute at the start of a match, before deal 0 is dealt."""
        self.game = game  # type: ignore[assignment]
        self.n_seats = n_seats
        self.seed = seed
        self.deal = 0
        self.dealer = n_seats - 1
        self.to_act = 0
        self._use_rules(RULES, n_seats)
        self._over = False
        self.won = [0] * n_seats
        self.undealt = 0
        self.debt: tuple[int, int] | None = None
        self.exchanges: tuple[tuple[int, int, str], ...] = ()
        self.deal_scores: tuple[tuple[int, ...], ...] = ()
        self.totals: tuple[int, ...] = (0,) * n_seats
        #: Each deal this State played: its tricks and excuse exchanges.
        self.history: list[
            tuple[tuple[TrickRecord, ...], tuple[tuple[int, int, str], ...]]
        ] = []
        self._setup()

    def _setup(self) -> None:
        """Read the game's options into :attr:`hand_size` and :attr:`tiers`."""
        raise NotImplementedError

    @property
    def table(self) -> TrickTables:
        """The trick tables of this game's trump tiers."""
        return tables_of(self.tiers, self.red_reversed, self.card_values)

    def _deal_sizes(self) -> list[int]:
        """How many cards each seat is dealt (the dealer of deal ``self.deal``
        is seat ``(deal - 1) % n``)."""
        return [self.hand_size] * self.n_seats

    def _start_deal(self) -> None:
        """Shuffle deal ``self.deal`` from the match seed alone and open play."""
        n, k = self.n_seats, self.deal
        order = TAROT.shuffled(deal_rng(self.seed, k))
        self._reset_tricks(n)
        hands = []
        at = 0
        for size in self._deal_sizes():
            mask = 0
            for c in order[at : at + size]:
                mask |= 1 << c
            at += size
            hands.append(mask)
        self.hands = hands
        self.undealt = FULL & ~sum(hands)
        self._open_deal()

    def _open_deal(self) -> None:
        """Clear the deal's piles, then what comes before the play."""
        n, k = self.n_seats, self.deal
        self.dealer = (k - 1) % n
        self.won = [0] * n
        self.debt = None
        self.exchanges = ()
        self._before_play()

    def _before_play(self) -> None:
        """What happens between the deal and the first lead (a discard,
        declarations); by default nothing: play starts."""
        self._begin_play()

    def _begin_play(self) -> None:
        """Voorhand (R1) leads the first trick."""
        self._begin_tricks(self.table, TAROT_DUTIES, self.deal % self.n_seats)

    # -- after a trick ---------------------------------------------------------

    def _trick_complete(self) -> None:
        leader = self._leader
        cards = self._trick
        mask = 0
        excuse_seat = -1
        for i, c in enumerate(cards):
            mask |= 1 << c
            if c == _EX:
                excuse_seat = (leader + i) % self.n_seats
        record = self._close_trick()
        winner = record[2]
        won = self.won
        if excuse_seat >= 0 and excuse_seat != winner and not self.excuse_exchange:
            won[winner] |= mask & ~EXCUSE
            won[excuse_seat] |= EXCUSE
        elif excuse_seat >= 0 and excuse_seat != winner:
            # R3: the excuse goes back to its player, who owes the winner a blank.
            won[winner] |= mask & ~EXCUSE
            won[excuse_seat] |= EXCUSE
            self.debt = (excuse_seat, winner)
        else:
            won[winner] |= mask
        if self.debt is not None and won[self.debt[0]] & BLANK:
            self._pay_debt()  # R4: at once, or as soon as the debtor has a blank
        if self.hands[leader]:
            self.to_act = winner
        else:
            if self.debt is not None:
                self._pay_debt()  # R5, R6: at the end, a point card or the excuse
            self._finish_deal()

    def _pay_debt(self) -> None:
        assert self.debt is not None
        debtor, creditor = self.debt
        card = excuse_settlement(self.won[debtor])
        self.won[debtor] ^= 1 << card
        self.won[creditor] |= 1 << card
        self.exchanges += ((debtor, creditor, TAROT.cards[card]),)
        self.debt = None

    def tricks_won(self) -> list[int]:
        """How many tricks each seat has won this deal."""
        count = [0] * self.n_seats
        for record in self._tricks:
            count[record[2]] += 1
        return count

    def _finish_deal(self) -> None:
        self.history.append((self._tricks, self.exchanges))
        scores = self._score_deal()
        self.deal_scores += (scores,)
        self.totals = tuple(t + s for t, s in zip(self.totals, scores, strict=True))
        if self._match_over():
            self._end_match()
        else:
            self.deal += 1
            if not self.halt_after_deal:
                self._start_deal()

    def _score_deal(self) -> tuple[int, ...]:
        """The finished deal's score per seat (the hands are empty)."""
        raise NotImplementedError

    def _match_over(self) -> bool:
        """Whether the match ends after the deal just scored."""
        raise NotImplementedError

    # -- the contract -----------------------------------------------------------

    def view(self, seat: int) -> TarotView:
        """What ``seat`` knows now (R9)."""
        to_act = self.to_act
        # Skips the frozen dataclass's __init__ (a view is built at every
        # decision); the fields are pinned below the class.
        view = new_view(self._view_class)
        fields = view.__dict__
        fields["seat"] = seat
        fields["legal_actions"] = self.legal_actions() if seat == to_act else ()
        fields["deal"] = self.deal
        fields["dealer"] = self.dealer
        fields["to_act"] = to_act
        fields["hand"] = hand_names(self.hands[seat])
        fields["trick"] = self._trick_view
        fields["tricks"] = self._tricks
        fields["exchanges"] = self.exchanges
        fields["debt"] = self.debt
        fields["deal_scores"] = self.deal_scores
        fields["scores"] = self.totals
        fields.update(self._view_extra(seat))
        return view

    #: The view's class (a subclass adds a game's own fields).
    _view_class: type[TarotView] = TarotView

    def _view_extra(self, seat: int) -> dict[str, Any]:
        """The fields of :attr:`_view_class` beyond :class:`TarotView`'s."""
        return {}

    def clone(self) -> Self:
        """An independent copy (the won piles copied, the rest shared)."""
        twin = super().clone()
        twin.won = self.won[:]
        twin.history = self.history[:]
        return twin

    def deck(self) -> tuple[str, ...]:
        """The 78 cards of the tarot pack."""
        return TAROT.cards

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """Hands, the undealt cards, the trick, and each seat's won cards
        after the excuse's exchanges."""
        names = TAROT.names
        places = {f"hand:{s}": names(h) for s, h in enumerate(self.hands)}
        places["undealt"] = names(self.undealt)
        places["trick"] = tuple(TAROT.cards[c] for c in self._trick)
        places.update((f"won:{s}", names(w)) for s, w in enumerate(self.won))
        places.update(self._extra_places())
        return places

    def _extra_places(self) -> dict[str, tuple[str, ...]]:
        """A game's own places (the dealer's discard)."""
        return {}

    def hidden_from(self, seat: int) -> frozenset[str]:
        """The other hands and the undealt cards (R2), and any game place the
        seat cannot see."""
        return frozenset(
            [f"hand:{s}" for s in range(self.n_seats) if s != seat]
            + ["undealt", *self._extra_hidden(seat)]
        )

    def _extra_hidden(self, seat: int) -> tuple[str, ...]:
        """The game's own places hidden from ``seat``."""
        return ()

    # -- for people ---------------------------------------------------------------

    def narrate(self, action: str) -> list[str]:
        """Apply ``action`` and tell the trick, the excuse's exchanges, the deal."""
        seat, deal = self.to_act, self.deal
        if not self._playing:
            return self._narrate_other(action)
        n_tricks, n_exchanges = len(self._tricks), len(self.exchanges)
        self.apply(action)
        lines = [f"seat {seat} plays {action}"]
        ended = self.deal != deal or self.is_over()
        tricks, exchanges = (
            self.history[-1] if ended else (self._tricks, self.exchanges)
        )
        if len(tricks) > n_tricks:
            leader, cards, winner, points, _ = tricks[-1]
            note = f" ({points} card points)" if self.narrate_points else ""
            lines.append(
                f"trick {len(tricks)} to seat {winner}: {' '.join(cards)}{note}"
            )
            if "EX" in cards:
                owner = (leader + cards.index("EX")) % self.n_seats
                lines.append(f"seat {owner} takes the excuse back to its own tricks")
        for debtor, creditor, card in exchanges[n_exchanges:]:
            lines.append(
                f"seat {debtor} gives {card} to seat {creditor} for the excuse"
            )
        if ended:
            lines += self._deal_lines(deal)
        return lines

    def _narrate_other(self, action: str) -> list[str]:
        """Apply and tell an action that is not a card played (a discard, a
        declaration)."""
        seat = self.to_act
        self.apply(action)
        return [f"seat {seat}: {action}"]

    def _deal_lines(self, deal: int) -> list[str]:
        """Lines that close deal ``deal`` and open the next (for narration)."""
        scores = self.deal_scores[-1]
        lines = [
            f"deal {deal} scores: "
            + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(scores)),
            "totals: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(self.totals)),
        ]
        if self.is_over():
            lines.append(match_over_line(self.result(), what=self.totals_word))
        else:
            lines += self.narrate_start()
        return lines

    def narrate_start(self) -> list[str]:
        """The lines that open the current deal: its dealer and voorhand, then
        what the deal shows before its first action (stakes, declarations)."""
        return [
            f"deal {self.deal}: dealer seat {self.dealer}, "
            f"voorhand seat {self.deal % self.n_seats} leads",
            *self._opening_lines(),
        ]

    def _opening_lines(self) -> list[str]:
        """What a new deal shows before its first action (stakes, declarations
        made at once), for narration."""
        return []

    # -- hooks for sampling (R10) ------------------------------------------------

    def _restore_extra(self, view: TarotView) -> None:
        """Set the game's own fields from ``view`` (a sampler's template)."""

    def _hand_counts(self, played: Sequence[int]) -> list[int]:
        """How many cards each seat holds now, given the cards it has played."""
        return [self.hand_size - p for p in played]

    def _known_in_hands(self, view: TarotView) -> list[CardMask]:
        """Cards the viewer knows are in another seat's hand (declared ones)."""
        return [0] * self.n_seats

    def _own_known(self, view: TarotView) -> CardMask:
        """Cards outside the viewer's hand whose place it knows (its discard)."""
        return 0

    def _hand_forbidden(self) -> CardMask:
        """Cards no hand can hold now (Death once play has begun)."""
        return 0

    def _hidden_extras(self, view: TarotView) -> list[tuple[int, CardMask]]:
        """The game's hidden places: ``(size, cards it cannot hold)`` each."""
        return []

    def _set_extras(self, masks: Sequence[CardMask]) -> None:
        """Fill the hidden places of :meth:`_hidden_extras` in a sample."""

    # -- construction for tests and sampling ------------------------------------

    def _place_hands(self, hands: Sequence[str]) -> None:
        """Set the hands from strings of space-separated cards (for tests)."""
        TAROT.check_deal(hands)
        masks = [TAROT.mask(h.split()) for h in hands]
        if len(masks) != self.n_seats or any(
            m.bit_count() != self.hand_size for m in masks
        ):
            raise ValueError(
                f"need {self.n_seats} hands of {self.hand_size} cards: {hands!r}"
            )
        union = 0
        for m in masks:
            union |= m
        self.hands = masks
        self.undealt = FULL & ~union


class TarotSampler(Sampler):
    """Full States consistent with one seat's view (R10).

    The view is read once: a template State holds the public tricks, the
    excuse's exchanges, the scores and the seat's own hand. The other hands
    and the undealt cards are the hidden places; the tricks prove which cards
    a seat lacks (not following suit, not trumping). Each sample clones the
    template and deals the unseen cards uniformly over the consistent deals
    (:class:`games.sampling.ConstrainedDealer`); later deals get a seed drawn
    from ``rng``.
    """

    def __init__(self, state: TarotState, view: TarotView) -> None:
        n = state.n_seats
        state.deal = view.deal
        state.dealer = view.dealer
        state.to_act = view.to_act
        state.deal_scores = view.deal_scores
        state.totals = view.scores
        state._over = view.to_act is None
        public = state._restore_tricks(
            state.table, TAROT_DUTIES, view.tricks, view.trick
        )
        state._playing = not state._over
        state.won = won_piles(n, view.tricks, view.exchanges)
        state.exchanges = view.exchanges
        state.debt = view.debt
        me = view.seat
        own = TAROT.mask(view.hand)
        state.hands = [0] * n
        state.hands[me] = own
        state._restore_extra(view)
        self._state = state
        self._others = [s for s in range(n) if s != me]
        counts = state._hand_counts(public.played)
        known = state._known_in_hands(view)
        self._known = known
        unseen = FULL & ~(public.seen | own | state._own_known(view))
        for s in self._others:
            known[s] &= ~public.seen
            unseen &= ~known[s]
        sizes = [counts[s] - known[s].bit_count() for s in self._others]
        extras = state._hidden_extras(view)
        self._n_extras = len(extras)
        sizes += [size for size, _ in extras]
        sizes.append(unseen.bit_count() - sum(sizes))
        barred = state._hand_forbidden()
        self._dealer = ConstrainedDealer(
            list(iter_bits(unseen)),
            [public.forbidden[s] | barred for s in self._others]
            + [forbid for _, forbid in extras]
            + [0],
            sizes,
        )

    def sample(self, rng: random.Random) -> TarotState:
        """A world: the template with the hidden hands, the undealt cards and
        the seed of later deals drawn."""
        state = self._state.clone()
        state.seed = rng.getrandbits(64)
        *hands, undealt = self._dealer.sample(rng)
        n_hands = len(self._others)
        for seat, mask in zip(self._others, hands[:n_hands], strict=True):
            state.hands[seat] = mask | self._known[seat]
        state._set_extras(hands[n_hands:])
        state.undealt = undealt
        return state


def won_piles(
    n_seats: int,
    tricks: Sequence[TrickRecord],
    exchanges: Sequence[tuple[int, int, str]],
) -> list[CardMask]:
    """Each seat's won cards from a deal's tricks and excuse exchanges (R3-R6)."""
    won = [0] * n_seats
    for leader, cards, winner, _, _ in tricks:
        won[winner] |= TAROT.mask(cards)
        if "EX" in cards:
            owner = (leader + cards.index("EX")) % n_seats
            won[winner] &= ~EXCUSE
            won[owner] |= EXCUSE
    for debtor, creditor, card in exchanges:
        bit = 1 << TAROT.index[card]
        won[debtor] &= ~bit
        won[creditor] |= bit
    return won
