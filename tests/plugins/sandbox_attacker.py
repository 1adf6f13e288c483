"""Hostile bots for the sandbox tests: each attack of docs/THREAT_MODEL.md's
"open" table, tried for real, and a keeper of a secret to attack.

- ``sandbox-attacker`` (option ``targets``: JSON naming what to attack) at its
  first decision reads files by path (the config, the database, another bot's
  file, its partner's private file), reads ``/proc`` of the harness, of a
  ``troef run`` process and of its partner (``cmdline``, ``environ``, ``cwd``,
  ``fd``, ``mem`` searched for the partner's secret, ``root``), scans every
  ``/proc`` entry it can see for the run's files, connects to the harness's
  loopback TCP port and unix sockets, signals every pid it was given, writes
  where it was told to, and leaves a process behind in a new session. It
  answers that decision with ``REPORT:`` and a JSON object: for each attack,
  what it learned (``"read"``, ``"found"``, ...) or the error that stopped it.
- ``sandbox-keeper`` (option ``secret``) keeps the secret in its memory and in
  a file of its private folder, held open; its first answer is ``REPORT:``
  with its pid, uid and working folder.

Both play the first legal action at every later decision. The bots use the
standard library only, so the same file runs with or without the sandbox.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from harness import Bot, Option, View, hookimpl

#: The most bytes of one process's memory the attacker searches.
_MEM_BUDGET = 256 * 1024 * 1024


def _failure(exc: BaseException) -> str:
    code = getattr(exc, "errno", None)
    if isinstance(code, int) and code in errno.errorcode:
        return errno.errorcode[code]
    return type(exc).__name__


def _read(path: str, size: int = 4096) -> tuple[str, bytes]:
    try:
        with open(path, "rb") as f:
            return "read", f.read(size)
    except OSError as exc:
        return _failure(exc), b""


def _search_memory(pid: str, secret: bytes) -> str:
    """Read ``/proc/PID/mem`` region by region, looking for ``secret``."""
    try:
        with open(f"/proc/{pid}/maps") as f:
            regions = [line.split() for line in f]
        mem = open(f"/proc/{pid}/mem", "rb")
    except OSError as exc:
        return _failure(exc)
    budget, readable = _MEM_BUDGET, False
    with mem:
        for fields in regions:
            start, end = (int(x, 16) for x in fields[0].split("-"))
            if "r" not in fields[1] or end - start > budget:
                continue
            try:
                mem.seek(start)
                chunk = mem.read(end - start)
            except OSError:
                continue
            readable = True
            budget -= len(chunk)
            if secret and secret in chunk:
                return "found"
    return "read" if readable else "nothing readable"


def _probe_process(pid: str, secret: bytes) -> dict[str, str]:
    found: dict[str, str] = {}
    for part in ("cmdline", "environ"):
        how, data = _read(f"/proc/{pid}/{part}", 1 << 16)
        found[part] = "found" if secret and secret in data else how
    for part in ("cwd", "root"):
        try:
            found[part] = "read:" + os.readlink(f"/proc/{pid}/{part}")
        except OSError as exc:
            found[part] = _failure(exc)
    try:
        found["fd"] = f"read:{len(os.listdir(f'/proc/{pid}/fd'))}"
    except OSError as exc:
        found["fd"] = _failure(exc)
    found["mem"] = _search_memory(pid, secret)
    return found


def _scan_proc(needles: Sequence[str]) -> dict[str, Any]:
    """Every process this bot can see, and those whose command line or
    working folder names one of ``needles`` (the run's files)."""
    me = str(os.getpid())
    visible, naming = [], []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or entry == me:
            continue
        visible.append(entry)
        _, cmdline = _read(f"/proc/{entry}/cmdline", 1 << 16)
        try:
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            cwd = ""
        text = cmdline.decode(errors="replace") + " " + cwd
        if any(needle in text for needle in needles):
            naming.append(entry)
    return {"visible": len(visible), "naming the run": naming}


def _connect(family: int, address: Any) -> str:
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.settimeout(5.0)
        try:
            sock.connect(address)
        except OSError as exc:
            return _failure(exc)
    return "connected"


def _signal(pid: int) -> str:
    try:
        os.kill(pid, 0)  # the permission check of every signal, delivering none
    except OSError as exc:
        return _failure(exc)
    return "signalled"


def _write(path: str) -> str:
    try:
        with open(path, "w") as f:
            f.write("written by a bot\n")
    except OSError as exc:
        return _failure(exc)
    return "wrote"


def attack(targets: dict[str, Any]) -> dict[str, Any]:
    """Every attack; what each learned or the error that stopped it."""
    secret = str(targets.get("secret", "")).encode()
    report: dict[str, Any] = {"uid": os.getuid(), "pid": os.getpid()}
    report["files"] = {p: _read(p)[0] for p in targets.get("read", [])}
    report["processes"] = {
        name: _probe_process(str(pid), secret if name == "partner" else b"")
        for name, pid in targets.get("pids", {}).items()
    }
    report["parent"] = _probe_process(str(os.getppid()), b"")
    report["partner root"] = {
        p: _read(f"/proc/{targets['pids'].get('partner', 0)}/root{p}")[0]
        for p in targets.get("partner_files", [])
    }
    report["scan"] = _scan_proc(targets.get("needles", []))
    report["network"] = {
        "tcp loopback": _connect(socket.AF_INET, ("127.0.0.1", targets["tcp"])),
        "abstract unix": _connect(socket.AF_UNIX, "\0" + targets["abstract"]),
        "unix socket file": _connect(socket.AF_UNIX, targets["unix"]),
    }
    report["signals"] = {
        name: _signal(int(pid)) for name, pid in targets.get("pids", {}).items()
    }
    report["writes"] = {p: _write(p) for p in targets.get("write", [])}
    if targets.get("daemon"):
        # A helper in a new session: out of the bot's process group.
        code = "import time\nwhile True: time.sleep(1)"
        helper = subprocess.Popen(
            [sys.executable, "-c", code, targets["daemon"]],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        report["daemon"] = helper.pid
    return report


class Attacker(Bot):
    """Attacks at its first decision and reports; then plays legal actions."""

    name = "sandbox-attacker"
    option_specs = (Option("targets", "{}", "JSON: what to attack"),)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reported = False

    def act(self, view: View) -> str:
        if self.reported:
            return view.legal_actions[0]
        self.reported = True
        return "REPORT:" + json.dumps(attack(json.loads(self.options["targets"])))


class Keeper(Bot):
    """Keeps its secret in memory and in an open file of its folder."""

    name = "sandbox-keeper"
    option_specs = (Option("secret", "", "what the attacker must not learn"),)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The bytes themselves, kept, as a bot keeps its hand.
        self.secret = self.options["secret"].encode()
        with open("secret.txt", "wb") as f:
            f.write(self.secret)
        self.held = open("secret.txt", "rb")
        self.reported = False

    def act(self, view: View) -> str:
        if self.reported:
            return view.legal_actions[0]
        self.reported = True
        # The uid first: a referee quotes 80 characters of an illegal action.
        mine = {"uid": os.getuid(), "pid": os.getpid(), "cwd": os.getcwd()}
        return "REPORT:" + json.dumps(mine)


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    return [Attacker, Keeper]
