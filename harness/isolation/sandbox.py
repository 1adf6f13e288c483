"""The system sandbox of untrusted bots: bubblewrap (``bwrap``, Debian package
``bubblewrap``, the sandbox Flatpak uses).

A sandboxed bot program runs as ``bwrap ARGS -- [setpriv ...] COMMAND``
(:func:`wrap`). bwrap gives it its own mount, PID, IPC, UTS, cgroup and
network namespaces (no network, not even the harness's loopback), a
``/proc`` of its own PID namespace, a fresh ``/dev``, a read-only ``/tmp``, and
read-only binds of exactly what it needs: the system's ``/usr`` (and the
``/bin``, ``/lib`` links into it), its program's installation wherever it
lives (a Python under a 0700 home too: the bind is reached through the
sandbox's own folders, not through the home), its script or plugin files and,
for the Python host, the packages it imports (:func:`python_binds`). Its
private folder (working directory and ``TMPDIR``) is the one writable place
that outlives nothing: the harness removes it when the process ends. It dies
with the harness (``--die-with-parent``); the PID namespace ends every process
it started when it ends.

Under a root harness each bot process runs as a uid of its own
(:func:`process_ids`, a range no account uses), switched to by ``setpriv``
(util-linux) inside the sandbox after bwrap has set it up, so two bots are
never the same user to each other and none is root. A non-root harness runs
bwrap in a user namespace (unprivileged user namespaces must be allowed) and
its bots keep its uid: inside their namespaces that reaches nothing of the
harness. :func:`unavailable` says why the sandbox cannot run on this machine
(checked once per process by starting a sandboxed ``true``).
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence

__all__ = [
    "SANDBOXES",
    "TROEF_PACKAGES",
    "command_binds",
    "process_ids",
    "python_binds",
    "release_ids",
    "unavailable",
    "wrap",
]

#: The values of a config's ``sandbox`` key: the system sandbox, or none
#: (today's protections: own process, scrubbed environment, rlimits, a user).
SANDBOXES = ("bwrap", "none")
#: The top-level names a merged-/usr system links into ``/usr``; a system
#: without merged /usr has them as folders, bound read-only.
_SYSTEM_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
#: Files of /etc a dynamic program or an interpreter reads, bound if present;
#: nothing else of /etc (the machine's accounts, its services) is shown.
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives")
#: Installations already shown by the system binds.
_SYSTEM_PREFIXES = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")
#: troef's own packages: the host imports ``harness``; a plugin file may
#: import the others (``from games.cards import ...``) without entry points.
TROEF_PACKAGES = ("harness", "games", "bots")
#: Per-process uids (and gids) of sandboxed bots under root: 2**30 and up, far
#: above any account (login.defs stops at 60000, subordinate ids at a few
#: million); bits 10-29 are the harness process's pid, bits 0-9 a counter.
_UID_BASE = 1 << 30
_UID_COUNTER_BITS = 10
_UID_PID_BITS = 20
#: Seconds the availability check gives a sandboxed ``true``.
_CHECK_TIMEOUT = 30.0

_counter = itertools.count()
_in_use: set[int] = set()


def _which(program: str) -> str | None:
    return shutil.which(program, path=os.environ.get("PATH") or os.defpath)


@functools.cache
def unavailable() -> str | None:
    """Why bwrap cannot sandbox a bot here, or None when it can.

    Checked once per process: bwrap (and, under root, setpriv) must be on the
    ``PATH`` and a sandboxed ``true`` must run (a container may forbid the
    namespaces).
    """
    if _which("bwrap") is None:
        return (
            "bwrap (bubblewrap) is not installed or not on the PATH; install it "
            "(Debian: apt-get install bubblewrap)"
        )
    if os.geteuid() == 0 and _which("setpriv") is None:
        return "setpriv (util-linux) is not on the PATH: a root harness needs it"
    true = _which("true") or "/bin/true"
    ids = (_UID_BASE, _UID_BASE) if os.geteuid() == 0 else None
    argv = wrap([true], cwd="/", binds=(), ids=ids)
    try:
        done = subprocess.run(
            argv,
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=_CHECK_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bwrap does not start: {exc}"
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        why = lines[-1] if lines else f"exit status {done.returncode}"
        return f"bwrap cannot create its namespaces here: {why}"
    return None


def process_ids() -> tuple[int, int] | None:
    """A fresh (uid, gid) for one sandboxed bot process under root; None for
    a non-root harness, which cannot switch users.

    Distinct among the live bots of this process; the pid bits keep two
    harness processes apart. Give it back with :func:`release_ids`.
    """
    if os.geteuid() != 0:
        return None
    pid_bits = (os.getpid() % (1 << _UID_PID_BITS)) << _UID_COUNTER_BITS
    for _ in range(1 << _UID_COUNTER_BITS):
        uid = _UID_BASE + pid_bits + next(_counter) % (1 << _UID_COUNTER_BITS)
        if uid not in _in_use:
            _in_use.add(uid)
            return uid, uid
    raise OSError("no free sandbox uid: over 1024 live bot processes in one worker")


def release_ids(ids: tuple[int, int] | None) -> None:
    """The bot process that had ``ids`` has ended."""
    if ids is not None:
        _in_use.discard(ids[0])


def wrap(
    argv: Sequence[str],
    *,
    cwd: str,
    binds: Iterable[str],
    ids: tuple[int, int] | None,
) -> list[str]:
    """The command line that runs ``argv`` in the sandbox.

    :param cwd: the bot's private folder: bound writable, its working directory.
    :param binds: more paths shown read-only at the same place (the Python
        host's packages); the program and the files ``argv`` names are
        found by :func:`command_binds`.
    :param ids: switch to this (uid, gid) inside (a root harness); ``(0, 0)``
        keeps root, without capabilities; None keeps the harness's uid.
    """
    bwrap = _which("bwrap") or "bwrap"
    args = [
        bwrap,
        "--die-with-parent",
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
    ]
    if os.geteuid() != 0:
        # Unprivileged bwrap needs a user namespace; as root it would map the
        # bot's uid to root outside, so root switches users with setpriv.
        args.append("--unshare-user")
    args += ["--hostname", "troef-bot", "--ro-bind", "/usr", "/usr"]
    for name in _SYSTEM_LINKS:
        path = "/" + name
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    args += ["--dir", "/etc"]  # bwrap would make it 0700: unreadable inside
    for name in _ETC:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    made = {"/", "/etc", "/tmp"}
    shown = [p for p in _outermost([*command_binds(argv), *binds]) if not _is_system(p)]
    for path, how in [*((p, "--ro-bind") for p in shown), (cwd, "--bind")]:
        if path == "/":
            continue
        # The folders on the way, made 0755: bwrap makes them 0700, which a
        # bot of another uid could not search (a home holding the Python).
        parts = path.split("/")[1:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/" + "/".join(parts[:depth])
            if folder not in made:
                made.add(folder)
                args += ["--dir", folder]
        args += [how, path, path]
    # The folders made on the way are the sandbox's own: read-only too (the
    # private folder, its own mount, stays writable).
    args += ["--remount-ro", "/", "--remount-ro", "/tmp", "--chdir", cwd]
    if ids is not None and ids[0] == 0:
        args += ["--cap-drop", "ALL"]  # root knowingly, but no capabilities
    args.append("--")
    if ids is not None and ids[0] != 0:
        uid, gid = ids
        setpriv = _which("setpriv") or "setpriv"
        args += [setpriv, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--"]
    return [*args, *argv]


def command_binds(argv: Sequence[str]) -> list[str]:
    """What ``argv`` needs shown: its program's installation (a ``bin``
    folder's parent, following symbolic links: a venv's ``python`` and the
    interpreter it links to), and each absolute argument naming an existing
    file or folder (its script, the host's plugin files)."""
    found: list[str] = []
    if argv:
        program = argv[0] if os.sep in argv[0] else _which(argv[0])
        if program is not None:
            found += _installation(program)
    found += [a for a in argv[1:] if os.path.isabs(a) and os.path.exists(a)]
    return found


def _installation(program: str) -> list[str]:
    """The folders (or the file) that make ``program`` run, link by link."""
    found: list[str] = []
    path = os.path.abspath(program)
    for _ in range(40):  # as the kernel, at most 40 links
        folder = os.path.dirname(path)
        if not _is_system(path):
            # .../bin/python: the installation is the folder above bin.
            found.append(
                os.path.dirname(folder) if os.path.basename(folder) == "bin" else path
            )
        if not os.path.islink(path):
            break
        path = os.path.normpath(os.path.join(folder, os.readlink(path)))
    return found


@functools.cache
def python_binds(modules: tuple[str, ...], entry_points: bool) -> tuple[str, ...]:
    """What the Python host needs beyond its command line: this Python's
    installation and venv, and the packages it imports: troef's own
    (:data:`TROEF_PACKAGES`, which a plugin file may import), ``modules`` (the
    config's plugin modules) and, with ``entry_points``, those of every plugin
    registered under the entry-point group ``troef`` (an editable install
    keeps them outside ``site-packages``)."""
    found = [
        p
        for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
        if os.path.isdir(p)
    ]
    names = [*TROEF_PACKAGES, *modules]
    if entry_points:
        names += [ep.module for ep in importlib.metadata.entry_points(group="troef")]
    for top in dict.fromkeys(name.split(".")[0] for name in names):
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            continue  # the host reports a plugin that does not import
        if spec is None:
            continue
        if spec.submodule_search_locations:
            found += list(spec.submodule_search_locations)
        elif spec.origin and os.path.isfile(spec.origin):
            found.append(spec.origin)
    return tuple(_outermost(found))


def _is_system(path: str) -> bool:
    """True for a path the system binds already show (``/usr/...``)."""
    return any(path == p or path.startswith(p + "/") for p in _SYSTEM_PREFIXES)


def _outermost(paths: Iterable[str]) -> list[str]:
    """``paths`` without duplicates and without those inside another one,
    in a stable order (a bind inside a bind shows nothing more)."""
    unique = sorted({os.path.abspath(p) for p in paths})
    kept: list[str] = []
    for path in unique:
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept
