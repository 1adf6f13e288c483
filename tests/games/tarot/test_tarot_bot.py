"""The tarot heuristic bot: its rules of thumb in positions a player recognises.

Positions as in ``test_maison_rules.py`` (deal 0, seat 0 leads); the rule text is
``../shared/seeds/000_f1f8b277f898f51f.txt`` from line 331.
"""

from __future__ import annotations

from bots.tarot import TarotBot
from games.cards import iter_bits
from games.tarot import LaRigueur, MaisonTarot, MaisonTroggen, TriompheForcee
from games.tarot.common import POINTS
from games.tarot.maison import MaisonTarotState
from games.tarot.triomphe import TriompheState
from games.tarot.troggen import KEEP

MAISON = MaisonTarot()


def test_bot_keeps_its_queen_and_plays_the_excuse_into_a_lost_trick() -> None:
    """Seed 000 line 356: the excuse is never lost; seat 1 cannot beat 21T and
    would otherwise give up a point card, so it plays the excuse."""
    state = MaisonTarotState.from_hands(
        MAISON,
        [
            "21T 2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D",
            "EX 1T QH NH JH KS QS NS JS KD QD ND",
        ],
    )
    state.apply("21T")
    bot = TarotBot(MAISON, 1, 0)
    assert bot.act(state.view(1)) == "EX"


def test_bot_wins_a_trick_with_points_with_its_cheapest_winner() -> None:
    """Seed 000 lines 351, 354: no duty to over-trump, so it takes the king led
    with its lowest trump that wins (2T), saving 20T."""
    state = MaisonTarotState.from_hands(
        MAISON,
        [
            "KC 2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D",
            "2T 20T 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H",
        ],
    )
    state.apply("KC")
    assert TarotBot(MAISON, 1, 0).act(state.view(1)) == "2T"


def test_bot_leads_the_master_trump_it_has_counted() -> None:
    """It counts trumps: with 21T in hand nothing can beat it, so it leads it."""
    state = MaisonTarotState.from_hands(
        MAISON,
        [
            "21T 2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D",
            "2T 20T 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H",
        ],
    )
    assert TarotBot(MAISON, 0, 0).act(state.view(0)) == "21T"


def test_bot_plays_whole_matches_legally_in_both_games() -> None:
    """Every action it returns is legal (La Rigueur's spade duties included)."""
    for game in (MAISON, LaRigueur()):
        for seats in (2, 4, 6):
            state = game.new_match(seats, 5)
            bots = [TarotBot(game, s, s) for s in range(seats)]
            while not state.is_over():
                seat = state.to_act
                assert seat is not None
                action = bots[seat].act(state.view(seat))
                assert action in state.legal_actions()
                state.apply(action)


def test_bot_discards_blanks_from_its_shortest_suit_in_troggen() -> None:
    """Maison Troggen (seed 000 line 151): the dealer's discard is his; the bot
    throws blanks (no points lost, TR3), shortest suit first to make a void."""
    game = MaisonTroggen()
    state = game.new_match(3, 4)
    bot = TarotBot(game, 2, 0)
    for _ in range(3):
        action = bot.act(state.view(2))
        assert action in state.legal_actions()
        state.apply(action)
    assert not state.discard & KEEP
    assert all(POINTS[c] == 0 for c in iter_bits(state.discard))


def test_bot_takes_a_sure_trick_with_its_weakest_winner_in_triomphe() -> None:
    """Triomphe Forcée counts tricks only (seed 000 line 213): last to play, the
    bot takes the trick with 2T, not 20T; it cannot take it, it throws its
    weakest heart (10H: red suits reversed, line 211)."""
    game = TriompheForcee()
    state = TriompheState.from_hands(
        game,
        [
            "KC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC NC",
            "2T 20T 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H",
        ],
    )
    state.apply("KC")
    assert TarotBot(game, 1, 0).act(state.view(1)) == "2T"
    state = TriompheState.from_hands(
        game,
        [
            "KH 2C 3C 4C 5C 6C 7C 8C 9C 10C JC NC",
            "1H 2H 3H 4H 5H 6H 7H 8H 9H 10H 2T 3T",
        ],
    )
    state.apply("KH")
    assert TarotBot(game, 1, 0).act(state.view(1)) == "10H"


def test_bot_plays_troggen_and_triomphe_legally_at_every_seat_count() -> None:
    """Every action it returns is legal, the discard and Death included."""
    cases = [(MaisonTroggen(), 3)] + [(TriompheForcee(deals=4), n) for n in (2, 6, 10)]
    for game, seats in cases:
        state = game.new_match(seats, 8)
        bots = [TarotBot(game, s, s) for s in range(seats)]
        while not state.is_over():
            seat = state.to_act
            assert seat is not None
            action = bots[seat].act(state.view(seat))
            assert action in state.legal_actions()
            state.apply(action)
