"""The bwrap sandbox, the default of untrusted bots (issue 30).

A hostile bot (``tests/plugins/sandbox_attacker.py``) tries every attack of
``docs/THREAT_MODEL.md``'s "open" table for real, beside a partner bot
process that keeps a secret, a ``troef run`` process naming the config, and a
harness whose working folder holds the config and the database: in the
sandbox it learns nothing and stops nothing; without it (``sandbox = "none"``)
the same bot reads the config, its partner's memory and the network, and
leaves a process behind, which shows the test can fail. Then the defaults:
configs, ladder joiners and ``troef play`` sandbox their bots where bwrap
runs, and say once, with the reason, when it cannot.

The suite runs these for real: ``.ci/run`` installs bubblewrap and sets
``TROEF_REQUIRE_SANDBOX=1``, which turns a missing sandbox into a failure
rather than a skip.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import select
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.cli import main
from harness.contracts.errors import ConfigError
from harness.contracts.game import Game
from harness.isolation import sandbox
from harness.isolation.botpool import ProcessPool
from harness.isolation.botprocess import ProcessBot, ProcessSettings
from harness.plugins import PluginSource
from harness.tournament.botuser import ENV_USER
from harness.tournament.config import load_config
from harness.tournament.entrants import make_entrant
from harness.tournament.scheduler import run_tournament
from harness.tournament.store import Store
from tests.conftest import TOY_PLUGIN

ATTACKER = Path(__file__).parents[1] / "plugins" / "sandbox_attacker.py"
CHEATS = Path(__file__).parents[1] / "plugins" / "cheating_bots.py"
IS_ROOT = os.geteuid() == 0
#: Seconds a process left behind gets to show itself after its bot was killed.
_SETTLE = 10.0


@pytest.fixture
def bwrap() -> None:
    """Skip where bwrap cannot run; fail instead under ``TROEF_REQUIRE_SANDBOX``."""
    why = sandbox.unavailable()
    if why is None:
        return
    if os.environ.get("TROEF_REQUIRE_SANDBOX"):
        pytest.fail(f"the sandbox is required here (TROEF_REQUIRE_SANDBOX): {why}")
    pytest.skip(f"bwrap cannot run here: {why}")


def _processes() -> dict[int, tuple[int, bytes]]:
    """Every live process: pid -> (parent pid, command line)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":
            found[int(entry)] = (int(fields[1]), cmdline)
    return found


def _host_pid(pid: int) -> int:
    """The Python bot host among ``pid`` and its descendants (under bwrap, the
    host is bwrap's grandchild), as the machine numbers it."""
    table = _processes()
    todo = [pid]
    while todo:
        current = todo.pop()
        if b"harness.isolation.bothost" in table.get(current, (0, b""))[1]:
            return current
        todo += [p for p, (parent, _) in table.items() if parent == current]
    raise AssertionError(f"no bot host under pid {pid}")


def _with_token(token: str) -> list[int]:
    return [p for p, (_, cmd) in _processes().items() if token.encode() in cmd]


def _report(answer: str) -> dict[str, Any]:
    assert answer.startswith("REPORT:"), answer
    found: dict[str, Any] = json.loads(answer.removeprefix("REPORT:"))
    return found


@contextlib.contextmanager
def _listeners(run: Path, token: str) -> Iterator[dict[str, Any]]:
    """The harness's loopback TCP port, an abstract and a file unix socket."""
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.bind(("127.0.0.1", 0))
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind("\0troef-test-" + token)
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(str(run / "harness.sock"))
    sockets = [tcp, abstract, unix]
    for sock in sockets:
        sock.listen(8)
    try:
        yield {
            "sockets": sockets,
            "tcp": tcp.getsockname()[1],
            "abstract": "troef-test-" + token,
            "unix": str(run / "harness.sock"),
        }
    finally:
        for sock in sockets:
            sock.close()


