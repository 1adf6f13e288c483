"""``troef ladder add|run|standings``: an Elo-rated ladder."""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import TYPE_CHECKING

from harness.cli.common import (
    command_config,
    format_argument,
    option_argument,
    parse_options,
    workers_arg,
)
from harness.contracts.errors import ConfigError
from harness.report.tables import format_table

if TYPE_CHECKING:
    from harness.plugins import Registry
    from harness.tournament.ladder import Ladder


def add_parsers(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
) -> list[argparse.ArgumentParser]:
    """The ``ladder`` command and its own commands, which it returns."""
    ladder = sub.add_parser(
        "ladder", help="an Elo-rated ladder: add entrants, run rounds, standings"
    )
    lsub = ladder.add_subparsers(
        dest="ladder_command", title="ladder commands", metavar="COMMAND", required=True
    )
    ladd = lsub.add_parser("add", help="put a new entrant on the ladder")
    ladd.add_argument("config", help='ladder config (TOML, format = "ladder")')
    ladd.add_argument("label", help="the entrant's label")
    ladd.add_argument(
        "bot",
        nargs="?",
        default="",
        help="bot name (see 'troef bots'); none with --command",
    )
    option_argument(ladd, "a bot option")
    ladd.add_argument(
        "--file",
        metavar="PLUGIN.py",
        help="a plugin file with the bot (it runs in its own process)",
    )
    ladd.add_argument(
        "--command",
        dest="program",
        metavar="CMD",
        help="a bot program speaking the protocol, e.g. 'node bot.js' (own process)",
    )
    ladd.add_argument(
        "--isolation",
        choices=("process", "in-process"),
        help="how the bot runs (default: installed bots in-process, others isolated)",
    )
    ladd.set_defaults(run=_cmd_ladder_add)
    lrun = lsub.add_parser("run", help="play rounds")
    lrun.add_argument("config", help="ladder config (TOML)")
    lrun.add_argument(
        "--rounds", type=int, default=1, help="rounds to play (default 1)"
    )
    lrun.add_argument("--workers", type=workers_arg, help="worker processes")
    lrun.add_argument("--quiet", action="store_true", help="no progress lines")
    lrun.set_defaults(run=_cmd_ladder_run)
    lstand = lsub.add_parser("standings", help="online Elo standings")
    lstand.add_argument("config", help="ladder config (TOML)")
    format_argument(lstand)
    lstand.set_defaults(run=_cmd_ladder_standings)
    return list(lsub.choices.values())


def _cmd_ladder_add(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.tournament.ladder import Ladder

    with Ladder(command_config(args)) as ladder:
        if not args.bot and not args.program:
            raise ConfigError(
                "ladder add: give a bot name, or a program with --command"
            )
        entrant = ladder.add(
            args.label,
            args.bot,
            parse_options(args.option),
            plugin=args.file,
            command=shlex.split(args.program) if args.program else (),
            isolation=args.isolation,
        )
        print(
            f"{entrant.label} ({entrant.bot}) joins the ladder "
            f"from round {ladder.rounds_played() + 1}"
        )
    return 0


def _cmd_ladder_run(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.tournament.executor_config import check_executor
    from harness.tournament.ladder import Ladder
    from harness.tournament.progress import Progress
    from harness.tournament.scheduler import Interrupted

    config = command_config(args)
    check_executor(config)  # as `troef run`: before the database is made
    with Ladder(config) as ladder:
        try:
            rounds = ladder.run(
                args.rounds,
                workers=args.workers,
                progress=None if args.quiet else Progress(),
            )
        except Interrupted as exc:
            print(f"troef: {exc}", file=sys.stderr)
            return 130
        for r in rounds:
            tables = ", ".join(" v ".join(t) for t in r.tables)
            print(f"round {r.number}: {r.played} matches: {tables}")
        _print_ladder(ladder)
    return 0


def _cmd_ladder_standings(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.tournament.ladder import Ladder

    with Ladder(command_config(args)) as ladder:
        _print_ladder(ladder, args.format)
    return 0


def _print_ladder(ladder: Ladder, fmt: str = "text") -> None:
    elo = ladder.ratings()
    labels = sorted(
        (e.label for e in ladder.entrants()), key=lambda x: (-elo.rating(x), x)
    )
    rows = [
        [i, x, f"{elo.rating(x):.0f}", elo.games(x)] for i, x in enumerate(labels, 1)
    ]
    if fmt in ("text", "markdown"):
        print(f"{ladder.config.name}: {ladder.rounds_played()} rounds")
    print(format_table(["#", "entrant", "elo", "games"], rows, fmt))
