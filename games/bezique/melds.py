"""The combinations of the Bezique family and the re-use rule, once for all games.

Rule text: seed 000 line 93 (Bezique), lines 114-123 for the table. A card is an
index in :data:`games.cards.BEZIQUE` (``face * 2 + copy``, face ``suit * 8 +
position in "789TJQKA"``). A combination is a *kind* (``"aces"``, ``"stuk"``,
``"marias:H"``, ...) with a value and the faces it needs; which physical copies
make it up is chosen by :func:`choose_cards` (ruling R5 in ``RULES.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

from games.cards import SUITS, Deck

__all__ = [
    "Kind",
    "Needs",
    "bezique_kinds",
    "binage_kinds",
    "cached_per_table",
    "choose_cards",
    "face",
    "kinds",
    "marjolet_kinds",
    "needs",
]

_RANKS = "789TJQKA"
#: Each combination name's bit in a card's history mask, the same in every game
#: and under every trump (a trump set mid-deal, as in Rubicon, keeps histories).
_BITS: dict[str, int] = {}


def face(rank: str, suit: int) -> int:
    """The face number of ``rank`` (one of ``789TJQKA``) in suit number ``suit``."""
    return suit * 8 + _RANKS.index(rank)


@dataclass(frozen=True)
class Kind:
    """One combination: its action word, points and the faces it needs."""

    #: The action word after ``meld:`` (``"aces"``, ``"marias:H"``, ...).
    name: str
    #: What it scores.
    value: int
    #: The faces it needs, a face repeated when it needs two copies.
    faces: tuple[int, ...]
    #: Its bit in a card's history mask (see :func:`choose_cards`).
    bit: int


def kinds(table: Sequence[tuple[str, int, tuple[int, ...]]]) -> tuple[Kind, ...]:
    """Kinds from ``(name, value, faces)`` rows; a name's bit is fixed for good."""
    out = []
    for name, value, faces in table:
        bit = _BITS.get(name)
        if bit is None:
            bit = _BITS[name] = 1 << len(_BITS)
        out.append(Kind(name, value, faces, bit))
    return tuple(out)


#: Per kind, ``(copies mask, copies needed)`` for each face it needs.
Needs = tuple[tuple[Kind, tuple[tuple[int, int], ...]], ...]
#: By the table's and the deck's ids; the table is kept (so its id stays its own).
_NEEDS: dict[tuple[int, int], tuple[tuple[Kind, ...], Needs]] = {}


def needs(table: tuple[Kind, ...], deck: Deck) -> Needs:
    """Each kind with its ``(copies mask, copies needed)`` per face, cached: a
    quick test that a hand holds enough copies before choosing them."""
    key = (id(table), id(deck))
    cached = _NEEDS.get(key)
    if cached is not None:
        return cached[1]
    if len(_NEEDS) > 1000:  # tables made afresh per deal: keep the cache small
        _NEEDS.clear()
    found = tuple(
        (
            k,
            tuple(
                (deck.face_masks[f], k.faces.count(f)) for f in dict.fromkeys(k.faces)
            ),
        )
        for k in table
    )
    _NEEDS[key] = (table, found)
    return found


@cache
def bezique_kinds(trump: int, hartendame: bool = False) -> tuple[Kind, ...]:
    """Bezique's combinations with suit ``trump`` as trump (seed 000 lines 114-122).

    ``hartendame``: the variant "Klaverjas & Hartendame" (seed 000 line 139): with
    diamonds or spades trump, the bezique is the jack of clubs with the queen of
    hearts.
    """
    rows: list[tuple[str, int, tuple[int, ...]]] = [
        ("trumps", 250, tuple(face(r, trump) for r in "ATKQJ")),
        ("aces", 100, tuple(face("A", s) for s in range(4))),
        ("kings", 80, tuple(face("K", s) for s in range(4))),
        ("queens", 60, tuple(face("Q", s) for s in range(4))),
        ("jacks", 40, tuple(face("J", s) for s in range(4))),
        ("stuk", 40, (face("K", trump), face("Q", trump))),
    ]
    rows += [
        (f"marias:{SUITS[s]}", 20, (face("K", s), face("Q", s)))
        for s in range(4)
        if s != trump
    ]
    if hartendame and SUITS[trump] in "DS":
        jack, queen = face("J", 0), face("Q", 2)
    else:
        jack, queen = face("J", 1), face("Q", 3)
    rows += [
        ("bezique", 40, (jack, queen)),
        ("double-bezique", 500, (jack, jack, queen, queen)),
    ]
    return kinds(rows)


