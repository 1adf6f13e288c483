"""Worked examples of Marjolet, each citing the rule text or a RULES.md ruling.

Rule text: ../shared/seeds/000_f1f8b277f898f51f.txt from line 215 (cited as
"seed 000 line N"); rulings: games/bezique/RULES.md (M1, M2, ...; F1, F2 for
the family base). Positions are built with ``MarjoletState.from_cards`` in
deal 0: seat 1 deals, seat 0 leads. The stock is given in drawing order, its
last card the turned one; cards not named are out of the example.
"""

from __future__ import annotations

import random

import pytest

from games.bezique import Marjolet, troef_games
from games.bezique.marjolet import MarjoletState
from harness import IllegalActionError, InvalidActionError, OptionError
from tests.games.bezique.playing import play

GAME = Marjolet()
#: Seat 1's hand in the meld examples: no trump (spades), nothing to declare,
#: nothing that takes a led 9 of spades.
LOW = "7C 8C 7D 8D 7H 8H"
#: Drawn by seat 0, seat 1, seat 0, seat 1; the 8 of spades is turned: spades
#: are trump.
STOCK = "9C 9D 9H 8S"


def position(
    seat0: str, seat1: str = LOW, stock: str = STOCK, game: Marjolet = GAME
) -> MarjoletState:
    cards = [*seat0.split(), *seat1.split(), *stock.split()]
    assert len(set(cards)) == len(cards), "one pack: every card once"
    state = MarjoletState.from_cards(game, [seat0, seat1], stock.split())
    assert isinstance(state, MarjoletState)
    return state


def test_plugin_registers_marjolet() -> None:
    assert Marjolet in troef_games()


def test_bad_options_and_actions_are_named() -> None:
    with pytest.raises(OptionError, match="marias"):
        Marjolet(marias="ace-queen")
    with pytest.raises(OptionError, match="last_card"):
        Marjolet(last_card="dealer")
    state = GAME.new_match(2, 1)
    with pytest.raises(InvalidActionError, match="marjolet action"):
        state.apply("meld:jacks")  # no four jacks in Marjolet (lines 237-244)
    with pytest.raises(IllegalActionError, match="may not"):
        state.apply("meld:tens")


def test_a_new_match_deals_six_each_and_turns_the_13th_card() -> None:
    """Seed 000 lines 224, 228 and M2: six cards each, the 13th turned, 19
    cards under it; seat 1 deals deal 0 and seat 0 leads."""
    state = GAME.new_match(2, 3)
    view = state.view(0)
    assert view.hand_sizes == (6, 6) and view.stock == 20
    assert view.dealer == 1 and state.to_act == 0
    assert view.turned is not None and view.trump == view.turned[1]
    assert len(state.card_locations()["stock"]) == 19


def test_a_turned_seven_scores_10_for_the_dealer() -> None:
    """Seed 000 line 224: a 7 turned for trump scores 10 for the dealer."""
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
        ("AC AD AH AS 9S TD", "meld:aces", ("AC", "AD", "AH", "AS"), 100),  # 237
        ("TC TD TH TS 9S JD", "meld:tens", ("TC", "TD", "TH", "TS"), 80),  # 238
        ("KC KD KH KS 9S JD", "meld:kings", ("KC", "KD", "KH", "KS"), 60),  # 239
        ("QC QD QH QS 9S JD", "meld:queens", ("QC", "QD", "QH", "QS"), 40),  # 240
        ("KS QS 9S TC JC QC", "meld:stuk", ("KS", "QS"), 40),  # 241
        ("KH QH 9S TC JC QC", "meld:marias:H", ("KH", "QH"), 20),  # 242
        ("JS QS 9S TC JC KC", "meld:trump-marjolet", ("JS", "QS"), 40),  # 243
        ("JS QD 9S TC JC KC", "meld:marjolet:D", ("JS", "QD"), 20),  # 244
        ("7S 9S TC JC KC AD", "dix", ("7S", "8S"), 10),  # 245
    ],
)
def test_every_combination_scores_its_value(
    hand: str, action: str, cards: tuple[str, ...], points: int
) -> None:
    """Seed 000 lines 234-245: after winning a trick (9S, trump, takes 7C) the
    winner declares; the combination scores at once and its cards lie open."""
    state = play(position(hand), "9S 7C")
    assert action in state.legal_actions()
    play(state, action)
    view = state.view(1)
    assert view.points == (points, 0)
    assert view.melds == ((0, action.removeprefix("meld:"), cards, points),)
    if action != "dix":
        assert {card for card, _ in view.shown[0]} == set(cards)
    else:
        assert view.shown[0] == (("8S", ()),) and view.turned == "7S"


