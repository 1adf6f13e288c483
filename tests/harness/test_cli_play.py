"""Issue 14, item 3: ``troef play`` tells the match as it happens, with labels,
bot options and command bots on the command line, hands per deal, forfeits."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.cli import main
from harness.match.referee import make_bots, play_match
from harness.plugins import load_plugins
from harness.tournament.config import load_config
from harness.tournament.entrants import resolve_command
from tests.conftest import TOY_PLUGIN

TOY = ["--plugin", str(TOY_PLUGIN)]
BROKEN = Path(__file__).resolve().parents[1] / "plugins" / "broken_bots.py"
NODE_BOT = Path(__file__).resolve().parents[2] / "examples" / "bots" / "random_bot.js"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_on_action_hears_every_action_as_it_is_applied() -> None:
    registry = load_plugins(files=[TOY_PLUGIN])
    game = registry.game("toy")
    heard: list[str] = []
    bots = make_bots(game, [registry.bot_class("random")] * 2, 3)
    result = play_match(game, bots, 3, keep_log=True, on_action=heard.append)
    assert result.log is not None and tuple(heard) == result.log


def test_play_prints_moves_before_the_match_ends(tmp_path: Path) -> None:
    """A slow match shows its first moves while it is still being played."""
    slow = tmp_path / "slowbot.py"
    slow.write_text(
        "import time\nfrom harness import Bot, hookimpl\n\n"
        "class Slow(Bot):\n    name = 'slow'\n\n    def act(self, view):\n"
        "        time.sleep(0.2)\n        return view.legal_actions[0]\n\n"
        "@hookimpl\ndef troef_bots():\n    return [Slow]\n"
    )
    argv = ["play", "toy", "--bots", "slow,slow"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", *TOY, "--plugin", str(slow), *argv],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(4)]
        # 12 moves of 0.2 s: the fourth line comes while the match goes on.
        assert proc.poll() is None
        assert lines[3].startswith("slow#0: ")
    finally:
        proc.kill()
        proc.wait()


def test_bot_options_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, *TOY, "play", "toy", "--bots", "search:samples=2,random", "--quiet"
    )
    assert code == 0 and "search" in out and "random" in out
    code, _, err = run(capsys, *TOY, "play", "toy", "--bots", "search:samples=0,random")
    assert code == 2 and "option 'samples' = 0 is not allowed" in err


def test_labels_are_unique_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *TOY, "play", "toy", "--bots", "search:samples=1,random")
    assert code == 0
    assert out.splitlines()[1] == "seats: search (seat 0), random (seat 1)"
    assert "search: " in out and "random: " in out and "seat 0:" not in out


def test_show_hands_prints_each_deal_with_the_hands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, *TOY, "play", "toy", "--bots", "random,random", "--show-hands"
    )
    assert code == 0
    lines = out.splitlines()
    start = lines.index("-- deal 0 --")
    hands = [line.split(": ")[1].split() for line in lines[start + 1 : start + 3]]
    assert lines[start + 1].startswith("  random#0: ")
    assert len(hands[0]) == len(hands[1]) == 3  # the toy deals three each to two
    assert not set(hands[0]) & set(hands[1])


def test_the_forfeit_line_is_printed_with_quiet(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys,
        *TOY,
        *("--plugin", str(BROKEN)),
        *("play", "toy", "--bots", "random,raises", "--quiet"),
    )
    assert code == 0
    assert "raises forfeits (exception):" in out


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_command_bot_plays_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys,
        *TOY,
        *("play", "toy", "--bots", f"random,cmd:node {NODE_BOT}", "--quiet"),
    )
    assert code == 0, out
    assert "random_bot.js" in out and "forfeits" not in out
    deadline = time.monotonic() + 5
    while _running(str(NODE_BOT)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(str(NODE_BOT)), "the command bot outlived the match"


def _running(marker: str) -> list[int]:
    """Processes whose command line names ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if entry.isdigit() and marker.encode() in cmdline:
            found.append(int(entry))
    return found


REPO = Path(__file__).resolve().parents[2]
needs_node = pytest.mark.skipif(
    shutil.which("node") is None, reason="node is not installed"
)


