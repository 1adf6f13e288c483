"""Melds, deadwood and layoffs of rummy hands, on 52-bit card masks.

A hand is a :data:`~games.cards.CardMask` over :data:`~games.cards.FULL52`
(aces low): bit ``suit * 13 + rank`` with rank 0 = ace ... 12 = king and suits
C D H S. A *meld* is itself a mask: a set of three or four cards of one rank,
or a run of three or more consecutive cards of one suit. Aces are low, so
``A-2-3`` is a run and ``Q-K-A`` is not (seed file line 504).

The hot path is :func:`deadwood`. It splits a hand into the cards that belong
to at least one meld inside the hand (:func:`meldable`, a dozen integer
operations on the four 13-bit suit rows) and the rest, which is deadwood
whatever the arrangement. Only the meldable part is searched: the lowest card
is either deadwood or lies in a meld that *starts* at it (every lower card is
absent), so the branching is tiny, and the search is memoised by mask.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product
from typing import NamedTuple

from games.cards import FULL52, CardMask, iter_bits

__all__ = [
    "MAX_HOPE",
    "OUT_CHANCE",
    "ROW",
    "VALUE",
    "Showdown",
    "arrangements",
    "card_value",
    "deadwood",
    "expected_deadwood",
    "going_out",
    "is_meld",
    "layoff_options",
    "layouts",
    "meldable",
    "melds_in",
    "outs",
    "rank_mask",
    "respond",
    "showdown",
    "value",
]

#: The 13 bits of one suit row.
ROW = 0x1FFF
_N = 13

#: Point value of each card index: ace 1, pip cards their number, faces 10.
VALUE: tuple[int, ...] = tuple(min(i % _N + 1, 10) for i in range(52))


def _row_values() -> tuple[int, ...]:
    """Sum of the values of the ranks set in each 13-bit row: a row's is that of
    the row without its lowest rank plus that rank's (quick at start-up)."""
    values = [0] * (1 << _N)
    for row in range(1, 1 << _N):
        low = row & -row
        values[row] = values[row ^ low] + min(low.bit_length(), 10)
    return tuple(values)


#: Sum of the values of the ranks set in a 13-bit row.
_ROW_VALUE: tuple[int, ...] = _row_values()
#: Highest value among the ranks set in a 13-bit row (0 for an empty row).
_ROW_MAX: tuple[int, ...] = tuple(min(row.bit_length(), 10) for row in range(1 << _N))


def _build_melds_from() -> tuple[tuple[CardMask, ...], ...]:
    """Every meld whose lowest card index is ``c``, for each ``c``."""
    table: list[tuple[CardMask, ...]] = []
    for c in range(52):
        suit, rank = divmod(c, _N)
        melds: list[CardMask] = []
        # Runs starting at c, longest first (they are searched first).
        for length in range(_N - rank, 2, -1):
            melds.append(((1 << length) - 1) << c)
        # Sets holding c with only higher suits of the same rank.
        higher = [1 << (s * _N + rank) for s in range(suit + 1, 4)]
        if len(higher) == 3:
            melds.append((1 << c) | higher[0] | higher[1] | higher[2])
        for i in range(len(higher)):
            for j in range(i + 1, len(higher)):
                melds.append((1 << c) | higher[i] | higher[j])
        table.append(tuple(melds))
    return tuple(table)


#: ``MELDS_FROM[c]``: the melds of the deck whose lowest card is ``c``.
MELDS_FROM: tuple[tuple[CardMask, ...], ...] = _build_melds_from()
_ALL_MELDS: frozenset[CardMask] = frozenset(m for ms in MELDS_FROM for m in ms)


def card_value(card: int) -> int:
    """The deadwood value of card index ``card``: ace 1, faces 10."""
    return VALUE[card]


def value(mask: CardMask) -> int:
    """Sum of the card values in ``mask`` (seed file lines 516, 524)."""
    return (
        _ROW_VALUE[mask & ROW]
        + _ROW_VALUE[mask >> 13 & ROW]
        + _ROW_VALUE[mask >> 26 & ROW]
        + _ROW_VALUE[mask >> 39 & ROW]
    )


def _max_value(mask: CardMask) -> int:
    return max(
        _ROW_MAX[mask & ROW],
        _ROW_MAX[mask >> 13 & ROW],
        _ROW_MAX[mask >> 26 & ROW],
        _ROW_MAX[mask >> 39 & ROW],
    )


def is_meld(mask: CardMask) -> bool:
    """True when ``mask`` is one set (3-4 of a rank) or one run (3+ in suit)."""
    return mask in _ALL_MELDS


def meldable(mask: CardMask) -> CardMask:
    """The cards of ``mask`` that lie in at least one meld inside ``mask``.

    The other cards are deadwood in every arrangement.
    """
    a = mask & ROW
    b = mask >> 13 & ROW
    c = mask >> 26 & ROW
    d = mask >> 39 & ROW
    # Ranks held in at least three suits.
    sets = (a & b & (c | d)) | (c & d & (a | b))
    out = 0
    for shift, row in ((0, a), (13, b), (26, c), (39, d)):
        if row:
            starts = row & row >> 1 & row >> 2
            keep = row & (sets | starts | starts << 1 | starts << 2)
            out |= keep << shift
    return out


