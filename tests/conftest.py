"""Shared fixtures: the global-random and survivor guards, the toy plugin game."""

from __future__ import annotations

import ctypes
import os
import random
import shutil
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from harness.plugins import Registry

TOY_PLUGIN = Path(__file__).parent / "plugins" / "toy_game.py"

#: Seconds a test's processes get to end after the test before they count as
#: survivors (a pool shutting down, a bot told the match is over).
SURVIVOR_GRACE = 5.0
#: Long-lived helpers of the interpreter itself, not of the code under test.
_INTERPRETER_HELPERS = (
    b"multiprocessing.resource_tracker",
    b"multiprocessing.forkserver",
)
#: Processes a session-scoped fixture keeps for the whole session (the browser
#: tests' one Chromium, ``tests/browser/conftest.py``): they and whatever they
#: start (Chromium starts helpers when a page needs one) belong to the
#: session, which ends them, not to the test that was running.
SESSION_PROCESSES: set[int] = set()


def pytest_configure(config: pytest.Config) -> None:
    """Make the test process a subreaper: an orphaned descendant (a bot's child,
    a worker whose parent died) is re-parented here, not to init, so the
    survivor guard still finds it.

    Under root, untrusted bots run as ``nobody`` by default, which often cannot
    run the test Python (a venv linking into root's home) nor read pytest's
    ``tmp_path`` (pytest's folder for root is 0700): the suite's process-bot tests
    run as root through ``TROEF_BOT_USER``, unless the caller set it. The real
    default is exercised by ``tests/harness/test_bot_user.py``, which unsets it.
    """
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.environ.setdefault("TROEF_BOT_USER", "root")
    if sys.platform == "linux":
        pr_set_child_subreaper = 36
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_child_subreaper, 1, 0, 0, 0)
    # A shell starts a background job (`cmd &` in a script) with Ctrl-C
    # ignored, and every process it starts inherits that: a `troef run` that a
    # test stops with Ctrl-C would play on. A handler is not inherited (exec
    # resets it to the default), so the runs the tests start hear Ctrl-C again.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # A compiled module whose source was edited since runs the old code:
    # every test would pass or fail on code that is not the tree's.
    from harness.cli.compiled import build_kind, stale_modules

    if stale_modules():
        pytest.exit(f"troef's build is {build_kind()}", returncode=2)


def _descendants() -> dict[int, str]:
    """Live (not zombie) descendants of this process: pid -> command line."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: split after the last ')'.
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    ours: dict[int, str] = {}
    me = os.getpid()
    for pid in parents:
        ancestor, hops = parents.get(pid), 0
        session = pid in SESSION_PROCESSES
        while ancestor is not None and ancestor != me and hops < 64:
            session = session or ancestor in SESSION_PROCESSES
            ancestor, hops = parents.get(ancestor), hops + 1
        if ancestor != me or session:
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if not any(helper in cmdline for helper in _INTERPRETER_HELPERS):
            ours[pid] = cmdline.replace(b"\0", b" ").decode(errors="replace").strip()
    return ours


@pytest.fixture(autouse=True)
def _no_survivors() -> Iterator[None]:
    """Fail any test that leaves a process behind (issue 14 item 14).

    Every worker, bot process and bot descendant must end with the run that
    started it. Processes that outlive the grace are killed, then reported.
    """
    if sys.platform != "linux":
        yield
        return
    before = set(_descendants())
    yield
    deadline = time.monotonic() + SURVIVOR_GRACE
    while True:
        survivors = {p: c for p, c in _descendants().items() if p not in before}
        if not survivors or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for pid in survivors:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    if survivors:
        listed = "; ".join(f"{pid}: {cmd[:120]}" for pid, cmd in survivors.items())
        pytest.fail(f"processes survived the test: {listed}")


@pytest.fixture(params=["missing", "refused"])
def without_bwrap(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """A machine where the bwrap sandbox cannot run: bwrap is not on the
    ``PATH`` ("missing"), or it is but cannot create its namespaces
    ("refused", as in a container without them: a ``bwrap`` that fails as
    the real one does there). Yields the reason troef is expected to give.
    """
    from harness.isolation import sandbox

    folder = tmp_path / "no-bwrap-bin"
    folder.mkdir()
    if request.param == "refused":
        fake = folder / "bwrap"
        fake.write_text(
            "#!/bin/sh\necho 'bwrap: No permissions to create new namespace, "
            "likely because the kernel does not allow non-privileged user "
            "namespaces.' >&2\nexit 1\n"
        )
        fake.chmod(0o755)
        for tool in ("setpriv", "true"):
            real = shutil.which(tool)
            if real is not None:
                (folder / tool).symlink_to(real)
    monkeypatch.setenv("PATH", str(folder))
    sandbox.unavailable.cache_clear()
    yield (
        "bwrap cannot create its namespaces here: bwrap: No permissions"
        if request.param == "refused"
        else "bwrap (bubblewrap) is not installed or not on the PATH"
    )
    sandbox.unavailable.cache_clear()


@pytest.fixture(autouse=True)
def _no_global_random() -> Iterator[None]:
    """Fail any test whose code drew from the global ``random`` stream.

    Everything random in troef comes from a seed the record keeps; a draw from
    the module-level generator would make results irreproducible.
    """
    before = random.getstate()
    yield
    if random.getstate() != before:
        random.setstate(before)
        pytest.fail("the test used the global random module; pass a seeded Random")


@pytest.fixture(scope="session")
def toy_registry() -> Registry:
    """A registry with only the toy game and the built-in random bot."""
    from harness.plugins import load_plugins

    return load_plugins(
        entry_points=False, modules=["bots.random_bot"], files=[TOY_PLUGIN]
    )


def _ignored_and_blocked() -> tuple[str, str]:
    """This process's ignored and blocked signals as the kernel has them (a
    library may set them in C, where ``signal.getsignal`` does not look)."""
    fields = dict(
        line.split(":\t", 1)
        for line in Path("/proc/self/status").read_text().splitlines()
        if line.startswith(("SigIgn:", "SigBlk:"))
    )
    return fields.get("SigIgn", "?").strip(), fields.get("SigBlk", "?").strip()


@pytest.fixture(autouse=True)
def _signals_as_found() -> Iterator[None]:
    """Fail any test that leaves this process's Ctrl-C or SIGTERM handler, or
    the signals it ignores or blocks, changed: every process a later test
    starts inherits an ignored or blocked signal, and a ``troef run`` that
    ignores Ctrl-C fails tests far from the one that caused it."""
    if sys.platform != "linux":
        yield
        return
    watched = (signal.SIGINT, signal.SIGTERM)
    handlers = [signal.getsignal(s) for s in watched]
    kernel = _ignored_and_blocked()
    yield
    changed = [
        f"{s.name} handler {a!r} -> {signal.getsignal(s)!r}"
        for s, a in zip(watched, handlers, strict=True)
        if signal.getsignal(s) != a
    ]
    now = _ignored_and_blocked()
    if now != kernel:
        changed.append(f"ignored, blocked signals (hex masks) {kernel} -> {now}")
    for s, a in zip(watched, handlers, strict=True):
        signal.signal(s, a)  # the next test starts as this one did
    if changed:
        pytest.fail("the test left signal handling changed: " + "; ".join(changed))
