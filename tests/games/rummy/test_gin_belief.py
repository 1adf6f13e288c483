"""Gin rummy's belief sampler (``GinRummyBeliefSampler``): worlds in which the
opponent holds the hand his discards suggest, not a random one.

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
from games.rummy.gin import GinRummy, GinRummyState, GinRummyView, _discard_loglik
from harness import OptionError
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
