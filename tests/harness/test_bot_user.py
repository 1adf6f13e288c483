"""Under root, untrusted bots run as an unprivileged user by default (issue 19).

The suite runs its unsandboxed process bots as root through
``TROEF_BOT_USER`` (``tests/conftest.py``); these tests unset it and exercise
the real default without the bwrap sandbox (``sandbox = "none"``, or a machine
where bwrap cannot run: ``troef play``): a bot that ``nobody`` can run runs as
``nobody`` (the bot tells its uid), one it cannot run is refused before any
match with the path out of reach. In the sandbox a bot runs as a uid of its
own instead (``test_sandbox.py``). See ``docs/THREAT_MODEL.md``, "Running as
root".
"""

from __future__ import annotations

import os
import pwd
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.cli import main
from harness.contracts.errors import ConfigError
from harness.tournament.botuser import ENV_USER, unreachable
from harness.tournament.config import load_config
from harness.tournament.scheduler import run_tournament
from harness.tournament.store import Store
from tests.conftest import TOY_PLUGIN

IS_ROOT = os.geteuid() == 0
SYSTEM_PYTHON = "/usr/bin/python3"

#: A stdlib-only protocol bot that names its uid in its first action (an
#: illegal one, so the forfeit detail carries it), then plays legal cards.
UID_BOT = """\
import json, os, sys
first = True
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif message["type"] == "act":
        action = message["view"]["legal_actions"][0]
        if first:
            first = False
            action = "UID:%d:%d" % (os.getuid(), os.getgid())
        print(json.dumps({"type": "action", "action": action}), flush=True)
"""


def _nobody() -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam("nobody")
    except KeyError:
        return None


def _nobody_can_run_python() -> bool:
    return (
        _nobody() is not None
        and os.path.exists(SYSTEM_PYTHON)
        and unreachable([SYSTEM_PYTHON, "-c", "pass"], "nobody") is None
    )


needs_root_and_nobody = pytest.mark.skipif(
    not IS_ROOT or not _nobody_can_run_python(),
    reason="needs a root harness, a user 'nobody' and a system Python it can run",
)


