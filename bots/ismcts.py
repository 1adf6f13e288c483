"""Single-observer information-set MCTS (SO-ISMCTS) for any game.

After Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search"
(IEEE TCIAIG 4(2), 2012), algorithm 3. One tree is grown over the searching
seat's information set: every iteration

1. **determinises**: draws a world consistent with the view from the game's
   sampler (built once per decision);
2. **selects** down the tree with the actions legal *in that world*: a node's
   children are the actions seen so far, and each child counts how often it
   was *available* (legal when its parent was visited); UCB1 uses that
   availability count in place of the parent's visits, as the paper does,
   so an action legal in few worlds is not penalised for the others;
3. **expands** one untried legal action (at the root the prior bot's choice
   first, when a ``prior`` is set), **rolls out** with the rollout policy to
   the end of the deal (or ``max_rollout`` actions, the world then valued
   by the game's estimate when ``evaluation = "game"``), and
4. **backs up** each node's reward for the seat that chose its action (a
   partner's reward is its team's, so partners cooperate).

A node is reached by the same sequence of actions whoever acts (the opponents'
moves are the actions they play, which the observer sees). The reward is in
[-1, 1]: the deal margin over the largest margin seen in this search,
halved; when the match ends within the horizon, 3/4 of the utility plus a
quarter of that.

The decision is the root's most visited child, the prior's choice credited
with ``prior_lead`` times the iterations done as visits more. With
``search_kinds`` the search takes only the decisions whose legal actions are
all of those kinds and the prior bot plays the rest (Maison Troggen's ladder
leaves the dealer's discards to the tarot heuristic: ``docs/SEARCH.md``, "The
tarot family"). The search is
deterministic for a fixed iteration budget (its random stream is the bot's
own); a time budget (``seconds``, or the referee's limit in
:meth:`act_within`) stops it early.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from bots.searchkit import (
    Deadline,
    belief_option,
    check_belief,
    check_evaluation,
    check_policy,
    evaluation_option,
    horizon_margins,
    make_policy,
    max_rollout_option,
    policy_option,
    prior_action,
    prior_choice,
    prior_options,
    search_kinds,
    search_kinds_option,
    searched,
    time_options,
    world_sampler,
)
from harness import Bot, Game, Option, View, hookimpl

#: Most iterations a decision may take.
MAX_ITERATIONS = 10_000_000
#: Iterations between two looks at the clock.
CLOCK_EVERY = 16


class Node:
    """One node of the information-set tree: the action that led here."""

    __slots__ = ("avail", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        #: The seat that chose the action leading here (its reward is kept).
        self.seat = seat
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.reward = 0.0
        #: Times this node's action was legal when its parent was visited.
        self.avail = 0


class ISMCTSBot(Bot):
    """Information-set MCTS: one UCT tree over determinised worlds."""

    name = "ismcts"
    description = (
        "Information-set MCTS: one UCT tree searched over worlds sampled to fit its "
        "view"
    )
    option_specs = (
        Option(
            "iterations",
            1000,
            "iterations (determinised playouts) per decision",
            minimum=1,
            maximum=MAX_ITERATIONS,
        ),
        *time_options(),
        Option(
            "exploration",
            0.7,
            "UCB1 exploration constant",
            minimum=0.0,
            maximum=10.0,
        ),
        policy_option(),
        *prior_options(),
        search_kinds_option(),
        max_rollout_option(),
        evaluation_option(),
        belief_option(),
    )

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(game, seat, seed, options)
        check_policy(self.options["rollout"], game, f"bot {self.name!r}")
        check_policy(self.options["prior"], game, f"bot {self.name!r}", "prior")
        check_evaluation(self.options["evaluation"], game, f"bot {self.name!r}")
        check_belief(self.options["belief"], game, f"bot {self.name!r}")
        self._kinds = search_kinds(
            self.options["search_kinds"],
            game,
            self.options["prior"],
            f"bot {self.name!r}",
        )
        #: Iterations of the last decision (for benches and tests).
        self.last_iterations = 0
        #: The tree of the last decision (for tests).
        self.last_root: Node | None = None

    def act(self, view: View) -> str:
        """The most visited root action after the budget."""
        return self._search(view, Deadline(self.options["seconds"], None))

    def act_within(self, view: View, seconds: float | None) -> str:
        """:meth:`act`, stopping in time for the referee's limit."""
        return self._search(view, Deadline(self.options["seconds"], seconds))

    def _search(self, view: View, deadline: Deadline) -> str:
        legal = view.legal_actions
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        if not searched(legal, self._kinds):
            return prior_choice(self.options["prior"], self, rng, view)
        sampler = world_sampler(self.game, view, self.options["belief"])
        policy = make_policy(self.options["rollout"], self.game, rng.getrandbits(32))
        # The prior's choice at the root, if any: explored first, then favoured
        # by weight / (1 + visits). Asked only when a prior is set, so a search
        # without one draws exactly the random stream it always drew.
        favoured = (
            None
            if self.options["prior"] == "none"
            else prior_action(
                self.options["prior"], self.game, self.seat, rng.getrandbits(32), view
            )
        )
        bias = float(self.options["prior_weight"])
        c = float(self.options["exploration"])
        cap = self.options["max_rollout"]
        estimate = self.options["evaluation"] == "game"
        game = self.game
        root = self.last_root = Node(self.seat)
        scale = 1.0
        iterations = self.options["iterations"]
        bounded = deadline.bounded
        done = 0
        for done in range(1, iterations + 1):
            world = sampler.sample(rng)
            world.halt_after_deal = True  # the horizon: no next deal to shuffle
            deal = world.deal
            node = root
            path: list[Node] = []
            # Selection and expansion, in this world.
            while world.to_act is not None and world.deal == deal:
                acts = world.legal_actions()
                children = node.children
                seat = world.to_act
                untried: list[str] = []
                best: Node | None = None
                best_action = ""
                best_score = -math.inf
                for action in acts:
                    child = children.get(action)
                    if child is None:
                        untried.append(action)
                        continue
                    child.avail += 1
                    if untried:
                        continue  # an untried action will be expanded instead
                    score = child.reward / child.visits + c * math.sqrt(
                        math.log(child.avail) / child.visits
                    )
                    if node is root and action == favoured:
                        score += bias / (1 + child.visits)
                    if score > best_score:
                        best, best_action, best_score = child, action, score
                if untried:
                    if node is root and favoured in untried:
                        action = favoured
                    else:
                        action = untried[int(rng.random() * len(untried))]
                    child = children[action] = Node(seat)
                    child.avail = 1
                    world.apply(action)
                    path.append(child)
                    break
                assert best is not None
                world.apply(best_action)
                path.append(best)
                node = best
            # Rollout to the horizon.
            for _ in range(cap):
                if world.to_act is None or world.deal != deal:
                    break
                world.apply(policy(world, rng))
            result = world.result()
            margins = horizon_margins(game, world, result, deal, estimate)
            top = max(abs(m) for m in margins)
            if top > scale:
                scale = top
            if world.is_over() and result.utilities:
                # The match outweighs the deal; the margin still breaks ties.
                rewards: Sequence[float] = [
                    0.75 * u + 0.25 * m / scale
                    for u, m in zip(result.utilities, margins, strict=True)
                ]
            else:
                rewards = [0.5 * m / scale for m in margins]
            for n in path:
                n.visits += 1
                n.reward += rewards[n.seat]
            if bounded and done % CLOCK_EVERY == 0 and deadline.passed():
                break
        self.last_iterations = done
        # The prior's lead, a share of the iterations so that it means the same
        # under any budget: the search overrides the prior's choice only when
        # it found another action clearly better, not by a few noisy visits.
        lead = self.options["prior_lead"] * done
        visits = [
            (
                (root.children[a].visits if a in root.children else -1)
                + (lead if a == favoured else 0),
                -i,
            )
            for i, a in enumerate(legal)
        ]
        return legal[visits.index(max(visits))]


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the IS-MCTS bot."""
    return [ISMCTSBot]
