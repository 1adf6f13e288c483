"""The pool that keeps bot programs between matches (:class:`ProcessPool`).

Processes are expensive to start, so a healthy
:class:`~harness.isolation.botprogram.BotProcess` is kept after its match in a
:class:`ProcessPool` (one per worker process, keyed by the
:class:`~harness.isolation.launch.Launch` and the bot options) and serves the
next match that asks for the same bot: stopped while idle, never handed out
for a deal it has seen, shared by several matches when it declared room for
them. :data:`default_pool` is the pool of this process.
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Hashable

from harness.isolation.botprogram import _EXIT_GRACE, BotProcess
from harness.isolation.launch import Launch
from harness.match.clock import harness_clock

__all__ = ["ProcessPool", "default_pool"]


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
        #: Processes serving matches that may take more (see ``botprocess.opening``).
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
        :param match: the key of the match (see
            :func:`~harness.isolation.botprocess.opening`): a process that
            declared room for more matches and serves no other seat of this one
            may be shared. None: a process of its own.
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
        deadline = harness_clock() + _EXIT_GRACE
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


#: The pool of this process; ``ProcessBot`` uses it unless given another.
default_pool = ProcessPool()
atexit.register(lambda: default_pool.close())
