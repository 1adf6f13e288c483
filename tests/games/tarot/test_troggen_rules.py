"""Worked examples of Maison Troggen, citing the rule text or a ruling.

Rule text: ``../shared/seeds/000_f1f8b277f898f51f.txt`` from line 141 (cited as
"seed 000 line N"). Rulings: ``games/tarot/RULES.md`` (R1..., TR1...). Positions
are built with ``TroggenState.from_hands`` in deal 0: seat 2 deals and has
discarded, seat 0 (voorhand) leads (TR1).
"""

from __future__ import annotations

import random

import pytest

from games.cards import TAROT
from games.tarot import MaisonTroggen
from games.tarot.common import tables_of
from games.tarot.troggen import (
    KEEP,
    KINGS,
    SET_VALUES,
    TroggenState,
    TroggenView,
    count_by_threes,
    count_with_sets,
)
from harness import IllegalActionError

GAME = MaisonTroggen()

#: Seat 0 all clubs, 1D, 10H, spades 1-9; seat 1 diamonds 2-K, 1H, trumps 1-11;
#: seat 2 (dealer) hearts 2-9 and J-K, trumps 12-21, EX, KS, 10S; discard J N Q
#: of spades.
HANDS = [
    "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C JC NC QC KC 1D 10H 1S 2S 3S 4S 5S 6S 7S 8S 9S",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD ND QD KD 1H 1T 2T 3T 4T 5T 6T 7T 8T 9T 10T 11T",
    "2H 3H 4H 5H 6H 7H 8H 9H JH NH QH KH "
    "12T 13T 14T 15T 16T 17T 18T 19T 20T 21T EX KS 10S",
]
DISCARD = "JS NS QS"


def position() -> TroggenState:
    return TroggenState.from_hands(GAME, HANDS, discard=DISCARD)


def names(mask: int) -> set[str]:
    return set(TAROT.names(mask))


# -- the deal and the discard ------------------------------------------------------


def test_tr1_dealer_gets_28_the_others_25_and_the_dealer_discards_first() -> None:
    """Seed 000 line 151, TR1: 25 to each opponent, 28 to the dealer, nothing
    undealt; the dealer (seat 2 in deal 0) discards before voorhand leads."""
    state = GAME.new_match(3, 4)
    assert [h.bit_count() for h in state.hands] == [25, 25, 28]
    assert state.undealt == 0
    assert state.to_act == 2
    for _ in range(3):
        assert all(a.startswith("discard ") for a in state.legal_actions())
        state.apply(state.legal_actions()[0])
    assert [h.bit_count() for h in state.hands] == [25, 25, 25]
    assert state.discard.bit_count() == 3
    assert state.to_act == 0  # voorhand, right of the dealer


def test_tr2_no_king_trump_or_excuse_may_be_discarded() -> None:
    """Seed 000 line 151: 'dit mogen echter geen heren, troeven of het excuus zijn'."""
    state = GAME.new_match(3, 9)
    legal = {a[8:] for a in state.legal_actions()}
    assert legal and not TAROT.mask(legal) & KEEP
    king = next(iter(TAROT.names(state.hands[2] & (KEEP & ~TAROT.suit_masks[0]))))
    with pytest.raises(IllegalActionError):
        state.apply(f"discard {king}")
    with pytest.raises(IllegalActionError):
        state.apply("1C")  # no card is played before the discard


def test_tr2_kings_only_when_fewer_than_three_other_cards() -> None:
    """TR2: 21 trumps, the excuse and four kings leave two other cards; the
    third discard may then be a king (never a trump or the excuse)."""
    state = GAME.new_match(3, 9)
    keep = TAROT.mask([f"{n}T" for n in range(1, 22)] + ["EX", "KC", "KD", "KH", "KS"])
    others = TAROT.mask(["2C", "3C"])
    everyone = state.hands[0] | state.hands[1] | state.hands[2]
    state.hands = [state.hands[0], state.hands[1], keep | others]
    state.hands[0] = everyone & ~(keep | others) & ((1 << 78) - 1)
    state.hands[1] = 0
    state._legal = None
    assert {a[8:] for a in state.legal_actions()} == {
        "2C",
        "3C",
        "KC",
        "KD",
        "KH",
        "KS",
    }
    state.apply("discard 2C")
    state.apply("discard 3C")
    assert {a[8:] for a in state.legal_actions()} == {"KC", "KD", "KH", "KS"}
    state.apply("discard KH")
    assert state.discard & KINGS


