"""troef's games as PettingZoo AEC environments (``harness/interop/pettingzoo.py``).

Every registered game at its smallest and largest table passes PettingZoo's
own ``api_test`` and ``seed_test``, with no warning but the two every dict
observation draws (PettingZoo exempts its own classic games from them by
name); observations, masks and rewards are checked against troef's match.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from harness.contracts.errors import OptionError
from harness.plugins import load_plugins

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from harness.interop import pettingzoo

REGISTRY = load_plugins()
#: Random play in gin rummy seldom knocks (see test_interop_openspiel.py).
CAPS = {"gin-rummy": 600}
#: What PettingZoo says of any observation that is a dict (an action mask in
#: the observation, as its classic games give it); they are exempt by name.
DICT_OBSERVATION = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


def _tables() -> list[tuple[str, int]]:
    found = []
    for name in sorted(REGISTRY.games):
        seats = sorted(REGISTRY.games[name].seat_counts)
        found += [(name, n) for n in sorted({seats[0], seats[-1]})]
    return found


def _env(name: str, players: int) -> pettingzoo.TroefEnv:
    options = REGISTRY.games[name].check_options
    return pettingzoo.env(
        name, players=players, max_actions=CAPS.get(name), registry=REGISTRY, **options
    )


@pytest.mark.parametrize(("name", "players"), _tables())
def test_pettingzoo_api_and_seed_tests_pass(name: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(_env(name, players), num_cycles=1000)
        seed_test(lambda: _env(name, players), num_cycles=100)
    said = {str(w.message) for w in caught}
    assert [s for s in said if not s.startswith(DICT_OBSERVATION)] == []


def test_observations_masks_and_rewards_are_troefs() -> None:
    env = pettingzoo.env("klaverjassen", target=300, registry=REGISTRY)
    env.reset(seed=77)
    game = REGISTRY.game("klaverjassen", {"target": 300})
    troef = game.new_match(4, 77)
    encoding = game.encoding(4)
    rng = random.Random(3)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            assert termination and not truncation
            final[agent] = reward
            env.step(None)
            continue
        seat = troef.to_act
        assert seat is not None and agent == f"player_{seat}"
        view = troef.view(seat)
        np.testing.assert_array_equal(observation["observation"], encoding.encode(view))
        legal = np.flatnonzero(observation["action_mask"])
        assert sorted(legal) == sorted(map(encoding.action_id, view.legal_actions))
        assert reward == 0.0
        action = rng.choice(view.legal_actions)
        troef.apply(action)
        env.step(encoding.action_id(action))
    assert troef.is_over() and env.agents == []
    utilities = troef.result().utilities
    assert sorted(utilities) != [0.0] * 4  # a real end, not the cap
    assert final == {f"player_{s}": u for s, u in enumerate(utilities)}


def test_the_cap_truncates_a_match_with_zero_rewards() -> None:
    env = pettingzoo.env("gin-rummy", max_actions=4, registry=REGISTRY)
    env.reset(seed=1)
    for _ in range(4):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert all(env.truncations.values())
    assert not any(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}


def test_a_seat_count_the_game_does_not_seat_is_refused() -> None:
    with pytest.raises(OptionError, match=r"players = 5: game 'klaverjassen' seats 4"):
        pettingzoo.env("klaverjassen", players=5, registry=REGISTRY)
