"""The progress line: how far a run is, its pace and time left (``?`` until
it can tell), the leader, and a lost worker's notice on it.

:class:`Eta` measures the pace from timestamps the caller gives;
:class:`Progress` prints the line (rewritten live on a terminal, periodic
lines elsewhere).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

__all__ = ["ETA_MIN_RESULTS", "ETA_MIN_SECONDS", "Eta", "Progress"]


#: The progress line shows no rate and no ETA until this many results have
#: arrived after the run's first one, over at least this many seconds.
ETA_MIN_RESULTS = 8
ETA_MIN_SECONDS = 2.0


@dataclass
class Eta:
    """The pace of a run and its time left, from timestamps the caller gives.

    Ruling: the pace is measured from the arrival of this run's first result,
    not from its start. Until then the workers and their bots start up (a
    second or more) while no match is done, and a pace over that wait makes
    the first line's ETA absurd (minutes for a run of seconds). The first
    results prove only that start-up is over, so they are not counted; the
    pace is the results after them over the time since, and it is given only
    once :data:`ETA_MIN_RESULTS` of them have come in over at least
    :data:`ETA_MIN_SECONDS` (results arrive in bursts). Until then the line
    says ``?``: no estimate rather than a wrong one.
    """

    min_results: int = ETA_MIN_RESULTS
    min_seconds: float = ETA_MIN_SECONDS
    _started_at: int = 0
    _first: tuple[float, int] | None = None

    def start(self, done: int) -> None:
        """Begin a run that found ``done`` matches already recorded."""
        self._started_at = done
        self._first = None

    def observe(self, now: float, done: int) -> None:
        """Note that ``done`` matches are recorded at time ``now`` (seconds)."""
        if self._first is None and done > self._started_at:
            self._first = (now, done)

    def rate(self, now: float, done: int) -> float | None:
        """Matches per second since the first result, or None: too early to say."""
        if self._first is None:
            return None
        since, counted = now - self._first[0], done - self._first[1]
        if counted < self.min_results or since < self.min_seconds:
            return None
        return counted / since

    def left(self, now: float, done: int, total: int) -> float | None:
        """Seconds until ``total`` at the current pace, or None: too early to say."""
        if done >= total:
            return 0.0
        rate = self.rate(now, done)
        return None if rate is None else (total - done) / rate


@dataclass
class Progress:
    """Reports progress: a live line on a terminal, periodic lines elsewhere.

    The rate and ETA come from :class:`Eta` (``?`` until it can tell); the
    final line's rate is the run's average, start-up included.
    """

    stream: TextIO = field(default_factory=lambda: sys.stderr)
    interval: float = 10.0
    live: bool | None = None
    #: Seconds on a monotonic clock; a test gives its own.
    clock: Callable[[], float] = time.perf_counter
    _last: float | None = None
    _start: float = 0.0
    _started_at: int = 0
    _eta: Eta = field(default_factory=Eta)
    _notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.live is None:
            self.live = self.stream.isatty()
        self._start = self.clock()

    def start(self, done: int) -> None:
        """Note how many matches were done before this run started."""
        self._start = self.clock()
        self._started_at = done
        self._eta.start(done)

    def update(
        self, done: int, total: int, leader: Callable[[], str], *, final: bool = False
    ) -> None:
        """Report ``done`` of ``total``; ``leader()`` (the leader, or the SPRT's
        LLR and bounds) is called only when printing."""
        now = self.clock()
        self._eta.observe(now, done)  # even when not printing: when it arrived
        wait = 0.2 if self.live else self.interval
        if not final and self._last is not None and now - self._last < wait:
            return
        self._last = now
        if final:
            elapsed = now - self._start
            average = (done - self._started_at) / elapsed if elapsed > 0 else 0.0
            rate: float | None = average
        else:
            rate = self._eta.rate(now, done)
        left = self._eta.left(now, done, total)
        pace = "?" if rate is None else f"{rate:.1f}"
        eta = "?" if left is None else _duration(left)
        text = f"{done}/{total} matches  {pace}/s  ETA {eta}  {leader()}"
        if self._notes:
            # The latest notice stays on the line (a live line is rewritten).
            earlier = len(self._notes) - 1
            text += f"  | {self._notes[-1]}" + (
                f" (+{earlier} earlier)" if earlier else ""
            )
        if self.live:
            end = "\n" if final else ""
            self.stream.write(f"\r\033[K{text}{end}")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def note(self, text: str, done: int, total: int, leader: Callable[[], str]) -> None:
        """Say ``text`` (a lost worker) on a progress line printed at once (a
        whole line, also on a terminal, so that it stays in view), and on
        every line after it until the next notice."""
        self._notes.append(text)
        self.update(done, total, leader, final=True)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
