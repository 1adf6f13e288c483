"""The ``troef`` command line: list games and bots, play a match, check a game."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import signal
import sys
import textwrap
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import ConfigError, TroefError, close_names
from harness.contracts.options import show_renamed_options
from harness.match.conformance import DEFAULT_BUDGET, check_game
from harness.plugins import Registry
from harness.report.tables import (
    FORMATS,
    forfeit_table,
    format_table,
    notes,
    thinking_table,
)
from harness.tournament.config import RATING_MODELS, load_config
from harness.tournament.entrants import resolve_command
from harness.tournament.executor_config import MAX_WORKERS
from harness.tournament.executor_plugins import load_registry

if TYPE_CHECKING:
    from harness.contracts.bot import Bot
    from harness.contracts.game import Game
    from harness.contracts.result import Result
    from harness.tournament.config import TournamentConfig
    from harness.tournament.entrants import Entrant
    from harness.tournament.ladder import Ladder
    from harness.tournament.store import Store

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
            _warn(registry.warnings)
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

    games = sub.add_parser(
        "games",
        help="list the games; with NAME, one game's seats, options and variants",
        description="One line per game, fitted to the terminal (COLUMNS, else its "
        "width, else 80); with NAME, that game's team layouts, every option and "
        "each choice of its variants, one line each.",
    )
    games.add_argument("name", nargs="?", help="registry name of one game")
    games.set_defaults(run=_cmd_games)

    bots = sub.add_parser(
        "bots",
        help="list the bots and the games they play; with NAME, one bot's options",
        description="One line per bot, fitted to the terminal (COLUMNS, else its "
        "width, else 80); with NAME, that bot's games in full and its options.",
    )
    bots.add_argument("name", nargs="?", help="registry name of one bot")
    bots.set_defaults(run=_cmd_bots)

    play = sub.add_parser(
        "play",
        help="play one match and tell it move by move",
        description="Play one match of GAME and print an account a person can follow.",
    )
    play.add_argument("game", help="registry name of the game (see 'troef games')")
    play.add_argument(
        "--bots",
        metavar="A,B,...",
        help="one bot per seat in playing order (with --human, per other seat; "
        "default random), comma-separated: a bot name, "
        "with options as NAME:KEY=VALUE[:KEY=VALUE] (e.g. search:samples=8), "
        "or a program speaking the bot protocol as 'cmd:COMMAND LINE' "
        "(e.g. 'cmd:node bot.js'; its files are found from the working directory)",
    )
    play.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    play.add_argument(
        "--max-actions",
        type=int,
        metavar="N",
        help="stop the match as a draw after N actions (at most the game's own "
        "max_actions, the default)",
    )
    _option_argument(play, "a game option, e.g. -o target=500")
    play.add_argument(
        "--quiet", action="store_true", help="print only the result, not every move"
    )
    play.add_argument(
        "--show-hands",
        action="store_true",
        help="print every seat's hand at the start of each deal",
    )
    play.add_argument(
        "--human",
        type=int,
        metavar="SEAT",
        help="a person plays this seat (counted from 0) at the terminal: the hand "
        "sorted by suit, the trick, the table, the legal moves numbered",
    )
    play.set_defaults(run=_cmd_play)

    check = sub.add_parser(
        "check",
        help="run the conformance suite on a game",
        description="Play random matches of GAME and check every contract of the "
        "design: conservation, clones, determinism, replay, views, information sets, "
        "duplicate deals. By default the matches are short (the game's check "
        "options, a budget of actions per match); --full plays whole matches of the "
        "game's default options. Exit status 1 when a check fails.",
    )
    check.add_argument("game", help="registry name of the game")
    check.add_argument("--matches", type=int, default=5, help="matches per seat count")
    check.add_argument("--seed", type=int, default=0, help="seed of the random matches")
    length = check.add_mutually_exclusive_group()
    length.add_argument(
        "--full",
        action="store_true",
        help="whole matches with the game's default options, no budget (slow)",
    )
    length.add_argument(
        "--budget",
        type=int,
        metavar="N",
        help=f"actions after which a short match is cut (default {DEFAULT_BUDGET})",
    )
    _option_argument(check, "a game option (over the check options unless --full)")
    check.add_argument(
        "--quiet", action="store_true", help="no progress lines, only the summary"
    )
    check.set_defaults(run=_cmd_check)

    run = sub.add_parser(
        "run",
        help="play a tournament from a config file",
        description="Play every planned match of the tournament that its database "
        "lacks, on a pool of worker processes, and print the standings. Killed or "
        "interrupted, run it again to resume.",
    )
    run.add_argument("config", help="tournament config (TOML)")
    run.add_argument(
        "--workers",
        type=_workers_arg,
        help="worker processes (default: the config's, else all cores)",
    )
    run.add_argument(
        "--fresh", action="store_true", help="delete the database and start afresh"
    )
    run.add_argument("--quiet", action="store_true", help="no progress lines")
    run.set_defaults(run=_cmd_run)

    validate = sub.add_parser(
        "validate",
        help="check a tournament config and show its plan",
        description="Validate a tournament config without playing: every error names "
        "the file, line and key.",
    )
    validate.add_argument("config", help="tournament config (TOML)")
    validate.add_argument(
        "--probe",
        action="store_true",
        help="also start every process bot once and check its handshake",
    )
    validate.set_defaults(run=_cmd_validate)

    status = sub.add_parser(
        "status", help="progress and standings of a results database"
    )
    status.add_argument("database", help="a tournament's SQLite file")
    _format_argument(status, "with csv: the standings table")
    status.set_defaults(run=_cmd_status)

    replay_cmd = sub.add_parser(
        "replay",
        help="tell a recorded match move by move",
        description="Replay a recorded match from its seed and stored action log and "
        "tell it as 'troef play' does.",
    )
    replay_cmd.add_argument("database", help="a tournament's SQLite file")
    replay_cmd.add_argument("match", help="job id (or a unique prefix) or plan index")
    replay_cmd.set_defaults(run=_cmd_replay)

    matches = sub.add_parser(
        "matches",
        help="list the recorded matches of a database",
        description="One line per recorded match in plan order: its plan index "
        "and job id (what 'troef replay' takes), the seating, scores and ranks, "
        "and the forfeit if there was one.",
    )
    matches.add_argument("database", help="a tournament's SQLite file")
    matches.add_argument(
        "--entrant", metavar="LABEL", help="only the matches this entrant played"
    )
    matches.add_argument(
        "--forfeits",
        action="store_true",
        help="only the matches lost by forfeit, each with its detail (the bot's "
        "traceback or stderr tail) below the table; in JSON always",
    )
    matches.add_argument(
        "--format",
        type=_format_arg,
        default="text",
        help="text (default), markdown, json or csv",
    )
    matches.set_defaults(run=_cmd_matches)

    report = sub.add_parser(
        "report",
        help="ratings, crosstable and significance tests of a tournament",
        description="Fit Elo ratings with confidence intervals to every recorded match "
        "(maximum likelihood), and test every pair (paired tests on duplicate deals; "
        "Holm-corrected).",
    )
    report.add_argument("database", help="a tournament's SQLite file")
    report.add_argument(
        "--format",
        type=_format_arg,
        default="text",
        help="text (default), markdown, json or csv",
    )
    report.add_argument(
        "--table",
        type=_table_arg,
        help="standings, pairs, crosstable, forfeits or thinking: only this "
        "table, in every format (csv prints one table per stream: default "
        "standings)",
    )
    report.add_argument(
        "--anchor",
        metavar="ENTRANT",
        help="fix this entrant's rating (default: pool mean 0)",
    )
    report.add_argument(
        "--seat-advantage",
        action="store_true",
        help="fit and report the first seat's advantage",
    )
    report.add_argument(
        "--bootstrap",
        type=int,
        default=0,
        metavar="N",
        help="also percentile intervals from N bootstrap rounds "
        "resampling whole duplicate sets",
    )
    report.add_argument(
        "--seed", type=int, default=1, help="bootstrap seed (default 1)"
    )
    report.add_argument(
        "--html",
        metavar="DIR|FILE.html",
        help="also write an HTML report a browser opens offline: into the folder "
        "DIR (index.html, plotly.min.js once, one small file per replay), or, "
        "for a name ending in .html, as that one file with everything inline "
        "(plots, and a replay viewer for matches recorded with keep_logs)",
    )
    report.add_argument(
        "--replays",
        type=int,
        default=20,
        metavar="N",
        help="with --html: replay the first N matches recorded with logs "
        "(default 20; -1 for all)",
    )
    report.add_argument(
        "--model",
        choices=RATING_MODELS,
        help="rating model: pairwise results weighted 1/(k-1), or Plackett-Luce "
        "on whole rankings (default: the config's rating_model, else pairwise)",
    )
    report.set_defaults(run=_cmd_report)

    compare = sub.add_parser(
        "compare",
        help="compare the same entrants across tournaments",
        description="Rate each database, then show how the ratings of the entrants "
        "they share changed from the first to each later one, with intervals and "
        "p-values.",
    )
    compare.add_argument(
        "databases", nargs="+", help="two or more tournament databases"
    )
    compare.add_argument(
        "--same",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="treat entrant NEW of the later databases as OLD (a new version of a bot)",
    )
    _format_argument(compare)
    compare.add_argument(
        "--any-game",
        action="store_true",
        help="compare databases of different games or options (refused otherwise)",
    )
    compare.set_defaults(run=_cmd_compare)

    rate = sub.add_parser(
        "rate",
        help="rate any results file (CSV or PGN)",
        description="Fit Elo ratings with intervals to results played anywhere: a CSV "
        "with header white,black,result (1 / 0.5 / 0) or a PGN with White, Black and "
        "Result headers.",
    )
    rate.add_argument("file", help="results file (.csv or .pgn)")
    rate.add_argument("--anchor", metavar="NAME", help="fix this player's rating")
    rate.add_argument(
        "--anchor-rating",
        type=float,
        default=0.0,
        help="the anchor's rating (default 0)",
    )
    rate.add_argument(
        "--seat-advantage",
        action="store_true",
        help="fit White's (the first seat's) advantage",
    )
    rate.add_argument(
        "--bootstrap", type=int, default=0, metavar="N", help="also N bootstrap rounds"
    )
    rate.add_argument("--seed", type=int, default=1, help="bootstrap seed")
    _format_argument(rate, "with csv: the ratings table")
    rate.set_defaults(run=_cmd_rate)

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
    _option_argument(ladd, "a bot option")
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
    lrun.add_argument("--workers", type=_workers_arg, help="worker processes")
    lrun.add_argument("--quiet", action="store_true", help="no progress lines")
    lrun.set_defaults(run=_cmd_ladder_run)
    lstand = lsub.add_parser("standings", help="online Elo standings")
    lstand.add_argument("config", help="ladder config (TOML)")
    _format_argument(lstand)
    lstand.set_defaults(run=_cmd_ladder_standings)
    for command in [*sub.choices.values(), *lsub.choices.values()]:
        if command is not ladder:
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
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("troef")
    except PackageNotFoundError:
        return "(not installed)"


def _warn(warnings: Sequence[str]) -> None:
    for warning in warnings:
        print(f"troef: warning: {warning}", file=sys.stderr)


def _config(args: argparse.Namespace) -> TournamentConfig:
    """The command's config, with the command line's --plugin and --block."""
    config = load_config(args.config, plugins=args.plugin, blocked=args.block)
    _warn(config.warnings)
    return config


_NEEDS_REGISTRY = {"games", "bots", "play", "check"}


def _format_argument(parser: argparse.ArgumentParser, more: str = "") -> None:
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help=f"output format (default text){'; ' + more if more else ''}",
    )


def _option_argument(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"{what}; may be repeated",
    )


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise ConfigError(f"option {pair!r} is not KEY=VALUE (e.g. target=500)")
        try:
            options[key] = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            options[key] = text  # a bare word is a string
    return options


def _cmd_games(registry: Registry, args: argparse.Namespace) -> int:
    from harness.report.tables import game_detail, games_table, terminal_width

    width = terminal_width()
    if args.name is None:
        print(games_table(registry.games, width))
    else:
        cls = registry.game_class(args.name)
        print(game_detail(cls, registry.provider[("game", args.name)], width))
    return 0


def _cmd_bots(registry: Registry, args: argparse.Namespace) -> int:
    from harness.report.tables import bot_detail, bots_table, terminal_width

    width = terminal_width()
    if args.name is None:
        plugins = {name: registry.provider[("bot", name)] for name in registry.bots}
        print(bots_table(registry.bots, plugins, width))
    else:
        cls = registry.bot_class(args.name)
        print(bot_detail(cls, registry.provider[("bot", args.name)], width))
    return 0


def _cmd_play(registry: Registry, args: argparse.Namespace) -> int:
    from harness.isolation.botpool import ProcessPool
    from harness.match.narration import Narrator, seat_labels
    from harness.match.referee import abandon_bots, play_match
    from harness.report.model import result_table

    game = registry.game(args.game, _parse_options(args.option))
    game = game.with_max_actions(args.max_actions)
    if args.bots is None and args.human is None:
        raise ConfigError("play: give --bots (one per seat), or --human SEAT")
    specs = [b.strip() for b in (args.bots or "").split(",") if b.strip()]
    human = args.human
    if human is not None:
        if args.show_hands:
            raise ConfigError("play: --show-hands would show the person every hand")
        if args.bots is None:
            specs = ["random"] * (min(game.seat_counts) - 1)
        if not 0 <= human <= len(specs):
            raise ConfigError(
                f"--human {human}: no such seat at a table of {len(specs) + 1}; "
                f"expected 0 to {len(specs)}"
            )
        specs.insert(human, _HUMAN)
    game.check_seats(len(specs))
    names = [_spec_name(spec) for spec in specs]
    labels = seat_labels(names)
    pool = ProcessPool(max_idle=0)  # a command bot's process ends with the match
    others = [spec if spec != _HUMAN else "random" for spec in specs]
    bots = _play_bots(game, others, args.seed, registry, pool)
    if human is not None:
        from harness.match.human import HumanBot

        bots[human] = HumanBot(game, human, args.seed, labels=labels)
    narrator = Narrator(game, args.seed, labels, show_hands=args.show_hands)
    deck = frozenset(narrator.state.deck())

    def tell(action: str) -> None:
        if human is None:
            lines = narrator.tell(action)
        else:  # only what the person at the table saw
            from harness.match.human import redact, visible_cards

            before = visible_cards(narrator.state, human)
            lines = narrator.tell(action)
            after = visible_cards(narrator.state, human)
            lines = redact(lines, before, after, deck)
        for line in lines:
            print(line, flush=True)

    if not args.quiet:
        print("\n".join(narrator.start()), flush=True)
    try:
        result = play_match(
            game, bots, args.seed, keep_log=True, on_action=None if args.quiet else tell
        )
    except BaseException:
        abandon_bots(bots)
        raise
    if result.forfeit is not None:
        print(narrator.forfeit(result.forfeit))
    if result.forfeit is not None or not args.quiet:
        print()
    print(result_table(result, narrator.labels))
    if result.ended is not None:
        print(f"match ended by the referee: {result.ended}")
    return 0


_COMMAND_BOT = "cmd:"
_HUMAN = "human"


def _spec_name(spec: str) -> str:
    """A ``--bots`` entry's name: the bot's, or the command's program."""
    if spec.startswith(_COMMAND_BOT):
        words = shlex.split(spec[len(_COMMAND_BOT) :])
        return Path(words[-1] if words else "cmd").name
    return spec.split(":", 1)[0]


