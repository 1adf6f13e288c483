"""The survivor guard of conftest.py finds what a test leaves behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import _descendants

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")


def test_an_orphaned_grandchild_in_its_own_session_is_found() -> None:
    """A shell starts a sleeper in a new session and exits: the sleeper is
    re-parented to the test process (a subreaper), so the guard sees it."""
    out = subprocess.run(
        ["sh", "-c", "setsid sleep 30 >/dev/null 2>&1 & echo $!"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pid = int(out)
    try:
        deadline = time.monotonic() + 5
        while pid not in _descendants() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pid in _descendants()
        assert "sleep 30" in _descendants()[pid]
    finally:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while pid in _descendants() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pid not in _descendants()  # killed, and a zombie does not count
