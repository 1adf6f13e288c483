"""Worked examples of Kleintje Klaverjas, each citing the rule text (seed 004,
"Kleintje Klaverjas", lines 1-30) or a ruling KK1, KK2, ... of
games/jass/RULES.md.

Positions are built with ``KleintjeState.from_hands`` in deal 0 of a table of
three: seat 2 deals, seat 0 is voorhand, bids first and leads.
"""

from __future__ import annotations

import random

import pytest

from games.cards import PIQUET
from games.jass import Kleintje, troef_games
from games.jass.kleintje import BIDS, DEAL_ACTIONS, KleintjeState, lives_at_stake
from harness import IllegalActionError
from tests.games.playing import play as apply

GAME = Kleintje()

# Three cards each, hearts to be trump; AH TH in the skart.
# Seat 0: KH QH 7S     Seat 1: JH AS TS     Seat 2: 9H AC 7C
HANDS = ["KH QH 7S", "JH AS TS", "9H AC 7C"]


def position(game: Kleintje = GAME, **kw: object) -> KleintjeState:
    return KleintjeState.from_hands(game, HANDS, skart="AH TH", **kw)  # type: ignore[arg-type]


def test_registered_two_to_six() -> None:
    """Line 5: 2-6 players, each for himself; ranks are not the scores."""
    assert Kleintje in troef_games()
    assert GAME.seat_counts == frozenset({2, 3, 4, 5, 6})
    assert GAME.teams(4) == (0, 1, 2, 3)


def test_the_dealer_chooses_cards_skart_and_openness() -> None:
    """Line 8 and KK1: 1-5 cards each, then 0-5 to the skart, open or closed:
    three decisions of the dealer; the rest stays undealt."""
    state = GAME.new_match(3, 4)
    assert state.to_act == 2 and state.legal_actions() == DEAL_ACTIONS
    apply(state, "deal:5")
    assert state.legal_actions() == tuple(f"skart:{k}" for k in range(6))
    apply(state, "skart:2")
    assert state.legal_actions() == ("open", "closed")
    apply(state, "open")
    assert [h.bit_count() for h in state.hands] == [5, 5, 5]
    assert state.skart.bit_count() == 2 and state.stock.bit_count() == 15
    view = state.view(1)
    assert view.open_skart == PIQUET.names(state.skart)
    assert "skart" not in state.hidden_from(1) and "stock" in state.hidden_from(1)


def test_six_players_leave_room_for_two() -> None:
    """KK1: six players with five cards each leave two for the skart; an
    empty skart asks nothing about lying open."""
    state = GAME.new_match(6, 1)
    apply(state, "deal:5")
    assert state.legal_actions() == ("skart:0", "skart:1", "skart:2")
    apply(state, "skart:0")
    assert state.phase == "bid" and state.stock.bit_count() == 2


def test_voorhand_opens_and_cannot_pass() -> None:
    """Line 11 and KK2, KK3: voorhand bids first, in tens from 10 to 160."""
    state = position()
    assert state.legal_actions() == BIDS
    assert "pass" not in state.legal_actions()


def test_each_bid_higher_and_a_passed_player_is_out() -> None:
    """Line 11 and KK3: each bid higher; a passed player bids no more; the last
    bidder left is the player."""
    state = apply(position(), "bid:30 bid:40 pass bid:50")
    assert state.to_act == 1
    assert state.legal_actions() == (*BIDS[5:], "pass")
    apply(state, "pass")
    assert state.player == 0 and state.bid == 50
    assert state.legal_actions() == ("take", "leave")


def test_stuk_declared_in_hand_lowers_the_bid() -> None:
    """Line 24 and KK6, KK7: the player says "stuk" as he plays his king of
    trump: he needs 20 less. He then wins the last trick with the skart:
    10 + 11 + 3 + 10 + AH TH 21 = 55, enough for a bid of 70."""
    state = apply(position(), "bid:70 pass pass leave hearts")
    assert "stuk" in state.legal_actions()
    apply(state, "stuk")
    assert state.legal_actions() == ("QH", "KH")
    assert state.target() == 50
    apply(state, "KH JH 9H")  # KK5: 1 wins, J over K; 9 under-trumps (line 22)
    apply(state, "AS 7C 7S")
    apply(state, "TS AC QH")  # 0 trumps the last trick
    assert state.deal == 1
    assert state.lives == (6, 5, 5)
    assert state._deal_scores == ((0, -1, -1),)


def test_without_the_stuk_the_same_play_loses() -> None:
    """KK7: 55 does not reach a bid of 70: the player loses a life."""
    state = apply(position(), "bid:70 pass pass leave hearts KH JH 9H")
    apply(state, "AS 7C 7S TS AC QH")
    assert state.lives == (5, 6, 6)


def test_stuk_won_in_a_trick_by_a_defender_raises_the_bid() -> None:
    """Line 24 and KK6: king and queen of trump fall in one trick that a
    defender wins: the player needs 20 more."""
    hands = ["KH 7S 8S", "QH AS TS", "JH AC 7C"]
    state = KleintjeState.from_hands(GAME, hands)
    apply(state, "bid:10 pass pass hearts KH QH JH")
    assert state.stuk == "defenders" and state.target() == 30


