"""The jass bot's own decisions in Klaverjassen for 3 and Kleintje Klaverjas
(bots/jass_skart.py): the skart, trump, bids of points, the dealer's choices,
roem claims and the stuk; and a legal action at every seat count."""

from __future__ import annotations

import random

import pytest

from bots.jass import JassBot
from bots.jass_skart import estimate_points
from games.jass import Klaverjassen3, Kleintje
from games.jass.klaverjassen3 import Klaverjassen3State
from games.jass.kleintje import KleintjeState
from harness import Game, State
from tests.games.playing import play

K3 = Klaverjassen3()
KK = Kleintje()
K3_HANDS = [
    "JH 9H AH TH KH QH AS TS AC AD",
    "8H 7H KS QS JS 9S 8S 7S TC KC",
    "QC JC 9C 8C 7C TD KD QD JD 9D",
]
KK_HANDS = ["KH QH 7S", "JH AS TS", "9H AC 7C"]


def act(game: Game, state: State) -> str:
    seat = state.to_act
    assert seat is not None
    return JassBot(game, seat, 0).act(state.view(seat))


def k3(actions: str = "") -> Klaverjassen3State:
    return play(Klaverjassen3State.from_hands(K3, K3_HANDS, "8D 7D"), actions)


def kk(actions: str = "") -> KleintjeState:
    return play(KleintjeState.from_hands(KK, KK_HANDS, skart="AH TH"), actions)


def test_plays_a_strong_hand_and_passes_a_weak_one() -> None:
    """Six hearts with jack and nine: play; seat 2's clubs are not enough."""
    assert act(K3, k3()) == "play"
    assert act(K3, k3("pass pass")) == "pass"


def test_takes_the_skart_names_its_suit_lays_back_cheap_side_cards() -> None:
    state = k3("play")
    assert act(K3, state) == "take"
    state.apply("take")
    assert act(K3, state) == "hearts"
    state.apply("hearts")
    assert act(K3, state) in ("7D", "8D")  # no points, not trump


def test_claims_roem() -> None:
    """D5: A-K-Q of clubs won by seat 0: claim the 40."""
    assert act(K3, k3("play leave hearts AC KC QC")) == "roem"


def test_declares_the_stuk() -> None:
    """KK6: the player holding king and queen of trump says stuk."""
    assert act(KK, kk("bid:70 pass pass leave hearts")) == "stuk"


def test_dealer_deals_most_cards_small_closed_skart() -> None:
    state = KK.new_match(3, 1)
    for expected in ("deal:5", "skart:2", "closed"):
        action = act(KK, state)
        assert action == expected
        state.apply(action)


def test_bids_what_the_hand_can_carry_and_no_more() -> None:
    """Voorhand must open (KK2): the lowest bid. Seat 1 (JH AS TS) counts
    on 51 with hearts trump (jack 20 + 10, ace 11 + 10): it goes to 40 over
    30, passes over 60."""
    assert act(KK, kk()) == "bid:10"
    assert estimate_points(["JH", "AS", "TS"], 2) == 51
    assert act(KK, kk("bid:30")) == "bid:40"
    assert act(KK, kk("bid:60")) == "pass"


@pytest.mark.parametrize(
    ("game", "seats"),
    [(K3, 3), (K3, 4), (KK, 2), (KK, 3), (KK, 6)],
)
def test_always_a_legal_action(game: Game, seats: int) -> None:
    state = game.new_match(seats, 11)
    bots = [JassBot(game, s, s) for s in range(seats)]
    rng = random.Random(4)
    for _ in range(600):
        if state.is_over():
            break
        seat = state.to_act
        assert seat is not None
        # The bot at seat 0 against random play elsewhere.
        if seat == 0:
            action = bots[0].act(state.view(0))
            assert action in state.legal_actions()
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
