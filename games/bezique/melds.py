"""The combinations of the Bezique family and the re-use rule, once for all games.

Rule text: seed 000 line 93 (Bezique), lines 114-123 for the table. A card is an
index in :data:`games.cards.BEZIQUE` (``face * 2 + copy``, face ``suit * 8 +
position in "789TJQKA"``). A combination is a *kind* (``"aces"``, ``"stuk"``,
``"marias:H"``, ...) with a value and the faces it needs; which physical copies
make it up is chosen by :func:`choose_cards` (ruling R5 in ``RULES.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.cards import SUITS, Deck

__all__ = ["Kind", "bezique_kinds", "choose_cards", "face"]

_RANKS = "789TJQKA"


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


def bezique_kinds(trump: int, hartendame: bool = False) -> tuple[Kind, ...]:
    """Bezique's combinations with suit ``trump`` as trump (seed 000 lines 114-122).

    ``hartendame``: the variant "Klaverjas & Hartendame" (seed 000 line 139): with
    diamonds or spades trump, the bezique is the jack of clubs with the queen of
    hearts.
    """
    kinds: list[tuple[str, int, tuple[int, ...]]] = [
        ("trumps", 250, tuple(face(r, trump) for r in "ATKQJ")),
        ("aces", 100, tuple(face("A", s) for s in range(4))),
        ("kings", 80, tuple(face("K", s) for s in range(4))),
        ("queens", 60, tuple(face("Q", s) for s in range(4))),
        ("jacks", 40, tuple(face("J", s) for s in range(4))),
        ("stuk", 40, (face("K", trump), face("Q", trump))),
    ]
    kinds += [
        (f"marias:{SUITS[s]}", 20, (face("K", s), face("Q", s)))
        for s in range(4)
        if s != trump
    ]
    if hartendame and SUITS[trump] in "DS":
        jack, queen = face("J", 0), face("Q", 2)
    else:
        jack, queen = face("J", 1), face("Q", 3)
    kinds += [
        ("bezique", 40, (jack, queen)),
        ("double-bezique", 500, (jack, jack, queen, queen)),
    ]
    return tuple(Kind(n, v, f, 1 << i) for i, (n, v, f) in enumerate(kinds))


def choose_cards(
    kind: Kind,
    hand: int,
    shown: int,
    history: Mapping[int, int],
    best: Mapping[int, int],
    deck: Deck,
) -> tuple[int, ...] | None:
    """The copies ``hand`` would declare ``kind`` with, or ``None`` if it may not.

    ``shown`` is the part of the hand lying open; ``history[card]`` is the mask of
    the kinds a card was declared in and ``best[card]`` the highest value among
    them. A card may join only if ``best`` is at most ``kind.value`` (the re-use
    rule, seed 000 line 111) and the combination needs a card never declared in
    this kind (the same combination once, line 111; R4). Of each face it takes
    first an open copy not yet in this kind, then a hidden copy, then an open copy
    already in this kind (R5): that keeps hidden cards hidden and is never worse
    for the rule "the same combination once".
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
