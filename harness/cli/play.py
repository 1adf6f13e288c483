"""``troef play`` (one match told move by move; the ``--bots`` entries and the
human seat) and ``troef check`` (the conformance suite on a game)."""

from __future__ import annotations

import argparse
import shlex
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.cli.common import option_argument, parse_options
from harness.contracts.errors import ConfigError, GameFault, TroefError
from harness.match.conformance import DEFAULT_BUDGET, check_game
from harness.tournament.entrants import resolve_command

if TYPE_CHECKING:
    from harness.contracts.bot import Bot
    from harness.contracts.game import Game
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
    names = [_spec_name(spec, registry) for spec in specs]
    labels = seat_labels(names)
    pool = ProcessPool(max_idle=0)  # a command bot's process ends with the match
    others = [spec if spec != _HUMAN else "random" for spec in specs]
    bots = _play_bots(game, others, args.seed, registry, pool)
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
_COMMAND_BOT = "cmd:"
_HUMAN = "human"


def _spec_name(spec: str, registry: Registry) -> str:
    """A ``--bots`` entry's name: the bot's, or the command's program."""
    if spec.startswith(_COMMAND_BOT):
        words = shlex.split(spec[len(_COMMAND_BOT) :])
        return Path(words[-1] if words else "cmd").name
    return _split_spec(spec, registry)[0]


def _split_spec(spec: str, registry: Registry) -> tuple[str, str]:
    """A ``--bots`` entry as (bot name, its options after the ``:``).

    A registered name that holds a ``:`` itself (``openspiel:ismcts``) is
    matched whole first, so ``openspiel:ismcts:simulations=50`` is that bot.
    """
    for name in sorted(registry.bots, key=len, reverse=True):
        if ":" in name and (spec == name or spec.startswith(name + ":")):
            return name, spec[len(name) + 1 :]
    name, _, rest = spec.partition(":")
    return name, rest


def _play_bots(
    game: Game, specs: Sequence[str], seed: int, registry: Registry, pool: Any
) -> list[Bot]:
    """One bot per ``--bots`` entry: a named bot with options, or a command."""
    from harness.contracts.seeding import bot_seed
    from harness.isolation.botprocess import ProcessSettings
    from harness.isolation.sandbox import unavailable as sandbox_unavailable
    from harness.match.referee import make_bot
    from harness.tournament.botuser import ENV_USER, default_user, unreachable

    # A program bot is untrusted as in a tournament: in the bwrap sandbox
    # where it runs, else (under root) as the default bot user, and one that
    # user cannot run is refused.
    why = sandbox_unavailable()
    sandbox = "bwrap" if why is None else "none"
    user = default_user() if why is not None else None
    if why is not None and any(s.startswith(_COMMAND_BOT) for s in specs):
        print(
            f"troef: warning: program bots are not sandboxed: {why}",
            file=sys.stderr,
        )
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
                ProcessSettings(command=command, user=user, sandbox=sandbox).bot(
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
        name, rest = _split_spec(spec, registry)
        cls = registry.bot_class(name, game.name)
        options = parse_options(rest.split(":") if rest else [])
        bots.append(make_bot(game, cls, seat, seed, options))
    return bots


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
