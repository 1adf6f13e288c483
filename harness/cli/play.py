"""``troef play`` (one match told move by move; the ``--bots`` entries and the
human seat) and ``troef check`` (the conformance suite on a game)."""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

from harness.cli.common import option_argument, parse_options
from harness.contracts.errors import ConfigError, GameFault, TroefError
from harness.match.conformance import DEFAULT_BUDGET, check_game
from harness.tournament.table_bots import match_bots, spec_name

if TYPE_CHECKING:
    from harness.plugins import Registry


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``play`` and ``check`` commands."""
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
    option_argument(play, "a game option, e.g. -o target=500")
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
    option_argument(check, "a game option (over the check options unless --full)")
    check.add_argument(
        "--quiet", action="store_true", help="no progress lines, only the summary"
    )
    check.set_defaults(run=_cmd_check)


def _cmd_play(registry: Registry, args: argparse.Namespace) -> int:
    from harness.isolation.botpool import ProcessPool
    from harness.match.narration import Narrator, seat_labels
    from harness.match.referee import (
        abandon_bots,
        place_fault,
        play_match,
    )
    from harness.report.tables import result_table

    game = registry.game(args.game, parse_options(args.option))
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
    names = [spec_name(spec, registry) for spec in specs]
    labels = seat_labels(names)
    pool = ProcessPool(max_idle=0)  # a command bot's process ends with the match
    others = [spec if spec != _HUMAN else "random" for spec in specs]
    bots = match_bots(game, others, args.seed, registry, pool)
    if human is not None:
        from harness.match.human import HumanBot

        bots[human] = HumanBot(game, human, args.seed, labels=labels)
    plugin = registry.provider.get(("game", game.name), "?")

    def tell(action: str) -> None:
        for line in narrator.tell(action):
            print(line, flush=True)

    try:
        # A person at the table hears the seat's account, the others the referee's.
        narrator = Narrator(
            game, args.seed, labels, show_hands=args.show_hands, seat=human
        )
        if not args.quiet:
            print("\n".join(narrator.start()), flush=True)
        result = play_match(
            game, bots, args.seed, keep_log=True, on_action=None if args.quiet else tell
        )
    except GameFault as fault:
        # Issue 29, item 2: the game's bug is said, without a traceback.
        abandon_bots(bots)
        raise TroefError(place_fault(str(fault), f"of plugin {plugin!r}")) from None
    except Exception as exc:
        abandon_bots(bots)
        if isinstance(exc, TroefError):
            raise
        # Telling the match failed in the game's code (new_match, narrate): the
        # game's bug, said as the referee says it. Elsewhere: troef's own.
        frames = [
            f
            for f in traceback.extract_tb(exc.__traceback__)
            if not Path(f.filename).resolve().is_relative_to(_HARNESS)
        ]
        if not frames:
            raise
        at = f"{frames[-1].name} ({Path(frames[-1].filename).name}:{frames[-1].lineno})"
        raise TroefError(
            f"game fault of plugin {plugin!r}: game {game.name!r} raised telling "
            f"the match, at {at}: {type(exc).__name__}: {exc}"
        ) from None
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


#: troef's own sources: a fault raised there is troef's, not the game's.
_HARNESS = Path(__file__).resolve().parents[1]
_HUMAN = "human"


def _progress_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _cmd_check(registry: Registry, args: argparse.Namespace) -> int:
    report = check_game(
        registry.game_class(args.game),
        options=parse_options(args.option),
        full=args.full,
        budget=args.budget,
        matches=args.matches,
        seed=args.seed,
        raise_on_failure=False,
        progress=None if args.quiet else _progress_line,
    )
    print(report.summary())
    return 0 if report.passed else 1
