"""The conformance suite passes a sound game and catches broken ones."""

from __future__ import annotations

import random

import pytest

from harness.conformance import check_game
from harness.errors import ConformanceError
from tests.plugins.toy_game import ToyGame, ToyState


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

    def sample_state(self, view, rng):  # type: ignore[no-untyped-def]
        return self.new_match(len(view.points), rng.randrange(1 << 30))


def test_a_sampler_that_ignores_the_view_fails() -> None:
    report = check_game(SamplerIgnoresView(), matches=2, seed=1, raise_on_failure=False)
    assert not report.passed
    assert any(
        "sample_state(view(" in f and "differs from the view" in f
        for f in report.failures
    )


class LosesACard(ToyGame):
    def new_match(self, n_seats, seed):  # type: ignore[no-untyped-def]
        state = super().new_match(n_seats, seed)
        state.stock.pop()
        return state


def test_a_lost_card_fails_conservation() -> None:
    report = check_game(LosesACard(), matches=1, seed=1, raise_on_failure=False)
    assert any(
        "cards not conserved at the start: missing" in f for f in report.failures
    )


class SharedClone(ToyGame):
    def new_match(self, n_seats, seed):  # type: ignore[no-untyped-def]
        state = super().new_match(n_seats, seed)
        state.clone = lambda: state  # type: ignore[method-assign]
        return state


def test_a_clone_that_shares_state_fails() -> None:
    report = check_game(SharedClone(), matches=2, seed=1, raise_on_failure=False)
    assert any("playing on a clone changed the original" in f for f in report.failures)


class DealsFromPlay(ToyGame):
    """Shuffles later deals from what was played: duplicate deals break."""

    def new_match(self, n_seats, seed):  # type: ignore[no-untyped-def]
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
        extra: list = None  # type: ignore[assignment]

    class Mutable(ToyGame):
        def new_match(self, n_seats, seed):  # type: ignore[no-untyped-def]
            state = super().new_match(n_seats, seed)
            plain = state.view
            state.view = lambda seat: ListView(**plain(seat).__dict__, extra=[])  # type: ignore[method-assign]
            return state

    report = check_game(Mutable(), matches=1, seed=1, raise_on_failure=False)
    assert any("holds mutable data" in f for f in report.failures)


def test_toy_state_is_a_state() -> None:
    assert issubclass(ToyState, __import__("harness").State)
