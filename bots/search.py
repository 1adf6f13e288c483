"""A determinised Monte Carlo bot for any game, built on ``Game.sampler``.

For each decision it draws states consistent with its view (it never sees the
true State), tries every legal action in each, finishes the current deal with
random play, and picks the action with the best mean deal margin: its team's
points in the deal minus the best other team's. The rollouts of one sample
share a random stream across actions (common random numbers), so actions are
compared on the same futures.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from harness import Bot, Option, State, View, hookimpl


class SearchBot(Bot):
    """Perfect-information Monte Carlo over sampled states (PIMC)."""

    name = "search"
    option_specs = (
        Option("samples", 4, "states sampled from the view per decision", minimum=1),
        Option(
            "max_rollout", 2000, "actions per rollout before it is cut off", minimum=1
        ),
    )

    def act(self, view: View) -> str:
        """The legal action with the best mean rollout margin."""
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        totals = [0.0] * len(legal)
        # The view's constraints are read once; each world is then cheap.
        sampler = self.game.sampler(view)
        for _ in range(self.options["samples"]):
            sample = sampler.sample(self.rng)
            stream = self.rng.getrandbits(64)
            for i, action in enumerate(legal):
                state = sample.clone()
                state.apply(action)
                totals[i] += self._rollout(state, sample.deal, random.Random(stream))
        best = max(totals)
        return legal[totals.index(best)]

    def _rollout(self, state: State, deal: int, rng: random.Random) -> float:
        for _ in range(self.options["max_rollout"]):
            if state.is_over() or state.deal != deal:
                break
            state.apply(rng.choice(state.legal_actions()))
        result = state.result()
        if deal >= len(result.deal_points):
            return 0.0  # cut off before the deal was scored
        points = result.deal_points[deal]
        mine = result.teams[self.seat]
        others = [p for seat, p in enumerate(points) if result.teams[seat] != mine]
        return points[self.seat] - (max(others) if others else 0)


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the search bot."""
    return [SearchBot]
