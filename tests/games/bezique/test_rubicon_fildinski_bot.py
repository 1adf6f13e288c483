"""The bezique heuristic bot at Rubicon and Fildinski: deliberate choices in
positions a player knows, and whole matches without forfeit.

Positions as in test_rubicon_rules.py and test_fildinski_rules.py (deal 0, seat
0 leads; stock in drawing order).
"""

from __future__ import annotations

from bots.bezique import BeziqueBot
from games.bezique import Fildinski, Rubicon
from games.bezique.fildinski import FildinskiState, FildinskiView
from games.bezique.rubicon import RubiconState
from harness.match.referee import make_bots, play_match

RUBICON = Rubicon()
FILDINSKI = Fildinski()
LOW = "7D 8D 9D 7S 8S 9S 7D 8D 9D"


def test_rubicon_declares_the_cheaper_first_so_cards_climb() -> None:
    """RU6 and the re-use rule: the marias (20) before the four kings (80) that
    share its king, so both score; the first marias in the longest suit sets
    trump (RU3)."""
    state = RubiconState.from_cards(
        RUBICON,
        ["KC KD KH KS QH QC 9C 8C 7C", LOW],
        ["7H", "8S", "7S", "8H"],
    )
    state.apply("9C")
    state.apply("7D")
    bot = BeziqueBot(RUBICON, 0, 1, {})
    first = bot.act(state.view(0))
    assert first == "meld:marias:C"  # clubs: the longest suit of the hand
    state.apply(first)
    while state.view(0).phase == "meld":
        state.apply(bot.act(state.view(0)))
    assert [m[1] for m in state.view(0).melds] == ["marias:C", "marias:H", "kings"]


def test_fildinski_takes_a_trick_that_completes_its_won_cards() -> None:
    """FI2: with K♥ among its won cards, the bot takes a led Q♥ with its ace
    (a marias and a brisque); on a jack of spades it cannot beat, it throws its
    weakest card, one that completes nothing of the other's won cards."""
    state = FildinskiState.from_cards(
        FILDINSKI,
        ["KH AH 8D 9D 7S 8S 9S 7D", "9H QH JS JC TC AD AS 8H"],
        "7H 8C QS 9D JH TH JD KD 8H 9C".split(),
    )
    # seat 0 wins K♥ and passes (F3); seat 1 the A♠ and passes
    for card in "KH 9H pass 7S AS pass".split():
        state.apply(card)
    view = state.view(0)
    assert isinstance(view, FildinskiView)
    assert "KH" in view.won[0] and state.to_act == 1
    bot = BeziqueBot(FILDINSKI, 0, 1, {})
    queen = state.clone()
    queen.apply("QH")
    assert bot.act(queen.view(0)) == "AH"
    jack = state.clone()
    jack.apply("JS")
    assert bot.act(jack.view(0)) == "7D"


def test_whole_matches_without_forfeit() -> None:
    for game in (RUBICON, FILDINSKI):
        for seed in range(2):
            bots = make_bots(game, [BeziqueBot, BeziqueBot], seed)
            result = play_match(game, bots, seed)
            assert result.forfeit is None
            assert max(result.scores) >= game.options["target"]
