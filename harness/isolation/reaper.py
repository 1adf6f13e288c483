"""What makes a worker leave nothing behind, and lets its scheduler blame a bot
that killed it (Linux: ``prctl`` and ``/proc``).

A worker process (of the local process pool, or the child that probes a config)
asks to die with its parent (:func:`die_with_parent`) and adopts the orphans of
its descendants (:func:`become_subreaper`); on its way out
:func:`end_descendants` kills every bot program it started (each
:class:`~harness.isolation.botprogram.BotProcess` registers here when it
starts), their process groups and every descendant left. Before it starts a
bot, the harness process makes itself non-dumpable (``PR_SET_DUMPABLE``), so a
bot running as the same non-root user cannot read its memory or environment
through ``/proc``.

A bot that kills its worker (``os.kill(os.getppid(), 9)``) leaves the worker no
chance to say anything: so a worker keeps a :class:`Watch` (:func:`set_watch`)
naming the bots it awaits, and notes when it was told to end
(:func:`note_ended`); the scheduler reads both from the dead worker's file.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import mmap
import os
import shutil
import signal
import time
import weakref
from typing import Protocol

__all__ = [
    "Watch",
    "become_subreaper",
    "die_with_parent",
    "end_descendants",
    "note_ended",
    "set_watch",
]

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36

# Loaded before any fork: the child calls prctl between fork and exec.
_libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)


class _Started(Protocol):
    """A bot program started by this process (a
    :class:`~harness.isolation.botprogram.BotProcess`): what
    :func:`end_descendants` needs to end it."""

    #: The process that started it (a fork inherits the set, not the bots).
    owner: int
    #: Its process id, which is also its process group's.
    pid: int
    #: Its private folder, removed when it ends.
    cwd: str
    #: Ended (:func:`end_descendants` sets it, so it is not ended twice).
    closed: bool


#: Bot processes started here and not yet killed (for :func:`end_descendants`).
_started: weakref.WeakSet[_Started] = weakref.WeakSet()


def die_with_parent(parent: int, signum: int = signal.SIGKILL) -> None:
    """Have Linux send ``signum`` to this process when its parent ``parent`` dies.

    For worker processes: a ``troef run`` killed with SIGKILL must not leave
    its pool behind. A worker asks for SIGTERM, whose handler ends its bots
    and their descendants first (a SIGKILLed run cannot do that itself). If
    the parent died before this took effect, exit now.
    """
    _libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def become_subreaper() -> None:
    """Adopt the orphans of this process's descendants (Linux).

    A bot's child that left the bot's process group (a new session) is
    reparented here when the bot dies, so :func:`end_descendants` still finds it.
    """
    _libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def end_descendants() -> None:
    """Kill every bot process of this process, their groups and all descendants.

    For a worker that is leaving (a normal end or SIGTERM): nothing it started
    may outlive it. Temporary folders of the bots are removed.
    """
    for process in list(_started):
        if process.owner != os.getpid():
            continue  # inherited across fork: the parent's bot, not ours
        process.closed = True
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
        shutil.rmtree(process.cwd, ignore_errors=True)
    _started.clear()
    for _ in range(8):  # bounded: a child of another user cannot be killed
        children = _children(os.getpid())
        if not children:
            return
        pending = list(children)
        while pending:
            pid = pending.pop()
            pending.extend(_children(pid))
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found.extend(int(c) for c in f.read().split())
        except OSError:
            continue
    return found


_protected_pid = 0


def _protect_harness_process() -> None:
    # Non-dumpable: /proc/<pid>/mem, environ, maps, fd and ptrace of this process
    # are refused to other processes of the same user without CAP_SYS_PTRACE.
    global _protected_pid
    if _protected_pid != os.getpid():
        _libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
        _protected_pid = os.getpid()


class Watch:
    """Which bots this worker is waiting on, in a small file its parent can read.

    A bot that kills its worker (``os.kill(os.getppid(), 9)``) leaves the
    worker no chance to say anything: so the worker keeps, at every moment,
    the tag (``"job-id seat"``) of each bot whose answer it awaits in a
    memory-mapped file of the run folder (a memory write, no system call), and
    the scheduler reads what the dead worker last wrote.

    The file is a header line (``#ended``, see :meth:`ended`) and fixed slots,
    one tag each: marking or clearing a bot writes its slot alone, whatever
    the number of bots awaited (many, with pipelined matches).
    """

    HEAD = 64
    SLOT = 128
    SIZE = HEAD + SLOT * 1023

    def __init__(self, path: str) -> None:
        self.path = path
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.ftruncate(fd, self.SIZE)
            self._map = mmap.mmap(fd, self.SIZE)
        finally:
            os.close(fd)
        #: The slot of each awaited bot, and the free slots (last freed first).
        self._slots: dict[int, int] = {}
        self._free = list(range(self.SIZE // self.SLOT - 1, -1, -1))

    def mark(self, key: int, tag: str) -> None:
        """Waiting on the bot ``key`` (tagged ``tag``) from now on."""
        slot = self._slots.get(key)
        if slot is None:
            if not self._free:
                return  # more than 1023 awaited at once: the rest go unnamed
            slot = self._slots[key] = self._free.pop()
        data = tag.encode()[: self.SLOT - 1] + b"\0"
        start = self.HEAD + slot * self.SLOT
        self._map[start : start + len(data)] = data

    def clear(self, key: int) -> None:
        """No longer waiting on bot ``key``."""
        slot = self._slots.pop(key, None)
        if slot is not None:
            self._map[self.HEAD + slot * self.SLOT] = 0
            self._free.append(slot)

    def ended(self) -> None:
        """Note the moment this worker was told to end (SIGTERM): the scheduler
        takes the first worker to end as the one that a bot ended."""
        data = f"#ended {time.monotonic_ns()}".encode()[: self.HEAD - 1] + b"\0"
        self._map[: len(data)] = data

    @staticmethod
    def ended_at(path: str) -> int | None:
        """When the worker of ``path`` got SIGTERM (monotonic ns), if it did."""
        try:
            with open(path, "rb") as f:
                head = f.read(Watch.HEAD).split(b"\0", 1)[0]
        except OSError:
            return None
        if head.startswith(b"#ended "):
            return int(head[7:])
        return None

    @staticmethod
    def read(path: str) -> list[tuple[str, int]]:
        """The (job id, seat) pairs a worker awaited when it last wrote ``path``."""
        try:
            with open(path, "rb") as f:
                raw = f.read(Watch.SIZE)
        except OSError:
            return []
        found = []
        for start in range(Watch.HEAD, len(raw), Watch.SLOT):
            line = raw[start : start + Watch.SLOT].split(b"\0", 1)[0]
            job, _, seat = line.decode(errors="replace").partition(" ")
            if job and seat.isdigit():
                found.append((job, int(seat)))
        return found


#: The watch of this worker process, if its scheduler keeps one (``set_watch``).
_watch: Watch | None = None


def note_ended() -> None:
    """Write in this worker's watch that it was told to end (see ``Watch.ended``)."""
    if _watch is not None:
        _watch.ended()


def set_watch(path: str | None) -> None:
    """Keep this process's awaited bots in the file ``path`` (None: stop)."""
    global _watch
    _watch = None if path is None else Watch(path)
