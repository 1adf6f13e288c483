"""Process isolation plays the same matches: same results, kept processes, any language.

A bot served by ``harness.isolation.bothost`` must give byte-for-byte the results of the
same bot in-process (invariant 2, determinism), sequentially and with several
matches interleaved; bot processes are kept across matches; partners never
share one; a bot in JavaScript plays klaverjassen. Time controls are checked
here too, with in-process bots.
"""

from __future__ import annotations

import functools
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bots.random_bot import RandomBot
from harness import Bot, OptionError, Result, View
from harness.contracts.seeding import bot_seed
from harness.isolation.bothost import host_command
from harness.isolation.botpool import ProcessPool
from harness.isolation.botprocess import ProcessBot
from harness.isolation.multiplex import MatchSpec, play_matches_interleaved
from harness.match.referee import Clock, TimeControl, make_bots, play_match
from harness.plugins import PluginSource, Registry, load_plugins
from tests.conftest import TOY_PLUGIN

JS_BOT = Path(__file__).parents[2] / "examples" / "bots" / "random_bot.js"
TOY_SOURCE = PluginSource(
    entry_points=False, modules=("bots.random_bot",), files=(str(TOY_PLUGIN),)
)
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs node")


@pytest.fixture(scope="module")
def klaverjassen():  # type: ignore[no-untyped-def]
    return load_plugins().game("klaverjassen", {"target": 300})


def process_bots(game, seed: int, n: int, command: list[str], pool, lazy: bool = False):  # type: ignore[no-untyped-def]
    make = [
        functools.partial(
            ProcessBot,
            game,
            seat,
            bot_seed(seed, seat),
            command=command,
            pool=pool,
            n_seats=n,
        )
        for seat in range(n)
    ]
    return make if lazy else [m() for m in make]


def test_hosted_bots_give_the_in_process_results(toy_registry, pool) -> None:  # type: ignore[no-untyped-def]
    toy = toy_registry.game("toy")
    command = host_command("random", TOY_SOURCE)
    for seed in range(6):
        isolated = play_match(
            toy, process_bots(toy, seed, 3, command, pool), seed, keep_log=True
        )
        local = play_match(
            toy, make_bots(toy, [RandomBot] * 3, seed), seed, keep_log=True
        )
        assert isolated == local
    # One process per seat, kept across the six matches.
    assert pool.started == 3 and pool.idle_count() == 3


def test_process_settings_serve_a_plugin_bot_or_run_a_command(
    toy_registry: Registry, pool: ProcessPool
) -> None:
    from harness.isolation.botprocess import ProcessSettings

    toy = toy_registry.game("toy")
    hosted = [
        ProcessSettings(memory_mb=1024).bot(
            toy,
            seat,
            bot_seed(4, seat),
            {},
            bot_name="random",
            source=TOY_SOURCE,
            n_seats=2,
            pool=pool,
        )
        for seat in range(2)
    ]
    assert play_match(toy, hosted, 4) == play_match(
        toy, make_bots(toy, [RandomBot] * 2, 4), 4
    )
    command = ProcessSettings(command=("/nonexistent/bot",)).bot(
        toy, 0, 1, {}, bot_name="random", source=TOY_SOURCE, n_seats=2, pool=pool
    )
    assert command.launch.command == ("/nonexistent/bot",)


def test_klaverjassen_partners_get_their_own_processes(klaverjassen, pool) -> None:  # type: ignore[no-untyped-def]
    command = host_command("random", PluginSource())
    bots = process_bots(klaverjassen, 5, 4, command, pool)
    assert (
        len({b.pid for b in bots}) == 4
    )  # seats 0 and 2 are partners, never one process
    result = play_match(klaverjassen, bots, 5, keep_log=True)
    local = play_match(
        klaverjassen, make_bots(klaverjassen, [RandomBot] * 4, 5), 5, keep_log=True
    )
    assert result == local


def test_interleaved_matches_give_the_sequential_results(toy_registry, pool) -> None:  # type: ignore[no-untyped-def]
    toy = toy_registry.game("toy")
    command = host_command("random", TOY_SOURCE)
    seeds = range(12)

    # Mixed tables: a process bot in seat 0 or 1, in-process random bots elsewhere.
    def factories(seed: int):  # type: ignore[no-untyped-def]
        made: list[Callable[[], Bot]] = [
            functools.partial(RandomBot, toy, s, bot_seed(seed, s)) for s in range(3)
        ]
        if seed % 3:
            made[seed % 2] = functools.partial(
                ProcessBot,
                toy,
                seed % 2,
                bot_seed(seed, seed % 2),
                command=command,
                pool=pool,
            )
        return made

    specs = [MatchSpec(toy, factories(s), s, keep_log=True) for s in seeds]
    interleaved = play_matches_interleaved(specs, in_flight=5)
    sequential = [
        play_match(toy, make_bots(toy, [RandomBot] * 3, s), s, keep_log=True)
        for s in seeds
    ]
    assert interleaved == sequential


