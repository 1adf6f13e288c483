"""Which user an untrusted bot runs as, and whether that user can run it.

Ruling (``docs/THREAT_MODEL.md``, "Running as root"): when troef runs as root,
a bot in its own process (``isolation = "process"``: plugin-file and
``command`` bots) runs as an unprivileged user, by default ``nobody``. An
entrant's ``user``, else the config's top-level ``user``, else the
environment variable :data:`ENV_USER` chooses another; ``user = "root"`` runs
it as root knowingly. Before a run (and in ``troef validate``) a forked child
drops to that user and checks every path of the bot's command line; for the
Python host it also starts the interpreter as that user. A bot its user cannot
run is refused with the path out of reach, never silently run as root. In the
bwrap sandbox (:mod:`harness.isolation.sandbox`, the default where it runs) a
bot with no user named runs as a uid of its own per process instead, and the
folders on the way are the sandbox's own: nothing to check.
"""

from __future__ import annotations

import grp
import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import ConfigError

if TYPE_CHECKING:
    from harness.plugins import PluginSource
    from harness.tournament.config import TournamentConfig
    from harness.tournament.entrants import Entrant

__all__ = [
    "DEFAULT_USER",
    "ENV_USER",
    "check_entrants",
    "default_user",
    "entrant_command",
    "reads_file",
    "unreachable",
]

#: The user an untrusted bot runs as under a root harness when nothing names one.
DEFAULT_USER = "nobody"
#: The machine-wide default for a root harness, without editing configs.
ENV_USER = "TROEF_BOT_USER"
#: Seconds the interpreter gets to start and import the host, as the bot's user.
_PYTHON_START_TIMEOUT = 30.0
#: The most symbolic links followed along one path (as the kernel: 40).
_MAX_LINKS = 40


def default_user() -> str | None:
    """The user of an untrusted bot whose config names none.

    Under root: ``$TROEF_BOT_USER`` if set, else ``nobody``. Otherwise None:
    a non-root harness cannot switch users, the bot runs as the harness.
    """
    if os.geteuid() != 0:
        return None
    return os.environ.get(ENV_USER) or DEFAULT_USER


def _steps(path: str) -> tuple[list[str], str]:
    """The folders searched to reach ``path`` and the file at the end.

    Symbolic links are followed as the harness sees them, so that a venv's
    ``python`` that links into an interpreter under root's home names that
    home among the folders its user must be able to search.
    """
    folders: list[str] = []
    todo = list(Path(os.path.abspath(path)).parts[1:])
    current = "/"
    links = 0
    while todo:
        name = todo.pop(0)
        if current not in folders:
            folders.append(current)
        if name == "..":
            current = os.path.dirname(current) or "/"
            continue
        candidate = os.path.join(current, name)
        if os.path.islink(candidate) and links < _MAX_LINKS:
            links += 1
            target = os.readlink(candidate)
            if os.path.isabs(target):
                current = "/"
            todo = [*Path(target).parts[1 if os.path.isabs(target) else 0 :], *todo]
            continue
        current = candidate
    return folders, current


def _mode_note(path: str) -> str:
    """``'FOLDER is mode 0700 (owner root, group root)'``."""
    try:
        st = os.stat(path)
    except OSError as exc:
        return f"{path}: {exc.strerror}"
    try:
        owner = pwd.getpwuid(st.st_uid).pw_name
    except KeyError:
        owner = str(st.st_uid)
    try:
        group = grp.getgrgid(st.st_gid).gr_name
    except KeyError:
        group = str(st.st_gid)
    return (
        f"{path} is mode {stat.S_IMODE(st.st_mode):04o} (owner {owner}, group {group})"
    )