def test_several_combinations_after_one_trick_then_the_draw() -> None:
    """Seed 000 line 234 and F1, M3: the winner declares one combination after
    another (marias of hearts, of diamonds, then the dix), then both draw."""
    state = play(position("KH QH KD QD 7S 9S"), "9S 7C")
    assert set(state.legal_actions()) == {
        "meld:marias:H",
        "meld:marias:D",
        "dix",
        "pass",
    }
    play(state, "meld:marias:H")
    assert state.view(0).phase == "meld" and state.view(0).stock == 4
    play(state, "meld:marias:D")
    assert state.legal_actions() == ("dix", "pass")
    play(state, "dix")  # nothing is left to declare: the draw follows
    view = state.view(0)
    assert view.phase == "stock" and view.stock == 2 and view.points == (50, 0)
    assert "9C" in view.hand and "8S" in view.hand


def test_a_pass_ends_the_declarations() -> None:
    """F1: ``pass`` ends the turn of declarations, what is left is not scored."""
    state = play(position("KH QH KD QD 7S 9S"), "9S 7C meld:marias:H pass")
    view = state.view(0)
    assert view.phase == "stock" and view.points == (20, 0) and view.stock == 2


def test_four_kings_then_marias_with_the_same_king_both_score() -> None:
    """Seed 000 line 234 and M5: only the exact same combination is barred; a
    king declared in four kings (60) joins a marias (20) in the same turn (in
    Bezique, R5 would forbid it: 20 < 60)."""
    state = play(position("KC KD KH KS QH 9S"), "9S 7C meld:kings")
    assert "meld:marias:H" in state.legal_actions()
    play(state, "meld:marias:H")
    assert dict(state.view(1).shown[0])["KH"] == ("kings", "marias:H")
    assert state.view(1).points == (80, 0)


def test_the_trump_jack_makes_a_marjolet_with_each_queen() -> None:
    """Seed 000 lines 243-244 and M5: the trump jack with the trump queen (40)
    and with each plain queen (20 each) are different combinations."""
    state = play(position("JS QS QH QD QC 9S"), "9S 7C")
    for action in ("meld:trump-marjolet", "meld:marjolet:H", "meld:marjolet:D"):
        play(state, action)
    play(state, "meld:marjolet:C")
    assert state.view(0).phase == "meld"  # four queens are left to declare
    play(state, "meld:queens")
    assert state.view(0).points == (40 + 20 + 20 + 20 + 40, 0)
    assert dict(state.view(0).shown[0])["JS"] == (
        "trump-marjolet",
        "marjolet:C",
        "marjolet:D",
        "marjolet:H",
    )


def test_the_same_combination_only_once() -> None:
    """Seed 000 line 234: a marias declared is not offered again, also after
    the next trick won."""
    state = play(position("KH QH 9S 8S AC AD", stock="9C 9D 9H TH JD 7S"), "9S 7C")
    play(state, "meld:marias:H")
    play(state, "8S 8C")  # seat 0 wins with a trump again
    assert "meld:marias:H" not in state.legal_actions()


def test_the_jack_queen_marias_variant() -> None:
    """Seed 000 line 257 (option marias = jack-queen): the marias is the jack
    and queen of a plain suit; the king and queen are no marias."""
    game = Marjolet(marias="jack-queen")
    state = play(position("JH QH KD QD 9S TD", game=game), "9S 7C")
    assert "meld:marias:H" in state.legal_actions()
    assert "meld:marias:D" not in state.legal_actions()


def test_the_loser_draws_the_last_card_and_scores_10() -> None:
    """Seed 000 line 249 and M6: who draws the last card (the turned one) scores
    10: the loser of the stock's last trick. It is known to both (R8)."""
    state = play(position("9S AS TS KS AC AD", stock="9H 8S"), "9S 7C")
    view = state.view(0)
    assert view.phase == "final" and view.points == (0, 10)
    assert view.shown[1] == (("8S", ()),)


