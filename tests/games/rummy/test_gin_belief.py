"""Gin rummy's search aids: the belief sampler (``GinRummyBeliefSampler``),
worlds in which the opponent holds the hand his discards suggest, not a
random one; and the rollout policy (``greedy_action``).

The model is a bot-side one, not a rule: a player throws each card with weight
``exp(-softness * deadwood it leaves)`` ("gooi de kaart weg die je het minst
nodig hebt", as the ``gin-rummy`` bot reads seed 000 lines 537-539).
"""

from __future__ import annotations

import math
import random
import statistics

import pytest

from bots.gin_rummy import GinRummyBot
from bots.ismcts import ISMCTSBot
from bots.pimc import PIMCBot
from games.cards import FULL52, iter_bits
from games.rummy import melds
from games.rummy.gin import (
    GinRummy,
    GinRummyState,
    GinRummyView,
    _discard_loglik,
    greedy_action,
)
from harness import OptionError
from tests.games.rummy.test_gin_rules import KNOCKER, LOOSE, position
from tests.plugins.fusion_game import FusionGame

#: A run 7-8-9 of hearts, three threes, and five loose cards: KC, QD, 5S, 2C, AD.
ELEVEN = "7H 8H 9H 3C 3D 3S KC QD 5S 2C AD"


def test_the_discard_that_leaves_the_least_deadwood_is_the_likeliest() -> None:
    """Throwing the king (or the queen) leaves 10 + 5 + 2 + 1 = 18; throwing the
    ace leaves 10 + 10 + 5 + 2 = 27, nine points more: exp(-9) times as likely
    at softness 1. Breaking a meld costs more still: without the 7H the 8H and
    9H are loose, 45; without a three the other two are, 34. The eleven
    chances add up to one."""
    hand = FULL52.mask(ELEVEN.split())
    logs = {FULL52.cards[c]: _discard_loglik(hand, c, 1.0) for c in iter_bits(hand)}
    assert sum(math.exp(x) for x in logs.values()) == pytest.approx(1.0)
    assert max(logs, key=logs.__getitem__) in ("KC", "QD")
    assert logs["KC"] == pytest.approx(logs["QD"])
    assert logs["KC"] - logs["AD"] == pytest.approx(9.0)
    assert all(logs[c] < logs["AD"] for c in ("7H", "8H", "9H", "3C", "3D", "3S"))


def test_a_ten_card_hand_before_a_discard_says_nothing() -> None:
    """Only a discard from eleven cards is a choice the model weighs."""
    hand = FULL52.mask(ELEVEN.split()[:10])
    assert _discard_loglik(hand, FULL52.index["KC"], 1.0) == 0.0


def _positions(
    seeds: range, least_turns: int
) -> list[tuple[GinRummyState, GinRummyView]]:
    """Discard decisions of ``gin-rummy`` self-play, first hands, from the
    ``least_turns``-th discard decision of the hand on (both seats counted)."""
    game = GinRummy()
    found = []
    for seed in seeds:
        state = game.new_match(2, seed)
        bots = [GinRummyBot(game, s, seed * 10 + s, None) for s in range(2)]
        turns = 0
        while state.to_act is not None and state.deal == 0:
            view = state.view(state.to_act)
            if view.phase == "discard" and len(view.legal_actions) > 1:
                turns += 1
                if turns >= least_turns:
                    found.append((state.clone(), view))
            state.apply(bots[state.to_act].act(view))
    return found


def test_a_sensible_opponent_is_believed_to_hold_the_deadwood_he_holds() -> None:
    """After five discards each, the opponent of ``gin-rummy`` self-play holds
    far less deadwood than a random hand: the uniform worlds miss it by some 25
    points, the belief worlds by a few (docs/SEARCH.md measures it by turn)."""
    game = GinRummy()
    real, uniform, believed = [], [], []
    for state, view in _positions(range(4), least_turns=10):
        opp = 1 - view.seat
        real.append(melds.deadwood(state.hands[opp]))
        rng = random.Random(len(real))
        flat, belief = game.sampler(view), game.belief_sampler(view)
        uniform.append(
            statistics.mean(
                melds.deadwood(flat.sample(rng).hands[opp]) for _ in range(20)
            )
        )
        believed.append(
            statistics.mean(
                melds.deadwood(belief.sample(rng).hands[opp]) for _ in range(20)
            )
        )
    assert len(real) >= 6
    miss_uniform = statistics.mean(u - r for u, r in zip(uniform, real, strict=True))
    miss_belief = statistics.mean(b - r for b, r in zip(believed, real, strict=True))
    assert miss_uniform > 15
    assert abs(miss_belief) < miss_uniform / 2


