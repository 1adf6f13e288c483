"""Worked examples of Triomphe Forcée, citing the rule text or a ruling.

Rule text: ``../shared/seeds/000_f1f8b277f898f51f.txt`` from line 193 (cited as
"seed 000 line N"; the same words at 003:1). Rulings:
``games/tarot/RULES.md`` (R1..., TF1...). Positions are built with
``TriompheState.from_hands`` in deal 0, where seat 0 is voorhand and leads; the
stakes and declarations are made as the cards are dealt.
"""

from __future__ import annotations

import random

import pytest

from games.cards import TAROT
from games.tarot import TriompheForcee
from games.tarot.triomphe import TriompheState, TriompheView, hand_size_for
from harness import IllegalActionError

GAME = TriompheForcee()


def position(hands: list[str], game: TriompheForcee = GAME) -> TriompheState:
    return TriompheState.from_hands(game, hands)


def play_deal(state: TriompheState) -> None:
    deal = state.deal
    while state.deal == deal and not state.is_over():
        state.apply(state.legal_actions()[0])


@pytest.mark.parametrize(
    ("n", "size"), [(2, 12), (3, 12), (6, 12), (7, 11), (8, 9), (9, 8), (10, 7)]
)
def test_tf1_twelve_each_while_the_pack_holds_them(n: int, size: int) -> None:
    """Seed 000 line 200: 12 cards each; TF1: 78 // n from 7 seats on; the rest
    is undealt."""
    assert hand_size_for(n) == size
    state = GAME.new_match(n, 3)
    hands = [h.bit_count() for h in state.hands]
    assert hands == [size] * n
    assert state.undealt.bit_count() == 78 - n * size


def test_tf3_tf4_death_in_hand_takes_the_whole_pot_at_once() -> None:
    """Seed 000 line 207: 'Als een speler †13 op handen heeft, dan roemt hij deze
    meteen en wint héél de pot'; TF3: both stake 1, TF4: seat 1's one action
    declares Death and the deal ends unplayed, seat 1 +1, seat 0 -1."""
    state = position(
        [
            "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C JC NC",
            "13T 2H 3H 4H 5H 6H 7H 8H 9H 10H JH NH",
        ]
    )
    assert state.pot == 2
    assert state.declarations == ((1, "13T"),)
    assert state.to_act == 1 and state.legal_actions() == ("declare 13T",)
    with pytest.raises(IllegalActionError):
        state.apply("2H")
    state.apply("declare 13T")
    assert state.deal_scores[0] == (-1, 1)
    assert state.deal == 1 and not state.history[0][0]  # no trick was played


def test_tf5_declarations_take_stakes_and_an_empty_pot_is_staked_again() -> None:
    """Seed 000 line 207: the excuse and 1T a single stake, 11T a double; 'Maakt
    het roemen de pot leeg, dan zet iedereen opnieuw in'. Pot 2; seat 0 declares
    EX (pot 1) and 11T (one stake empties it, both stake again, the second: pot
    1); seat 1 declares 1T (pot 0, both stake: pot 2). Seat 0 paid 3 and took 3,
    seat 1 paid 3 and took 1."""
    state = position(
        [
            "EX 11T 3C 4C 5C 6C 7C 8C 9C 10C JC NC",
            "1T 2H 3H 4H 5H 6H 7H 8H 9H 10H JH NH",
        ]
    )
    assert state.declarations == ((0, "EX"), (0, "11T"), (1, "1T"))
    assert state.pot == 2
    assert state.chips == (0, -2)
    view = state.view(1)
    assert (
        isinstance(view, TriompheView) and view.pot == 2 and view.deal_chips == (0, -2)
    )
    assert state.legal_actions()[0] == "3C"  # play goes on: voorhand leads


def test_tf6_the_excuse_instead_of_following_or_trumping_never_wins() -> None:
    """Seed 000 line 213: 'Het Excuus mag je altijd spelen in plaats van te troeven
    of kleur te bekennen'; TF6: it never wins, goes back to its player, and no
    card is given for it (no card points)."""
    state = position(
        [
            "KC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC NC",
            "EX 1C 2T 3H 4H 5H 6H 7H 8H 9H 10H JH",
        ]
    )
    state.apply("KC")
    assert state.legal_actions() == ("1C", "EX")  # follow, or the excuse
    state.apply("EX")
    assert state._tricks[-1][2] == 0
    assert state.won[1] == TAROT.mask(["EX"]) and state.exchanges == ()
    state.apply("2C")
    assert state.legal_actions() == ("1C",)  # seat 0 won and led again
    twin = position(
        [
            "KC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC NC",
            "EX 2T 1H 3H 4H 5H 6H 7H 8H 9H 10H JH",
        ]
    )
    twin.apply("KC")
    assert twin.legal_actions() == ("2T", "EX")  # trump, or the excuse


