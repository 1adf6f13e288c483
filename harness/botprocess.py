"""Bots in their own processes: :class:`ProcessBot` speaks the bot protocol.

A :class:`ProcessBot` is a :class:`~harness.Bot` like any other for the
referee (``act(view) -> str``), but its decisions are made by a program in a
separate process, in any language, that speaks the line-delimited JSON
protocol of :mod:`harness.protocol` (``docs/PROTOCOL.md``). Python plugin bots
run that way under :mod:`harness.bothost`.

What the boundary gives (``docs/THREAT_MODEL.md`` has the whole story):

- the bot sees only the Views sent to it, its own seat, its bot seed (never the
  match seed) and the game's name and options;
- it starts in a fresh empty working directory, with a scrubbed environment,
  no inherited file descriptors but its three pipes, in its own process group
  (a kill takes its children too), with a parent-death signal, optionally an
  address-space limit (``memory_mb``), another user (``user``) and a command
  prefix (``prefix``: a sandbox such as ``bwrap``, ``nsjail``, ``setpriv``);
- the harness process makes itself non-dumpable (``PR_SET_DUMPABLE``), so a
  bot running as the same non-root user cannot read its memory or environment
  through ``/proc``;
- every fault is a :class:`~harness.protocol.BotFault` with the forfeit reason
  and a detail (what it sent, its exit code or signal, its stderr tail); the
  process is then killed, and the next match gets a fresh one.

Processes are expensive to start, so a healthy process is kept after its match
in a :class:`ProcessPool` (one per worker process, keyed by the launch and the
bot options) and serves the next match that asks for the same bot.

A process that declares in ``ready`` that it holds several matches
(``"matches": N``) may serve up to N matches at once, when the matches are
opened by :mod:`harness.multiplex` (inside :func:`opening`): each request then
carries the match's id, several are written before the first answer is read,
and the answers, in request order, are handed to the :class:`ProcessBot` of
their match. It never serves two seats of one match, nor (unless
``reuse = "free"``) two matches of one match seed in its life. A crash, a
protocol error or a timeout kills it and forfeits its seat in every match it
was serving (at that seat's next decision); an ``error`` reply, an illegal
action or a non-string action forfeits only its match, and the process serves
no new match after its open ones end.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import dataclasses
import json
import mmap
import os
import pwd
import resource
import select
import shutil
import signal
import subprocess
import tempfile
import time
import weakref
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import TYPE_CHECKING, Any, NoReturn

from harness.bot import Bot
from harness.protocol import (
    MAX_REPLY_LINE,
    PROTOCOL_FAULT,
    BotFault,
    decode_answer,
    encode_end,
    encode_quit,
    encode_start,
    encode_view_act,
)
from harness.result import ForfeitReason

if TYPE_CHECKING:
    from harness.game import Game
    from harness.plugins import PluginSource
    from harness.result import Result
    from harness.view import View

__all__ = [
    "Launch",
    "ProcessBot",
    "ProcessFault",
    "ProcessPool",
    "ProcessSettings",
    "Watch",
    "default_pool",
    "note_ended",
    "opening",
    "set_watch",
]

#: Environment variables a bot inherits from the harness; every other one is
#: dropped (paths, tokens and a tournament's settings live in environments).
#: ``TMPDIR`` is set to the bot's own private folder.
KEPT_ENV = ("PATH", "LANG", "LC_ALL", "TZ")
#: Bytes of a bot's stderr kept for the forfeit detail (the last ones).
STDERR_LIMIT = 8 * 1024
_DETAIL_STDERR = 1500
#: Seconds given to a process that closed its stdout to exit by itself.
_EXIT_GRACE = 0.5
_READ_CHUNK = 64 * 1024
_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36

# Loaded before any fork: the child calls prctl between fork and exec.
_libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)


@dataclass(frozen=True)
class Launch:
    """How to start one bot program; with the bot options, the key of the pool."""

    #: The program and its arguments, e.g. ``("node", "examples/bots/random_bot.js")``.
    command: tuple[str, ...]
    #: Put in front of the command: a sandbox (``("bwrap", "--ro-bind", ...)``).
    prefix: tuple[str, ...] = ()
    #: Address-space limit (``RLIMIT_AS``) in MiB; ``None``: no limit.
    memory_mb: int | None = None
    #: Run the bot as this user (name or uid); needs a root harness.
    #: ``None``: as the harness.
    user: str | int | None = None
    #: Environment variables set for the bot, beyond :data:`KEPT_ENV`.
    env: tuple[tuple[str, str], ...] = ()
    #: The longest reply line accepted, in bytes.
    max_line: int = MAX_REPLY_LINE

    @property
    def argv(self) -> list[str]:
        """The full command line: prefix, then command."""
        return [*self.prefix, *self.command]


class BotProcess:
    """One running bot program: its pipes, bounded buffers and its end.

    Reads are non-blocking; :meth:`pump` reads what is there, :meth:`take_line`
    cuts one reply line off the buffer. :meth:`wait_readable` blocks with a deadline.
    """

    def __init__(self, launch: Launch) -> None:
        self.launch = launch
        self.out = bytearray()
        self.err = bytearray()
        self.eof = False
        self.closed = False
        #: Why it could not start, if it could not.
        self.start_error: str | None = None
        #: Matches begun on this process.
        self.matches = 0
        #: The match seeds of the matches it served: a process never sees a deal
        #: twice (duplicate deals replay the same cards in other seats).
        self.deals: set[int] = set()
        # -- the channel: the matches it serves and the requests in flight --
        #: Matches it declared it can hold at once (its last ``ready``).
        self.capacity = 1
        #: Requests and answers carry match ids (it declared ``matches`` > 1
        #: after a ``start`` that offered them).
        self.tagged = False
        #: Its open matches: id -> the ProcessBot of that seat.
        self.users: dict[int, ProcessBot] = {}
        #: The match key (see :func:`opening`) of each open match.
        self.keys: dict[int, Hashable] = {}
        #: Requests awaiting their answer, in order: [match id, bot or None
        #: (its match ended: the answer is read and dropped), expected type].
        self.pending: deque[list[Any]] = deque()
        #: Serves no new match (a seat of it forfeited in a match).
        self.retired = False
        #: Held by a match that does not share it (opened outside ``opening``).
        self.exclusive = False
        #: Bytes written by :meth:`queue` and not yet by :meth:`flush`.
        self.outbox = bytearray()
        #: The bots whose requests are in the outbox.
        self.unsent: list[ProcessBot] = []
        #: Called when something is queued (a driver that flushes in batches);
        #: None: :meth:`queue` writes at once.
        self.on_queue: Callable[[BotProcess], None] | None = None
        self._ids = 0
        # Its private folder (working directory and TMPDIR), removed when it ends.
        self.cwd = tempfile.mkdtemp(prefix="troef-bot-")
        _protect_harness_process()
        user = group = None
        if launch.user is not None:
            entry = (
                pwd.getpwuid(launch.user)
                if isinstance(launch.user, int)
                else pwd.getpwnam(launch.user)
            )
            user, group = entry.pw_uid, entry.pw_gid
            os.chown(self.cwd, user, group)
        try:
            self.popen: subprocess.Popen[bytes] | None = subprocess.Popen(
                launch.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=self.cwd,
                env={**_bot_env(launch.env), "TMPDIR": self.cwd},
                close_fds=True,
                # Its own process group: killpg takes its children.
                start_new_session=True,
                preexec_fn=_ChildLimits(launch.memory_mb),
                user=user,
                group=group,
                extra_groups=[] if user is not None else None,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            self.popen = None
            self.start_error = f"cannot start {launch.argv!r}: {exc}"
            self.eof = self.closed = True
            shutil.rmtree(self.cwd, ignore_errors=True)
            return
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        self.pid = self.popen.pid
        self.owner = os.getpid()
        _started.add(self)
        self.in_fd = self.popen.stdin.fileno()
        self.out_fd = self.popen.stdout.fileno()
        self.err_fd = self.popen.stderr.fileno()
        for fd in (self.in_fd, self.out_fd, self.err_fd):
            os.set_blocking(fd, False)
        self._poller = select.poll()
        self._poller.register(self.out_fd, select.POLLIN)
        self._poller.register(self.err_fd, select.POLLIN)

    # -- state ---------------------------------------------------------------

    def is_alive(self) -> bool:
        """True while the program runs and its pipes are open."""
        return (
            not self.closed
            and not self.eof
            and self.popen is not None
            and (self.popen.poll() is None)
        )

    # -- reading -------------------------------------------------------------

    def pump(self, fd: int) -> bool:
        """Read what is waiting on ``fd`` (stdout or stderr) into its buffer.

        Return False at the end of that stream.
        """
        try:
            chunk = os.read(fd, _READ_CHUNK)
        except BlockingIOError:
            return True
        except OSError:
            chunk = b""
        if fd == self.out_fd:
            if chunk:
                self.out += chunk
            else:
                self.eof = True
        elif chunk:
            self.err += chunk
            if len(self.err) > STDERR_LIMIT:
                del self.err[: len(self.err) - STDERR_LIMIT]
        return bool(chunk)

    def take_line(self) -> bytes | None:
        """Cut the next complete line off the stdout buffer, if there is one.

        :raises BotFault: the line is longer than the limit (a flood).
        """
        end = self.out.find(b"\n")
        limit = self.launch.max_line
        if end < 0:
            if len(self.out) > limit:
                raise self.flood_fault()
            return None
        if end > limit:
            raise self.flood_fault()
        line = bytes(self.out[:end])
        del self.out[: end + 1]
        return line

    # -- the channel: several matches on one process ---------------------------

    def open_match(self, bot: ProcessBot, key: Hashable | None) -> int:
        """Register ``bot``'s match here; its id on this process.

        ``key`` names the match (two seats of one match never share a
        process); ``None``: the match holds the process alone.
        """
        self._ids += 1
        self.users[self._ids] = bot
        self.keys[self._ids] = key
        self.exclusive = key is None
        self.matches += 1
        return self._ids

    def leave(self, match: int) -> None:
        """Forget match ``match``: answers still due to it are read and dropped."""
        self.users.pop(match, None)
        self.keys.pop(match, None)
        for entry in self.pending:
            if entry[0] == match:
                entry[1] = None
        if not self.users:
            self.exclusive = False

    def can_share(self, key: Hashable, deal: int | None) -> bool:
        """True if this busy process may also serve match ``key`` of ``deal``."""
        return (
            self.tagged
            and not self.exclusive
            and not self.retired
            and 0 < len(self.users) < self.capacity
            and key not in self.keys.values()
            and (deal is None or deal not in self.deals)
            and self.is_alive()
        )

    def queue(self, data: bytes, bot: ProcessBot | None, expected: str = "") -> None:
        """Add a message to the outbox; with ``bot``, a request that it answers.

        Written at once, unless a driver batches the writes (``on_queue``).
        """
        if bot is not None:
            self.pending.append([bot.match_id, bot, expected])
            self.unsent.append(bot)
        self.outbox += data
        if self.on_queue is not None:
            self.on_queue(self)
        else:
            self.flush()

    def flush(self) -> list[ProcessBot]:
        """Write what the outbox holds, as far as the pipe takes it now.

        Return the bots whose requests went out (their clocks start now).

        :raises BotFault: CRASH when the bot is gone.
        """
        sent, self.unsent = self.unsent, []
        if not self.outbox:
            return sent
        if self.closed:
            raise self.crash_fault()
        try:
            written = os.write(self.in_fd, self.outbox)
        except BlockingIOError:
            written = 0
        except (BrokenPipeError, ConnectionResetError):
            raise self.crash_fault() from None
        del self.outbox[:written]
        return sent

    def flush_all(self, deadline: float | None) -> None:
        """Write the whole outbox, waiting for room until ``deadline``.

        :raises BotFault: CRASH when the bot is gone, TIMEOUT when it does not
            read its input in time.
        """
        self.flush()
        while self.outbox:
            timeout = _remaining(deadline)
            if timeout is not None and timeout <= 0:
                self.kill()
                raise BotFault(
                    ForfeitReason.TIMEOUT,
                    "did not read its input in time; stopped" + self.stderr_tail(),
                )
            select.select([], [self.in_fd], [], timeout)
            self.flush()

    def next_answer(self) -> tuple[ProcessBot | None, Any, BotFault | None] | None:
        """The next whole answer read: its bot, its value and its own fault.

        The value is the action, or for ``ready`` the matches declared; the
        fault is an ``error`` reply, the bot's fault in that match alone.
        ``None``: no whole line yet.

        :raises ProcessFault: the process broke the protocol (a flood, output
            nobody asked for, garbage, an id out of order): every match it
            serves is forfeited.
        """
        head = self.pending[0] if self.pending else None
        try:
            line = self.take_line()
        except BotFault as fault:
            raise ProcessFault(fault, head[1] if head else None) from None
        if line is None:
            return None
        if head is None:
            raise ProcessFault(
                BotFault(
                    PROTOCOL_FAULT,
                    f"protocol error: output nobody asked for: {line[:80]!r}",
                ),
                None,
            )
        self.pending.popleft()
        match, bot, expected = head
        if self.out and not self.pending:
            # Strictly one line per request: more is a flood or a confused bot.
            raise ProcessFault(
                BotFault(
                    PROTOCOL_FAULT,
                    f"protocol error: more output after the {expected!r} reply: "
                    f"{bytes(self.out[:80])!r}",
                ),
                bot,
            )
        offered = bot is not None and bot.offered
        tag = match if self.tagged or (expected == "ready" and offered) else None
        try:
            value = decode_answer(line, expected, tag)
        except BotFault as fault:
            if fault.reason is PROTOCOL_FAULT:
                raise ProcessFault(fault, bot) from None
            return bot, None, fault
        if expected == "ready":
            self.capacity = value
            if value > 1 and offered:
                self.tagged = True
        return bot, value, None

    def fail(
        self, fault: BotFault, culprit: ProcessBot | None
    ) -> list[tuple[ProcessBot, BotFault]]:
        """Kill the process for ``fault``; every match it serves forfeits its seat.

        ``culprit`` (the bot whose request it failed) gets ``fault``; the others
        a fault of the same reason that says the process failed elsewhere.
        Return each bot with its fault.
        """
        self.kill()
        users = list(self.users.values())
        self.users.clear()
        self.keys.clear()
        self.pending.clear()
        self.outbox.clear()
        self.unsent = []
        affected = []
        for bot in users:
            mine = (
                fault
                if bot is culprit or culprit is None
                else BotFault(
                    fault.reason,
                    "the bot process serving this seat in several matches failed "
                    "in another one: " + fault.detail,
                )
            )
            bot._detach(mine)
            affected.append((bot, mine))
        return affected

    def wait_readable(self, deadline: float | None) -> bool:
        """Wait for output until ``deadline``; False when it passed."""
        timeout = _remaining(deadline)
        if timeout is not None and timeout <= 0:
            return False
        ms = -1 if timeout is None else max(1, int(timeout * 1000 + 0.999))
        for fd, _ in self._poller.poll(ms):
            if not self.pump(fd) and fd == self.err_fd:
                self._poller.unregister(fd)  # closed stderr would wake us for ever
        return True

    # -- ending --------------------------------------------------------------

    def kill(self) -> None:
        """Kill the bot and everything in its process group; reap it; clean up."""
        if self.closed:
            return
        self.closed = True
        _started.discard(self)
        assert self.popen is not None
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            self.popen.kill()
        self._drain_stderr()
        self.popen.wait()
        self._close_pipes()

    def pause(self, stop: bool) -> None:
        """Stop (``SIGSTOP``) or continue (``SIGCONT``) its process group."""
        if self.closed:
            return
        with contextlib.suppress(OSError):
            os.killpg(self.pid, signal.SIGSTOP if stop else signal.SIGCONT)

    def ask_to_quit(self) -> None:
        """Send ``quit`` and close the bot's input; it should exit by itself."""
        if self.closed or self.popen is None or self.popen.stdin is None:
            return
        try:
            os.write(self.in_fd, encode_quit())
        except OSError:
            pass
        try:
            self.popen.stdin.close()
        except OSError:
            pass

    def quit(self, deadline: float | None = None) -> None:
        """Ask the bot to exit; kill it if it lingers past ``deadline``."""
        if self.closed:
            return
        self.ask_to_quit()
        assert self.popen is not None
        if deadline is None:
            deadline = perf_counter() + _EXIT_GRACE
        try:
            self.popen.wait(max(0.0, deadline - perf_counter()))
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def _close_pipes(self) -> None:
        assert self.popen is not None
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        shutil.rmtree(self.cwd, ignore_errors=True)

    def _drain_stderr(self) -> None:
        # What the bot wrote last (a traceback, "out of memory") is the detail.
        for _ in range(16):
            before = len(self.err)
            self.pump(self.err_fd)
            if len(self.err) == before:
                break

    # -- faults --------------------------------------------------------------

    def exit_status(self) -> str:
        """How the program ended, for a detail: an exit code or a signal."""
        if self.popen is None:
            return self.start_error or "did not start"
        code = self.popen.returncode
        if code is None:
            return "still running"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = "an unknown signal"
            return f"killed by signal {name} ({-code})"
        return f"exited with code {code}"

    def stderr_tail(self) -> str:
        """The end of what the bot wrote to stderr, as a detail suffix."""
        if not self.err:
            return ""
        text = bytes(self.err[-_DETAIL_STDERR:]).decode("utf-8", "replace")
        return f"\nstderr (last {len(text)} chars):\n{text}"

    def crash_fault(self) -> BotFault:
        """The bot closed its output or died: kill what is left and describe it."""
        if self.popen is not None and not self.closed:
            try:
                self.popen.wait(_EXIT_GRACE)
                how = self.exit_status()
            except subprocess.TimeoutExpired:
                how = "closed its output but kept running; stopped"
            self.kill()
        else:
            how = self.exit_status()
        memory = self.launch.memory_mb
        if memory is not None and "signal" in how:
            how += f" (memory limit {memory} MiB)"
        return BotFault(ForfeitReason.CRASH, f"bot process {how}" + self.stderr_tail())

    def timeout_fault(self, waiting_for: str) -> BotFault:
        """No answer in time: kill the bot and describe it."""
        self.kill()
        return BotFault(
            ForfeitReason.TIMEOUT,
            f"no {waiting_for}; bot process stopped" + self.stderr_tail(),
        )

    def flood_fault(self) -> BotFault:
        """A reply line over the limit: kill the bot and describe it."""
        head = bytes(self.out[:60])
        size = len(self.out)
        self.kill()
        self.out.clear()
        return BotFault(
            PROTOCOL_FAULT,
            f"protocol error: reply line longer than {self.launch.max_line} bytes "
            f"(flood; {size}+ bytes read, starting {head!r}); bot process stopped",
        )


