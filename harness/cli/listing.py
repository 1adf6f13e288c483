"""``troef games`` and ``troef bots``: what the registry holds."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from harness.contracts.errors import ConfigError

if TYPE_CHECKING:
    from harness.plugins import Registry


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``games`` and ``bots`` commands."""
    games = sub.add_parser(
        "games",
        help="list the games; with NAME, one game's seats, options and variants",
        description="One line per game, fitted to the terminal (COLUMNS, else its "
        "width, else 80); with NAME, that game's team layouts, every option and "
        "each choice of its variants, one line each.",
    )
    games.add_argument("name", nargs="?", help="registry name of one game")
    games.add_argument(
        "--view",
        action="store_true",
        help="with NAME: the bot author's reference, in Markdown: the game's moves, "
        "its view's fields with their meaning and example values, its options "
        "and its cards (docs/games/NAME.md for the built-in games)",
    )
    games.set_defaults(run=_cmd_games)

    bots = sub.add_parser(
        "bots",
        help="list the bots and the games they play; with NAME, one bot's options",
        description="One line per bot, fitted to the terminal (COLUMNS, else its "
        "width, else 80); with NAME, that bot's games in full and its options.",
    )
    bots.add_argument("name", nargs="?", help="registry name of one bot")
    bots.set_defaults(run=_cmd_bots)


def _cmd_games(registry: Registry, args: argparse.Namespace) -> int:
    from harness.report.tables import game_detail, games_table, terminal_width

    width = terminal_width()
    if args.view:
        if args.name is None:
            raise ConfigError(
                "troef games --view needs a game: troef games NAME --view "
                f"(one of {', '.join(sorted(registry.games))})"
            )
        from harness.report.reference import game_reference

        print(game_reference(registry.game_class(args.name)))
    elif args.name is None:
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
