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


def lead_after_declaring(game: Smousjas, hands: list[str], stock: list[str],
                         open_card: str, *moves: str) -> str:  # fmt: skip
    """The card stock-jass leads for seat 0 after ``moves`` from the deal."""
    state = StockState.from_cards(game, hands, open_card, stock)
    for action in moves:
        state.apply(action)
    assert state.to_act == 0
    return StockJassBot(game, 0, 1).act(state.view(0))


def test_a_declared_run_is_no_reason_to_keep_its_cards() -> None:
    """000:470 (S8): "Je mag iedere roem maar één keer declareren", and a run
    only above one already declared in that suit. Seat 0 scored Q J 10 of
    diamonds; the 9 and the K went in the next tricks, so no higher diamond
    run can come (a run of 4 needs one of them). Its jack (2 points) is now a
    card to throw; it used to lead the ace of clubs (11) to keep the run."""
    lead = lead_after_declaring(
        Smousjas(),
        ["QD JD TD 7C 8C", "9D KD 7S 9S TS"],
        ["AC", "JS", "KH", "QC", "KC"],
        "8H",
        *("roem:QD3", "7C", "9D", "8C", "KD"),
    )
    assert lead == "JD"


@pytest.mark.parametrize(
    ("game", "why"),
    [(Smousjas(), "four eights announced"), (Vijfhonderden(), "no declaration, V1")],
)
def test_a_carre_that_cannot_score_again_is_no_reason_to_keep(
    game: Smousjas, why: str
) -> None:
    """000:470 (S8): a carré scores once. In Smousjas seat 0 announces four
    eights (100, 000:455) and leads one of them, keeping its ace; in
    Vijfhonderden four eights are no declaration at all (000:402-403, V1).
    It used to lead the ace of clubs to keep the eights together."""
    moves = ("roem:8888",) if game.name == "smousjas" else ()
    lead = lead_after_declaring(
        game, ["8C 8D 8H 8S AC", "9D KD 7H 9H TH"], ["KC", "JS", "QC"], "TS", *moves
    )
    assert lead[0] == "8" and lead != "8S", why


def test_wins_a_blank_trick_only_with_something_left_to_declare() -> None:
    """000:416 / 000:472: "aan slag proberen te komen wanneer ze iets te
    declareren hebben". Seat 1 challenged seat 0's three to the QS with four
    to the KH (S7), which scores for seat 1; holding nothing else to declare it
    throws a card to seat 0's 8C instead of taking the blank trick with its AC."""
    game = Smousjas()
    state = StockState.from_cards(
        game, ["QS JS TS 8C AH", "KH QH JH TH AC"], "7D", ["KD", "QD", "8H"]
    )
    for action in ("roem:QS3", "8C", "afkeuren:KH4"):
        state.apply(action)
    card = StockJassBot(game, 1, 2).act(state.view(1))
    assert card in ("JH", "TH", "QH", "KH"), card
