"""Worked examples of Klaverjassen for 3, each citing the rule text (seed 004,
"Klaverjassen, 3 spelers", lines 32-75) or a ruling D1, D2, ... of
games/jass/RULES.md.

Positions are built with ``Klaverjassen3State.from_hands`` in deal 0 of a
table of three: seat 2 deals, seat 0 is voorhand, bids first and leads.
"""

from __future__ import annotations

import random

import pytest

from games.cards import PIQUET
from games.jass import Klaverjassen3, troef_games
from games.jass.klaverjassen3 import (
    Klaverjassen3State,
    Klaverjassen3View,
    solo_deal_score,
)
from games.jass.roem import roem_parts_three, trick_roem_three
from games.jass.scoring import deal_score
from harness import IllegalActionError
from tests.games.playing import play as apply

GAME = Klaverjassen3()

# Seat 0: hearts JH 9H AH TH KH QH, AS TS, AC, AD
# Seat 1: hearts 8H 7H, spades KS QS JS 9S 8S 7S, clubs TC KC
# Seat 2: clubs QC JC 9C 8C 7C, diamonds TD KD QD JD 9D
# Skart:  8D 7D
HANDS = [
    "JH 9H AH TH KH QH AS TS AC AD",
    "8H 7H KS QS JS 9S 8S 7S TC KC",
    "QC JC 9C 8C 7C TD KD QD JD 9D",
]
SKART = "8D 7D"


def position() -> Klaverjassen3State:
    return Klaverjassen3State.from_hands(GAME, HANDS, SKART)


def view(state: Klaverjassen3State, seat: int) -> Klaverjassen3View:
    v = state.view(seat)
    assert isinstance(v, Klaverjassen3View)
    return v


def test_registered_three_each_for_himself_or_four() -> None:
    """Lines 34, 36 and D11: three each for himself; four with the dealer out."""
    assert Klaverjassen3 in troef_games()
    assert GAME.seat_counts == frozenset({3, 4})
    assert GAME.teams(3) == (0, 1, 2)


def test_deal_ten_each_and_a_skart_of_two() -> None:
    """Lines 39-40, 46 and D1: 10 cards each, 2 in the skart, face down."""
    state = GAME.new_match(3, 7)
    assert [h.bit_count() for h in state.hands] == [10, 10, 10]
    assert state.skart.bit_count() == 2
    assert view(state, 0).skart == () and view(state, 0).skart_count == 2
    assert state.dealer == 2 and state.to_act == 0
    assert "skart" in state.hidden_from(0)


def test_first_play_ends_the_bidding() -> None:
    """Line 49 and D2: the first "play" ends the bidding; seat 2 never bids."""
    state = apply(position(), "pass play")
    assert state.player == 1
    assert state.legal_actions() == ("take", "leave")
    assert view(state, 2).bids == ((0, "pass"), (1, "play"))


def test_all_pass_deals_again() -> None:
    """Line 49 and D3: all pass, the next dealer deals; the deal scores 0."""
    state = apply(position(), "pass pass pass")
    assert state.deal == 1 and state.dealer == 0 and state.to_act == 1
    assert state._deal_scores == ((0, 0, 0),)


def test_player_takes_the_skart_names_trump_lays_two_back() -> None:
    """Line 52 and D4: the player may take the skart and lay two cards back;
    only he knows what lies there."""
    state = apply(position(), "play take hearts")
    assert state.legal_actions() == PIQUET.names(state.hands[0])
    assert len(state.legal_actions()) == 12
    apply(state, "8D 7D")
    assert state.phase == "play" and state.to_act == 0
    assert view(state, 0).skart == ("7D", "8D")
    assert view(state, 1).skart == () and view(state, 1).skart_count == 2
    assert "skart" not in state.hidden_from(0) and "skart" in state.hidden_from(1)


