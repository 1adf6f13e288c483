"""The skart and the seats that sit a deal out, shared by the jass games that
have them: Klaverjassen for 3 and Kleintje Klaverjas (seed 004 lines 1-75).

Both lay a few cards face down in the middle (the *skart*) that the player
(the bidder who won) may take into his hand before laying as many back; he
names trump; the winner of the last trick wins the skart's cards. Both can
have seats that sit a deal out: the dealer in Klaverjassen for 3 played by
four (line 34), the eliminated players in Kleintje Klaverjas (line 27).

Representation: as in :mod:`games.jass.klaverjassen` (cards are
:data:`games.cards.PIQUET` indices, hands int masks). The seats playing a
deal are :attr:`SkartState.active`, voorhand first; the trick engine skips
the others (:meth:`SkartState._set_active`). Cards not dealt lie in
:attr:`SkartState.stock`, seen by no one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.cards import PIQUET, CardMask
from games.jass.klapper import SUIT_ACTIONS  # naming trump, C D H S
from games.jass.klaverjassen import PASS, PLAY, TRUMP_TABLES
from games.sampling import ConstrainedDealer
from games.tricks import ROTTERDAM, TrickState

__all__ = [
    "DISCARD",
    "LEAVE",
    "PASS",
    "PLAY",
    "SKART",
    "SUIT_ACTIONS",
    "TAKE",
    "TRUMP",
    "HiddenCards",
    "SkartState",
    "deal_prefix",
]

TAKE, LEAVE = "take", "leave"
#: The phases of the skart, in order (the games add their own before and after).
SKART, TRUMP, DISCARD = "skart", "trump", "discard"


def deal_prefix(rng: random.Random, count: int) -> list[int]:
    """The first ``count`` cards of a uniformly shuffled piquet pack.

    A Fisher-Yates shuffle stopped after ``count`` steps: Kleintje Klaverjas
    often deals a dozen cards of 32, and a deal is shuffled every 15 or so
    decisions. ``randrange`` is inlined (as CPython's ``_randbelow``).
    """
    getrandbits = rng.getrandbits
    order = list(range(32))
    for i in range(count):
        n = 32 - i
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        j += i
        order[i], order[j] = order[j], order[i]
    return order[:count]


class SkartState(TrickState):
    """The skart, naming trump and seats sitting out; a game's State adds its
    dealing, bidding, view and scoring.

    The player's turn after the bidding: ``take`` or ``leave`` the skart
    (skipped when it is empty), then a suit (``clubs`` ... ``spades``), then,
    if he took it, as many cards as it held, one action each (the card's
    name). Then voorhand leads (:meth:`_start_play`).
    """

    #: The seats playing this deal, voorhand first.
    active: tuple[int, ...]
    #: The cards in the skart now.
    skart: CardMask
    #: How many cards the skart holds this deal.
    skart_size: int
    #: The cards dealt to no one (Kleintje Klaverjas), seen by no one.
    stock: CardMask
    #: Whether the skart lies face up (Kleintje's dealer may choose so).
    skart_open: bool
    #: The cards that lay face up in the skart when dealt (empty if closed).
    open_skart: CardMask
    #: The seat that plays (the winning bidder), -1 while bidding.
    player: int
    #: The trump suit, -1 until named.
    trump: int
    #: True / False once the player has taken / left the skart, else None.
    took: bool | None
    #: The phase: a game's own, or SKART, TRUMP, DISCARD, "play".
    phase: str

    def _set_active(self, seats: tuple[int, ...]) -> None:
        """Play this deal with ``seats`` only (voorhand first): the trick
        engine passes from each to the next and a trick has one card each."""
        self.active = seats
        nxt = list(self._next_seat)
        for i, seat in enumerate(seats):
            nxt[seat] = seats[(i + 1) % len(seats)]
        self._next_seat = tuple(nxt)
        self._trick_size = len(seats)

    def _clear_skart(self) -> None:
        """A new deal: no player, no trump, the skart untouched."""
        self.player = -1
        self.trump = -1
        self.took = None

    # -- the player's turn with the skart ---------------------------------------

    def _open_skart_phase(self, player: int) -> None:
        """``player`` won the bidding: his turn to take the skart (if any)."""
        self.player = player
        self.to_act = player
        self.phase = SKART if self.skart_size else TRUMP
        self._legal = None

    def _skart_actions(self) -> tuple[str, ...] | None:
        """The legal actions of the skart phases, or None in another phase."""
        phase = self.phase
        if phase == SKART:
            return (TAKE, LEAVE)
        if phase == TRUMP:
            return SUIT_ACTIONS
        if phase == DISCARD:
            return PIQUET.names(self.hands[self.player])
        return None

    def _apply_skart(self, action: str) -> bool:
        """Apply a skart-phase action; False when ``action`` is not one."""
        phase = self.phase
        if phase not in (SKART, TRUMP, DISCARD):
            return False
        if action not in self._skart_actions():  # type: ignore[operator]
            self._bad_action(action)
        self._legal = None
        if phase == SKART:
            self.took = action == TAKE
            if self.took:
                self.hands[self.player] |= self.skart
                self.skart = 0
            self.phase = TRUMP
        elif phase == TRUMP:
            self.trump = SUIT_ACTIONS.index(action)
            if self.took:
                self.phase = DISCARD
            else:
                self._start_play()
        else:
            card = 1 << PIQUET.index[action]
            self.hands[self.player] ^= card
            self.skart |= card
            if self.skart.bit_count() == self.skart_size:
                self._start_play()
        return True

    def _start_play(self) -> None:
        """Rotterdam duties (seed lines 22, 60); voorhand leads the first trick."""
        self.phase = "play"
        self._begin_tricks(TRUMP_TABLES[self.trump], ROTTERDAM, self.active[0])

    def skart_points(self) -> int:
        """The card points in the skart with this deal's trump."""
        points = TRUMP_TABLES[self.trump].points
        total = 0
        skart = self.skart
        while skart:
            low = skart & -skart
            total += points[low.bit_length() - 1]
            skart ^= low
        return total

    # -- where the cards are ----------------------------------------------------

    def skart_known_to(self, seat: int) -> CardMask:
        """The skart's cards that ``seat`` knows lie there now."""
        if seat == self.player and self.took:
            return self.skart  # he laid them back himself
        if self.skart_open and not self.took:
            return self.skart
        return 0

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """The engine's places, the skart and the undealt stock."""
        places = dict(super().card_locations())
        places["skart"] = PIQUET.names(self.skart)
        places["stock"] = PIQUET.names(self.stock)
        return places

    def hidden_from(self, seat: int) -> frozenset[str]:
        """Other hands, the stock, and the skart unless ``seat`` knows it."""
        hidden = set(super().hidden_from(seat)) | {"stock"}
        if self.skart_known_to(seat) != self.skart:
            hidden.add("skart")
        return frozenset(hidden)


class HiddenCards:
    """The cards one seat cannot see, dealt over the places hidden from it:
    the other hands, the skart unless the seat knows it, the stock.

    Uniform over the consistent deals (voids shown by the play, cards known
    to lie in a hand) by :class:`games.sampling.ConstrainedDealer`, with one
    exception: the cards of an open skart that the player took lie in his hand
    or back in the skart; which of them lie where is drawn first (the number
    in the skart uniformly among the possible ones, then which), and the rest
    is uniform given that draw.

    :param hidden: the cards to deal (every card the seat has not seen and
        cannot place, ``loose`` excluded).
    :param seats: the other seats with a hidden hand; ``sizes`` and
        ``forbidden`` their unknown cards' number and proven voids.
    :param skart_size: unknown cards in the skart (0: the seat knows it).
    :param stock_size: cards in the stock.
    :param loose: open skart cards now in the player's hand or the skart.
    :param player: the player's position in ``seats`` (for ``loose``).
    """

    def __init__(
        self,
        hidden: CardMask,
        seats: list[int],
        sizes: list[int],
        forbidden: list[CardMask],
        skart_size: int,
        stock_size: int,
        *,
        loose: CardMask = 0,
        player: int = -1,
    ) -> None:
        self.seats = seats
        self._hidden = [c for c in range(32) if hidden >> c & 1]
        self._sizes = sizes
        self._forbidden = [*forbidden, 0, 0]
        self._skart_size = skart_size
        self._stock_size = stock_size
        self._loose = loose
        self._player = player
        self._dealers: dict[int, ConstrainedDealer] = {}
        self._splits: list[int] = [0]
        if loose:
            n = loose.bit_count()
            must = (loose & forbidden[player]).bit_count()
            room = sizes[player]
            self._splits = [
                k for k in range(must, min(n, skart_size) + 1) if n - k <= room
            ]

    def _dealer(self, in_skart: int) -> ConstrainedDealer:
        dealer = self._dealers.get(in_skart)
        if dealer is None:
            sizes = self._sizes[:]
            if self._loose:
                sizes[self._player] -= self._loose.bit_count() - in_skart
            dealer = ConstrainedDealer(
                self._hidden,
                self._forbidden,
                [*sizes, self._skart_size - in_skart, self._stock_size],
            )
            self._dealers[in_skart] = dealer
        return dealer

    def sample(self, rng: random.Random) -> tuple[list[CardMask], CardMask, CardMask]:
        """``(hands of seats, skart cards, stock)`` for one world."""
        in_skart = rng.choice(self._splits)
        *hands, skart, stock = self._dealer(in_skart).sample(rng)
        loose = self._loose
        if loose:
            cards = [c for c in range(32) if loose >> c & 1]
            blocked = loose & self._forbidden[self._player]
            rng.shuffle(cards)
            # The blocked cards (the player cannot hold them) go to the skart.
            cards.sort(key=lambda c: not blocked >> c & 1)
            for c in cards[:in_skart]:
                skart |= 1 << c
            for c in cards[in_skart:]:
                hands[self._player] |= 1 << c
        return hands, skart, stock
