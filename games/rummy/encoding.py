"""Gin rummy's encoding for learning bots (``docs/ENCODING.md``, rummy).

The actions are the 52 discards, ``draw:stock``, ``draw:discard``, ``gin``,
every ``knock:C`` and ``gin:C``, and every layout a player who goes out may
lay down (``lay:5H-8H+9C9D9S``): sets of at most three disjoint melds of 11
cards at most, too many to list (about 700,000), so they are a ranked
:class:`Layouts` block after the listed words. The observation is the kit's
blocks for the fields a rummy view shares with trick games (hand, dealer,
seat to act, phase, scores) and then the table: the discard pile, its top
card, the upcard, the opponent's known cards and the counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from games.cards import FULL52, CardMask, Deck
from games.encoding import (
    Block,
    BlockEncoding,
    Cards,
    Number,
    card_game_encoding,
)
from games.rummy.melds import MELDS_FROM
from harness.contracts.game import Game
from harness.contracts.view import View

__all__ = ["PHASES", "VERSION", "Layouts", "rummy_encoding"]

#: The layout's version: raise it when an entry's meaning changes.
VERSION = 1
#: The View's ``phase`` values (``GinRummyView.phase``).
PHASES = ("opening", "draw", "discard", "layout", "over")
#: A layout lays at most this many cards (grote gin: all 11 of the hand).
MOST_LAID = 11
_LAY = "lay:"


class Layouts:
    """Every layout as a rank: ``lay:`` and at most three disjoint melds.

    The melds are numbered in the order of their masks; a layout's key
    packs its melds' numbers, lowest first, and the keys in sorted order are
    the ranks (``lay:none``, no meld, is rank 0). Built once per process.

    :param word: the game's own spelling of a layout (melds lowest card
        first), so that :meth:`unrank` gives exactly the game's action.
    """

    name = "gin rummy layouts (lay:...)"

    def __init__(self, word: Callable[[tuple[CardMask, ...]], str]) -> None:
        melds = sorted(m for ms in MELDS_FROM for m in ms if m.bit_count() <= MOST_LAID)
        self._melds = melds
        self._number = {m: i for i, m in enumerate(melds)}
        self._word = word
        self._keys = _layout_keys(melds)
        self.size = len(self._keys)

    def rank(self, action: str) -> int | None:
        """The rank of a ``lay:`` action, or None for any other string."""
        if not action.startswith(_LAY):
            return None
        body = action[len(_LAY) :]
        numbers: list[int] = []
        if body != "none":
            for word in body.split("+"):
                number = self._number.get(_meld_mask(word))
                if number is None:
                    return None
                numbers.append(number)
        key = _key(sorted(numbers), len(self._melds))
        at = int(np.searchsorted(self._keys, key))
        if at < self.size and self._keys[at] == key:
            return at
        return None

    def unrank(self, index: int) -> str:
        """The ``lay:`` action of rank ``index``."""
        key = int(self._keys[index])
        p = len(self._melds) + 1
        numbers = [key // (p * p), key // p % p, key % p]
        melds = [self._melds[n - 1] for n in numbers if n]
        melds.sort(key=lambda m: m & -m)  # the game's order: lowest card first
        return self._word(tuple(melds))


def _key(numbers: Sequence[int], n_melds: int) -> int:
    p = n_melds + 1
    padded = [n + 1 for n in numbers] + [0] * (3 - len(numbers))
    return (padded[0] * p + padded[1]) * p + padded[2]


def _layout_keys(melds: Sequence[CardMask]) -> NDArray[np.int64]:
    """The sorted keys of every set of at most 3 disjoint melds of 11 cards at most."""
    m = len(melds)
    p = m + 1
    masks = np.array(melds, dtype=np.uint64)
    sizes = np.array([x.bit_count() for x in melds], dtype=np.int64)
    i, j = np.triu_indices(m, 1)
    ok = ((masks[i] & masks[j]) == 0) & (sizes[i] + sizes[j] <= MOST_LAID)
    i, j = i[ok], j[ok]
    keys = [
        np.zeros(1, np.int64),
        (np.arange(m) + 1) * p * p,
        ((i + 1) * p + j + 1) * p,
    ]
    room = sizes[i] + sizes[j] <= MOST_LAID - 3
    for a, b in zip(i[room], j[room], strict=True):
        both = masks[a] | masks[b]
        k = np.arange(b + 1, m)
        fits = ((masks[k] & both) == 0) & (sizes[k] + sizes[a] + sizes[b] <= MOST_LAID)
        keys.append(((a + 1) * p + b + 1) * p + k[fits] + 1)
    out = np.concatenate(keys).astype(np.int64)
    out.sort()
    return out


def _meld_mask(word: str) -> CardMask:
    """The mask of one meld as a layout spells it: ``5H-8H`` or ``9C9D9S``."""
    index = FULL52.index
    try:
        if "-" in word:
            low, high = (index[c] for c in word.split("-"))
            return ((1 << (high - low + 1)) - 1) << low if low <= high else -1
        mask = 0
        for k in range(0, len(word), 2):
            mask |= 1 << index[word[k : k + 2]]
        return mask
    except (KeyError, ValueError):
        return -1


_LAYOUTS: dict[object, Layouts] = {}


def rummy_encoding(
    game: Game,
    n_seats: int,
    words: Iterable[str],
    word: Callable[[tuple[CardMask, ...]], str],
    view_class: type[View],
) -> BlockEncoding:
    """The encoding of gin rummy: the 52 faces, ``words`` and the layouts.

    :param words: the draws, knocks and gins.
    :param word: the game's spelling of a layout (``layout_word``).
    """
    layouts = _LAYOUTS.get(word)
    if layouts is None:  # the keys take a moment; built once per process
        layouts = _LAYOUTS[word] = Layouts(word)
    return card_game_encoding(
        game,
        n_seats,
        version=VERSION,
        deck=FULL52,
        words=words,
        view_class=view_class,
        family=_family_blocks,
        phases=PHASES,
        score_scale=100,
        ranges=(layouts,),
    )


def _family_blocks(view_class: type[View], deck: Deck, n_seats: int) -> list[Block]:
    faces = len(deck.faces)
    return [
        Cards("discard_pile", deck, f"the discard pile's cards: {faces} faces"),
        _Top("discard_pile", deck, f"the discard pile's top card: {faces} faces"),
        _Top("upcard", deck, f"the hand's upcard: {faces} faces"),
        Cards("opponent_known", deck, f"the opponent's known cards: {faces} faces"),
        Number("opponent_cards", 11, "cards in the opponent's hand / 11"),
        Number("stock_size", 31, "cards left in the stock / 31"),
        Number("knock_limit", 10, "the knock limit now / 10"),
        Number("spades_double", 1, "1 when going out now scores double"),
        Number("pile_draws", 50, "draws from the discard pile this hand / 50"),
    ]


class _Top(Cards):
    """One card: a field's value, or the last of a tuple (the pile's top)."""

    def __init__(self, field: str, deck: Deck, doc: str) -> None:
        super().__init__(field, deck, doc)
        self.name = "top" if field == "discard_pile" else field

    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        value = getattr(view, self.field)
        if value:
            self.write_cards(
                (value if isinstance(value, str) else value[-1],), base, idx, val
            )
