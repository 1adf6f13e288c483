"""The clock a bot is charged by: the seconds this process ran, its stops left out.

``time.perf_counter`` runs on while the harness is stopped (Ctrl-Z, SIGSTOP of
``troef run``'s process group, a debugger), so a bot whose answer waited in
its pipe through a 30 s stop was charged 30 s and forfeited on time. (A
laptop's suspend stops the monotonic clock itself: nothing to do there.)

:func:`harness_clock` is ``perf_counter`` minus the time this process was
stopped. A stop cannot be caught, but the ``SIGCONT`` that ends it can: the
handler notes that a stop happened, and the next reading leaves out the whole
interval since the reading before it. The waits on a bot read the clock at
least every :data:`SLICE` seconds, so at most that much of the bot's own time
goes with a stop; a stop never counts against it. The handler is installed
by the first reading in a process's main thread (a worker's, ``troef
run``'s); in another thread's process it cannot be (Python signal handlers
live in the main thread) and the clock is ``perf_counter``, as before.
"""

from __future__ import annotations

import os
import signal
import threading
from time import perf_counter
from types import FrameType
from typing import Any

__all__ = ["SLICE", "harness_clock", "remaining"]

#: The longest a wait on a bot sleeps before it reads the clock again: what
#: a stop of the harness may take of the bot's own time at most.
SLICE = 0.25

_lock = threading.Lock()
#: Seconds this process was stopped, as far as the SIGCONTs tell.
_stopped = 0.0
#: ``perf_counter`` at the last reading.
_last = perf_counter()
#: A SIGCONT came since the last reading.
_continued = False
#: The process whose SIGCONT handler is ours (None: not installed yet).
_watching: int | None = None
_previous: Any = None


def harness_clock() -> float:
    """Seconds on the harness's clock: ``perf_counter`` minus the time stopped.

    Never goes backwards; a reading after a stop equals the one before it.
    """
    global _stopped, _last, _continued
    if _watching != os.getpid():
        _watch()
    t = perf_counter()
    with _lock:
        if _continued:
            _continued = False
            # The stop fell somewhere since the last reading: all of it is
            # left out (the waits read at least every SLICE).
            _stopped += max(0.0, t - _last)
        _last = max(_last, t)
        return _last - _stopped


def remaining(deadline: float | None) -> float | None:
    """Seconds on the harness's clock until ``deadline`` (None: no deadline)."""
    return None if deadline is None else deadline - harness_clock()


def _watch() -> None:
    """Install the SIGCONT handler in this process, from its main thread."""
    global _watching, _previous
    if threading.current_thread() is not threading.main_thread():
        return  # tried again at the next reading from the main thread
    current = signal.getsignal(signal.SIGCONT)
    if current is not _on_continue:  # a forked child inherits it: keep it
        try:
            signal.signal(signal.SIGCONT, _on_continue)
        except (ValueError, OSError):
            return
        _previous = current
    _watching = os.getpid()


def _on_continue(signum: int, frame: FrameType | None) -> None:
    global _continued
    _continued = True
    if callable(_previous):
        _previous(signum, frame)
