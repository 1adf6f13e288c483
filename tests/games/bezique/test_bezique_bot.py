"""The bezique heuristic bot: legal, deliberate choices in positions a player knows.

Positions as in test_bezique_rules.py (deal 0, seat 0 leads; stock in drawing
order, its last card turned).
"""

from __future__ import annotations

import random

from bots.bezique import BeziqueBot
from games.bezique import Bezique
from games.bezique.bezique import BeziqueState
from harness.match.referee import make_bots, play_match
from tests.games.bezique.playing import play

GAME = Bezique()


def bot(seat: int) -> BeziqueBot:
    return BeziqueBot(GAME, seat, 1, {})


def test_it_declares_the_best_combination() -> None:
    """Seed 000 lines 121-122: double bezique (500) before bezique (40)."""
    state = BeziqueState.from_cards(
        GAME, ["JD JD QS QS AC 7C 8C 9C", "7D 8D 9D 7D 8D 9D JS JS"], ["7S", "9H"]
    )
    state.apply("AC")
    state.apply("7D")
    assert bot(0).act(state.view(0)) == "meld:double-bezique"


def test_building_declares_the_cheaper_of_two_sharing_cards_first() -> None:
    """Seed 000 line 111: a declared card joins a later combination only "als het
    een roem betreft die gelijk of méér punten waard is" (R4, R5). With ten
    cards of stock, the bezique (40, line 121) goes first and the double
    bezique (500, line 122) is still there to declare after the next trick won;
    the other way round the bezique's cards could not score 40 again. The
    default, ``meld_order = "best"``, declares the 500 at once."""
    stock = "7H 8H 9H TH KH 7S 8S 9S TS 9H".split()
    state = BeziqueState.from_cards(
        GAME, ["JD JD QS QS AC 7C 8C 9C", "7D 8D 9D 7D 8D 9D JS JS"], stock
    )
    state.apply("AC")
    state.apply("7D")
    assert state.view(0).stock == 10
    build = BeziqueBot(GAME, 0, 1, {"meld_order": "build"})
    assert build.act(state.view(0)) == "meld:bezique"
    assert bot(0).act(state.view(0)) == "meld:double-bezique"
    state.apply("meld:bezique")
    state.apply("7C")
    state.apply("8D")
    assert "meld:double-bezique" in state.legal_actions()


def test_it_takes_a_led_ace_cheaply_and_leads_a_low_card() -> None:
    """Seed 000 line 109: an ace won is a brisque; take it with the lowest trump."""
    state = BeziqueState.from_cards(
        GAME, ["AC 7C 8C 9C JC 8D 9D 8S", "9H TH 7D JD TD KH 8H 9S"], ["7S", "KD"]
    )
    assert bot(0).act(state.view(0)) == "7C"  # the lowest card, no meld material
    state.apply("AC")
    assert bot(1).act(state.view(1)) == "7D"  # diamonds trump: lowest trump


def _safe(state: BeziqueState, card: str) -> bool:
    """Whether no legal answer of the other seat takes the trick ``card`` leads."""
    leader = state.to_act
    for answer in _after(state, card).legal_actions():
        twin = _after(state, card)
        twin.apply(answer)
        # The deal's last trick is kept as _final_trick once the deal is scored.
        last = twin._final_trick if twin.deal != state.deal else twin._tricks[-1]
        if last[2] != leader:
            return False
    return True


def _after(state: BeziqueState, card: str) -> BeziqueState:
    twin = state.clone()
    assert isinstance(twin, BeziqueState)
    twin.apply(card)
    return twin


def test_it_leads_a_card_that_cannot_be_beaten_in_the_final_phase() -> None:
    """R9: in the final phase the other hand is every unseen card, so the bot
    leads a card the other hand cannot beat whenever it holds one (checked
    against the referee's truth in real deals)."""
    rng = random.Random(4)
    checked = 0
    for seed in range(12):
        state = GAME.new_match(2, seed)
        assert isinstance(state, BeziqueState)
        while state.deal == 0:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if view.phase == "final" and not view.trick:
                safe = [c for c in view.legal_actions if _safe(state, c)]
                if safe:
                    assert bot(seat).act(view) in safe
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked >= 10


def test_it_plays_whole_matches_without_forfeit() -> None:
    for seed in range(3):
        bots = make_bots(GAME, [BeziqueBot, BeziqueBot], seed)
        result = play_match(GAME, bots, seed)
        assert result.forfeit is None and max(result.scores) >= 1000


def test_it_plays_the_hidden_copy_and_keeps_the_declared_one_open() -> None:
    """R11: with one QS declared in a bezique and the other hidden, both worth
    the same to the heuristic, it plays the hidden ``QS``, not ``QS*``: the
    declared queen stays open for a double bezique (seed 000 line 122)."""
    state = BeziqueState.from_cards(
        GAME, ["JD QS QS AC", "7D 8D 9D 8S"], "AH 7S KH 8S TH".split()
    )
    play(state, "AC 7D meld:bezique JD* 8D")
    assert state.legal_actions() == ("KH", "AH", "QS", "QS*")
    assert bot(0).act(state.view(0)) == "QS"