def _first_denied(
    checks: Sequence[tuple[str, int]], uid: int, gid: int
) -> tuple[int, str] | None:
    """As ``uid``/``gid`` in a forked child: the first (index, path) not accessible.

    Each check is (path, mode) with ``os.access`` modes. The child drops to the
    user with no supplementary groups, as the bot process does.
    """
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: only os calls, then _exit
        code = 0
        try:
            os.close(reader)
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            denied: list[object] = []
            for index, (path, mode) in enumerate(checks):
                if not os.access(path, mode):
                    denied = [index, path]
                    break
            os.write(writer, json.dumps(denied).encode())
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(writer)
    with os.fdopen(reader, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if status != 0 or not data:
        raise OSError(f"the check as uid {uid} failed (wait status {status})")
    found: list[Any] = json.loads(data)
    return None if not found else (int(found[0]), str(found[1]))


def unreachable(
    argv: Sequence[str],
    user: str,
    *,
    python: str | None = None,
    files: Sequence[str] = (),
) -> str | None:
    """Why ``user`` cannot run ``argv``, or None when it can.

    Checks, as that user, the program (found on the bot's ``PATH``) and its
    script (the first argument naming an existing file), each folder on the
    way (symbolic links followed); with ``python``, also that this interpreter
    starts and imports the bot host as the user. ``files``: more files the bot
    reads (the host's plugin files).
    """
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return f"there is no user {user!r} on this machine"
    if entry.pw_uid == os.geteuid():
        return None  # the harness's own user: nothing to switch
    if os.geteuid() != 0:
        return (
            f"troef runs as uid {os.geteuid()}, not root: it cannot switch to "
            f"user {user!r}"
        )
    path = os.environ.get("PATH") or os.defpath
    program = argv[0] if argv else ""
    found = program if os.sep in program else shutil.which(program, path=path)
    if found is None:
        return f"the program {program!r} is not on the PATH ({path})"
    what = "the Python that hosts the bot" if python == program else "the program"
    wanted: list[tuple[str, int, str]] = [(found, os.X_OK, what)]
    # The script of an interpreter (node bot.js, python3 bot.py): the first
    # argument naming a file. Later ones may be data the bot must NOT read.
    script = next((a for a in argv[1:] if os.path.isabs(a) and os.path.isfile(a)), None)
    if script is not None:
        wanted.append((script, os.R_OK, "the script of its command"))
    wanted.extend((f, os.R_OK, "a file the bot loads") for f in files)
    checks: list[tuple[str, int]] = []
    owners: list[int] = []
    for index, (target, mode, _) in enumerate(wanted):
        folders, end = _steps(target)
        for folder in folders:
            checks.append((folder, os.X_OK))
            owners.append(index)
        checks.append((end, mode))
        owners.append(index)
    denied = _first_denied(checks, entry.pw_uid, entry.pw_gid)
    if denied is not None:
        index, where = denied
        target, mode, what = wanted[owners[index]]
        if checks[index][1] == os.R_OK:
            need = "read"
        else:
            need = "search" if os.path.isdir(where) else "execute"
        reached = f" (reached as {_steps(target)[1]})" if os.path.islink(target) else ""
        return (
            f"{_mode_note(where)}: user {user!r} cannot {need} it, so it cannot "
            f"reach {target}{reached}, {what}"
        )
    if python is not None:
        return _python_problem(python, user, entry)
    return None


def reads_file(entrant: Entrant, path: Path, source: PluginSource) -> str | None:
    """How the bot of the process entrant ``entrant`` could read ``path``.

    None when it cannot: it runs in the sandbox, which does not show it the
    file, or as another user (not root) who may not search a folder on the way
    or read the file, checked as that user. A bot run as the harness's own
    user reads what the harness reads.

    :param source: the run's plugins (what the sandbox shows a Python host).
    """
    settings = entrant.process
    assert settings is not None
    if settings.sandbox == "bwrap":
        target = os.path.realpath(path)
        for shown in settings.sandbox_shows(entrant.bot, source):
            folder = os.path.realpath(shown)
            if target == folder or target.startswith(folder.rstrip("/") + "/"):
                return f"the sandbox shows it {shown}, read-only"
        return None
    if settings.user is None:
        return f"it runs as the harness's user ({_user_name(os.geteuid())})"
    try:
        entry = pwd.getpwnam(settings.user)
    except KeyError:
        return None  # no such user: the config's check names it
    if entry.pw_uid == os.geteuid():
        return f"it runs as the harness's user ({settings.user})"
    if entry.pw_uid == 0:
        return "it runs as root"
    if os.geteuid() != 0:
        return None  # cannot switch users: the config's check names it
    folders, end = _steps(str(path))
    checks = [(folder, os.X_OK) for folder in folders] + [(end, os.R_OK)]
    if _first_denied(checks, entry.pw_uid, entry.pw_gid) is None:
        return f"it runs as {settings.user}, who can read it ({_mode_note(end)})"
    return None


def _user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _python_problem(python: str, user: str, entry: pwd.struct_passwd) -> str | None:
    """Start ``python`` as ``user`` and import the bot host; what went wrong."""
    try:
        done = subprocess.run(
            [python, "-I", "-c", "import harness.isolation.bothost"],
            capture_output=True,
            cwd="/",
            env={"PATH": os.environ.get("PATH") or os.defpath},
            timeout=_PYTHON_START_TIMEOUT,
            user=entry.pw_uid,
            group=entry.pw_gid,
            extra_groups=[],
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{python} does not start as user {user!r}: {exc}"
    if done.returncode == 0:
        return None
    lines = done.stderr.decode(errors="replace").strip().splitlines()
    last = lines[-1] if lines else f"exit status {done.returncode}"
    return (
        f"{python} starts as user {user!r} but cannot load the bot host "
        f"(harness.isolation.bothost): {last}"
    )


def entrant_command(
    entrant: Entrant, config: TournamentConfig
) -> tuple[list[str], str | None, list[str]]:
    """The command line an entrant's bot process runs, its Python host if any,
    and the files the host loads: what :func:`unreachable` checks."""
    settings = entrant.process
    assert settings is not None
    if settings.command:
        return [*settings.prefix, *settings.command], None, []
    from harness.isolation import bothost

    command = settings.host_command(entrant.bot, config.plugin_source)
    files = settings.host_source(config.plugin_source).files
    host = str(Path(bothost.__file__))
    return [*settings.prefix, *command], sys.executable, [host, *files]


def check_entrants(
    config: TournamentConfig, entrants: Sequence[Entrant] | None = None
) -> None:
    """Refuse, before any match, a process bot its user cannot run.

    Checks each process-isolated entrant (of ``config``, or ``entrants``)
    that runs as a user other than the harness's, once.

    :raises ConfigError: naming the config, the entrant, the user, the path
        out of reach and what would be accepted.
    """
    seen: dict[tuple[str, ...], str | None] = {}
    for entrant in config.entrants if entrants is None else entrants:
        settings = entrant.process
        if settings is None or settings.user is None:
            continue
        if settings.sandbox == "bwrap" and os.geteuid() == 0:
            # The sandbox shows the bot its files at their paths through its
            # own folders: a 0700 home on the way outside is no obstacle. (A
            # non-root harness is checked: it cannot switch users at all.)
            continue
        argv, python, files = entrant_command(entrant, config)
        key = (settings.user, python or "", *argv, *files)
        if key not in seen:
            seen[key] = unreachable(argv, settings.user, python=python, files=files)
        problem = seen[key]
        if problem is None:
            continue
        user = settings.user
        raise ConfigError(
            f"{config.path}: entrant {entrant.label!r} cannot run as user "
            f"{user!r}: {problem}. Accepted: a bot program (or, for a Python "
            f"plugin bot, troef installed with a Python) that {user!r} can reach "
            f'and run; another user for it (user = "NAME" in '
            f"[entrants.{entrant.label}] or at the top level, or {ENV_USER}=NAME); "
            'or user = "root" to run it as root knowingly (it can then read the '
            "harness's memory and files). troef never falls back to root by itself"
        )