_CACHE: dict[CardMask, int] = {}
_CACHE_LIMIT = 1 << 20


def _search(mask: CardMask) -> int:
    """Minimum deadwood of a mask of meldable cards (memoised)."""
    best = _CACHE.get(mask)
    if best is not None:
        return best
    low = mask & -mask
    c = low.bit_length() - 1
    best = VALUE[c] + deadwood(mask ^ low)
    if best:
        for meld in MELDS_FROM[c]:
            if meld & mask == meld:
                rest = deadwood(mask ^ meld)
                if rest < best:
                    best = rest
                    if not best:
                        break
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[mask] = best
    return best


def deadwood(mask: CardMask) -> int:
    """The least deadwood of ``mask`` over every arrangement into melds."""
    melded = meldable(mask)
    if not melded:
        return value(mask)
    return value(mask ^ melded) + _search(melded)


def going_out(hand: CardMask, limit: int) -> list[tuple[int, int]]:
    """The discards after which ``hand`` has deadwood at most ``limit``.

    :param hand: the hand after drawing (usually 11 cards).
    :param limit: the knock limit; 0 asks only for gin.
    :returns: ``(card, deadwood after discarding it)`` in card order.
    """
    melded = meldable(hand)
    loose = hand ^ melded
    loose_value = value(loose)
    # Loose cards stay deadwood after any discard but the discarded one.
    if loose and loose_value - _max_value(loose) > limit:
        return []
    out: list[tuple[int, int]] = []
    base = loose_value + (_search(melded) if melded else 0)
    for c in iter_bits(hand):
        bit = 1 << c
        if loose & bit:
            dw = base - VALUE[c]
        elif loose_value > limit:
            continue
        else:
            dw = deadwood(hand ^ bit)
        if dw <= limit:
            out.append((c, dw))
    return out


def melds_in(mask: CardMask) -> list[CardMask]:
    """Every meld contained in ``mask``."""
    out: list[CardMask] = []
    for c in iter_bits(mask):
        out.extend(m for m in MELDS_FROM[c] if m & mask == m)
    return out


def arrangements(mask: CardMask) -> Iterator[tuple[CardMask, ...]]:
    """Every arrangement of ``mask`` into melds with the least deadwood.

    Each arrangement is a tuple of disjoint melds, lowest card first; the
    order of the arrangements is fixed (longer runs before shorter, the lowest
    card as deadwood last).
    """
    if not mask:
        yield ()
        return
    target = deadwood(mask)
    low = mask & -mask
    c = low.bit_length() - 1
    for meld in MELDS_FROM[c]:
        if meld & mask == meld and deadwood(mask ^ meld) == target:
            for rest in arrangements(mask ^ meld):
                yield (meld, *rest)
    if VALUE[c] + deadwood(mask ^ low) == target:
        yield from arrangements(mask ^ low)


def layouts(mask: CardMask, limit: int) -> list[tuple[int, tuple[CardMask, ...]]]:
    """Every way to lay ``mask`` down with at most ``limit`` deadwood.

    A layout is a tuple of disjoint melds (lowest card first); the other cards
    are its deadwood. Melds need not be the least-deadwood ones: a player may
    keep a meld's cards as deadwood, or split a run, while he stays within
    ``limit`` (RULES.md ruling 8). ``limit`` 0 asks for gin layouts.

    :returns: ``(deadwood, melds)`` pairs, least deadwood first; among equal
        deadwood in the fixed order of :func:`arrangements` (longer runs
        first, the lowest card as deadwood last).
    """
    found: list[tuple[int, tuple[CardMask, ...]]] = []

    def walk(rest: CardMask, dead: int, laid: tuple[CardMask, ...]) -> None:
        if not rest:
            found.append((dead, laid))
            return
        # The least deadwood still reachable bounds the search.
        if dead + deadwood(rest) > limit:
            return
        low = rest & -rest
        c = low.bit_length() - 1
        for meld in MELDS_FROM[c]:
            if meld & rest == meld:
                walk(rest ^ meld, dead, (*laid, meld))
        walk(rest ^ low, dead + VALUE[c], laid)

    walk(mask, 0, ())
    found.sort(key=lambda layout: layout[0])  # stable: keeps the fixed order
    return found


def _run_bounds(meld: CardMask) -> tuple[int, int] | None:
    """Lowest and highest card index of a run, or None for a set."""
    low = (meld & -meld).bit_length() - 1
    high = meld.bit_length() - 1
    if (
        high - low < _N
        and high // _N == low // _N
        and meld.bit_count() == high - low + 1
    ):
        return low, high
    return None


