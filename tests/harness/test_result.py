"""Result: ranks in the game's own order, utilities, and plain data old and new."""

from __future__ import annotations

import pytest

from harness.contracts.result import Forfeit, ForfeitReason, Result, rank_utilities


def test_default_utilities_of_two_teams_are_plus_and_minus_one() -> None:
    won = Result.from_scores((162, 0, 162, 0), (0, 1, 0, 1), ((162, 0, 162, 0),))
    assert won.ranks == (1, 2, 1, 2)
    assert won.utilities == (1.0, -1.0, 1.0, -1.0)
    tie = Result.from_scores((81, 81, 81, 81), (0, 1, 0, 1), ())
    assert tie.utilities == (0.0, 0.0, 0.0, 0.0)


def test_default_utilities_of_more_teams_are_zero_sum_over_teams() -> None:
    # (teams ranked below - teams ranked above) / (teams - 1)
    assert rank_utilities((1, 2, 3), (0, 1, 2)) == (1.0, 0.0, -1.0)
    assert rank_utilities((1, 1, 3, 4), (0, 1, 2, 3)) == (2 / 3, 2 / 3, -1 / 3, -1.0)
    # Unequal teams: the single seat against the pair; zero-sum over teams.
    assert rank_utilities((2, 1, 1), (0, 1, 1)) == (-1.0, 1.0, 1.0)
    # Three pairs, partners opposite: every partner shares its team's utility.
    assert rank_utilities((3, 1, 2, 3, 1, 2), (0, 1, 2, 0, 1, 2)) == (
        -1.0,
        1.0,
        0.0,
        -1.0,
        1.0,
        0.0,
    )


def test_ranks_follow_the_games_own_keys_not_the_scores() -> None:
    # Kleintje-style: scores shown are points lost, ranks follow lives left.
    result = Result.from_rank_keys(
        scores=(12, 30, 18), rank_keys=(2, 0, 2), teams=(0, 1, 2), deal_points=()
    )
    assert result.ranks == (1, 3, 1) and result.utilities == (0.5, -1.0, 0.5)
    low = Result.from_scores((3, 9, 5), (0, 1, 2), ((3, 9, 5),), higher_is_better=False)
    assert low.ranks == (1, 3, 2) and low.utilities == (1.0, -1.0, 0.0)


def test_a_game_may_give_its_own_utilities() -> None:
    chips = Result.from_scores((40, 10, 10), (0, 1, 2), (), utilities=(30, -15, -15))
    assert chips.utilities == (30.0, -15.0, -15.0)
    assert Result.from_dict(chips.to_dict()) == chips
    with pytest.raises(ValueError, match="do not give one value per seat"):
        Result.from_scores((1, 0), (0, 1), (), utilities=(1.0,))
    with pytest.raises(ValueError, match="one score, rank and team per seat"):
        Result(scores=(1, 0), ranks=(1,), teams=(0, 1), deal_points=())


def test_plain_data_carries_utilities_and_old_data_still_loads() -> None:
    result = Result.from_scores(
        (5, 2), (0, 1), ((3, 1), (2, 1)), higher_is_better=False
    )
    data = result.to_dict()
    assert data["utilities"] == [-1.0, 1.0]
    assert Result.from_dict(data) == result
    # Stored before utilities existed: no key; derived from the ranks.
    del data["utilities"]
    old = Result.from_dict(data)
    assert old.utilities == (-1.0, 1.0) and old == result
    forfeited = Result(
        scores=(5, 2),
        ranks=(1, 2),
        teams=(0, 1),
        deal_points=(),
        forfeit=Forfeit(1, ForfeitReason.TIMEOUT, "slow"),
    )
    assert Result.from_dict(forfeited.to_dict()) == forfeited
