"""The stock-jass heuristic (bots/stock_jass.py) plays legal moves and takes
its points."""

from __future__ import annotations

import pytest

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


def test_declares_challenges_and_marries() -> None:
    game = Smousjas()
    state = StockState.from_cards(
        game,
        ["QS JS TS 8C AH", "KH QH JH TH 7D"],
        "7C",
        ["KD", "QD", "8H", "9H", "7H", "9D"],
    )
    lead, follow = StockJassBot(game, 0, 1), StockJassBot(game, 1, 2)
    assert lead.act(state.view(0)) == "roem:QS3"
    state.apply("roem:QS3")
    state.apply(lead.act(state.view(0)))
    assert follow.act(state.view(1)) == "afkeuren:KH4"