def test_red_suits_rank_one_above_ten() -> None:
    """Seed 000 line 211: red K Q N J 1 2 ... 10: 2H takes 6H."""
    state = position(
        [
            "6H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC NC",
            "2H 1C 3H 4H 5H 7H 8H 9H 10H JH 4D 5D",
        ]
    )
    state.apply("6H")
    state.apply("2H")
    assert state._tricks[-1][2] == 1


def test_tf7_most_tricks_takes_the_rest_of_the_pot() -> None:
    """Seed 000 line 213: 'De speler met de meeste slagen / punten neemt de rest
    van de pot': seat 0 takes all twelve club tricks and the pot of 2."""
    state = position(
        [
            "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C JC NC",
            "2H 3H 4H 5H 6H 7H 8H 9H 10H JH NH QH",
        ]
    )
    play_deal(state)
    assert state.history[0][0] and len(state.history[0][0]) == 12
    assert state.deal_scores[0] == (1, -1)


def test_tf7_equal_tricks_share_the_pot() -> None:
    """TF7: six tricks each (seat 0 the clubs, seat 1 the hearts, 2H above 5H):
    the pot of 2 is shared, one chip each: both break even."""
    state = position(
        [
            "KC QC NC JC 10C 9C 10H 9H 8H 7H 6H 5H",
            "8C 7C 6C 5C 4C 3C KH QH NH JH 1H 2H",
        ]
    )
    play_deal(state)
    tricks = [0, 0]
    for record in state.history[0][0]:
        tricks[record[2]] += 1
    assert tricks == [6, 6]
    assert state.deal_scores[0] == (0, 0)


def test_tf8_a_match_is_a_number_of_hands_scored_in_net_chips() -> None:
    """TF8: option deals; net chips add up to 0, rank highest first, and are the
    utilities."""
    game = TriompheForcee(deals=4, stake=3)
    for n in (2, 5, 10):
        state = game.new_match(n, 11)
        while not state.is_over():
            state.apply(state.legal_actions()[-1])
        result = state.result()
        assert len(result.deal_points) == 4
        assert sum(result.scores) == 0
        assert result.utilities == tuple(float(s) for s in result.scores)
        assert all(sum(d) == 0 for d in result.deal_points)
        best = max(result.scores)
        assert result.ranks[result.scores.index(best)] == 1


def test_tf9_samples_keep_declared_cards_and_never_deal_death() -> None:
    """TF9: seat 0 declared EX and 11T, so every world of seat 1 has them in seat
    0's hand; Death and the undeclared 1T were never dealt."""
    state = position(
        [
            "EX 11T 3C 4C 5C 6C 7C 8C 9C 10C JC NC",
            "2H 3H 4H 5H 6H 7H 8H 9H 10H JH NH QH",
        ]
    )
    state.apply("3C")
    sampler = GAME.sampler(state.view(1))
    rng = random.Random(5)
    declared = TAROT.mask(["EX", "11T"])
    never = TAROT.mask(["13T", "1T"])
    for _ in range(30):
        world = sampler.sample(rng)
        assert world.view(1) == state.view(1)
        assert world.hands[0] & declared == declared
        assert not (world.hands[0] | world.hands[1]) & never
    places = state.card_locations()
    assert set(places["shown:0"]) == {"EX", "11T"}
    assert {"13T", "1T"} <= set(places["out"])
    assert "out" not in state.hidden_from(1)


def test_tf2_the_deal_rotates_to_the_next_seat_and_voorhand_leads() -> None:
    """Seed 000 line 207: 'het delen roteert van hand tot hand tegen de klok in';
    TF2 (as R1): deal k is dealt by seat (k - 1) mod n, voorhand k mod n leads
    unless a seat holds Death."""
    state = GAME.new_match(4, 6)
    seen: list[tuple[int, int, int | None, bool]] = []
    while not state.is_over():
        if not seen or seen[-1][0] != state.deal:
            death = state._death_deal()
            seen.append((state.deal, state.dealer, state.to_act, death))
        state.apply(state.legal_actions()[0])
    for deal, dealer, to_act, death in seen:
        assert dealer == (deal - 1) % 4
        assert death or to_act == deal % 4
    assert len(seen) == 10 and not all(d for *_, d in seen)
