"""The referee: a match from seeds, replay, and forfeits for every kind of bad bot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bots.random_bot import RandomBot
from harness import Bot, Forfeit, ForfeitReason, Game, View
from harness.contracts.errors import TroefError
from harness.match.referee import make_bots, play_match, replay


class Raises(Bot):
    name = "raises"

    def act(self, view: View) -> str:
        raise RuntimeError("my bug")


class ReturnsInt(Bot):
    name = "returns-int"

    def act(self, view: View) -> Any:
        return 7


class Illegal(Bot):
    name = "illegal"

    def act(self, view: View) -> str:
        return "XX"


class LateFault(Bot):
    """Plays legally for a while, then raises: the partial score must stand."""

    name = "late-fault"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves = 0

    def act(self, view: View) -> str:
        self.moves += 1
        if self.moves > 4:
            raise ValueError("tired")
        return view.legal_actions[0]


def test_same_seed_same_result_and_log(toy: Game) -> None:
    a = play_match(toy, make_bots(toy, [RandomBot] * 3, 11), 11, keep_log=True)
    b = play_match(toy, make_bots(toy, [RandomBot] * 3, 11), 11, keep_log=True)
    assert a == b and a.log
    assert play_match(toy, make_bots(toy, [RandomBot] * 3, 11), 11).log is None


def test_a_log_replays_to_the_same_result(toy: Game) -> None:
    result = play_match(toy, make_bots(toy, [RandomBot] * 2, 5), 5, keep_log=True)
    assert result.log is not None
    assert replay(toy, 2, 5, result.log) == result


def test_replay_refuses_a_log_that_does_not_fit(toy: Game) -> None:
    result = play_match(toy, make_bots(toy, [RandomBot] * 2, 5), 5, keep_log=True)
    assert result.log is not None
    with pytest.raises(TroefError, match="ends before the match does"):
        replay(toy, 2, 5, result.log[:-1])
    with pytest.raises(TroefError, match="comes after the end"):
        replay(toy, 2, 5, (*result.log, "9C"))


@pytest.mark.parametrize(
    ("bad", "reason", "detail"),
    [
        (Raises, ForfeitReason.EXCEPTION, "RuntimeError: my bug"),
        (ReturnsInt, ForfeitReason.NOT_A_STRING, "act() returned 7, not a string"),
        (Illegal, ForfeitReason.ILLEGAL_ACTION, "act() returned 'XX', not one of"),
    ],
)
def test_a_bad_bot_forfeits_and_its_seat_loses(
    toy: Game, bad: type[Bot], reason: ForfeitReason, detail: str
) -> None:
    bots = make_bots(toy, [RandomBot, bad, RandomBot], 3)
    result = play_match(toy, bots, 3, keep_log=True)
    assert result.forfeit is not None
    assert result.forfeit.seat == 1
    assert result.forfeit.reason is reason
    assert detail in result.forfeit.detail
    assert result.ranks[1] == 3
    assert result.ranks[0] < 3 and result.ranks[2] < 3


def test_a_forfeit_keeps_the_score_so_far_and_replays(toy: Game) -> None:
    bots = make_bots(toy, [RandomBot, LateFault], 2)
    result = play_match(toy, bots, 2, keep_log=True)
    assert result.forfeit is not None and result.forfeit.seat == 1
    assert result.log is not None
    assert sum(result.scores) == len(result.log) // 2  # one point per complete trick
    assert result.ranks == (1, 2)
    again = replay(toy, 2, 2, result.log, forfeit=result.forfeit)
    assert again == result


def test_a_forfeiting_seat_ranks_last_even_when_ahead(toy: Game) -> None:
    from harness.match.referee import forfeit_result

    state = toy.new_match(3, 1)
    # The toy's State class is loaded from its plugin file: no isinstance here.
    state.points = [1, 3, 0]  # type: ignore[attr-defined]
    result = forfeit_result(state, Forfeit(1, ForfeitReason.TIMEOUT, "slow"), None)
    assert result.scores == (1, 3, 0)  # the score so far stands ...
    assert result.ranks == (1, 3, 2)  # ... but the forfeiting seat ranks last


def test_result_round_trips_as_plain_data(toy: Game) -> None:
    result = play_match(toy, make_bots(toy, [Raises, RandomBot], 1), 1, keep_log=True)
    from harness.contracts.result import Result

    assert Result.from_dict(result.to_dict()) == result
    assert isinstance(result.forfeit, Forfeit)


@pytest.mark.slow
def test_a_match_that_never_ends_is_stopped_at_the_games_cap_as_a_recorded_draw() -> (
    None
):
    """Gin RULES.md ruling 18 (issue 13, item 4): two gin bots that never go
    out void every hand at the stock floor; the referee ends the match at
    ``GinRummy.max_actions`` as a draw that says why, in a real ``troef play``."""
    passive = Path(__file__).parents[1] / "plugins" / "passive_bots.py"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "--plugin",
            str(passive),
            "play",
            "gin-rummy",
            "--bots",
            "passive,passive",
            "-o",
            "target=10",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (
        "match ended by the referee: no end after 1000000 actions "
        "(gin-rummy's max_actions): stopped by the referee and counted as a draw"
    ) in done.stdout
    rows = [line.split() for line in done.stdout.splitlines()[2:4]]
    assert [row[3:5] for row in rows] == [["0", "1"], ["0", "1"]]  # score 0, rank 1


def test_a_capped_result_keeps_its_reason_through_storage() -> None:
    from harness.contracts.result import Result

    capped = Result((0, 0), (1, 1), (0, 1), (), ended="no end after 5 actions")
    assert Result.from_dict(capped.to_dict()) == capped
    assert "ended" not in Result((1, 0), (1, 2), (0, 1), ()).to_dict()
