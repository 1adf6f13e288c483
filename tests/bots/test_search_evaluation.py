"""The search bots' evaluation plug point (issue 35): a rollout cut off by
``max_rollout`` is valued by ``Game.deal_estimate`` under ``evaluation =
"game"``, as a draw by default; and the prior's lead at the root."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Self

import pytest

from bots.ismcts import ISMCTSBot
from bots.pimc import PIMCBot
from harness import Game, OptionError, Result, State, View
from harness.plugins import load_plugins
from tests.plugins.fusion_game import FusionGame

#: Forced steps after the first choice: longer than the rollouts cut below.
STEPS = 30


@dataclass(frozen=True)
class WalkView(View):
    """The actions so far (nothing is hidden)."""

    history: tuple[str, ...]


class WalkState(State):
    """Seat 0 picks ``early`` or ``late``, then the seats take turns at ``STEPS``
    forced steps; the deal then scores ``early`` 0 : 10 and ``late`` 10 : 0."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.n_seats = 2
        self.deal = 0
        self.history: list[str] = []
        self.to_act: int | None = 0

    def legal_actions(self) -> tuple[str, ...]:
        if self.to_act is None:
            return ()
        return ("early", "late") if not self.history else ("step",)

    def apply(self, action: str) -> None:
        assert action in self.legal_actions()
        self.history.append(action)
        if len(self.history) > STEPS:
            self.to_act = None
        else:
            self.to_act = len(self.history) % 2

    def is_over(self) -> bool:
        return self.to_act is None

    def result(self) -> Result:
        if not self.is_over():
            return Result.from_scores((0, 0), (0, 1), [])
        points = (0, 10) if self.history[0] == "early" else (10, 0)
        return Result.from_scores(points, (0, 1), [points])

    def view(self, seat: int) -> WalkView:
        legal = self.legal_actions() if seat == self.to_act else ()
        return WalkView(seat, legal, tuple(self.history))

    def clone(self) -> Self:
        twin = type(self)(self.game)
        twin.history = self.history[:]
        twin.to_act = self.to_act
        return twin

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        return {}

    def hidden_from(self, seat: int) -> frozenset[str]:
        return frozenset()

    def deck(self) -> tuple[str, ...]:
        return ()


class WalkGame(Game):
    """The walk, whose estimate is wrong on purpose: it says ``early`` wins
    4 : 1, so a search that trusts it where it cuts off plays ``early``."""

    name = "walk"
    title = "Walk toy"
    seat_counts: ClassVar[frozenset[int]] = frozenset({2})
    #: The states the estimate was asked about.
    asked: ClassVar[list[tuple[str, ...]]] = []

    def new_match(self, n_seats: int, seed: int) -> WalkState:
        return WalkState(self)

    def sample_state(self, view: View, rng: random.Random) -> WalkState:
        assert isinstance(view, WalkView)
        state = WalkState(self)
        for action in view.history:
            state.apply(action)
        return state

    def deal_estimate(self, state: State) -> tuple[float, ...]:
        assert isinstance(state, WalkState) and not state.is_over()
        self.asked.append(tuple(state.history))
        return (4.0, 1.0) if state.history[0] == "early" else (1.0, 4.0)


def _first_view() -> WalkView:
    return WalkState(WalkGame()).view(0)


@pytest.mark.parametrize(
    "make",
    [
        lambda o: ISMCTSBot(WalkGame(), 0, 1, {"iterations": 40, **o}),
        lambda o: PIMCBot(WalkGame(), 0, 1, {"worlds": 2, "rollouts": 1, **o}),
    ],
    ids=["ismcts", "pimc"],
)
def test_a_cut_off_rollout_is_valued_by_the_games_estimate(make: object) -> None:
    """Rollouts cut after 5 actions: by the game's estimate the bot plays
    ``early``; to the end of the deal (the default cap) it plays ``late``,
    never asking the estimate; and the estimate is asked only at a cut-off."""
    assert callable(make)
    view = _first_view()
    WalkGame.asked.clear()
    assert make({"max_rollout": 5, "evaluation": "game"}).act(view) == "early"
    assert WalkGame.asked and all(len(h) < STEPS + 1 for h in WalkGame.asked)
    WalkGame.asked.clear()
    assert make({"evaluation": "game"}).act(view) == "late"
    assert make({}).act(view) == "late"
    assert WalkGame.asked == []


