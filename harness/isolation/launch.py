"""How a bot program is started: its launch settings and what the child gets.

:class:`Launch` says what to run and under which limits (with the bot options
it is the key of :class:`~harness.isolation.botpool.ProcessPool`);
:data:`KEPT_ENV` and :func:`_bot_env` make the scrubbed environment a bot
inherits, and :class:`_ChildLimits` runs in the child between fork and exec
(parent-death signal, no core dumps, the address-space limit).
:class:`~harness.isolation.botprogram.BotProcess` starts the program with them,
inside the sandbox of :mod:`harness.isolation.sandbox` when ``sandbox`` says so.
"""

from __future__ import annotations

import os
import resource
import signal
from dataclasses import dataclass

from harness.isolation.protocol import MAX_REPLY_LINE
from harness.isolation.reaper import _PR_SET_PDEATHSIG, _libc

__all__ = ["KEPT_ENV", "Launch"]

#: Environment variables a bot inherits from the harness; every other one is
#: dropped (paths, tokens and a tournament's settings live in environments).
#: ``TMPDIR`` is set to the bot's own private folder.
KEPT_ENV = ("PATH", "LANG", "LC_ALL", "TZ")


@dataclass(frozen=True)
class Launch:
    """How to start one bot program; with the bot options, the key of the pool."""

    #: The program and its arguments, e.g. ``("node", "examples/bots/random_bot.js")``.
    command: tuple[str, ...]
    #: Put in front of the command: another sandbox (``("nsjail", ...)``).
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
    #: ``"bwrap"``: run in the system sandbox (:mod:`harness.isolation.sandbox`);
    #: ``"none"``: behind the process boundary alone.
    sandbox: str = "none"
    #: Paths the sandbox shows read-only beyond what the command names (the
    #: Python host's packages: :func:`~harness.isolation.sandbox.python_binds`).
    binds: tuple[str, ...] = ()

    @property
    def argv(self) -> list[str]:
        """The full command line: prefix, then command."""
        return [*self.prefix, *self.command]


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


def _bot_env(extra: tuple[tuple[str, str], ...]) -> dict[str, str]:
    env = {k: os.environ[k] for k in KEPT_ENV if k in os.environ}
    env.setdefault("PATH", os.defpath)
    env.update(extra)
    return env
