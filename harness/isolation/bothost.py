"""Serve a Python plugin bot over the bot protocol, in its own process.

    python -m harness.isolation.bothost --bot NAME [--module MOD]... [--file PATH.py]...
                              [--no-entry-points] [--block NAME]...

The host loads the plugins (as :func:`harness.plugins.load_plugins` does),
then answers the harness's messages on stdin/stdout (``docs/PROTOCOL.md``):
``start`` builds the Game (rules only) and the bot, ``act`` turns the view's
JSON back into the game's View and asks the bot, ``end`` tells the bot the
result. The bot gets only deserialised Views, the Game object, its seat, its
options and its own seed: this process never holds a State or a match seed.

A harness that offers pipelining (a ``match`` id in ``start``) hears that the
host holds up to :data:`MATCHES` matches at once (``"matches"`` in
``ready``): each has its own bot, and every answer echoes its request's id.
The host reads every request that is waiting, answers them in order and writes
the answers with one system call, so one wake-up serves many decisions.

The protocol runs on private copies of fds 0 and 1; the bot's ``print`` goes
to stderr (captured by the harness) and its ``input`` reads nothing, so a bot
cannot corrupt the protocol by accident. A bot's exception, a non-string
action and a bad option come back as an error or an action the referee judges,
with the same details as in-process.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.contracts.bot import Bot
from harness.contracts.game import Game
from harness.contracts.result import Result
from harness.contracts.view import View, _tuples
from harness.isolation.protocol import PROTOCOL_VERSION, encode_action, encode_message
from harness.plugins import PluginSource, Registry, load_plugins

__all__ = ["MATCHES", "host_command", "main"]

#: How many matches a host declares it can hold at once when the harness offers
#: pipelining (``--matches`` changes it; 1 declares nothing).
MATCHES = 8


def host_command(
    bot: str, source: PluginSource, *, python: str = sys.executable
) -> list[str]:
    """The command line that serves bot ``bot`` from the plugins of ``source``.

    For :class:`~harness.isolation.botprocess.ProcessBot`'s ``command``. Files
    are made absolute: the bot starts in an empty temporary directory.
    """
    command = [python, "-I", "-m", "harness.isolation.bothost", "--bot", bot]
    if not source.entry_points:
        command.append("--no-entry-points")
    for module in source.modules:
        command += ["--module", module]
    for file in source.files:
        command += ["--file", str(Path(file).resolve())]
    for name in source.blocked:
        command += ["--block", name]
    return command


class Host:
    """The bot side of one bot process: a bot per open match, built at ``start``.

    Messages without a ``match`` id (a harness that does not pipeline) share
    one slot, ``None``: one match at a time, as the protocol began.
    """

    def __init__(
        self,
        bot_name: str,
        registry: Registry | None,
        load_error: str | None,
        matches: int = MATCHES,
    ) -> None:
        self.bot_name = bot_name
        self.registry = registry
        self.load_error = load_error
        self.matches = matches
        #: The open matches: id (None without pipelining) -> bot and View class.
        self.open: dict[int | None, tuple[Bot, type[View]]] = {}
        self._games: dict[str, tuple[Game, type[View]]] = {}

    def handle(self, message: dict[str, Any]) -> bytes | None:
        """Answer one message; ``None`` when it takes no answer."""
        kind = message.get("type")
        match = message.get("match")
        if match is not None and type(match) is not int:
            return _error(f"host: 'match' is {match!r}, not an integer", None)
        if kind == "act":
            return self.act(message["view"], message.get("seconds"), match)
        if kind == "start":
            return self.start(message)
        if kind == "end":
            self.end(message.get("result"), match)
            return None
        return _error(f"host: unknown message type {kind!r}", match)

    def start(self, message: dict[str, Any]) -> bytes:
        """Build the game (cached) and a fresh bot for this seat and match."""
        match = message.get("match")
        self.open.pop(match, None)
        if self.load_error is not None:
            return _error(self.load_error, match)
        if message.get("protocol") != PROTOCOL_VERSION:
            return _error(
                f"host speaks protocol {PROTOCOL_VERSION}, "
                f"not {message.get('protocol')!r}",
                match,
            )
        if match is not None and len(self.open) >= self.matches:
            return _error(
                f"host: {len(self.open)} matches open, it declared {self.matches}",
                match,
            )
        assert self.registry is not None
        try:
            key = json.dumps([message["game"], message["game_options"]], sort_keys=True)
            if key not in self._games:
                game = self.registry.game(message["game"], message["game_options"])
                self._games[key] = (game, game.view_type())
            game, view_cls = self._games[key]
            cls = self.registry.bot_class(self.bot_name, game.name)
            bot = cls(game, message["seat"], message["seed"], message["bot_options"])
        except Exception:
            return _error(_tail(), match)
        self.open[match] = (bot, view_cls)
        if match is None:
            return b'{"type":"ready"}\n'
        if self.matches > 1:
            return b'{"type":"ready","matches":%d,"match":%d}\n' % (self.matches, match)
        return b'{"type":"ready","match":%d}\n' % match

    def act(
        self,
        data: dict[str, Any],
        seconds: float | None = None,
        match: int | None = None,
    ) -> bytes:
        """The bot's action for the view in ``data``, or its error.

        ``seconds`` is the decision's time limit when the request carries one:
        the bot hears it through ``act_within`` and may stop in time.
        """
        entry = self.open.get(match)
        if entry is None:
            return _error("host: 'act' before a successful 'start'", match)
        bot, view_cls = entry
        try:
            view = view_cls(**{k: _tuples(v) for k, v in data.items()})
            action = (
                bot.act(view)
                if not isinstance(seconds, int | float)
                else bot.act_within(view, float(seconds))
            )
        except Exception:
            return _error(_tail(), match)
        try:
            return encode_action(action, match)
        except (TypeError, ValueError):
            # Not JSON: send its repr, so the referee says what it was.
            message: dict[str, Any] = {
                "type": "action",
                "action": {"repr": repr(action)[:80]},
            }
            if match is not None:
                message["match"] = match
            return encode_message(message)

    def end(self, result: dict[str, Any] | None, match: int | None = None) -> None:
        """Tell the bot the result, and drop it."""
        entry = self.open.pop(match, None)
        if entry is not None and result is not None:
            try:
                entry[0].match_over(Result.from_dict({**result, "log": None}))
            except Exception:
                traceback.print_exc()


def main(argv: Sequence[str] | None = None) -> int:
    """Serve one bot until ``quit`` or the end of input."""
    parser = argparse.ArgumentParser(
        prog="python -m harness.isolation.bothost", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--bot", required=True, help="registry name of the bot to serve"
    )
    parser.add_argument(
        "--module", action="append", default=[], help="plugin module (repeatable)"
    )
    parser.add_argument(
        "--file", action="append", default=[], help="plugin .py file (repeatable)"
    )
    parser.add_argument(
        "--plugin", action="append", default=[], help="a .py file or a module name"
    )
    parser.add_argument(
        "--no-entry-points", action="store_true", help="skip the 'troef' entry points"
    )
    parser.add_argument(
        "--block", action="append", default=[], help="plugin name not to load"
    )
    parser.add_argument(
        "--matches",
        type=int,
        default=MATCHES,
        help="matches held at once when the harness pipelines (1: one at a time)",
    )
    args = parser.parse_args(argv)
    for plugin in args.plugin:
        (args.file if plugin.endswith(".py") else args.module).append(plugin)

    # The protocol keeps private copies of stdin and stdout; the bot's own
    # print() lands on stderr and its input() reads nothing.
    proto_in, proto_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)

    registry: Registry | None = None
    load_error: str | None = None
    try:
        registry = load_plugins(
            entry_points=not args.no_entry_points,
            modules=args.module,
            files=args.file,
            blocked=args.block,
        )
        registry.bot_class(args.bot)
    except Exception as exc:
        load_error = (
            f"host could not load bot {args.bot!r}: {type(exc).__name__}: {exc}"
        )
    host = Host(args.bot, registry, load_error, max(1, args.matches))
    serve(host, proto_in, proto_out)
    return 0


def serve(host: Host, fd_in: int, fd_out: int) -> None:
    """Answer the requests of ``fd_in`` on ``fd_out`` until ``quit`` or its end.

    Every complete line read is answered before the answers are written, all
    with one write: a harness that pipelines its requests wakes this process
    once for all of them.
    """
    buffer = b""
    while True:
        chunk = os.read(fd_in, 1 << 16)
        if not chunk:
            return
        lines = (buffer + chunk).split(b"\n")
        buffer = lines.pop()
        answers: list[bytes] = []
        for line in lines:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
                if message.get("type") == "quit":
                    _write(fd_out, b"".join(answers))
                    return
                answer = host.handle(message)
            except Exception:
                answer = _error("host: bad message: " + _tail(), None)
            if answer is not None:
                answers.append(answer)
        if answers:
            _write(fd_out, b"".join(answers))


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _error(text: str, match: int | None = None) -> bytes:
    if match is None:
        return encode_message({"type": "error", "message": text})
    return encode_message({"type": "error", "match": match, "message": text})


def _tail() -> str:
    try:
        return traceback.format_exc(limit=-8)
    except MemoryError:
        return f"{sys.exc_info()[0].__name__} (no memory left for the traceback)"  # type: ignore[union-attr]


if __name__ == "__main__":
    sys.exit(main())
