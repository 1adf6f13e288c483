"""The trick games' rollout rule of thumb (``games/trick_rollouts.py``), on
hands a card player recognises: Maison Tarot (seed 000 lines 331-369, points
line 362) and Klaverjassen (trump hearts, for a partner's trick)."""

from __future__ import annotations

import random

import pytest

from bots.ismcts import ISMCTSBot
from games.jass import Klaverjassen
from games.jass.klaverjassen import KlaverjassenState
from games.tarot import MaisonTarot, MaisonTroggen
from games.tarot.maison import MaisonTarotState
from games.trick_rollouts import greedy_card
from harness import load_game

#: Two cards a hand (Wilde Maison Tarot lets the players agree on it).
TINY = MaisonTarot(variant="wilde", hand_size=2)
RNG = random.Random(0)
#: Klaverjassen hands for a spade trick (trump hearts, seat 0 to lead).
SPADES = [
    "7S 7C 8C 9C 7D 8D 9D 7H",
    "AS TC JC QC KC TD JD 8H",
    "9S AC QD KD AD 9H TH JH",
    "8S TS JS QS KS QH KH AH",
]


def test_the_leader_leads_the_card_worth_least() -> None:
    """The king of clubs is worth 4 (line 362), the 2C nothing: the 2C leads."""
    state = MaisonTarotState.from_hands(TINY, ["KC 2C", "3D 4D"])
    assert greedy_card(state, RNG) == "2C"


def test_an_opponents_trick_with_points_is_taken_with_the_cheapest_winner() -> None:
    """The king led, void in clubs: 2T and 20T both take it and count nothing;
    the lower goes, 20T is saved."""
    state = MaisonTarotState.from_hands(TINY, ["KC 3D", "20T 2T"])
    state.apply("KC")
    assert greedy_card(state, RNG) == "2T"


def test_a_trick_that_cannot_be_taken_gets_the_cheapest_card() -> None:
    """The king led and only lower clubs to follow with: the 2C, not the QC
    (worth 3)."""
    state = MaisonTarotState.from_hands(TINY, ["KC 3D", "QC 2C"])
    state.apply("KC")
    assert greedy_card(state, RNG) == "2C"


def test_last_to_play_a_partners_trick_gets_the_dearest_card_that_leaves_it() -> None:
    """Trump hearts. Seat 0 leads the 7S, seat 1 takes it with the AS, seat 2
    follows with the 9S; seat 3, seat 1's partner and last, throws the TS (10
    points) into his partner's trick rather than the KS (4), QS (3), JS (2)
    or 8S."""
    state = KlaverjassenState.from_hands(Klaverjassen(), SPADES, trump="H", deal=4)
    for card in ("7S", "AS", "9S"):
        state.apply(card)
    assert greedy_card(state, RNG) == "TS"


def test_the_trick_in_play_names_the_table_as_the_view_shows_it() -> None:
    """The same klaverjassen trick two cards in: the 7S led, the AS holds it
    for seat 1, and seat 2 must follow spades with its only one, the 9S."""
    state = KlaverjassenState.from_hands(Klaverjassen(), SPADES, trump="H", deal=4)
    for card in ("7S", "AS"):
        state.apply(card)
    play = state.trick_in_play()
    assert play is not None
    assert [play.names[c] for c in play.cards] == ["7S", "AS"]
    assert play.winner == 1
    assert state.rules.names(play.legal) == ("9S",) == state.legal_actions()
    assert play.size == 4
    assert play.points[state.rules.deck.cards.index("AS")] == 11


def test_no_trick_is_in_play_before_the_card_play() -> None:
    """While Maison Troggen's dealer discards there is no trick to read."""
    assert MaisonTroggen().new_match(3, 1).trick_in_play() is None


def test_outside_the_card_play_the_action_is_drawn_at_random() -> None:
    """Maison Troggen's dealer discards three cards before the play (line 151):
    the rule of thumb has nothing to say, and draws among the legal ones."""
    game = MaisonTroggen()
    state = game.new_match(3, 1)
    legal = state.legal_actions()
    assert len(legal) > 1
    drawn = {greedy_card(state, random.Random(seed)) for seed in range(20)}
    assert drawn <= set(legal) and len(drawn) > 1


@pytest.mark.parametrize("name", ["maison-tarot", "maison-troggen", "triomphe-forcee"])
def test_a_search_bot_rolls_out_a_tarot_deal_by_it(name: str) -> None:
    """``rollout = "game"`` in each tarot game plays a whole deal legally."""
    table = load_game(name)
    state = table.new_match(3)
    bots = [
        ISMCTSBot(table.game, s, s, {"rollout": "game", "iterations": 8})
        for s in range(table.seats)
    ]
    while state.to_act is not None and state.deal == 0:
        view = state.view(state.to_act)
        action = bots[state.to_act].act(view)
        assert action in view.legal_actions
        state.apply(action)
