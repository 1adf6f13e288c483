"""The conformance suite passes a sound game and catches broken ones."""

from __future__ import annotations

import dataclasses
import random

import pytest

from harness import Sampler, State, View
from harness.contracts.encoding import Encoding
from harness.contracts.errors import ConformanceError, OptionError
from harness.match.conformance import PROBES_A_MATCH, check_game, probe_points
from tests.plugins.toy_game import ToyGame, ToyState, ToyView


def test_the_toy_game_passes() -> None:
    report = check_game(ToyGame(), matches=4, seed=2)
    assert report.passed and report.matches == 8 and report.samples > 100


def test_a_view_that_leaks_a_hand_fails() -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(ToyGame(leaky=True), matches=4, seed=2)
    assert "place 'hand:1' is hidden from seat 0, yet its cards never varied" in str(
        info.value
    )


class SamplerIgnoresView(ToyGame):
    """sample_state deals a fresh match: it does not respect what the view knows."""

    def sample_state(self, view: View, rng: random.Random) -> ToyState:
        assert isinstance(view, ToyView)
        return self.new_match(len(view.points), rng.randrange(1 << 30))


def test_a_sampler_that_ignores_the_view_fails() -> None:
    report = check_game(SamplerIgnoresView(), matches=2, seed=1, raise_on_failure=False)
    assert not report.passed
    assert any(
        "sample_state(view(" in f and "differs from the view" in f
        for f in report.failures
    )


class RollsOutNonsense(ToyGame):
    """A rollout policy that answers an action the game never offers."""

    def rollout_action(self, state: State, rng: random.Random) -> str:
        return "nonsense"


def test_a_rollout_policy_that_answers_an_illegal_action_fails() -> None:
    report = check_game(RollsOutNonsense(), matches=1, seed=1, raise_on_failure=False)
    assert any(
        "Game.rollout_action answered 'nonsense', not one of the legal actions" in f
        for f in report.failures
    )


class BeliefIgnoresView(ToyGame):
    """A belief sampler that deals fresh matches: its worlds ignore the view."""

    def belief_sampler(self, view: View) -> Sampler:
        return _FreshDeals(self, view)


class _FreshDeals(Sampler):
    def __init__(self, game: ToyGame, view: View) -> None:
        assert isinstance(view, ToyView)
        self.game, self.seats = game, len(view.points)

    def sample(self, rng: random.Random) -> ToyState:
        return self.game.new_match(self.seats, rng.randrange(1 << 30))


def test_a_belief_sampler_that_ignores_the_view_fails() -> None:
    """Its worlds are checked as the sampler's are, though the sampler is sound."""
    assert check_game(ToyGame(), matches=2, seed=1).passed
    report = check_game(BeliefIgnoresView(), matches=2, seed=1, raise_on_failure=False)
    assert any(
        "belief_sampler(view(" in f and "differs from the view" in f
        for f in report.failures
    )


class LosesACard(ToyGame):
    def new_match(self, n_seats: int, seed: int) -> ToyState:
        state = super().new_match(n_seats, seed)
        state.stock.pop()
        return state


def test_a_lost_card_fails_conservation() -> None:
    report = check_game(LosesACard(), matches=1, seed=1, raise_on_failure=False)
    assert any(
        "cards not conserved at the start: missing" in f for f in report.failures
    )


class SharedClone(ToyGame):
    def new_match(self, n_seats: int, seed: int) -> ToyState:
        state = super().new_match(n_seats, seed)
        state.clone = lambda: state  # type: ignore[method-assign]
        return state


def test_a_clone_that_shares_state_fails() -> None:
    report = check_game(SharedClone(), matches=2, seed=1, raise_on_failure=False)
    assert any("playing on a clone changed the original" in f for f in report.failures)


class DealsFromPlay(ToyGame):
    """Shuffles later deals from what was played: duplicate deals break."""

    def new_match(self, n_seats: int, seed: int) -> ToyState:
        state = super().new_match(n_seats, seed)
        original = state._next_deal

        def next_deal() -> None:
            history = str(state.played)
            original()
            order = [c for h in state.hands for c in h] + state.stock
            random.Random(history).shuffle(order)
            state.hands = [sorted(order[i * 3 : (i + 1) * 3]) for i in range(n_seats)]
            state.stock = order[n_seats * 3 :]

        state._next_deal = next_deal  # type: ignore[method-assign]
        return state