def test_spit_stakes() -> None:
    """Line 30 and KK10: under 50 one life, 50-99 two, 100 up three."""
    assert [lives_at_stake(b, spit=True) for b in (10, 40, 50, 90, 100, 160)] == [
        1,
        1,
        2,
        2,
        3,
        3,
    ]
    assert lives_at_stake(160, spit=False) == 1


def test_spit_costs_the_player_two() -> None:
    """KK10: a lost bid of 70 costs two lives with Spit."""
    state = position(Kleintje(spit=True))
    apply(state, "bid:70 pass pass leave hearts KH JH 9H AS 7C 7S TS AC QH")
    assert state.lives == (4, 6, 6)


def test_first_to_zero_goes_op_de_kip() -> None:
    """Line 27 and KK8: the first to reach 0 plays on at 0."""
    state = position(Kleintje(lives=1))
    apply(state, "bid:70 pass pass leave hearts KH JH 9H AS 7C 7S TS AC QH")
    assert state.lives == (0, 1, 1) and state.kip == (0,) and state.out == ()
    assert 0 in state.active and not state.is_over()


def test_several_first_to_zero_all_go_op_de_kip() -> None:
    """KK8: seats 1 and 2 reach 0 in the same deal, both first: both on the
    kip, no one out."""
    state = position(Kleintje(lives=1))
    apply(state, "bid:70 pass pass leave hearts stuk KH JH 9H AS 7C 7S TS AC QH")
    assert state.lives == (1, 0, 0) and state.kip == (1, 2) and state.out == ()
    assert not state.is_over()


def test_after_the_kip_zero_is_out_and_the_last_one_wins() -> None:
    """Line 27 and KK8, KK9: seat 2 on the kip and seat 1 at its last life both
    lose when seat 0 makes it: both go out, tied; seat 0 wins the match."""
    state = position(Kleintje(lives=1))
    state.kip, state._kip_used, state.lives = (2,), True, (1, 1, 0)
    apply(state, "bid:70 pass pass leave hearts stuk KH JH 9H AS 7C 7S TS AC QH")
    assert state.is_over()
    assert state.out == ((1, 0), (2, 0))
    result = state.result()
    assert result.ranks == (1, 2, 2)


def test_the_deal_passes_over_a_player_out() -> None:
    """KK8: seat 1 goes out in deal 0 (dealer seat 2); seat 0 deals deal 1
    and seat 2, the next seat still in, is voorhand."""
    state = position(Kleintje(lives=2))
    state.kip, state._kip_used, state.lives = (1,), True, (2, 0, 2)
    apply(state, "bid:70 pass pass leave hearts stuk KH JH 9H AS 7C 7S TS AC QH")
    assert state.out == ((1, 0),) and state.lives == (2, 0, 1)
    assert state.deal == 1 and state.dealer == 0 and state.active == (2, 0)
    apply(state, "deal:2 skart:0 bid:10 pass")
    assert state.player == 2  # voorhand opened, seat 0 passed
    assert [h.bit_count() for h in state.hands] == [2, 0, 2]


def test_ranked_by_when_they_went_out() -> None:
    """KK9: later out ranks higher; the scores are the lives left."""
    state = position()
    state.out, state.lives = ((2, 0), (1, 3)), (4, 0, 0)
    assert state.result().ranks == (1, 2, 3)
    assert state.result().scores == (4, 0, 0)


def test_players_out_sit_out() -> None:
    """KK8: a player out gets no cards, deals not, bids not."""
    state = Kleintje(lives=1).new_match(4, 3)
    rng = random.Random(3)
    while not state.is_over():
        gone = {s for s, _ in state.out}
        assert state.to_act not in gone
        assert all(state.hands[s] == 0 for s in gone)
        state.apply(rng.choice(state.legal_actions()))
    assert len(state.out) == 3


def test_a_card_is_refused_while_bidding() -> None:
    """KK13: while bidding only bids and pass."""
    with pytest.raises(IllegalActionError):
        position().apply("KH")


def test_sampler_keeps_the_declared_stuk_and_an_open_skart() -> None:
    """KK4, KK11, KK12: the declared stuk's other card stays in the player's hand;
    an open skart the player took lies in his hand or back in the skart."""
    state = position(skart_open=True)
    apply(state, "bid:10 pass pass take hearts 7S QH")
    # Seat 0 laid back 7S and QH: AH TH (seen open) are in his hand or skart.
    view = state.view(1)
    sampler = GAME.sampler(view)
    rng = random.Random(2)
    open_cards = PIQUET.mask(["AH", "TH"])
    for _ in range(30):
        world = sampler.sample(rng)
        assert isinstance(world, KleintjeState)
        assert world.view(1) == view
        assert (world.hands[0] | world.skart) & open_cards == open_cards
    state = apply(position(), "bid:10 pass pass leave hearts stuk KH")
    view = state.view(2)
    for _ in range(10):
        world = GAME.sampler(view).sample(rng)
        assert isinstance(world, KleintjeState)
        assert world.hands[0] >> PIQUET.index["QH"] & 1
