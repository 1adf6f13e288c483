"""The bot protocol's messages: shapes, fast paths, and the Python host's answers."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness import ForfeitReason, Result, View
from harness.contracts.errors import BotFault
from harness.isolation.bothost import Host
from harness.isolation.protocol import (
    PROTOCOL_FAULT,
    PROTOCOL_VERSION,
    decode_reply,
    encode_act,
    encode_action,
    encode_end,
    encode_start,
    encode_view_act,
)
from harness.plugins import Registry, load_plugins

DOC = Path(__file__).parents[2] / "docs" / "PROTOCOL.md"


@pytest.fixture(scope="module")
def registry():  # type: ignore[no-untyped-def]
    from tests.conftest import TOY_PLUGIN

    return load_plugins(files=[TOY_PLUGIN])


def views(game, n_seats: int, seed: int, count: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    state = game.new_match(n_seats, seed)
    out: list[View] = []
    while not state.is_over() and len(out) < count:
        out.append(state.view(state.to_act))
        state.apply(rng.choice(state.legal_actions()))
    return out


def test_start_carries_the_handshake_on_one_line() -> None:
    line = encode_start(
        game="toy",
        game_options={"leaky": False},
        seat=1,
        n_seats=3,
        bot_options={"x": 1},
        seed=99,
    )
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "game": "toy",
        "game_options": {"leaky": False},
        "seat": 1,
        "n_seats": 3,
        "bot_options": {"x": 1},
        "seed": 99,
    }


@pytest.mark.parametrize("game_name", ["toy", "klaverjassen", "gin-rummy"])
def test_act_is_the_view_json_and_round_trips(registry, game_name) -> None:  # type: ignore[no-untyped-def]
    game = registry.game(game_name)
    n = 4 if game_name == "klaverjassen" else 2
    cls = game.view_type()
    for view in views(game, n, 3, 60):
        line = encode_view_act(view)
        assert line == encode_act(view.to_json())
        message = json.loads(line)
        assert message["type"] == "act"
        assert cls.from_json(json.dumps(message["view"])) == view


def _every_variant(registry: Registry) -> Iterator[tuple[str, dict[str, Any]]]:
    for name, cls in sorted(registry.games.items()):
        yield name, {}
        for option in cls.option_specs:
            for choice in option.choices or ():
                if choice != option.default:
                    yield name, {option.name: choice}


def test_the_host_decodes_every_games_views_into_their_own_class(registry) -> None:  # type: ignore[no-untyped-def]
    """Klaverjassen's variants, Maison Troggen, Triomphe Forcee and the Bezique
    games make views of a subclass; a process bot must receive that class."""
    for name, options in _every_variant(registry):
        game = registry.game(name, options)
        cls = game.view_type()
        for view in views(game, min(game.seat_counts), 1, 40):
            sent = json.loads(encode_view_act(view))["view"]
            decoded = cls.from_json(json.dumps(sent))
            assert type(decoded) is type(view) and decoded == view, (name, options)


def test_end_carries_the_result_without_its_log() -> None:
    result = Result.from_scores([3, 1], [0, 1], [[3, 1]])
    message = json.loads(encode_end(result))
    assert message["type"] == "end"
    assert message["result"]["ranks"] == [1, 2] and "log" not in message["result"]


@pytest.mark.parametrize(
    "action", ["JC", "pass", "trump:H", "é", 'a"b', "back\\slash", 7, None, [1]]
)
def test_replies_decode_to_what_the_bot_sent(action) -> None:  # type: ignore[no-untyped-def]
    assert decode_reply(encode_action(action).rstrip(b"\n"), "action") == action


@pytest.mark.parametrize(
    ("line", "reason", "detail"),
    [
        (b"hello", PROTOCOL_FAULT, "reply is not JSON"),
        (b"\xff\xfe", PROTOCOL_FAULT, "reply is not JSON"),
        (b'["JC"]', PROTOCOL_FAULT, "expected an 'action' reply"),
        (b'{"type":"move"}', PROTOCOL_FAULT, "expected an 'action' reply"),
        (b'{"type":"action"}', PROTOCOL_FAULT, "action reply without 'action'"),
        (b'{"type":"error","message":"boom"}', ForfeitReason.EXCEPTION, "boom"),
        (b'{"type":"error"}', ForfeitReason.EXCEPTION, "error reply"),
    ],
)
def test_bad_replies_are_faults_with_a_reason(line, reason, detail) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BotFault) as caught:
        decode_reply(line, "action")
    assert caught.value.reason is reason
    assert detail in caught.value.detail


def test_ready_checks_the_protocol_version() -> None:
    assert decode_reply(b'{"type":"ready"}', "ready") is None
    assert decode_reply(b'{"type":"ready","protocol":1,"name":"x"}', "ready") is None
    with pytest.raises(BotFault, match="bot speaks protocol 2"):
        decode_reply(b'{"type":"ready","protocol":2}', "ready")


def test_the_host_answers_start_act_and_end(registry) -> None:  # type: ignore[no-untyped-def]
    host = Host("random", registry, None)
    game = registry.game("toy")
    start = json.loads(
        encode_start(
            game="toy",
            game_options={},
            seat=0,
            n_seats=2,
            bot_options={},
            seed=5,
        )
    )
    assert host.handle(start) == b'{"type":"ready"}\n'
    view = views(game, 2, 1, 1)[0]
    reply = host.handle(json.loads(encode_view_act(view)))
    assert reply is not None
    assert decode_reply(reply.rstrip(), "action") in view.legal_actions
    assert host.handle({"type": "end", "result": None}) is None
    early = host.handle(json.loads(encode_view_act(view)))
    assert early is not None and b"before a successful 'start'" in early
    bogus = host.handle({"type": "bogus"})
    assert bogus is not None and b"unknown message type" in bogus


def test_the_host_reports_a_load_error_at_every_start(registry) -> None:  # type: ignore[no-untyped-def]
    host = Host("x", None, "host could not load bot 'x': boom")
    reply = host.handle({"type": "start", "protocol": 1})
    assert reply is not None
    answer = json.loads(reply)
    assert answer == {"type": "error", "message": "host could not load bot 'x': boom"}


def test_the_documented_examples_parse() -> None:
    text = DOC.read_text()
    lines = re.findall(r"^(?:<-|->) (\{.*\})$", text, flags=re.MULTILINE)
    assert len(lines) >= 6
    for line in lines:
        assert "type" in json.loads(line)