def test_tr3_the_discard_is_the_dealers_secret_and_scores_for_nobody() -> None:
    """Seed 000 line 161, TR3, TR7: only the dealer sees the discard; the others
    see how many cards he discarded; the discard is no trick and counts nothing:
    the deal's totals are 75 less the discard's value (J N Q of spades: 6)."""
    state = position()
    mine, theirs = state.view(2), state.view(0)
    assert isinstance(mine, TroggenView) and isinstance(theirs, TroggenView)
    assert mine.discard == ("JS", "NS", "QS")
    assert theirs.discard == () and theirs.discarded == 3
    assert "discard" in state.hidden_from(0) and "discard" not in state.hidden_from(2)
    while state.deal == 0:
        state.apply(state.legal_actions()[0])
    assert sum(state.deal_scores[0]) == 25 + 50 - 6


# -- ranking and the excuse --------------------------------------------------------


def test_red_suits_rank_one_above_ten_black_as_usual() -> None:
    """Seed 000 line 155: red K Q N J 1 2 ... 10, black K Q N J 10 ... 1: seat 0
    leads 10H, seat 1 follows 1H, seat 2 9H; the 1 of hearts wins."""
    beats = tables_of((4,), True).beats
    index = TAROT.index
    assert beats[index["2H"]] >> index["1H"] & 1
    assert beats[index["1H"]] >> index["JH"] & 1
    assert beats[index["1C"]] >> index["2C"] & 1
    state = position()
    state.apply("10H")
    assert state.legal_actions() == ("1H",)
    state.apply("1H")
    state.apply("9H")
    assert state._tricks[-1][2] == 1


def test_tr5_excuse_taken_back_and_a_blank_given_when_won() -> None:
    """Seed 000 line 157: the excuse's player takes it back to his own tricks and
    gives a blank card to the trick's winner; seat 2 plays it instead of a heart,
    owes seat 1 a blank (TR5, R4) and pays with 1D from the next trick he wins."""
    state = position()
    state.apply("10H")
    state.apply("1H")
    assert "EX" in state.legal_actions()
    state.apply("EX")
    assert state._tricks[-1][2] == 1
    assert state.debt == (2, 1)
    assert names(state.won[2]) == {"EX"} and names(state.won[1]) == {"10H", "1H"}
    state.apply("2D")  # seat 1 leads; seat 2 is void in diamonds and must trump
    assert state.legal_actions()[0] == "12T" and "EX" not in state.legal_actions()
    state.apply("12T")
    state.apply("1D")
    assert state.exchanges == ((2, 1, "1D"),)
    assert names(state.won[2]) == {"EX", "2D", "12T"}
    assert names(state.won[1]) == {"10H", "1H", "1D"}


# -- counting ----------------------------------------------------------------------


def test_tr4_a_queen_with_two_blanks_is_four_three_blanks_one() -> None:
    """Seed 000 line 175: 'een Dame pas 4 punten waard is als er ook twee lege
    kaarten bijgeteld worden. Drie lege kaarten vormen samen 1 punt'; line 177:
    queen 3 plus one set of three is the same 4."""
    mask = TAROT.mask
    for cards, points in [
        (["QH", "2C", "3C"], 4),
        (["2C", "3C", "4C"], 1),
        (["21T", "1T", "KS"], 13),
        (["EX", "JD", "5S"], 4),
        (["KC", "QC", "NC", "JC", "2C", "3C"], 5 + 4 + 3 + 2 - 4 + 2),
    ]:
        assert count_by_threes(mask(cards)) == points, cards
        assert count_with_sets(mask(cards)) == points, cards


def test_tr4_both_counts_give_the_same_totals() -> None:
    """TR4: line 175 and line 177 agree on every pile of a multiple of three cards
    and on whole matches (same seed, same choices, either option)."""
    rng = random.Random(7)
    cards = list(range(len(TAROT)))
    for size in range(0, 79, 3):
        for _ in range(20):
            pile = TAROT.mask(TAROT.cards[c] for c in rng.sample(cards, size))
            assert count_by_threes(pile) == count_with_sets(pile)
    for seed in range(3):
        scores = []
        for counting in ("threes", "sets"):
            state = MaisonTroggen(counting=counting).new_match(3, seed)
            choices = random.Random(seed)
            while not state.is_over():
                state.apply(choices.choice(state.legal_actions()))
                if not state._trick and state.debt is None:
                    # Whole tricks, no blank owed: piles of three (TR4).
                    assert all(w.bit_count() % 3 == 0 for w in state.won)
            scores.append(state.deal_scores)
        assert scores[0] == scores[1]


def test_tr4_whole_pack_less_discard() -> None:
    """Line 177-189: the pack is worth 4x(4+3+2+1) + 4 + 4 + 2 = 50, plus 25 sets."""
    assert sum(SET_VALUES) == 50
    assert count_by_threes(TAROT.full & ~TAROT.mask(DISCARD.split())) == 75 - 6
    with pytest.raises(ValueError, match="three"):
        count_by_threes(TAROT.mask(["KC", "QC"]))