def attack_scene(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    toy: Game,
    mode: str,
    user: str | None = None,
) -> dict[str, Any]:
    """The hostile bot against a run with ``sandbox = mode`` (its bots as
    ``user``): what it reported and what the harness saw afterwards."""
    secret = "secret-" + secrets.token_hex(8)
    token = secrets.token_hex(6)
    run = tmp_path / f"run-{mode}"
    run.mkdir()
    config = run / "t.toml"
    config.write_text(f'game = "toy"\nseed = 123456789\n# {secret}\n')
    config.chmod(0o644)  # readable by anyone: the sandbox hides it all the same
    database = run / "t.sqlite"
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.execute("create table meta (secret text)")
        db.execute("insert into meta values (?)", (secret,))
        db.commit()
    database.chmod(0o600)
    other = tmp_path / f"other-{mode}" / "other_bot.py"
    other.parent.mkdir()
    other.write_text(f"# another entrant's bot: {secret}\n")
    # The attacker's plugin file, in its own folder as a config's would be.
    mine = tmp_path / f"bots-{mode}" / "attacker.py"
    mine.parent.mkdir()
    shutil.copy(ATTACKER, mine)
    source = PluginSource(entry_points=False, files=(str(TOY_PLUGIN), str(mine)))
    monkeypatch.chdir(run)  # the harness's cwd: the config beside it
    # A 'troef run CONFIG' process: its command line names the config.
    code = "import time\nwhile True: time.sleep(1)"
    fake_run = subprocess.Popen(
        [sys.executable, "-c", code, "troef", "run", str(config)]
    )
    pool = ProcessPool()
    settings = ProcessSettings(sandbox=mode, user=user)
    state = toy.new_match(2, 5)
    view = state.view(0)
    written = [
        run / "pwned",
        mine.parent / "pwned",
        # The machine's shared temporary folder, outside every bot's own.
        Path(tempfile.gettempdir()) / f"troef-pwned-{token}",
        Path(f"/dev/shm/troef-pwned-{token}"),
    ]
    try:
        with _listeners(run, token) as listen:
            keeper = settings.bot(
                toy,
                0,
                1,
                {"secret": secret},
                bot_name="sandbox-keeper",
                source=source,
                n_seats=2,
                pool=pool,
            )
            kept = _report(keeper.act(view))
            assert keeper.process is not None and keeper.pid is not None
            partner_folder = Path(keeper.process.cwd)
            written.append(partner_folder / "pwned")
            partner = keeper.pid if mode == "none" else _host_pid(keeper.pid)
            targets = {
                "secret": secret,
                "read": [
                    *(str(p) for p in (config, database, other)),
                    str(partner_folder / "secret.txt"),
                ],
                "pids": {
                    "harness": os.getpid(),
                    "troef run": fake_run.pid,
                    "partner": partner,
                },
                "partner_files": [str(partner_folder / "secret.txt"), str(config)],
                "needles": [str(run), "t.toml", "t.sqlite"],
                "tcp": listen["tcp"],
                "abstract": listen["abstract"],
                "unix": listen["unix"],
                "write": [str(p) for p in written],
                "daemon": token,
            }
            attacker = settings.bot(
                toy,
                1,
                2,
                {"targets": json.dumps(targets)},
                bot_name="sandbox-attacker",
                source=source,
                n_seats=2,
                pool=pool,
            )
            report = _report(attacker.act(view))
            pending = select.select(listen["sockets"], [], [], 0)[0]
            attacker.abandon()  # its process is killed, as after a forfeit
            deadline = time.monotonic() + _SETTLE
            survivors = _with_token(token)
            while survivors and mode != "none" and time.monotonic() < deadline:
                time.sleep(0.05)
                survivors = _with_token(token)
            # Stops nothing: the partner answers its next decision.
            partner_answer = keeper.act(view)
            keeper.abandon()
    finally:
        pool.close()
        fake_run.kill()
        fake_run.wait()
        for pid in _with_token(token):  # left behind without the sandbox
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
        exists = [str(p) for p in written if p.exists()]
        for path in written:
            with contextlib.suppress(OSError):
                path.unlink()
    return {
        "report": report,
        "kept": kept,
        "pending": len(pending),
        "survivors": survivors,
        "written": exists,
        "partner answer": partner_answer,
        "legal": list(view.legal_actions),
        "paths": targets,
    }


