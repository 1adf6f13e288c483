"""The ``troef`` command line: list games and bots, play a match, check a game.

This module is the entry point (``main``) and the top-level parser; each
command group is a module of its own, next to its flags (``add_parsers``):
``listing`` (games, bots), ``play`` (play, check), ``run`` (run, validate),
``results`` (status, matches, replay, export), ``reports`` (report, compare, rate),
``ladder``; ``common`` holds what they share."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from harness.cli import ladder, listing, play, reports, results, run, serve
from harness.cli.common import warn
from harness.contracts.errors import TroefError
from harness.contracts.options import show_renamed_options
from harness.tournament.executor_plugins import load_registry

# Each command imports what it needs when it runs: numpy and scipy (ratings,
# reports) and the process machinery (runs) cost a second of start-up that
# `troef games` or `troef --help` should not pay.

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``troef`` console script; returns the exit status."""
    show_renamed_options()  # an old option spelling: "troef: warning: ..."
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    # --plugin and --block may come before or after the command.
    args.plugin = [*args.plugin, *getattr(args, "late_plugin", [])]
    args.block = [*args.block, *getattr(args, "late_block", [])]
    try:
        registry = None
        if args.command in _NEEDS_REGISTRY:
            registry = load_registry(files=args.plugin, blocked=args.block)
            warn(registry.warnings)
        return int(args.run(registry, args))
    except TroefError as exc:
        print(f"troef: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("troef: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `troef play ... | head`
        sys.stderr.close()
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="troef",
        description=(
            "A tournament harness for AI bots that play traditional card games."
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    _plugin_arguments(parser, "")
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    listing.add_parsers(sub)
    play.add_parsers(sub)
    run.add_parsers(sub)
    results.add_parsers(sub)
    reports.add_parsers(sub)
    serve.add_parsers(sub)
    ladder_commands = ladder.add_parsers(sub)
    for command in [*sub.choices.values(), *ladder_commands]:
        if command is not sub.choices["ladder"]:
            _plugin_arguments(command, "late_")
    return parser


def _plugin_arguments(parser: argparse.ArgumentParser, prefix: str) -> None:
    parser.add_argument(
        "--plugin",
        dest=f"{prefix}plugin",
        action="append",
        default=[],
        metavar="FILE",
        help="also load this plugin file (.py); may be repeated",
    )
    parser.add_argument(
        "--block",
        dest=f"{prefix}block",
        action="append",
        default=[],
        metavar="NAME",
        help="do not load the plugin of this entry-point name; may be repeated",
    )


def _version() -> str:
    """The distribution's version and which build of the game kit runs."""
    from importlib.metadata import PackageNotFoundError, version

    from harness.cli.compiled import build_kind

    try:
        number = version("troef")
    except PackageNotFoundError:
        number = "(not installed)"
    return f"{number}, {build_kind()}"


_NEEDS_REGISTRY = {"games", "bots", "play", "check", "serve"}