def test_the_winner_scores_the_last_card_in_the_variant() -> None:
    """Seed 000 line 259 (option last_card = winner, M6): the winner of the
    stock's last trick scores the 10; the loser still takes the turned card."""
    game = Marjolet(last_card="winner")
    state = play(position("9S AS TS KS AC AD", stock="9H 8S", game=game), "9S 7C")
    view = state.view(0)
    assert view.points == (10, 0) and "8S" in state.view(1).hand


def test_final_phase_follow_and_beat_and_all_six_tricks_score_40_more() -> None:
    """Seed 000 line 251 and M7: in the last six tricks the second player
    follows suit and beats if possible, else trumps; the last trick scores 10
    and all six 40 more. Seat 0 wins them all: four brisques (40) + 10 + 40."""
    state = play(position("9S AS TS KS AC AD", stock="9H 8S"), "9S 7C")
    play(state, "AS")
    assert state.legal_actions() == ("8S",)  # follow spades (cannot beat)
    play(state, "8S TS 8C KS 7H AD")
    assert state.legal_actions() == ("7D", "8D")  # follow diamonds, cannot beat
    play(state, "7D AC 8H 9H 8D")
    assert state.deal == 1
    assert state.result().deal_points[0] == (40 + 10 + 40, 10)


def test_declaring_goes_on_in_the_final_phase() -> None:
    """Seed 000 line 251 and M4: after a trick won in the final phase its
    winner may declare; the cards are shown and stay in the hand."""
    state = play(
        position("9S AS KH QH 8D 7D", "7C 8C 9C TC JC QC", stock="9D 8S"), "9S 7C"
    )
    play(state, "pass")  # the marias is kept for the final phase
    assert state.view(0).phase == "final"
    play(state, "AS 8S")
    assert state.legal_actions() == ("meld:marias:H", "pass")
    play(state, "meld:marias:H")
    view = state.view(1)
    assert view.phase == "final" and view.to_act == 0
    assert view.points == (10 + 20, 10)
    assert {card for card, _ in view.shown[0]} == {"KH", "QH"}


def test_the_first_to_reach_the_target_wins_at_once() -> None:
    """Seed 000 line 253 and M1, F2: four kings (60) take seat 0 past a
    target of 50 at once; the match ends before the draw."""
    game = Marjolet(target=50)
    state = play(position("KC KD KH KS 9S JD", game=game), "9S 7C meld:kings")
    assert state.is_over() and state.legal_actions() == ()
    result = state.result()
    assert result.scores == (60, 0) and result.deal_points == ((60, 0),)
    assert result.ranks == (1, 2)


def test_both_reaching_the_target_in_one_trick_is_decided_by_the_totals() -> None:
    """F2: a trick whose loser plays the trump 7 (10, line 232) and whose
    winner takes an ace (10) takes both to a target of 10: equal, a draw."""
    game = Marjolet(target=10)
    state = play(position("AS 9S TC JC KC AD", "7S 8C 7D 8D 7H 8H", game=game), "AS 7S")
    assert state.is_over()
    result = state.result()
    assert result.scores == (10, 10) and result.ranks == (1, 1)


def test_narration_tells_the_bonuses() -> None:
    """Lines 249, 251: a player can follow the last-card and all-six bonuses."""
    state = play(position("9S AS TS KS AC AD", stock="9H 8S"), "9S")
    lines = state.narrate("7C") + state.narrate("pass")  # F3: the winner passes
    assert "seat 1 scores 10 for the last card of the stock" in lines
    lines = []
    for card in "AS 8S TS 8C KS 7H AD 7D AC 8H 9H 8D".split():
        lines += state.narrate(card)
        if state.legal_actions() == ("pass",):  # F3: the winner's decision
            lines += state.narrate("pass")
    assert "seat 0 took all six last tricks: 40 more" in lines
    assert any(line.startswith("deal 0 scores 90-10") for line in lines)


def test_sampled_worlds_keep_what_is_public() -> None:
    """R9 for Marjolet: a sampled world shows the seat the same view; in the
    final phase the other hand is exactly the unseen cards."""
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
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
