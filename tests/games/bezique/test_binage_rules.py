"""Worked examples of Binage, each citing the rule text or a RULES.md ruling.

Rule text: ../shared/seeds/000_f1f8b277f898f51f.txt from line 261 (cited as
"seed 000 line N"); rulings: games/bezique/RULES.md (BI1, BI2, ...; F2 for the
family base). Positions are built with ``BinageState.from_cards`` in deal 0:
seat 1 deals, seat 0 leads. The stock is given in drawing order, its last card
the turned one; cards not named are out of the example.
"""

from __future__ import annotations

import random

import pytest

from games.bezique import Bezique, Binage, troef_games
from games.bezique.bezique import BeziqueState
from games.bezique.binage import BinageState
from harness import IllegalActionError, InvalidActionError
from tests.games.bezique.playing import play

GAME = Binage()
#: Seat 1's hand in the meld examples: no spade (trump), nothing to declare.
LOW = "7C 8C 9C 7D 8D 9D 7H 8H"
#: Drawn by seat 0, seat 1, seat 0, seat 1; the 8 of spades is turned.
STOCK = "JC QC TC QD TD 8S"


def position(
    seat0: str, seat1: str = LOW, stock: str = STOCK, game: Binage = GAME
) -> BinageState:
    cards = [*seat0.split(), *seat1.split(), *stock.split()]
    assert len(set(cards)) == len(cards), "one pack: every card once"
    state = BinageState.from_cards(game, [seat0, seat1], stock.split())
    assert isinstance(state, BinageState)
    return state


def test_plugin_registers_binage() -> None:
    assert Binage in troef_games()


def test_no_fours_in_binage() -> None:
    """Seed 000 line 266: Binage knows no combination of four."""
    state = play(position("AC AD AH AS 9S KC KD KH"), "9S 7C")
    assert state.view(0).phase == "stock" and state.view(0).melds == ()
    assert not any(a.startswith("meld:") for a in state.legal_actions())
    with pytest.raises(InvalidActionError, match="binage action"):
        state.apply("meld:aces")
    with pytest.raises(IllegalActionError, match="may not"):
        state.apply("meld:stuk")


def test_a_new_match_deals_eight_each_and_turns_the_17th_card() -> None:
    """Seed 000 lines 268, 272 and BI2: eight each, the 17th turned, 15 under
    it; seat 1 deals deal 0 and seat 0 leads."""
    state = GAME.new_match(2, 3)
    view = state.view(0)
    assert view.hand_sizes == (8, 8) and view.stock == 16
    assert view.dealer == 1 and state.to_act == 0
    assert view.turned is not None and view.trump == view.turned[1]


def test_a_turned_seven_scores_10_for_the_dealer() -> None:
    """Seed 000 line 268: a 7 turned for trump scores 10 for the dealer."""
    for seed in range(200):
        view = GAME.new_match(2, seed).view(0)
        if view.turned is not None and view.turned[0] == "7":
            assert view.points[view.dealer] == 10 and view.points[view.seat] == 0
            return
        assert view.points == (0, 0)
    pytest.fail("no deal 0 with a turned 7 in 200 seeds")


@pytest.mark.parametrize(
    ("hand", "action", "cards", "points"),
    [
        ("AS TS KS QS JS 9S 9H TH", "meld:trumps", ("AS", "TS", "KS", "QS", "JS"), 250),
        ("AH TH KH QH JH 9S 9H AC", "meld:five:H", ("AH", "TH", "KH", "QH", "JH"), 120),
        ("KS QS 9S 9H TH AC KC AD", "meld:stuk", ("KS", "QS"), 40),
        ("KH QH 9S 9H TH AC KC AD", "meld:marias:H", ("KH", "QH"), 20),
        ("JD QS 9S 9H TH AC KC AD", "meld:binage", ("JD", "QS"), 40),
        ("7S 9S 9H TH AC KC AD AH", "dix", ("7S", "8S"), 10),
    ],
)
def test_every_combination_scores_its_value(
    hand: str, action: str, cards: tuple[str, ...], points: int
) -> None:
    """Seed 000 lines 278-286: after winning a trick (9S, trump, takes 7C) the
    winner declares one combination; it scores at once, then both draw. BI7:
    the binage J♦ Q♠ holds with spades trump too; the fives are A 10 K Q J."""
    state = play(position(hand), "9S 7C")
    assert action in state.legal_actions()
    play(state, action)
    view = state.view(1)
    assert view.points == (points, 0) and view.phase == "stock" and view.stock == 4
    assert view.melds == ((0, action.removeprefix("meld:"), cards, points),)
    assert {card for card, _ in view.shown[0]} == (
        set(cards) if action != "dix" else {"8S"}
    )


