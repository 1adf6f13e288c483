"""Bots in their own processes: :class:`ProcessBot` speaks the bot protocol.

A :class:`ProcessBot` is a :class:`~harness.Bot` like any other for the
referee (``act(view) -> str``), but its decisions are made by a program in a
separate process, in any language, that speaks the line-delimited JSON
protocol of :mod:`harness.isolation.protocol` (``docs/PROTOCOL.md``). Python
plugin bots run that way under :mod:`harness.isolation.bothost`. The program
runs as a :class:`~harness.isolation.botprogram.BotProcess` taken from a
:class:`~harness.isolation.botpool.ProcessPool`
(:mod:`harness.isolation.botprogram` has the boundary it starts behind,
:mod:`harness.isolation.launch` its settings; :mod:`harness.isolation.reaper`
ends what a worker leaves).

What the bot is told and what its faults cost (``docs/THREAT_MODEL.md`` has
the whole story):

- the bot sees only the Views sent to it, its own seat, its bot seed (never the
  match seed) and the game's name and options;
- every fault is a :class:`~harness.contracts.errors.BotFault` with the forfeit
  reason and a detail (what it sent, its exit code or signal, its stderr tail);
  the process is then killed, and the next match gets a fresh one.

A process that declares in ``ready`` that it holds several matches
(``"matches": N``) may serve up to N matches at once, when the matches are
opened by :mod:`harness.isolation.multiplex` (inside :func:`opening`): each
request then carries the match's id, several are written before the first
answer is read, and the answers, in request order, are handed to the
:class:`ProcessBot` of their match. It never serves two seats of one match, nor
(unless ``reuse = "free"``) two matches of one match seed in its life. A crash,
a protocol error or a timeout kills it and forfeits its seat in every match it
was serving (at that seat's next decision); an ``error`` reply, an illegal
action or a non-string action forfeits only its match, and the process serves
no new match after its open ones end.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shutil
import sys
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, cast

from harness.contracts.bot import Bot
from harness.contracts.errors import BotFault
from harness.contracts.result import ForfeitReason
from harness.isolation import reaper
from harness.isolation.botpool import ProcessPool, default_pool
from harness.isolation.botprogram import BotProcess, ProcessFault
from harness.isolation.launch import Launch
from harness.isolation.protocol import (
    MAX_REPLY_LINE,
    PROTOCOL_FAULT,
    encode_end,
    encode_start,
    encode_view_act,
)
from harness.isolation.sandbox import command_binds, python_binds
from harness.match.clock import harness_clock

if TYPE_CHECKING:
    from harness.contracts.game import Game
    from harness.contracts.result import Result
    from harness.contracts.view import View
    from harness.plugins import PluginSource

__all__ = ["ProcessBot", "ProcessSettings", "opening"]

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
    :param sandbox: ``"bwrap"``: run in the system sandbox
        (:mod:`harness.isolation.sandbox`); ``"none"``: without.
    :param binds: more paths the sandbox shows read-only (the Python host's
        packages).
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
        sandbox: str = "none",
        binds: Sequence[str] = (),
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
            sandbox,
            tuple(binds),
        )
        self.startup_timeout = startup_timeout
        self.hang_timeout = hang_timeout
        #: "job-id seat": what the worker's
        #: :class:`~harness.isolation.reaper.Watch` names while it waits.
        self.tag = tag
        self.pool = default_pool if pool is None else pool
        key = _opening if pipeline else None
        #: The ``start`` offers pipelining (a match id): opened inside
        #: ``opening``, or on a process that pipelines for its other matches.
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
            self._detach(BotFault(ForfeitReason.CRASH, process.start_error))
            return
        # A process that pipelines hears ids from every match, shared or not.
        self.offered = key is not None or process.tagged
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
                process.flush_all(harness_clock() + startup_timeout)
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
            harness_clock() + self.startup_timeout,
            f"'ready' reply within {self.startup_timeout:g} s (startup)",
        )

    def act(self, view: View) -> str:
        """The bot's action for ``view``, waiting at most ``hang_timeout``."""
        return self.act_within(view, None)

    def act_within(self, view: View, seconds: float | None) -> str:
        """Send the view, wait for the action; kill the bot at the limit."""
        self.prepare()
        limit = self.hang_timeout if seconds is None else seconds
        deadline = None if limit is None else harness_clock() + limit
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
        self._awaiting_ready = False
        return value

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
                if bot is not None:  # another match's ProcessBot on this process
                    cast(ProcessBot, bot)._mail = (value, own)
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
        # Through the module: set_watch rebinds the watch of this process.
        if reaper._watch is not None and self.tag:
            reaper._watch.mark(id(self), self.tag)

    def _answered(self) -> None:
        if reaper._watch is not None and self.tag:
            reaper._watch.clear(id(self))