def test_player_may_leave_the_skart() -> None:
    """Line 52 ("mag") and D4: leaving it, he names trump and play starts."""
    state = apply(position(), "play leave spades")
    assert state.took is False and state.trump == 3 and state.phase == "play"
    assert state.skart == PIQUET.mask(["8D", "7D"])


def test_roem_counts_only_when_the_winner_claims_it() -> None:
    """Lines 64, 69 and D5: A-K-Q of clubs in one trick is a run of three, 40;
    seat 0 wins it and must claim it."""
    state = apply(position(), "play leave hearts AC KC QC")
    assert state.phase == "roem" and state.to_act == 0
    assert state.legal_actions() == ("roem", "pass")
    apply(state, "roem")
    leader, cards, winner, points, roem = state._tricks[-1]
    assert leader == 0
    assert (cards, winner, points, roem) == (("AC", "KC", "QC"), 0, 18, 40)
    assert state.to_act == 0 and state.phase == "play"


def test_roem_not_claimed_is_lost() -> None:
    """Line 69 and D5: a winner who does not name it gets nothing."""
    state = apply(position(), "play leave hearts AC KC QC pass")
    assert state._tricks[-1][4] == 0


def test_no_claim_without_roem() -> None:
    """D5: a trick without roem asks nothing."""
    state = apply(position(), "play leave hearts AD 7H TD")
    assert state.phase == "play" and state.to_act == 1  # 7H trumps


@pytest.mark.parametrize(
    ("cards", "trump", "points", "names"),
    [
        ("KH QH JH", "H", 60, ["run of 3", "stuk"]),  # line 68: stuk in a run
        ("JC JD JS", "H", 120, ["three jacks"]),  # line 66
        ("7C 7D 7S", "H", 80, ["three 7s"]),  # line 65
        ("9S TS JS", "H", 40, ["run of 3"]),  # line 64: the roem order, 9-10-J
        ("KH QH 7C", "H", 20, ["stuk"]),  # line 67
        ("KH QH 7C", "S", 0, []),
        ("AS KS JS", "H", 0, []),  # A-K-J is no run
    ],
)
def test_roem_of_a_trick_of_three(
    cards: str, trump: str, points: int, names: list[str]
) -> None:
    """Lines 62-68 and D5: 40, 80, 120 and the stuk's 20, in A K Q J 10 9 8 7."""
    mask = PIQUET.mask(cards.split())
    suit = "CDHS".index(trump)
    assert trick_roem_three(mask, suit) == points
    assert [n for n, _ in roem_parts_three(mask, suit)] == names


def test_made_everyone_scores_his_own() -> None:
    """Line 72 and D7, D9: player 90 + roem 20 = 110; the others their own,
    rounded: 110, 40, 30."""
    made, pit, raw, scores = solo_deal_score(
        0, (0, 1, 2), (90, 40, 32), (20, 0, 0), (6, 2, 2)
    )
    assert made and pit is None
    assert raw == (110, 40, 32) and scores == (110, 40, 30)


def test_nat_the_others_share_everything_half_each() -> None:
    """Line 72 and D7: player 70 < 82; 162 + 40 roem = 202, 101 each -> 100."""
    made, _, raw, scores = solo_deal_score(
        0, (0, 1, 2), (70, 50, 42), (0, 40, 0), (4, 4, 2)
    )
    assert not made
    assert raw == (0, 101, 101) and scores == (0, 100, 100)


def test_82_is_the_bar_whatever_the_roem() -> None:
    """Lines 58, 72 and D6: 62 + 20 roem = 82 makes it, though the others
    claimed 100 roem (more than half of 282 would be 142)."""
    made, _, _, scores = solo_deal_score(
        0, (0, 1, 2), (62, 50, 50), (20, 100, 0), (4, 3, 3)
    )
    assert made and scores == (80, 150, 50)
    made, _, _, _ = solo_deal_score(0, (0, 1, 2), (81, 50, 31), (0, 0, 0), (4, 3, 3))
    assert not made