class ProcessFault(BotFault):
    """A fault of a whole bot process (it serves several matches): ``culprit``
    is the bot whose request it failed, if one."""

    def __init__(self, fault: BotFault, culprit: ProcessBot | None) -> None:
        super().__init__(fault.reason, fault.detail)
        self.culprit = culprit


#: The match being opened (see :func:`opening`), or None.
_opening: Hashable | None = None


@contextlib.contextmanager
def opening(match: Hashable) -> Iterator[None]:
    """Build the bots of match ``match`` inside this: their processes may be
    shared with other matches (never with another seat of this one)."""
    global _opening
    before, _opening = _opening, match
    try:
        yield
    finally:
        _opening = before


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


class _ChildLimits:
    """Runs in the child between fork and exec (after the user switch)."""

    def __init__(self, memory_mb: int | None) -> None:
        self.memory_mb = memory_mb

    def __call__(self) -> None:
        # Die with the harness: a worker killed by the scheduler must not leave bots.
        _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if self.memory_mb is not None:
            size = self.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))


_protected_pid = 0


def _protect_harness_process() -> None:
    # Non-dumpable: /proc/<pid>/mem, environ, maps, fd and ptrace of this process
    # are refused to other processes of the same user without CAP_SYS_PTRACE.
    global _protected_pid
    if _protected_pid != os.getpid():
        _libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
        _protected_pid = os.getpid()