# -- the match ---------------------------------------------------------------------


def test_tr6_a_round_is_three_deals_each_seat_dealing_once() -> None:
    """Seed 000 line 191: 'Een rondje bestaat uit drie handen (iedere speler deelt
    één keer), degene met het hoogste aantal punten wint.'"""
    state = GAME.new_match(3, 2)
    dealers = []
    while not state.is_over():
        if state.dealer not in dealers:
            dealers.append(state.dealer)
        state.apply(state.legal_actions()[-1])
    assert dealers == [2, 0, 1]
    assert len(state.deal_scores) == 3
    result = state.result()
    assert result.ranks[state.totals.index(max(state.totals))] == 1
    two = MaisonTroggen(rounds=2).new_match(3, 2)
    while not two.is_over():
        two.apply(two.legal_actions()[-1])
    assert len(two.deal_scores) == 6


# -- sampling ----------------------------------------------------------------------


def test_tr7_samples_hide_the_discard_from_the_others_only() -> None:
    """TR7: to seat 0 the discard is three cards with no trump or excuse; the
    dealer knows his own; the dealer's hand holds 25 cards after it."""
    state = position()
    state.apply("10H")
    rng = random.Random(3)
    other = GAME.sampler(state.view(0))
    dealer = GAME.sampler(state.view(2))
    moved = 0
    for _ in range(40):
        world = other.sample(rng)
        assert isinstance(world, TroggenState)
        assert world.view(0) == state.view(0)
        assert world.discard.bit_count() == 3
        assert not world.discard & (KEEP & ~KINGS)
        assert world.hands[2].bit_count() == 25
        moved |= world.discard != state.discard
        own = dealer.sample(rng)
        assert isinstance(own, TroggenState)
        assert own.discard == state.discard
    assert moved


def test_tr7_no_sampled_discard_holds_a_king() -> None:
    """Seed 000 line 151 ("dit mogen echter geen heren, troeven of het excuus
    zijn") and TR7 (issue 27 item 6): over many worlds drawn for a non-dealer,
    from the first lead and in the middle of the dealer's discarding, no
    discard holds a king, a trump or the excuse, and every world validates."""
    match = GAME.new_match(3, 11)
    views = []
    while match.discard.bit_count() < 3:
        views.append(match.view(0))
        match.apply(match.legal_actions()[0])
    views.append(match.view(1))
    rng = random.Random(27)
    kings_in_pool = 0
    for view in views:
        sampler = GAME.sampler(view)
        for _ in range(300):
            world = sampler.sample(rng)
            assert isinstance(world, TroggenState)
            assert world.view(view.seat) == view
            assert not world.discard & KEEP
            world.validate()
        kings_in_pool += bool(KINGS & ~TAROT.mask(view.hand))
    assert kings_in_pool  # kings were there to be drawn into the discard


def test_validate_checks_the_discard() -> None:
    """TR2 and line 151: validate() refuses a discard with a trump or the
    excuse, or with a king while the dealer had three other cards to discard;
    a king is allowed in TR2's rare hand (26 trumps, excuse and kings among
    28 cards)."""
    position().validate()
    hands = [h.split() for h in HANDS]
    for card in ("KS", "21T", "EX"):  # swap it with the JS of the discard
        dealer = [c if c != card else "JS" for c in hands[2]]
        discard = " ".join(card if c == "JS" else c for c in DISCARD.split())
        state = TroggenState.from_hands(
            GAME, [" ".join(h) for h in (hands[0], hands[1], dealer)], discard=discard
        )
        with pytest.raises(ValueError, match="line 151"):
            state.validate()
    trumps = " ".join(f"{k}T" for k in range(1, 22))
    others = [c for c in TAROT.cards if c not in KEEP_NAMES]
    rare = TroggenState.from_hands(
        GAME,
        [" ".join(others[:25]), " ".join(others[25:50]), f"{trumps} EX KC KD KH"],
        discard=f"{others[50]} {others[51]} KS",
    )
    rare.validate()
    # Played out, every view of a non-dealer draws only worlds that validate;
    # before the last card, seat 1's view proves a king in the discard.
    rng = random.Random(4)
    kings = 0
    while rare.deal == 0:
        for seat in (0, 1):
            sampler = GAME.sampler(rare.view(seat))
            for _ in range(8):
                world = sampler.sample(rng)
                assert isinstance(world, TroggenState)
                assert world.view(seat) == rare.view(seat)
                world.validate()
                kings += bool(world.discard & KINGS)
        rare.apply(rng.choice(rare.legal_actions()))
        if rare.deal == 0:
            rare.validate()
    assert kings


KEEP_NAMES = set(TAROT.names(KEEP))
