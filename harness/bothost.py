"""Serve a Python plugin bot over the bot protocol, in its own process.

    python -m harness.bothost --bot NAME [--module MOD]... [--file PATH.py]...
                              [--no-entry-points] [--block NAME]...

The host loads the plugins (as :func:`harness.plugins.load_plugins` does),
then answers the harness's messages on stdin/stdout (``docs/PROTOCOL.md``):
``start`` builds the Game (rules only) and the bot, ``act`` turns the view's
JSON back into the game's View and asks the bot, ``end`` tells the bot the
result. The bot gets only deserialised Views, the Game object, its seat, its
options and its own seed: this process never holds a State or a match seed.

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
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.bot import Bot
from harness.game import Game
from harness.plugins import PluginSource, Registry, load_plugins
from harness.protocol import PROTOCOL_VERSION, encode_action, encode_message
from harness.result import Result
from harness.view import View

__all__ = ["host_command", "main", "view_class"]


def host_command(
    bot: str, source: PluginSource, *, python: str = sys.executable
) -> list[str]:
    """The command line that serves bot ``bot`` from the plugins of ``source``.

    For :class:`~harness.botprocess.ProcessBot`'s ``command``. Files are made
    absolute: the bot starts in an empty temporary directory.
    """
    command = [python, "-I", "-m", "harness.bothost", "--bot", bot]
    if not source.entry_points:
        command.append("--no-entry-points")
    for module in source.modules:
        command += ["--module", module]
    for file in source.files:
        command += ["--file", str(Path(file).resolve())]
    for name in source.blocked:
        command += ["--block", name]
    return command


def view_class(game: Game) -> type[View]:
    """The View subclass of ``game``, from its annotations.

    A game may name it as a ``view_class`` attribute; otherwise it is the
    return annotation of ``State.view`` on the State class that ``new_match``
    is annotated to return (no State is built).
    """
    named = getattr(game, "view_class", None)
    if isinstance(named, type) and issubclass(named, View):
        return named
    try:
        state_cls = typing.get_type_hints(type(game).new_match)["return"]
        found = typing.get_type_hints(state_cls.view)["return"]
    except Exception as exc:
        raise TypeError(
            f"cannot tell the View class of game {game.name!r}: annotate "
            f"new_match() and State.view() with their classes ({exc})"
        ) from exc
    if not (isinstance(found, type) and issubclass(found, View)):
        raise TypeError(
            f"game {game.name!r}: State.view() is annotated {found!r}, not a View"
        )
    return found


class Host:
    """The bot side of one bot process: one bot at a time, built per match."""

    def __init__(
        self, bot_name: str, registry: Registry | None, load_error: str | None
    ) -> None:
        self.bot_name = bot_name
        self.registry = registry
        self.load_error = load_error
        self.bot: Bot | None = None
        self.view_cls: type[View] = View
        self._games: dict[str, tuple[Game, type[View]]] = {}

    def handle(self, message: dict[str, Any]) -> bytes | None:
        """Answer one message; ``None`` when it takes no answer."""
        kind = message.get("type")
        if kind == "act":
            return self.act(message["view"], message.get("seconds"))
        if kind == "start":
            return self.start(message)
        if kind == "end":
            self.end(message.get("result"))
            return None
        return _error(f"host: unknown message type {kind!r}")

    def start(self, message: dict[str, Any]) -> bytes:
        """Build the game (cached) and a fresh bot for this seat and match."""
        self.bot = None
        if self.load_error is not None:
            return _error(self.load_error)
        if message.get("protocol") != PROTOCOL_VERSION:
            return _error(
                f"host speaks protocol {PROTOCOL_VERSION}, "
                f"not {message.get('protocol')!r}"
            )
        assert self.registry is not None
        try:
            key = json.dumps([message["game"], message["game_options"]], sort_keys=True)
            if key not in self._games:
                game = self.registry.game(message["game"], message["game_options"])
                self._games[key] = (game, view_class(game))
            game, self.view_cls = self._games[key]
            cls = self.registry.bot_class(self.bot_name, game.name)
            self.bot = cls(
                game, message["seat"], message["seed"], message["bot_options"]
            )
        except Exception:
            return _error(_tail())
        return b'{"type":"ready"}\n'

    def act(self, data: dict[str, Any], seconds: float | None = None) -> bytes:
        """The bot's action for the view in ``data``, or its error.

        ``seconds`` is the decision's time limit when the request carries one:
        the bot hears it through ``act_within`` and may stop in time.
        """
        if self.bot is None:
            return _error("host: 'act' before a successful 'start'")
        try:
            view = self.view_cls(**{k: _tuples(v) for k, v in data.items()})
            action = (
                self.bot.act(view)
                if not isinstance(seconds, int | float)
                else self.bot.act_within(view, float(seconds))
            )
        except Exception:
            return _error(_tail())
        try:
            return encode_action(action)
        except (TypeError, ValueError):
            # Not JSON: send its repr, so the referee says what it was.
            return encode_message(
                {"type": "action", "action": {"repr": repr(action)[:80]}}
            )

    def end(self, result: dict[str, Any] | None) -> None:
        """Tell the bot the result; it is dropped before the next start."""
        bot, self.bot = self.bot, None
        if bot is not None and result is not None:
            try:
                bot.match_over(Result.from_dict({**result, "log": None}))
            except Exception:
                traceback.print_exc()


def main(argv: Sequence[str] | None = None) -> int:
    """Serve one bot until ``quit`` or the end of input."""
    parser = argparse.ArgumentParser(
        prog="python -m harness.bothost", description=__doc__.splitlines()[0]
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
    host = Host(args.bot, registry, load_error)
    with os.fdopen(proto_in, "rb") as reader:
        for line in reader:
            try:
                message = json.loads(line)
                if message.get("type") == "quit":
                    break
                answer = host.handle(message)
            except Exception:
                answer = _error("host: bad message: " + _tail())
            if answer is not None:
                _write(proto_out, answer)
    return 0


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _error(text: str) -> bytes:
    return encode_message({"type": "error", "message": text})


def _tail() -> str:
    try:
        return traceback.format_exc(limit=-8)
    except MemoryError:
        return f"{sys.exc_info()[0].__name__} (no memory left for the traceback)"  # type: ignore[union-attr]


def _tuples(value: Any) -> Any:
    if type(value) is list:
        return tuple([_tuples(v) if type(v) is list else v for v in value])
    return value


if __name__ == "__main__":
    sys.exit(main())
