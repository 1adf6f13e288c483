"""troef's games as PettingZoo AEC environments (the ``pettingzoo`` extra).

::

    from harness.interop import pettingzoo
    env = pettingzoo.env("gin-rummy", target=30)
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else policy(observation, mask)
        env.step(action)

Agents are ``player_0`` .. ``player_{n-1}``, one per seat; each observation is
a dict of the encoding's ``observation`` of the agent's View and its
``action_mask`` (int8, 1 at the legal action ids), as PettingZoo's classic
environments give them. Rewards are the Result's utilities at the end, zero
before; the referee's action cap truncates a match (a draw, zero rewards).
Rulings: ``docs/INTEROP.md``. This module imports PettingZoo and Gymnasium;
nothing in core troef imports it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from harness.contracts.encoding import Encoding, Observation
from harness.contracts.errors import OptionError
from harness.contracts.game import Game, State
from harness.plugins import Registry, load_plugins

__all__ = ["TroefEnv", "env"]

_RENDER_MODES = ("ansi",)


def env(
    name: str,
    *,
    players: int | None = None,
    max_actions: int | None = None,
    render_mode: str | None = None,
    registry: Registry | None = None,
    **options: Any,
) -> TroefEnv:
    """The AEC environment of game ``name`` with ``options``.

    :param players: the seat count; default the game's smallest table.
    :param max_actions: a lower cap on a match's actions (the referee's).
    :param render_mode: None or ``"ansi"`` (``render()`` returns the match's
        state as text).
    :raises UnknownNameError: no game is called ``name``.
    :raises OptionError: an option, the seat count or the cap is not allowed.
    """
    registry = registry or load_plugins()
    game = registry.game(name, options).with_max_actions(max_actions)
    seats = min(game.seat_counts) if players is None else players
    return TroefEnv(game, seats, render_mode=render_mode)


class TroefEnv(AECEnv):  # type: ignore[misc]
    """One troef game at one table as a PettingZoo AEC environment."""

    def __init__(
        self, game: Game, players: int, *, render_mode: str | None = None
    ) -> None:
        super().__init__()
        if players not in game.seat_counts:
            seats = ", ".join(map(str, sorted(game.seat_counts)))
            raise OptionError(
                f"players = {players!r}: game {game.name!r} seats {seats}"
            )
        if render_mode not in (None, *_RENDER_MODES):
            raise OptionError(
                f"render_mode = {render_mode!r}; the troef environments render "
                f"None or {', '.join(map(repr, _RENDER_MODES))}"
            )
        self.game = game
        self.encoding: Encoding = game.encoding(players)
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "name": f"troef_{game.name.replace('-', '_')}_v0",
            "render_modes": list(_RENDER_MODES),
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        observation = spaces.Dict(
            {
                # Entries are shares and scaled scores (docs/ENCODING.md
                # ruling 5); no fixed bound is promised.
                "observation": spaces.Box(
                    -np.inf, np.inf, self.encoding.shape, np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self.encoding.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.encoding.num_actions) for a in self.possible_agents
        }
        self._seeds = random.Random()
        self.state: State | None = None
        self._actions = 0

    # Rebuilt by every reset; PettingZoo's attributes, declared for mypy.
    agents: list[str]
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    agent_selection: str

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> None:
        """A new match: dealt from ``seed`` (a troef match seed), else from the
        environment's stream of seeds (itself seeded by the last ``seed``)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            match_seed = seed
        else:
            match_seed = self._seeds.randrange(2**63)
        self.match_seed = match_seed
        self.state = self.game.new_match(self.num_seats, match_seed)
        self._actions = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    @property
    def num_seats(self) -> int:
        """The table's seat count."""
        return len(self.possible_agents)

    def _match(self) -> State:
        if self.state is None:
            raise RuntimeError(
                f"{self.metadata['name']}: call reset() before step() or observe()"
            )
        return self.state

    def _select(self) -> None:
        seat = self._match().to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, Observation | np.ndarray[Any, Any]]:
        view = self._match().view(self.possible_agents.index(agent))
        return {
            "observation": self.encoding.encode(view),
            "action_mask": self.encoding.mask(view).astype(np.int8),
        }

    def step(self, action: int | None) -> None:
        """Play action id ``action`` for the selected agent (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._match()
        if action is None:
            raise OptionError(
                f"{self.metadata['name']}: {agent} is to act and gave no action; "
                f"an action is an id from 0 to {self.encoding.num_actions - 1}"
            )
        self._cumulative_rewards[agent] = 0.0
        state.apply(self.encoding.action(int(action)))
        self._actions += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if state.is_over():
            utilities = state.result().utilities
            self.rewards = {
                a: float(utilities[seat]) for seat, a in enumerate(self.possible_agents)
            }
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._actions >= self.game.action_cap:
            # The referee's cap: a draw, which PettingZoo calls a truncation.
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``ansi``: the seat to act and every card's place, as text."""
        if self.render_mode is None:
            return None
        state = self._match()
        places = state.card_locations()
        lines = [f"{place}: {' '.join(cards)}" for place, cards in places.items()]
        return "\n".join([f"to act: {state.to_act}", *lines])

    def close(self) -> None:
        """Nothing to release: the match lives in this process."""
