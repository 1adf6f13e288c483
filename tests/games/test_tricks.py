"""The trick engine of games/tricks.py: rank orders, tiers, duties, inference.

Worked examples cite the rule texts: seed 004 lines 104-107 (klaverjassen's
ranks, points and duties), line 130 (Amsterdam), seed 000 lines 312-316 (La
Rigueur: the tarot trumps above spades above the suit led; the excuse), and
the Bezique texts' last phase (follow and beat the led card when possible).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import PIQUET, TAROT, CardSet, Deck
from games.tricks import (
    AMSTERDAM,
    BEAT_LED,
    FREE_PLAY,
    ROTTERDAM,
    Duties,
    TrickRules,
    TrickTables,
    Undertrump,
    legal_cards,
    reveal,
    trick_winner,
)

PLAIN, TRUMP = "789JQKTA", "78QKTA9J"
POINTS = {"T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
JASS = TrickRules(
    PIQUET,
    plain_order=PLAIN,
    trump_order=TRUMP,
    plain_points=POINTS,
    trump_points={**POINTS, "9": 14, "J": 20},
    last_trick=10,
)
CLUBS, HEARTS, SPADES = 0, 2, 3
HEARTS_TRUMP = JASS.tables(HEARTS)
SUIT = PIQUET.suit_masks


def m(cards: str) -> int:
    return PIQUET.mask(cards.split())


def idx(cards: str, deck: Deck = PIQUET) -> list[int]:
    return [deck.index[c] for c in cards.split()]


def top(cards: str, tables: TrickTables = HEARTS_TRUMP) -> int:
    """``beats[best]`` of a trick so far."""
    played = idx(cards)
    return tables.beats[played[trick_winner(played, tables.beats)]]


def legal(hand: str, trick: str, duties: Duties = ROTTERDAM, **kw: bool) -> CardSet:
    led = PIQUET.suit_index[idx(trick)[0]]
    mask = legal_cards(
        m(hand),
        SUIT[led],
        top(trick),
        HEARTS_TRUMP.above[led],
        duties,
        trump_led=led == HEARTS,
        **kw,
    )
    return CardSet(PIQUET, mask)


def test_rank_orders_follow_the_text() -> None:
    """Seed 004 line 104: trumps J 9 A 10 K Q 8 7; plain A 10 K Q J 9 8 7."""
    hearts = sorted(
        "7H 8H 9H TH JH QH KH AH".split(),
        key=lambda c: JASS.strength(PIQUET.index[c], (HEARTS,)),
    )
    assert hearts == "7H 8H QH KH TH AH 9H JH".split()
    spades = sorted(
        "7S 8S 9S TS JS QS KS AS".split(),
        key=lambda c: JASS.strength(PIQUET.index[c], (HEARTS,)),
    )
    assert spades == "7S 8S 9S JS QS KS TS AS".split()
    with pytest.raises(ValueError, match="permutation"):
        TrickRules(PIQUET, plain_order="789TJQK")


@pytest.mark.parametrize(
    ("cards", "winner"),
    [("KS TS 7S AC", 1), ("9S AD 7S 8S", 0), ("AS 7H KS QS", 1), ("AS 9H JH AH", 2)],
)
def test_trick_winner(cards: str, winner: int) -> None:
    """Seed 004 line 107: highest trump, else highest of the suit led."""
    assert trick_winner(idx(cards), HEARTS_TRUMP.beats) == winner


def test_no_trump_game() -> None:
    """Without trumps only the suit led can win, and void hands play anything."""
    plain = TrickRules(PIQUET).tables()
    assert trick_winner(idx("9S AH TS 8S"), plain.beats) == 2
    assert plain.trumps == 0
    mask = legal_cards(
        m("AH 7C"), SUIT[SPADES], plain.beats[PIQUET.index["9S"]], 0, ROTTERDAM
    )
    assert mask == m("AH 7C")


def test_points_and_last_trick() -> None:
    """Seed 004 line 105: 152 on the cards whatever the trump; jas 20, nel 14."""
    for trump in range(4):
        assert sum(JASS.tables(trump).points) == 152
    points = HEARTS_TRUMP.points
    assert sum(points[c] for c in idx("JH 9H JS 9S")) == 36
    assert JASS.last_trick == 10


def test_rotterdam_duties() -> None:
    """Seed 004 line 107: follow; else trump, over-trump, else under-trump; else any."""
    hand = "7H KH 9H 7C"
    assert legal("7S KS 7H", "AS") == CardSet.of(PIQUET, "7S KS")
    assert legal(hand, "AS") == CardSet.of(PIQUET, "7H KH 9H")
    assert legal(hand, "AS QH") == CardSet.of(PIQUET, "KH 9H")
    assert legal(hand, "AS JH") == CardSet.of(PIQUET, "7H KH 9H")  # under-trump
    assert legal("7C 8D", "AS JH") == CardSet.of(PIQUET, "7C 8D")
    # Trump led: follow with a higher trump if possible.
    assert legal(hand, "AH") == CardSet.of(PIQUET, "9H")
    assert legal(hand, "JH") == CardSet.of(PIQUET, "7H KH 9H")


def test_amsterdam_duties() -> None:
    """Seed 004 line 130: no under-trumping unless the hand holds only lower trumps;
    while the partner wins no duty to trump, but still no under-trump; trump
    led must be followed and over-trumped whoever wins."""
    assert legal("7H 8H 7C", "AS JH", AMSTERDAM) == CardSet.of(PIQUET, "7C")
    assert legal("7H 8H", "AS JH", AMSTERDAM) == CardSet.of(PIQUET, "7H 8H")
    # Partner (who played QH) wins: discard or over-trump, never under-trump.
    partner = legal("7H JH 7C", "AS QH", AMSTERDAM, partner_wins=True)
    assert partner == CardSet.of(PIQUET, "JH 7C")
    # Partner wins with a plain card: any card, a trump included.
    assert legal("7H 7C", "AS", AMSTERDAM, partner_wins=True) == CardSet.of(
        PIQUET, "7H 7C"
    )
    # Trump led: over-trump even when the partner wins.
    assert legal("7H 9H 7C", "QH", AMSTERDAM, partner_wins=True) == CardSet.of(
        PIQUET, "9H"
    )


def test_other_duty_sets() -> None:
    """Under-trumping allowed; no duty to over-trump; free play; beat the led card."""
    allowed = Duties(undertrump=Undertrump.ALLOWED)
    assert legal("7H 8H 7C", "AS JH", allowed) == CardSet.of(PIQUET, "7H 8H 7C")
    lax = Duties(must_overtrump=False)
    assert legal("7H JH 7C", "AS QH", lax) == CardSet.of(PIQUET, "7H JH")
    assert legal("7S AS 7H", "KS", FREE_PLAY) == CardSet.of(PIQUET, "7S AS 7H")
    # The Bezique games' last phase: follow and win if you can; else trump.
    assert legal("7S AS 7H", "KS", BEAT_LED) == CardSet.of(PIQUET, "AS")
    assert legal("7S 8S 7H", "KS", BEAT_LED) == CardSet.of(PIQUET, "7S 8S")
    assert legal("7C 7H", "KS", BEAT_LED) == CardSet.of(PIQUET, "7H")


TAROT_RULES = TrickRules(
    TAROT,
    plain_points={"K": 4, "Q": 3, "N": 2, "J": 1},
    trump_points={"21": 4, "1": 4},
    extra_points={"EX": 5},
    excuse="EX",
)
T = TAROT.suits.index("T")
RIGUEUR = TAROT_RULES.tables(T, SPADES)


def tm(cards: str) -> int:
    return TAROT.mask(cards.split())


def test_la_rigueur_tiers() -> None:
    """Seed 000 lines 312-314: trumps above spades above the suit led; plain
    suits rank K Q N J 10 .. 1; trumps 21 down to 1."""
    beats = RIGUEUR.beats
    assert trick_winner(idx("KH 1S 2H", TAROT), beats) == 1  # a spade ruffs
    assert trick_winner(idx("KH 1S 1T", TAROT), beats) == 2  # a trump beats spades
    assert trick_winner(idx("2T 21T KS", TAROT), beats) == 1
    assert trick_winner(idx("1H KH NH", TAROT), beats) == 1
    assert (
        RIGUEUR.above[TAROT.suits.index("H")]
        == TAROT.suit_masks[T] | TAROT.suit_masks[SPADES]
    )
    assert RIGUEUR.above[SPADES] == TAROT.suit_masks[T]
    assert RIGUEUR.above[T] == 0
    assert sum(TAROT_RULES.tables(T).points) == 4 * 10 + 8 + 5


def test_la_rigueur_duties_and_the_excuse() -> None:
    """Seed 000 lines 312-316: void in the suit led, play a trump or a spade;
    void in spades, a trump; void in trumps, anything; no over-trumping; the
    excuse may always be played, never wins, and a led excuse lets the next
    card set the suit."""
    duties = Duties(must_overtrump=False)
    excuse = TAROT.face_masks[TAROT.index["EX"]]

    def rig(hand: str, trick: str) -> int:
        played = idx(trick, TAROT)
        led = TAROT.suit_index[played[0]]
        best = played[trick_winner(played, RIGUEUR.beats)]
        return legal_cards(
            tm(hand),
            TAROT.suit_masks[led],
            RIGUEUR.beats[best],
            RIGUEUR.above[led],
            duties,
            trump_led=bool(TAROT.suit_masks[led] & RIGUEUR.trumps),
            excuse=excuse,
        )

    assert rig("2S 5T 3C", "KH") == tm("2S 5T")
    assert rig("2S 5T 3C EX", "KH") == tm("2S 5T EX")
    assert rig("2H 5T EX", "KH") == tm("2H EX")
    assert rig("5T 3C", "KS") == tm("5T")
    assert rig("2S 3C", "4T") == tm("2S 3C")
    # A led excuse: nothing to follow; the next card sets the suit.
    assert legal_cards(
        tm("2S 3C"), 0, RIGUEUR.beats[TAROT.index["EX"]], 0, duties
    ) == tm("2S 3C")
    assert trick_winner(idx("EX 3C 9C", TAROT), RIGUEUR.beats) == 2
    assert trick_winner(idx("3C EX", TAROT), RIGUEUR.beats) == 0


def test_reveal_worked_example() -> None:
    """Seed 004 line 107 and R14: seat 1 ruffs QH (no spades), seat 2 under-trumps
    7H (no spades, no trump above QH), seat 3 discards 7C (no spades, no
    trumps)."""
    forbidden = [0, 0, 0, 0]
    best = reveal(0, idx("AS QH 7H 7C"), HEARTS_TRUMP, ROTTERDAM, PIQUET, forbidden)
    assert best == 1
    assert forbidden[0] == 0
    assert forbidden[1] == SUIT[SPADES]
    assert forbidden[2] == SUIT[SPADES] | m("KH TH AH 9H JH")
    assert forbidden[3] == SUIT[SPADES] | SUIT[HEARTS]


def test_reveal_with_a_seat_sitting_out() -> None:
    """``seats=``: with seat 3 sitting the deal out (Klaverjassen for 3 played
    by four), seat 2 leads and seat 0 plays second: seat 0 ruffed, so it
    lacks spades; seat 3, out, learns nothing."""
    forbidden = [0, 0, 0, 0]
    best = reveal(
        2, idx("AS QH 7S"), HEARTS_TRUMP, ROTTERDAM, PIQUET, forbidden, seats=[2, 0, 1]
    )
    assert best == 1
    assert forbidden[0] == SUIT[SPADES]
    assert forbidden[1] == 0 and forbidden[3] == 0


def test_reveal_respects_partner_exemption() -> None:
    """Amsterdam: a discard while the partner wins proves nothing of trumps."""
    forbidden = [0, 0, 0, 0]
    reveal(
        0,
        idx("AS 7S 7C"),
        HEARTS_TRUMP,
        AMSTERDAM,
        PIQUET,
        forbidden,
        teams=(0, 1, 0, 1),
    )
    assert forbidden[2] == SUIT[SPADES]


DUTY_SETS = [
    ROTTERDAM,
    AMSTERDAM,
    BEAT_LED,
    FREE_PLAY,
    Duties(undertrump=Undertrump.ALLOWED),
    Duties(undertrump=Undertrump.FORBIDDEN),
    Duties(must_overtrump=False),
    Duties(must_trump=False),
]


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    duties=st.sampled_from(DUTY_SETS),
    trump=st.sampled_from([None, 0, 1, 2, 3]),
)
def test_reveal_never_forbids_a_card_the_hand_holds(
    seed: int, duties: Duties, trump: int | None
) -> None:
    """Soundness: random tricks played under ``duties``; whatever reveal infers a
    seat lacks, its hand never held when it played."""
    rng = random.Random(seed)
    tables = JASS.tables() if trump is None else JASS.tables(trump)
    teams = (0, 1, 0, 1)
    order = PIQUET.shuffled(rng)
    hands = [sum(1 << c for c in order[8 * s : 8 * s + 8]) for s in range(4)]
    forbidden = [0, 0, 0, 0]
    leader = rng.randrange(4)
    for _ in range(8):
        trick: list[int] = []
        before = hands[:]
        best = 0
        for i in range(4):
            seat = (leader + i) % 4
            if not trick:
                mask = hands[seat]
            else:
                led = PIQUET.suit_index[trick[0]]
                mask = legal_cards(
                    hands[seat],
                    SUIT[led],
                    tables.beats[trick[best]],
                    tables.above[led],
                    duties,
                    trump_led=bool(SUIT[led] & tables.trumps),
                    partner_wins=teams[(leader + best) % 4] == teams[seat] and i > 0,
                )
            card = rng.choice([c for c in range(32) if mask >> c & 1])
            hands[seat] ^= 1 << card
            trick.append(card)
            if i and tables.beats[trick[best]] >> card & 1:
                best = i
        winner = reveal(leader, trick, tables, duties, PIQUET, forbidden, teams=teams)
        assert winner == best
        for seat in range(4):
            assert not forbidden[seat] & before[seat], (seat, duties)
        leader = (leader + best) % 4