def layoff_options(meld: CardMask, cards: CardMask) -> list[CardMask]:
    """The groups of ``cards`` that can be laid off onto ``meld``, 0 included.

    Onto a set of three: its fourth card. Onto a run: a chain of consecutive
    cards of its suit at either end or both (9 then T onto 6-7-8).
    """
    bounds = _run_bounds(meld)
    if bounds is None:
        if meld.bit_count() != 3:
            return [0]
        rank = (meld & -meld).bit_length() - 1
        rank %= _N
        fourth = sum(1 << (s * _N + rank) for s in range(4)) & ~meld
        return [0, fourth] if cards & fourth else [0]
    low, high = bounds
    suit_start = low - low % _N
    downs = [0]
    c, chain = low - 1, 0
    while c >= suit_start and cards >> c & 1:
        chain |= 1 << c
        downs.append(chain)
        c -= 1
    ups = [0]
    c, chain = high + 1, 0
    while c < suit_start + _N and cards >> c & 1:
        chain |= 1 << c
        ups.append(chain)
        c += 1
    return [d | u for d in downs for u in ups]


class Response(NamedTuple):
    """How the defender meets a knock or gin: his best answer."""

    #: His melds, lowest card first.
    melds: tuple[CardMask, ...]
    #: The cards he lays off onto the other player's melds.
    layoffs: CardMask
    #: His deadwood after melding and laying off.
    deadwood: int


def respond(cards: CardMask, melds: Sequence[CardMask]) -> Response:
    """The defender's melds and layoffs that leave him the least deadwood.

    ``melds`` are the melds of the player who went out. Among equal
    deadwood the first layoff combination in a fixed order is taken.
    """
    options = [layoff_options(m, cards) for m in melds]
    best: tuple[int, CardMask] | None = None
    for combo in product(*options):
        laid = 0
        clash = False
        for group in combo:
            if laid & group:
                clash = True
                break
            laid |= group
        if clash:
            continue
        dw = deadwood(cards ^ laid)
        if best is None or dw < best[0]:
            best = (dw, laid)
    assert best is not None
    dw, laid = best
    return Response(next(arrangements(cards ^ laid)), laid, dw)


class Showdown(NamedTuple):
    """Both sides of a hand that ended by a knock or gin."""

    #: The melds of the player who went out.
    out_melds: tuple[CardMask, ...]
    #: His deadwood (0 for gin).
    out_deadwood: int
    #: The defender's answer.
    defence: Response


def showdown(out_hand: CardMask, defender: CardMask) -> Showdown:
    """Arrange both hands at a knock or gin, seeing both.

    The player who went out takes an arrangement with the least deadwood;
    among those, the one that leaves the defender the most deadwood after his
    best layoffs. The defender minimises his own. (The game lets the player
    choose among all legal layouts instead, RULES.md ruling 8.)
    """
    out_dw = deadwood(out_hand)
    chosen: Showdown | None = None
    for arrangement in arrangements(out_hand):
        answer = respond(defender, arrangement)
        if chosen is None or answer.deadwood > chosen.defence.deadwood:
            chosen = Showdown(arrangement, out_dw, answer)
    assert chosen is not None
    return chosen


#: The chance that one live card that would meld a loose card comes to hand
#: before the hand ends, roughly (a rule of thumb of the ``gin-rummy`` bot,
#: not a computed odds; :func:`expected_deadwood`).
OUT_CHANCE = 0.15
#: At most this part of a loose card's value is written off by its outs.
MAX_HOPE = 0.6


def rank_mask(rank: int) -> CardMask:
    """The four cards of rank ``rank`` (0 = ace ... 12 = king)."""
    return sum(1 << (s * _N + rank) for s in range(4))


def outs(card: int, hand: CardMask, dead: CardMask) -> CardMask:
    """The live cards that would meld ``card`` with one other card of ``hand``."""
    rank, suit = card % _N, card // _N
    found = 0
    same_rank = rank_mask(rank) & ~(1 << card)
    if hand & same_rank:
        found |= same_rank & ~hand
    row = suit * _N

    def bit(r: int) -> CardMask:
        return 1 << (row + r) if 0 <= r < _N else 0

    for step in (1, 2):
        for sign in (-1, 1):
            other = rank + sign * step
            if not bit(other) or not hand & bit(other):
                continue
            if step == 1:  # a pair in sequence: either end completes it
                lo, hi = min(rank, other), max(rank, other)
                found |= bit(lo - 1) | bit(hi + 1)
            else:  # a gap: only the middle card
                found |= bit(rank + sign)
    return found & ~hand & ~dead


def expected_deadwood(hand: CardMask, dead: CardMask) -> float:
    """The hand's deadwood with each loose card discounted by its live outs.

    A loose card (outside the least-deadwood melds) counts its value times
    the chance that it stays deadwood: ``1 -`` :data:`OUT_CHANCE` per live
    out (a card not in ``hand`` nor in ``dead``), at least ``1 -``
    :data:`MAX_HOPE`. The ``gin-rummy`` bot discards by it
    (``bots/gin_rummy.py``); gin rummy's deal estimate values hands by it.
    """
    arrangement = next(arrangements(hand))
    melded = sum(arrangement)
    total = 0.0
    for c in iter_bits(hand & ~melded):
        hope = min(MAX_HOPE, OUT_CHANCE * outs(c, hand, dead).bit_count())
        total += VALUE[c] * (1 - hope)
    return total


def names(mask: CardMask) -> tuple[str, ...]:
    """Card strings of ``mask`` in deck order (suit, then rank)."""
    return FULL52.names(mask)
