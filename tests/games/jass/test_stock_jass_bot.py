"""The stock-jass heuristic (bots/stock_jass.py) plays legal moves and takes
its points."""

from __future__ import annotations

import pytest

from bots.ismcts import ISMCTSBot
from bots.pimc import PIMCBot
from bots.stock_jass import StockJassBot
from games.jass.smousjas import Smousjas
from games.jass.stock import StockState
from games.jass.vijfhonderden import Vijfhonderden
from tests.games.playing import play_bots


@pytest.mark.parametrize("game", [Smousjas.for_checks(), Vijfhonderden.for_checks()])
def test_plays_whole_matches_legally(game: Smousjas) -> None:
    state = game.new_match(2, 3)
    bots = [StockJassBot(game, s, 10 + s) for s in (0, 1)]
    assert play_bots(state, bots) > 30


def challenge_position(game: Smousjas) -> StockState:
    """Seat 0 leads with three to the QS; seat 1 holds four to the KH."""
    return StockState.from_cards(
        game,
        ["QS JS TS 8C AH", "KH QH JH TH 7D"],
        "7C",
        ["KD", "QD", "8H", "9H", "7H"],
    )


def test_declares_challenges_and_marries() -> None:
    game = Smousjas()
    state = challenge_position(game)
    lead, follow = StockJassBot(game, 0, 1), StockJassBot(game, 1, 2)
    assert lead.act(state.view(0)) == "roem:QS3"
    state.apply("roem:QS3")
    state.apply(lead.act(state.view(0)))
    assert follow.act(state.view(1)) == "afkeuren:KH4"


def test_search_bots_play_the_worked_position_to_its_end() -> None:
    """Issue 35: IS-MCTS on this position (with a stock of six, which no deal
    makes: ``from_cards`` now refuses it) raised ``IndexError: pop from empty
    list`` in its playouts. With the odd stock a deal has, both search bots
    search it and the hand plays to its end."""
    game = Smousjas()
    state = challenge_position(game)
    bots = [
        ISMCTSBot(game, 0, 1, {"iterations": 60}),
        PIMCBot(game, 1, 2, {"worlds": 4, "rollouts": 2}),
    ]
    deal = state.deal
    while state.deal == deal:
        seat = state.to_act
        assert seat is not None
        action = bots[seat].act(state.view(seat))
        assert action in state.legal_actions()
        state.apply(action)