@pytest.fixture
def real_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine's default, not the suite's: ``TROEF_BOT_USER`` unset."""
    monkeypatch.delenv(ENV_USER, raising=False)


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A world-searchable folder (pytest's ``tmp_path`` is 0700 under root)."""
    folder = Path(tempfile.mkdtemp(prefix="troef-user-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


#: The user ruling these tests check is the one without the sandbox.
NO_SANDBOX = 'sandbox = "none"\n'


def uid_config(
    tmp_path: Path, bot: Path, extra: str = "", top: str = NO_SANDBOX
) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nplugins = ["{TOY_PLUGIN}"]\nmatches = 1\n{top}'
        f'[entrants.r]\nbot = "random"\n'
        f'[entrants.uid]\ncommand = ["{SYSTEM_PYTHON}", "-I", "{bot}"]\n{extra}'
    )
    path.chmod(0o600)
    return path


def uids_seen(config_path: Path) -> list[str]:
    """Run the tournament; the ``UID:uid:gid`` each match's uid bot named."""
    config = load_config(config_path)
    summary = run_tournament(config)
    assert summary.played == 2
    with Store.existing(config.database) as store:
        details = [
            m.result.forfeit.detail
            for m in store.matches()
            if m.result.forfeit is not None
        ]
    assert len(details) == 2
    return [d[d.index("UID:") :].split()[0].strip("'\".,") for d in details]


@needs_root_and_nobody
@pytest.mark.usefixtures("real_default")
def test_under_root_a_command_bot_without_user_runs_as_nobody(
    tmp_path: Path, shared_folder: Path
) -> None:
    bot = shared_folder / "uid_bot.py"
    bot.write_text(UID_BOT)
    bot.chmod(0o644)
    path = uid_config(tmp_path, bot)
    process = load_config(path).entrant("uid").process
    assert process is not None and process.user == "nobody"
    nobody = _nobody()
    assert nobody is not None
    assert uids_seen(path) == [f"UID:{nobody.pw_uid}:{nobody.pw_gid}"] * 2


@needs_root_and_nobody
@pytest.mark.usefixtures("real_default")
def test_user_root_runs_the_bot_as_root_knowingly_and_validate_flags_it(
    tmp_path: Path, shared_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = shared_folder / "uid_bot.py"
    bot.write_text(UID_BOT)
    path = uid_config(tmp_path, bot, extra='user = "root"\n')
    assert uids_seen(path) == ["UID:0:0"] * 2
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "uid: own process as root (its user = 'root'); AS ROOT" in out


@needs_root_and_nobody
@pytest.mark.usefixtures("real_default")
def test_validate_says_which_user_and_what_it_protects(
    tmp_path: Path, shared_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = shared_folder / "uid_bot.py"
    bot.write_text(UID_BOT)
    assert main(["validate", str(uid_config(tmp_path, bot))]) == 0
    out = capsys.readouterr().out
    assert (
        "uid: own process as nobody (the default for untrusted bots under root); "
        "another user: it cannot signal or trace the harness" in out
    )
    assert "users      each can run its bot: uid as nobody" in out
    assert "r: in-process: trusted code" in out


@pytest.mark.skipif(
    not IS_ROOT or _nobody() is None or not os.path.exists(SYSTEM_PYTHON),
    reason="needs a root harness, a user 'nobody' and a system Python",
)
@pytest.mark.usefixtures("real_default")
def test_a_bot_nobody_cannot_reach_is_refused_before_any_match(
    tmp_path: Path, shared_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    private = shared_folder / "private"
    private.mkdir(mode=0o700)
    private.chmod(0o700)
    bot = private / "uid_bot.py"
    bot.write_text(UID_BOT)
    bot.chmod(0o644)  # readable itself: the folder is what is out of reach
    path = uid_config(tmp_path, bot)
    config = load_config(path)
    with pytest.raises(ConfigError) as caught:
        run_tournament(config)
    message = str(caught.value)
    assert message.startswith(f"{path}: entrant 'uid' cannot run as user 'nobody': ")
    assert f"{private} is mode 0700 (owner root, group root)" in message
    assert f"cannot reach {bot}" in message
    assert 'user = "root"' in message and f"{ENV_USER}=NAME" in message
    assert "never falls back to root" in message
    # Refused before any match: the run leaves no database behind (issue 25).
    assert not config.database.exists()
    # validate refuses it too, before calling the config valid.
    assert main(["validate", str(path)]) != 0
    out, err = capsys.readouterr()
    assert "valid" not in out and f"{private} is mode 0700" in err


@pytest.mark.skipif(
    not IS_ROOT
    or _nobody() is None
    or unreachable([sys.executable], "nobody", python=sys.executable) is None,
    reason="needs a root harness whose Python user 'nobody' cannot run",
)
@pytest.mark.usefixtures("real_default")
def test_a_python_plugin_bot_whose_interpreter_nobody_cannot_run_is_refused(
    tmp_path: Path,
) -> None:
    # Here the venv's python links into root's home (0700), as on the CI machine.
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nplugins = ["{TOY_PLUGIN}"]\nmatches = 1\n{NO_SANDBOX}'
        '[entrants.r]\nbot = "random"\n'
        '[entrants.p]\nbot = "random"\nisolation = "process"\n'
    )
    config = load_config(path)
    with pytest.raises(ConfigError) as caught:
        run_tournament(config)
    message = str(caught.value)
    assert "entrant 'p' cannot run as user 'nobody'" in message
    assert " is mode 07" in message and "the Python that hosts the bot" in message
    assert not config.database.exists()  # refused before any file is made


@pytest.mark.skipif(not IS_ROOT, reason="the default applies to a root harness")
def test_the_user_comes_from_the_entrant_then_the_config_then_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.toml"

    def users(top: str, env: str | None) -> dict[str, str | None]:
        if env is None:
            monkeypatch.delenv(ENV_USER, raising=False)
        else:
            monkeypatch.setenv(ENV_USER, env)
        path.write_text(
            f'game = "toy"\nplugins = ["{TOY_PLUGIN}"]\n{NO_SANDBOX}{top}'
            '[entrants.a]\ncommand = ["bot-a"]\n'
            '[entrants.b]\ncommand = ["bot-b"]\nuser = "root"\n'
            '[entrants.c]\nbot = "random"\n'
        )
        config = load_config(path)
        return {
            e.label: None if e.process is None else e.process.user
            for e in config.entrants
        }

    assert users("", None) == {"a": "nobody", "b": "root", "c": None}
    assert users("", "root") == {"a": "root", "b": "root", "c": None}
    assert users('user = "nobody"\n', "root") == {"a": "nobody", "b": "root", "c": None}
    with pytest.raises(ConfigError, match=r"there is no such user on this machine"):
        users("", "no-such-user-troef")


@pytest.mark.skipif(IS_ROOT, reason="checks a non-root harness")
def test_a_non_root_harness_runs_bots_as_itself_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_USER, "nobody")  # a default for root harnesses only
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nplugins = ["{TOY_PLUGIN}"]\n'
        '[entrants.a]\ncommand = ["bot-a"]\n[entrants.c]\nbot = "random"\n'
    )
    process = load_config(path).entrant("a").process
    assert process is not None and process.user is None


def test_an_unknown_user_is_a_config_error_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nplugins = ["{TOY_PLUGIN}"]\n'
        '[entrants.a]\ncommand = ["bot-a"]\nuser = "no-such-user-troef"\n'
        '[entrants.c]\nbot = "random"\n'
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(
        f"{path}:5: entrants.a.user: there is no user 'no-such-user-troef' "
        "on this machine"
    )


@pytest.mark.skipif(
    not IS_ROOT or _nobody() is None, reason="needs a root harness and 'nobody'"
)
def test_the_check_follows_symbolic_links_to_the_folder_out_of_reach(
    shared_folder: Path,
) -> None:
    # As a venv's python linking into root's home: the link reachable, its target not.
    private = shared_folder / "home"
    private.mkdir()
    private.chmod(0o700)
    program = private / "prog"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    link = shared_folder / "venv-python"
    link.symlink_to(program)
    problem = unreachable([str(link)], "nobody")
    assert problem is not None
    assert problem.startswith(f"{private} is mode 0700 (owner root, group root): ")
    assert f"cannot reach {link} (reached as {program})" in problem
    private.chmod(0o755)
    assert unreachable([str(link)], "nobody") is None


@needs_root_and_nobody
@pytest.mark.usefixtures("real_default")
def test_troef_play_runs_a_program_bot_as_nobody_under_root(
    shared_folder: Path, capsys: pytest.CaptureFixture[str], without_bwrap: str
) -> None:
    bot = shared_folder / "uid_bot.py"
    bot.write_text(UID_BOT)
    bot.chmod(0o644)
    spec = f"random,cmd:{SYSTEM_PYTHON} -I {bot}"
    code = main(["--plugin", str(TOY_PLUGIN), "play", "toy", "--bots", spec, "--quiet"])
    out, err = capsys.readouterr()
    nobody = _nobody()
    assert nobody is not None
    assert code == 0 and f"UID:{nobody.pw_uid}:{nobody.pw_gid}" in out
    # Said once, with the reason: the bot is not sandboxed.
    assert err.count("program bots are not sandboxed") == 1 and without_bwrap in err


@needs_root_and_nobody
@pytest.mark.usefixtures("real_default", "without_bwrap")
def test_troef_play_refuses_a_program_bot_nobody_cannot_reach(
    shared_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    private = shared_folder / "private"
    private.mkdir(mode=0o700)
    bot = private / "uid_bot.py"
    bot.write_text(UID_BOT)
    spec = f"random,cmd:{SYSTEM_PYTHON} -I {bot}"
    code = main(["--plugin", str(TOY_PLUGIN), "play", "toy", "--bots", spec, "--quiet"])
    _, err = capsys.readouterr()
    assert code != 0
    assert "under root a program bot runs as 'nobody'" in err
    assert f"{private} is mode 0700" in err and f"{ENV_USER}=root" in err
