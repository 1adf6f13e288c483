"""The start-up probe: every process bot of a config is started once, in a
child process, and must answer its handshake before any match is played.

Ruling (issue 29, item 3): an entrant that fails the probe does not stop the
tournament by default (``probe = "forfeit"``): every match it has left is
recorded at once as its forfeit, with the probe's reason and detail, and the
other matches are played. Its bot is not started again for each of them, so a
program that hangs at start-up costs one start-up timeout, not one per match;
the forfeits are recorded results, so a resume does not retry them (fix the
bot and start afresh, ``troef run --fresh``, as with any changed entrant). In a
match of two failed entrants the lower seat forfeits. ``probe = "refuse"``
keeps the old rule for organisers who want it: the run is refused, nothing
played, naming each entrant that failed.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection

from harness.contracts.errors import BotFault, GameFault, TroefError
from harness.contracts.result import ForfeitReason, Result
from harness.tournament.config import TournamentConfig
from harness.tournament.plan import Job

__all__ = [
    "ProbeFailure",
    "probe_entrants",
    "probe_forfeits",
    "refusal",
]


@dataclass(frozen=True)
class ProbeFailure:
    """An entrant whose bot did not start or did not answer ``ready``."""

    #: The entrant's label.
    entrant: str
    #: Why, as the forfeit of its matches records it.
    reason: ForfeitReason
    #: What it did (the protocol error, exit status, stderr tail).
    detail: str

    def describe(self, config: TournamentConfig) -> str:
        """The failure as an error or a notice names it."""
        return f"{config.path}: entrant {self.entrant!r} cannot play: {self.detail}"


def probe_entrants(
    config: TournamentConfig, *, users_checked: bool = False
) -> list[ProbeFailure]:
    """Start every process bot of ``config`` once and wait for its handshake.

    The probes run in a child process, as a worker does, which ends whatever a
    bot started (even in a new session) before it leaves. Every entrant is
    probed, whatever the others did.

    :param users_checked: the caller ran
        :func:`~harness.tournament.botuser.check_entrants`.
    :returns: the entrants whose bot cannot start or does not answer
        ``ready``, in config order (empty: every bot is ready).
    :raises TroefError: the probe itself could not run (the plugins or the
        game failed to load), naming the config.
    """
    if all(e.process is None for e in config.entrants):
        return []
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
            found: list[ProbeFailure] | str = reader.recv()
        except EOFError:
            found = f"{config.path}: the process probing the bots died"
        child.join()
    finally:
        if child.is_alive():
            child.kill()
            child.join()
        reader.close()
    if isinstance(found, str):
        raise TroefError(found)
    return found


def refusal(config: TournamentConfig, failures: Sequence[ProbeFailure]) -> TroefError:
    """The error that refuses a run under ``probe = "refuse"``."""
    return TroefError(
        "\n".join(f.describe(config) for f in failures)
        + '\n(probe = "refuse": nothing is played while an entrant cannot play; '
        "without it, its matches are recorded as its forfeits and the others play)"
    )


def probe_forfeits(
    config: TournamentConfig, jobs: Sequence[Job], failures: Sequence[ProbeFailure]
) -> list[tuple[Job, Result]]:
    """The Result of each of ``jobs`` that a failed entrant sits in: its forfeit.

    The lowest seat of a failed entrant forfeits, before the first decision,
    with the probe's reason and ``start-up probe: <detail>``.
    """
    from harness.match.referee import forfeit_before_start
    from harness.tournament.executor_plugins import load_registry
    from harness.tournament.workers import name_void

    failed = {f.entrant: f for f in failures}
    mine = [job for job in jobs if failed.keys() & set(job.seating)]
    if not mine:
        return []
    registry = load_registry(**dataclasses.asdict(config.plugin_source))
    game = registry.game(config.game, dict(config.options))
    results = []
    for job in mine:
        seat = next(s for s, label in enumerate(job.seating) if label in failed)
        failure = failed[job.seating[seat]]
        try:
            result = forfeit_before_start(
                game,
                len(job.seating),
                job.seed,
                seat,
                failure.reason,
                f"start-up probe: {failure.detail}",
                config.keep_logs,
            )
        except GameFault as fault:  # the game cannot even begin it: void
            result = name_void(registry, job, fault.result)
        results.append((job, result))
    return results


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
    failures: list[ProbeFailure] = []
    problem: list[ProbeFailure] | str = failures
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
                failures.append(
                    ProbeFailure(entrant.label, fault.reason, fault.detail.strip())
                )
            finally:
                bot.abandon()
    except Exception as exc:  # reported to the parent, which raises it
        problem = f"{config.path}: probing the bots failed: {exc!r}"
    finally:
        end_descendants()
        writer.send(problem)
        writer.close()