def test_one_combination_per_trick_won() -> None:
    """Seed 000 line 278 and BI3: one (and only one) combination: after the
    stuk, the marias waits for the next trick won."""
    state = play(position("KS QS KH QH 9S 7S TH AC"), "9S 7C meld:stuk")
    assert state.view(0).phase == "stock" and state.view(0).points == (40, 0)
    play(state, "7S 8C")
    assert "meld:marias:H" in state.legal_actions()


def test_five_trumps_then_stuk_with_the_same_king_and_queen() -> None:
    """Seed 000 line 278 and BI4: only the exact same combination is barred, so
    the stuk (40) after the five highest trumps (250) scores with the same open
    K Q; in Bezique R5 forbids it (40 < 250)."""
    stock = "JC QC JD QD TD 7S"
    state = play(
        position("AS TS KS QS JS 9S 8S TH", stock=stock), "9S 7C meld:trumps 8S 8C"
    )
    assert "meld:stuk" in state.legal_actions()
    play(state, "meld:stuk")
    assert state.view(0).points == (290, 0)
    assert dict(state.view(0).shown[0])["KS"] == ("trumps", "stuk")
    bezique = BeziqueState.from_cards(
        Bezique(),
        ["AS TS KS QS JS 9S 8S TH", "7C 8C 9C 7D 8D 9D 7H 8H"],
        stock.split(),
    )
    play_bezique = bezique.apply
    for action in "9S 7C meld:trumps 8S 8C".split():
        play_bezique(action)
    assert "meld:stuk" not in bezique.legal_actions()


def test_the_last_card_scores_nothing_and_no_melds_follow_it() -> None:
    """Seed 000 lines 290, 292 and BI5, BI6: drawing the last card scores
    nothing; after it nothing is declared, the open cards go back to the hand
    (still known), and the last eight tricks follow suit and beat."""
    state = play(
        position("9S AS KH QH TH AC KC JD", "7C 8C 9C 7D QD 9D 7H 8H", "TD 8S"),
        "9S 7C",
    )
    play(state, "meld:marias:H")
    view = state.view(0)
    assert view.phase == "final" and view.points == (20, 0)
    assert view.shown[1] == (("8S", ()),)
    play(state, "AS 8S")  # seat 1 follows spades
    assert state.view(0).points == (30, 0)
    assert state.legal_actions() == ("KC", "AC", "TD", "JD", "TH", "QH", "KH")
    play(state, "JD")
    assert state.legal_actions() == ("QD",)  # follow and beat the jack


def test_the_last_trick_scores_10_and_no_more_for_all_eight() -> None:
    """Seed 000 line 292 and BI8: 10 for the last trick, nothing for all eight.
    Seat 0 wins every trick: brisques AS AH AC AD (40) and the last trick."""
    state = play(
        position("9S AS AH AC AD KH KC KD", "7C 8C 9C 7D 8D 9D 7H 8H", stock="9H 8S"),
        "9S 7C",
    )
    for lead in "AS AH AC AD KH KC KD 9H".split():
        play(state, lead)
        play(state, state.legal_actions()[0])
    assert state.deal == 1
    assert state.result().deal_points[0] == (50, 0)


def test_the_first_to_reach_the_target_wins_at_once() -> None:
    """Seed 000 line 294 and BI1, F2: the five highest trumps take seat 0 past
    a target of 200 at once."""
    game = Binage(target=200)
    state = play(position("AS TS KS QS JS 9S 9H TH", game=game), "9S 7C meld:trumps")
    assert state.is_over()
    assert state.result().scores == (250, 0)


def test_sampled_worlds_keep_what_is_public() -> None:
    """R9 for Binage: a sampled world shows the seat the same view; in the
    final phase the other hand is exactly the unseen cards."""
    rng = random.Random(6)
    checked = 0
    for seed in range(3):
        state = GAME.new_match(2, seed)
        while not state.is_over() and state.deal == 0:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            world = GAME.sample_state(view, rng)
            assert world.view(seat) == view
            if view.phase == "final":
                truth = state.card_locations()[f"hand:{1 - seat}"]
                assert world.card_locations()[f"hand:{1 - seat}"] == truth
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 10
