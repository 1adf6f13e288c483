"""Decks, card notation and bitmask card sets, shared by every family.

A card is written rank+suit: ``"JC"`` is the jack of clubs, ``"TH"`` the ten
of hearts, ``"10D"`` the ten of diamonds in a tarot pack, ``"21T"`` its
highest trump; a card outside every suit has a name of its own (``"EX"``, the
excuse). Suits are ``C D H S`` (klaveren, ruiten, harten, schoppen).

A :class:`Deck` is described once (its suits, the ranks of each suit in index
order, cards outside the suits, how many copies of each card) and gives a game
small-int card indices, bitmask sets over them and names. Each suit is one
contiguous run of bits, so following suit, trick winners and meld search are a
few integer operations (python-chess's bitboards); :class:`CardSet` wraps a
mask for people (python-chess's ``SquareSet``).

Double decks are multisets: every physical card has its own index, and the
copies of a card (its *face*) sit side by side, ``index = face * copies +
copy``. A hand is still an ``int`` mask; :meth:`Deck.counts` gives the multiset
view and :meth:`Deck.mask` takes repeated names as more copies.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TypeAlias

from harness.contracts.errors import InvalidActionError

__all__ = [
    "BEZIQUE",
    "FULL52",
    "PIQUET",
    "PIQUET24",
    "RUBICON",
    "SUITS",
    "SUIT_WORDS",
    "TAROT",
    "CardMask",
    "CardSet",
    "Deck",
    "field_names",
    "iter_bits",
    "lowest_bit",
]

#: A set of cards of one :class:`Deck`, bit i set when card index i is in it.
CardMask: TypeAlias = int

#: The four suits of the French pack, in index order.
SUITS = "CDHS"
#: The suits in words, in the order of :data:`SUITS`, as moves name them
#: (``"hearts"``: name hearts as trump).
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")

#: Cards named per chunk of this many index bits in :meth:`Deck.names`.
_CHUNK = 8


def iter_bits(mask: CardMask) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def lowest_bit(mask: CardMask) -> int:
    """Index of the lowest set bit; ``mask`` must not be 0."""
    return (mask & -mask).bit_length() - 1


def field_names(
    cards: Sequence[str], base: int, width: int
) -> tuple[tuple[str, ...], ...]:
    """``table[m]``: the names of the cards ``base + i`` for the bits i of ``m``,
    for every ``width``-bit ``m``: a hand named in a few look-ups of wide fields.

    Built from two narrower tables by concatenation, not bit by bit: a game
    builds its tables when troef starts, and ``troef games`` should be quick.
    """

    def bits(start: int, count: int) -> list[tuple[str, ...]]:
        return [
            tuple(cards[start + i] for i in range(count) if m >> i & 1)
            for m in range(1 << count)
        ]

    low_width = min(width, 8)
    low, high = bits(base, low_width), bits(base + low_width, width - low_width)
    mask = (1 << low_width) - 1
    return tuple(low[m & mask] + high[m >> low_width] for m in range(1 << width))


class Deck:
    """One pack: which cards it has, their indices, names and masks.

    :param suits: ``(letter, ranks)`` per suit in index order; ``ranks`` lists
        the suit's ranks in index order (a string of one-letter ranks or a
        sequence of longer ones). The order is only the indexing: what beats
        what is a game's business (:mod:`games.tricks`).
    :param extras: names of cards that belong to no suit (the tarot excuse),
        indexed after the suits.
    :param copies: how many copies of every card the pack holds.
    :param name: how :func:`repr` and error messages call the deck.
    :raises ValueError: a name repeats, a suit is empty, or ``copies < 1``.
    """

    __slots__ = (
        "cards",
        "copies",
        "extras",
        "extras_mask",
        "face_masks",
        "faces",
        "full",
        "index",
        "n_ranks",
        "name",
        "name_chunks",
        "names",
        "rank_index",
        "ranks",
        "suit_index",
        "suit_masks",
        "suit_ranks",
        "suits",
    )

    def __init__(
        self,
        suits: Sequence[tuple[str, Sequence[str]]],
        *,
        extras: Sequence[str] = (),
        copies: int = 1,
        name: str = "",
    ) -> None:
        if copies < 1:
            raise ValueError(f"a deck holds at least one copy of a card, not {copies}")
        if any(not ranks for _, ranks in suits):
            raise ValueError("every suit of a deck needs at least one rank")
        #: The suit letters in index order, e.g. ``("C", "D", "H", "S")``.
        self.suits: tuple[str, ...] = tuple(letter for letter, _ in suits)
        #: The ranks of each suit in index order.
        self.suit_ranks: tuple[tuple[str, ...], ...] = tuple(
            tuple(ranks) for _, ranks in suits
        )
        #: The ranks every suit shares (empty when the suits differ, as in tarot).
        self.ranks: tuple[str, ...] = (
            self.suit_ranks[0]
            if suits and all(r == self.suit_ranks[0] for r in self.suit_ranks)
            else ()
        )
        #: Cards per suit when the suits are alike, else 0.
        self.n_ranks = len(self.ranks)
        self.extras: tuple[str, ...] = tuple(extras)
        self.copies = copies
        self.name = name or f"{len(self.suits)}-suit deck"
        #: Every distinct card name, suits first, then the extras.
        self.faces: tuple[str, ...] = (
            tuple(
                rank + letter
                for letter, ranks in zip(self.suits, self.suit_ranks, strict=True)
                for rank in ranks
            )
            + self.extras
        )
        if len(set(self.faces)) != len(self.faces):
            raise ValueError(f"deck {self.name!r} names a card twice: {self.faces}")
        #: The name of every physical card, in index order (repeats for copies).
        self.cards: tuple[str, ...] = tuple(
            f for f in self.faces for _ in range(copies)
        )
        #: Card name -> index of its first copy.
        self.index: dict[str, int] = {f: i * copies for i, f in enumerate(self.faces)}
        #: The mask of every copy of each face.
        self.face_masks: tuple[CardMask, ...] = tuple(
            ((1 << copies) - 1) << (i * copies) for i in range(len(self.faces))
        )
        suit_masks, suit_index, rank_index = [], [], []
        start = 0
        for s, ranks in enumerate(self.suit_ranks):
            width = len(ranks) * copies
            suit_masks.append(((1 << width) - 1) << start)
            suit_index += [s] * width
            rank_index += [r for r in range(len(ranks)) for _ in range(copies)]
            start += width
        extra_width = len(self.extras) * copies
        suit_index += [-1] * extra_width
        rank_index += [r for r in range(len(self.extras)) for _ in range(copies)]
        #: The mask of every card of each suit.
        self.suit_masks: tuple[CardMask, ...] = tuple(suit_masks)
        #: The mask of the cards outside the suits.
        self.extras_mask: CardMask = ((1 << extra_width) - 1) << start
        #: Suit number of each card index; -1 for an extra.
        self.suit_index: tuple[int, ...] = tuple(suit_index)
        #: Position of each card's rank in its suit's ranks (or in the extras).
        self.rank_index: tuple[int, ...] = tuple(rank_index)
        self.full: CardMask = (1 << len(self.cards)) - 1
        #: ``name_chunks[k][b]``: the names of the cards whose bits within the
        #: k-th byte of a mask are ``b`` (at least four bytes, for hot loops that
        #: name a mask inline as :meth:`names` does).
        self.name_chunks: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
            tuple(
                tuple(
                    self.cards[k + i]
                    for i in range(_CHUNK)
                    if b >> i & 1 and k + i < len(self.cards)
                )
                for b in range(1 << _CHUNK)
            )
            for k in range(0, max(len(self.cards), 4 * _CHUNK), _CHUNK)
        )
        #: The card names in a mask, in index order (repeats for copies): a
        #: function made for this deck, as hot loops call it at every decision.
        self.names: Callable[[CardMask], tuple[str, ...]] = _namer(self.name_chunks)

    @classmethod
    def standard(
        cls, ranks: str | Sequence[str], *, copies: int = 1, name: str = ""
    ) -> Deck:
        """The four suits ``C D H S``, each with ``ranks`` in index order."""
        return cls([(s, tuple(ranks)) for s in SUITS], copies=copies, name=name)

    def __repr__(self) -> str:
        return f"<Deck {self.name}: {len(self.cards)} cards>"

    def __len__(self) -> int:
        return len(self.cards)

    def describe(self) -> str:
        """The ranks and suits in words, for error messages."""
        suits = ", ".join(
            f"{letter} ({' '.join(ranks)})"
            for letter, ranks in zip(self.suits, self.suit_ranks, strict=True)
        )
        extras = f"; and {' '.join(self.extras)}" if self.extras else ""
        copies = f"; {self.copies} copies of each" if self.copies > 1 else ""
        return f"suits {suits}{extras}{copies}"

    def pattern(self) -> str:
        """A regular expression matching one card name of the deck, whole
        (``(?:10C|...|AS)``), longest names first so ``10C`` is not ``1``."""
        names = sorted(self.faces, key=lambda name: (-len(name), name))
        return "(?:" + "|".join(re.escape(name) for name in names) + ")"

    def parse(self, card: str) -> int:
        """The index of (the first copy of) ``card``.

        :raises InvalidActionError: the deck has no such card.
        """
        try:
            return self.index[card]
        except KeyError:
            raise InvalidActionError(
                f"{card!r} is not a card of the {self.name} ({self.describe()}); "
                f"a card is rank+suit, e.g. {self.faces[0]!r}"
            ) from None

    def face_of(self, index: int) -> int:
        """The face (distinct card) number of card ``index``."""
        return index // self.copies

    def suit_of(self, index: int) -> int:
        """Suit number of card ``index`` (its place in :attr:`suits`); -1: extra."""
        return self.suit_index[index]

    def rank_of(self, index: int) -> int:
        """Position of card ``index``'s rank in its suit's ranks."""
        return self.rank_index[index]

    def rank_name(self, index: int) -> str:
        """The rank of card ``index`` as written (its whole name for an extra)."""
        suit = self.suit_index[index]
        if suit < 0:
            return self.cards[index]
        return self.suit_ranks[suit][self.rank_index[index]]

    def take(self, cards: Iterable[str], taken: CardMask = 0) -> list[int]:
        """The indices of card names in order, each the lowest copy that is not
        in ``taken`` nor taken earlier in ``cards``.

        With one copy of each card this is just :meth:`parse` of each name. In
        a multi-copy deck the copies of a card are interchangeable: a State
        rebuilt from names (a sampled world) takes them lowest first.

        :raises InvalidActionError: an unknown name, or more copies of a card
            than the deck holds.
        """
        out = []
        for card in cards:
            free = self.face_masks[self.face_of(self.parse(card))] & ~taken
            if not free:
                raise InvalidActionError(
                    f"{card!r} appears more often than the {self.copies} "
                    f"{'copy' if self.copies == 1 else 'copies'} the {self.name} holds"
                )
            low = free & -free
            taken |= low
            out.append(low.bit_length() - 1)
        return out

    def mask(self, cards: Iterable[str], taken: CardMask = 0) -> CardMask:
        """The mask of card names; a name given twice takes a second copy (and
        copies in ``taken`` are not used, see :meth:`take`)."""
        m = 0
        for index in self.take(cards, taken):
            m |= 1 << index
        return m

    def check_deal(
        self,
        hands: Sequence[str | Iterable[str]],
        rest: Mapping[str, str | Iterable[str]] | None = None,
    ) -> None:
        """Refuse a deal written by hand that names a card more often than the
        deck holds it (the worked-example constructors' one check).

        ``hands`` are the seats' cards, seat 0 first; ``rest`` maps the other
        places (``"the stock"``, ``"the skart"``) to theirs; a string is split
        on spaces. Which copy goes where is the constructor's business
        (:meth:`take` with ``taken``).

        :raises ValueError: a card named too often, with how often, where, and
            how many copies the deck holds.
        :raises InvalidActionError: an unknown card name (:meth:`parse`).
        """
        places = {f"seat {seat}": cards for seat, cards in enumerate(hands)}
        places.update(rest or {})
        named: dict[str, dict[str, int]] = {}
        for place, cards in places.items():
            for card in cards.split() if isinstance(cards, str) else cards:
                self.parse(card)
                where = named.setdefault(card, {})
                where[place] = where.get(place, 0) + 1
        for card, where in named.items():
            asked = sum(where.values())
            if asked > self.copies:
                found = ", ".join(f"{place}: {n}" for place, n in where.items())
                holds = "copy" if self.copies == 1 else "copies"
                raise ValueError(
                    f"impossible deal: {card!r} is named {asked} times ({found}); "
                    f"the {self.name} holds {self.copies} {holds} of it"
                )

    def counts(self, mask: CardMask) -> dict[str, int]:
        """How many copies of each card ``mask`` holds (cards it holds only)."""
        out: dict[str, int] = {}
        for name in self.names(mask):
            out[name] = out.get(name, 0) + 1
        return out

    def shuffled(self, rng: random.Random) -> list[int]:
        """Every card index once, in an order drawn from ``rng``.

        For a plain ``random.Random`` this is ``rng.shuffle`` written out with
        its ``_randbelow`` inlined (the same draws, the same order, about a
        third faster: games shuffle once per deal, every few dozen decisions).
        """
        order = list(range(len(self.cards)))
        if type(rng) is not random.Random:
            rng.shuffle(order)
            return order
        getrandbits = rng.getrandbits
        for i, n, k in _shuffle_steps(len(order)):
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            order[i], order[j] = order[j], order[i]
        return order


_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """``Random.shuffle``'s steps on ``size`` items: ``(i, i + 1, bits)`` for
    ``i`` from ``size - 1`` down to 1, ``bits`` being ``(i + 1).bit_length()``."""
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1)
        )
    return steps


def _namer(
    chunks: tuple[tuple[tuple[str, ...], ...], ...],
) -> Callable[[CardMask], tuple[str, ...]]:
    """A function naming the cards of a mask, one look-up per byte."""
    if len(chunks) == 4:  # up to 32 cards, the commonest packs: unrolled
        c0, c1, c2, c3 = chunks

        def names(mask: CardMask) -> tuple[str, ...]:
            return (
                c0[mask & 255]
                + c1[mask >> 8 & 255]
                + c2[mask >> 16 & 255]
                + c3[mask >> 24]
            )

        return names

    def names_long(mask: CardMask) -> tuple[str, ...]:
        out: tuple[str, ...] = ()
        k = 0
        while mask:
            out += chunks[k][mask & 255]
            mask >>= _CHUNK
            k += 1
        return out

    return names_long


class CardSet:
    """A readable, immutable set of cards over a :class:`Deck` mask.

    For tests and debugging; hot loops use the bare ``int``. Set operations
    take another CardSet of the same deck or a mask::

        >>> hand = CardSet.of(PIQUET, "JC 9C AH")
        >>> "JC" in hand, len(hand), hand & PIQUET.suit_masks[0]
        (True, 3, CardSet(PIQUET, '9C JC'))
    """

    __slots__ = ("deck", "mask")

    def __init__(self, deck: Deck, mask: CardMask = 0) -> None:
        if mask & ~deck.full:
            raise ValueError(f"mask {mask:#x} has bits outside the {deck.name}")
        self.deck = deck
        self.mask = mask

    @classmethod
    def of(cls, deck: Deck, cards: str | Iterable[str]) -> CardSet:
        """The set of ``cards``: names, or one string of space-separated names."""
        names = cards.split() if isinstance(cards, str) else cards
        return cls(deck, deck.mask(names))

    def __iter__(self) -> Iterator[str]:
        return iter(self.deck.names(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __contains__(self, card: object) -> bool:
        if isinstance(card, int):
            return bool(self.mask >> card & 1)
        if isinstance(card, str) and card in self.deck.index:
            face = self.deck.face_of(self.deck.index[card])
            return bool(self.mask & self.deck.face_masks[face])
        return False

    def _other(self, other: CardSet | CardMask) -> CardMask:
        if isinstance(other, CardSet):
            if other.deck is not self.deck:
                raise ValueError(
                    f"cannot combine cards of the {self.deck.name} and the "
                    f"{other.deck.name}"
                )
            return other.mask
        return other

    def __or__(self, other: CardSet | CardMask) -> CardSet:
        return CardSet(self.deck, self.mask | self._other(other))

    def __and__(self, other: CardSet | CardMask) -> CardSet:
        return CardSet(self.deck, self.mask & self._other(other))

    def __sub__(self, other: CardSet | CardMask) -> CardSet:
        return CardSet(self.deck, self.mask & ~self._other(other))

    def __xor__(self, other: CardSet | CardMask) -> CardSet:
        return CardSet(self.deck, self.mask ^ self._other(other))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.deck is other.deck and self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash((id(self.deck), self.mask))

    def __str__(self) -> str:
        return " ".join(self)

    def __repr__(self) -> str:
        label = _DECK_LABELS.get(id(self.deck), repr(self.deck))
        return f"CardSet({label}, {str(self)!r})"


# -- the decks of the seed texts ------------------------------------------------

_TAROT_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")

#: The 32-card piquet pack (7 to ace): jass and bezique families.
PIQUET = Deck.standard("789TJQKA", name="piquet pack")
#: The 24-card pack from 9 to ace: Klapper.
PIQUET24 = Deck.standard("9TJQKA", name="24-card pack")
#: The 52-card pack with aces low, as rummy counts them.
FULL52 = Deck.standard("A23456789TJQK", name="52-card pack")
#: Two piquet packs, 64 cards: Bezique and Fildinski.
BEZIQUE = Deck.standard("789TJQKA", copies=2, name="bezique pack")
#: Four piquet packs, 128 cards: Rubicon bezique.
RUBICON = Deck.standard("789TJQKA", copies=4, name="rubicon pack")
#: The 78-card tarot pack: four suits of 14 (1-10, J, N, Q, K), trumps 1T-21T, EX.
TAROT = Deck(
    [*((s, _TAROT_RANKS) for s in SUITS), ("T", tuple(str(n) for n in range(1, 22)))],
    extras=("EX",),
    name="tarot pack",
)

_DECK_LABELS = {
    id(PIQUET): "PIQUET",
    id(PIQUET24): "PIQUET24",
    id(FULL52): "FULL52",
    id(BEZIQUE): "BEZIQUE",
    id(RUBICON): "RUBICON",
    id(TAROT): "TAROT",
}
