"""The tarot heuristic bot: its rules of thumb in positions a player recognises.

Positions as in ``test_maison_rules.py`` (deal 0, seat 0 leads); the rule text is
``../shared/seeds/000_f1f8b277f898f51f.txt`` from line 331.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bots.tarot import TarotBot, knowledge_of
from games.cards import TAROT, iter_bits
from games.tarot import LaRigueur, MaisonTarot, MaisonTroggen, TriompheForcee
from games.tarot.common import POINTS, TRUMPS
from games.tarot.maison import MaisonTarotState
from games.tarot.triomphe import TriompheState
from games.tarot.troggen import KEEP
from tests.games.playing import play_bots

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
            play_bots(state, bots)


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


# Issue 35: the bot weighs each card's chance to win and its worth kept.


def test_knowledge_reads_voids_from_the_tricks() -> None:
    """Seed 000 line 351: a seat that does not follow holds none of the suit
    led, and one that then plays no trump holds no trump either; La Rigueur
    (line 312) lets him play a spade instead, so a spade rules out nothing."""
    state = MaisonTarotState.from_hands(
        MAISON,
        [
            "2C 3C 4C 5C 6C 7C 8C 9C 10C JC 2D 3D",
            "1H 2H 3H 4H 5H 6H 7H 8H 9H 10H 2S 3S",
        ],
    )
    state.apply("2C")
    state.apply("1H")  # void in clubs and in trumps
    k = knowledge_of(MAISON, state.view(0))
    assert not k.may_hold[1] & (TAROT.suit_masks[0] | TAROT.suit_masks[TRUMPS])
    assert k.may_hold[1] & TAROT.suit_masks[2]  # hearts: he may hold more
    # His 11 cards are among the 65 unseen (78 less this hand's 11 and the
    # trick), less the 4 clubs (1C NC QC KC) and 21 trumps he cannot hold.
    assert k.hand_size[1] == 11
    assert k.chance(1) == 11 / (65 - 4 - 21)
    rigueur = LaRigueur()
    state = MaisonTarotState.from_hands(
        rigueur,
        [
            "2C 3C 4C 5C 6C 7C 8C 9C 10C JC 2D 3D",
            "2S 2H 3H 4H 5H 6H 7H 8H 9H 10H 3S 4S",
        ],
    )
    state.apply("2C")
    state.apply("2S")  # void in clubs; a spade, so trumps are not ruled out
    k = knowledge_of(rigueur, state.view(0))
    assert not k.may_hold[1] & TAROT.suit_masks[0]
    assert k.may_hold[1] & TAROT.suit_masks[TRUMPS]


def test_chance_to_win_counts_the_cards_that_beat_it() -> None:
    """21T wins any trick (line 351); a king wins its suit led unless the
    other seat is void in it and trumps; against a seat known void in hearts
    and trumps, the heart king is sure, and a queen too once the king is in
    this seat's hand."""
    state = MaisonTarotState.from_hands(
        MAISON,
        [
            "21T KH QH 2C 3C 4C 5C 6C 7C 8C 9C 10C",
            "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D JD ND",
        ],
    )
    k = knowledge_of(MAISON, state.view(0))
    kh, qh, c2 = (TAROT.index[c] for c in ("KH", "QH", "2C"))
    assert k.p_win(TAROT.index["21T"], TRUMPS, [1]) == 1.0
    assert 0.9 < k.p_win(kh, 2, [1]) < 1.0  # a void and a trump are unlikely
    assert k.p_win(qh, 2, [1]) == k.p_win(kh, 2, [1])  # its king is ours
    # 2C led: he beats it with JC NC QC KC, or void in clubs (1C JC NC QC
    # KC unseen) with one of the 20 trumps unseen; each of the 66 unseen
    # cards is one of his 12 with chance 12/66.
    q = 1 - 12 / 66
    assert k.p_win(c2, 0, [1]) == pytest.approx(q**4 * (1 - q**5 * (1 - q**20)))
    state.apply("2C")
    state.apply("1D")  # void in clubs and trumps
    k = knowledge_of(MAISON, state.view(0))
    assert k.p_win(TAROT.index["3C"], 0, [1]) == 1.0  # no club, no trump


