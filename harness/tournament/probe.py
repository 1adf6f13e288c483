"""The start-up probe: every process bot of a config is started once, in a
child process, and must answer its handshake before any match is played.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import signal
from multiprocessing.connection import Connection

from harness.contracts.errors import BotFault, TroefError
from harness.tournament.config import TournamentConfig

__all__ = ["probe_entrants"]


def probe_entrants(config: TournamentConfig, *, users_checked: bool = False) -> None:
    """Start every process bot of ``config`` once and wait for its handshake.

    The probes run in a child process, as a worker does, which ends whatever a
    bot started (even in a new session) before it leaves.

    :param users_checked: the caller ran
        :func:`~harness.tournament.botuser.check_entrants`.
    :raises TroefError: naming the first entrant whose bot cannot start or
        does not answer ``ready`` (before any match is played).
    """
    if all(e.process is None for e in config.entrants):
        return
    if not users_checked:
        from harness.tournament.botuser import check_entrants

        check_entrants(config)  # first: a user that cannot run the bot is named so
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    child = context.Process(
        target=_probe_in_child, args=(config, writer, os.getpid()), daemon=True
    )
    child.start()
    writer.close()
    try:
        try:
            problem = reader.recv()
        except EOFError:
            problem = f"{config.path}: the process probing the bots died"
        child.join()
    finally:
        if child.is_alive():
            child.kill()
            child.join()
        reader.close()
    if problem is not None:
        raise TroefError(problem)


def _probe_in_child(config: TournamentConfig, writer: Connection, parent: int) -> None:
    from harness.contracts.seeding import new_master_seed
    from harness.isolation.botpool import ProcessPool
    from harness.isolation.reaper import (
        become_subreaper,
        die_with_parent,
        end_descendants,
    )
    from harness.tournament.executor_plugins import load_registry

    die_with_parent(parent)
    become_subreaper()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    problem = None
    try:
        registry = load_registry(**dataclasses.asdict(config.plugin_source))
        game = registry.game(config.game, dict(config.options))
        pool = ProcessPool(max_idle=0)  # nothing kept: every probe ends its process
        for entrant in config.entrants:
            if entrant.process is None:
                continue
            bot = entrant.process.bot(
                game,
                0,
                # Never the master seed: a probed bot must learn nothing of the deals.
                new_master_seed(),
                entrant.options_dict(),
                bot_name=entrant.bot,
                source=registry.source,
                n_seats=config.seats,
                pool=pool,
            )
            try:
                bot.prepare()
            except BotFault as fault:
                problem = (
                    f"{config.path}: entrant {entrant.label!r} cannot play: "
                    f"{fault.detail.strip()}"
                )
                break
            finally:
                bot.abandon()
    except Exception as exc:  # reported to the parent, which raises it
        problem = f"{config.path}: probing the bots failed: {exc!r}"
    finally:
        end_descendants()
        writer.send(problem)
        writer.close()