def test_deals_that_depend_on_play_fail_the_duplicate_check() -> None:
    report = check_game(DealsFromPlay(), matches=2, seed=1, raise_on_failure=False)
    assert any("duplicate deals break" in f for f in report.failures)


def test_a_mutable_view_fails() -> None:
    from dataclasses import dataclass

    from tests.plugins.toy_game import ToyView

    @dataclass(frozen=True)
    class ListView(ToyView):
        extra: list[object] | None = None

    class Mutable(ToyGame):
        def new_match(self, n_seats: int, seed: int) -> ToyState:
            state = super().new_match(n_seats, seed)
            plain = state.view
            state.view = lambda seat: ListView(**plain(seat).__dict__, extra=[])  # type: ignore[method-assign]
            return state

    report = check_game(Mutable(), matches=1, seed=1, raise_on_failure=False)
    assert any("holds mutable data" in f for f in report.failures)


def test_a_view_of_another_class_than_the_game_names_fails() -> None:
    """A process bot decodes views with ``view_type()``: a view of a subclass
    the game does not name would reach it as the wrong class, or not at all."""
    from dataclasses import dataclass

    from tests.plugins.toy_game import ToyView

    @dataclass(frozen=True)
    class MoreView(ToyView):
        extra: int = 0

    class Unnamed(ToyGame):
        def new_match(self, n_seats: int, seed: int) -> ToyState:
            state = super().new_match(n_seats, seed)
            plain = state.view
            state.view = lambda seat: MoreView(**plain(seat).__dict__)  # type: ignore[method-assign]
            return state

    report = check_game(Unnamed(), matches=1, seed=1, raise_on_failure=False)
    assert any(
        "is a MoreView, but the game's view_type() is ToyView" in f
        for f in report.failures
    ), report.failures


def test_toy_state_is_a_state() -> None:
    assert issubclass(ToyState, __import__("harness").State)


# -- the short check: check options and a budget of actions per match ---------


class LongToy(ToyGame):
    """A sound toy whose matches last 2 to 5 deals (12 to 30 actions for two)."""

    def deals(self, seed: int) -> int:
        return 2 + seed % 4


#: Cuts the 3- to 5-deal matches of LongToy for two seats, not the 2-deal ones.
BUDGET = 20


def test_a_budget_cuts_long_matches_and_counts_them() -> None:
    report = check_game(LongToy(), matches=8, seed=3, seat_counts=[2], budget=BUDGET)
    assert report.passed, report.summary()
    assert report.matches == 8 and 0 < report.cut < 8
    assert report.budget == BUDGET and not report.full
    assert f"{report.cut} cut at the budget" in report.summary()
    assert min(report.deals) >= 2 and max(report.deals) <= 5
    # Cut matches have no result: only the finished ones were replayed.
    whole = check_game(LongToy(), matches=8, seed=3, seat_counts=[2], full=True)
    assert whole.passed and whole.cut == 0 and whole.budget is None
    assert whole.actions > report.actions


def test_every_match_cut_is_a_failure() -> None:
    """The module's ruling: a seat count with no whole match fails the check."""
    report = check_game(ToyGame(), matches=3, seed=1, budget=15, raise_on_failure=False)
    # Two seats play 12 actions and finish; three seats play 18 and are all cut.
    assert report.cut == 3
    assert report.failures == [
        "[3 seats] every match (3) reached the budget of 15 actions and was cut, so "
        "results, replay and repeatability went unchecked: give the game shorter "
        "check_options, a larger budget (--budget), or run the full check (--full)"
    ]


class Endless(ToyGame):
    def deals(self, seed: int) -> int:
        return 10**9


def test_an_endless_game_fails_the_short_check_too() -> None:
    report = check_game(Endless(), matches=2, seed=1, budget=50, raise_on_failure=False)
    assert report.cut == 4 and len(report.failures) == 2
    assert all("every match (2) reached the budget" in f for f in report.failures)


class LongSamplerIgnoresView(SamplerIgnoresView, LongToy):
    pass


class LongSharedClone(SharedClone, LongToy):
    pass


class LongDealsFromPlay(DealsFromPlay, LongToy):
    pass


class LongLosesACard(LosesACard, LongToy):
    pass