def test_bot_banks_the_petit_when_it_trumps() -> None:
    """Void in the suit led, a player must trump (line 351) and the last to
    play wins with any trump: the bot wins with 1T, worth 4 (line 363), which
    any trump beats later, not with a blank 5T."""
    state = MaisonTarotState.from_hands(
        MAISON,
        [
            "2C 3C 4C 5C 6C 7C 8C 9C 10C JC 2D 3D",
            "1T 5T 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H",
        ],
    )
    state.apply("2C")
    assert TarotBot(MAISON, 1, 0).act(state.view(1)) == "1T"


def test_bot_keeps_the_petit_under_a_higher_trump() -> None:
    """Trumps led, a player must play a trump (line 351): under 21T, which
    nothing beats, the bot gives its blank 5T and keeps 1T (4 points, line
    363) for a trick it can win."""
    state = MaisonTarotState.from_hands(
        MAISON,
        [
            "21T 3C 4C 5C 6C 7C 8C 9C 10C JC 2D 3D",
            "1T 5T 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H",
        ],
    )
    state.apply("21T")
    assert TarotBot(MAISON, 1, 0).act(state.view(1)) == "5T"


def test_bot_throws_a_blank_not_a_queen_into_a_lost_trick() -> None:
    """Void in clubs and without trumps, a player may throw any card (line
    351): under the king of clubs the bot gives a blank, not its queen of
    hearts (3 points, line 365)."""
    state = MaisonTarotState.from_hands(
        MAISON,
        [
            "KC 3C 4C 5C 6C 7C 8C 9C 10C JC 2D 3D",
            "QH 8D 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H",
        ],
    )
    state.apply("KC")
    card = TarotBot(MAISON, 1, 0).act(state.view(1))
    assert POINTS[TAROT.index[card]] == 0


def test_bot_cashes_a_sure_king_before_a_low_lead() -> None:
    """Leading, a card that nothing can beat (or only a void and a trump can)
    is cashed, the one worth most first: KH (4 points) rather than a blank."""
    state = MaisonTarotState.from_hands(
        MAISON,
        [
            "KH 2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D",
            "1D 4D 5D 6D 7D 8D 9D 10D JD ND 1S 2S",
        ],
    )
    assert TarotBot(MAISON, 0, 0).act(state.view(0)) == "KH"


def test_triomphe_death_and_undeclared_honours_were_never_dealt() -> None:
    """TF9 (seed 000 line 207): in a deal being played 13T was not dealt
    (Death ends the deal), nor an undeclared 11T: with 14T-21T in this hand,
    12T cannot be beaten, so leading it is sure; and a declared 1T is known
    to be in its declarer's hand."""
    game = TriompheForcee()
    state = TriompheState.from_hands(
        game,
        [
            "12T 14T 15T 16T 17T 18T 19T 20T 21T 2C 3C 4C",
            "1T 5C 6C 7C 8C 9C 10C JC NC QC KC 1D",
        ],
    )
    k = knowledge_of(game, state.view(0))
    assert k.p_win(TAROT.index["12T"], TRUMPS, [1]) == 1.0
    assert k.holds[1] == TAROT.mask(["1T"])
    assert k.value[TAROT.index["KC"]] == 0.0 and k.trick_value == 1.0


def test_troggen_discard_voids_a_suit_of_blanks_but_keeps_a_lone_queen() -> None:
    """Line 151: the dealer discards three cards, no king, trump or excuse;
    the discard scores for nobody (TR3). The bot throws a short suit of blanks
    whole (a void lets it trump), but not a lone queen (4 by threes, line
    167): it throws blanks instead."""
    game = MaisonTroggen()
    base = game.new_match(3, 4).view(2)

    def discards(hand: str) -> list[str]:
        cards = hand.split()
        chosen = []
        for _ in range(3):
            legal = tuple("discard " + c for c in cards if TAROT.mask([c]) & ~KEEP)
            view = replace(base, hand=tuple(cards), legal_actions=legal)
            action = TarotBot(game, 2, 0).act(view)
            chosen.append(action[8:])
            cards.remove(action[8:])
        return chosen

    spades = "2S 3S 1C 2C 3C 4C 5C 6C 7C 8C 9C 10C 1D 2D 3D 4D 5D 6D 7D"
    trumps = " KC KD 1T 2T 3T 4T 5T 6T 7T"
    assert set(discards(spades + trumps)[:2]) == {"2S", "3S"}
    queen = "QS 1C 2C 3C 4C 5C 6C 7C 8C 9C 10C 1D 2D 3D 4D 5D 6D 7D 8D"
    assert "QS" not in discards(queen + trumps)
