"""A bot that plays a uniformly random legal action, seeded: for any game."""

from __future__ import annotations

from collections.abc import Sequence

from harness import Bot, View, hookimpl


class RandomBot(Bot):
    """Chooses uniformly among ``view.legal_actions`` with its own seeded stream."""

    name = "random"
    description = "A uniformly random legal action, from its own seeded stream"

    def act(self, view: View) -> str:
        """A random legal action."""
        return self.rng.choice(view.legal_actions)


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the random bot."""
    return [RandomBot]
