"""The ``troef`` command line: list games and bots, play a match, check a game."""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabulate import tabulate

from harness.config import load_config
from harness.conformance import check_game
from harness.errors import ConfigError, TroefError
from harness.game import Game
from harness.plan import plan
from harness.plugins import Registry, load_plugins
from harness.referee import make_bots, play_match, replay
from harness.report import result_table, standings_table
from harness.result import Result
from harness.scheduler import Interrupted, Progress, run_tournament
from harness.standings import standings
from harness.store import Store

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``troef`` console script; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        registry = (
            load_plugins(files=args.plugin, blocked=args.block)
            if args.command in _NEEDS_REGISTRY
            else None
        )
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
        description="A tournament harness for AI bots that play traditional card games.",
    )
    parser.add_argument(
        "--plugin", action="append", default=[], metavar="FILE",
        help="also load this plugin file (.py); may be repeated",
    )
    parser.add_argument(
        "--block", action="append", default=[], metavar="NAME",
        help="do not load the plugin of this entry-point name; may be repeated",
    )
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")

    games = sub.add_parser("games", help="list the games, their seats and options")
    games.set_defaults(run=_cmd_games)

    bots = sub.add_parser("bots", help="list the bots and the games they play")
    bots.set_defaults(run=_cmd_bots)

    play = sub.add_parser(
        "play", help="play one match and tell it move by move",
        description="Play one match of GAME and print an account a person can follow.",
    )
    play.add_argument("game", help="registry name of the game (see 'troef games')")
    play.add_argument(
        "--bots", required=True, metavar="A,B,...",
        help="bot names, one per seat in playing order, comma-separated",
    )
    play.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    play.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option, e.g. -o target=500; may be repeated",
    )
    play.add_argument(
        "--quiet", action="store_true", help="print only the result, not every move"
    )
    play.set_defaults(run=_cmd_play)

    check = sub.add_parser(
        "check", help="run the conformance suite on a game",
        description="Play random matches of GAME and check every contract of the "
        "design: conservation, clones, determinism, replay, views, information sets, "
        "duplicate deals. Exit status 1 when a check fails.",
    )
    check.add_argument("game", help="registry name of the game")
    check.add_argument("--matches", type=int, default=5, help="matches per seat count")
    check.add_argument("--seed", type=int, default=0, help="seed of the random matches")
    check.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option; may be repeated",
    )
    check.set_defaults(run=_cmd_check)

    run = sub.add_parser(
        "run", help="play a tournament from a config file",
        description="Play every planned match of the tournament that its database "
        "lacks, on a pool of worker processes, and print the standings. Killed or "
        "interrupted, run it again to resume.",
    )
    run.add_argument("config", help="tournament config (TOML)")
    run.add_argument("--workers", type=int, help="worker processes (default: the config's, else all cores)")
    run.add_argument("--fresh", action="store_true", help="delete the database and start afresh")
    run.add_argument("--quiet", action="store_true", help="no progress lines")
    run.set_defaults(run=_cmd_run)

    validate = sub.add_parser(
        "validate", help="check a tournament config and show its plan",
        description="Validate a tournament config without playing: every error names "
        "the file, line and key.",
    )
    validate.add_argument("config", help="tournament config (TOML)")
    validate.set_defaults(run=_cmd_validate)

    status = sub.add_parser("status", help="progress and standings of a results database")
    status.add_argument("database", help="a tournament's SQLite file")
    status.set_defaults(run=_cmd_status)

    replay_cmd = sub.add_parser(
        "replay", help="tell a recorded match move by move",
        description="Replay a recorded match from its seed and stored action log and "
        "tell it as 'troef play' does.",
    )
    replay_cmd.add_argument("database", help="a tournament's SQLite file")
    replay_cmd.add_argument("match", help="job id (or a unique prefix) or plan index")
    replay_cmd.set_defaults(run=_cmd_replay)
    return parser


_NEEDS_REGISTRY = {"games", "bots", "play", "check"}


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
    rows = []
    for name, cls in sorted(registry.games.items()):
        options = "\n".join(
            f"{o.name}={o.default!r} ({o.allowed()})" for o in cls.option_specs
        )
        seats = ",".join(str(n) for n in sorted(cls.seat_counts))
        if cls.partnerships:
            seats += " (partners)"
        rows.append([name, cls.title, seats, options or "-"])
    print(tabulate(rows, headers=["game", "title", "seats", "options (default)"]))
    return 0