def _readme_command_bot_example() -> list[str]:
    """The README's own ``troef play --bots "cmd:..."`` line, as arguments."""
    for line in (REPO / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith(".venv/bin/troef play ") and "cmd:" in line:
            return shlex.split(line)[1:]
    raise AssertionError('README.md shows no `troef play --bots "cmd:..."` line')


@needs_node
def test_the_readme_command_bot_example_plays_from_the_repository_root() -> None:
    """Issue 25, item 2: the README's relative path is taken from where the user
    stands, not from the bot's empty temporary folder."""
    argv = _readme_command_bot_example()
    assert any(a.startswith("cmd:node examples/") for a in argv), argv
    proc = subprocess.run(
        [sys.executable, "-m", "harness", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "forfeits" not in proc.stdout, proc.stdout[-2000:]
    table = proc.stdout.splitlines()[-5:]
    assert table[1].split()[:2] == ["0", "random_bot.js"], table


def _bot_in(folder: Path) -> Path:
    """A copy of the JavaScript bot in ``folder``/bots, found only from there."""
    (folder / "bots").mkdir()
    copy = folder / "bots" / "mine.js"
    shutil.copyfile(NODE_BOT, copy)
    return copy


@needs_node
def test_a_command_bot_path_is_relative_to_the_working_directory(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _bot_in(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(
        capsys, *TOY, "play", "toy", "--bots", "cmd:node bots/mine.js,random"
    )
    assert code == 0, err
    assert "forfeits" not in out
    assert "mine.js: " in out  # the program bot made its moves


@needs_node
def test_a_command_bot_against_a_person_is_found_from_the_working_directory(
    tmp_path: Path,
) -> None:
    """``--human`` seats its ``--bots`` through the same rule."""
    _bot_in(tmp_path)
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "harness", *TOY, "play", "toy"),
            *("--human", "1", "--bots", "cmd:node bots/mine.js"),
        ],
        cwd=tmp_path,
        input="1\n" * 20,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "forfeits" not in proc.stdout, proc.stdout[-2000:]
    assert "mine.js: " in proc.stdout and "your move (" in proc.stdout


def test_only_words_naming_a_file_or_folder_are_made_absolute(
    tmp_path: Path,
) -> None:
    """The config's rule, with the working directory as the base."""
    bot = _bot_in(tmp_path)
    words = ["node", "bots/mine.js", "--data", "bots", "-I", "missing.js"]
    assert resolve_command(words, tmp_path) == (
        "node",
        str(bot),
        "--data",
        str(tmp_path / "bots"),
        "-I",
        "missing.js",
    )


@needs_node
def test_a_program_added_to_a_ladder_is_found_from_the_working_directory(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``troef ladder add --command`` keeps the same rule, and the ladder
    stores the absolute path, so a later run from elsewhere still finds it."""
    from harness.tournament.ladder import Ladder
    from harness.tournament.store import Store

    bot = _bot_in(tmp_path)
    (tmp_path / "league").mkdir()
    config = tmp_path / "league" / "ladder.toml"
    config.write_text(
        f'game = "toy"\nformat = "ladder"\nseed = 4\nplugins = ["{TOY_PLUGIN}"]\n'
        'executor = "inline"\n[ladder]\nexplore = 0\n[entrants.r1]\nbot = "random"\n'
    )
    monkeypatch.chdir(tmp_path)
    argv = [
        "ladder",
        "add",
        "league/ladder.toml",
        "js",
        "--command",
        "node bots/mine.js",
    ]
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    monkeypatch.chdir(tmp_path / "league")
    code, out, err = run(capsys, "ladder", "run", "ladder.toml", "--quiet")
    assert code == 0, err
    assert "round 1: " in out
    with Ladder(load_config(config)) as ladder:
        js = next(e for e in ladder.entrants() if e.label == "js")
        assert js.process is not None and js.process.command == ("node", str(bot))
        with Store.existing(ladder.config.database) as store:
            assert store.forfeit_count() == 0, store.forfeits()
            assert any("js" in m.job["seating"] for m in store.matches())
