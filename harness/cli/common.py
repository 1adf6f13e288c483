"""What the command modules share: the config a command reads, the common
flags (``--format``, ``-o``, ``--workers``) and their checks, warnings."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from harness.contracts.options import parse_options
from harness.report.tables import FORMATS
from harness.tournament.config import load_config
from harness.tournament.executor_config import MAX_WORKERS

__all__ = [
    "command_config",
    "format_argument",
    "option_argument",
    "parse_options",
    "warn",
]

if TYPE_CHECKING:
    from harness.tournament.config import TournamentConfig


def warn(warnings: Sequence[str]) -> None:
    for warning in warnings:
        print(f"troef: warning: {warning}", file=sys.stderr)


def command_config(args: argparse.Namespace) -> TournamentConfig:
    """The command's config, with the command line's --plugin and --block."""
    config = load_config(args.config, plugins=args.plugin, blocked=args.block)
    warn(config.warnings)
    return config


def format_argument(parser: argparse.ArgumentParser, more: str = "") -> None:
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help=f"output format (default text){'; ' + more if more else ''}",
    )


def option_argument(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"{what}; may be repeated",
    )


def format_arg(text: str) -> str:
    """``--format``: one of the report's formats (argparse reports the error)."""
    from harness.report.render import FORMATS

    if text not in FORMATS:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a format; expected one of {', '.join(FORMATS)}"
        )
    return text


def workers_arg(text: str) -> int:
    """``--workers``: an integer from 1 to MAX_WORKERS (argparse reports the error)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not allowed; expected an integer from 1 to {MAX_WORKERS}"
        )
    return value
