"""What the IS-MCTS and PIMC bots share: horizons, values, policies, clocks.

Both bots search through the contracts alone (``Game.sampler``,
``State.clone``/``apply``/``legal_actions``/``result``), so any registered
game, an outside plugin's too, gets them without a line of its own.

- **Horizon.** A search looks no further than the end of the current deal (or
  the match, if it ends first): a deal is where a game scores, and the next
  deal is dealt from a seed the bot does not know.
- **Value.** A finished match is worth its utility (``Result.utilities``);
  a finished deal its margin: the seat's team's deal points against the best
  other team's, signed by ``Game.points_higher_is_better``.
- **Policies.** A rollout policy picks the actions of a rollout: ``random``
  (fast), or any registered bot by name (the families' heuristic bots, or one
  that an outside plugin registers), asked with the seat's own view.
- **Evaluation.** A rollout cut off by ``max_rollout`` before the deal ends is
  worth a draw, or with ``evaluation = "game"`` the margins of the game's
  :meth:`Game.deal_estimate` (:func:`horizon_margins`).
- **Clocks.** :class:`Deadline` turns a bot's ``seconds`` option (CPU
  seconds of its thread) and the referee's limit (``Bot.act_within``, wall
  seconds) into the moment to stop thinking.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from harness import Bot, Game, Option, Sampler, State, View
from harness.contracts.errors import OptionError

if TYPE_CHECKING:
    from harness.contracts.result import Result

__all__ = [
    "Deadline",
    "Policy",
    "belief_option",
    "check_belief",
    "evaluation_option",
    "horizon_margins",
    "make_policy",
    "points_margins",
    "prior_choice",
    "search_kinds",
    "search_kinds_option",
    "searched",
    "seat_margins",
    "time_options",
]

#: Most seconds a bot option may ask to think per decision.
MAX_SECONDS = 600.0
#: The share of the referee's limit a search spends: the rest is the margin
#: for answering (a process bot's pipe, the last iteration, a slow machine).
LIMIT_SHARE = 0.5
#: Seconds always kept back from the referee's limit.
LIMIT_RESERVE = 0.02

#: A rollout policy: the action the seat to act plays in ``state``.
Policy = Callable[[State, random.Random], str]


def time_options() -> tuple[Option, ...]:
    """The ``seconds`` option every search bot takes (0: no time budget)."""
    return (
        Option(
            "seconds",
            0.0,
            "CPU seconds to think per decision (0: by the other budget alone); "
            "the referee's time control, when shorter, wins",
            minimum=0.0,
            maximum=MAX_SECONDS,
        ),
    )


class Deadline:
    """When a decision must stop: the bot's own budget or the referee's limit.

    The bot's own ``seconds`` are CPU seconds of the thinking thread
    (``time.thread_time``), so that two search bots given equal time search
    equally on a machine shared with other work: on a loaded machine a
    wall-clock budget buys fewer iterations, and a ladder would measure the
    load, not the bot. The referee's limit is wall time, as the referee keeps
    it: under a limit of ``L`` seconds the search stops after
    ``LIMIT_SHARE * L - LIMIT_RESERVE`` (never below 0) on the wall clock: a
    move clock, or the rest of a match budget (the referee passes the smaller).
    Whichever comes first stops the search.
    """

    __slots__ = ("cpu_at", "wall_at")

    def __init__(self, seconds: float, limit: float | None) -> None:
        #: ``time.thread_time()`` at which the bot's own budget is spent.
        self.cpu_at = time.thread_time() + seconds if seconds > 0 else math.inf
        #: ``time.perf_counter()`` at which the referee's limit is near.
        self.wall_at = (
            time.perf_counter() + max(0.0, LIMIT_SHARE * limit - LIMIT_RESERVE)
            if limit is not None
            else math.inf
        )

    @property
    def bounded(self) -> bool:
        """True when there is a time at which to stop."""
        return self.cpu_at != math.inf or self.wall_at != math.inf

    def passed(self) -> bool:
        """True once the bot's budget is spent or the referee's limit is near."""
        return (self.cpu_at != math.inf and time.thread_time() >= self.cpu_at) or (
            self.wall_at != math.inf and time.perf_counter() >= self.wall_at
        )


def seat_margins(game: Game, result: Result, deal: int) -> list[float]:
    """Each seat's deal margin in deal ``deal``: own team against the best other.

    ``0`` for every seat when the deal was not scored (a match cut off).
    """
    n = len(result.teams)
    if deal >= len(result.deal_points):
        return [0.0] * n
    return points_margins(game, result.deal_points[deal], result.teams)


def points_margins(
    game: Game, points: Sequence[float], teams: Sequence[int]
) -> list[float]:
    """Each seat's margin of the deal ``points``: own team against the best other."""
    n = len(teams)
    sign = 1 if game.points_higher_is_better else -1
    out: list[float] = []
    for seat in range(n):
        mine = teams[seat]
        others = [sign * p for s, p in enumerate(points) if teams[s] != mine]
        out.append(sign * points[seat] - (max(others) if others else 0))
    return out