@pytest.mark.parametrize(
    ("game", "failure", "ends_matches"),
    [
        (
            LongToy(leaky=True),
            "place 'hand:1' is hidden from seat 0, yet its cards never varied",
            False,
        ),
        (LongDealsFromPlay(), "duplicate deals break", False),
        # These stop the match they are found in: no match lasts to the budget.
        (LongSamplerIgnoresView(), "differs from the view", True),
        (LongSharedClone(), "playing on a clone changed the original", True),
        (LongLosesACard(), "cards not conserved at the start: missing", True),
    ],
    ids=lambda x: type(x).__name__ if isinstance(x, ToyGame) else "",
)
def test_broken_games_fail_under_a_budget_that_cuts_matches(
    game: ToyGame, failure: str, ends_matches: bool
) -> None:
    report = check_game(
        game, matches=8, seed=3, seat_counts=[2], budget=BUDGET, raise_on_failure=False
    )
    assert any(failure in f for f in report.failures), report.summary()
    if ends_matches:
        assert report.matches == 0
    else:
        assert report.cut > 0


class LeakyWhenChecked(ToyGame):
    """Check options that break the game: they must reach the checked game."""

    check_options = {"leaky": True}  # noqa: RUF012


def test_the_short_check_plays_the_check_options_under_given_options() -> None:
    short = check_game(LeakyWhenChecked, matches=4, seed=2, raise_on_failure=False)
    assert not short.passed and short.options == {"leaky": True}
    assert "short check (options leaky=True" in short.summary()
    given = check_game(LeakyWhenChecked, options={"leaky": False}, matches=4, seed=2)
    assert given.passed and given.options == {"leaky": False}
    full = check_game(LeakyWhenChecked, full=True, matches=4, seed=2)
    assert full.passed and full.full and full.options == {"leaky": False}
    assert "full check (options leaky=False; no budget)" in full.summary()
    assert LeakyWhenChecked.for_checks() == LeakyWhenChecked(leaky=True)


class BadCheckOptions(ToyGame):
    check_options = {"leek": True}  # noqa: RUF012


def test_check_options_are_validated_by_the_option_specs() -> None:
    with pytest.raises(OptionError, match="unknown option 'leek'"):
        check_game(BadCheckOptions)
    with pytest.raises(OptionError, match="option 'leaky' = 3"):
        check_game(ToyGame, options={"leaky": 3})


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(TypeError, match="options only with a Game class"):
        check_game(ToyGame(), options={"leaky": True})
    with pytest.raises(OptionError, match="no budget"):
        check_game(ToyGame, full=True, budget=100)
    with pytest.raises(OptionError, match="positive number of actions"):
        check_game(ToyGame, budget=0)


class CountsValidations(ToyGame):
    """The toy, counting the sampled worlds whose ``validate()`` the suite calls."""

    calls = 0

    def sample_state(self, view: View, rng: random.Random) -> ToyState:
        state = super().sample_state(view, rng)
        original = state.validate

        def counted() -> None:
            CountsValidations.calls += 1
            original()

        state.validate = counted  # type: ignore[method-assign]
        return state


def test_every_sampled_world_is_validated_and_twins_are_compared() -> None:
    CountsValidations.calls = 0
    report = check_game(CountsValidations(), matches=2, seed=3)
    assert report.passed and report.samples > 0
    assert CountsValidations.calls == report.samples
    assert 0 < report.twins <= report.samples
    assert f"{report.samples} sampled worlds, {report.twins} twin pairs" in (
        report.summary()
    )


class TenDeals(ToyGame):
    def deals(self, seed: int) -> int:
        return 10


def test_the_short_check_probes_a_bounded_number_of_points_a_match() -> None:
    # Two seats play 6 actions a deal: 60 a match, each one probed at rate 1.
    short = check_game(TenDeals(), matches=2, seat_counts=[2], probe_rate=1.0)
    assert short.passed and short.probes == 2 * PROBES_A_MATCH * 2
    full = check_game(TenDeals, full=True, matches=2, seat_counts=[2], probe_rate=1.0)
    assert full.passed and full.probes == 2 * 60 * 2


class FiveSeatTenDeals(TenDeals):
    # 24 cards: five hands of 3 and a stock of 9.
    seat_counts = frozenset({5})


def test_a_game_for_many_seats_probes_fewer_points_a_match() -> None:
    # Each probed point costs a view, a sampler and worlds for every seat.
    assert [probe_points(n) for n in (2, 4, 5, 8, 10)] == [25, 25, 20, 12, 10]
    short = check_game(FiveSeatTenDeals(), matches=1, probe_rate=1.0)
    assert short.passed and short.probes == probe_points(5) * 5


