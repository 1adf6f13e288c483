"""Hidden information under attack: what a cheating bot reaches, and where.

In-process bots are trusted code: they share the referee's interpreter, and
these tests document that a thief there finds the State (through ``gc`` or the
call stack) or the seed. In process isolation the same thieves, served by
``harness.isolation.bothost``, find nothing: the host holds no State and no match seed,
the bot starts in an empty directory with a scrubbed environment and no
inherited descriptors, and the harness is non-dumpable. What only an outside
sandbox closes (a root bot reading ``/proc/<ppid>``, the file system) is shown
with a command prefix (``unshare``) and a separate user. See
``docs/THREAT_MODEL.md``.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from bots.random_bot import RandomBot
from harness import Bot, Game
from harness.contracts.seeding import bot_seed
from harness.isolation.bothost import host_command
from harness.isolation.botpool import ProcessPool
from harness.isolation.botprocess import ProcessBot
from harness.match.referee import play_match
from harness.plugins import PluginSource, Registry, load_plugins
from tests.conftest import TOY_PLUGIN

CHEATS = Path(__file__).parents[1] / "plugins" / "cheating_bots.py"
SOURCE = PluginSource(entry_points=False, files=(str(TOY_PLUGIN), str(CHEATS)))
SEED = 7
IS_ROOT = os.geteuid() == 0


def _can_unshare() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = ["unshare", "--pid", "--fork", "--mount-proc", "true"]
    return subprocess.run(probe, capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_plugins(entry_points=False, files=[TOY_PLUGIN, CHEATS])


@pytest.fixture
def toy(registry: Registry) -> Game:
    return registry.game("toy")


@pytest.fixture
def scene(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A harness run from its tournament's directory, config path in the environment."""
    config = tmp_path / "tournament.toml"
    config.write_text(f'game = "toy"\nseed = {SEED}\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TROEF_CONFIG", str(config))
    monkeypatch.setenv("TROEF_SECRET", "hunter2")
    return tmp_path


def play(toy: Game, thief: Bot, report: Path) -> tuple[dict[str, Any], list[str]]:
    """Play a 2-seat toy match, the thief in seat 1; its report and the truth."""
    result = play_match(
        toy, [RandomBot(toy, 0, bot_seed(SEED, 0)), thief], SEED, keep_log=True
    )
    assert result.forfeit is None, result.forfeit
    assert result.log is not None
    state = toy.new_match(2, SEED)
    for action in result.log:
        if state.to_act == 1:
            break
        state.apply(action)
    # vars(): the toy's View class comes from its plugin file (no isinstance).
    return json.loads(report.read_text()), sorted(vars(state.view(0))["hand"])


def in_process(registry: Registry, toy: Game, name: str, report: Path) -> Bot:
    return registry.bot_class(name)(toy, 1, bot_seed(SEED, 1), {"report": str(report)})


def isolated(
    toy: Game, name: str, report: Path, pool: ProcessPool, **kwargs: Any
) -> ProcessBot:
    return ProcessBot(
        toy,
        1,
        bot_seed(SEED, 1),
        {"report": str(report)},
        command=host_command(name, SOURCE),
        pool=pool,
        n_seats=2,
        **kwargs,
    )


@pytest.mark.parametrize(
    ("name", "how"),
    [("gc-thief", "gc"), ("frame-thief", "frame:state"), ("config-thief", "config:")],
)
def test_in_process_a_thief_sees_the_hidden_hand(
    registry: Registry, toy: Game, scene: Path, name: str, how: str
) -> None:
    # Documented, not wanted: in-process bots are trusted code.
    report, truth = play(
        toy, in_process(registry, toy, name, scene / "r.json"), scene / "r.json"
    )
    assert report["hand"] == truth
    assert report["how"].startswith(how)


@pytest.mark.parametrize("name", ["gc-thief", "frame-thief"])
def test_in_a_bot_process_gc_and_frames_hold_nothing(
    toy: Game, scene: Path, pool: ProcessPool, name: str
) -> None:
    report, _ = play(toy, isolated(toy, name, scene / "r.json", pool), scene / "r.json")
    assert report["hand"] is None
    if name == "gc-thief":
        assert report["probes"]["states"] == "0"  # the host never builds a State
    else:
        assert "play_match" not in report["probes"]["frames"]


def test_in_a_bot_process_the_config_is_out_of_sight(
    toy: Game, scene: Path, pool: ProcessPool
) -> None:
    report, truth = play(
        toy, isolated(toy, "config-thief", scene / "r.json", pool), scene / "r.json"
    )
    # Not in its environment (scrubbed) nor in its working directory (empty).
    assert str(scene) not in report["probes"]["places"].replace(
        f"/proc/{os.getpid()}/cwd", ""
    )
    if IS_ROOT:
        # A root bot reads /proc/<ppid>/cwd despite PR_SET_DUMPABLE (CAP_SYS_PTRACE):
        # the hole an outside sandbox or another user closes (next tests).
        assert report["hand"] == truth and report["how"].startswith("config:/proc/")
    else:
        assert report["hand"] is None


@pytest.mark.skipif(not _can_unshare(), reason="needs unshare with pid namespaces")
def test_a_pid_namespace_prefix_hides_the_parent(
    toy: Game, scene: Path, pool: ProcessPool
) -> None:
    prefix = ["unshare", "--pid", "--fork", "--mount-proc"]
    bot = isolated(toy, "config-thief", scene / "r.json", pool, prefix=prefix)
    report, _ = play(toy, bot, scene / "r.json")
    assert report["hand"] is None
    bot = isolated(toy, "proc-thief", scene / "p.json", pool, prefix=prefix)
    report, _ = play(toy, bot, scene / "p.json")
    assert all(
        report["probes"][k].startswith("refused") for k in ("environ", "mem", "cwd")
    )


def test_the_bot_process_starts_clean(
    toy: Game, scene: Path, pool: ProcessPool
) -> None:
    with open(
        scene / "open-in-harness.txt", "w"
    ):  # a descriptor the bot must not inherit
        report, _ = play(
            toy, isolated(toy, "proc-thief", scene / "r.json", pool), scene / "r.json"
        )
    probes = report["probes"]
    # TMPDIR: its own private folder (issue 19: no memory across processes).
    assert set(probes["own-environ"].split()) <= {
        "PATH",
        "LANG",
        "LC_ALL",
        "TZ",
        "TMPDIR",
    }
    assert "TROEF_SECRET" not in probes["own-environ"]
    assert Path(probes["own-cwd"]).name.startswith("troef-bot-")
    assert probes["own-cwd"] != str(scene)
    # stdin, stdout, stderr, the host's two protocol copies, the listing itself.
    assert len(probes["own-fds"].split()) <= 6


def test_the_harness_makes_itself_non_dumpable(
    toy: Game, scene: Path, pool: ProcessPool
) -> None:
    play(toy, isolated(toy, "proc-thief", scene / "r.json", pool), scene / "r.json")
    libc = ctypes.CDLL(None)
    assert (
        libc.prctl(3, 0, 0, 0, 0) == 0
    )  # PR_GET_DUMPABLE: /proc/<pid>/mem refused to same-uid bots


@pytest.mark.skipif(
    not IS_ROOT or not os.path.exists("/usr/bin/python3"),
    reason="needs a root harness and a Python that user 'nobody' can run",
)
def test_a_bot_run_as_another_user_cannot_read_the_parent(
    toy: Game, scene: Path, pool: ProcessPool
) -> None:
    shared = Path(tempfile.mkdtemp())
    try:
        shared.chmod(0o777)
        report_path = shared / "r.json"
        bot = ProcessBot(
            toy,
            1,
            bot_seed(SEED, 1),
            command=["/usr/bin/python3", "-I", str(CHEATS), str(report_path)],
            user="nobody",
            pool=pool,
            n_seats=2,
        )
        report, _ = play(toy, bot, report_path)
    finally:
        shutil.rmtree(shared)
    probes = report["probes"]
    for name in ("environ", "mem", "cwd"):
        assert probes[name].startswith("refused"), (name, probes[name])
    # The command line is world-readable: keep secrets out of it.
    assert probes["cmdline"].startswith("read")


def test_the_bot_gets_its_own_seed_never_the_match_seed(
    toy: Game, tmp_path: Path, pool: ProcessPool
) -> None:
    start = tmp_path / "start.json"
    bot = ProcessBot(
        toy,
        1,
        bot_seed(SEED, 1),
        {"level": 3},
        command=["sh", "-c", f"head -n 1 > {start}"],
        pool=pool,
        n_seats=2,
    )
    play_match(toy, [RandomBot(toy, 0, 1), bot], SEED)
    message = json.loads(start.read_text())
    assert message == {
        "type": "start",
        "protocol": 1,
        "game": "toy",
        "game_options": {"leaky": False},
        "seat": 1,
        "n_seats": 2,
        "bot_options": {"level": 3},
        "seed": bot_seed(SEED, 1),
    }
    assert str(SEED) not in start.read_text().replace(str(bot_seed(SEED, 1)), "")
