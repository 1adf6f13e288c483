"""The clock a bot is charged by: the seconds this process ran, its stops left out.

``time.perf_counter`` runs on while the harness is stopped (Ctrl-Z, SIGSTOP of
``troef run``'s process group, a debugger), so a bot whose answer waited in
its pipe through a 30 s stop was charged 30 s and forfeited on time. (A
laptop's suspend stops the monotonic clock itself: nothing to do there.)

:func:`harness_clock` is ``perf_counter`` minus the time this process was
stopped. A stop cannot be caught, but the ``SIGCONT`` that ends it can: the
handler notes that a stop happened, and the next reading leaves out the
interval since the reading before it, but for :data:`SLICE` seconds. The
waits on a bot read the clock at least every :data:`SLICE` seconds, so a stop
of any length costs a bot at most that much, and a SIGCONT without a stop
takes nothing off its time. The handler is installed by the first reading
in a process's main thread (a worker's, ``troef run``'s); a process whose
matches are played in other threads only (a Dask worker's) cannot install it
(Python signal handlers live in the main thread), and there the clock is
``perf_counter``, as before.
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
#: This process's SIGCONT handler is ours (a forked child keeps it).
_watching = False
_previous: Any = None


def harness_clock() -> float:
    """Seconds on the harness's clock: ``perf_counter`` minus the time stopped.

    Never goes backwards; a reading after a stop is at most :data:`SLICE`
    past the one before it.
    """
    global _stopped, _last, _continued
    if not _watching:
        _watch()
    t = perf_counter()
    if _continued:  # rare: the lock only here (this is read per bot answer)
        with _lock:
            if _continued:
                _continued = False
                # The stop fell somewhere since the last reading: all of it
                # but a SLICE is left out. The waits read at least every
                # SLICE, so a SIGCONT without a stop (a bot of the harness's
                # user can send one) takes nothing off a bot's time. Read
                # again: the stop may have fallen just after the first read.
                t = perf_counter()
                _stopped += max(0.0, t - _last - SLICE)
    if t > _last:
        _last = t
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
    if current is not _on_continue:
        try:
            signal.signal(signal.SIGCONT, _on_continue)
        except (ValueError, OSError):
            return
        _previous = current
    _watching = True


def _forked() -> None:
    # Handlers survive fork, but a child may fork from a thread: look again.
    global _watching, _continued
    _watching = _continued = False


os.register_at_fork(after_in_child=_forked)


def _on_continue(signum: int, frame: FrameType | None) -> None:
    global _continued
    _continued = True
    if callable(_previous):
        _previous(signum, frame)
