"""One running bot program (:class:`BotProcess`): its pipes, buffers and end.

A :class:`BotProcess` is the harness's end of one bot program: it starts the
program, writes requests to its stdin and reads replies and stderr into bounded
buffers without blocking, describes its faults (a crash, a timeout, a flood)
and kills it. :class:`~harness.isolation.botprocess.ProcessBot` is the
referee's bot that talks through it.

What the boundary gives (``docs/THREAT_MODEL.md`` has the whole story): a bot
starts in a fresh empty working directory, with a scrubbed environment
(:data:`~harness.isolation.launch.KEPT_ENV`), no inherited file descriptors but
its three pipes, in its own process group (a kill takes its children too), with
a parent-death signal, optionally an address-space limit (``memory_mb``),
another user (``user``), a command prefix (``prefix``: a sandbox such as
``nsjail``, ``setpriv``) and, for untrusted bots by default, the bubblewrap
sandbox of :mod:`harness.isolation.sandbox` (``sandbox = "bwrap"``: its own
namespaces, no network, only its own files, a uid of its own under root);
:class:`~harness.isolation.launch.Launch` holds these settings. The harness
process is made non-dumpable first (:mod:`harness.isolation.reaper`, where
each bot program is also registered so that a leaving worker ends it).

A healthy process is kept after its match by
:class:`~harness.isolation.botpool.ProcessPool` for the next one. A process that
declared room for several matches holds several at once: their bots
(:class:`ProcessUser`), their ids, and the requests in flight, in order.
"""

from __future__ import annotations

import contextlib
import errno
import os
import pwd
import select
import shutil
import signal
import subprocess
import tempfile
from collections import deque
from collections.abc import Callable, Hashable
from typing import Any, Protocol

from harness.contracts.errors import BotFault
from harness.contracts.result import ForfeitReason
from harness.isolation import sandbox
from harness.isolation.launch import Launch, _bot_env, _ChildLimits
from harness.isolation.protocol import (
    PROTOCOL_FAULT,
    decode_answer,
    encode_quit,
)
from harness.isolation.reaper import _protect_harness_process, _started
from harness.match.clock import SLICE, harness_clock, remaining

__all__ = ["BotProcess", "ProcessFault", "ProcessUser"]

#: Bytes of a bot's stderr kept for the forfeit detail (the last ones).
STDERR_LIMIT = 8 * 1024
_DETAIL_STDERR = 1500
#: Seconds given to a process that closed its stdout to exit by itself.
_EXIT_GRACE = 0.5
_READ_CHUNK = 64 * 1024


class ProcessUser(Protocol):
    """The bot of one match that a :class:`BotProcess` serves (a
    :class:`~harness.isolation.botprocess.ProcessBot`): what the process reads
    and calls."""

    #: The match's id on its process.
    match_id: int
    #: Its ``start`` offered pipelining (a match id).
    offered: bool

    def _detach(self, fault: BotFault) -> None:
        """Record ``fault`` for this seat; the bot no longer has a process."""


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
        self.users: dict[int, ProcessUser] = {}
        #: The match key (see :func:`~harness.isolation.botprocess.opening`) of
        #: each open match.
        self.keys: dict[int, Hashable] = {}
        #: Requests awaiting their answer, in order: [match id, bot or None
        #: (its match ended: the answer is read and dropped), expected type].
        self.pending: deque[list[Any]] = deque()
        #: Serves no new match (a seat of it forfeited in a match).
        self.retired = False
        #: Bytes written by :meth:`queue` and not yet by :meth:`flush`.
        self.outbox = bytearray()
        #: The bots whose requests are in the outbox.
        self.unsent: list[ProcessUser] = []
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
        argv = launch.argv
        #: The uid and gid of its own it runs as in the sandbox (root harness).
        self.ids: tuple[int, int] | None = None
        if launch.sandbox == "bwrap":
            if user is None:
                self.ids = sandbox.process_ids()
                ids = self.ids
            else:
                # Its own user needs no switch; root knowingly still loses
                # its capabilities (wrap drops them for uid 0).
                own = user == os.geteuid() != 0
                ids = None if own else (user, group if group is not None else user)
            argv = sandbox.wrap(argv, cwd=self.cwd, binds=launch.binds, ids=ids)
            if ids is not None:
                os.chown(self.cwd, *ids)
            user = group = None  # bwrap starts as the harness; setpriv switches
        elif user is not None and group is not None:
            os.chown(self.cwd, user, group)
        try:
            if argv is not launch.argv:
                _check_program(launch.argv[0])
            self.popen: subprocess.Popen[bytes] | None = subprocess.Popen(
                argv,
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
            sandbox.release_ids(self.ids)
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

    def open_match(self, bot: ProcessUser, key: Hashable | None) -> int:
        """Register ``bot``'s match here; its id on this process.

        ``key`` names the match (two seats of one match never share a
        process); ``None``: the match holds the process alone.
        """
        self._ids += 1
        self.users[self._ids] = bot
        self.keys[self._ids] = key
        return self._ids

    def leave(self, match: int) -> None:
        """Forget match ``match``: answers still due to it are read and dropped."""
        self.users.pop(match, None)
        self.keys.pop(match, None)
        for entry in self.pending:
            if entry[0] == match:
                entry[1] = None

    @property
    def exclusive(self) -> bool:
        """Held by a match that does not share it (opened outside
        ``botprocess.opening``)."""
        return None in self.keys.values()

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

    def queue(self, data: bytes, bot: ProcessUser | None, expected: str = "") -> None:
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

    def flush(self) -> list[ProcessUser]:
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
            timeout = remaining(deadline)
            if timeout is not None and timeout <= 0:
                self.kill()
                raise BotFault(
                    ForfeitReason.TIMEOUT,
                    "did not read its input in time; stopped" + self.stderr_tail(),
                )
            select.select([], [self.in_fd], [], _slice(timeout))
            self.flush()

    def next_answer(self) -> tuple[ProcessUser | None, Any, BotFault | None] | None:
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
        self, fault: BotFault, culprit: ProcessUser | None
    ) -> list[tuple[ProcessUser, BotFault]]:
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
        """Wait for output until ``deadline`` (on the harness's clock), at most
        :data:`~harness.match.clock.SLICE`; False when the deadline passed."""
        timeout = remaining(deadline)
        if timeout is not None and timeout <= 0:
            return False
        ms = -1 if timeout is None else max(1, int(_slice(timeout) * 1000 + 0.999))
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
        sandbox.release_ids(self.ids)
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
            deadline = harness_clock() + _EXIT_GRACE
        try:
            self.popen.wait(max(0.0, deadline - harness_clock()))
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
        if self.launch.sandbox == "bwrap" and code > 128:
            # bwrap exits 128 + N when the bot died of signal N, as a shell does.
            code = -(code - 128)
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

    def __init__(self, fault: BotFault, culprit: ProcessUser | None) -> None:
        super().__init__(fault.reason, fault.detail)
        self.culprit = culprit


def _slice(timeout: float | None) -> float:
    # A wait reads the harness's clock again at least every SLICE: a stop of
    # the harness takes at most that much of the bot's own time with it.
    return SLICE if timeout is None else min(timeout, SLICE)


def _check_program(program: str) -> None:
    """Fail as starting ``program`` would, before it is wrapped in a sandbox
    (whose own error would only come from inside, as an exit status).

    :raises FileNotFoundError: no such program (on the bot's ``PATH``).
    """
    path = os.environ.get("PATH") or os.defpath
    found = program if os.sep in program else shutil.which(program, path=path)
    if found is None or not os.path.exists(found):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
