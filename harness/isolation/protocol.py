"""The bot protocol: line-delimited JSON between the harness and a bot process.

Every message is one JSON object on one line (UTF-8, ``\\n``-terminated), with a
``"type"`` key. The harness writes to the bot's stdin; the bot answers on its
stdout; its stderr is captured (bounded) for the forfeit detail.
``docs/PROTOCOL.md`` documents the protocol for bot authors in any language;
this module holds the message shapes, their limits and their encoders and
decoders, for :mod:`harness.isolation.botprocess`,
:mod:`harness.isolation.botprogram` and :mod:`harness.isolation.launch` (the
harness side) and :mod:`harness.isolation.bothost` (the Python bot side).

The act request is built by string concatenation around ``View.to_json()``:
the view is already compact JSON, so it is never parsed or re-encoded here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import BotFault
from harness.contracts.result import ForfeitReason, Result

if TYPE_CHECKING:
    from harness.contracts.view import View

__all__ = [
    "MAX_REPLY_DEPTH",
    "MAX_REPLY_LINE",
    "PROTOCOL_FAULT",
    "PROTOCOL_VERSION",
    "decode_answer",
    "decode_reply",
    "encode_act",
    "encode_action",
    "encode_end",
    "encode_start",
    "encode_view_act",
]

#: The version of the protocol this harness speaks; sent in every ``start``.
PROTOCOL_VERSION = 1

#: The longest line, in bytes, a bot may write. Actions are short; an error
#: message with a traceback fits easily. A longer line is a flood: the bot is
#: stopped and forfeits.
MAX_REPLY_LINE = 64 * 1024

#: The deepest nesting of arrays and objects a reply may have. Every reply is
#: an object of strings and numbers (depth 1); the limit leaves room for an
#: action that is not a string (a forfeit the referee names) but refuses, before
#: it is parsed, a line that would exhaust the parser's stack (issue 29: 30,000
#: nested lists fit in a line and raised RecursionError out of the run).
MAX_REPLY_DEPTH = 32

#: The forfeit reason for a reply that breaks the protocol (not JSON, wrong
#: shape, unknown type, a flood). The detail always starts with ``protocol error:``.
PROTOCOL_FAULT = ForfeitReason.PROTOCOL

_QUIT = b'{"type":"quit"}\n'


def encode_start(
    *,
    game: str,
    game_options: Mapping[str, Any],
    seat: int,
    n_seats: int | None,
    bot_options: Mapping[str, Any],
    seed: int,
    match: int | None = None,
) -> bytes:
    """The ``start`` message that opens a match for one seat; the bot answers ``ready``.

    ``seed`` is the bot's own seed (``bot_seed(match seed, seat, secret)``,
    keyed with the tournament's secret), never the match seed: the match seed
    would let a bot re-deal every hand.

    ``match`` (the match's id on this bot process) offers pipelining: a bot
    that answers ``ready`` with ``"matches": N`` (N > 1) may then be given up
    to N matches at once, each request carrying its ``match`` id. A bot that
    ignores the key gets one request at a time, as without it.
    """
    message: dict[str, Any] = {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "game": game,
        "game_options": dict(game_options),
        "seat": seat,
        "n_seats": n_seats,
        "bot_options": dict(bot_options),
        "seed": seed,
    }
    if match is not None:
        message["match"] = match
    return _line(message)


def encode_act(view_json: str) -> bytes:
    """The ``act`` request around a view already serialised by ``View.to_json``."""
    return b'{"type":"act","view":' + view_json.encode() + b"}\n"


def encode_view_act(
    view: View, seconds: float | None = None, match: int | None = None
) -> bytes:
    """The ``act`` request for ``view``; same bytes as ``encode_act(view.to_json())``.

    With ``seconds`` (the decision's time limit) the request also carries
    ``"seconds"``, so that a bot that searches can stop in time; bots that do
    not read it ignore it. With ``match`` (a pipelining bot) it carries the
    match's id, first, so that a bot can route it before reading the view.

    Faster in the hot loop: the field names of each View class are looked up
    once, and one compact encoder is reused.
    """
    cls = type(view)
    getter = _getters.get(cls)
    if getter is None:
        names = tuple(f.name for f in fields(view))
        getter = _getters[cls] = (names, attrgetter(*names))
    names, get = getter
    values = get(view)
    if len(names) == 1:
        values = (values,)
    body = _encode(dict(zip(names, values, strict=True)))
    head = (
        b'{"type":"act","view":'
        if match is None
        else b'{"type":"act","match":%d,"view":' % match
    )
    if seconds is None:
        return head + body.encode() + b"}\n"
    tail = f',"seconds":{float(seconds)!r}}}\n'.encode()
    return head + body.encode() + tail


_getters: dict[type, tuple[tuple[str, ...], Any]] = {}
_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
_ACTION_HEAD = b'{"type":"action","action":"'


def encode_end(result: Result | None, match: int | None = None) -> bytes:
    """The ``end`` message: the match is over (``result`` without its log); no reply.

    ``match``: the match's id, for a pipelining bot.
    """
    data = None if result is None else result.to_dict()
    if data is not None:
        del data["log"]
    if match is None:
        return _line({"type": "end", "result": data})
    return _line({"type": "end", "match": match, "result": data})


def encode_quit() -> bytes:
    """The ``quit`` message: exit now; no reply."""
    return _QUIT


def decode_reply(line: bytes, expected: str) -> Any:
    """Decode one reply line of the bot; return the action (``expected="action"``).

    For ``expected="ready"`` return ``None``. The action is returned as the bot
    sent it, whatever its JSON type: the referee's NOT_A_STRING check judges it.

    :raises BotFault: the bot reported an error (``EXCEPTION``, its message as
        detail), or the line breaks the protocol (:data:`PROTOCOL_FAULT`).
    """
    value = decode_answer(line, expected, None)
    return None if expected == "ready" else value


def decode_answer(line: bytes, expected: str, match: int | None) -> Any:
    """Decode the answer to a request of match ``match`` (``None``: untagged).

    Like :func:`decode_reply`, but a ``ready`` gives the number of matches the
    bot declared it can hold at once (``"matches"``; 1 without it), and with
    ``match`` an ``action`` or ``error`` must echo that id (answers come in
    request order: another id is a protocol error). A ``ready`` echoes the id
    of its ``start`` if it carries one.

    :raises BotFault: as :func:`decode_reply`; an ``error`` that echoes the
        right id is the bot's ``EXCEPTION`` in that match alone.
    """
    if expected == "action":
        head = _ACTION_HEAD if match is None else _tagged_head(match)
        if line.startswith(head) and line.endswith(b'"}'):
            # The common reply, decoded without the JSON parser if it has no escapes.
            action = line[len(head) : -2]
            if b'"' not in action and b"\\" not in action:
                try:
                    return action.decode()
                except UnicodeDecodeError:
                    pass
    depth = _depth(line)
    if depth > MAX_REPLY_DEPTH:
        raise BotFault(
            PROTOCOL_FAULT,
            f"protocol error: reply nests arrays and objects {depth} deep; at most "
            f"{MAX_REPLY_DEPTH} are accepted: {_clip(line)}",
        )
    try:
        message = json.loads(line)
    except (ValueError, RecursionError, MemoryError):
        # ValueError covers bad JSON, bad UTF-8 and integers over Python's digit
        # limit; the other two can only come from a parser already deep in a stack
        # or short of memory: still the reply's fault, never the run's.
        raise BotFault(
            PROTOCOL_FAULT, f"protocol error: reply is not JSON: {_clip(line)}"
        ) from None
    kind = message.get("type") if isinstance(message, dict) else None
    if (
        match is not None
        and kind in (expected, "error")
        and (expected != "ready" or "match" in message)
    ):
        echoed = message.get("match")
        if echoed != match or type(echoed) is not int:
            raise BotFault(
                PROTOCOL_FAULT,
                f"protocol error: a reply for match {_short(echoed)} where the answer "
                f"for match {match!r} was due (answers come in request order): "
                f"{_clip(line)}",
            )
    if kind == expected:
        if expected == "action":
            if "action" not in message:
                raise BotFault(
                    PROTOCOL_FAULT,
                    f"protocol error: action reply without 'action': {_clip(line)}",
                )
            return message["action"]
        version = message.get("protocol", PROTOCOL_VERSION)
        if version != PROTOCOL_VERSION:
            raise BotFault(
                PROTOCOL_FAULT,
                f"protocol error: bot speaks protocol {_short(version)}, "
                f"the harness speaks {PROTOCOL_VERSION}",
            )
        matches = message.get("matches", 1)
        if type(matches) is not int or matches < 1:
            raise BotFault(
                PROTOCOL_FAULT,
                f"protocol error: 'matches' is {_short(matches)}; it takes an "
                "integer >= 1",
            )
        return matches
    if kind == "error":
        text = message.get("message")
        raise BotFault(
            ForfeitReason.EXCEPTION,
            # A lone surrogate (JSON allows "\\ud800") cannot be stored as text.
            text.encode("utf-8", "backslashreplace").decode()
            if isinstance(text, str)
            else f"error reply: {_clip(line)}",
        )
    raise BotFault(
        PROTOCOL_FAULT,
        f"protocol error: expected an {expected!r} reply, got {_clip(line)}"
        if expected == "action"
        else f"protocol error: expected a {expected!r} reply, got {_clip(line)}",
    )


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = bytes.maketrans(b"[]{}", b"\x01\x00\x01\x00")


def _depth(line: bytes) -> int:
    """How deep ``line`` nests arrays and objects, brackets in strings not counted.

    Cheap for every reply that could be well formed: a line with at most
    :data:`MAX_REPLY_DEPTH` opening brackets cannot nest deeper than that; it is
    not scanned, and their number is returned as the bound.
    """
    opening = line.count(b"[") + line.count(b"{")
    if opening <= MAX_REPLY_DEPTH:
        return opening
    steps = _STRING.sub(b"", line).translate(None, _NOT_BRACKETS).translate(_STEP)
    depth = deepest = 0
    for opens in steps:
        depth += 1 if opens else -1
        deepest = max(deepest, depth)
    return deepest


def _tagged_head(match: int) -> bytes:
    head = _tagged_heads.get(match)
    if head is None:
        if len(_tagged_heads) > 4096:
            _tagged_heads.clear()
        head = _tagged_heads[match] = b'{"type":"action","match":%d,"action":"' % match
    return head


_tagged_heads: dict[int, bytes] = {}


def encode_action(action: Any, match: int | None = None) -> bytes:
    """The ``action`` reply (for bots written in Python with this module);
    ``match``: the id of the request's match, echoed."""
    if type(action) is str:
        head = _ACTION_HEAD[:-1] if match is None else _tagged_head(match)[:-1]
        return head + _encode_str(action).encode() + b"}\n"
    if match is None:
        return _line({"type": "action", "action": action})
    return _line({"type": "action", "match": match, "action": action})


def encode_message(message: Mapping[str, Any]) -> bytes:
    """Any message as one compact JSON line (for bots written with this module)."""
    return _line(message)


def _line(message: Mapping[str, Any]) -> bytes:
    return _encode(message).encode() + b"\n"


_encode_str = json.encoder.encode_basestring_ascii


def _short(value: object, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters: a bot chose the value."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _clip(line: bytes, limit: int = 120) -> str:
    text = repr(bytes(line[:limit]))
    return text + (f" ... ({len(line)} bytes)" if len(line) > limit else "")