@pytest.mark.usefixtures("bwrap")
@pytest.mark.parametrize(
    "user",
    [
        None,
        pytest.param(
            "root",
            marks=pytest.mark.skipif(not IS_ROOT, reason="user root needs root"),
        ),
    ],
)
def test_a_hostile_bot_in_the_sandbox_learns_nothing_and_stops_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toy: Game, user: str | None
) -> None:
    # user = "root": run as root knowingly; the sandbox still hides it all.
    seen = attack_scene(tmp_path, monkeypatch, toy, "bwrap", user)
    report = seen["report"]
    # The config, the database, another bot's file, the partner's private
    # file: not there at all.
    assert report["files"] == dict.fromkeys(seen["paths"]["read"], "ENOENT")
    # /proc of the harness, of 'troef run' and of the partner (environment,
    # memory, open files, working folder, root): no such processes.
    for name in ("harness", "troef run", "partner"):
        assert set(report["processes"][name].values()) == {"ENOENT"}, name
        assert report["signals"][name] == "ESRCH", name
    assert set(report["partner root"].values()) == {"ENOENT"}
    # Of all processes it sees only its sandbox's init, which names nothing of
    # the run; its parent is that init, not the harness.
    assert report["scan"] == {"visible": 1, "naming the run": []}
    assert str(seen["paths"]["needles"][0]) not in report["parent"]["cwd"]
    # No network, not even the harness's loopback; no unix socket either.
    # (Its own loopback, in its network namespace, has nobody listening.)
    assert report["network"]["tcp loopback"] in ("ECONNREFUSED", "ENETUNREACH")
    assert report["network"]["abstract unix"] == "ECONNREFUSED"
    assert report["network"]["unix socket file"] == "ENOENT"
    assert seen["pending"] == 0
    # Nothing written outside its private folder is seen outside it.
    assert seen["written"] == []
    run, bots, _tmp, _shm, partner = seen["paths"]["write"]
    for path in (run, bots, partner):
        assert report["writes"][path] in ("ENOENT", "EROFS", "EACCES"), path
    # The process it left behind in a new session died with it.
    assert report["daemon"] > 0 and seen["survivors"] == []
    assert seen["partner answer"] in seen["legal"]
    if user == "root":
        assert report["uid"] == seen["kept"]["uid"] == 0
    elif IS_ROOT:
        # Never root, never the partner's user: a uid of its own per process.
        assert report["uid"] not in (0, seen["kept"]["uid"])
        assert seen["kept"]["uid"] != 0
    else:
        assert report["uid"] == seen["kept"]["uid"] == os.getuid()


def test_without_the_sandbox_the_same_bot_learns_and_leaves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toy: Game
) -> None:
    # What the sandbox closes, shown open: the process boundary alone.
    seen = attack_scene(tmp_path, monkeypatch, toy, "none")
    report = seen["report"]
    config, database, other, partner_file = seen["paths"]["read"]
    assert report["files"][config] == report["files"][other] == "read"
    assert report["files"][database] == report["files"][partner_file] == "read"
    assert report["processes"]["partner"]["mem"] == "found"
    assert report["processes"]["troef run"]["cmdline"] == "read"
    assert report["scan"]["naming the run"] != []
    assert report["signals"] == dict.fromkeys(report["signals"], "signalled")
    assert report["network"]["tcp loopback"] == "connected"
    assert report["network"]["abstract unix"] == "connected"
    assert seen["paths"]["write"][0] in seen["written"]
    assert seen["survivors"] != []


def _plugin_config(tmp_path: Path, extra: str = "", top: str = "") -> Path:
    """A config with a Python plugin bot from a file of its own, in pytest's
    folder (0700 under root): the keeper, which names its uid in its first
    (illegal) action."""
    keeper = tmp_path / "keeper.py"
    shutil.copy(ATTACKER, keeper)
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nplugins = ["{TOY_PLUGIN}"]\nmatches = 1\n{top}'
        '[entrants.r]\nbot = "random"\n'
        f'[entrants.k]\nbot = "sandbox-keeper"\nplugin = "{keeper}"\n{extra}'
    )
    path.chmod(0o600)
    return path


@pytest.mark.usefixtures("bwrap")
def test_a_python_plugin_bot_runs_sandboxed_by_default_as_root_or_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The machine's default, not the suite's TROEF_BOT_USER: under root with
    # the Python in root's home this bot was refused before (issue 30).
    monkeypatch.delenv(ENV_USER, raising=False)
    path = _plugin_config(tmp_path)
    config = load_config(path)
    process = config.entrant("k").process
    assert process is not None and process.sandbox == "bwrap" and process.user is None
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    who = "as a uid of its own per process" if IS_ROOT else "as the harness's user ("
    assert f"k: own process in the bwrap sandbox {who}" in out
    summary = run_tournament(config)
    assert summary.played == 2
    with Store.existing(config.database) as store:
        details = [m.result.forfeit.detail for m in store.matches() if m.result.forfeit]
    # Each match's keeper told its uid (an illegal action, so a forfeit).
    assert len(details) == 2
    uids = {int(re.search(r'"uid": (\d+)', d).group(1)) for d in details}  # type: ignore[union-attr]
    if IS_ROOT:
        assert 0 not in uids and len(uids) == 2  # a fresh uid per process
    else:
        assert uids == {os.getuid()}