def _bot_env(extra: tuple[tuple[str, str], ...]) -> dict[str, str]:
    env = {k: os.environ[k] for k in KEPT_ENV if k in os.environ}
    env.setdefault("PATH", os.defpath)
    env.update(extra)
    return env


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else deadline - perf_counter()


class ProcessPool:
    """Idle bot processes of one worker process, kept for the next match.

    A process is handed out to one seat of one match at a time
    (:meth:`acquire`), comes back healthy after the match (:meth:`release`), and
    is killed after any fault. Pools do not cross ``fork``: a child process
    forgets what it inherited.
    """

    def __init__(self, *, max_idle: int = 64) -> None:
        self.max_idle = max_idle
        self._idle: dict[tuple[Launch, str], list[BotProcess]] = {}
        #: Processes serving matches that may take more (see ``opening``).
        self._busy: dict[tuple[Launch, str], list[BotProcess]] = {}
        self._pid = os.getpid()
        #: Processes started by this pool (for tests and benchmarks).
        self.started = 0

    def acquire(
        self,
        launch: Launch,
        options_key: str,
        deal: int | None = None,
        match: Hashable | None = None,
    ) -> BotProcess:
        """A live process for ``launch`` and these options, or a new one.

        :param deal: the match seed of the match it will serve; a process that
            served a match of this seed is not handed out (it could remember
            the cards), a new one starts instead. None: any process (trusted).
        :param match: the key of the match (see :func:`opening`): a process
            that declared room for more matches and serves no other seat of
            this one may be shared. None: a process of its own.
        """
        self._forget_after_fork()
        if match is not None:
            busy = self._busy.setdefault((launch, options_key), [])
            busy[:] = [p for p in busy if p.users and not p.closed and not p.retired]
            for process in busy:
                if process.can_share(match, deal):
                    return process
        process = self._take_idle(launch, options_key, deal)
        if match is not None:
            self._busy[(launch, options_key)].append(process)
        return process

    def _take_idle(
        self, launch: Launch, options_key: str, deal: int | None
    ) -> BotProcess:
        idle = self._idle.get((launch, options_key))
        for index in range(len(idle or ()) - 1, -1, -1):
            assert idle is not None
            process = idle[index]
            if not process.is_alive() or process.out:
                del idle[index]
                process.kill()
                continue
            if deal is None or deal not in process.deals:
                del idle[index]
                process.pause(False)
                return process
        self.started += 1
        return BotProcess(launch)

    def release(self, process: BotProcess, options_key: str) -> None:
        """Take back a process whose match ended cleanly."""
        self._forget_after_fork()
        idle = self._idle.setdefault((process.launch, options_key), [])
        if process.is_alive() and len(idle) < self.max_idle:
            # Stopped while idle: it can do nothing between its matches (no
            # signal to the worker while another bot is awaited, no CPU taken
            # from the bots that play).
            process.pause(True)
            idle.append(process)
        else:
            process.kill()

    def close(self) -> None:
        """Ask every idle process to quit; kill the ones that linger."""
        if os.getpid() != self._pid:
            self._idle.clear()
            self._busy.clear()
            return
        processes = [p for idle in self._idle.values() for p in idle]
        self._idle.clear()
        self._busy.clear()
        for process in processes:
            process.pause(False)
            process.ask_to_quit()
        deadline = perf_counter() + _EXIT_GRACE
        for process in processes:
            process.quit(deadline)

    def idle_count(self) -> int:
        """How many idle processes the pool holds."""
        return sum(len(v) for v in self._idle.values())

    def _forget_after_fork(self) -> None:
        if os.getpid() != self._pid:
            # Inherited from the parent: its processes, not ours to talk to.
            self._idle = {}
            self._busy = {}
            self._pid = os.getpid()


