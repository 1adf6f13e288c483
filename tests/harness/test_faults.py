"""Process isolation under faults: every broken bot is a forfeit with its reason.

Each test plays a short sequence of toy matches in which seat 1 is a bot
process that breaks mid-match (``tests/plugins/broken_bots.py``). The first
match is a forfeit with the right reason and a clear detail; the broken
process is killed, and the next match gets a fresh process and is played to
the end: the sequence goes on.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bots.random_bot import RandomBot
from harness import ForfeitReason, Game, Result
from harness.contracts.seeding import bot_seed
from harness.isolation.bothost import host_command
from harness.isolation.botpool import ProcessPool
from harness.isolation.botprocess import ProcessBot
from harness.isolation.multiplex import MatchSpec, play_matches_interleaved
from harness.match.referee import TimeControl, play_match
from harness.plugins import PluginSource, Registry
from tests.conftest import TOY_PLUGIN

BROKEN = Path(__file__).parents[1] / "plugins" / "broken_bots.py"
SOURCE = PluginSource(entry_points=False, files=(str(TOY_PLUGIN), str(BROKEN)))


def hosted(bot: str) -> list[str]:
    return [*host_command(bot, SOURCE), "--module", "bots.random_bot"]


def raw(mode: str, marker: Path | str = "") -> list[str]:
    return [sys.executable, "-I", str(BROKEN), mode, str(marker)]


def play_sequence(
    toy: Game,
    command: list[str],
    pool: ProcessPool,
    *,
    options: dict[str, Any] | None = None,
    matches: int = 2,
    control: TimeControl | None = None,
    **kwargs: Any,
) -> tuple[list[Result], list[int | None]]:
    """Seat 1 is the bot process; seats 0 and 2 play randomly in-process."""
    results, pids = [], []
    for seed in range(matches):
        bots = [
            RandomBot(toy, 0, bot_seed(seed, 0)),
            ProcessBot(
                toy,
                1,
                bot_seed(seed, 1),
                options,
                command=command,
                pool=pool,
                n_seats=3,
                **kwargs,
            ),
            RandomBot(toy, 2, bot_seed(seed, 2)),
        ]
        assert isinstance(bots[1], ProcessBot)
        pids.append(bots[1].pid)
        results.append(
            play_match(
                toy, bots, seed, keep_log=True, time_controls=[None, control, None]
            )
        )
    return results, pids


def assert_forfeit_then_recovery(
    results: list[Result],
    pids: list[int | None],
    pool: ProcessPool,
    reason: ForfeitReason,
    *details: str,
) -> None:
    first, second = results
    assert first.forfeit is not None, first
    assert first.forfeit.seat == 1
    assert first.forfeit.reason is reason, first.forfeit
    for detail in details:
        assert detail in first.forfeit.detail, first.forfeit.detail
    assert first.ranks[1] == 3
    assert first.log is not None and len(first.log) >= 3  # it broke mid-match
    # The broken process was replaced; the next match is played to its end.
    assert second.forfeit is None, second.forfeit
    assert pids[0] != pids[1]
    assert pool.started == 2
    assert pool.idle_count() == 1


@pytest.mark.parametrize(
    ("bot", "reason", "details"),
    [
        ("raises", ForfeitReason.EXCEPTION, ["RuntimeError: my bug", "in fault"]),
        ("illegal", ForfeitReason.ILLEGAL_ACTION, ["act() returned 'XX', not one of"]),
        ("returns-int", ForfeitReason.NOT_A_STRING, ["act() returned 7, not a string"]),
        ("returns-object", ForfeitReason.NOT_A_STRING, ["<object object at"]),
        ("exits", ForfeitReason.CRASH, ["exited with code 3", "exits: giving up"]),
        ("killed", ForfeitReason.CRASH, ["killed by signal SIGKILL (9)"]),
    ],
)
def test_a_hosted_bot_that_breaks_forfeits_and_is_restarted(
    toy: Game,
    pool: ProcessPool,
    tmp_path: Path,
    bot: str,
    reason: ForfeitReason,
    details: list[str],
) -> None:
    options = {"once": str(tmp_path / "marker")}
    results, pids = play_sequence(toy, hosted(bot), pool, options=options)
    assert_forfeit_then_recovery(results, pids, pool, reason, *details)


@pytest.mark.parametrize(
    ("mode", "details"),
    [
        ("not-json", ["protocol error: reply is not JSON", "hello, referee"]),
        ("wrong-shape", ["protocol error: expected an 'action' reply", "9C"]),
        ("unknown-type", ["protocol error: expected an 'action' reply", '"move"']),
        ("flood-line", ["protocol error: reply line longer than 65536 bytes", "flood"]),
        ("flood-lines", ["protocol error: more output after the 'action' reply"]),
        ("two-replies", ["protocol error: more output after the 'action' reply"]),
    ],
)
def test_a_bot_that_breaks_the_protocol_forfeits_and_is_restarted(
    toy: Game, pool: ProcessPool, tmp_path: Path, mode: str, details: list[str]
) -> None:
    results, pids = play_sequence(toy, raw(mode, tmp_path / "marker"), pool)
    assert_forfeit_then_recovery(results, pids, pool, ForfeitReason.PROTOCOL, *details)


def test_a_bot_that_closes_its_output_crashes(
    toy: Game, pool: ProcessPool, tmp_path: Path
) -> None:
    results, pids = play_sequence(toy, raw("eof", tmp_path / "marker"), pool)
    assert_forfeit_then_recovery(
        results, pids, pool, ForfeitReason.CRASH, "closed its output but kept running"
    )


def test_a_hung_bot_is_killed_with_its_children_at_the_move_limit(
    toy: Game, pool: ProcessPool, tmp_path: Path
) -> None:
    pidfile = tmp_path / "child.pid"
    options = {"once": str(tmp_path / "marker"), "pidfile": str(pidfile)}
    results, pids = play_sequence(
        toy, hosted("hangs"), pool, options=options, control=TimeControl(move=0.3)
    )
    assert_forfeit_then_recovery(
        results, pids, pool, ForfeitReason.TIMEOUT, "no 'action' reply within 0.3 s"
    )
    assert _gone(int(pidfile.read_text()))  # the kill took the bot's child too


def test_a_hung_bot_times_out_on_its_match_budget(
    toy: Game, pool: ProcessPool, tmp_path: Path
) -> None:
    options = {"once": str(tmp_path / "marker")}
    results, pids = play_sequence(
        toy,
        hosted("hangs"),
        pool,
        options=options,
        control=TimeControl(match=0.4, increment=0.01),
    )
    assert_forfeit_then_recovery(
        results, pids, pool, ForfeitReason.TIMEOUT, "no 'action' reply within 0."
    )
    # What was left of the budget: 0.4 s plus 0.01 s a decision, less the time
    # the earlier decisions took (a few ms on a loaded machine).
    assert results[0].forfeit is not None
    detail = results[0].forfeit.detail
    left = float(detail.split("within ")[1].split(" s")[0])
    assert 0.35 < left < 0.5, detail


def test_a_hung_bot_without_time_control_meets_the_hang_timeout(
    toy: Game, pool: ProcessPool, tmp_path: Path
) -> None:
    options = {"once": str(tmp_path / "marker")}
    results, pids = play_sequence(
        toy, hosted("hangs"), pool, options=options, hang_timeout=0.3
    )
    assert_forfeit_then_recovery(
        results, pids, pool, ForfeitReason.TIMEOUT, "no 'action' reply"
    )


def test_a_bot_that_eats_memory_meets_its_limit(
    toy: Game, pool: ProcessPool, tmp_path: Path
) -> None:
    options = {"once": str(tmp_path / "marker")}
    results, pids = play_sequence(
        toy, hosted("memory-hog"), pool, options=options, memory_mb=400
    )
    # The host reports the MemoryError (or, if it cannot, dies: a crash).
    first = results[0].forfeit
    assert first is not None and first.seat == 1
    assert first.reason in (ForfeitReason.EXCEPTION, ForfeitReason.CRASH)
    assert "MemoryError" in first.detail or "memory limit 400 MiB" in first.detail
    assert results[1].forfeit is None and pids[0] != pids[1]


def test_a_bot_that_prints_and_reads_stdin_does_not_break_the_protocol(
    toy: Game, pool: ProcessPool
) -> None:
    results, pids = play_sequence(toy, hosted("prints"), pool, options={"after": 0})
    assert [r.forfeit for r in results] == [None, None]
    assert pids[0] == pids[1]  # healthy: the same process served both matches
    assert pool.started == 1


def test_a_bot_that_speaks_another_protocol_version_forfeits_at_start(
    toy: Game, pool: ProcessPool
) -> None:
    results, _ = play_sequence(toy, raw("bad-version"), pool, matches=1)
    forfeit = results[0].forfeit
    assert forfeit is not None and forfeit.seat == 1
    assert forfeit.reason is ForfeitReason.PROTOCOL
    assert "bot speaks protocol 99" in forfeit.detail
    assert results[0].log == ()


def test_a_bot_that_never_answers_start_times_out(toy: Game, pool: ProcessPool) -> None:
    results, _ = play_sequence(
        toy, ["sleep", "100"], pool, matches=1, startup_timeout=0.3
    )
    forfeit = results[0].forfeit
    assert forfeit is not None and forfeit.reason is ForfeitReason.TIMEOUT
    assert "'ready' reply within 0.3 s (startup)" in forfeit.detail


def test_a_bot_that_cannot_start_crashes(toy: Game, pool: ProcessPool) -> None:
    results, _ = play_sequence(toy, ["/nonexistent/bot"], pool, matches=1)
    forfeit = results[0].forfeit
    assert forfeit is not None and forfeit.reason is ForfeitReason.CRASH
    assert "cannot start ['/nonexistent/bot']" in forfeit.detail


def test_a_bot_that_exits_at_once_crashes_at_start(
    toy: Game, pool: ProcessPool
) -> None:
    results, _ = play_sequence(
        toy, ["sh", "-c", "echo oops >&2; exit 5"], pool, matches=1
    )
    forfeit = results[0].forfeit
    assert forfeit is not None and forfeit.reason is ForfeitReason.CRASH
    assert "exited with code 5" in forfeit.detail and "oops" in forfeit.detail


def test_a_bad_bot_option_is_reported_by_the_host(toy: Game, pool: ProcessPool) -> None:
    results, _ = play_sequence(
        toy, hosted("raises"), pool, options={"aftr": 1}, matches=1
    )
    forfeit = results[0].forfeit
    assert forfeit is not None and forfeit.reason is ForfeitReason.EXCEPTION
    assert "OptionError" in forfeit.detail and "'aftr'" in forfeit.detail


def test_an_unknown_bot_is_reported_by_the_host(toy: Game, pool: ProcessPool) -> None:
    results, _ = play_sequence(toy, hosted("no-such-bot"), pool, matches=1)
    forfeit = results[0].forfeit
    assert forfeit is not None and forfeit.reason is ForfeitReason.EXCEPTION
    assert "host could not load bot 'no-such-bot'" in forfeit.detail


def test_an_in_process_bot_that_overruns_is_forfeited_when_it_returns(
    toy_registry: Registry,
) -> None:
    from harness.plugins import load_plugins

    slow = load_plugins(
        entry_points=False,
        files=[Path(__file__).parents[1] / "plugins" / "test_bots.py"],
    )
    toy = toy_registry.game("toy")
    sleepy = slow.bot_class("sleepy")
    bots = [RandomBot(toy, 0, 1), sleepy(toy, 1, 2, {"delay": 0.05})]
    result = play_match(toy, bots, 4, time_controls=TimeControl(move=0.02))
    assert result.forfeit is not None and result.forfeit.seat == 1
    assert result.forfeit.reason is ForfeitReason.TIMEOUT
    assert "the limit per move is 0.02 s" in result.forfeit.detail


def test_faults_in_interleaved_matches_match_the_sequential_results(
    toy: Game, pool: ProcessPool, tmp_path: Path
) -> None:
    broken: dict[int, tuple[list[str], dict[str, Any] | None]] = {
        1: (hosted("raises"), {}),
        2: (hosted("hangs"), {}),
        4: (hosted("exits"), {}),
        5: (raw("flood-line"), None),
        6: (hosted("illegal"), {}),
    }
    good = hosted("random")
    control = TimeControl(move=0.3)

    def bots(seed: int, *, lazy: bool) -> list[Any]:
        command, options = broken.get(seed, (good, {}))
        make: list[Callable[[], ProcessBot]] = [
            functools.partial(
                ProcessBot,
                toy,
                seat,
                bot_seed(seed, seat),
                options if seat == 1 else {},
                command=command if seat == 1 else good,
                pool=pool,
                n_seats=3,
            )
            for seat in range(3)
        ]
        return make if lazy else [m() for m in make]

    seeds = range(8)
    interleaved = play_matches_interleaved(
        [
            MatchSpec(toy, bots(s, lazy=True), s, keep_log=True, time_controls=control)
            for s in seeds
        ],
        in_flight=4,
    )
    sequential = [
        play_match(toy, bots(s, lazy=False), s, keep_log=True, time_controls=control)
        for s in seeds
    ]
    for seed, a, b in zip(seeds, interleaved, sequential, strict=True):
        if seed in broken:
            assert a.forfeit is not None and b.forfeit is not None
            assert (a.forfeit.seat, a.forfeit.reason) == (
                b.forfeit.seat,
                b.forfeit.reason,
            )
            assert a.log == b.log and a.scores == b.scores
        else:
            assert a == b


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            return any(line.startswith("State:\tZ") for line in f)
    except FileNotFoundError:
        return True
