"""troef's games as OpenSpiel games (``harness/interop/openspiel.py``).

Every registered game passes the checks OpenSpiel runs on its own Python
games (``pyspiel.random_sim_test`` and ``games_sim_test``'s ``sim_game``) at
its smallest and largest table; the strings, tensors, returns and resampled
worlds are checked against troef's own State, View, encoding and sampler; and
OpenSpiel's ISMCTSBot and MCTSBot play matches to the end.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from harness.contracts.errors import OptionError
from harness.plugins import load_plugins
from tests.conftest import TOY_PLUGIN

pyspiel = pytest.importorskip("pyspiel")

from harness.interop import openspiel  # noqa: E402 - after the skip

REGISTRY = load_plugins()
NAMES = openspiel.register(REGISTRY)
#: Random play in gin rummy seldom knocks: a match to 1 point took 17,682
#: actions. Its API checks stop at the referee's cap instead, a draw.
CAPS = {"gin-rummy": 600}


def _params(name: str, players: int) -> dict[str, Any]:
    params: dict[str, Any] = {**REGISTRY.games[name].check_options, "players": players}
    if name in CAPS:
        params["max_actions"] = CAPS[name]
    return params


def _tables() -> list[tuple[str, int]]:
    found = []
    for name in sorted(REGISTRY.games):
        seats = sorted(REGISTRY.games[name].seat_counts)
        found += [(name, n) for n in sorted({seats[0], seats[-1]})]
    return found


def _dealt(game: Any, seed: int) -> Any:
    state = game.new_initial_state()
    for byte in openspiel.seed_actions(seed):
        state.apply_action(byte)
    return state


def test_every_registered_game_is_registered_by_its_name() -> None:
    assert sorted(NAMES.values()) == sorted(REGISTRY.games)
    assert NAMES["troef_gin_rummy"] == "gin-rummy"
    assert openspiel.register(REGISTRY) == NAMES  # twice is harmless


OUTSIDE = '''
from games.jass.belote import Belote
from harness import hookimpl

class OutsideBelote(Belote):
    """Belote under another name, from a plugin file."""

    name = "outside-belote"

@hookimpl
def troef_games():
    return [OutsideBelote]
'''


def test_an_outside_plugins_game_is_registered_and_one_without_encoding_is_not(
    tmp_path: Path,
) -> None:
    plugin = tmp_path / "outside_belote.py"
    plugin.write_text(OUTSIDE)
    registry = load_plugins(files=[plugin, TOY_PLUGIN])
    names = openspiel.register(registry)
    assert names["troef_outside_belote"] == "outside-belote"
    assert "toy" in registry.games and "troef_toy" not in names  # no encoding
    game = pyspiel.load_game("troef_outside_belote", {"players": 3, "target": 300})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "players"), _tables())
def test_openspiel_api_checks_pass(name: str, players: int) -> None:
    from open_spiel.python.tests import games_sim_test

    game = pyspiel.load_game(openspiel.short_name(name), _params(name, players))
    # As OpenSpiel's own Python games call it (kuhn_poker_test.py).
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    # troef's States hold functions and do not pickle (docs/INTEROP.md, ruling 5).
    games_sim_test.GamesSimTest().sim_game(
        game, check_pyspiel_serialization=False, check_pickle_serialization=False
    )


def test_load_game_by_string_takes_the_options_as_parameters() -> None:
    game = pyspiel.load_game("troef_klaverjassen(variant=leids)")
    troef = REGISTRY.game("klaverjassen", {"variant": "leids"})
    assert game.num_players() == 4
    assert game.get_parameters()["variant"] == "leids"
    assert game.num_distinct_actions() == troef.encoding(4).num_actions
    assert game.max_game_length() == troef.action_cap
    assert game.observation_tensor_shape() == list(troef.encoding(4).shape)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    chips = pyspiel.load_game(
        "troef_maison_tarot", {"variant": "wilde", "players": 3, "deals": 2}
    )
    assert (chips.min_utility(), chips.max_utility()) == (-2.0, 4.0)


def test_a_game_pickles_with_its_parameters() -> None:
    game = pyspiel.load_game("troef_gin_rummy", {"target": 30, "max_actions": 600})
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    assert again.max_game_length() == 600


def test_a_seat_count_the_game_does_not_seat_names_the_parameter() -> None:
    with pytest.raises(
        OptionError, match=r"'players' = 5; game 'klaverjassen' seats 4"
    ):
        pyspiel.load_game("troef_klaverjassen", {"players": 5})


def test_the_seed_chance_nodes_deal_troefs_match_of_that_seed() -> None:
    game = pyspiel.load_game("troef_belote", {"players": 3, "target": 300})
    root = game.new_initial_state()
    assert root.is_chance_node()
    assert root.chance_outcomes()[:2] == [(0, 1 / 256), (1, 1 / 256)]
    seed = 987654321
    state = _dealt(game, seed)
    troef = REGISTRY.game("belote", {"target": 300}).new_match(3, seed)
    encoding = REGISTRY.game("belote", {"target": 300}).encoding(3)
    rng = random.Random(5)
    while not troef.is_over():
        seat = troef.to_act
        assert seat is not None
        assert state.current_player() == seat
        view = troef.view(seat)
        assert state.information_state_string() == view.to_json()
        assert state.observation_string() == view.to_json()
        tensor = state.observation_tensor()
        np.testing.assert_array_equal(tensor, encoding.encode(view))
        # pyspiel's own path (its C++ callers'), through the Python observer.
        np.testing.assert_array_equal(pyspiel.State.observation_tensor(state), tensor)
        assert state.legal_actions() == sorted(
            map(encoding.action_id, view.legal_actions)
        )
        action = rng.choice(view.legal_actions)
        troef.apply(action)
        state.apply_action(encoding.action_id(action))
    assert state.is_terminal()
    assert state.returns() == list(troef.result().utilities)
    assert sorted(state.returns()) != [0.0, 0.0, 0.0]  # a real end, not the cap


def test_python_callers_get_what_pyspiels_own_path_answers() -> None:
    """legal_actions and is_chance_node are answered in Python (issue 33, item
    6: a playout's cost); at every node, for every seat and pseudo-seat, they
    give what pyspiel's C++ state gives, the errors included."""

    def asked(method: Any, state: Any, player: int | None) -> Any:
        try:
            return method(state) if player is None else method(state, player)
        except pyspiel.SpielError as error:
            return f"error: {error}"

    game = pyspiel.load_game("troef_belote", {"players": 3})
    chance, terminal = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
    state = game.new_initial_state()
    rng = random.Random(3)
    kinds: set[int | str] = set()
    while True:
        seat = state.current_player()
        # A pseudo-seat asked at a seat's turn is pyspiel's error; once is enough.
        asks = [None, 0, 1, 2, *((chance, terminal) if seat < 0 or not kinds else ())]
        for player in asks:
            ours = asked(type(state).legal_actions, state, player)
            assert ours == asked(pyspiel.State.legal_actions, state, player), player
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        kinds.add(seat if seat < 0 else "seat")
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert kinds == {chance, "seat", terminal}


def test_legal_ids_are_asked_of_the_troef_state_once_per_move() -> None:
    """A search asks a node for its legal actions many times: the adapter
    keeps them until the next move instead of asking troef again."""
    game = pyspiel.load_game("troef_klaverjassen")
    state = _dealt(game, 5)
    troef = state.troef_state
    asked = []
    own = troef.legal_actions

    def counted() -> Any:
        asked.append(1)
        return own()

    troef.legal_actions = counted  # the troef State is not the part under test
    first = state.legal_actions()
    assert state.legal_actions() == first
    assert pyspiel.State.legal_actions(state) == first  # the C++ path keeps it too
    assert list(np.flatnonzero(state.legal_actions_mask())) == first
    assert len(asked) == 1
    first.clear()  # a caller's list is its own
    assert state.legal_actions() != []
    state.apply_action(state.legal_actions()[0])
    if state.current_player() >= 0:
        state.legal_actions()
        assert len(asked) == 2  # the next move asks again
    clone = state.clone()
    assert clone.legal_actions() == state.legal_actions()


def test_the_cap_ends_a_match_as_a_draw() -> None:
    game = pyspiel.load_game("troef_gin_rummy", {"max_actions": 5})
    state = _dealt(game, 3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert len(state.history()) == openspiel.SEED_BYTES + 5


def test_resample_from_infostate_draws_worlds_behind_the_view() -> None:
    game = pyspiel.load_game("troef_klaverjassen", {"target": 300})
    state = _dealt(game, 11)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(4)]
    for world in worlds:
        assert world.information_state_string() == state.information_state_string()
        assert world.legal_actions() == state.legal_actions()
    others = {str(w) for w in worlds}
    assert len(others) > 1  # the hidden hands differ between draws
    again = state.resample_from_infostate(seat, _Fixed(0.25))
    assert str(again) == str(state.resample_from_infostate(seat, _Fixed(0.25)))


class _Fixed:
    """A probability sampler that always gives ``value`` (a seeded search)."""

    def __init__(self, value: float) -> None:
        self.value = value

    def __call__(self) -> float:
        return self.value


@pytest.mark.parametrize(
    ("name", "params"),
    [("klaverjassen", {"target": 300}), ("bezique", {"target": 200})],
)
def test_openspiel_search_bots_play_to_the_end(
    name: str, params: dict[str, Any]
) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(openspiel.short_name(name), params)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 1.0, 4, random_state=rng)
        if seat % 2 == 0
        else mcts.MCTSBot(game, 1.0, 4, evaluator, random_state=rng, solve=False)
        for seat in range(game.num_players())
    ]
    worlds = random.Random(7)  # the resampling too, so the match repeats
    for bot in bots[::2]:
        bot.set_resampler(
            lambda s, player: s.resample_from_infostate(player, worlds.random)
        )
    state = _dealt(game, 2026)
    decisions = 0
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
        decisions += 1
    troef = REGISTRY.game(name, params)
    assert decisions < troef.action_cap  # the end of the match, not the cap
    result = state.troef_state.result()
    assert state.troef_state.is_over() and result.ended is None
    assert state.returns() == list(result.utilities)
