"""A determinised Monte Carlo bot for any game, built on ``Game.sampler``.

For each decision it draws states consistent with its view (it never sees the
true State), tries every legal action in each, finishes the current deal with
random play, and scores each rollout in the game's own order:

- a rollout that ends the match scores the seat's utility
  (``Result.utilities``, higher is better in every game);
- otherwise it scores the deal margin: its team's points in the deal against
  the best other team's, signed by ``Game.points_higher_is_better`` (in a game
  of penalty points the margin is the best other team's points minus its own).

Actions are compared on their mean utility first (an unfinished match counts
0, as even), then on their mean margin: winning or losing the match outweighs
any deal. The rollouts of one sample share a random stream across actions
(common random numbers), so actions are compared on the same futures.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bots.searchkit import max_rollout_option
from harness import Bot, Option, State, View, hookimpl

#: Most states a decision may sample (4 is the default; a few hundred are slow).
MAX_SAMPLES = 1000


class SearchBot(Bot):
    """Perfect-information Monte Carlo over sampled states (PIMC)."""

    name = "search"
    description = (
        "Monte Carlo over sampled worlds: tries each legal action, plays the deal out "
        "at random, keeps the best"
    )
    option_specs = (
        # Upper bounds keep a run finite: samples = 2**64 would never decide.
        Option(
            "samples",
            4,
            "states sampled from the view per decision",
            minimum=1,
            maximum=MAX_SAMPLES,
        ),
        max_rollout_option(),
    )

    def act(self, view: View) -> str:
        """The legal action with the best mean rollout value (utility, then margin)."""
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        utility = [0.0] * len(legal)
        margin = [0.0] * len(legal)
        # The view's constraints are read once; each world is then cheap.
        sampler = self.game.sampler(view)
        for _ in range(self.options["samples"]):
            sample = sampler.sample(self.rng)
            sample.halt_after_deal = True  # the horizon: no next deal to shuffle
            stream = self.rng.getrandbits(64)
            for i, action in enumerate(legal):
                state = sample.clone()
                state.apply(action)
                u, m = self._rollout(state, sample.deal, random.Random(stream))
                utility[i] += u
                margin[i] += m
        values = list(zip(utility, margin, strict=True))
        return legal[values.index(max(values))]

    def _rollout(
        self, state: State, deal: int, rng: random.Random
    ) -> tuple[float, float]:
        """(utility if the match ended else 0, signed deal margin) of one rollout."""
        for _ in range(self.options["max_rollout"]):
            if state.is_over() or state.deal != deal:
                break
            state.apply(rng.choice(state.legal_actions()))
        result = state.result()
        utility = result.utilities[self.seat] if state.is_over() else 0.0
        if deal >= len(result.deal_points):
            return utility, 0.0  # cut off before the deal was scored
        return utility, self._margin(result.deal_points[deal], result.teams)

    def _margin(self, points: Sequence[int], teams: Sequence[int]) -> float:
        """Own team's deal points against the best other team's, in the game's order."""
        sign = 1 if self.game.points_higher_is_better else -1
        mine = teams[self.seat]
        others = [sign * p for seat, p in enumerate(points) if teams[seat] != mine]
        return sign * points[self.seat] - (max(others) if others else 0)


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the search bot."""
    return [SearchBot]
