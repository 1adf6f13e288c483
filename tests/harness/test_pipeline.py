"""One bot process serves several matches at once, its requests pipelined.

Real bot processes: the Python host (``harness.isolation.bothost``), and small protocol
bots written here to a temporary folder, which log what they receive to a file
the test reads. A bot that declares ``"matches": N`` in ``ready`` gets up to N
matches of the multiplexer at once (requests with match ids, several written
before the first answer is read); the results are those of the matches played
one after another; the memory rule holds (never two seats of one match, never
two matches of one deal); a crash forfeits every match the process served and
the rest are recorded; a bot that declares nothing gets one request at a time.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bots.random_bot import RandomBot
from harness import Bot
from harness.contracts.errors import BotFault, ConfigError
from harness.contracts.game import Game
from harness.contracts.result import ForfeitReason
from harness.contracts.seeding import bot_seed
from harness.isolation.bothost import Host, host_command
from harness.isolation.botpool import ProcessPool
from harness.isolation.botprocess import ProcessBot, ProcessSettings
from harness.isolation.multiplex import MatchSpec, play_matches_interleaved
from harness.isolation.protocol import (
    PROTOCOL_FAULT,
    decode_answer,
    encode_start,
    encode_view_act,
)
from harness.match.referee import TimeControl, make_bots, play_match
from harness.plugins import PluginSource, Registry
from harness.tournament.config import load_config
from tests.conftest import TOY_PLUGIN

TOY_SOURCE = PluginSource(
    entry_points=False, modules=("bots.random_bot",), files=(str(TOY_PLUGIN),)
)

#: A protocol bot that logs every message it gets (one JSON line per message,
#: with its pid and the ids of the matches open then) to the file argv[1], and
#: plays the first legal action. argv[2]: the matches it declares (0: nothing).
#: argv[3]: crash (exit 3) at the first act while this many matches are open,
#: once per marker file argv[4]. argv[5]: seconds it thinks per act. When it
#: declares nothing it notes any request sent ahead (before its last answer).
LOGGING_BOT = r"""
import json, os, select, sys, time
log_path, marker = sys.argv[1], sys.argv[4]
declared, crash_at, delay = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[5])
open_matches = {}
log = open(log_path, "a")
def say(message, match):
    if match is not None:
        message["match"] = match
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
def lines():
    # Unbuffered: each read is what the harness had written by then.
    buffer = b""
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return
        *complete, buffer = (buffer + chunk).split(b"\n")
        messages = [json.loads(line) for line in complete if line.strip()]
        asked = sum(m["type"] in ("start", "act") for m in messages)
        for message in messages:
            # More than one request in one read, or input after a request
            # before its answer (an end takes none): sent ahead.
            early = message["type"] in ("start", "act") and (
                asked > 1 or bool(select.select([0], [], [], 0)[0])
            )
            yield message, early and not declared, asked > 1
for message, early, batched in lines():
    kind, match = message["type"], message.get("match")
    log.write(json.dumps({"pid": os.getpid(), "type": kind, "match": match,
                          "seed": message.get("seed"), "open": sorted(
                              open_matches.values()), "early": early,
                          "batched": batched}) + "\n")
    log.flush()
    if kind == "quit":
        break
    if kind == "start":
        open_matches[match] = message["seed"]
        ready = {"type": "ready"}
        if declared and match is not None:
            ready["matches"] = declared
        say(ready, match)
    elif kind == "act":
        if crash_at and len(open_matches) >= crash_at:
            try:
                os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                os._exit(3)
            except FileExistsError:
                pass
        time.sleep(delay)
        say({"type": "action", "action": message["view"]["legal_actions"][0]}, match)
    elif kind == "end" and match is None:
        open_matches.clear()  # one match at a time: the one open
    elif kind == "end":
        open_matches.pop(match, None)
