"""Klapper for two (seed 002 line 153, rulings K12 and K13 of
games/jass/RULES.md): six cards each, three more each picked up only after
the bidding, and a dead hand of six whose last card is turned for trump."""

from __future__ import annotations

import random

from bots.jass import JassBot
from bots.random_bot import RandomBot
from games.cards import PIQUET24
from games.jass import Klapper
from games.jass.klapper import KlapperState, KlapperView
from harness import Bot
from harness.match.referee import make_bots, play_match

GAME = Klapper()


def kview(state: KlapperState, seat: int) -> KlapperView:
    view = state.view(seat)
    assert isinstance(view, KlapperView)
    return view


def test_six_cards_three_set_aside_and_a_dead_hand() -> None:
    """Line 153 and K12: six cards each to bid on; three each set aside, seen by
    no one (not even their owner) until the bidding ends; six dead cards, the
    last of them open and proposing trump; the open card is no one's."""
    state = GAME.new_match(2, 5)
    places = state.card_locations()
    assert [len(places[f"hand:{s}"]) for s in (0, 1)] == [6, 6]
    assert [len(places[f"pending:{s}"]) for s in (0, 1)] == [3, 3]
    assert len(places["dead"]) == 5 and len(places["open"]) == 1
    held = [c for cards in places.values() for c in cards]
    assert sorted(held) == sorted(PIQUET24.cards)
    view = kview(state, 0)
    assert view.open_card == places["open"][0]
    assert view.open_card not in view.hand and view.turned == (view.open_card[1],)
    assert state.hidden_from(0) == {"hand:1", "pending:0", "pending:1", "dead"}


def test_set_aside_cards_are_picked_up_after_the_bidding() -> None:
    """Line 153 and K12: when someone plays, both take up their three cards and
    play nine tricks of two cards; the dead hand takes no part."""
    state = GAME.new_match(2, 5)
    pending = [state.card_locations()[f"pending:{s}"] for s in (0, 1)]
    state.apply("pass")
    state.apply("play")
    assert state.player == state.dealer  # voorhand passed
    for seat in (0, 1):
        assert set(pending[seat]) <= set(kview(state, seat).hand)
        assert len(kview(state, seat).hand) == 9
    deal, dead = state.deal, state._dead
    while state.deal == deal:
        state.apply(state.legal_actions()[0])
    tricks = state._last_tricks
    assert len(tricks) == 9 and all(len(t[1]) == 2 for t in tricks)
    played = PIQUET24.mask([c for t in tricks for c in t[1]])
    assert played & dead == 0 and played | dead == PIQUET24.full


def test_two_seat_deal_scores_each_his_own_or_nothing() -> None:
    """Lines 147, 151 and K7 at two seats: the player must have more than his
    opponent, else he scores 0 and the opponent his own; the dead cards'
    points are no one's (152 + 10 minus the dead hand's points in play)."""
    dead = "9C TC 9D TD 9H AS"  # 10 + 10 + 11 = 31 points dead (spades trump)
    hands = [
        "JS 9S KS QS TS AC KC QC JC",
        "AD KD QD JD AH TH KH QH JH",
    ]
    state = KlapperState.from_hands(GAME, hands, trump="S", player=0, dead=dead)
    while state.deal == 0:
        state.apply(state.legal_actions()[0])
    total = sum(t[3] for t in state._last_tricks)
    assert total == 162 - 31
    points = [sum(t[3] for t in state._last_tricks if t[2] == s) for s in (0, 1)]
    # No one declared (the first legal action is always a card): tricks alone.
    expected = tuple(points) if points[0] > points[1] else (0, points[1])
    assert state._deal_scores[-1] == expected


def test_samples_put_unseen_cards_in_every_hidden_place() -> None:
    """K13: a seat's view during the bidding is its six cards and the open
    card; samples deal the other 17 over the other hand (6), both set-aside
    piles (3 each) and the dead hand (5), the open card staying open."""
    state = GAME.new_match(2, 8)
    view = kview(state, 0)
    rng = random.Random(1)
    seen_pending: set[str] = set()
    for _ in range(20):
        sample = GAME.sample_state(view, rng)
        assert sample.view(0) == view
        places = sample.card_locations()
        assert places["open"] == (view.open_card,)
        assert [
            len(places[p]) for p in ("hand:1", "pending:0", "pending:1", "dead")
        ] == [6, 3, 3, 5]
        seen_pending |= set(places["pending:0"])
    assert len(seen_pending) > 3  # own set-aside cards are unknown too


def test_samples_after_the_bidding() -> None:
    """K13: after the bidding the other hand holds nine cards less those
    played, the dead hand five, and nothing is set aside."""
    state = GAME.new_match(2, 8)
    state.apply("play")
    leader = state.to_act
    assert leader is not None
    state.apply(state.legal_actions()[0])
    view = kview(state, 1 - leader)
    sample = GAME.sample_state(view, random.Random(3))
    assert sample.view(1 - leader) == view
    places = sample.card_locations()
    assert len(places[f"hand:{leader}"]) == 8 and len(places["dead"]) == 5
    assert places["pending:0"] == places["pending:1"] == ()


def test_jass_bot_beats_random_at_klapper_for_two() -> None:
    """Klapper for two (line 153): the heuristic bot in each seat in turn over
    10 seeds wins at least 15 of 20 matches (a random player would win 10);
    tournaments/klapper-2-jass-sprt.toml measures it with an SPRT."""
    game = Klapper(target=300)
    wins = 0
    for seed in range(10):
        for seat in range(2):
            seating: list[type[Bot]] = [RandomBot, RandomBot]
            seating[seat] = JassBot
            result = play_match(game, make_bots(game, seating, seed=seed), seed=seed)
            wins += result.ranks[seat] == 1
    assert wins >= 15


def test_sampled_worlds_play_on() -> None:
    """K13: a world sampled during the bidding or the play of a two-seat deal
    plays on to the end of the deal (the set-aside cards are picked up)."""
    rng = random.Random(7)
    for seed in range(6):
        state = GAME.new_match(2, seed)
        while state.deal == 0:
            seat = state.to_act
            assert seat is not None
            world = GAME.sample_state(state.view(seat), rng)
            assert isinstance(world, KlapperState)
            while world.deal == 0:
                if (
                    world._phase == "play"
                    and world.legal_actions()[0] in PIQUET24.index
                ):
                    assert len(world.card_locations()["dead"]) == 5
                world.apply(rng.choice(world.legal_actions()))
            state.apply(rng.choice(state.legal_actions()))