def test_a_bot_factory_that_raises_forfeits_its_seat(toy_registry) -> None:  # type: ignore[no-untyped-def]
    toy = toy_registry.game("toy")

    def broken() -> Bot:
        raise ValueError("no such bot")

    spec = MatchSpec(toy, [functools.partial(RandomBot, toy, 0, 1), broken], 3)
    (result,) = play_matches_interleaved([spec])
    assert result.forfeit is not None and result.forfeit.seat == 1
    assert "ValueError: no such bot" in result.forfeit.detail


@needs_node
def test_a_javascript_bot_plays_klaverjassen(klaverjassen, pool) -> None:  # type: ignore[no-untyped-def]
    command = ["node", str(JS_BOT)]
    first = play_match(
        klaverjassen, process_bots(klaverjassen, 2, 4, command, pool), 2, keep_log=True
    )
    again = play_match(
        klaverjassen, process_bots(klaverjassen, 2, 4, command, pool), 2, keep_log=True
    )
    assert first.forfeit is None and first.log
    assert first == again  # seeded: the same seed plays the same game
    specs = [
        MatchSpec(
            klaverjassen, process_bots(klaverjassen, s, 4, command, pool, lazy=True), s
        )
        for s in range(3)
    ]
    results = play_matches_interleaved(specs, in_flight=3)
    assert results[2] == play_match(
        klaverjassen, process_bots(klaverjassen, 2, 4, command, pool), 2
    )
    assert pool.started == 12  # 3 tables of 4 at once; every later match reuses them


class Recorder(Bot):
    """Remembers the hooks the referee calls."""

    name = "recorder"
    #: Shared by every instance: one list of the calls to all seats.
    calls: ClassVar[list[str]] = []

    def prepare(self) -> None:
        self.calls.append(f"prepare {self.seat}")

    def act(self, view: View) -> str:
        return view.legal_actions[0]

    def match_over(self, result: Result) -> None:
        self.calls.append(f"over {self.seat} {result.ranks}")


class FailsAtTheEnd(Recorder):
    name = "fails-at-the-end"

    def match_over(self, result: Result) -> None:
        raise RuntimeError("ignored")


def test_the_referee_prepares_bots_and_tells_them_the_result(toy_registry) -> None:  # type: ignore[no-untyped-def]
    toy = toy_registry.game("toy")
    Recorder.calls = []
    result = play_match(toy, [Recorder(toy, 0, 1), FailsAtTheEnd(toy, 1, 2)], 1)
    assert Recorder.calls == ["prepare 0", "prepare 1", f"over 0 {result.ranks}"]


@pytest.mark.parametrize(
    ("control", "elapsed", "late"),
    [
        (TimeControl(move=1.0), [0.5, 0.9, 1.1], 2),
        (TimeControl(match=1.0), [0.5, 0.4, 0.2], 2),
        (TimeControl(match=1.0, increment=0.5), [0.5, 0.4, 0.2, 0.9], None),
        (TimeControl(move=0.6, match=1.0, increment=0.5), [0.5, 0.59, 0.61], 2),
    ],
)
def test_clocks_follow_their_time_control(control, elapsed, late) -> None:  # type: ignore[no-untyped-def]
    clock = Clock(control)
    for move, seconds in enumerate(elapsed):
        limit = clock.limit()
        detail = clock.charge(seconds)
        if move == late:
            assert detail is not None and limit is not None and seconds > limit
            return
        assert detail is None
    assert late is None


def test_the_limit_of_a_decision_is_the_smaller_of_move_and_budget() -> None:
    clock = Clock(TimeControl(move=0.5, match=0.7))
    assert clock.limit() == 0.5
    clock.charge(0.4)
    assert clock.limit() == pytest.approx(0.3)
    assert Clock(TimeControl()).limit() is None


@pytest.mark.parametrize(
    "kwargs",
    [{"move": 0}, {"match": -1.0}, {"increment": -0.1}, {"move": "1"}, {"move": True}],
)
def test_a_bad_time_control_is_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(OptionError, match="time control"):
        TimeControl(**kwargs)


def test_time_controls_per_seat(toy_registry) -> None:  # type: ignore[no-untyped-def]
    toy = toy_registry.game("toy")
    bots = make_bots(toy, [RandomBot] * 2, 1)
    with pytest.raises(OptionError, match="3 entries for 2 seats"):
        play_match(toy, bots, 1, time_controls=[None, None, None])
    generous = TimeControl(move=5.0, match=50.0)
    result = play_match(
        toy, make_bots(toy, [RandomBot] * 2, 1), 1, time_controls=[generous, None]
    )
    assert result == play_match(toy, make_bots(toy, [RandomBot] * 2, 1), 1)
