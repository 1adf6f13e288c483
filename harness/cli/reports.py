"""``troef report``, ``troef compare`` and ``troef rate``: ratings and tests of
one tournament, of several, or of any results file."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.cli.common import format_arg, format_argument
from harness.contracts.errors import ConfigError, TroefError, close_names
from harness.report.tables import format_table, notes
from harness.tournament.config import RATING_MODELS
from harness.tournament.executor_plugins import snapshot_registry

if TYPE_CHECKING:
    from harness.contracts.result import Result
    from harness.plugins import Registry
    from harness.tournament.store import Store


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``report``, ``compare`` and ``rate`` commands."""
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
        type=format_arg,
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
    format_argument(compare)
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
    format_argument(rate, "with csv: the ratings table")
    rate.set_defaults(run=_cmd_rate)


def _table_arg(text: str) -> str:
    """``--table``: one of the report's tables (argparse reports the error)."""
    from harness.report.render import TABLES

    if text not in TABLES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a table; expected one of {', '.join(TABLES)}"
        )
    return text


def _stored_matches(store: Store) -> list[tuple[list[str], Result, str | None]]:
    return [(m.job["seating"], m.result, m.job["group"]) for m in store.matches()]


def _cmd_report(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.report.model import stored_report
    from harness.report.render import render
    from harness.tournament.store import Store

    with Store.existing(args.database) as store:
        snapshot = store.config_snapshot()
        void = store.void_count()
        if void:
            # On stderr: the report itself (JSON, CSV) stays what it was.
            print(
                f"troef: note: {void} recorded matches are void (the game raised) "
                f"and count for nobody; 'troef status {args.database}' names them",
                file=sys.stderr,
            )
        if store.counts()[0] == void:
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
        report = stored_report(
            store,
            title=store.meta("name") or str(args.database),
            anchor=args.anchor,
            model=model,
            seat_advantage=args.seat_advantage,
            bootstrap=args.bootstrap,
            seed=args.seed,
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
    reg = snapshot_registry(snapshot)
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
    from harness.report.compare import comparison_table
    from harness.stats import ratings as rt
    from harness.stats.ratings_pairwise import fit_ratings
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
            (Path(path).stem, fit_ratings(rt.pair_results_from_matches(matches)))
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
    from harness.stats.ratings_bootstrap import bootstrap_ratings
    from harness.stats.ratings_pairwise import fit_ratings

    data = read_results(args.file, groups=args.bootstrap > 0)
    fit = fit_ratings(
        data.table(),
        anchor=args.anchor,
        anchor_rating=args.anchor_rating,
        seat_advantage=args.seat_advantage,
    )
    boot = (
        bootstrap_ratings(
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