# -- the encoding for learning bots (Game.encoding) ----------------------------


class _ShiftedCards:
    """An action range whose ``unrank`` is off by one: ids name other cards."""

    name = "shifted cards"

    def __init__(self, cards: tuple[str, ...]) -> None:
        self.cards = cards
        self.size = len(cards)

    def rank(self, action: str) -> int | None:
        return self.cards.index(action) if action in self.cards else None

    def unrank(self, index: int) -> str:
        return self.cards[(index + 1) % self.size]


def _toy_encoding(
    game: ToyGame, *, shifted: bool = False, nan: bool = False, short: bool = False
) -> Encoding:
    """A one-hot of the hand over the toy's cards, and an id for each card;
    ``short`` encodes one entry fewer than its segment promises."""
    import numpy as np

    from harness.contracts.encoding import ActionSpace, Observation, Segment
    from tests.plugins.toy_game import CARDS

    class ToyEncoding(Encoding):
        def encode(self, view: View) -> Observation:
            assert isinstance(view, ToyView)
            obs = np.zeros(len(CARDS), dtype=np.float32)
            for card in view.hand:
                obs[CARDS.index(card)] = np.nan if nan else 1.0
            return obs[1:] if short else obs

    if shifted:
        space = ActionSpace((), [_ShiftedCards(CARDS)], owner="the toy")
    else:
        space = ActionSpace(CARDS, owner="the toy")
    hand = Segment("hand", 0, len(CARDS), "cards held")
    return ToyEncoding(game.name, 1, space, [hand])


class Encoded(ToyGame):
    """The toy with an encoding; ``broken`` names what is wrong with it."""

    broken = ""

    def encoding(self, n_seats: int) -> Encoding:
        return _toy_encoding(
            self,
            shifted=self.broken == "mask",
            nan=self.broken == "nan",
            short=self.broken == "shape",
        )


def test_a_sound_encoding_is_checked_at_every_probed_view() -> None:
    report = check_game(Encoded(), matches=2, seed=2)
    # Every seat's view at every probed point; the toy has no encoding: none.
    assert report.encoded == report.probes > 0
    assert f", {report.encoded} encoded views: all checks passed" in report.summary()
    assert check_game(ToyGame(), matches=2, seed=2).encoded == 0


@pytest.mark.parametrize(
    ("broken", "found"),
    [
        ("mask", "the mask of view(0) marks"),
        ("nan", "holds a value that is not finite"),
        ("shape", "is float32 of shape (23,); the encoding promises float32 of"),
    ],
)
def test_a_broken_encoding_fails_the_check(broken: str, found: str) -> None:
    game = Encoded()
    game.broken = broken
    report = check_game(game, matches=2, seed=2, raise_on_failure=False)
    assert any(found in f for f in report.failures), report.failures


def test_an_encoding_hook_that_raises_other_than_not_implemented_fails() -> None:
    class Raises(ToyGame):
        def encoding(self, n_seats: int) -> Encoding:
            raise KeyError("layout")

    report = check_game(Raises(), matches=1, seed=2, raise_on_failure=False)
    assert any(
        "Game.encoding(2) raised KeyError" in f and "NotImplementedError" in f
        for f in report.failures
    ), report.failures


class StaleView(ToyGame):
    """A view cache keyed by the seat and deal alone: the points it shows stay
    those of the first view taken in the deal (the Bezique family once had a
    cache like it, stale across deals). Its samplers copy the stale points, so
    only a view of the same match taken without views before can tell."""

    def new_match(self, n_seats: int, seed: int) -> ToyState:
        state = super().new_match(n_seats, seed)
        plain = state.view
        cache: dict[tuple[int, int], tuple[int, ...]] = {}

        def view(seat: int) -> ToyView:
            fresh = plain(seat)
            points = cache.setdefault((seat, fresh.deal), fresh.points)
            return dataclasses.replace(fresh, points=points)

        state.view = view  # type: ignore[method-assign]
        return state


def test_a_view_that_depends_on_the_views_taken_before_fails() -> None:
    report = check_game(StaleView(), matches=2, seed=2, raise_on_failure=False)
    assert any(
        "depends on the views taken before it" in f
        and "without views != as viewed: field 'points'" in f
        for f in report.failures
    ), report.failures
