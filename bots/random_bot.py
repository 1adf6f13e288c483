"""A bot that plays a uniformly random legal action, seeded: for any game."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from harness import Bot, View, hookimpl

if TYPE_CHECKING:
    from harness import Game


class RandomBot(Bot):
    """Chooses uniformly among ``view.legal_actions`` with its own seeded stream."""

    name = "random"

    def __init__(
        self, game: Game, seat: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(game, seat, seed, options)
        self._rng = random.Random(seed)

    def act(self, view: View) -> str:
        """A random legal action."""
        return self._rng.choice(view.legal_actions)


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the random bot."""
    return [RandomBot]
