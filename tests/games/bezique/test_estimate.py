"""Worked examples of the Bezique family's deal estimate (games/bezique/estimate.py),
the value a search bot gives a rollout cut off before the deal ends.

Rule text: ../shared/seeds/000_f1f8b277f898f51f.txt (cited as "seed 000 line N").
Positions are built with ``from_cards`` in deal 0 (seat 0 leads); the stock is
given in drawing order, its last card the turned one (the trump).
"""

from __future__ import annotations

import pytest

from games.bezique import Bezique
from games.bezique.bezique import BeziqueState
from games.bezique.estimate import (
    BRISQUE_SHARE,
    MATERIAL_CAP,
    MATERIAL_SHARE,
    MELD_SHARE,
    material,
)
from games.bezique.fildinski import Fildinski, FildinskiState
from games.bezique.marjolet import Marjolet, MarjoletState

# Seat 0: K Q of spades (the stuk once spades is trump, 40: seed 000 line 119),
# Q of spades with J of diamonds (the bezique, 40: line 121), an ace and a ten.
SEAT0 = "KS QS JD AH TH 7C 8C 9D"
# Seat 1: no combination, no ace, no ten; two of the four jacks.
SEAT1 = "7H 8H 9H 7D 8D 9C JC JH"
#: With spades trump, the parts of combinations SEAT0 holds (seed 000 lines
#: 114-122): K Q of the trump sequence (250, capped), one ace of four aces (100),
#: one king (80), one queen (60), one jack (40), one of each pair of the double
#: bezique (500, capped); the stuk and the bezique are whole, not parts.
SEAT0_MATERIAL = (
    MATERIAL_CAP * 2 / 5 + 100 / 4 + 80 / 4 + 60 / 4 + 40 / 4 + MATERIAL_CAP * 2 / 4
)
#: SEAT1's: two of four jacks.
SEAT1_MATERIAL = 40 * 2 / 4


def test_meld_material_counts_the_parts_of_combinations_held() -> None:
    state = BeziqueState.from_cards(Bezique(), [SEAT0, SEAT1], ["AD", "7S"])
    assert MATERIAL_CAP == 120 and MATERIAL_SHARE == 0.1
    assert material(state, state.hands[0]) == pytest.approx(SEAT0_MATERIAL)
    assert material(state, state.hands[1]) == pytest.approx(SEAT1_MATERIAL)


def test_one_declaration_per_trick_won_counts_the_best_for_half_the_stock() -> None:
    """Bezique declares one combination per trick won (seed 000 line 111: "één
    combinatie"); a stock of 8 is 4 tricks, of which a seat may expect to win 2:
    both 40s count, at MELD_SHARE, the ace and ten (10 each when won, line 109)
    at BRISQUE_SHARE, and the parts of combinations at MATERIAL_SHARE."""
    game = Bezique()
    state = BeziqueState.from_cards(
        game, [SEAT0, SEAT1], "AD TD KD KC QC 8S 9S 7S".split()
    )
    assert state.view(0).trump == "S"
    assert state._meld_prospects(0) == [40, 40]
    assert state._meld_prospects(1) == []
    assert MELD_SHARE == BRISQUE_SHARE == 0.5
    assert game.deal_estimate(state) == pytest.approx(
        (0.5 * 80 + 0.5 * 20 + 0.1 * SEAT0_MATERIAL, 0.1 * SEAT1_MATERIAL)
    )


def test_one_stock_trick_left_counts_one_declaration() -> None:
    game = Bezique()
    state = BeziqueState.from_cards(game, [SEAT0, SEAT1], ["AD", "7S"])
    assert game.deal_estimate(state) == pytest.approx(
        (0.5 * 40 + 0.5 * 20 + 0.1 * SEAT0_MATERIAL, 0.1 * SEAT1_MATERIAL)
    )


def test_no_declaration_counts_once_the_stock_is_drawn() -> None:
    """Seed 000 line 127: once the last card is drawn, "mag er niet meer geroemd
    worden", nor does meld material; what was won counts whole, the brisques in
    hand at half."""
    game = Bezique()
    state = BeziqueState.from_cards(game, [SEAT0, SEAT1], ["AD", "7S"])
    for action in ("TH", "7H", "pass"):  # seat 0 wins the ten back (line 109)
        state.apply(action)
    assert state.view(0).stock == 0 and state.view(0).phase == "final"
    assert state._points == [10, 0]
    # The hand now holds the ace of hearts and, drawn, the ace of diamonds.
    assert game.deal_estimate(state) == (10 + 0.5 * 20, 0.0)


def test_several_declarations_a_trick_count_all_in_marjolet() -> None:
    """Marjolet declares "één of meerdere combinaties" (seed 000 line 234), so
    every combination the hand holds counts: with spades trump the stuk (40,
    line 241), the marias of hearts (20, line 242), the trump marjolet (J Q of
    trump, 40, line 243) and the marjolet with the queen of hearts (20, line
    244); and the ace of clubs."""
    game = Marjolet()
    state = MarjoletState.from_cards(
        game, ["KS QS JS QH KH AC", "7H 8H 9H 7D 8D 9C"], ["AD", "7S"]
    )
    assert sorted(state._meld_prospects(0)) == [20, 20, 40, 40]
    # Parts: one of four aces (100, line 237), two of four kings (60, line
    # 239), two of four queens (40, line 240), the trump jack of the marjolets
    # with the queens of clubs and diamonds (20 each, line 244); seat 1: none.
    parts = 100 / 4 + 60 * 2 / 4 + 40 * 2 / 4 + 20 / 2 + 20 / 2
    assert game.deal_estimate(state) == pytest.approx(
        (0.5 * 120 + 0.5 * 10 + 0.1 * parts, 0.0)
    )


def test_fildinski_hands_promise_no_combination() -> None:
    """Fildinski's combinations are made of won cards and a card just won
    (RULES.md FI2): a hand by itself promises none, nor is it meld material:
    the won cards are (none yet here), and the brisques in hand count."""
    game = Fildinski()
    state = FildinskiState.from_cards(game, [SEAT0, SEAT1], ["AD", "7S"])
    assert state._meld_prospects(0) == []
    assert state._material_pool(0) == 0
    assert game.deal_estimate(state) == (0.5 * 20, 0.0)
    for action in ("TH", "7H", "pass"):  # seat 0 wins the ten and the seven
        state.apply(action)
    assert state._material_pool(0) == state._won[0] != 0


def test_an_estimate_is_asked_of_a_family_state_only() -> None:
    with pytest.raises(TypeError, match="estimates a FamilyState"):
        Bezique().deal_estimate(Marjolet().new_match(2, 1).view(0))  # type: ignore[arg-type]