def random_policy(state: State, rng: random.Random) -> str:
    """A uniformly random legal action (the fast default)."""
    legal = state.legal_actions()
    return legal[int(rng.random() * len(legal))]


class BotPolicy:
    """A rollout policy that asks a registered bot, one per seat, with its view.

    Each seat's bot is built once per decision with a seed from the searching
    bot's stream, so a search stays deterministic.
    """

    __slots__ = ("bot_cls", "bots", "game", "seed")

    def __init__(self, bot_cls: type[Bot], game: Game, seed: int) -> None:
        self.bot_cls = bot_cls
        self.game = game
        self.seed = seed
        self.bots: dict[int, Bot] = {}

    def __call__(self, state: State, rng: random.Random) -> str:
        seat = state.to_act
        assert seat is not None
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = self.bot_cls(self.game, seat, self.seed + seat)
        return bot.act(state.view(seat))


@cache
def _registered_bots() -> dict[str, type[Bot]]:
    # Imported here: the registry imports this module's bots.
    from harness.plugins import load_plugins

    return load_plugins().bots


def policy_option(default: str = "random") -> Option:
    """The ``rollout`` option: ``random``, ``game`` or the name of a registered bot."""
    return Option(
        "rollout",
        default,
        "rollout policy: 'random', 'game' (the game's own quick rule of thumb, "
        "Game.rollout_action), or the name of a registered bot (a family's "
        "heuristic bot, or an outside plugin's) that plays the rollouts",
    )


#: Most actions a rollout may take.
MAX_ROLLOUT = 100_000


def max_rollout_option() -> Option:
    """The ``max_rollout`` option: actions per rollout before it is cut off."""
    return Option(
        "max_rollout",
        2000,
        "actions per rollout before it is cut off",
        minimum=1,
        maximum=MAX_ROLLOUT,
    )


def prior_options() -> tuple[Option, ...]:
    """The ``prior``, ``prior_weight`` and ``prior_lead`` options of a tree search."""
    return (
        Option(
            "prior",
            "none",
            "prior policy: 'none', or the name of a registered bot whose choice at "
            "the root is explored first and favoured by a bias that fades with "
            "visits (progressive bias)",
        ),
        Option(
            "prior_weight",
            1.0,
            "the prior's bias at the root: weight / (1 + visits) added to its UCB",
            minimum=0.0,
            maximum=100.0,
        ),
        Option(
            "prior_lead",
            0.0,
            "the share of the search's iterations credited to the prior's choice "
            "when the decision is taken: another root action is played only when "
            "visited more often by that many iterations (0: the most visited)",
            minimum=0.0,
            maximum=1.0,
        ),
    )


def search_kinds_option() -> Option:
    """The ``search_kinds`` option: which decisions the search takes."""
    return Option(
        "search_kinds",
        "",
        "action kinds the search decides, as the game's forms "
        "(Game.action_kinds, 'troef games GAME'), separated by commas: a "
        "decision where any legal action is of another kind is the prior bot's; "
        "'' (the default): the search decides every decision",
    )


def search_kinds(
    value: str, game: Game, prior: str, owner: str
) -> re.Pattern[str] | None:
    """The pattern of the actions ``search_kinds = value`` leaves to the search
    (None: every action); raises :class:`OptionError` naming what is accepted."""
    if not value.strip():
        return None
    if prior == "none":
        raise OptionError(
            f"{owner}: option 'search_kinds' = {value!r} leaves decisions to the "
            "prior bot; set option 'prior' to a bot name too"
        )
    by_form = {kind.form: kind.pattern for kind in game.action_kinds}
    if not by_form:
        raise OptionError(
            f"{owner}: option 'search_kinds' needs a game that lists its "
            f"action kinds; {game.name!r} lists none (leave the option out)"
        )
    patterns = []
    for form in (f.strip() for f in value.split(",")):
        if form not in by_form:
            raise OptionError(
                f"{owner}: option 'search_kinds': {form!r} is not an action kind "
                f"of {game.name!r}; its kinds are {', '.join(map(repr, by_form))}"
            )
        patterns.append(f"(?:{by_form[form]})")
    return re.compile("|".join(patterns))


def searched(legal: Sequence[str], kinds: re.Pattern[str] | None) -> bool:
    """True when the search decides among ``legal`` (see :func:`search_kinds`)."""
    return kinds is None or all(kinds.fullmatch(action) for action in legal)


def prior_choice(prior: str, bot: Bot, rng: random.Random, view: View) -> str:
    """The move of ``bot``'s prior bot ``prior`` at a decision its search leaves
    to it (``search_kinds``), seeded from the searching bot's own stream."""
    action = prior_action(prior, bot.game, bot.seat, rng.getrandbits(32), view)
    assert action is not None, "search_kinds is refused without a prior"
    return action


def prior_action(name: str, game: Game, seat: int, seed: int, view: View) -> str | None:
    """What prior bot ``name`` plays in ``view`` (None for ``'none'``)."""
    if name == "none":
        return None
    return _registered_bots()[name](game, seat, seed).act(view)


