"""``troef run`` (play a tournament, resume it) and ``troef validate`` (check a
config and show its plan, with what each entrant's isolation protects)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from harness.cli.common import command_config, workers_arg
from harness.cli.results import print_standings
from harness.contracts.errors import ConfigError

if TYPE_CHECKING:
    from harness.plugins import Registry
    from harness.tournament.config import TournamentConfig
    from harness.tournament.entrants import Entrant


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``run`` and ``validate`` commands."""
    run = sub.add_parser(
        "run",
        help="play a tournament from a config file",
        description="Play every planned match of the tournament that its database "
        "lacks, on a pool of worker processes, and print the standings. Killed or "
        "interrupted, run it again to resume.",
    )
    run.add_argument("config", help="tournament config (TOML)")
    run.add_argument(
        "--workers",
        type=workers_arg,
        help="worker processes (default: the config's, else all cores)",
    )
    run.add_argument(
        "--fresh", action="store_true", help="delete the database and start afresh"
    )
    run.add_argument("--quiet", action="store_true", help="no progress lines")
    run.add_argument(
        "--secret-from",
        metavar="OLD.sqlite",
        type=Path,
        help="take the bot-seed secret (and a drawn master seed) of an earlier "
        "database of this config, to play its matches again exactly; refused "
        "when a process-isolated bot could read that file",
    )
    run.set_defaults(run=_cmd_run)

    validate = sub.add_parser(
        "validate",
        help="check a tournament config and show its plan",
        description="Validate a tournament config without playing: every error names "
        "the file, line and key.",
    )
    validate.add_argument("config", help="tournament config (TOML)")
    validate.add_argument(
        "--probe",
        action="store_true",
        help="also start every process bot once and check its handshake",
    )
    validate.set_defaults(run=_cmd_validate)


