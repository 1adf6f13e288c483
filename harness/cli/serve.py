"""``troef serve``: a local web server where a person plays at a drawn card table."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from harness.contracts.errors import ConfigError

if TYPE_CHECKING:
    from harness.plugins import Registry


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``serve`` command."""
    serve = sub.add_parser(
        "serve",
        help="play against bots at a card table in the browser; follow a "
        "tournament live",
        description="Serve a local web page where a person picks a game, options, "
        "seats and bots, and plays at a drawn table; every match is recorded in a "
        "database of its own (troef report and troef replay read it). With DB, the "
        "page /live follows that tournament's database as 'troef run' writes it: "
        "progress, standings with intervals, the SPRT's LLR, pairwise results and "
        "the latest matches (read-only on DB).",
    )
    serve.add_argument(
        "database",
        nargs="?",
        type=Path,
        metavar="DB",
        help="a tournament's SQLite file to follow live at /live (it may not "
        "exist yet)",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=int, default=8034, help="port to listen on (default 8034)"
    )
    serve.add_argument(
        "--results",
        type=Path,
        default=Path("troef-tables"),
        metavar="DIR",
        help="folder for each match's database (default ./troef-tables)",
    )
    serve.add_argument(
        "--pace",
        type=float,
        default=0.8,
        metavar="SECONDS",
        help="how long each bot's move is shown before the next (default 0.8)",
    )
    serve.set_defaults(run=_cmd_serve)


def _cmd_serve(registry: Registry, args: argparse.Namespace) -> int:
    from harness.serve.app import bound_socket, create_app, serve

    if args.pace < 0:
        raise ConfigError(f"--pace {args.pace}: expected 0 or more seconds")
    if not 0 <= args.port <= 65535:
        raise ConfigError(f"--port {args.port}: expected 0 to 65535")
    database = args.database
    if database is not None and database.suffix == ".toml" and database.is_file():
        raise ConfigError(
            f"DB {database}: a tournament config, not its results database; "
            "expected the SQLite file its 'database' key names"
        )
    try:
        sock = bound_socket(args.host, args.port)
    except OSError as exc:
        raise ConfigError(
            f"--host {args.host} --port {args.port}: cannot listen: {exc.strerror}"
        ) from None
    port = sock.getsockname()[1]
    page = "" if database is None else "live"
    print(f"troef serve: http://{args.host}:{port}/{page} (Ctrl-C stops)", flush=True)
    app = create_app(registry, results=args.results, pace=args.pace, watch=database)
    serve(app, sock)
    return 0