def _play_bots(
    game: Game, specs: Sequence[str], seed: int, registry: Registry, pool: Any
) -> list[Bot]:
    """One bot per ``--bots`` entry: a named bot with options, or a command."""
    from harness.contracts.seeding import bot_seed
    from harness.isolation.botprocess import ProcessSettings
    from harness.match.referee import make_bot
    from harness.tournament.botuser import ENV_USER, default_user, unreachable

    # A program bot is untrusted as in a tournament: under root it runs as
    # the default bot user, and one that user cannot run is refused.
    user = default_user()
    bots: list[Bot] = []
    for seat, spec in enumerate(specs):
        if spec.startswith(_COMMAND_BOT):
            words = shlex.split(spec[len(_COMMAND_BOT) :])
            if not words:
                raise ConfigError(f"--bots {spec!r}: give the command after 'cmd:'")
            # The config's rule, taken from where the user stands: the bot
            # process starts in an empty folder (issue 25, item 2).
            command = resolve_command(words, Path.cwd())
            problem = None if user in (None, "root") else unreachable(command, user)
            if problem is not None:
                raise ConfigError(
                    f"--bots {spec!r}: under root a program bot runs as {user!r}, "
                    f"which cannot run it: {problem}. Accepted: a program {user!r} "
                    f"can reach, {ENV_USER}=NAME for another user, or {ENV_USER}=root "
                    "to run it as root knowingly"
                )
            bots.append(
                ProcessSettings(command=command, user=user).bot(
                    game,
                    seat,
                    bot_seed(seed, seat),
                    None,
                    bot_name="cmd",
                    source=registry.source,
                    n_seats=len(specs),
                    pool=pool,
                )
            )
            continue
        name, _, rest = spec.partition(":")
        cls = registry.bot_class(name, game.name)
        options = _parse_options(rest.split(":") if rest else [])
        bots.append(make_bot(game, cls, seat, seed, options))
    return bots