def test_belief_worlds_fit_the_view_and_repeat_with_the_seed() -> None:
    """Every world shows the seat its own view; the same seed, the same worlds."""
    game = GinRummy()
    for _, view in _positions(range(2), least_turns=3)[::3]:
        seat = view.seat
        runs = []
        for _ in range(2):
            sampler, rng = game.belief_sampler(view), random.Random(7)
            worlds = [sampler.sample(rng) for _ in range(5)]
            assert all(w.view(seat) == view for w in worlds)
            runs.append([w.card_locations() for w in worlds])
        assert runs[0] == runs[1]
        assert len({str(places) for places in runs[0]}) > 1  # the chain moves


@pytest.mark.parametrize("cls", [ISMCTSBot, PIMCBot])
def test_a_search_bot_draws_its_worlds_from_the_belief_sampler(cls: type) -> None:
    """``belief = "game"`` plays legal moves; a game without a belief sampler
    refuses it."""
    game = GinRummy()
    _, view = _positions(range(1), least_turns=4)[0]
    budget = {"worlds": 10} if cls is PIMCBot else {"iterations": 30}
    bot = cls(game, view.seat, 3, {"belief": "game", **budget})
    assert bot.act(view) in view.legal_actions
    with pytest.raises(
        OptionError,
        match=r"option 'belief' = 'game' needs Game.belief_sampler, which game "
        r"'fusion' \(class FusionGame\) does not override; expected 'uniform'",
    ):
        cls(FusionGame(), 0, 1, {"belief": "game"})


# -- the rollout policy: greedy_action -------------------------------------------

#: An opponent's hand that shares no card with the hands below.
OTHER = "KH QH JD 7C 6S 6H TD 3H 4D JS"


def test_the_rollout_policy_knocks_with_the_least_deadwood() -> None:
    """KNOCKER (A-2-3 of clubs, three fives, three nines, 2H, KD) may knock
    under the 4D's limit of 4 (seed 000 line 516): throwing KD leaves 2."""
    state = position(KNOCKER, LOOSE, pile="4D")
    assert greedy_action(state) == "knock:KD"


def test_the_rollout_policy_goes_gin_when_it_can() -> None:
    """Seed 000 line 514: with the KD thrown nothing is left over."""
    state = position("AC 2C 3C 5D 5H 5S 9H 9S 9C 4C KD", LOOSE, pile="AD")
    assert greedy_action(state) == "gin:KD"


def test_the_rollout_policy_throws_the_card_that_leaves_the_least_deadwood() -> None:
    """No knock (the AD's limit is 1). The loose cards are KC, QS, 8D and the
    9H and 9S (a pair): throwing the king or the queen leaves 10 + 8 + 18 =
    36, the 8D 38, a nine 37. King and queen count 10 alike; the first in deck
    order goes, the king."""
    hand = "AC 2C 3C 5D 5H 5S 9H 9S KC QS 8D"
    state = position(hand, OTHER, pile="AD")
    assert greedy_action(state) == "KC"


def test_the_rollout_policy_takes_the_pile_card_only_when_it_melds() -> None:
    """The 4C extends A-2-3 of clubs and lowers the deadwood: taken. The 7D
    melds with nothing: the stock."""
    hand = "AC 2C 3C 5D 5H 5S 9H 9S KC QS"
    takes = position(hand, OTHER, pile="4C", phase="draw")
    assert greedy_action(takes) == "draw:discard"
    stock = position(hand, OTHER, pile="7D", phase="draw")
    assert greedy_action(stock) == "draw:stock"


def test_rollout_game_is_refused_for_a_game_without_a_rollout_policy() -> None:
    for cls in (ISMCTSBot, PIMCBot):
        with pytest.raises(
            OptionError,
            match=r"option 'rollout' = 'game' needs Game.rollout_action, which game "
            r"'fusion' \(class FusionGame\) does not override; expected 'random'",
        ):
            cls(FusionGame(), 0, 1, {"rollout": "game"})


def test_a_search_bot_rolls_out_by_the_games_policy() -> None:
    """``rollout = "game"`` plays legal moves in a whole first hand."""
    game = GinRummy()
    state = game.new_match(2, 5)
    bots = [PIMCBot(game, s, s, {"rollout": "game", "worlds": 3}) for s in range(2)]
    while state.to_act is not None and state.deal == 0:
        view = state.view(state.to_act)
        action = bots[state.to_act].act(view)
        assert action in view.legal_actions
        state.apply(action)
    assert state.deal == 1 or state.is_over()
