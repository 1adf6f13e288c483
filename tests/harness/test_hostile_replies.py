"""Any bytes a bot sends are at worst a forfeit of its match (issue 29, item 1).

A reply nested 30,000 levels deep fits in a line and raised ``RecursionError``
out of the JSON parser, through the worker and the scheduler: the run aborted,
and so did every resume. The decoder now refuses a reply nested deeper than
:data:`~harness.isolation.protocol.MAX_REPLY_DEPTH` before parsing it. Property
tests feed arbitrary bytes and arbitrary JSON through the decoder and through
the Python host's reply path; a real run with a hostile command bot shows the
run finishing with the bot's forfeits recorded.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness import ForfeitReason
from harness.contracts.errors import BotFault
from harness.isolation.bothost import Host, serve
from harness.isolation.protocol import (
    MAX_REPLY_DEPTH,
    MAX_REPLY_LINE,
    PROTOCOL_FAULT,
    decode_answer,
)
from harness.plugins import Registry
from harness.tournament.store import Store
from tests.conftest import TOY_PLUGIN

BROKEN = Path(__file__).parents[1] / "plugins" / "broken_bots.py"


def nested(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


def decoded(
    line: bytes, expected: str, match: int | None
) -> tuple[Any, BotFault | None]:
    """What ``decode_answer`` made of ``line``: a value, or the fault it raised.

    Anything else it raises fails the test: that is what aborted runs.
    """
    try:
        return decode_answer(line, expected, match), None
    except BotFault as fault:
        return None, fault


# -- the decoder -------------------------------------------------------------


@pytest.mark.parametrize("expected", ["action", "ready"])
@pytest.mark.parametrize("match", [None, 3])
def test_a_reply_nested_30000_deep_is_a_protocol_fault(
    expected: str, match: int | None
) -> None:
    key = b'"action":' if expected == "action" else b'"x":'
    tag = b"" if match is None else b'"match":%d,' % match
    line = b'{"type":"' + expected.encode() + b'",' + tag + key + nested(30_000) + b"}"
    assert len(line) < MAX_REPLY_LINE  # it fits in a line: only its depth is wrong
    with pytest.raises(BotFault) as caught:
        decode_answer(line, expected, match)
    assert caught.value.reason is PROTOCOL_FAULT
    assert caught.value.detail.startswith(
        f"protocol error: reply nests arrays and objects 30001 deep; at most "
        f"{MAX_REPLY_DEPTH} are accepted: "
    )
    assert len(caught.value.detail) < 300


def test_nesting_up_to_the_limit_is_judged_by_the_referee_not_refused() -> None:
    # The message itself is one level: an action nested MAX_REPLY_DEPTH - 1 deep
    # is still a reply, and its action (not a string) the referee's to judge.
    inner = nested(MAX_REPLY_DEPTH - 1)
    value = decode_answer(b'{"type":"action","action":' + inner + b"}", "action", None)
    assert value == json.loads(inner)
    with pytest.raises(
        BotFault, match=f"nests arrays and objects {MAX_REPLY_DEPTH + 1}"
    ):
        decode_answer(
            b'{"type":"action","action":' + nested(MAX_REPLY_DEPTH) + b"}",
            "action",
            None,
        )


def test_brackets_inside_strings_are_not_nesting() -> None:
    action = '\\"' + "[" * 5000 + "{" * 5000
    line = json.dumps({"type": "action", "action": action}).encode()
    assert decode_answer(line, "action", None) == action


def test_an_error_message_with_a_lone_surrogate_becomes_storable_text() -> None:
    # JSON may escape a lone surrogate, which SQLite cannot store as text.
    _, fault = decoded(b'{"type":"error","message":"bad \\ud800 end"}', "action", None)
    assert fault is not None and fault.reason is ForfeitReason.EXCEPTION
    assert fault.detail == "bad \\ud800 end"
    with sqlite3.connect(":memory:") as con:
        assert con.execute("SELECT ?", (fault.detail,)).fetchone() == (fault.detail,)


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)
_keys = st.sampled_from(["type", "action", "match", "matches", "protocol", "message"])
_messages = st.dictionaries(
    _keys, _json | st.sampled_from(["action", "ready", "error", 1, 3]), max_size=5
)
_deep = st.builds(
    lambda levels, kind: (
        b'{"type":"%s","action":' % kind.encode() + nested(levels) + b"}"
    ),
    st.integers(0, 40_000),
    st.sampled_from(["action", "ready", "error"]),
)


def _check_decoding(line: bytes, expected: str, match: int | None) -> None:
    value, fault = decoded(line, expected, match)
    if fault is None:
        if expected == "ready":
            assert type(value) is int and value >= 1
        else:
            assert value == json.loads(line)["action"]
        return
    # What a forfeit records: storable text, and a protocol fault says briefly
    # what was wrong whatever the bot sent.
    fault.detail.encode("utf-8")
    if fault.reason is PROTOCOL_FAULT:
        assert fault.detail.startswith("protocol error: ")
        assert len(fault.detail) < 600
    else:
        assert fault.reason is ForfeitReason.EXCEPTION


@settings(max_examples=300, deadline=None)
@given(
    line=st.binary(max_size=200) | _deep,
    expected=st.sampled_from(["action", "ready"]),
    match=st.none() | st.integers(0, 5),
)
def test_any_bytes_decode_to_an_answer_or_a_bot_fault(
    line: bytes, expected: str, match: int | None
) -> None:
    _check_decoding(line, expected, match)


@settings(max_examples=300, deadline=None)
@given(
    message=_messages | _json,
    expected=st.sampled_from(["action", "ready"]),
    match=st.none() | st.integers(0, 5),
    ascii_only=st.booleans(),
)
def test_any_json_decodes_to_an_answer_or_a_bot_fault(
    message: Any, expected: str, match: int | None, ascii_only: bool
) -> None:
    line = json.dumps(message, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    _check_decoding(line, expected, match)


# -- the Python host's reply path ----------------------------------------------

_requests = st.one_of(
    st.binary(max_size=120).map(lambda b: b.replace(b"\n", b" ")),
    _deep,
    st.builds(
        lambda extra: json.dumps(
            {
                "type": "start",
                "protocol": 1,
                "game": "toy",
                "game_options": {},
                "seat": 0,
                "n_seats": 3,
                "bot_options": {},
                "seed": 1,
                **extra,
            }
        ).encode(),
        st.dictionaries(_keys, _json, max_size=2),
    ),
    st.builds(
        lambda view, extra: json.dumps({"type": "act", "view": view, **extra}).encode(),
        _json,
        st.dictionaries(st.sampled_from(["match", "seconds"]), _json, max_size=2),
    ),
    _messages.map(lambda m: json.dumps(m).encode()),
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(requests=st.lists(_requests, max_size=8))
def test_the_host_answers_any_input_with_protocol_lines(
    toy_registry: Registry, requests: list[bytes]
) -> None:
    """The host serves real file descriptors: every answer is one line the
    harness decodes to a value or the bot's error, never a crash of the host."""
    host = Host("random", toy_registry, None)
    with tempfile.TemporaryFile() as given_in, tempfile.TemporaryFile() as taken_out:
        given_in.write(b"".join(r + b"\n" for r in requests))
        given_in.seek(0)
        serve(host, given_in.fileno(), taken_out.fileno())
        taken_out.seek(0)
        answers = taken_out.read().splitlines()
    assert len(answers) <= len(requests)
    for answer in answers:
        kind = json.loads(answer)["type"]
        assert kind in ("ready", "action", "error")
        _, fault = decoded(answer, "ready" if kind == "ready" else "action", None)
        assert fault is None or fault.reason is ForfeitReason.EXCEPTION, fault