def test_without_evaluation_a_cut_off_rollout_is_a_draw() -> None:
    """The default: every cut-off rollout is worth 0 to each seat, so the
    root's rewards are all 0 and the estimate is never asked."""
    WalkGame.asked.clear()
    bot = ISMCTSBot(WalkGame(), 0, 1, {"iterations": 40, "max_rollout": 5})
    bot.act(_first_view())
    assert bot.last_root is not None
    assert {c.reward for c in bot.last_root.children.values()} == {0.0}
    assert WalkGame.asked == []


def test_evaluation_none_searches_exactly_as_before() -> None:
    """``evaluation = "none"`` is the default: the same tree, visit for visit, in
    a Bezique deal whose rollouts are cut off (the random stream unchanged)."""
    game = load_plugins().game("bezique")
    state = game.new_match(2, 3)
    view = state.view(state.to_act)  # type: ignore[arg-type]
    trees = []
    for options in ({}, {"evaluation": "none"}, {"evaluation": "game"}):
        budget = {"iterations": 60, "max_rollout": 9, **options}
        bot = ISMCTSBot(game, view.seat, 5, budget)
        bot.act(view)
        assert bot.last_root is not None
        children = bot.last_root.children.items()
        trees.append({a: (c.visits, c.reward) for a, c in children})
    assert trees[0] == trees[1]
    assert trees[2] != trees[0]  # the cut-offs are valued: the same search differs


def test_evaluation_game_is_refused_for_a_game_without_an_estimate() -> None:
    for cls in (ISMCTSBot, PIMCBot):
        with pytest.raises(
            OptionError,
            match=r"option 'evaluation' = 'game' needs Game.deal_estimate, which game "
            r"'fusion' \(class FusionGame\) does not override; expected 'none'",
        ):
            cls(FusionGame(), 0, 1, {"evaluation": "game"})
    with pytest.raises(NotImplementedError, match="offers no deal estimate"):
        FusionGame().deal_estimate(FusionGame().new_match(2, 1))


def test_the_prior_lead_keeps_the_priors_choice_against_the_search() -> None:
    """The random bot as prior: where it picks ``early`` (the losing move the
    search alone rejects), a lead of the whole search's iterations plays it,
    a lead of 0 (the default) the search's ``late``."""
    game = WalkGame()
    view = _first_view()
    checked = 0
    for seed in range(8):
        prior = {"iterations": 40, "prior": "random"}
        bot = ISMCTSBot(game, 0, seed, {**prior, "prior_lead": 1.0})
        played = bot.act(view)
        assert bot.last_root is not None
        favoured = next(iter(bot.last_root.children))  # expanded first
        assert played == favoured
        if favoured == "early":
            assert ISMCTSBot(game, 0, seed, prior).act(view) == "late"
            checked += 1
    assert checked >= 1


def test_the_prior_margin_keeps_the_priors_choice_unless_beaten_by_more() -> None:
    """PIMC with the random bot as prior, rollouts cut after 5 actions and
    valued by the walk's estimate: ``early`` is worth +3 to seat 0 and
    ``late`` -3, a gap of 6 deal points. A margin of 10 plays the prior's
    choice (``late`` for some seeds), a margin of 5 or none plays ``early``:
    the search draws the same numbers under any margin, so the prior's choice
    per seed is the same in all three."""
    view = _first_view()
    cut = {"worlds": 2, "rollouts": 1, "max_rollout": 5, "evaluation": "game"}
    kept = []
    for seed in range(8):
        prior = {**cut, "prior": "random"}
        played = PIMCBot(WalkGame(), 0, seed, {**prior, "prior_margin": 10.0}).act(view)
        kept.append(played)
        assert PIMCBot(WalkGame(), 0, seed, {**prior, "prior_margin": 5.0}).act(
            view
        ) == ("early")
        assert PIMCBot(WalkGame(), 0, seed, cut).act(view) == "early"
    assert set(kept) == {"early", "late"}


def test_a_pimc_prior_needs_the_mean_of_the_worlds() -> None:
    with pytest.raises(
        OptionError,
        match=r"bot 'pimc': option 'prior' needs combine = 'mean' \(a margin in "
        r"deal points\), not 'vote'",
    ):
        PIMCBot(WalkGame(), 0, 1, {"prior": "random", "combine": "vote"})
    with pytest.raises(OptionError, match="option 'prior' = 'nobody' names no"):
        PIMCBot(WalkGame(), 0, 1, {"prior": "nobody"})
