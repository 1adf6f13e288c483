"""Several matches in flight in one worker, so that no core waits on a pipe.

A bot process answers in tens of microseconds, but a referee that waits for
each answer in turn leaves its core idle for the round trip, and the bot's
core idle while the referee works. :func:`play_matches_interleaved` keeps up
to ``in_flight`` matches going at once: it sends every match's pending request,
then waits (``selectors``) for whichever bot answers first and advances that
match. Each match is the same referee
(:func:`harness.match.referee.referee_steps`) that
:func:`~harness.match.referee.play_match` drives, so results are identical,
byte for byte, to playing the matches one after another.

In-process bots in a multiplexed match act at once, as in ``play_match``.

Process bots are built inside :func:`harness.isolation.botprocess.opening`, so
a bot process that declares room for several matches serves one seat in several
of them at once: its requests carry match ids, the driver reads its answers in
request order and hands each to its match, and the requests that follow are
written after each wake-up in one batch per process, so one wake-up of the bot
and one of this loop serve many decisions (``docs/PROTOCOL.md``).

.. warning:: The time a process bot is charged runs from sending its request
   to the wake-up that finds its answer (on :mod:`harness.match.clock`, which
   leaves out the time this process was stopped); with many matches in flight the
   driver's own work between wake-ups adds to it, and a pipelined request
   waits behind those written before it to the same process. Keep
   ``in_flight`` low, or the entrant's ``pipeline`` off, when time controls
   are tight.
"""

from __future__ import annotations

import selectors
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from harness.contracts.errors import BotFault, GameFault
from harness.contracts.result import ForfeitReason
from harness.isolation.botprocess import ProcessBot, opening
from harness.isolation.botprogram import BotProcess, ProcessFault, ProcessUser
from harness.match.clock import SLICE, harness_clock
from harness.match.referee import (
    TimeControls,
    _tail,
    abandon_bots,
    forfeit_before_start,
    make_clocks,
    referee_steps,
    tell_match_over,
)

if TYPE_CHECKING:
    from harness.contracts.bot import Bot
    from harness.contracts.game import Game
    from harness.contracts.result import Result
    from harness.contracts.view import View

__all__ = ["MatchSpec", "play_matches_interleaved"]


@dataclass(frozen=True)
class MatchSpec:
    """One match to play: the game, a bot factory per seat, the seed.

    The bots are built only when the match starts (a process bot takes a
    process from the pool then), so a long list of specs costs nothing.
    """

    game: Game
    #: One factory per seat; a factory that raises forfeits its seat (EXCEPTION).
    bots: Sequence[Callable[[], Bot]]
    seed: int
    keep_log: bool = False
    time_controls: TimeControls = None


class _Match:
    """A match in flight: its referee, its bots, and what it waits for."""

    __slots__ = (
        "bots",
        "budget",
        "deadline",
        "index",
        "result",
        "sent_at",
        "spec",
        "steps",
        "unready",
        "waiting",
    )

    def __init__(self, index: int, spec: MatchSpec) -> None:
        self.index = index
        self.spec = spec
        self.bots: list[Bot] = []
        self.steps: Any = None
        #: Seats whose process bot has not answered ``start`` yet.
        self.unready: set[int] = set()
        #: The seat whose process bot owes an action, or None.
        self.waiting: int | None = None
        #: When its request was written (the clock of the decision runs from it).
        self.sent_at = 0.0
        #: Seconds the awaited decision may take, or None.
        self.budget: float | None = None
        self.deadline: float | None = None
        self.result: Result | None = None