def check_policy(name: str, game: Game, owner: str, option: str = "rollout") -> None:
    """Raise :class:`OptionError` unless ``name`` is a policy for ``game``."""
    if name == "random" or (option == "prior" and name == "none"):
        return
    if option == "rollout" and name == "game":
        _require_hook(
            game, "rollout_action", owner, "rollout", "'random' or a bot name"
        )
        return
    cls = _registered_bots().get(name)
    if cls is None:
        accepted = "'none'" if option == "prior" else "'random'"
        raise OptionError(
            f"{owner}: option {option!r} = {name!r} names no registered bot; "
            f"expected {accepted} or a bot name"
        )
    if cls.games is not None and game.name not in cls.games:
        raise OptionError(f"{owner}: {option} bot {name!r} does not play {game.name!r}")


def make_policy(name: str, game: Game, seed: int) -> Policy:
    """The rollout policy ``name`` for ``game`` (see :func:`check_policy`)."""
    if name == "random":
        return random_policy
    if name == "game":
        return game.rollout_action
    return BotPolicy(_registered_bots()[name], game, seed)


def rollout(
    state: State, deal: int, policy: Policy, rng: random.Random, cap: int
) -> None:
    """Play ``state`` on with ``policy`` to the end of deal ``deal`` (or the match)."""
    for _ in range(cap):
        if state.to_act is None or state.deal != deal or state.is_over():
            return
        state.apply(policy(state, rng))


def evaluation_option() -> Option:
    """The ``evaluation`` option: how a rollout cut off by ``max_rollout`` is valued."""
    return Option(
        "evaluation",
        "none",
        "how a rollout cut off by max_rollout before the deal ends is valued",
        choices=("none", "game"),
        choice_docs={
            "none": "as a draw (every margin 0)",
            "game": "by the game's estimate of the deal's points "
            "(Game.deal_estimate; docs/SEARCH.md)",
        },
    )


def check_evaluation(name: str, game: Game, owner: str) -> None:
    """Raise :class:`OptionError` when ``evaluation = "game"`` asks ``game``
    for an estimate it does not offer."""
    if name == "game":
        _require_hook(
            game, "deal_estimate", owner, "evaluation", "'none' for this game"
        )


def _require_hook(game: Game, hook: str, owner: str, option: str, instead: str) -> None:
    """Raise :class:`OptionError` when ``option = "game"`` needs the optional
    ``Game`` method ``hook`` and ``game`` does not override it."""
    if getattr(type(game), hook) is getattr(Game, hook):
        raise OptionError(
            f"{owner}: option {option!r} = 'game' needs Game.{hook}, which game "
            f"{game.name!r} (class {type(game).__name__}) does not override; "
            f"expected {instead}"
        )


def belief_option() -> Option:
    """The ``belief`` option: how the worlds behind a view are drawn."""
    return Option(
        "belief",
        "uniform",
        "how the hidden cards of each sampled world are placed",
        choices=("uniform", "game"),
        choice_docs={
            "uniform": "at random, wherever the view allows (Game.sampler)",
            "game": "by the game's model of how the other seats played "
            "(Game.belief_sampler; docs/SEARCH.md)",
        },
    )


def check_belief(name: str, game: Game, owner: str) -> None:
    """Raise :class:`OptionError` when ``belief = "game"`` asks ``game`` for a
    belief sampler it does not offer."""
    if name == "game":
        _require_hook(
            game, "belief_sampler", owner, "belief", "'uniform' for this game"
        )


def world_sampler(game: Game, view: View, belief: str) -> Sampler:
    """The sampler of the worlds behind ``view`` that option ``belief`` names."""
    return game.belief_sampler(view) if belief == "game" else game.sampler(view)


def cut_off(state: State, deal: int) -> bool:
    """True when ``state`` is still in deal ``deal`` with a seat to act: a
    rollout stopped there by its cap, not by the horizon."""
    return state.to_act is not None and state.deal == deal


def horizon_margins(
    game: Game, state: State, result: Result, deal: int, estimate: bool
) -> list[float]:
    """Each seat's margin of deal ``deal`` where a rollout stopped in
    ``state`` (whose ``result`` the caller has): the scored deal's, or, when it
    was cut off and ``estimate`` is on, the margins of
    :meth:`Game.deal_estimate`; a cut-off deal is worth 0 otherwise."""
    if estimate and cut_off(state, deal):
        return points_margins(
            game, game.deal_estimate(state), game.teams(state.n_seats)
        )
    return seat_margins(game, result, deal)


def scalar_value(
    game: Game,
    state: State,
    deal: int,
    seat: int,
    weight: float,
    estimate: bool = False,
) -> float:
    """``state``'s value to ``seat`` at the horizon: margin, plus the utility
    times ``weight`` when the match is over (a match outweighs any deal); with
    ``estimate``, a cut-off deal's margin is the game's estimate
    (:func:`horizon_margins`)."""
    if estimate and cut_off(state, deal):
        return horizon_margins(game, state, state.result(), deal, True)[seat]
    result = state.result()
    value = seat_margins(game, result, deal)[seat]
    if state.is_over() and result.utilities:
        value += weight * result.utilities[seat]
    return value