#: Bot processes started here and not yet killed (for :func:`end_descendants`).
_started: weakref.WeakSet[BotProcess] = weakref.WeakSet()

#: The pool of this process; ``ProcessBot`` uses it unless given another.
default_pool = ProcessPool()
atexit.register(lambda: default_pool.close())


class ProcessBot(Bot):
    """A bot that runs as a separate program speaking the bot protocol.

    :param command: the program and its arguments.
    :param prefix: a command put in front (a sandbox).
    :param memory_mb: address-space limit of the bot process, in MiB.
    :param user: run the bot as this user (the harness must be root).
    :param env: environment variables for the bot (the harness's are scrubbed).
    :param n_seats: the number of seats of the match, told to the bot.
    :param startup_timeout: seconds to answer ``start`` with ``ready`` (off the clock).
    :param hang_timeout: seconds after which a decision without a time
        control counts as a hang (TIMEOUT); ``None``: wait for ever.
    :param max_line: the longest reply line accepted, in bytes.
    :param pool: where processes are kept between matches.
    :param pipeline: built inside :func:`opening`, the bot may share a process
        that declared room for several matches; False: one match per process
        at a time, one request at a time (for tight time controls: a
        pipelined request waits behind the others written before it).

    Construction never raises for a bot that fails to start: the fault is kept
    and raised from :meth:`prepare`, so that the referee records the forfeit.
    """

    name = "process"

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        *,
        command: Sequence[str],
        prefix: Sequence[str] = (),
        memory_mb: int | None = None,
        user: str | int | None = None,
        env: Mapping[str, str] | None = None,
        n_seats: int | None = None,
        startup_timeout: float = 30.0,
        hang_timeout: float | None = 60.0,
        max_line: int = MAX_REPLY_LINE,
        pool: ProcessPool | None = None,
        tag: str = "",
        deal: int | None = None,
        pipeline: bool = True,
    ) -> None:
        # Not Bot.__init__: the options belong to the program, which checks them.
        self.game, self.seat, self.seed = game, seat, seed
        self.options = dict(options or {})
        self.launch = Launch(
            tuple(command),
            tuple(prefix),
            memory_mb,
            user,
            tuple(sorted((env or {}).items())),
            max_line,
        )
        self.startup_timeout = startup_timeout
        self.hang_timeout = hang_timeout
        #: "job-id seat": what the worker's :class:`Watch` names while it waits.
        self.tag = tag
        self.pool = default_pool if pool is None else pool
        self.pipeline = pipeline
        key = _opening if pipeline else None
        #: The ``start`` offers pipelining (a match id): opened inside ``opening``.
        self.offered = key is not None
        # Bots that do not pipeline never share a process with bots that do.
        self._options_key = json.dumps(self.options, sort_keys=True, default=repr) + (
            "" if pipeline else " one-at-a-time"
        )
        self._fault: BotFault | None = None
        self._awaiting_ready = True
        #: This match's id on its process.
        self.match_id = 0
        #: An answer read for this bot by another's wait (value, own fault).
        self._mail: tuple[Any, BotFault | None] | None = None
        self._process: BotProcess | None = self.pool.acquire(
            self.launch, self._options_key, deal, key
        )
        process = self._process
        if deal is not None:
            process.deals.add(deal)
        if process.start_error is not None:
            self._record(BotFault(ForfeitReason.CRASH, process.start_error))
            return
        # A process that pipelines hears ids from every match, shared or not.
        self.offered = self.offered or process.tagged
        self.match_id = process.open_match(self, key)
        message = encode_start(
            game=game.name,
            game_options=game.options,
            seat=seat,
            n_seats=n_seats,
            bot_options=self.options,
            seed=seed,
            match=self.match_id if self.offered else None,
        )
        self._awaiting()
        try:
            process.queue(message, self, "ready")
            if process.on_queue is None:
                process.flush_all(perf_counter() + startup_timeout)
        except BotFault as fault:
            self._record_process(process, fault)

    def __repr__(self) -> str:
        return f"ProcessBot(seat={self.seat}, command={list(self.launch.argv)!r})"

    @property
    def pid(self) -> int | None:
        """The process id of the bot program now serving this bot, if any."""
        return (
            None if self._process is None or self._process.closed else self._process.pid
        )

    @property
    def process(self) -> BotProcess | None:
        """The bot program serving this match (``None`` once released or failed)."""
        return self._process

    # -- the referee's side (synchronous) --------------------------------------

    def prepare(self) -> None:
        """Wait for the bot's ``ready``, within ``startup_timeout``."""
        if self._fault is not None:
            raise self._fault
        if not self._awaiting_ready:
            return
        self._wait_answer(
            perf_counter() + self.startup_timeout,
            f"'ready' reply within {self.startup_timeout:g} s (startup)",
        )

    def act(self, view: View) -> str:
        """The bot's action for ``view``, waiting at most ``hang_timeout``."""
        return self.act_within(view, None)

    def act_within(self, view: View, seconds: float | None) -> str:
        """Send the view, wait for the action; kill the bot at the limit."""
        self.prepare()
        limit = self.hang_timeout if seconds is None else seconds
        deadline = None if limit is None else perf_counter() + limit
        process = self._live()
        self._check_quiet(process)
        self._request(process, view, seconds)
        try:
            process.flush_all(deadline)
        except BotFault as fault:
            self._fail_process(process, fault)
        return self._wait_answer(  # type: ignore[no-any-return]
            deadline,
            "'action' reply" if limit is None else f"'action' reply within {limit:g} s",
        )

    def match_over(self, result: Result) -> None:
        """Tell the bot the result; keep its process for the next match."""
        self._answered()
        process, self._process = self._process, None
        if process is None or process.closed:
            return
        forfeit = result.forfeit
        process.leave(self.match_id)
        if self._awaiting_ready or (forfeit is not None and forfeit.seat == self.seat):
            # It never finished its handshake, or forfeited (an illegal action
            # too): it serves no new match.
            process.retired = True
        if process.users:
            # Other matches still play on it; it hears this one's end.
            if not process.retired:
                self._tell_end(process, result)
            return
        if process.retired or process.out or process.pending or not process.is_alive():
            # Said more than it was asked, or is not healthy: the next match
            # gets a fresh process.
            process.kill()
            return
        if not self._tell_end(process, result):
            return
        self.pool.release(process, self._options_key)

    def abandon(self) -> None:
        """Its match ended by an error outside the bot: drop it from its process,
        which is killed unless it serves other matches."""
        self._answered()
        process, self._process = self._process, None
        if process is None:
            return
        process.leave(self.match_id)
        if not process.users:
            process.kill()

    # -- the multiplexer's side (non-blocking) ---------------------------------

    def begin_act(self, view: View, seconds: float | None = None) -> None:
        """Queue an ``act`` request without waiting for the answer (``seconds``:
        the decision's limit, told to the bot).

        :raises BotFault: a fault recorded for this seat (its process failed),
            or the bot is gone.
        """
        process = self._live()
        if process.eof:
            self._fail_process(process, process.crash_fault())
        self._request(process, view, seconds)

    def receive(self, value: Any, fault: BotFault | None) -> Any:
        """Take the answer read for this bot: the action (or the matches its
        ``ready`` declared).

        :raises BotFault: its ``error`` reply, forfeiting this match alone.
        """
        self._answered()
        if fault is not None:
            self._fail_alone(fault)
        if self._awaiting_ready:
            self._awaiting_ready = False
        return value

    @property
    def awaiting_ready(self) -> bool:
        """True until the bot has answered ``start``."""
        return self._awaiting_ready

    # -- helpers -----------------------------------------------------------------

    def _request(self, process: BotProcess, view: View, seconds: float | None) -> None:
        self._awaiting()
        process.queue(
            encode_view_act(view, seconds, self.match_id if process.tagged else None),
            self,
            "action",
        )

    def _wait_answer(self, deadline: float | None, waiting_for: str) -> Any:
        """Read answers (handing others' to their bots) until this bot's comes."""
        process = self._live()
        while self._mail is None:
            try:
                got = process.next_answer()
            except ProcessFault as fault:
                process.fail(fault, fault.culprit)
                raise self._live_fault() from None
            if got is not None:
                bot, value, own = got
                if bot is not None:
                    bot._mail = (value, own)
                continue
            if process.eof:
                self._fail_process(process, process.crash_fault())
            if not process.wait_readable(deadline):
                self._fail_process(process, process.timeout_fault(waiting_for))
        (value, own), self._mail = self._mail, None
        return self.receive(value, own)

    def _live_fault(self) -> BotFault:
        assert self._fault is not None
        return self._fault

    def _live(self) -> BotProcess:
        if self._fault is not None:
            raise self._fault
        assert self._process is not None, "ProcessBot used after its match ended"
        return self._process

    def _check_quiet(self, process: BotProcess) -> None:
        # Before a request the bot has nothing to say but answers still due:
        # output now is unasked for.
        if process.out and not process.pending:
            self._fail_process(
                process,
                BotFault(
                    PROTOCOL_FAULT,
                    "protocol error: output nobody asked for: "
                    f"{bytes(process.out[:80])!r}",
                ),
            )
        if process.eof:
            self._fail_process(process, process.crash_fault())

    def _tell_end(self, process: BotProcess, result: Result) -> bool:
        try:
            process.queue(
                encode_end(result, self.match_id if process.tagged else None), None
            )
        except (OSError, BotFault):  # a dead bot: not worth keeping
            process.kill()
            return False
        return True

    def _fail_process(self, process: BotProcess, fault: BotFault) -> NoReturn:
        """The process failed: every match it serves forfeits; raise ours."""
        self._record_process(process, fault)
        raise self._live_fault()

    def _record_process(self, process: BotProcess, fault: BotFault) -> None:
        process.fail(fault, self)
        if self._fault is None:  # not among its users (it never opened)
            self._detach(fault)

    def _fail_alone(self, fault: BotFault) -> NoReturn:
        """This match alone forfeits: the process finishes its other matches
        and then ends (it serves no new one)."""
        process = self._process
        self._detach(fault)
        if process is not None:
            process.leave(self.match_id)
            process.retired = True
            if not process.users:
                process.kill()
        raise fault

    def _detach(self, fault: BotFault) -> None:
        """Record ``fault`` for this seat; the bot no longer has a process."""
        self._answered()
        self._fault = fault
        self._process = None

    def _awaiting(self) -> None:
        if _watch is not None and self.tag:
            _watch.mark(id(self), self.tag)

    def _answered(self) -> None:
        if _watch is not None and self.tag:
            _watch.clear(id(self))

    def _record(self, fault: BotFault) -> None:
        """Record ``fault`` and kill the process: a fresh one serves the next match."""
        process = self._process
        self._detach(fault)
        if process is not None:
            process.kill()


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