class _Driver:
    """One loop for every match in flight and every bot process they use.

    A process may serve several matches (``botprocess.opening``): it is watched
    once, its answers are read in request order and handed to their matches,
    and the requests that follow are written in one batch after each wake-up.
    """

    def __init__(self, on_result: Callable[[int, Result], None] | None = None) -> None:
        self.on_result = on_result
        self.selector = selectors.DefaultSelector()
        self.active: list[_Match] = []
        #: id(bot) -> its match, seat and process, for every process bot in play.
        self.slots: dict[int, tuple[_Match, int, BotProcess]] = {}
        #: Watched processes and how many seats in play use each.
        self.users: dict[BotProcess, int] = {}
        #: Processes with requests queued and not yet written.
        self.dirty: set[BotProcess] = set()

    # -- the processes -----------------------------------------------------------

    def watch(self, process: BotProcess) -> None:
        count = self.users.get(process, 0)
        self.users[process] = count + 1
        if count:
            return
        for fd in (process.out_fd, process.err_fd):
            stale = self.selector.get_map().get(fd)
            if stale is not None:  # a closed process's number, now reused
                self.selector.unregister(fd)
            self.selector.register(fd, selectors.EVENT_READ, process)
        process.on_queue = self.dirty.add

    def unwatch(self, process: BotProcess, *, all_users: bool = False) -> None:
        count = self.users.get(process)
        if count is None:
            return
        if count > 1 and not all_users:
            self.users[process] = count - 1
            return
        del self.users[process]
        process.on_queue = None
        for fd in (process.out_fd, process.err_fd, process.in_fd):
            key = self.selector.get_map().get(fd)
            if key is not None and key.data is process:
                self.selector.unregister(fd)
        if process in self.dirty:
            self.dirty.discard(process)
            if not process.closed:
                try:
                    process.flush_all(harness_clock() + 1.0)
                except BotFault:
                    pass  # it is gone or stuck: its next user finds out

    def flush(self) -> None:
        """Write every queued request; its decision's clock starts now."""
        while self.dirty:
            process = self.dirty.pop()
            now = harness_clock()
            try:
                sent = process.flush()
            except BotFault as fault:
                self.process_failed(process, fault, None, now)
                continue
            for bot in sent:
                slot = self.slots.get(id(bot))
                if slot is None:
                    continue
                match, seat, _ = slot
                if match.waiting == seat:
                    match.sent_at = now
                    match.deadline = (
                        None if match.budget is None else now + match.budget
                    )
            if process.outbox and not process.closed:
                # The pipe is full: write the rest when the bot reads.
                key = self.selector.get_map().get(process.in_fd)
                if key is None:
                    self.selector.register(
                        process.in_fd, selectors.EVENT_WRITE, process
                    )

    def process_failed(
        self,
        process: BotProcess,
        fault: BotFault,
        culprit: ProcessUser | None,
        now: float,
    ) -> None:
        """Kill ``process``; each match it served forfeits that seat: now if it
        awaits the seat, else at the seat's next decision."""
        affected = process.fail(fault, culprit)
        self.unwatch(process, all_users=True)
        for bot, own in affected:
            # The users of a process are the ProcessBots of its matches.
            self.route(cast(ProcessBot, bot), None, own, now)

    # -- starting and finishing --------------------------------------------------

    def start(self, match: _Match) -> None:
        spec = match.spec
        n_seats = len(spec.bots)
        clocks = make_clocks(spec.time_controls, n_seats)
        with opening(object()):
            for seat, factory in enumerate(spec.bots):
                try:
                    match.bots.append(factory())
                except Exception:
                    abandon_bots(match.bots)
                    match.bots = []
                    self.forfeit_at_start(match, seat, ForfeitReason.EXCEPTION, _tail())
                    return
        now = harness_clock()
        for seat, bot in enumerate(match.bots):
            if isinstance(bot, ProcessBot) and bot.process is not None:
                process = bot.process
                self.watch(process)
                self.slots[id(bot)] = (match, seat, process)
                match.unready.add(seat)
                deadline = now + bot.startup_timeout
                match.deadline = (
                    deadline
                    if match.deadline is None
                    else min(match.deadline, deadline)
                )
        for seat, bot in enumerate(match.bots):
            if not (isinstance(bot, ProcessBot) and bot.process is not None):
                try:
                    # A ProcessBot that failed to start raises its fault here.
                    bot.prepare()
                except BotFault as fault:
                    return self.forfeit_at_start(
                        match, seat, fault.reason, fault.detail
                    )
                except Exception:
                    return self.forfeit_at_start(
                        match, seat, ForfeitReason.EXCEPTION, _tail()
                    )
        self.active.append(match)
        match.steps = referee_steps(
            spec.game, n_seats, spec.seed, spec.keep_log, clocks
        )
        if not match.unready:
            self.advance(match, None)

    def forfeit_at_start(
        self, match: _Match, seat: int, reason: ForfeitReason, detail: str
    ) -> None:
        spec = match.spec
        try:
            result = forfeit_before_start(
                spec.game,
                len(spec.bots),
                spec.seed,
                seat,
                reason,
                detail,
                spec.keep_log,
            )
        except GameFault as fault:
            result = fault.result
        self.finish(match, result)

    def finish(self, match: _Match, result: Result) -> None:
        # Let go of the processes first: match_over hands them back to the
        # pool, and the next match may take them.
        self.release(match)
        if match in self.active:
            self.active.remove(match)
        match.result = result
        match.unready.clear()
        match.waiting = None
        tell_match_over(match.bots, result)
        if self.on_result is not None:
            self.on_result(match.index, result)

    def release(self, match: _Match) -> None:
        for bot in match.bots:
            slot = self.slots.pop(id(bot), None)
            if slot is not None:
                self.unwatch(slot[2])

    # -- playing -------------------------------------------------------------------

    def advance(self, match: _Match, answer: tuple[object, Any, float] | None) -> None:
        """Feed ``answer`` to the referee; play on till a process bot owes an action."""
        steps = match.steps
        bots = match.bots
        while True:
            try:
                seat, view, limit = (
                    steps.send(answer) if answer is not None else next(steps)
                )
            except StopIteration as stop:
                self.finish(match, stop.value)
                return
            except GameFault as fault:
                # The game's fault: this match is void, the others play on.
                self.finish(match, fault.result)
                return
            bot = bots[seat]
            if isinstance(bot, ProcessBot):
                match.sent_at = harness_clock()
                try:
                    bot.begin_act(view, limit)
                except BotFault as fault:
                    answer = (None, (fault.reason, fault.detail), 0.0)
                    continue
                match.budget = bot.hang_timeout if limit is None else limit
                match.deadline = (
                    None if match.budget is None else match.sent_at + match.budget
                )
                match.waiting = seat
                return
            answer = self.act_here(bot, view, limit)
            self.pause_clocks(match, answer[2])

    def pause_clocks(self, current: _Match, seconds: float) -> None:
        """Take an in-process turn of ``seconds`` off every other match's clock.

        A process bot's clock runs only while it alone is thinking: its
        request time and deadline move on by the turn that kept this loop from
        reading its answer.
        """
        for match in self.active:
            if match is current:
                continue
            if match.waiting is not None:
                match.sent_at += seconds
            if match.deadline is not None:
                match.deadline += seconds

    @staticmethod
    def act_here(
        bot: Bot, view: View, limit: float | None
    ) -> tuple[object, Any, float]:
        start = harness_clock()
        try:
            action: object = bot.act_within(view, limit)
            fault = None
        except BotFault as caught:
            action, fault = None, (caught.reason, caught.detail)
        except Exception:
            action, fault = None, (ForfeitReason.EXCEPTION, _tail())
        return action, fault, harness_clock() - start

    def route(
        self, bot: ProcessBot | None, value: Any, fault: BotFault | None, now: float
    ) -> None:
        """Hand an answer (or a fault) to the match that awaits it."""
        slot = None if bot is None else self.slots.get(id(bot))
        if slot is None:
            return  # its match is over: the answer is dropped
        assert bot is not None
        match, seat, _ = slot
        if seat in match.unready:
            try:
                bot.receive(value, fault)
            except BotFault as own:
                self.forfeit_at_start(match, seat, own.reason, own.detail)
                return
            match.unready.discard(seat)
            if not match.unready:
                match.deadline = None
                self.advance(match, None)
        elif match.waiting == seat:
            match.waiting = None
            elapsed = now - match.sent_at
            try:
                action = bot.receive(value, fault)
            except BotFault as own:
                self.advance(match, (None, (own.reason, own.detail), elapsed))
                return
            self.advance(match, (action, None, elapsed))
        # Otherwise the seat is not to move: a fault waits for its next request.

    def on_event(self, key: selectors.SelectorKey, now: float) -> None:
        # Now, not the batch's time: an earlier event of the batch may have run
        # an in-process turn, which pause_clocks took off this match's clock.
        now = max(now, harness_clock())
        process: BotProcess = key.data
        if process.closed or process not in self.users:
            self.selector.unregister(key.fd)
            return
        if key.fd == process.in_fd:
            self.dirty.add(process)
            self.selector.unregister(key.fd)
            return
        if not process.pump(key.fd):
            # End of a stream: stop watching it (a closed pipe is always readable).
            self.selector.unregister(key.fd)
        if key.fd == process.err_fd:
            return
        while not process.closed:
            try:
                got = process.next_answer()
            except ProcessFault as fault:
                self.process_failed(process, fault, fault.culprit, now)
                return
            if got is None:
                break
            bot, value, own = got
            self.route(cast("ProcessBot | None", bot), value, own, now)
        if process.eof and not process.closed and process in self.users:
            culprit = process.pending[0][1] if process.pending else None
            self.process_failed(process, process.crash_fault(), culprit, now)

    def on_deadline(self, match: _Match, now: float) -> None:
        if match.unready:
            seat = min(match.unready)
            waiting_for = (
                f"'ready' reply within {match.bots[seat].startup_timeout:g} s "  # type: ignore[attr-defined]
                "(startup)"
            )
        else:
            assert match.waiting is not None
            seat = match.waiting
            waiting_for = f"'action' reply within {now - match.sent_at:.3f} s"
        bot = match.bots[seat]
        assert isinstance(bot, ProcessBot)
        process = self.slots[id(bot)][2]
        self.process_failed(process, process.timeout_fault(waiting_for), bot, now)

    def wait(self) -> None:
        """Wait for the next answers or the nearest deadline; handle them."""
        self.flush()
        deadlines = [m.deadline for m in self.active if m.deadline is not None]
        # At most SLICE: the clock is read again soon, and a stop of this
        # process is left out of every bot's time (harness.match.clock).
        timeout = SLICE
        if deadlines:
            timeout = max(0.0, min(SLICE, min(deadlines) - harness_clock()))
        events = self.selector.select(timeout)
        while events:
            now = harness_clock()
            for key, _ in events:
                current = self.selector.get_map().get(key.fd)
                if current is not None and current.data is key.data:
                    # An earlier event may have closed it.
                    self.on_event(key, now)
            # Answers that came in meanwhile join this batch: the requests that
            # follow them go out together, one write and one wake-up per bot.
            events = self.selector.select(0)
        now = harness_clock()
        for match in list(self.active):
            if (
                match.deadline is not None
                and match.deadline <= now
                and (match.unready or match.waiting is not None)
                and match in self.active
            ):
                self.on_deadline(match, now)


