"""Worked examples of the gin-rummy heuristic (bots/gin_rummy.py).

The rule text is seeds/000_f1f8b277f898f51f.txt, lines 484-551; "ruling N" is
the numbered ruling in games/rummy/RULES.md. Positions are built card by card
with the rules tests' :func:`position` (seat 0 to act; every card not named
lies in the stock).
"""

from __future__ import annotations

import pytest

from bots.gin_rummy import GinRummyBot
from bots.random_bot import RandomBot
from games.rummy.gin import GinRummy, GinRummyState
from games.rummy.melds import expected_deadwood
from tests.games.playing import play_bots
from tests.games.rummy.test_gin_rules import cards, position

#: Three melds, nine cards: A-2-3 of clubs, three fives, three nines.
MELDS = "AC 2C 3C 5D 5H 5S 9H 9S 9C"
#: The opponent's ten cards in most examples: no meld among them.
LOOSE = "KC KH QS JD 7C 8D 6S 6H TD 3H"


def choice(state: GinRummyState, seat: int = 0) -> str:
    bot = GinRummyBot(state.game, seat, 1)
    action = bot.act(state.view(seat))
    assert action in state.legal_actions()
    return action


# -- drawing (line 508) ---------------------------------------------------------


def test_takes_the_upcard_that_completes_a_meld() -> None:
    """Line 508: the top of the discard pile may be taken; 9D makes a run
    with 7D 8D, where the stock card would most likely be deadwood."""
    state = position(
        "AC 2C 3C 5D 5H 5S 7D 8D KS QH",
        LOOSE.replace("8D", "4D"),
        pile="9D",
        phase="draw",
    )
    assert state.legal_actions() == ("draw:stock", "draw:discard")
    assert choice(state) == "draw:discard"


def test_takes_a_low_upcard_that_lowers_deadwood_more_than_the_stock_would() -> None:
    """Three melds and the KD: the AH on the pile melds nothing, but taking
    it and throwing the KD leaves deadwood 1, less than a stock card leaves
    on average."""
    state = position(MELDS + " KD", LOOSE, pile="AH", phase="draw")
    assert choice(state) == "draw:discard"


def test_leaves_an_upcard_that_neither_melds_nor_beats_the_stock() -> None:
    """Three melds and the 4D: the QH would stay in hand as deadwood (the
    card just taken may not be thrown back, ruling 5), so it draws blind."""
    state = position(MELDS + " 4D", LOOSE.replace("KH", "4S"), pile="KH", phase="draw")
    assert choice(state) == "draw:stock"


# -- discarding (line 510) ------------------------------------------------------


def test_discards_the_highest_loose_card_outside_a_potential_meld() -> None:
    """Line 539, "Je kunt beter met lage kaarten verliezen dan met hoge": of
    the loose KS, QD, JD, 9H and 9S the KS goes; the QD and JD wait for the TD
    or the KD, the nines for the 9C or the 9D, and the king for nothing."""
    state = position(
        "AC 2C 3C 5D 5H 5S 9H 9S KS QD JD", LOOSE.replace("JD", "4S"), pile="2H"
    )
    assert choice(state) == "KS"


def test_a_dead_out_counts_for_nothing() -> None:
    """The QD and JD wait for the TD or the KD; both lie under the top of the
    discard pile, out of reach for good ("een weggegooide kaart krijg je nooit
    meer terug", line 543), so the pair is no better than two loose cards."""
    hand = cards("AC 2C 3C 5D 5H 5S 9H 9S 9C QD")
    live = expected_deadwood(hand | cards("JD"), dead=0)
    dead = expected_deadwood(hand | cards("JD"), dead=cards("TD KD"))
    assert live < dead == 10 + 10


def test_does_not_feed_the_meld_the_opponent_is_collecting() -> None:
    """The opponent took the KD and the KS from the pile: the KC would make
    his set, so the TH goes instead (line 537: remember what was thrown and
    taken)."""
    hand = "AC 2C 3C 5D 5H 5S 9H 9S KC 9D TH"
    other = "KD KS QS JD 7C 8D 6S 6H TD 3H"
    state = position(hand.replace(" TH", ""), other, pile="2H")
    state.hands[0] = cards(hand)
    # Unaware, it throws one of its two loose tens, the first in deck order.
    assert choice(state) == "KC"
    state.known[1] = cards("KD KS")
    state._fixed = None
    assert state.view(0).opponent_known == ("KD", "KS")
    assert choice(state) == "TH"


# -- going out (lines 514, 516) -------------------------------------------------


@pytest.mark.parametrize("knock_card", ["top", "upcard"])
def test_knocks_with_seven_deadwood_when_the_card_is_an_eight(knock_card: str) -> None:
    """Line 516: deadwood at most the value of the open card, here an 8 (the
    pile's top, ruling 3; or the upcard, ruling 17): with the 4D and 3H loose
    (7) it knocks at once, throwing the KS."""
    state = position(
        MELDS + " 4D 3H KS", LOOSE.replace("3H", "4S"), pile="8C", knock_card=knock_card
    )
    assert state.view(0).knock_limit == 8
    assert choice(state) == "knock:KS"


def test_does_not_knock_over_the_limit() -> None:
    """Line 516: with a 6 on the pile, 7 deadwood may not knock: it discards."""
    state = position(MELDS + " 4D 3H KS", LOOSE.replace("3H", "4S"), pile="6C")
    assert not any(a.startswith("knock") for a in state.legal_actions())
    assert choice(state) == "KS"


def test_goes_gin_rather_than_knock() -> None:
    """Line 514: all ten cards melded after the discard is gin (20 plus the
    other's deadwood, line 520); knocking with the 4C thrown would leave the KS."""
    state = position(MELDS + " 9D 4C KS", LOOSE, pile="TC")
    legal = state.legal_actions()
    assert "knock:4C" in legal and "gin:KS" in legal
    assert choice(state) == "gin:KS"


def test_lays_down_the_least_deadwood_layout() -> None:
    """Ruling 8: after the knock, the layouts are offered least deadwood
    first (the 2D-5D run whole, the AC, AS and 2S loose: deadwood 4); it lays
    that one down."""
    state = position(
        "9C 9D 9H 2D 3D 4D 5D AC AS 2S KH", LOOSE.replace("KH", "4S"), pile="TC"
    )
    assert choice(state) == "knock:KH"
    state.apply("knock:KH")
    assert state.view(0).phase == "layout"
    assert choice(state) == state.legal_actions()[0] == "lay:9C9D9H+2D-5D"


def test_wins_whole_matches_against_random() -> None:
    """Two matches at the default target (150, line 528): every action is
    legal, and the heuristic wins both."""
    game = GinRummy()
    for seed in (1, 2):
        state = game.new_match(2, seed)
        bots = [GinRummyBot(game, 0, 5), RandomBot(game, 1, 6)]
        play_bots(state, bots)
        assert state.result().utilities == (1.0, -1.0)