@dataclass(frozen=True)
class ProcessSettings:
    """How one entrant runs in process isolation: plain data, from the config.

    The executor builds a :class:`ProcessBot` per seat with :meth:`bot`.
    """

    #: The bot program; empty: serve the entrant's plugin bot with ``harness.bothost``.
    command: tuple[str, ...] = ()
    #: The entrant's own plugin files, loaded by its host beside the run's.
    plugins: tuple[str, ...] = ()
    #: A sandbox command put in front.
    prefix: tuple[str, ...] = ()
    #: Address-space limit in MiB.
    memory_mb: int | None = None
    #: Run the bot as this user (root harness only). A config resolves it:
    #: under root an untrusted bot gets ``nobody`` unless it names another
    #: (:func:`harness.botuser.default_user`); None runs it as the harness.
    user: str | None = None
    #: Seconds to answer ``start``.
    startup_timeout: float = 30.0
    #: Seconds after which a decision without a time control is a hang.
    hang_timeout: float | None = 60.0
    #: "fresh-deals": a process never serves two matches of one match seed
    #: (untrusted: it could remember the cards); "free": any reuse (trusted).
    reuse: str = "fresh-deals"
    #: True: a process that declares room for several matches serves several
    #: at once (pipelined requests); False: one match and one request at a time.
    pipeline: bool = True

    def bot(
        self,
        game: Game,
        seat: int,
        seed: int,
        options: Mapping[str, Any] | None,
        *,
        bot_name: str,
        source: PluginSource,
        n_seats: int,
        pool: ProcessPool | None = None,
        tag: str = "",
        deal: int | None = None,
    ) -> ProcessBot:
        """A ProcessBot for ``seat`` (``tag``: "job-id seat", for the watch).

        Without a ``command``, plugin bot ``bot_name`` is served from ``source``.
        """
        from harness.bothost import host_command

        if self.plugins:
            files = (*source.files, *(p for p in self.plugins if p not in source.files))
            source = dataclasses.replace(source, files=files)
        command = self.command or tuple(host_command(bot_name, source))
        return ProcessBot(
            game,
            seat,
            seed,
            options,
            command=command,
            prefix=self.prefix,
            memory_mb=self.memory_mb,
            user=self.user,
            n_seats=n_seats,
            startup_timeout=self.startup_timeout,
            hang_timeout=self.hang_timeout,
            pool=pool,
            tag=tag,
            deal=None if self.reuse == "free" else deal,
            pipeline=self.pipeline,
        )