def account(game: Game, labels: Sequence[str], seed: int, result: Result) -> list[str]:
    """The match told move by move, replayed from its seed and log."""
    from harness.match.narration import Narrator

    assert result.log is not None
    narrator = Narrator(game, seed, labels)
    lines = narrator.start()
    for action in result.log:
        lines.extend(narrator.tell(action))
    if result.forfeit is not None:
        lines.append(narrator.forfeit(result.forfeit))
    return lines


def _progress_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _format_arg(text: str) -> str:
    """``--format``: one of the report's formats (argparse reports the error)."""
    from harness.report.model import FORMATS

    if text not in FORMATS:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a format; expected one of {', '.join(FORMATS)}"
        )
    return text


def _table_arg(text: str) -> str:
    """``--table``: one of the report's tables (argparse reports the error)."""
    from harness.report.model import TABLES

    if text not in TABLES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a table; expected one of {', '.join(TABLES)}"
        )
    return text


def _workers_arg(text: str) -> int:
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


def _cmd_check(registry: Registry, args: argparse.Namespace) -> int:
    report = check_game(
        registry.game_class(args.game),
        options=_parse_options(args.option),
        full=args.full,
        budget=args.budget,
        matches=args.matches,
        seed=args.seed,
        raise_on_failure=False,
        progress=None if args.quiet else _progress_line,
    )
    print(report.summary())
    return 0 if report.passed else 1