def choose_cards(
    kind: Kind,
    hand: int,
    shown: int,
    history: Mapping[int, int],
    best: Mapping[int, int],
    deck: Deck,
    refill: bool = False,
) -> tuple[int, ...] | None:
    """The copies ``hand`` would declare ``kind`` with, or ``None`` if it may not.

    ``shown`` is the part of the hand lying open; ``history[card]`` is the mask of
    the kinds a card was declared in and ``best[card]`` the highest value among
    them. A card may join only if ``best`` is at most ``kind.value`` (the re-use
    rule, seed 000 line 111). The same combination once (line 111; R4): every
    card must be new to this kind, unless ``refill`` (Rubicon, line 84: a
    combination broken by playing one of its cards may be completed again), when
    one new card is enough. Of each face it takes first an open copy not yet in
    this kind, then a hidden copy, then (``refill`` only) an open copy already in
    this kind (R5): that keeps hidden cards hidden and is never worse for the
    rule "the same combination once".
    """
    chosen: list[int] = []
    fresh = False
    bit, value = kind.bit, kind.value
    masks = deck.face_masks
    for f in _grouped(kind.faces):
        need = kind.faces.count(f)
        copies = hand & masks[f]
        first: list[int] = []
        middle: list[int] = []
        last: list[int] = []
        while copies:
            low = copies & -copies
            copies ^= low
            card = low.bit_length() - 1
            if best.get(card, 0) > value:
                continue
            if history.get(card, 0) & bit:
                if refill:
                    last.append(card)
            elif shown & low:
                first.append(card)
            else:
                middle.append(card)
        order = first + middle + last
        if len(order) < need:
            return None
        take = order[:need]
        fresh = fresh or any(not history.get(c, 0) & bit for c in take)
        chosen += take
    return tuple(chosen) if fresh else None


def _grouped(faces: Sequence[int]) -> list[int]:
    """``faces`` without repeats, in order."""
    return list(dict.fromkeys(faces))


@cache
def marjolet_kinds(trump: int, jack_marias: bool = False) -> tuple[Kind, ...]:
    """Marjolet's combinations with suit ``trump`` trump (seed 000 lines 237-244).

    Fours are one card of each suit (one pack); no four jacks. Each plain
    queen makes its own marjolet with the trump jack (``marjolet:X``, ruling
    M5). ``jack_marias``: the variant of line 257, the marias is the jack and
    queen of a plain suit instead of the king and queen.
    """
    marias = "J" if jack_marias else "K"
    rows: list[tuple[str, int, tuple[int, ...]]] = [
        ("aces", 100, tuple(face("A", s) for s in range(4))),
        ("tens", 80, tuple(face("T", s) for s in range(4))),
        ("kings", 60, tuple(face("K", s) for s in range(4))),
        ("queens", 40, tuple(face("Q", s) for s in range(4))),
        ("stuk", 40, (face("K", trump), face("Q", trump))),
    ]
    plain = [s for s in range(4) if s != trump]
    rows += [(f"marias:{SUITS[s]}", 20, (face(marias, s), face("Q", s))) for s in plain]
    rows.append(("trump-marjolet", 40, (face("J", trump), face("Q", trump))))
    rows += [
        (f"marjolet:{SUITS[s]}", 20, (face("J", trump), face("Q", s))) for s in plain
    ]
    return kinds(rows)


@cache
def binage_kinds(trump: int) -> tuple[Kind, ...]:
    """Binage's combinations with suit ``trump`` trump (seed 000 lines 281-285):
    no fours (line 266); the five highest of a plain suit are ``five:X``."""
    rows: list[tuple[str, int, tuple[int, ...]]] = [
        ("trumps", 250, tuple(face(r, trump) for r in "ATKQJ")),
    ]
    plain = [s for s in range(4) if s != trump]
    rows += [
        (f"five:{SUITS[s]}", 120, tuple(face(r, s) for r in "ATKQJ")) for s in plain
    ]
    rows.append(("stuk", 40, (face("K", trump), face("Q", trump))))
    rows += [(f"marias:{SUITS[s]}", 20, (face("K", s), face("Q", s))) for s in plain]
    rows.append(("binage", 40, (face("J", 1), face("Q", 3))))
    return kinds(rows)


#: What a table built from a ``Needs`` holds.
T = TypeVar("T")


def cached_per_table(
    store: dict[int, tuple[Needs, T]], kind_needs: Needs, build: Callable[[Needs], T]
) -> T:
    """``build(kind_needs)``, kept in ``store`` by the table's id (the entry
    holds the table, so the id stays its own)."""
    cached = store.get(id(kind_needs))
    if cached is not None:
        return cached[1]
    if len(store) > 1000:  # tables made afresh per deal: keep it small
        store.clear()
    found = build(kind_needs)
    store[id(kind_needs)] = (kind_needs, found)
    return found
