from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from harness import View


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
