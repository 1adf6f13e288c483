"""The bots of one match from ``--bots`` entries: ``troef play`` and the
tables of ``troef serve`` seat them alike.

An entry is a bot's registry name with options (``search:samples=8``) or a
program speaking the bot protocol (``cmd:node bot.js``), which runs in its own
process as an untrusted entrant does in a tournament.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import ConfigError
from harness.contracts.options import parse_options
from harness.tournament.entrants import resolve_command

if TYPE_CHECKING:
    from harness.contracts.bot import Bot
    from harness.contracts.game import Game
    from harness.plugins import Registry

__all__ = ["COMMAND_BOT", "match_bots", "spec_name", "split_spec"]

COMMAND_BOT = "cmd:"


def spec_name(spec: str, registry: Registry) -> str:
    """A ``--bots`` entry's name: the bot's, or the command's program."""
    if spec.startswith(COMMAND_BOT):
        words = shlex.split(spec[len(COMMAND_BOT) :])
        return Path(words[-1] if words else "cmd").name
    return split_spec(spec, registry)[0]


def split_spec(spec: str, registry: Registry) -> tuple[str, str]:
    """A ``--bots`` entry as (bot name, its options after the ``:``).

    A registered name that holds a ``:`` itself (``openspiel:ismcts``) is
    matched whole first, so ``openspiel:ismcts:simulations=50`` is that bot.
    """
    for name in sorted(registry.bots, key=len, reverse=True):
        if ":" in name and (spec == name or spec.startswith(name + ":")):
            return name, spec[len(name) + 1 :]
    name, _, rest = spec.partition(":")
    return name, rest


def match_bots(
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
    if why is not None and any(s.startswith(COMMAND_BOT) for s in specs):
        print(
            f"troef: warning: program bots are not sandboxed: {why}",
            file=sys.stderr,
        )
    bots: list[Bot] = []
    for seat, spec in enumerate(specs):
        if spec.startswith(COMMAND_BOT):
            words = shlex.split(spec[len(COMMAND_BOT) :])
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
        name, rest = split_spec(spec, registry)
        cls = registry.bot_class(name, game.name)
        options = parse_options(rest.split(":") if rest else [])
        bots.append(make_bot(game, cls, seat, seed, options))
    return bots