def play_matches_interleaved(
    specs: Iterable[MatchSpec],
    *,
    in_flight: int = 8,
    on_result: Callable[[int, Result], None] | None = None,
) -> list[Result]:
    """Play every match of ``specs``, up to ``in_flight`` at once; Results in order.

    ``on_result(index, result)`` hears each match as it ends (the scheduler
    streams it on, so a killed worker loses only the matches still in play).
    ``specs`` is read lazily: an iterator that stops early starts no more.

    The Results equal those of :func:`~harness.match.referee.play_match` on each
    spec in turn (same bots, same seeds), forfeits included. Every bot hears its
    match's result (``match_over``), which hands its process back to the pool.
    """
    if in_flight < 1:
        raise ValueError(f"in_flight is {in_flight!r}; it takes an integer >= 1")
    driver = _Driver(on_result)
    matches: list[_Match] = []
    pending = iter(enumerate(specs))
    exhausted = False
    try:
        while True:
            while not exhausted and len(driver.active) < in_flight:
                item = next(pending, None)
                if item is None:
                    exhausted = True
                    break
                match = _Match(*item)
                matches.append(match)
                driver.start(match)
            if not driver.active:
                if exhausted:
                    break
                continue
            driver.wait()
    except BaseException:
        for match in driver.active:
            driver.release(match)
            abandon_bots(match.bots)
        raise
    finally:
        driver.selector.close()
    return [m.result for m in matches]  # type: ignore[misc]