def _cmd_run(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.tournament.executor_config import check_executor
    from harness.tournament.scheduler import Interrupted, Progress, run_tournament

    config = _config(args)
    if config.ladder is not None:
        raise ConfigError(
            f"{config.path} is a ladder; play it with 'troef ladder run {config.path}'"
        )
    progress = None if args.quiet else Progress()
    # Before the folder, the database or the lock file is made (run_tournament
    # checks it again for callers of its own).
    check_executor(config)
    if not config.database.parent.exists():
        # Ruling: a missing folder is made (owner-only), and said, not refused.
        print(f"troef: creating the folder {config.database.parent} for the database")
    try:
        summary = run_tournament(
            config,
            workers=args.workers,
            fresh=args.fresh,
            progress=progress,
        )
    except Interrupted as exc:
        # Leaving: a further Ctrl-C must not turn the exit into a traceback.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print(f"troef: {exc}", file=sys.stderr)
        return 130
    from harness.tournament.sprt import SprtMonitor

    monitor = summary.monitor if isinstance(summary.monitor, SprtMonitor) else None
    if summary.played == 0:
        print(
            f"nothing left to play: {summary.already_done} matches are recorded in "
            f"{config.database}"
            + (
                " and the SPRT has decided"
                if monitor is not None and monitor.done()
                else ""
            )
        )
    else:
        print(
            f"played {summary.played} matches in {summary.seconds:.1f}s "
            f"({summary.already_done} were already recorded; "
            f"{summary.forfeits} forfeits)"
        )
    _print_standings(config.database)
    if monitor is not None:
        print()
        print(monitor.verdict().describe())
    print(
        "\nratings with intervals and significance tests: "
        f"troef report {config.database}"
    )
    return 0


def _cmd_validate(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.tournament.botuser import check_entrants
    from harness.tournament.executor_config import check_executor, describe_executor
    from harness.tournament.plan import MAX_PLANNED, plan, planned_count, planned_groups
    from harness.tournament.scheduler import probe_entrants

    config = _config(args)
    # Counted, not built: validate answers at once whatever the size.
    planned = planned_count(config)
    if planned > MAX_PLANNED:
        plan(config)  # raises the error that names the bound
    groups = planned_groups(config)
    # Before "valid": a bot its user cannot run is an error naming the path,
    # an executor whose package is missing one naming the key and the install.
    check_entrants(config)
    check_executor(config)
    users = ", ".join(
        f"{e.label} as {e.process.user}"
        for e in config.entrants
        if e.process is not None and e.process.user is not None
    )
    print(f"{config.path}: valid")
    print(f"  game       {config.game} ({config.seats} seats) {dict(config.options)}")
    print(
        f"  format     {config.format}, {config.matches} match seeds, "
        f"{'duplicate deals' if config.duplicate else 'independent seeds'}"
    )
    for e in config.entrants:
        what = e.bot or " ".join(e.process.command if e.process else ())
        clock = ""
        if e.time_control is not None:
            parts = [
                f"{k} {v:g}s" for k, v in vars(e.time_control).items() if v is not None
            ]
            clock = ", time " + " ".join(parts)
        print(f"  entrant    {e.label}: {what} ({e.isolation}{clock})")
    if config.candidates:
        print(f"  candidates {', '.join(config.candidates)}")
    print(f"  plan       {planned} matches in {groups} groups")
    print(f"  database   {config.database}")
    print(f"  executor   {describe_executor(config)}")
    print(f"  seed       {_seed_note(config)}")
    for line in isolation_notes(config):
        print(f"  isolation  {line}")
    if users:
        print(f"  users      each can run its bot: {users}")
    if args.probe:
        probe_entrants(config, users_checked=True)
        probed = sum(e.process is not None for e in config.entrants)
        print(f"  probe      {probed} process bots started and answered 'ready'")
    return 0


def _seed_note(config: TournamentConfig) -> str:
    if not config.seed_given:
        return "random (63 bits, drawn when the database is created and kept in it)"
    return str(config.seed)


def isolation_notes(config: TournamentConfig) -> list[str]:
    """Per entrant: the user its bot runs as and what that protects (``validate``)."""
    root = os.geteuid() == 0
    notes = []
    for e in config.entrants:
        if e.process is None:
            notes.append(
                f"{e.label}: in-process: trusted code; it can read the referee's "
                "State, the seeds and every file the harness can"
            )
            continue
        p = e.process
        if p.user is None:
            parts = [
                f"{e.label}: own process as the harness's user ({_my_name()})",
                _SAME_USER,
            ]
        else:
            parts = [f"{e.label}: own process as {p.user} ({_user_origin(config, e)})"]
            if root and p.user == "root":
                parts.append(
                    "AS ROOT: it can read the harness's memory and files through "
                    "/proc, every file and signal every process; give it another "
                    'user (e.g. user = "nobody")'
                )
            elif _same_user(p.user):
                parts.append(_SAME_USER)
            else:
                parts.append(
                    "another user: it cannot signal or trace the harness, nor read "
                    "its owner-only files (the database; the config if chmod 600); "
                    "it reads what is world-readable"
                )
        parts.append(
            "sandbox prefix: "
            + (" ".join(p.prefix[:3]) + " ..." if p.prefix else "none")
        )
        notes.append("; ".join(parts))
    return notes


def _user_origin(config: TournamentConfig, entrant: Entrant) -> str:
    """Where an entrant's user comes from, for ``validate``."""
    from harness.tournament.botuser import ENV_USER

    spec = config.raw.get("entrants", {}).get(entrant.label, {})
    if isinstance(spec, dict) and "user" in spec:
        return f"its user = {spec['user']!r}"
    if "user" in config.raw:
        return f"the config's user = {config.raw['user']!r}"
    if os.environ.get(ENV_USER):
        return f"${ENV_USER}"
    return "the default for untrusted bots under root"


_SAME_USER = (
    "same user: it cannot read the harness's memory (non-dumpable), but it can "
    "signal the harness and read every file of the user, the owner-only config "
    "and database included"
)


def _same_user(user: str) -> bool:
    import pwd

    try:
        return pwd.getpwnam(user).pw_uid == os.geteuid()
    except KeyError:
        return False


def _my_name() -> str:
    import pwd

    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return f"uid {os.geteuid()}"


def _cmd_status(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.tournament.sprt import SprtMonitor
    from harness.tournament.store import Store

    with Store.existing(args.database) as store:
        done, planned = store.counts()
        monitor = SprtMonitor.from_store(store)
        if monitor is not None and monitor.done():
            # A decided SPRT plays no more: its plan is a bound, not a target.
            planned = done
        name = store.meta("name")
        forfeit_count = store.forfeit_count()
        forfeits = store.forfeits()
        thinking = store.thinking()
    fmt = args.format
    headers, rows = _standings_rows(args.database, raw=fmt in ("json", "csv"))
    if fmt == "json":
        print(
            json.dumps(
                {
                    "name": name,
                    "recorded": done,
                    "planned": planned,
                    "forfeits": forfeit_count,
                    "standings": [dict(zip(headers, r, strict=True)) for r in rows],
                    "sprt": None
                    if monitor is None
                    else dataclasses.asdict(monitor.verdict()),
                    "forfeits_by_reason": json.loads(forfeit_table(forfeits, fmt)),
                    "thinking": json.loads(thinking_table(thinking, fmt)),
                },
                default=str,
            )
        )
        return 0
    if fmt == "csv":
        print(format_table(headers, rows, fmt))
        return 0
    print(f"{name}: {done} of {planned} matches recorded, {forfeit_count} forfeits")
    print(format_table(headers, rows, fmt, colalign=_STANDINGS_ALIGN))
    if monitor is not None:
        print()
        print(monitor.verdict().describe())
    if forfeits:
        print()
        print(forfeit_table(forfeits, fmt))
    if thinking:
        print()
        print(thinking_table(thinking, fmt))
    return 0


def _cmd_matches(registry: Registry | None, args: argparse.Namespace) -> int:
    """``troef matches``: one row per recorded match, typed in JSON.

    Ruling: JSON carries numbers as numbers and lists as lists, and a forfeit
    as an object with its detail (the traceback or stderr tail the store
    keeps, what ``troef replay`` tells); text and Markdown with ``--forfeits``
    add each forfeit's detail below the table, since that is what the
    forfeit hint of ``status`` and ``report`` sends a reader to see; CSV keeps
    its one flat row per match.
    """
    from harness.tournament.store import Store

    with Store.existing(args.database) as store:
        entrants = list(store.config_snapshot().get("entrants", {}))
        if args.entrant is not None and args.entrant not in entrants:
            raise ConfigError(
                f"--entrant {args.entrant!r}: no such entrant; "
                f"{close_names(args.entrant, entrants)}"
            )
        selected = [
            (match.job, match.result)
            for match in store.matches()
            if (args.entrant is None or args.entrant in match.job["seating"])
            and (not args.forfeits or match.result.forfeit is not None)
        ]
    if args.format == "json":
        print(json.dumps([_match_record(job, result) for job, result in selected]))
        return 0
    headers = ["index", "job id", "seating", "scores", "ranks", "forfeit"]
    rows = [
        [
            job["index"],
            job["id"],
            " ".join(job["seating"]),
            " ".join(map(str, result.scores)),
            " ".join(map(str, result.ranks)),
            _forfeit_cell(job["seating"], result),
        ]
        for job, result in selected
    ]
    if not rows and args.format == "text":
        print("no recorded match is selected")
        return 0
    print(format_table(headers, rows, args.format))
    if args.forfeits and args.format in ("text", "markdown"):
        for line in _forfeit_details(selected, markdown=args.format == "markdown"):
            print(line)
    return 0


def _forfeit_cell(seating: Sequence[str], result: Result) -> str:
    """``raiser: exception``, or empty when nobody forfeited."""
    f = result.forfeit
    return "" if f is None else f"{seating[f.seat]}: {f.reason.value}"


def _match_record(job: dict[str, Any], result: Result) -> dict[str, Any]:
    """One match of ``troef matches --format json``: typed, the forfeit whole."""
    seating = job["seating"]
    forfeit = result.forfeit
    return {
        "index": job["index"],
        "job id": job["id"],
        "seating": list(seating),
        "scores": list(result.scores),
        "ranks": list(result.ranks),
        "forfeit": None
        if forfeit is None
        else {
            "entrant": seating[forfeit.seat],
            "seat": forfeit.seat,
            "reason": forfeit.reason.value,
            "detail": forfeit.detail,
        },
    }


def _forfeit_details(
    selected: Sequence[tuple[dict[str, Any], Result]], *, markdown: bool
) -> list[str]:
    """Each forfeit's detail under a line naming its match (``--forfeits``)."""
    heading = "## " if markdown else ""
    lines = ["", f"{heading}Forfeit details (what 'troef replay' tells)"]
    for job, result in selected:
        forfeit = result.forfeit
        if forfeit is None:
            continue
        who = job["seating"][forfeit.seat]
        title = (
            f"match {job['index']} ({job['id']}): {who} in seat {forfeit.seat} "
            f"forfeits ({forfeit.reason.value})"
        )
        detail = forfeit.detail.rstrip() or "(no detail recorded)"
        if markdown:
            lines += ["", f"### {title}", "", "```", detail, "```"]
        else:
            lines += ["", title, textwrap.indent(detail, "    ")]
    return lines if len(lines) > 2 else []


_STANDINGS_ALIGN = ("right", "left", *["right"] * 6)


def _standings_rows(
    database: str | Path, *, raw: bool = False
) -> tuple[list[str], list[list[Any]]]:
    """The quick standings of a database: counted, not fitted (see report)."""
    from harness.report.model import standings_rows
    from harness.stats.standings import standings
    from harness.tournament.store import Store

    with Store.existing(database) as store:
        entrants = list(store.config_snapshot()["entrants"])
        rows = standings(
            entrants, ((m.job["seating"], m.result) for m in store.matches())
        )
    return standings_rows(rows, raw=raw)


def _print_standings(database: str | Path) -> None:
    headers, rows = _standings_rows(database)
    print(format_table(headers, rows, colalign=_STANDINGS_ALIGN))


def _cmd_replay(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.match.referee import replay
    from harness.report.model import result_table
    from harness.tournament.store import Store

    with Store.existing(args.database) as store:
        snapshot = store.config_snapshot()
        match = store.match(args.match)
    if match.result.log is None:
        raise TroefError(
            f"match {match.job['id']} was recorded without its log (keep_logs = false)"
        )
    plugins = snapshot.get("plugins", [])
    reg = load_registry(
        files=[p for p in plugins if p.endswith(".py")],
        modules=[p for p in plugins if not p.endswith(".py")],
    )
    game = reg.game(match.job["game"], match.job["options"])
    seating = match.job["seating"]
    for line in account(game, seating, match.job["seed"], match.result):
        print(line)
    again = replay(
        game,
        len(seating),
        match.job["seed"],
        match.result.log,
        forfeit=match.result.forfeit,
    )
    if again != match.result:
        print(
            "warning: replaying the log gives another result than the recorded one",
            file=sys.stderr,
        )
    print()
    print(result_table(match.result, seating))
    return 0


def _stored_matches(store: Store) -> list[tuple[list[str], Result, str | None]]:
    return [(m.job["seating"], m.result, m.job["group"]) for m in store.matches()]


def _cmd_report(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.report.model import RunFacts, build_report, render
    from harness.tournament.sprt import SprtMonitor
    from harness.tournament.store import Store

    with Store.existing(args.database) as store:
        snapshot = store.config_snapshot()
        matches = _stored_matches(store)
        title = store.meta("name") or str(args.database)
        forfeits = store.forfeits()
        thinking = store.thinking()
        monitor = SprtMonitor.from_store(store)
    if not matches:
        raise TroefError(f"{args.database} holds no results yet")
    entrants = list(snapshot.get("entrants", {}))
    if args.anchor is not None and args.anchor not in entrants:
        raise ConfigError(
            f"--anchor {args.anchor!r}: no such entrant; "
            f"{close_names(args.anchor, entrants)}"
        )
    model = args.model or snapshot.get("rating_model", "pairwise")
    if model == "plackett-luce" and args.seat_advantage:
        raise ConfigError(
            "--seat-advantage: the Plackett-Luce model fits no seat advantage; "
            "accepted with --model pairwise"
        )
    report = build_report(
        title,
        matches,
        entrants=entrants,
        anchor=args.anchor,
        duplicate=bool(snapshot.get("duplicate", True)),
        seat_advantage=args.seat_advantage,
        bootstrap=args.bootstrap,
        seed=args.seed,
        model=model,
        run=RunFacts(
            forfeits=forfeits,
            thinking=thinking,
            sprt=None if monitor is None else monitor.verdict().describe(),
        ),
    )
    if args.html is not None:
        index = _write_html(args, report, snapshot)
        print(f"HTML report: {index}", file=sys.stderr)
    print(render(report, args.format, args.table))
    return 0


def _write_html(
    args: argparse.Namespace, report: Any, snapshot: dict[str, Any]
) -> Path:
    """``troef report --html DIR|FILE.html``: the report, plots and replays."""
    from harness.report.html import HtmlInputs, write_html_report
    from harness.tournament.store import Store

    with Store.existing(args.database) as store:
        stored = list(store.matches())
        source = store.meta("source")
        master_seed = store.meta("master_seed")
    plugins = snapshot.get("plugins", [])
    reg = load_registry(
        files=[p for p in plugins if p.endswith(".py")],
        modules=[p for p in plugins if not p.endswith(".py")],
    )
    inputs = HtmlInputs(
        snapshot=snapshot,
        matches=stored,
        game_of=lambda job: reg.game(job["game"], job["options"]),
        replays=None if args.replays < 0 else args.replays,
        # The config's paths were made absolute from the folder of the config
        # as the run named it; a relative name is taken from here, as it was.
        config_folder=None if source is None else Path(os.path.abspath(source)).parent,
        master_seed=None if master_seed is None else int(master_seed),
    )
    return write_html_report(Path(args.html), report, inputs)


def _cmd_compare(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.report.model import comparison_table
    from harness.stats import ratings as rt
    from harness.tournament.store import Store

    if len(args.databases) < 2:
        raise ConfigError("compare needs at least two databases")
    renames: dict[str, str] = {}
    for pair in args.same:
        old, sep, new = pair.partition("=")
        if not sep:
            raise ConfigError(f"--same {pair!r} is not OLD=NEW")
        renames[new] = old
    fits = []
    games: dict[str, str] = {}
    for path in args.databases:
        with Store.existing(path) as store:
            snapshot = store.config_snapshot()
            games[path] = json.dumps(
                [snapshot.get("game"), snapshot.get("options", {})], sort_keys=True
            )
            matches = [
                ([renames.get(x, x) for x in seating], result, group)
                for seating, result, group in _stored_matches(store)
            ]
        fits.append(
            (Path(path).stem, rt.fit_ratings(rt.pair_results_from_matches(matches)))
        )
    if len(set(games.values())) > 1 and not args.any_game:
        played = "; ".join(f"{path}: {game}" for path, game in games.items())
        raise ConfigError(
            "the databases are of different games or game options, so their "
            f"ratings are on different scales ({played}); pass --any-game to "
            "compare them anyway"
        )
    common = sorted(set.intersection(*(set(fit.names) for _, fit in fits)))
    if not common:
        raise TroefError(
            "the databases share no entrant; use --same OLD=NEW for renamed bots"
        )
    print(comparison_table(fits, common, args.format))
    return 0


def _cmd_rate(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.report.results_io import read_results
    from harness.stats import ratings as rt

    data = read_results(args.file, groups=args.bootstrap > 0)
    fit = rt.fit_ratings(
        data.table(),
        anchor=args.anchor,
        anchor_rating=args.anchor_rating,
        seat_advantage=args.seat_advantage,
    )
    boot = (
        rt.bootstrap_ratings(
            data.results,
            rounds=args.bootstrap,
            seed=args.seed,
            anchor=args.anchor,
            anchor_rating=args.anchor_rating,
            seat_advantage=args.seat_advantage,
        )
        if args.bootstrap
        else None
    )
    headers = ["#", "name", "elo", "95% interval", "games", "score %", "notes"]
    if boot is not None:
        headers.insert(4, f"bootstrap ({args.bootstrap})")
    rows = []
    for rank, line in enumerate(fit.ratings, 1):
        row = [
            rank,
            line.entrant,
            f"{line.rating:.1f}",
            f"[{line.lower:.1f}, {line.upper:.1f}]",
            line.games,
            f"{100 * line.score:.1f}",
            ", ".join(f.value for f in line.flags),
        ]
        if boot is not None:
            b = boot[line.entrant]
            row.insert(4, f"[{b.lower:.1f}, {b.upper:.1f}]")
        rows.append(row)
    if args.format in ("json", "csv"):
        headers = ["rank", "name", "elo", "lower", "upper", "games", "score", "flags"]
        rows = [
            [
                rank,
                line.entrant,
                line.rating,
                line.lower,
                line.upper,
                line.games,
                line.score,
                ";".join(f.value for f in line.flags),
            ]
            for rank, line in enumerate(fit.ratings, 1)
        ]
        if boot is not None:
            headers += ["bootstrap_lower", "bootstrap_upper"]
            for row, line in zip(rows, fit.ratings, strict=True):
                row += [boot[line.entrant].lower, boot[line.entrant].upper]
    if args.format == "json":
        advantage = None
        if fit.seat_advantage is not None and fit.seat_advantage_interval:
            lo, hi = fit.seat_advantage_interval
            advantage = {"elo": fit.seat_advantage, "lower": lo, "upper": hi}
        print(
            json.dumps(
                {
                    "file": str(args.file),
                    "games": len(data),
                    "skipped": data.skipped,
                    "ratings": json.loads(format_table(headers, rows, "json")),
                    "first_seat_advantage": advantage,
                    "notes": list(fit.notes),
                }
            )
        )
        return 0
    if args.format == "csv":
        print(format_table(headers, rows, "csv"))
        return 0
    print(f"{args.file}: {len(data)} games ({data.skipped} skipped)")
    print(format_table(headers, rows, args.format))
    if fit.seat_advantage is not None and fit.seat_advantage_interval is not None:
        lo, hi = fit.seat_advantage_interval
        print(
            f"first seat (White) advantage: {fit.seat_advantage:+.1f} "
            f"[{lo:+.1f}, {hi:+.1f}]"
        )
    for note in notes(fit.notes):
        print(note)
    return 0


def _cmd_ladder_add(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.tournament.ladder import Ladder

    with Ladder(_config(args)) as ladder:
        if not args.bot and not args.program:
            raise ConfigError(
                "ladder add: give a bot name, or a program with --command"
            )
        entrant = ladder.add(
            args.label,
            args.bot,
            _parse_options(args.option),
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
    from harness.tournament.ladder import Ladder
    from harness.tournament.scheduler import Interrupted, Progress

    with Ladder(_config(args)) as ladder:
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

    with Ladder(_config(args)) as ladder:
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