# -- a real run ----------------------------------------------------------------


def _hostile_config(tmp_path: Path, mode: str) -> Path:
    """Four entrants at a table of three (toy), the last a raw protocol bot."""
    path = tmp_path / f"{mode}.toml"
    path.write_text(
        f'game = "toy"\nseats = 3\nplugins = ["{TOY_PLUGIN}"]\nmatches = 1\n'
        'workers = 2\nexecutor = "process"\n'
        '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
        '[entrants.c]\nbot = "random"\n'
        f'[entrants.hostile]\ncommand = ["{sys.executable}", "-I", "{BROKEN}", '
        f'"{mode}"]\n'
    )
    path.chmod(0o600)
    return path


@pytest.mark.parametrize(
    ("mode", "where"), [("nested", "act"), ("nested-ready", "ready")]
)
def test_a_run_with_a_bot_that_sends_30000_nested_lists_finishes(
    tmp_path: Path, mode: str, where: str
) -> None:
    path = _hostile_config(tmp_path, mode)
    done = subprocess.run(
        [sys.executable, "-m", "harness", "run", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    with Store.existing(path.with_suffix(".sqlite")) as store:
        matches = list(store.matches())
    # Four compositions of three entrants, each in three rotations: all recorded.
    assert len(matches) == 12
    hostile = [m for m in matches if "hostile" in m.job["seating"]]
    others = [m for m in matches if "hostile" not in m.job["seating"]]
    assert len(hostile) == 9 and len(others) == 3
    assert all(m.result.forfeit is None for m in others)
    for m in hostile:
        forfeit = m.result.forfeit
        assert forfeit is not None
        assert m.job["seating"][forfeit.seat] == "hostile"
        assert forfeit.reason is PROTOCOL_FAULT
        assert "reply nests arrays and objects 30001 deep" in forfeit.detail, where
