"""Bots of other frameworks as troef entrants: OpenSpiel's IS-MCTS, a masked policy.

``bot = "openspiel:ismcts"`` runs OpenSpiel's own ``ISMCTSBot``
(``open_spiel/python/algorithms/ismcts.py``) on the game's OpenSpiel adapter
(``harness/interop/openspiel.py``): each decision starts from a world the
game's sampler draws behind the bot's View, and every world the search
resamples is drawn behind the same View, so the bot knows what any troef bot
knows and no more. ``bot = "policy"`` plays a PettingZoo/Gymnasium-style policy,
a callable on the encoding's observation and action mask that returns an
action id. Both are referees' bots like any other: time controls, forfeits and
process isolation apply unchanged. OpenSpiel (the ``openspiel`` extra) and the
policy's module are imported when a bot is built, not when the plugin loads.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from harness import Bot, Game, Option, View, hookimpl
from harness.contracts.errors import OptionError

#: The largest number of simulations a decision may be given.
MAX_SIMULATIONS = 1_000_000


class OpenSpielISMCTS(Bot):
    """OpenSpiel's ISMCTSBot on the game's OpenSpiel adapter, from its View."""

    name = "openspiel:ismcts"
    description = "OpenSpiel's own ISMCTSBot, searching the game's OpenSpiel adapter"
    option_specs = (
        Option(
            "simulations",
            100,
            "ISMCTS simulations per decision",
            minimum=1,
            maximum=MAX_SIMULATIONS,
        ),
        Option("uct_c", 2.0, "UCT exploration constant", minimum=0.0, maximum=100.0),
        Option(
            "rollouts",
            1,
            "random rollouts per leaf evaluation",
            minimum=1,
            maximum=1000,
        ),
        Option(
            "world_samples",
            0,
            "distinct worlds per decision, reused by the search; 0: a new one "
            "every simulation",
            minimum=0,
            maximum=MAX_SIMULATIONS,
        ),
    )

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(game, seat, seed, options)
        # Checked when the entrant is built, not at its first move.
        game.encoding(min(game.seat_counts))
        self._spiel: Any = None

    def act(self, view: View) -> str:
        """The search's action from a world drawn behind ``view``."""
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        from harness.interop.openspiel import (
            adapter_encoding,
            adapter_game,
            adapter_state,
        )

        world = self.game.sampler(view).sample(self.rng)
        if self._spiel is None or self._spiel.num_players() != world.n_seats:
            self._spiel = adapter_game(self.game, world.n_seats)
        state = adapter_state(self._spiel, world)
        random_state = np.random.RandomState(self.rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(
            n_rollouts=self.options["rollouts"], random_state=random_state
        )
        samples = self.options["world_samples"] or ismcts.UNLIMITED_NUM_WORLD_SAMPLES
        bot = ismcts.ISMCTSBot(
            self._spiel,
            evaluator,
            self.options["uct_c"],
            self.options["simulations"],
            max_world_samples=samples,
            random_state=random_state,
        )
        rng = self.rng
        bot.set_resampler(
            lambda s, player: s.resample_from_infostate(player, rng.random)
        )
        action: str = adapter_encoding(self._spiel).action(bot.step(state))
        return action


class PolicyBot(Bot):
    """A policy of the RL libraries: a callable on observation and action mask."""

    name = "policy"
    description = "A learned policy: policy(observation, mask) gives an action id"
    option_specs = (
        Option(
            "policy",
            "",
            "the callable, as 'module:name' or '/path/to/file.py:name'; called as "
            "policy(observation, mask) with the encoding's float32 observation and "
            "int8 mask, it returns an action id",
        ),
    )

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(game, seat, seed, options)
        self.policy = load_policy(self.options["policy"])
        self._encoding: Any = None

    def act(self, view: View) -> str:
        """The policy's action id, as the action it names."""
        import numpy as np

        if self._encoding is None:
            n_seats = self.game.sampler(view).sample(self.rng).n_seats
            self._encoding = self.game.encoding(n_seats)
        mask = self._encoding.mask(view).astype(np.int8)
        chosen = self.policy(self._encoding.encode(view), mask)
        action: str = self._encoding.action(int(chosen))
        return action


def load_policy(spec: str) -> Callable[..., Any]:
    """The callable ``spec`` names: ``module:name`` or ``/path/file.py:name``.

    :raises OptionError: the spec has no ``:``, the module or file does not
        load, or it has no such callable.
    """
    where, _, attribute = spec.rpartition(":")
    if not where or not attribute:
        raise OptionError(
            f"bot 'policy': option 'policy' = {spec!r}; expected 'module:name' or "
            "'/path/to/file.py:name'"
        )
    try:
        if where.endswith(".py"):
            path = Path(where)
            found = importlib.util.spec_from_file_location(f"policy_{path.stem}", path)
            if found is None or found.loader is None:
                raise ImportError(f"no Python file at {path}")
            module = importlib.util.module_from_spec(found)
            found.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except (ImportError, OSError) as error:
        raise OptionError(
            f"bot 'policy': option 'policy' = {spec!r}: {where} does not load: {error}"
        ) from error
    policy = getattr(module, attribute, None)
    if not callable(policy):
        raise OptionError(
            f"bot 'policy': option 'policy' = {spec!r}: {where} has no callable "
            f"{attribute!r}"
        )
    return policy  # type: ignore[no-any-return]


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register OpenSpiel's IS-MCTS and the policy bot."""
    return [OpenSpielISMCTS, PolicyBot]
