"""The game kit carries games unlike klaverjassen: a double deck and tarot.

The two games of ``tests/plugins/kit_games.py`` are written from the kit
alone (decks, trick engine, dealer); the conformance suite checks that their
card locations conserve multisets, their views are information sets and their
samplers are consistent, and the tests below pin what is particular to them.
"""

from __future__ import annotations

import random

import pytest

from games.cards import BEZIQUE, TAROT
from harness import InvalidActionError
from harness.match.conformance import check_game
from tests.plugins.kit_games import DoubleDeckGame, KitState, TarotTiersGame


@pytest.mark.parametrize(
    ("game", "seats"),
    [(DoubleDeckGame(), 2), *((TarotTiersGame(), n) for n in (3, 4, 5, 6))],
    ids=lambda x: getattr(x, "name", x),
)
def test_kit_games_pass_the_conformance_suite(game: DoubleDeckGame, seats: int) -> None:
    report = check_game(game, matches=3, seed=1, seat_counts=[seats])
    assert report.passed and report.samples > 0, report.summary()


def test_a_card_held_twice_is_one_action_and_plays_one_copy() -> None:
    """Double deck: both copies of a card in hand are one legal action; playing
    it moves one copy to the trick and leaves the other in hand."""
    state = DoubleDeckGame().new_match(2, 3)
    twins = next(name for name, n in BEZIQUE.counts(state.hands[0]).items() if n == 2)
    legal = state.legal_actions()
    assert len(legal) == len(set(legal)) and legal.count(twins) == 1
    state.apply(twins)
    assert BEZIQUE.counts(state.hands[0])[twins] == 1
    assert state.card_locations()["trick"] == (twins,)


def test_the_excuse_and_the_tiers_in_play() -> None:
    """Random matches at five seats: the excuse never wins a trick; a trick
    with a trump goes to its highest trump, else one with a spade to its
    highest spade (La Rigueur's tiers); the card points of won tricks and of
    the undealt cards add up to the pack's 53."""
    game = TarotTiersGame()
    points = game.rules.tables(*game.tiers).points
    rng = random.Random(4)
    excuses = 0
    for seed in range(30):
        state: KitState = game.new_match(5, seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        for leader, cards, winner, _, _ in state._tricks:
            won_with = cards[(winner - leader) % 5]
            assert won_with != "EX"
            excuses += "EX" in cards
            trumps = [c for c in cards if c.endswith("T")]
            spades = [c for c in cards if c.endswith("S")]
            if trumps:
                assert won_with == max(trumps, key=lambda c: int(c[:-1]))
            elif spades and not cards[0].endswith("S") and cards[0] != "EX":
                assert won_with.endswith("S")
        undealt = sum(points[c] for c in range(len(TAROT)) if state.undealt >> c & 1)
        assert sum(state.points()) + undealt == 53
    assert excuses > 10


class _Declaring(KitState):
    """A kit game with one extra move while cards are played, as the stock
    jass games have (their declarations and mariages)."""

    said: tuple[str, ...] = ()

    def _apply_extra(self, action: str) -> None:
        self.said += (action,)


def test_apply_hands_a_move_that_is_no_card_to_apply_extra() -> None:
    """TrickState.apply gives every action that names no card, while cards
    are played, to ``_apply_extra``; the kit's own rejects it untouched."""
    plain = DoubleDeckGame().new_match(2, 3)
    hands = plain.hands[:]
    with pytest.raises(InvalidActionError, match="not a card"):
        plain.apply("roem")
    assert plain.hands == hands and plain.to_act == 0
    state = _Declaring(DoubleDeckGame(), 2, 3)
    card = state.legal_actions()[0]
    state.apply("roem")
    assert state.said == ("roem",) and state.to_act == 0
    state.apply(card)  # a card still plays: the hook saw none of it
    assert state.said == ("roem",) and state.card_locations()["trick"] == (card,)