"""


def logging_bot(
    tmp_path: Path, declared: int = 4, crash_at: int = 0, delay: float = 0.0
) -> tuple[list[str], Path]:
    script = tmp_path / "logging_bot.py"
    script.write_text(LOGGING_BOT)
    log = tmp_path / "log.jsonl"
    marker = tmp_path / "crashed"
    command = [sys.executable, "-I", str(script), str(log), str(declared)]
    return [*command, str(crash_at), str(marker), str(delay)], log


def read_log(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def hosted_table(
    game: Game, seed: int, pool: ProcessPool, *, pipeline: bool = True
) -> list[Callable[[], Bot]]:
    command = host_command("random", TOY_SOURCE)
    return [
        functools.partial(
            ProcessBot,
            game,
            seat,
            bot_seed(seed, seat),
            command=command,
            pool=pool,
            n_seats=3,
            deal=seed,
            pipeline=pipeline,
        )
        for seat in range(3)
    ]


def test_pipelined_matches_give_the_sequential_results(
    toy: Game, pool: ProcessPool
) -> None:
    # One match first: its three processes answer ready, declaring 8 matches.
    play_matches_interleaved([MatchSpec(toy, hosted_table(toy, 99, pool), 99)])
    assert pool.started == 3
    seeds = range(16)
    specs = [
        MatchSpec(toy, hosted_table(toy, s, pool), s, keep_log=True) for s in seeds
    ]
    pipelined = play_matches_interleaved(specs, in_flight=8)
    local = [
        play_match(toy, make_bots(toy, [RandomBot] * 3, s), s, keep_log=True)
        for s in seeds
    ]
    assert pipelined == local
    # Eight matches at once on the same three processes (one per seat).
    assert pool.started == 3


def test_pipeline_false_gives_each_match_its_own_processes(
    toy: Game, pool: ProcessPool
) -> None:
    play_matches_interleaved(
        [MatchSpec(toy, hosted_table(toy, 99, pool, pipeline=False), 99)]
    )
    specs = [
        MatchSpec(toy, hosted_table(toy, s, pool, pipeline=False), s, keep_log=True)
        for s in range(4)
    ]
    results = play_matches_interleaved(specs, in_flight=4)
    assert results == [
        play_match(toy, make_bots(toy, [RandomBot] * 3, s), s, keep_log=True)
        for s in range(4)
    ]
    assert pool.started == 12  # 4 tables at once, none shares


def logged_table(
    game: Game, index: int, deal: int | None, command: list[str], pool: ProcessPool
) -> list[Callable[[], Bot]]:
    """Every seat is the logging bot; its seed says the match and the seat."""
    return [
        functools.partial(
            ProcessBot,
            game,
            seat,
            index * 10 + seat,
            command=command,
            pool=pool,
            n_seats=3,
            deal=deal,
        )
        for seat in range(3)
    ]


@pytest.mark.parametrize("reuse", ["fresh-deals", "free"])
def test_a_process_never_holds_two_seats_of_a_match_or_two_matches_of_a_deal(
    toy: Game, pool: ProcessPool, tmp_path: Path, reuse: str
) -> None:
    command, log = logging_bot(tmp_path, declared=4)
    warm = [
        MatchSpec(toy, logged_table(toy, 90 + i, None, command, pool), 1)
        for i in range(3)
    ]
    play_matches_interleaved(warm, in_flight=1)
    # Duplicate deals: matches 2k and 2k+1 are dealt from one seed.
    specs = [
        MatchSpec(
            toy,
            logged_table(
                toy, i, i // 2 if reuse == "fresh-deals" else None, command, pool
            ),
            i // 2,
        )
        for i in range(16)
    ]
    results = play_matches_interleaved(specs, in_flight=8)
    assert all(r.forfeit is None for r in results)
    entries = read_log(log)
    # Pipelined: several requests reached the bot in one read.
    assert any(e["batched"] for e in entries)
    starts = [e for e in entries if e["type"] == "start" and e["seed"] < 900]
    assert len(starts) == 16 * 3
    # The processes did serve several matches at once.
    assert any(e["open"] for e in starts)
    deals_by_pid: dict[int, list[int]] = {}
    for entry in starts:
        index = entry["seed"] // 10
        # Never two seats of one match at once.
        assert index not in [s // 10 for s in entry["open"]]
        deals_by_pid.setdefault(entry["pid"], []).append(index // 2)
    if reuse == "fresh-deals":
        for deals in deals_by_pid.values():
            assert len(deals) == len(set(deals))  # never one deal twice in a life
    else:
        # Free reuse (trusted bots) lets a process see a deal twice.
        assert any(len(d) > len(set(d)) for d in deals_by_pid.values())


def test_a_crash_forfeits_every_match_the_process_served_and_the_rest_go_on(
    toy: Game, pool: ProcessPool, tmp_path: Path
) -> None:
    command, log = logging_bot(tmp_path, declared=4, crash_at=3)

    def table(index: int) -> list[Callable[[], Bot]]:
        seed = 1000 + index
        return [
            functools.partial(RandomBot, toy, 0, bot_seed(seed, 0)),
            functools.partial(
                ProcessBot,
                toy,
                1,
                index,
                command=command,
                pool=pool,
                n_seats=3,
                deal=seed,
            ),
            functools.partial(RandomBot, toy, 2, bot_seed(seed, 2)),
        ]

    play_matches_interleaved([MatchSpec(toy, table(99), 1099)])  # declares 4
    specs = [MatchSpec(toy, table(i), 1000 + i, keep_log=True) for i in range(12)]
    results = play_matches_interleaved(specs, in_flight=4)
    entries = read_log(log)
    crash = next(
        i for i, e in enumerate(entries) if e["type"] == "act" and len(e["open"]) >= 3
    )
    served = set(entries[crash]["open"])
    assert len(served) >= 3
    for index, result in enumerate(results):
        if index in served:
            assert result.forfeit is not None and result.forfeit.seat == 1
            assert result.forfeit.reason is ForfeitReason.CRASH
            assert "exited with code 3" in result.forfeit.detail
        else:
            assert result.forfeit is None  # recorded, on a fresh process
            assert result.log
    later = {e["pid"] for e in entries[crash + 1 :] if e["type"] == "start"}
    assert later and entries[crash]["pid"] not in later


def test_an_error_in_one_match_forfeits_it_alone(
    toy: Game, pool: ProcessPool, tmp_path: Path
) -> None:
    # The host serves a bot that raises at its third decision of seed 3 only.
    broken = Path(__file__).parents[1] / "plugins" / "broken_bots.py"
    source = PluginSource(entry_points=False, files=(str(TOY_PLUGIN), str(broken)))
    command = [*host_command("raises", source), "--module", "bots.random_bot"]
    good = host_command("random", TOY_SOURCE)

    def table(seed: int) -> list[Callable[[], Bot]]:
        return [
            functools.partial(
                ProcessBot,
                toy,
                seat,
                bot_seed(seed, seat),
                {"after": 2} if seat == 1 and seed == 3 else {},
                command=command if seat == 1 and seed == 3 else good,
                pool=pool,
                n_seats=3,
                deal=seed,
            )
            for seat in range(3)
        ]

    play_matches_interleaved([MatchSpec(toy, table(99), 99)])
    results = play_matches_interleaved(
        [MatchSpec(toy, table(s), s, keep_log=True) for s in range(6)], in_flight=6
    )
    assert results[3].forfeit is not None
    assert results[3].forfeit.reason is ForfeitReason.EXCEPTION
    assert [r for i, r in enumerate(results) if i != 3] == [
        play_match(toy, make_bots(toy, [RandomBot] * 3, s), s, keep_log=True)
        for s in (0, 1, 2, 4, 5)
    ]


def test_a_bot_that_declares_nothing_gets_one_request_at_a_time(
    toy: Game, pool: ProcessPool, tmp_path: Path
) -> None:
    command, log = logging_bot(tmp_path, declared=0)
    specs = [
        MatchSpec(toy, logged_table(toy, i, i, command, pool), i, keep_log=True)
        for i in range(8)
    ]
    results = play_matches_interleaved(specs, in_flight=4)
    assert all(r.forfeit is None for r in results)
    entries = read_log(log)
    assert entries and not any(e["early"] for e in entries)  # nothing sent ahead
    for entry in entries:
        if entry["type"] == "start":
            assert entry["open"] == []  # one match at a time
        elif entry["type"] in ("act", "end"):
            assert entry["match"] is None  # no ids but in start


@pytest.mark.parametrize("pipeline", [True, False])
def test_a_pipelined_request_waits_behind_the_others_on_its_process(
    toy: Game, pool: ProcessPool, tmp_path: Path, pipeline: bool
) -> None:
    # Seat 1 thinks 0.05 s a move, with 0.13 s allowed; three matches at once.
    command, _ = logging_bot(tmp_path, declared=4, delay=0.05)
    control = TimeControl(move=0.13)

    def table(seed: int) -> list[Callable[[], Bot]]:
        return [
            functools.partial(RandomBot, toy, 0, bot_seed(seed, 0)),
            functools.partial(
                ProcessBot,
                toy,
                1,
                seed,
                command=command,
                pool=pool,
                n_seats=3,
                deal=seed,
                pipeline=pipeline,
            ),
            functools.partial(RandomBot, toy, 2, bot_seed(seed, 2)),
        ]

    play_matches_interleaved(
        [MatchSpec(toy, table(s), s) for s in (97, 98, 99)], in_flight=3
    )
    results = play_matches_interleaved(
        [MatchSpec(toy, table(s), s, time_controls=control) for s in range(3)],
        in_flight=3,
    )
    timeouts = [
        r.forfeit
        for r in results
        if r.forfeit and r.forfeit.reason is ForfeitReason.TIMEOUT
    ]
    if pipeline:
        # One process, three requests in a row: the third answer comes after
        # 0.15 s of its clock, a timeout that ends the process and its matches.
        assert timeouts and all(f.seat == 1 for f in timeouts)
    else:
        # A process per match, one request at a time: every move in time.
        assert not timeouts and all(r.forfeit is None for r in results)


def test_answers_must_echo_their_match_in_request_order() -> None:
    assert (
        decode_answer(b'{"type":"action","match":4,"action":"AC"}', "action", 4) == "AC"
    )
    assert decode_answer(b'{"type":"ready","matches":8,"match":1}', "ready", 1) == 8
    assert decode_answer(b'{"type":"ready"}', "ready", 1) == 1
    for line, detail in [
        (b'{"type":"action","match":5,"action":"AC"}', "match 4 was due"),
        (b'{"type":"action","action":"AC"}', "match 4 was due"),
        (b'{"type":"error","match":3,"message":"x"}', "match 4 was due"),
    ]:
        with pytest.raises(BotFault) as caught:
            decode_answer(line, "action", 4)
        assert caught.value.reason is PROTOCOL_FAULT and detail in caught.value.detail
    with pytest.raises(BotFault, match="'matches' is 0"):
        decode_answer(b'{"type":"ready","matches":0}', "ready", None)
    with pytest.raises(BotFault) as error:
        decode_answer(b'{"type":"error","match":4,"message":"boom"}', "action", 4)
    assert error.value.reason is ForfeitReason.EXCEPTION


def test_the_host_holds_several_matches_by_id(
    toy_registry: Registry, toy: Game
) -> None:
    host = Host("random", toy_registry, None, matches=2)

    def start(match: int | None, seed: int) -> bytes | None:
        line = encode_start(
            game="toy",
            game_options={},
            seat=0,
            n_seats=3,
            bot_options={},
            seed=seed,
            match=match,
        )
        return host.handle(json.loads(line))

    assert start(1, 5) == b'{"type":"ready","matches":2,"match":1}\n'
    assert start(2, 6) == b'{"type":"ready","matches":2,"match":2}\n'
    assert b"2 matches open" in (start(3, 7) or b"")
    state = toy.new_match(3, 0)
    assert state.to_act is not None
    view = state.view(state.to_act)
    one = json.loads(host.handle(json.loads(encode_view_act(view, None, 1))) or b"")
    two = json.loads(host.handle(json.loads(encode_view_act(view, None, 2))) or b"")
    assert one["match"] == 1 and two["match"] == 2
    assert one["action"] == RandomBot(toy, 0, 5).act(view)
    assert two["action"] == RandomBot(toy, 0, 6).act(view)
    host.handle({"type": "end", "match": 1, "result": None})
    assert b"before a successful 'start'" in (
        host.handle(json.loads(encode_view_act(view, None, 1))) or b""
    )
    # Without ids (a harness that does not pipeline): today's ready.
    assert start(None, 5) == b'{"type":"ready"}\n'


def test_the_pipeline_option_is_validated_in_the_config(tmp_path: Path) -> None:
    def config(value: str) -> Path:
        path = tmp_path / "t.toml"
        path.write_text(
            f'game = "toy"\nseed = 2\nplugins = ["{TOY_PLUGIN}"]\n'
            '[entrants.a]\nbot = "random"\n'
            '[entrants.b]\nbot = "random"\nisolation = "process"\n'
            f"pipeline = {value}\n"
        )
        return path

    entrant = {e.label: e for e in load_config(config("false")).entrants}["b"]
    assert entrant.process is not None
    # Only the option differs from the defaults (the user and the sandbox are
    # the machine's).
    assert entrant.process == ProcessSettings(
        pipeline=False, user=entrant.process.user, sandbox=entrant.process.sandbox
    )
    with pytest.raises(ConfigError) as caught:
        load_config(config('"off"'))
    assert "pipeline" in str(caught.value) and "expected true" in str(caught.value)
