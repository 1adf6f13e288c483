"""Trick-taking on card bitmasks: following suit, trick winners, trumping duties.

Shared by every trick-taking family (jass, belote, klapper, tarot). A hand is a
:data:`~games.cards.CardMask` over the card indices of a :class:`~games.cards.Deck`;
a *rank order* is a string of the deck's ranks from weakest to strongest, e.g.
``"789JQKTA"`` for the plain suits of jass and ``"78QKTA9J"`` for its trumps.

A game builds its tables once (one per possible trump suit) at import time:

- :func:`beats_table` gives, for each card ``b``, the mask of the cards that take
  the trick from ``b`` when ``b`` is the best card so far. Because the best card
  of a trick is always of the suit led or a trump, this one table answers both
  "who wins the trick" (:func:`trick_winner`) and "which trumps over-trump"
  (:func:`legal_plays`).
- :func:`points_table` gives the card points of each card under a trump.

Everything else is a pure function of ints and those tuples, so a hot loop is a
handful of ``&`` and ``|`` operations.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence

from games.cards import CardMask, Deck, iter_bits

__all__ = [
    "Undertrump",
    "beats_table",
    "deal_constrained",
    "legal_plays",
    "mask_points",
    "points_table",
    "revealed_voids",
    "strengths",
    "trick_winner",
]


class Undertrump(enum.Enum):
    """What a player void in the suit led may do when they cannot over-trump."""

    #: They must still play a (lower) trump: Rotterdam klaverjassen, belote.
    MUST = "must"
    #: Any card goes, a lower trump included.
    ALLOWED = "allowed"
    #: A lower trump only when the hand holds nothing else: Amsterdam klaverjassen.
    FORBIDDEN = "forbidden"


def strengths(deck: Deck, order: str) -> tuple[int, ...]:
    """The strength of every card of ``deck`` within its suit under ``order``.

    :param order: every rank of the deck once, weakest first.
    :raises ValueError: ``order`` is not a permutation of the deck's ranks.
    """
    if sorted(order) != sorted(deck.ranks):
        raise ValueError(
            f"rank order {order!r} is not a permutation of the deck's ranks "
            f"{deck.ranks!r}"
        )
    return tuple(order.index(deck.ranks[deck.rank_of(i)]) for i in range(len(deck)))


def beats_table(
    deck: Deck, plain: str, trump: str | None = None, trump_suit: int | None = None
) -> tuple[CardMask, ...]:
    """For each card ``b``, the cards that beat ``b`` when it leads the trick so far.

    A higher card of ``b``'s own suit beats it (ranked by ``trump`` when that suit
    is trump, else by ``plain``), and so does every trump when ``b`` is no trump.
    A card of any other suit never does.

    :param plain: the rank order of the plain suits, weakest first.
    :param trump: the rank order of the trump suit; ``None`` means ``plain``.
    :param trump_suit: suit number 0..3, or ``None`` for a game without trumps.
    """
    plain_s = strengths(deck, plain)
    trump_s = strengths(deck, trump) if trump is not None else plain_s
    table = []
    for b in range(len(deck)):
        suit = deck.suit_of(b)
        ranks = trump_s if suit == trump_suit else plain_s
        higher = 0
        for c in iter_bits(deck.suit_masks[suit]):
            if ranks[c] > ranks[b]:
                higher |= 1 << c
        if trump_suit is not None and suit != trump_suit:
            higher |= deck.suit_masks[trump_suit]
        table.append(higher)
    return tuple(table)


def points_table(
    deck: Deck,
    plain: Mapping[str, int],
    trump: Mapping[str, int] | None = None,
    trump_suit: int | None = None,
) -> tuple[int, ...]:
    """The card points of each card of ``deck`` when ``trump_suit`` is trump.

    :param plain: points by rank letter in the plain suits.
    :param trump: points by rank letter in the trump suit; ``None`` means ``plain``.
    """
    trump = plain if trump is None else trump
    return tuple(
        (trump if deck.suit_of(i) == trump_suit else plain)[deck.ranks[deck.rank_of(i)]]
        for i in range(len(deck))
    )


def mask_points(mask: CardMask, points: Sequence[int]) -> int:
    """The sum of ``points`` over the cards of ``mask``."""
    return sum(points[i] for i in iter_bits(mask))


def trick_winner(cards: Sequence[int], beats: Sequence[CardMask]) -> int:
    """The position in ``cards`` (play order, leader first) of the winning card."""
    best = 0
    for i in range(1, len(cards)):
        if beats[cards[best]] >> cards[i] & 1:
            best = i
    return best


def legal_plays(
    hand: CardMask,
    led: CardMask,
    trumps: CardMask,
    best_beats: CardMask,
    *,
    must_trump: bool = True,
    must_overtrump: bool = True,
    undertrump: Undertrump = Undertrump.MUST,
) -> CardMask:
    """The cards of ``hand`` that may be played to the trick.

    :param led: the mask of the whole suit led, or 0 when this card leads.
    :param trumps: the mask of the whole trump suit (0 in a game without trumps).
    :param best_beats: ``beats[best]`` for the best card of the trick so far
        (from :func:`beats_table`); unused when leading.
    :param must_trump: a player void in the suit led who holds a trump must play one.
    :param must_overtrump: a trump played must beat the trumps in the trick if the
        hand can; this also holds when trump is led.
    :param undertrump: what a player void in the suit led may do when no trump of
        theirs beats the trick.

    A hand that can follow suit must; when trump is led, following means playing
    a higher trump if possible. A hand void in both the suit led and trumps may
    play anything.
    """
    if not led:
        return hand
    follow = hand & led
    if follow:
        if led == trumps and must_overtrump:
            return (follow & best_beats) or follow
        return follow
    own_trumps = hand & trumps
    if not own_trumps:
        return hand
    # best_beats holds every trump while no trump is in the trick, so ``over``
    # is then all of the hand's trumps.
    over = own_trumps & best_beats
    if must_trump:
        if not must_overtrump:
            return own_trumps
        if over:
            return over
        if undertrump is Undertrump.MUST:
            return own_trumps
        if undertrump is Undertrump.ALLOWED:
            return hand
        return (hand & ~own_trumps) or own_trumps
    if undertrump is Undertrump.FORBIDDEN and must_overtrump:
        return (hand & ~(own_trumps & ~over)) or hand
    return hand


# -- what play reveals, for sampling hidden hands ------------------------------


def revealed_voids(
    leader: int,
    cards: Sequence[int],
    deck: Deck,
    beats: Sequence[CardMask],
    trump_suit: int | None,
    forbidden: list[CardMask],
    *,
    must_trump: bool = True,
    must_overtrump: bool = True,
) -> int:
    """Add to ``forbidden[seat]`` the cards one trick proves ``seat`` lacks.

    Assumes the duties of :func:`legal_plays` with ``undertrump`` MUST (the
    other policies reveal less and need their own inference). A seat that did
    not follow lacks the suit led; one that also did not trump lacks trumps
    (if ``must_trump``); one that played a trump not beating the best trump
    in the trick lacks every trump that would have (if ``must_overtrump``).

    :param cards: the trick in play order, leader first (it may be unfinished).
    :param forbidden: one mask per seat, updated in place; seats follow
        ``leader`` in order modulo ``len(forbidden)``.
    :returns: the position in ``cards`` of the best card.
    """
    n = len(forbidden)
    trumps = 0 if trump_suit is None else deck.suit_masks[trump_suit]
    led = deck.suit_of(cards[0])
    best = 0
    for i in range(1, len(cards)):
        seat, card = (leader + i) % n, cards[i]
        suit = deck.suit_of(card)
        top = beats[cards[best]]
        if suit != led:
            forbidden[seat] |= deck.suit_masks[led]
            if suit != trump_suit and must_trump:
                forbidden[seat] |= trumps
        if top >> card & 1:
            best = i
        elif suit == trump_suit and must_overtrump:
            forbidden[seat] |= top & trumps
    return best


def deal_constrained(
    cards: Sequence[int],
    forbidden: Sequence[CardMask],
    sizes: Sequence[int],
    rng: random.Random,
) -> list[CardMask]:
    """Deal ``cards`` into hands of ``sizes``, never a card a hand ``forbidden``.

    Cards go one at a time, in random order, to a random hand that may take
    them and leaves the rest dealable. Dealability is Hall's condition for this
    capacity problem: for every set of hands, the cards that only those hands
    may take fit in them (``2**len(sizes) - 1`` sums, cheap for a few hands).
    It always succeeds when any dealing exists; not every dealing is equally
    likely.

    :raises ValueError: no dealing exists (the constraints contradict).
    """
    k = len(sizes)
    order = list(cards)
    rng.shuffle(order)
    allowed = [
        sum(1 << j for j in range(k) if not forbidden[j] >> c & 1) for c in order
    ]
    by_kind = [0] * (1 << k)
    for a in allowed:
        by_kind[a] += 1
    room = list(sizes)
    if sum(room) != len(order) or not _dealable(by_kind, room):
        raise ValueError(
            f"cannot deal {len(order)} cards into hands of sizes {list(sizes)} "
            "under these constraints"
        )
    hands = [0] * k
    for card, a in zip(order, allowed, strict=True):
        by_kind[a] -= 1
        choices = [j for j in range(k) if a >> j & 1 and room[j]]
        rng.shuffle(choices)
        for j in choices:
            room[j] -= 1
            if _dealable(by_kind, room):
                hands[j] |= 1 << card
                break
            room[j] += 1
        else:  # pragma: no cover - Hall's condition held before this card
            raise AssertionError("dealing got stuck although it was dealable")
    return hands


def _dealable(by_kind: list[int], room: list[int]) -> bool:
    """Hall's condition: the cards of each allowed-hands kind fit into ``room``."""
    if by_kind[0]:
        return False
    k = len(room)
    for group in range(1, 1 << k):
        space = sum(room[j] for j in range(k) if group >> j & 1)
        need = sum(by_kind[kind] for kind in range(1, 1 << k) if kind & ~group == 0)
        if need > space:
            return False
    return True