@pytest.mark.usefixtures("bwrap")
def test_a_bot_killing_its_parent_in_the_sandbox_stops_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nplugins = ["{TOY_PLUGIN}", "{CHEATS}"]\nmatches = 2\n'
        "workers = 1\n"
        '[entrants.killer]\nbot = "worker-killer"\n[entrants.r]\nbot = "random"\n'
    )
    config = load_config(path)
    process = config.entrant("killer").process
    assert process is not None and process.sandbox == "bwrap"
    summary = run_tournament(config)
    # Its parent inside is the sandbox's init: the worker plays on.
    assert summary.played == 4 and summary.pool_restarts == 0
    with Store.existing(config.database) as store:
        details = [m.result.forfeit.detail for m in store.matches() if m.result.forfeit]
    assert not any("killed its worker" in d for d in details)
    # Under root the init is another user's: the kill fails (EPERM) and the
    # bot forfeits by its exception; as the harness's user the kernel drops a
    # SIGKILL a namespace's init gets from inside, and the bot plays on.
    assert all("PermissionError" in d for d in details)
    assert len(details) == (4 if IS_ROOT else 0)


def test_the_sandbox_key_is_validated_per_entrant_and_in_the_config(
    tmp_path: Path,
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(_plugin_config(tmp_path, extra='sandbox = "docker"\n'))
    assert str(caught.value).startswith(
        f"{tmp_path / 't.toml'}:9: entrants.k.sandbox: 'docker' is not allowed; "
        'expected "bwrap" or "none"'
    )
    with pytest.raises(ConfigError, match=r":4: sandbox: 'off' is not allowed"):
        load_config(_plugin_config(tmp_path, top='sandbox = "off"\n'))
    # "none" is taken from the entrant, else from the config; a prefix is a
    # sandbox of its own.
    config = load_config(
        _plugin_config(tmp_path, top='sandbox = "none"\n', extra='prefix = ["env"]\n')
    )
    process = config.entrant("k").process
    assert process is not None and process.sandbox == "none"
    with pytest.raises(ConfigError, match="only a bot with isolation"):
        load_config(
            _plugin_config(tmp_path, extra='isolation = "in-process"\nsandbox = "none"')
        )


@pytest.mark.usefixtures("bwrap")
def test_a_prefix_or_a_named_user_keeps_its_meaning(tmp_path: Path) -> None:
    config = load_config(_plugin_config(tmp_path, extra='prefix = ["env"]\n'))
    process = config.entrant("k").process
    assert process is not None and process.sandbox == "none"
    config = load_config(_plugin_config(tmp_path, top='user = "root"\n'))
    process = config.entrant("k").process
    # In the sandbox a named user is honoured (root knowingly: no capabilities).
    assert process is not None and process.sandbox == "bwrap"
    assert process.user == "root"


@pytest.mark.usefixtures("bwrap")
def test_a_ladder_joiner_is_sandboxed_by_default(tmp_path: Path) -> None:
    path = tmp_path / "ladder.toml"
    path.write_text(
        f'game = "toy"\nformat = "ladder"\nplugins = ["{TOY_PLUGIN}"]\n'
        '[entrants.r1]\nbot = "random"\n'
    )
    keeper = tmp_path / "keeper.py"
    shutil.copy(ATTACKER, keeper)
    joiner = make_entrant(
        load_config(path), "k", {"bot": "sandbox-keeper", "plugin": str(keeper)}
    )
    assert joiner.process is not None and joiner.process.sandbox == "bwrap"


def test_where_bwrap_cannot_run_troef_says_so_once_and_validate_records_why(
    tmp_path: Path, without_bwrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _plugin_config(tmp_path)
    config = load_config(path)
    process = config.entrant("k").process
    # Today's protections: its own process, and under root another user.
    assert process is not None and process.sandbox == "none"
    if IS_ROOT:
        assert process.user == (os.environ.get(ENV_USER) or "nobody")
    notes = [w for w in config.warnings if "not sandboxed" in w]
    assert len(notes) == 1 and without_bwrap in notes[0] and "k run" in notes[0]
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err.count("bots are not sandboxed") == 1
    assert f"not in the bwrap sandbox: bwrap cannot run here ({without_bwrap}" in out
    # Asked for by name, it is an error naming the key and the reason.
    with pytest.raises(ConfigError) as caught:
        load_config(_plugin_config(tmp_path, extra='sandbox = "bwrap"\n'))
    assert ":9: entrants.k.sandbox: " in str(caught.value)
    assert without_bwrap in str(caught.value)
    # Chosen, it is not warned about.
    quiet = load_config(_plugin_config(tmp_path, top='sandbox = "none"\n'))
    assert not any("not sandboxed" in w for w in quiet.warnings)


@pytest.mark.usefixtures("bwrap")
def test_a_sandboxed_program_that_does_not_exist_fails_as_before(
    toy: Game, pool: ProcessPool
) -> None:
    bot = ProcessBot(
        toy, 0, 1, command=["no-such-bot-program-troef"], sandbox="bwrap", pool=pool
    )
    with pytest.raises(Exception, match="cannot start") as caught:
        bot.prepare()
    assert "No such file or directory" in str(caught.value)


def test_what_a_command_is_shown_its_installation_link_by_link(
    tmp_path: Path,
) -> None:
    # A venv's python links to an interpreter elsewhere: both installations
    # (the folder above each bin) are shown; a program outside a bin folder,
    # alone; an absolute argument naming a file, that file; /usr, nothing more.
    real = tmp_path / "opt" / "py" / "bin" / "python3"
    real.parent.mkdir(parents=True)
    real.write_text("")
    venv_python = tmp_path / "venv" / "bin" / "python"
    venv_python.parent.mkdir(parents=True)
    venv_python.symlink_to(real)
    script = tmp_path / "bots" / "alice.py"
    script.parent.mkdir()
    script.write_text("")
    binds = sandbox.command_binds([str(venv_python), "-I", str(script), "--fast"])
    assert binds == [str(tmp_path / "venv"), str(tmp_path / "opt" / "py"), str(script)]
    lone = tmp_path / "bots" / "alice"
    lone.write_text("")
    assert sandbox.command_binds([str(lone)]) == [str(lone)]
    assert sandbox.command_binds(["/usr/bin/env", "true"]) == []


def test_a_program_run_by_troefs_own_python_is_shown_troefs_packages() -> None:
    """Such a program may import harness (the tests' protocol programs do); an
    editable install keeps the packages outside the venv its command shows."""
    import harness

    package = str(Path(harness.__file__).resolve().parent)
    source = PluginSource()
    own = ProcessSettings(command=(sys.executable, "-I", "bot.py"), sandbox="bwrap")
    shown = [os.path.realpath(p) for p in own.sandbox_shows("x", source)]
    assert any(package == p or package.startswith(p + os.sep) for p in shown)
    other = ProcessSettings(command=("/usr/bin/env", "node", "bot.js"), sandbox="bwrap")
    assert not any(
        package == os.path.realpath(p)
        or package.startswith(os.path.realpath(p) + os.sep)
        for p in other.sandbox_shows("x", source)
    )
    assert ProcessSettings(command=(sys.executable,)).sandbox_shows("x", source) == []


@pytest.mark.skipif(IS_ROOT, reason="a root harness can switch users")
@pytest.mark.usefixtures("bwrap")
def test_a_non_root_harness_still_refuses_another_user_in_the_sandbox(
    tmp_path: Path,
) -> None:
    path = _plugin_config(tmp_path, extra='user = "root"\n')
    config = load_config(path)
    with pytest.raises(ConfigError, match="cannot switch to user 'root'"):
        run_tournament(config)


@pytest.mark.usefixtures("bwrap")
def test_a_plugin_file_importing_troefs_packages_runs_without_entry_points(
    tmp_path: Path, toy: Game, pool: ProcessPool
) -> None:
    # Its host loads no entry points, yet the file imports troef's bots.
    plugin = tmp_path / "kin.py"
    plugin.write_text(
        "from bots.random_bot import RandomBot\nfrom harness import hookimpl\n"
        "class Kin(RandomBot):\n    name = 'kin-random'\n"
        "@hookimpl\ndef troef_bots():\n    return [Kin]\n"
    )
    source = PluginSource(entry_points=False, files=(str(TOY_PLUGIN), str(plugin)))
    bot = ProcessSettings(sandbox="bwrap").bot(
        toy, 0, 1, None, bot_name="kin-random", source=source, n_seats=2, pool=pool
    )
    view = toy.new_match(2, 5).view(0)
    assert bot.act(view) in view.legal_actions
    bot.abandon()