def _cmd_bots(registry: Registry, args: argparse.Namespace) -> int:
    rows = []
    for name, cls in sorted(registry.bots.items()):
        games = "any" if cls.games is None else ", ".join(sorted(cls.games))
        options = ", ".join(f"{o.name}={o.default!r}" for o in cls.option_specs)
        rows.append([name, games, options or "-", registry.provider[("bot", name)]])
    print(tabulate(rows, headers=["bot", "games", "options", "plugin"]))
    return 0


def _cmd_play(registry: Registry, args: argparse.Namespace) -> int:
    game = registry.game(args.game, _parse_options(args.option))
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    game.check_seats(len(names))
    classes = [registry.bot_class(n, game.name) for n in names]
    bots = make_bots(game, classes, args.seed)
    result = play_match(game, bots, args.seed, keep_log=True)
    if not args.quiet:
        for line in account(game, len(names), args.seed, result):
            print(line)
        print()
    print(result_table(result, names))
    return 0


def account(game: Game, n_seats: int, seed: int, result: Result) -> list[str]:
    """The match told move by move, replayed from its seed and log."""
    assert result.log is not None
    state = game.new_match(n_seats, seed)
    lines = [f"{game.title}, seed {seed}, {n_seats} seats"]
    for action in result.log:
        lines.extend(state.narrate(action))
    if result.forfeit is not None:
        f = result.forfeit
        lines.append(f"seat {f.seat} forfeits ({f.reason.value}): {f.detail.strip()}")
    return lines


def _cmd_check(registry: Registry, args: argparse.Namespace) -> int:
    game = registry.game(args.game, _parse_options(args.option))
    report = check_game(game, matches=args.matches, seed=args.seed, raise_on_failure=False)
    print(report.summary())
    return 0 if report.passed else 1


def _cmd_run(registry: Registry | None, args: argparse.Namespace) -> int:
    config = load_config(args.config)
    progress = None if args.quiet else Progress()
    try:
        summary = run_tournament(config, workers=args.workers, fresh=args.fresh, progress=progress)
    except Interrupted as exc:
        print(f"troef: {exc}", file=sys.stderr)
        return 130
    if summary.played == 0:
        print(f"all {summary.planned} matches were already recorded in {config.database}")
    else:
        print(
            f"played {summary.played} matches in {summary.seconds:.1f}s "
            f"({summary.already_done} were already recorded; {summary.forfeits} forfeits)"
        )
    _print_standings(config.database)
    return 0


def _cmd_validate(registry: Registry | None, args: argparse.Namespace) -> int:
    config = load_config(args.config)
    jobs = plan(config)
    groups = len({job.group for job in jobs})
    print(f"{config.path}: valid")
    print(f"  game       {config.game} ({config.seats} seats) {dict(config.options)}")
    print(f"  format     {config.format}, {config.matches} match seeds, "
          f"{'duplicate deals' if config.duplicate else 'independent seeds'}")
    print(f"  entrants   {', '.join(f'{e.label} ({e.bot})' for e in config.entrants)}")
    if config.candidates:
        print(f"  candidates {', '.join(config.candidates)}")
    print(f"  plan       {len(jobs)} matches in {groups} groups")
    print(f"  database   {config.database}")
    return 0


def _cmd_status(registry: Registry | None, args: argparse.Namespace) -> int:
    with Store.existing(args.database) as store:
        done, planned = store.counts()
        print(f"{store.meta('name')}: {done} of {planned} matches recorded, "
              f"{store.forfeit_count()} forfeits")
    _print_standings(args.database)
    return 0


def _print_standings(database: str | Path) -> None:
    with Store.existing(database) as store:
        entrants = list(store.config_snapshot()["entrants"])
        rows = standings(entrants, ((m.job["seating"], m.result) for m in store.matches()))
    print(standings_table(rows))


def _cmd_replay(registry: Registry | None, args: argparse.Namespace) -> int:
    with Store.existing(args.database) as store:
        snapshot = store.config_snapshot()
        match = store.match(args.match)
    if match.result.log is None:
        raise TroefError(f"match {match.job['id']} was recorded without its log (keep_logs = false)")
    plugins = snapshot.get("plugins", [])
    reg = load_plugins(
        files=[p for p in plugins if p.endswith(".py")],
        modules=[p for p in plugins if not p.endswith(".py")],
    )
    game = reg.game(match.job["game"], match.job["options"])
    seating = match.job["seating"]
    for line in account(game, len(seating), match.job["seed"], match.result):
        print(line)
    again = replay(game, len(seating), match.job["seed"], match.result.log, forfeit=match.result.forfeit)
    if again != match.result:
        print("warning: replaying the log gives another result than the recorded one", file=sys.stderr)
    print()
    print(result_table(match.result, seating))
    return 0
