"""The search bots answer in time under the referee's clocks (issue 18, item 6),
in their own process (they hear the limit in the ``act`` request) and in the
worker's, under a clock per move and a budget per match."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bots.ismcts import MAX_ITERATIONS, ISMCTSBot
from bots.pimc import MAX_WORLDS, PIMCBot
from bots.random_bot import RandomBot
from harness.isolation.bothost import host_command
from harness.isolation.botpool import ProcessPool
from harness.isolation.botprocess import ProcessBot
from harness.match.referee import TimeControl, play_match
from harness.plugins import PluginSource, load_plugins

#: The installed plugins (troef's own bots among them), as a bot host loads them.
SOURCE = PluginSource(entry_points=True, modules=(), files=(), blocked=())
MOVE = 0.3


@pytest.fixture
def pool() -> Iterator[ProcessPool]:
    pool = ProcessPool()
    yield pool
    pool.close()


@pytest.mark.parametrize(
    ("bot", "options"),
    [
        ("ismcts", {"iterations": MAX_ITERATIONS}),
        ("pimc", {"worlds": MAX_WORLDS, "rollouts": 8}),
    ],
)
def test_a_process_bot_with_an_endless_budget_answers_within_the_move_clock(
    pool: ProcessPool, bot: str, options: dict[str, int]
) -> None:
    game = load_plugins().game("klaverjassen", {"target": 1})
    bots = [
        ProcessBot(
            game, 0, 5, options, command=host_command(bot, SOURCE), pool=pool, n_seats=4
        ),
        RandomBot(game, 1, 6),
        ProcessBot(
            game, 2, 7, options, command=host_command(bot, SOURCE), pool=pool, n_seats=4
        ),
        RandomBot(game, 3, 8),
    ]
    result = play_match(game, bots, 3, time_controls=TimeControl(move=MOVE))
    assert result.forfeit is None
    assert result.thinking is not None
    for seat in (0, 2):
        decisions, total, longest = result.thinking[seat]
        assert decisions >= 8
        # It thought (half the clock, not an instant answer) but stopped in
        # time; decisions with one legal card are answered at once.
        assert MOVE * 0.25 < longest < MOVE
        assert total < decisions * MOVE


def test_in_process_search_bots_keep_to_a_match_budget() -> None:
    game = load_plugins().game("klaverjassen", {"target": 1})
    bots = [
        ISMCTSBot(game, 0, 1, {"iterations": MAX_ITERATIONS}),
        PIMCBot(game, 1, 2, {"worlds": MAX_WORLDS}),
        ISMCTSBot(game, 2, 3, {"iterations": MAX_ITERATIONS}),
        PIMCBot(game, 3, 4, {"worlds": MAX_WORLDS}),
    ]
    result = play_match(game, bots, 9, time_controls=TimeControl(match=1.5))
    assert result.forfeit is None
    assert result.thinking is not None
    for decisions, total, _longest in result.thinking:
        assert decisions >= 8 and total < 1.5


def test_the_search_bench_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """bench/bench_search.py runs and reports the goal (speed is not asserted)."""
    import importlib.util
    from pathlib import Path

    script = Path(__file__).parents[2] / "bench" / "bench_search.py"
    spec = importlib.util.spec_from_file_location("troef_bench_search", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.troef_rate("klaverjassen", 1, 50) > 0
    assert module.main(["--quick", "--no-peers", "--games", "kleintje-klaverjas"]) == 0
    assert "iterations/s" in capsys.readouterr().out