def test_the_bar_for_three_is_82_where_four_need_more_than_half() -> None:
    """D6 against R8 (issue 28 item 9): line 72 defines nat for three as
    "minder dan 82 punten", so 82 of the cards makes it though a defender
    claimed 20 roem; the four-player game's rule (R8: "méér dan de helft van het
    totaal aantal punten") makes the same 82 of 182 nat."""
    made, _, _, scores = solo_deal_score(
        0, (0, 1, 2), (82, 40, 40), (0, 20, 0), (4, 3, 3)
    )
    assert made and scores == (80, 60, 40)
    made4, _, _, scores4 = deal_score(0, (82, 80), (0, 20), (4, 4))
    assert not made4 and scores4 == (0, 180)


def test_all_tricks_earn_100() -> None:
    """Line 74 and D8: all tricks +100, for the player or a defender."""
    made, pit, _, scores = solo_deal_score(
        0, (0, 1, 2), (162, 0, 0), (40, 0, 0), (10, 0, 0)
    )
    assert made and pit == 0 and scores == (300, 0, 0)
    made, pit, _, scores = solo_deal_score(
        0, (0, 1, 2), (0, 162, 0), (0, 0, 0), (0, 10, 0)
    )
    assert not made and pit == 1 and scores == (0, 180, 80)


def test_skart_goes_with_the_last_trick() -> None:
    """Line 52 and D4: the skart's points go to the last trick's winner; the
    deal's card points add up to 162."""
    state = apply(position(), "play take hearts AD TS")
    rng = random.Random(3)
    while state.deal == 0:
        state.apply(rng.choice(state.legal_actions()))
    summary = state.history[0]
    assert sum(summary.points) == 162
    assert summary.skart == (21, summary.skart[1])  # AD 11 + TS 10
    assert state._last_tricks[-1][2] == summary.skart[1]


def test_four_players_the_dealer_sits_out() -> None:
    """Line 34 and D11: with four the dealer gets no cards, never acts and
    scores 0; a trick has three cards."""
    state = GAME.new_match(4, 5)
    rng = random.Random(5)
    for deal in range(3):
        assert state.hands[state.dealer] == 0
        dealer = state.dealer
        while state.deal == deal and not state.is_over():
            assert state.to_act != dealer
            state.apply(rng.choice(state.legal_actions()))
        assert all(len(t[1]) == 3 for t in state._last_tricks)
        assert state._deal_scores[-1][dealer] == 0


def test_match_ends_at_the_target() -> None:
    """D10: the match ends after the deal in which a seat reaches the target."""
    game = Klaverjassen3(target=100)
    state = game.new_match(3, 2)
    rng = random.Random(2)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    assert max(state._totals) >= 100
    before = [sum(d[s] for d in state._deal_scores[:-1]) for s in range(3)]
    assert max(before) < 100
    result = state.result()
    assert result.scores == state._totals


def test_only_legal_actions() -> None:
    """D14: bids are play or pass; a card is refused while bidding."""
    state = position()
    with pytest.raises(IllegalActionError):
        state.apply("JH")


def test_sampler_keeps_the_skart_the_player_laid_back() -> None:
    """D12, D13: the player's own discards stay in the skart in every world;
    another seat's worlds vary the skart."""
    state = apply(position(), "play take hearts 8D 7D JH")
    me = GAME.sampler(view(state, 0))
    other = GAME.sampler(view(state, 1))
    rng = random.Random(1)
    skarts = set()
    for _ in range(20):
        mine = me.sample(rng)
        assert isinstance(mine, Klaverjassen3State)
        assert mine.skart == PIQUET.mask(["8D", "7D"])
        world = other.sample(rng)
        assert isinstance(world, Klaverjassen3State)
        assert world.view(1) == view(state, 1)
        skarts.add(world.skart)
    assert len(skarts) > 1
