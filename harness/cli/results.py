"""``troef status``, ``troef matches``, ``troef replay`` and ``troef export``: what
a results database holds, from its quick standings to one match told again and
every decision written out as training data."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.cli.common import format_arg, format_argument
from harness.contracts.errors import ConfigError, TroefError, close_names
from harness.report.tables import (
    forfeit_table,
    format_table,
    match_record,
    thinking_table,
)
from harness.tournament.executor_plugins import snapshot_registry

if TYPE_CHECKING:
    from harness.contracts.game import Game
    from harness.contracts.result import Result
    from harness.plugins import Registry


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``status``, ``replay`` and ``matches`` commands."""
    status = sub.add_parser(
        "status", help="progress and standings of a results database"
    )
    status.add_argument("database", help="a tournament's SQLite file")
    format_argument(status, "with csv: the standings table")
    status.set_defaults(run=_cmd_status)

    replay_cmd = sub.add_parser(
        "replay",
        help="tell a recorded match move by move",
        description="Replay a recorded match from its seed and stored action log and "
        "tell it as 'troef play' does: the referee's account, or with --seat N what "
        "seat N may hear of it.",
    )
    replay_cmd.add_argument("database", help="a tournament's SQLite file")
    replay_cmd.add_argument("match", help="job id (or a unique prefix) or plan index")
    replay_cmd.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help="tell seat N's account (counted from 0): no card or choice that seat "
        "could not know; default the referee's, every line",
    )
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
        type=format_arg,
        default="text",
        help="text (default), markdown, json or csv",
    )
    matches.set_defaults(run=_cmd_matches)

    export = sub.add_parser(
        "export",
        help="write every recorded decision as training data (JSON lines)",
        description="Replay every recorded match from its seed and log and write one "
        "JSON line per decision: its ids (match, index, game, options, seed, deal, "
        "step, seat, entrant, bot), the seat's view as the protocol sends it, the "
        "action taken and the match's final utility for that seat. Streamed: memory "
        "does not grow with the database. Needs keep_logs = true.",
    )
    export.add_argument("database", help="a tournament's SQLite file")
    export.add_argument(
        "--format",
        choices=EXPORT_FORMATS,
        default="jsonl",
        help="jsonl (default): one JSON object per line",
    )
    export.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write to FILE, whole or not at all (default, or -: standard output)",
    )
    export.add_argument(
        "--entrant", metavar="LABEL", help="only the decisions of this entrant's seats"
    )
    export.add_argument(
        "--bot", metavar="NAME", help="only the decisions of seats this bot played"
    )
    export.add_argument(
        "--seat", type=int, metavar="N", help="only the decisions of seat N (from 0)"
    )
    export.set_defaults(run=_cmd_export)


def _cmd_status(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.tournament.sprt import recorded_of_planned
    from harness.tournament.store import Store

    with Store.existing(args.database) as store:
        done, planned, monitor = recorded_of_planned(store)
        name = store.meta("name")
        forfeit_count = store.forfeit_count()
        forfeits = store.forfeits()
        thinking = store.thinking()
        void = [m for m in store.matches(void=True) if m.result.void is not None]
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
                    **({"void": len(void)} if void else {}),
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
    voided = f", {len(void)} void (the game raised)" if void else ""
    print(
        f"{name}: {done} of {planned} matches recorded, {forfeit_count} forfeits"
        + voided
    )
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
    if void:
        # Ruling (issue 29, item 2): a void match counts for nobody; said here,
        # with where to read why.
        print()
        for match in void[:5]:
            print((match.result.void or "").partition("\n")[0])
        more = f" (and {len(void) - 5} more)" if len(void) > 5 else ""
        print(
            f"{len(void)} void matches{more}, each with its traceback: "
            f"troef matches {args.database} --forfeits"
        )
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
            for match in store.matches(void=True)
            if (args.entrant is None or args.entrant in match.job["seating"])
            and (
                not args.forfeits
                or match.result.forfeit is not None
                or match.result.void is not None
            )
        ]
    if args.format == "json":
        print(json.dumps([match_record(job, result) for job, result in selected]))
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


#: ``troef export --format``: JSON lines, one decision each, for now.
EXPORT_FORMATS = ("jsonl",)


def _cmd_export(registry: Registry | None, args: argparse.Namespace) -> int:
    """``troef export``: every decision as a JSON line (``harness.report.dataset``).

    Ruling: the filters are by entrant, bot and seat; none by game, since a
    database holds one tournament of one game (its lines all say which). A
    summary goes to standard error, so standard output holds lines only.
    """
    from harness.report.dataset import Export, decision_lines
    from harness.tournament.store import Store

    counts = Export()
    with Store.existing(args.database) as store:
        snapshot = store.config_snapshot()
        _check_export_filters(args, snapshot)
        reg = snapshot_registry(snapshot)
        games: dict[str, Game] = {}

        def game_of(job: Mapping[str, Any]) -> Game:
            # One Game per option set (a tournament has one): built once.
            key = json.dumps([job["game"], job["options"]], sort_keys=True)
            if key not in games:
                games[key] = reg.game(job["game"], job["options"])
            return games[key]

        lines = decision_lines(
            store,
            game_of,
            entrant=args.entrant,
            bot=args.bot,
            seat=args.seat,
            counts=counts,
        )
        if args.output in (None, "-"):
            sys.stdout.writelines(lines)
            sys.stdout.flush()
        else:
            _write_whole(Path(args.output), lines)
    where = "standard output" if args.output in (None, "-") else args.output
    print(
        f"exported {counts.decisions} decisions of {counts.matches} matches to {where}",
        file=sys.stderr,
    )
    if counts.without_log:
        print(
            f"left out {counts.without_log} matches recorded without their log "
            "(keep_logs = false): they cannot be replayed",
            file=sys.stderr,
        )
    return 0


