"""Card notation and bitmask hands, shared by every family.

A card is written rank+suit: ``"JC"`` is the jack of clubs, ``"TH"`` the ten
of hearts. Suits are ``C D H S`` (klaveren, ruiten, harten, schoppen). Inside
a game a card is a small int (its index in a :class:`Deck`) and a hand is an
``int`` bitmask over those indices, so that following suit, trick winners and
meld search are a few integer operations (python-chess's bitboards).
Index = suit * len(ranks) + rank position, so each suit is one contiguous run
of bits.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import TypeAlias

from harness.errors import InvalidActionError

__all__ = [
    "FULL52",
    "PIQUET",
    "SUITS",
    "CardMask",
    "Deck",
    "iter_bits",
    "lowest_bit",
]

#: A set of cards of one :class:`Deck`, bit i set when card index i is in it.
CardMask: TypeAlias = int

SUITS = "CDHS"


def iter_bits(mask: CardMask) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def lowest_bit(mask: CardMask) -> int:
    """Index of the lowest set bit; ``mask`` must not be 0."""
    return (mask & -mask).bit_length() - 1


class Deck:
    """One pack: its cards in index order and the tables to convert them.

    :param ranks: the ranks of one suit in index order, e.g. ``"789TJQKA"``.
    """

    __slots__ = ("cards", "full", "index", "n_ranks", "ranks", "suit_masks")

    def __init__(self, ranks: str) -> None:
        self.ranks = ranks
        self.n_ranks = len(ranks)
        #: Card strings in index order.
        self.cards: tuple[str, ...] = tuple(r + s for s in SUITS for r in ranks)
        #: Card string -> index.
        self.index: dict[str, int] = {c: i for i, c in enumerate(self.cards)}
        #: The mask of every card of suit ``s`` (0..3).
        self.suit_masks: tuple[CardMask, ...] = tuple(
            ((1 << self.n_ranks) - 1) << (s * self.n_ranks) for s in range(4)
        )
        self.full: CardMask = (1 << len(self.cards)) - 1

    def __repr__(self) -> str:
        return f"Deck({self.ranks!r})"

    def __len__(self) -> int:
        return len(self.cards)

    def parse(self, card: str) -> int:
        """The index of ``card``; :class:`InvalidActionError` if no such card."""
        try:
            return self.index[card]
        except KeyError:
            raise InvalidActionError(
                f"{card!r} is not a card of this deck (ranks {self.ranks}, "
                f"suits {SUITS}, e.g. {self.cards[-1]!r})"
            ) from None

    def suit_of(self, index: int) -> int:
        """Suit number 0..3 (C D H S) of card ``index``."""
        return index // self.n_ranks

    def rank_of(self, index: int) -> int:
        """Rank position of card ``index`` in :attr:`ranks`."""
        return index % self.n_ranks

    def mask(self, cards: Iterable[str]) -> CardMask:
        """The mask of card strings (checked)."""
        m = 0
        for card in cards:
            m |= 1 << self.parse(card)
        return m

    def names(self, mask: CardMask) -> tuple[str, ...]:
        """The card strings in ``mask``, in index order."""
        cards = self.cards
        return tuple(cards[i] for i in iter_bits(mask))

    def shuffled(self, rng: random.Random) -> list[int]:
        """Every card index once, in an order drawn from ``rng``."""
        order = list(range(len(self.cards)))
        rng.shuffle(order)
        return order


#: The 32-card piquet pack (7 to ace), used by the jass and bezique families.
PIQUET = Deck("789TJQKA")
#: The 52-card pack with aces low, as rummy counts them.
FULL52 = Deck("A23456789TJQK")