def _is_this_python(program: str) -> bool:
    """Whether ``program`` (a path or a name on ``PATH``) is the Python that
    runs troef, a venv's link to it included."""
    found = program if os.sep in program else shutil.which(program)
    return found is not None and os.path.realpath(found) == os.path.realpath(
        sys.executable
    )


@dataclass(frozen=True)
class ProcessSettings:
    """How one entrant runs in process isolation: plain data, from the config.

    The executor builds a :class:`ProcessBot` per seat with :meth:`bot`.
    """

    #: The bot program; empty: serve the entrant's plugin bot with
    #: ``harness.isolation.bothost``.
    command: tuple[str, ...] = ()
    #: The entrant's own plugin files, loaded by its host beside the run's.
    plugins: tuple[str, ...] = ()
    #: A sandbox command put in front.
    prefix: tuple[str, ...] = ()
    #: Address-space limit in MiB.
    memory_mb: int | None = None
    #: Run the bot as this user (root harness only). A config resolves it:
    #: under root an untrusted bot gets ``nobody`` unless it names another
    #: (:func:`harness.tournament.botuser.default_user`); None runs it as the
    #: harness.
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
    #: ``"bwrap"``: the system sandbox (a config resolves it: the default of
    #: untrusted bots where bwrap runs); ``"none"``: without.
    sandbox: str = "none"

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
        command = self.command or tuple(self.host_command(bot_name, source))
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
            sandbox=self.sandbox,
            binds=self._binds(source),
        )

    def _binds(self, source: PluginSource) -> tuple[str, ...]:
        """What the sandbox shows the bot beyond its command line: the Python
        host its packages; a program run by troef's own Python troef's
        packages too, which it may import (an editable install keeps them
        outside the venv that its command line shows)."""
        if self.sandbox != "bwrap":
            return ()
        if self.command:
            return python_binds((), False) if _is_this_python(self.command[0]) else ()
        host = self.host_source(source)
        return python_binds(host.modules, host.entry_points)

    def sandbox_shows(self, bot_name: str, source: PluginSource) -> list[str]:
        """The paths the sandbox shows this entrant's bot, read-only: its
        program's installation, the files its command line names and, for a
        Python plugin bot, the packages its host imports (empty: no sandbox)."""
        if self.sandbox != "bwrap":
            return []
        command = self.command or tuple(self.host_command(bot_name, source))
        return [*command_binds(command), *self._binds(source)]

    def host_source(self, source: PluginSource) -> PluginSource:
        """The plugins the Python host of this entrant loads: the run's, and
        the entrant's own files after them."""
        if not self.plugins:
            return source
        files = (*source.files, *(p for p in self.plugins if p not in source.files))
        return dataclasses.replace(source, files=files)

    def host_command(self, bot_name: str, source: PluginSource) -> list[str]:
        """The Python host's command line that serves plugin bot ``bot_name``."""
        from harness.isolation.bothost import host_command

        return host_command(bot_name, self.host_source(source))