def _cmd_run(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.tournament.executor_config import check_executor
    from harness.tournament.progress import Progress
    from harness.tournament.scheduler import Interrupted, run_tournament

    config = command_config(args)
    if config.ladder is not None:
        raise ConfigError(
            f"{config.path} is a ladder; play it with 'troef ladder run {config.path}'"
        )
    progress = None if args.quiet else Progress()
    # Before the folder, the database or the lock file is made (run_tournament
    # checks it again for callers of its own).
    check_executor(config)
    if not config.database.parent.exists():
        # Ruling: a missing folder is made (owner-only), and said, not refused.
        print(f"troef: creating the folder {config.database.parent} for the database")
    try:
        summary = run_tournament(
            config,
            workers=args.workers,
            fresh=args.fresh,
            progress=progress,
            secret_from=args.secret_from,
        )
    except Interrupted as exc:
        # Leaving: a further Ctrl-C must not turn the exit into a traceback.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print(f"troef: {exc}", file=sys.stderr)
        return 130
    from harness.tournament.sprt import SprtMonitor

    monitor = summary.monitor if isinstance(summary.monitor, SprtMonitor) else None
    if summary.played == 0:
        print(
            f"nothing left to play: {summary.already_done} matches are recorded in "
            f"{config.database}"
            + (
                " and the SPRT has decided"
                if monitor is not None and monitor.done()
                else ""
            )
        )
    else:
        void = f"; {len(summary.void)} void" if summary.void else ""
        print(
            f"played {summary.played} matches in {summary.seconds:.1f}s "
            f"({summary.already_done} were already recorded; "
            f"{summary.forfeits} forfeits{void})"
        )
    print_standings(config.database)
    if monitor is not None:
        print()
        print(monitor.verdict().describe())
    print(
        "\nratings with intervals and significance tests: "
        f"troef report {config.database}"
    )
    if summary.void:
        # Ruling (issue 29, item 2): the run goes on past a game's fault; it
        # ends by saying so, with status 1, as 'troef check' ends on a failure.
        _, text = summary.void[0]
        print(
            f"troef: {len(summary.void)} of the matches played are void: the game "
            f"plugin raised (the fault of no bot; they count for nobody). The first: "
            f"{text.partition(chr(10))[0]}\n"
            f"troef: every void match with its traceback: troef matches "
            f"{config.database} --forfeits; fix the game and run again with --fresh",
            file=sys.stderr,
        )
        return 1
    return 0


def _cmd_validate(registry: Registry | None, args: argparse.Namespace) -> int:
    from harness.tournament.botuser import check_entrants
    from harness.tournament.executor_config import check_executor, describe_executor
    from harness.tournament.plan import MAX_PLANNED, plan, planned_count, planned_groups
    from harness.tournament.probe import probe_entrants, refusal

    config = command_config(args)
    # Counted, not built: validate answers at once whatever the size.
    planned = planned_count(config)
    if planned > MAX_PLANNED:
        plan(config)  # raises the error that names the bound
    groups = planned_groups(config)
    # Before "valid": a bot its user cannot run is an error naming the path,
    # an executor whose package is missing one naming the key and the install.
    check_entrants(config)
    check_executor(config)
    users = ", ".join(
        f"{e.label} as {e.process.user}"
        for e in config.entrants
        # Checked by check_entrants: unsandboxed bots run as another user.
        if e.process is not None
        and e.process.user is not None
        and e.process.sandbox != "bwrap"
    )
    print(f"{config.path}: valid")
    print(f"  game       {config.game} ({config.seats} seats) {dict(config.options)}")
    print(
        f"  format     {config.format}, {config.matches} match seeds, "
        f"{'duplicate deals' if config.duplicate else 'independent seeds'}"
    )
    for e in config.entrants:
        what = e.bot or " ".join(e.process.command if e.process else ())
        clock = ""
        if e.time_control is not None:
            parts = [
                f"{k} {v:g}s" for k, v in vars(e.time_control).items() if v is not None
            ]
            clock = ", time " + " ".join(parts)
        print(f"  entrant    {e.label}: {what} ({e.isolation}{clock})")
    if config.candidates:
        print(f"  candidates {', '.join(config.candidates)}")
    print(f"  plan       {planned} matches in {groups} groups")
    print(f"  database   {config.database}")
    print(f"  executor   {describe_executor(config)}")
    print(f"  seed       {_seed_note(config)}")
    for line in isolation_notes(config):
        print(f"  isolation  {line}")
    if users:
        print(f"  users      each can run its bot: {users}")
    if config.untrusted:
        print(f"  probe      {_probe_note(config)}")
    if args.probe:
        failures = probe_entrants(config, users_checked=True)
        if failures and config.probe == "refuse":
            raise refusal(config, failures)
        probed = sum(e.process is not None for e in config.entrants)
        ready = f"{probed - len(failures)} of {probed}" if failures else f"{probed}"
        print(f"  probe      {ready} process bots started and answered 'ready'")
        for failure in failures:
            print(
                f"  probe      entrant {failure.entrant!r} failed "
                f"({failure.reason.value}): {failure.detail}\n"
                f"             'troef run' will record each of its matches as its "
                "forfeit and play the others"
            )
        if failures:
            return 1
    return 0


def _probe_note(config: TournamentConfig) -> str:
    """What a run does with an entrant that fails the start-up probe."""
    if config.probe == "refuse":
        return (
            "every process bot starts once before the first match; one that fails "
            'refuses the run (probe = "refuse")'
        )
    return (
        "every process bot starts once before the first match; one that fails "
        'forfeits its matches and the others play (probe = "forfeit")'
    )


def _seed_note(config: TournamentConfig) -> str:
    if not config.seed_given:
        return "random (63 bits, drawn when the database is created and kept in it)"
    return str(config.seed)


def isolation_notes(config: TournamentConfig) -> list[str]:
    """Per entrant: the user its bot runs as and what that protects (``validate``)."""
    root = os.geteuid() == 0
    notes = []
    for e in config.entrants:
        if e.process is None:
            notes.append(
                f"{e.label}: in-process: trusted code; it can read the referee's "
                "State, the seeds and every file the harness can"
            )
            continue
        p = e.process
        if p.sandbox == "bwrap":
            notes.append(_sandboxed_note(config, e))
            continue
        if p.user is None:
            parts = [
                f"{e.label}: own process as the harness's user ({_my_name()})",
                _SAME_USER,
            ]
        else:
            parts = [f"{e.label}: own process as {p.user} ({_user_origin(config, e)})"]
            if root and p.user == "root":
                parts.append(
                    "AS ROOT: it can read the harness's memory and files through "
                    "/proc, every file and signal every process; give it another "
                    'user (e.g. user = "nobody")'
                )
            elif _same_user(p.user):
                parts.append(_SAME_USER)
            else:
                parts.append(
                    "another user: it cannot signal or trace the harness, nor read "
                    "its owner-only files (the database; the config if chmod 600); "
                    "it reads what is world-readable"
                )
        parts.append(
            "sandbox prefix: "
            + (" ".join(p.prefix[:3]) + " ..." if p.prefix else "none")
        )
        parts.append(f"not in the bwrap sandbox: {_unsandboxed_why(config, e)}")
        notes.append("; ".join(parts))
    return notes


def _sandboxed_note(config: TournamentConfig, entrant: Entrant) -> str:
    """``validate``'s line for a bot in the bwrap sandbox."""
    p = entrant.process
    assert p is not None
    if p.user is not None:
        who = f"as {p.user} ({_user_origin(config, entrant)})"
    elif os.geteuid() == 0:
        who = "as a uid of its own per process (never root, never another bot's)"
    else:
        who = f"as the harness's user ({_my_name()}) in a user namespace"
    return (
        f"{entrant.label}: own process in the bwrap sandbox {who}: its own "
        "namespaces (no network, a /proc of its own processes only), read-only "
        "binds of its program, its files and the packages it imports; nothing "
        "of the run folder, database, config, the harness or other bots"
    )


def _unsandboxed_why(config: TournamentConfig, entrant: Entrant) -> str:
    """Why a process bot is not sandboxed, for ``validate``."""
    from harness.isolation.sandbox import unavailable

    spec = config.raw.get("entrants", {}).get(entrant.label, {})
    if isinstance(spec, dict) and "sandbox" in spec:
        return 'its sandbox = "none"'
    if "sandbox" in config.raw:
        return 'the config\'s sandbox = "none"'
    if isinstance(spec, dict) and spec.get("prefix"):
        return "its prefix is its sandbox"
    return f"bwrap cannot run here ({unavailable()})"


def _user_origin(config: TournamentConfig, entrant: Entrant) -> str:
    """Where an entrant's user comes from, for ``validate``."""
    from harness.tournament.botuser import ENV_USER

    spec = config.raw.get("entrants", {}).get(entrant.label, {})
    if isinstance(spec, dict) and "user" in spec:
        return f"its user = {spec['user']!r}"
    if "user" in config.raw:
        return f"the config's user = {config.raw['user']!r}"
    if os.environ.get(ENV_USER):
        return f"${ENV_USER}"
    return "the default for untrusted bots under root"


_SAME_USER = (
    "same user: it cannot read the harness's memory (non-dumpable), but it can "
    "signal the harness and read every file of the user, the owner-only config "
    "and database included"
)


def _same_user(user: str) -> bool:
    import pwd

    try:
        return pwd.getpwnam(user).pw_uid == os.geteuid()
    except KeyError:
        return False


def _my_name() -> str:
    import pwd

    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return f"uid {os.geteuid()}"