def _write_whole(path: Path, lines: Iterable[str]) -> None:
    """Write ``lines`` to ``path`` as they come.

    A regular file is written as ``path.partial`` and renamed at the end, so
    a file at ``path`` is always a whole export, even when a match fails to
    replay halfway through a long one. Anything else already there (a FIFO,
    ``/dev/null``) is written to directly: renaming over it would replace it.
    """
    if path.exists() and not path.is_file():
        _write_to(path, path, lines)
        return
    partial = path.with_name(path.name + ".partial")
    try:
        _write_to(path, partial, lines)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def _write_to(shown: Path, path: Path, lines: Iterable[str]) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.writelines(lines)
    except OSError as exc:
        raise TroefError(
            f"-o {shown}: cannot write the export: {exc.strerror}; give a file "
            "in a folder you may write to"
        ) from None


def _check_export_filters(args: argparse.Namespace, snapshot: dict[str, Any]) -> None:
    """A filter that names no entrant, bot or seat of the tournament is an error."""
    entrants = snapshot.get("entrants", {})
    if args.entrant is not None and args.entrant not in entrants:
        raise ConfigError(
            f"--entrant {args.entrant!r}: no such entrant; "
            f"{close_names(args.entrant, list(entrants))}"
        )
    bots = sorted({e.get("bot", "") for e in entrants.values()})
    if args.bot is not None and args.bot not in bots:
        raise ConfigError(
            f"--bot {args.bot!r}: no entrant plays that bot; "
            f"{close_names(args.bot, bots)}"
        )
    seats = snapshot.get("seats")
    if args.seat is not None and (
        args.seat < 0 or (isinstance(seats, int) and args.seat >= seats)
    ):
        top = "" if not isinstance(seats, int) else f" to {seats - 1}"
        raise ConfigError(f"--seat {args.seat}: no such seat; expected 0{top}")


def _forfeit_cell(seating: Sequence[str], result: Result) -> str:
    """``raiser: exception``, or empty when nobody forfeited."""
    f = result.forfeit
    if result.void is not None:
        return "void: game fault"
    return "" if f is None else f"{seating[f.seat]}: {f.reason.value}"


def _forfeit_details(
    selected: Sequence[tuple[dict[str, Any], Result]], *, markdown: bool
) -> list[str]:
    """Each forfeit's detail under a line naming its match (``--forfeits``)."""
    heading = "## " if markdown else ""
    lines = ["", f"{heading}Forfeit details (what 'troef replay' tells)"]
    for job, result in selected:
        forfeit = result.forfeit
        if result.void is not None:
            title = f"match {job['index']} ({job['id']}) is void: the game raised"
            detail = result.void.rstrip()
        elif forfeit is None:
            continue
        else:
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
    from harness.report.tables import standings_rows
    from harness.stats.standings import standings
    from harness.tournament.store import Store

    with Store.existing(database) as store:
        entrants = list(store.config_snapshot()["entrants"])
        rows = standings(
            entrants, ((m.job["seating"], m.result) for m in store.matches())
        )
    return standings_rows(rows, raw=raw)


def print_standings(database: str | Path) -> None:
    headers, rows = _standings_rows(database)
    print(format_table(headers, rows, colalign=_STANDINGS_ALIGN))


def _cmd_replay(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.match.referee import replay
    from harness.report.tables import result_table
    from harness.tournament.store import Store

    with Store.existing(args.database) as store:
        snapshot = store.config_snapshot()
        match = store.match(args.match)
    if match.result.void is not None:
        raise TroefError(
            f"match {match.job['id']} is void, it cannot be told: "
            f"{match.result.void.partition(chr(10))[0]}; its traceback: "
            f"troef matches {args.database} --forfeits"
        )
    if match.result.log is None:
        raise TroefError(
            f"match {match.job['id']} was recorded without its log (keep_logs = false)"
        )
    reg = snapshot_registry(snapshot)
    game = reg.game(match.job["game"], match.job["options"])
    seating = match.job["seating"]
    if args.seat is not None and not 0 <= args.seat < len(seating):
        raise ConfigError(
            f"--seat {args.seat}: no such seat at a table of {len(seating)}; "
            f"expected 0 to {len(seating) - 1}"
        )
    told = account(game, seating, match.job["seed"], match.result, seat=args.seat)
    for line in told:
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


def account(
    game: Game,
    labels: Sequence[str],
    seed: int,
    result: Result,
    *,
    seat: int | None = None,
) -> list[str]:
    """The match told move by move, replayed from its seed and log: the
    referee's account, or what ``seat`` may hear of it."""
    from harness.match.narration import Narrator

    assert result.log is not None
    narrator = Narrator(game, seed, labels, seat=seat)
    lines = narrator.start()
    for action in result.log:
        lines.extend(narrator.tell(action))
    if result.forfeit is not None:
        lines.append(narrator.forfeit(result.forfeit))
    return lines
