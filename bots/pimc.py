"""Perfect-information Monte Carlo (PIMC): determinised search for any game.

For each decision the bot draws ``worlds`` States consistent with its view
(the game's sampler), values every legal action in each world as if all cards
were known, and combines the worlds: by mean value (``combine = "mean"``) or
by counting the worlds in which each action is best (``"vote"``).

In one world an action is valued

- **exactly**, by alpha-beta with a transposition table, when the world is in
  the trick-play ending of a trick game (a :class:`games.tricks.TrickState`
  whose hands and trick hold at most ``endgame_cards`` cards): the deal is
  played out to its end under every line, the searching seat's team maximising
  its deal margin and every other seat minimising it (paranoid, so with three
  or more teams the others are taken to gang up);
- else by ``rollouts`` rollouts to the end of the deal with the rollout policy
  (``random``, or a registered bot such as a family's heuristic bot); a
  rollout cut off after ``max_rollout`` actions is valued by the game's
  estimate when ``evaluation = "game"``, else as a draw.

Values are deal margins (the seat's team's deal points against the best other
team's), plus the match utility times a large weight when the match ends
within the deal.

With a ``prior`` bot (a family's heuristic bot), the search keeps the prior's
choice unless another action's mean value over the worlds beats it by more
than ``prior_margin`` deal points: a few noisy rollouts do not overrule a
player's judgement, a clear finding does. With ``search_kinds`` the search
takes only the decisions whose legal actions are all of those kinds, and the
prior bot plays the rest.

**Known weaknesses** (Frank & Basin 1998; Long et al. 2010), which
``docs/SEARCH.md`` shows on a small position:

- *strategy fusion*: in each world the search may play differently after the
  same public history, as if it knew which world it was in; the average of
  those values overrates a line whose right continuation depends on the
  hidden cards (a finesse "always works" in every world);
- *non-locality*: the value of a node depends on parts of the tree the search
  does not visit (what the opponents' earlier play says about their hands);
  a sampler gives each consistent world equal weight.

IS-MCTS (``bots.ismcts``) decides on information sets instead and avoids the
first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bots.searchkit import (
    Deadline,
    Policy,
    belief_option,
    check_belief,
    check_evaluation,
    check_policy,
    evaluation_option,
    make_policy,
    max_rollout_option,
    policy_option,
    prior_action,
    prior_choice,
    rollout,
    scalar_value,
    search_kinds,
    search_kinds_option,
    searched,
    time_options,
    world_sampler,
)
from games.tricks import TrickState
from harness import Bot, Game, Option, OptionError, State, View, hookimpl

#: Most worlds a decision may draw.
MAX_WORLDS = 10_000
#: A finished match outweighs any deal margin (margins are at most thousands).
UTILITY_WEIGHT = 1_000_000.0
#: Nodes between two looks at the clock inside an alpha-beta search.
CLOCK_EVERY = 256

# Transposition-table bound flags.
_EXACT, _LOWER, _UPPER = 0, 1, 2


class OutOfTime(Exception):
    """Raised inside a search when the deadline has passed."""


class TooBig(Exception):
    """Raised inside a search that needs more nodes than it may take."""


def endgame_cards(state: State) -> int | None:
    """Cards left in hands and on the table when ``state`` is in trick play
    of a :class:`TrickState`, else ``None`` (no exact search there)."""
    if not isinstance(state, TrickState) or not state._playing:
        return None
    return sum(hand.bit_count() for hand in state.hands) + len(state._trick)


def no_more_cards(state: TrickState, rng: random.Random, cap: int = 10_000) -> bool:
    """True when the deal ends with the cards now in the hands: no stock or
    talon will feed them. Told generically by one random playout of a copy,
    which plays no more actions than there are cards in hands when none come
    in (a game's own words, such as melds, would count against it)."""
    left = sum(hand.bit_count() for hand in state.hands)
    probe = state.clone()
    deal = probe.deal
    for played in range(cap):
        if probe.to_act is None or probe.deal != deal:
            return played <= left
        if played >= left:
            return False
        legal = probe.legal_actions()
        probe.apply(legal[int(rng.random() * len(legal))])
    return False


def _key(state: TrickState) -> tuple[Any, ...]:
    """Everything about a trick-play position that its deal value depends on:
    the hands, the trick on the table, who acts, per team the points, bonuses
    and tricks already won (the order of past tricks is left out, so
    transposed lines meet), and what else the state's ``search_key_extra()``
    names (points scored outside the tricks, such as the stock
    games' roem and pending declarations: without them a line that declares
    met one that did not, and took its value from the table)."""
    won: dict[int, list[int]] = {}
    teams = state.teams
    for _leader, _cards, winner, points, bonus in state._tricks:
        tally = won.setdefault(teams[winner], [0, 0, 0])
        tally[0] += points
        tally[1] += bonus
        tally[2] += 1
    return (
        tuple(state.hands),
        tuple(state._trick),
        state.to_act,
        tuple(sorted((t, *v) for t, v in won.items())),
        state.search_key_extra(),
    )


class AlphaBeta:
    """Exact paranoid alpha-beta over one world's trick-play ending.

    ``seat``'s team maximises the deal value (:func:`scalar_value`), every
    other seat minimises it. With ``table`` off, no transposition table
    (for tests that compare the two).
    """

    def __init__(
        self,
        game: Game,
        seat: int,
        deal: int,
        deadline: Deadline | None = None,
        table: bool = True,
        max_nodes: int = 0,
    ) -> None:
        self.game = game
        self.seat = seat
        self.deal = deal
        self.deadline = deadline
        self.table: dict[tuple[Any, ...], tuple[int, float]] | None = (
            {} if table else None
        )
        self.nodes = 0
        self.teams: tuple[int, ...] | None = None
        #: Most nodes the search may visit (0: no limit); beyond, :class:`TooBig`.
        self.max_nodes = max_nodes

    def value(self, state: State, alpha: float, beta: float) -> float:
        """The value of ``state`` within the window (alpha, beta)."""
        self.nodes += 1
        if (
            self.deadline is not None
            and self.nodes % CLOCK_EVERY == 0
            and self.deadline.passed()
        ):
            raise OutOfTime
        if self.max_nodes and self.nodes > self.max_nodes:
            raise TooBig
        if state.to_act is None or state.deal != self.deal:
            return scalar_value(self.game, state, self.deal, self.seat, UTILITY_WEIGHT)
        key = None
        table = self.table
        if table is not None and isinstance(state, TrickState) and state._playing:
            key = _key(state)
            hit = table.get(key)
            if hit is not None:
                flag, stored = hit
                if flag == _EXACT:
                    return stored
                if flag == _LOWER and stored >= beta:
                    return stored
                if flag == _UPPER and stored <= alpha:
                    return stored
        a0 = alpha
        teams = self.teams
        if teams is None:
            teams = self.teams = self.game.teams(state.n_seats)
        mine = teams[state.to_act] == teams[self.seat]
        best = -UTILITY_WEIGHT * 10 if mine else UTILITY_WEIGHT * 10
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            v = self.value(child, alpha, beta)
            if mine:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        if key is not None and table is not None:
            if best <= a0:
                table[key] = (_UPPER, best)
            elif best >= beta:
                table[key] = (_LOWER, best)
            else:
                table[key] = (_EXACT, best)
        return best


class PIMCBot(Bot):
    """Determinised search: exact trick-play endings, rollouts before them."""

    name = "pimc"
    description = (
        "Determinised search: exact alpha-beta in trick-play endings, rollouts before "
        "them; worlds by mean or vote"
    )
    option_specs = (
        Option(
            "worlds",
            8,
            "worlds sampled from the view per decision",
            minimum=1,
            maximum=MAX_WORLDS,
        ),
        Option(
            "rollouts",
            4,
            "rollouts per action per world (before the exact ending)",
            minimum=1,
            maximum=1000,
        ),
        Option(
            "endgame_cards",
            12,
            "search exactly once at most this many cards are left in hands "
            "and trick (trick games; 0: never)",
            minimum=0,
            maximum=40,
        ),
        Option(
            "exact_nodes",
            0,
            "in a game that is not a trick game, search the rest of the deal "
            "exactly when it takes at most this many nodes (0: never)",
            minimum=0,
            maximum=1_000_000,
        ),
        Option(
            "combine",
            "mean",
            "how worlds are combined",
            choices=("mean", "vote"),
            choice_docs={
                "mean": "the action of the best mean value over the worlds",
                "vote": "the action that is best in the most worlds",
            },
        ),
        *time_options(),
        policy_option(),
        max_rollout_option(),
        evaluation_option(),
        belief_option(),
        Option(
            "prior",
            "none",
            "prior policy: 'none', or the name of a registered bot whose choice is "
            "kept unless another action is better by more than 'prior_margin' "
            "(combine = 'mean')",
        ),
        Option(
            "prior_margin",
            0.0,
            "deal points by which another action's mean value must beat the "
            "prior's choice to be played instead",
            minimum=0.0,
            maximum=1000.0,
        ),
        search_kinds_option(),
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
        check_evaluation(self.options["evaluation"], game, f"bot {self.name!r}")
        check_belief(self.options["belief"], game, f"bot {self.name!r}")
        check_policy(self.options["prior"], game, f"bot {self.name!r}", "prior")
        if self.options["prior"] != "none" and self.options["combine"] != "mean":
            raise OptionError(
                f"bot {self.name!r}: option 'prior' needs combine = 'mean' (a "
                f"margin in deal points), not {self.options['combine']!r}"
            )
        self._kinds = search_kinds(
            self.options["search_kinds"],
            game,
            self.options["prior"],
            f"bot {self.name!r}",
        )
        #: Worlds searched and exact searches in the last decision (for tests).
        self.last_worlds = 0
        self.last_exact = 0

    def act(self, view: View) -> str:
        """The action with the best combined value over the worlds."""
        return self._search(view, Deadline(self.options["seconds"], None))

    def act_within(self, view: View, seconds: float | None) -> str:
        """:meth:`act`, stopping in time for the referee's limit."""
        return self._search(view, Deadline(self.options["seconds"], seconds))

    def _search(self, view: View, deadline: Deadline) -> str:
        legal = view.legal_actions
        self.last_worlds = self.last_exact = 0
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        if not searched(legal, self._kinds):
            return prior_choice(self.options["prior"], self, rng, view)
        sampler = world_sampler(self.game, view, self.options["belief"])
        policy = make_policy(self.options["rollout"], self.game, rng.getrandbits(32))
        totals = [0.0] * len(legal)
        votes = [0] * len(legal)
        limit = self.options["endgame_cards"]
        for _ in range(self.options["worlds"]):
            world = sampler.sample(rng)
            world.halt_after_deal = True  # the horizon: no next deal to shuffle
            try:
                values = self._world_values(world, legal, limit, policy, deadline)
            except OutOfTime:
                break
            self.last_worlds += 1
            for i, v in enumerate(values):
                totals[i] += v
            votes[values.index(max(values))] += 1
            if deadline.passed():
                break
        if self.last_worlds == 0:
            return legal[0]  # no world finished in time: any legal action
        if self.options["prior"] != "none":
            # Asked only when a prior is set, so a search without one draws
            # the same random numbers as before the option existed.
            favoured = prior_action(
                self.options["prior"], self.game, self.seat, rng.getrandbits(32), view
            )
            if favoured in legal:
                totals[legal.index(favoured)] += (
                    self.options["prior_margin"] * self.last_worlds
                )
        keys: Sequence[float] = totals if self.options["combine"] == "mean" else votes
        return legal[list(keys).index(max(keys))]

    def _world_values(
        self,
        world: State,
        legal: Sequence[str],
        limit: int,
        policy: Policy,
        deadline: Deadline,
    ) -> list[float]:
        deal = world.deal
        cards = endgame_cards(world)
        exact = (
            cards is not None and cards <= limit and no_more_cards(world, self.rng)  # type: ignore[arg-type]
        )
        nodes = self.options["exact_nodes"]
        if exact or (cards is None and nodes):
            search = AlphaBeta(
                self.game, self.seat, deal, deadline, max_nodes=0 if exact else nodes
            )
            try:
                out = []
                for action in legal:
                    child = world.clone()
                    child.apply(action)
                    out.append(
                        search.value(child, -UTILITY_WEIGHT * 10, UTILITY_WEIGHT * 10)
                    )
            except TooBig:
                pass  # too deep to search exactly: roll out
            else:
                self.last_exact += 1
                return out
        rng = self.rng
        out = []
        n = self.options["rollouts"]
        cap = self.options["max_rollout"]
        estimate = self.options["evaluation"] == "game"
        streams = [rng.getrandbits(64) for _ in range(n)]
        for action in legal:
            total = 0.0
            for stream in streams:  # common random numbers across actions
                child = world.clone()
                child.apply(action)
                rollout(child, deal, policy, random.Random(stream), cap)
                total += scalar_value(
                    self.game, child, deal, self.seat, UTILITY_WEIGHT, estimate
                )
            out.append(total / n)
        return out


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the PIMC bot."""
    return [PIMCBot]
