"""Decks of the seed texts, card notation, masks, multisets and CardSet."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cards import (
    BEZIQUE,
    FULL52,
    PIQUET,
    PIQUET24,
    RUBICON,
    TAROT,
    CardSet,
    Deck,
    iter_bits,
)
from harness import InvalidActionError

DECKS = [PIQUET, PIQUET24, FULL52, BEZIQUE, RUBICON, TAROT]


@pytest.mark.parametrize(
    ("deck", "size", "faces", "copies"),
    [
        (PIQUET, 32, 32, 1),  # seed 004 line 83: A-H-B-V-10-9-8-7
        (PIQUET24, 24, 24, 1),  # Klapper: A to 9
        (FULL52, 52, 52, 1),  # Gin Rummy
        (BEZIQUE, 64, 32, 2),  # seed 000 line 4: 2x a piquet pack
        (RUBICON, 128, 32, 4),  # Rubicon: four piquet packs
        (TAROT, 78, 78, 1),  # four suits of 14, 21 trumps, the excuse
    ],
)
def test_deck_sizes(deck: Deck, size: int, faces: int, copies: int) -> None:
    assert len(deck) == len(deck.cards) == size
    assert len(deck.faces) == faces and deck.copies == copies
    assert Counter(deck.cards) == dict.fromkeys(deck.faces, copies)
    assert deck.full == (1 << size) - 1
    suits = sum(deck.suit_masks) | deck.extras_mask
    assert suits == deck.full


def test_tarot_notation() -> None:
    """DESIGN.md conventions: suit cards 1-10, J N Q K; trumps 1T-21T; EX."""
    assert TAROT.suits == ("C", "D", "H", "S", "T")
    assert TAROT.faces[:14] == tuple(
        f"{r}C" for r in ("1 2 3 4 5 6 7 8 9 10 J N Q K".split())
    )
    trumps = TAROT.names(TAROT.suit_masks[4])
    assert trumps == tuple(f"{n}T" for n in range(1, 22))
    assert TAROT.extras == ("EX",) and TAROT.suit_of(TAROT.index["EX"]) == -1
    assert TAROT.rank_name(TAROT.index["10H"]) == "10"
    assert TAROT.rank_name(TAROT.index["EX"]) == "EX"
    assert TAROT.ranks == ()  # the suits differ
    assert PIQUET.ranks == tuple("789TJQKA") and PIQUET.n_ranks == 8


def test_piquet_indices_are_unchanged() -> None:
    """Index = suit * 8 + position in 7 8 9 T J Q K A: klaverjassen relies on it."""
    assert PIQUET.cards[:8] == tuple(r + "C" for r in "789TJQKA")
    assert PIQUET.index["AS"] == 31 and PIQUET.suit_masks[1] == 0xFF00
    assert FULL52.index["AC"] == 0 and FULL52.index["KS"] == 51


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: d.name)
def test_names_and_masks_round_trip(deck: Deck) -> None:
    rng = random.Random(len(deck))
    for _ in range(200):
        mask = rng.getrandbits(len(deck))
        names = deck.names(mask)
        assert names == tuple(deck.cards[i] for i in iter_bits(mask))
        assert deck.mask(names) == _lowest_copies(deck, mask)
        assert sum(deck.counts(mask).values()) == mask.bit_count()


def _lowest_copies(deck: Deck, mask: int) -> int:
    """The same multiset as ``mask``, each face's copies taken lowest first."""
    out = 0
    for face, copies in enumerate(deck.face_masks):
        n = (mask & copies).bit_count()
        low = (1 << (face * deck.copies)) * ((1 << n) - 1)
        out |= low
    return out


def test_multisets() -> None:
    """Double decks: a name twice is both copies; a third is an error."""
    both = BEZIQUE.mask(["QS", "QS", "JD"])
    assert both.bit_count() == 3
    assert BEZIQUE.counts(both) == {"JD": 1, "QS": 2}
    with pytest.raises(InvalidActionError, match="more often"):
        BEZIQUE.mask(["QS", "QS", "QS"])
    assert RUBICON.counts(RUBICON.mask(["AH"] * 4)) == {"AH": 4}


def test_unknown_cards_are_clear_errors() -> None:
    with pytest.raises(InvalidActionError, match="not a card of the piquet pack"):
        PIQUET.parse("2C")
    with pytest.raises(InvalidActionError, match=r"suits C \(1 2 3"):
        TAROT.parse("22T")
    with pytest.raises(ValueError, match="names a card twice"):
        Deck([("C", "77")])


def test_cardset_reads_like_a_set() -> None:
    hand = CardSet.of(PIQUET, "JC 9C AH")
    assert "JC" in hand and "AS" not in hand and len(hand) == 3
    assert str(hand & PIQUET.suit_masks[0]) == "9C JC"
    assert repr(hand - CardSet.of(PIQUET, "AH")) == "CardSet(PIQUET, '9C JC')"
    assert "AS" in (hand | 1 << PIQUET.index["AS"]) and (hand ^ hand) == CardSet(PIQUET)
    assert list(CardSet.of(BEZIQUE, "AS AS")) == ["AS", "AS"]
    with pytest.raises(ValueError, match="cannot combine"):
        hand | CardSet.of(PIQUET24, "9C")
    with pytest.raises(ValueError, match="outside"):
        CardSet(PIQUET, 1 << 40)


@given(st.lists(st.sampled_from(TAROT.faces), unique=True))
def test_cardset_of_names_round_trips(names: list[str]) -> None:
    cards = CardSet.of(TAROT, names)
    assert sorted(cards, key=TAROT.index.__getitem__) == sorted(
        names, key=TAROT.index.__getitem__
    )
    assert len(cards) == len(names)


def test_take_allocates_free_copies() -> None:
    """Rebuilding a world from names: shown cards take the lowest free copies,
    so a hand named after them never collides with them."""
    shown = BEZIQUE.take(["AS", "AS"])
    assert shown == [BEZIQUE.index["AS"], BEZIQUE.index["AS"] + 1]
    seen = BEZIQUE.mask(["AS"])
    hand = BEZIQUE.mask(["AS", "KS"], taken=seen)
    assert not hand & seen and BEZIQUE.counts(hand | seen) == {"KS": 1, "AS": 2}
    with pytest.raises(InvalidActionError, match="more often"):
        BEZIQUE.take(["AS"], taken=BEZIQUE.face_masks[BEZIQUE.face_of(shown[0])])
    assert PIQUET.take(["JC", "AH"]) == [PIQUET.index["JC"], PIQUET.index["AH"]]


@pytest.mark.parametrize("deck", [PIQUET, PIQUET24, FULL52, TAROT], ids=str)
def test_shuffled_draws_like_random_shuffle(deck: Deck) -> None:
    """``Deck.shuffled`` is ``rng.shuffle`` written out: the same order from
    the same draws, so duplicate deals and golden files do not change."""
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        order = list(range(len(deck.cards)))
        theirs.shuffle(order)
        assert deck.shuffled(ours) == order
        assert ours.getrandbits(64) == theirs.getrandbits(64)
