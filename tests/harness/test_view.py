from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from harness import View
from harness.contracts.view import new_view, pin_fields


@dataclass(frozen=True)
class TrickView(View):
    hand: tuple[str, ...]
    trick: tuple[tuple[int, str], ...]
    trump: str | None
    scores: tuple[int, ...]


def example() -> TrickView:
    return TrickView(
        seat=2,
        legal_actions=("JC", "9C"),
        hand=("JC", "9C", "AH"),
        trick=((0, "7C"), (1, "TC")),
        trump=None,
        scores=(120, 40),
    )


def test_a_view_round_trips_through_json_unchanged() -> None:
    view = example()
    text = view.to_json()
    assert '"trick":[[0,"7C"],[1,"TC"]]' in text
    assert TrickView.from_json(text) == view


def test_a_view_is_frozen_and_hashable() -> None:
    view = example()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 1  # type: ignore[misc]
    assert hash(view) == hash(example())


def test_a_fast_view_built_from_new_view_equals_the_dataclass_one() -> None:
    view = new_view(TrickView)
    view.__dict__.update(
        seat=0,
        legal_actions=(),
        hand=("JC",),
        trick=((1, "7H"),),
        trump="H",
        scores=(0, 0),
    )
    assert view == TrickView(0, (), ("JC",), ((1, "7H"),), "H", (0, 0))


def test_pin_fields_fails_when_the_fields_are_not_the_pinned_ones() -> None:
    pin_fields(TrickView, "seat legal_actions hand trick trump scores")
    with pytest.raises(RuntimeError, match="TrickView's fields changed"):
        pin_fields(TrickView, "seat legal_actions hand trump trick scores")
