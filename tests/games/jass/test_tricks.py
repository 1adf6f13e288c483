"""The shared trick helpers of games/tricks.py, on the jass rank orders.

Rule text: seed 004 line 104 (trick ranks) and line 107 (duties); the variant
parameters follow line 130 (Amsterdam: no under-trumping).
"""

from __future__ import annotations

import random

import pytest

from games.cards import PIQUET
from games.tricks import (
    Undertrump,
    beats_table,
    deal_constrained,
    legal_plays,
    mask_points,
    points_table,
    revealed_voids,
    strengths,
    trick_winner,
)

PLAIN, TRUMP = "789JQKTA", "78QKTA9J"
HEARTS = 2
BEATS = beats_table(PIQUET, PLAIN, TRUMP, HEARTS)
SUIT = PIQUET.suit_masks


def m(cards: str) -> int:
    return PIQUET.mask(cards.split())


def idx(cards: str) -> list[int]:
    return [PIQUET.index[c] for c in cards.split()]


def test_strengths_follow_the_order() -> None:
    """Seed line 104: trumps J 9 A 10 K Q 8 7."""
    s = strengths(PIQUET, TRUMP)
    order = sorted("7H 8H 9H TH JH QH KH AH".split(), key=lambda c: s[PIQUET.index[c]])
    assert order == "7H 8H QH KH TH AH 9H JH".split()
    with pytest.raises(ValueError, match="permutation"):
        strengths(PIQUET, "789TJQK")


@pytest.mark.parametrize(
    ("cards", "winner"),
    [("KS TS 7S AC", 1), ("9S AD 7S 8S", 0), ("AS 7H KS QS", 1), ("AS 9H JH AH", 2)],
)
def test_trick_winner(cards: str, winner: int) -> None:
    """Seed line 107: highest trump, else highest of the suit led."""
    assert trick_winner(idx(cards), BEATS) == winner


def test_no_trump_game() -> None:
    """Without a trump suit only the suit led can win (e.g. sans atout)."""
    beats = beats_table(PIQUET, "789TJQKA")
    assert trick_winner(idx("9S AH TS 8S"), beats) == 2
    assert legal_plays(m("AH 7C"), SUIT[3], 0, beats[PIQUET.index["9S"]]) == m("AH 7C")


def test_points_table() -> None:
    """Seed line 105: 152 on the cards."""
    plain = {"7": 0, "8": 0, "9": 0, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
    table = points_table(PIQUET, plain, {**plain, "9": 14, "J": 20}, HEARTS)
    assert mask_points(PIQUET.full, table) == 152
    assert mask_points(m("JH 9H JS 9S"), table) == 36


def best(cards: str) -> int:
    return BEATS[idx(cards)[trick_winner(idx(cards), BEATS)]]


def test_rotterdam_duties() -> None:
    """Seed line 107: follow; else trump, over-trump, else under-trump; else any."""
    hand = m("7H KH 9H 7C")
    assert legal_plays(hand, 0, SUIT[HEARTS], 0) == hand  # leading
    assert legal_plays(m("7S KS 7H"), SUIT[3], SUIT[HEARTS], best("AS")) == m("7S KS")
    assert legal_plays(hand, SUIT[3], SUIT[HEARTS], best("AS")) == m("7H KH 9H")
    assert legal_plays(hand, SUIT[3], SUIT[HEARTS], best("AS QH")) == m("KH 9H")
    assert legal_plays(hand, SUIT[3], SUIT[HEARTS], best("AS JH")) == m("7H KH 9H")
    assert legal_plays(m("7C 8D"), SUIT[3], SUIT[HEARTS], best("AS JH")) == m("7C 8D")
    # trump led: follow higher if possible
    assert legal_plays(hand, SUIT[HEARTS], SUIT[HEARTS], best("AH")) == m("9H")
    assert legal_plays(hand, SUIT[HEARTS], SUIT[HEARTS], best("JH")) == m("7H KH 9H")


def test_amsterdam_parameters() -> None:
    """Seed line 130 (not yet a game option): under-trumping is forbidden unless
    the hand holds only lower trumps; with must_trump off (partner winning)
    any card except an under-trump."""
    hand = m("7H 8H 7C")
    forbid = Undertrump.FORBIDDEN
    trick = best("AS JH")
    assert legal_plays(hand, SUIT[3], SUIT[HEARTS], trick, undertrump=forbid) == m("7C")
    assert legal_plays(
        m("7H 8H"), SUIT[3], SUIT[HEARTS], trick, undertrump=forbid
    ) == m("7H 8H")
    assert (
        legal_plays(hand, SUIT[3], SUIT[HEARTS], trick, undertrump=Undertrump.ALLOWED)
        == hand
    )
    free = legal_plays(
        m("7H JH 7C"),
        SUIT[3],
        SUIT[HEARTS],
        best("AS QH"),
        must_trump=False,
        undertrump=forbid,
    )
    assert free == m("JH 7C")
    assert legal_plays(hand, SUIT[3], SUIT[HEARTS], trick, must_trump=False) == hand
    assert legal_plays(
        m("7H JH 7C"), SUIT[3], SUIT[HEARTS], best("AS QH"), must_overtrump=False
    ) == m("7H JH")


def test_revealed_voids() -> None:
    """Seed line 107 and R14: not following, not trumping and not over-trumping
    each prove a card set absent. Seat 1 ruffs QH, seat 2 under-trumps 7H,
    seat 3 discards 7C."""
    forbidden = [0, 0, 0, 0]
    best = revealed_voids(0, idx("AS QH 7H 7C"), PIQUET, BEATS, HEARTS, forbidden)
    assert best == 1
    assert forbidden[0] == 0
    assert forbidden[1] == SUIT[3]
    assert forbidden[2] == SUIT[3] | m("KH TH AH 9H JH")
    assert forbidden[3] == SUIT[3] | SUIT[HEARTS]


def test_deal_constrained_respects_constraints_and_varies() -> None:
    """R14: hidden cards go only where allowed, in the right numbers; a card
    allowed in one hand only always lands there."""
    rng = random.Random(3)
    cards = idx("7S 8S 9S 7H 8H 9H")
    forbidden = [SUIT[HEARTS], SUIT[3], 0]  # hand 0: no hearts; hand 1: no spades
    seen = set()
    for _ in range(200):
        hands = deal_constrained(cards, forbidden, [2, 2, 2], rng)
        assert [h.bit_count() for h in hands] == [2, 2, 2]
        assert not hands[0] & SUIT[HEARTS] and not hands[1] & SUIT[3]
        seen.add(tuple(hands))
    assert len(seen) > 5
    with pytest.raises(ValueError, match="cannot deal"):
        deal_constrained(
            cards, [SUIT[HEARTS], SUIT[HEARTS], SUIT[HEARTS]], [2, 2, 2], rng
        )
