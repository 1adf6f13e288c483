"""The bezique heuristic bot on Marjolet and Binage: it reads each game's own
combination table (positions as in test_marjolet_rules.py and
test_binage_rules.py: deal 0, seat 0 leads, spades trump)."""

from __future__ import annotations

import pytest

from bots.bezique import BeziqueBot
from games.bezique import Binage, Marjolet
from games.bezique.binage import BinageState
from games.bezique.family import FamilyGame
from games.bezique.marjolet import MarjoletState
from harness.match.referee import make_bots, play_match


def bot(game: FamilyGame, seat: int) -> BeziqueBot:
    return BeziqueBot(game, seat, 1, {})


def test_it_declares_every_combination_in_turn_in_marjolet() -> None:
    """Seed 000 line 234 (F1): several combinations after one trick; the bot
    declares the best left until nothing is (marias 20, marias 20, dix 10)."""
    game = Marjolet()
    state = MarjoletState.from_cards(
        game, ["KH QH KD QD 7S 9S", "7C 8C 7D 8D 7H 8H"], "9C 9D 9H 8S".split()
    )
    state.apply("9S")
    state.apply("7C")
    chosen = []
    while state.view(0).phase == "meld":
        action = bot(game, 0).act(state.view(0))
        chosen.append(action)
        state.apply(action)
    # F3: the turn ends with a pass, the only move left.
    assert chosen == ["meld:marias:D", "meld:marias:H", "dix", "pass"]
    assert state.view(0).points == (50, 0)


def test_it_takes_the_best_of_binage_s_table() -> None:
    """Seed 000 lines 282, 284: the five highest hearts (120) before the
    marias of hearts (20), one combination a trick (line 278)."""
    game = Binage()
    state = BinageState.from_cards(
        game,
        ["AH TH KH QH JH 9S 9H AC", "7C 8C 9C 7D 8D 9D 7H 8H"],
        "JC QC TC QD TD 8S".split(),
    )
    state.apply("9S")
    state.apply("7C")
    assert bot(game, 0).act(state.view(0)) == "meld:five:H"


def test_it_keeps_the_marias_and_leads_the_trump_nine() -> None:
    """Meld material stays in the hand: the queen of hearts is the lowest card,
    but with the king it is a marias (20, line 284) and part of the five
    highest hearts (120, line 282): the bot leads the 9 of trump instead."""
    game = Binage()
    state = BinageState.from_cards(
        game,
        ["QH KH AC TC AD TD AH 9S", "7C 8C 9C 7D 8D 9D 7H 8H"],
        "JC QC JD QD KD 8S".split(),
    )
    assert bot(game, 0).act(state.view(0)) == "9S"


@pytest.mark.parametrize("game", [Marjolet(), Binage()], ids=lambda g: g.name)
def test_it_plays_whole_matches_without_forfeit(game: FamilyGame) -> None:
    for seed in range(3):
        bots = make_bots(game, [BeziqueBot, BeziqueBot], seed)
        result = play_match(game, bots, seed)
        assert result.forfeit is None and max(result.scores) >= 500
