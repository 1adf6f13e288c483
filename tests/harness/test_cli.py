"""The command line, in-process and once as the installed console script."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main
from tests.conftest import TOY_PLUGIN

TOY = ["--plugin", str(TOY_PLUGIN)]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_seats_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *TOY, "games")
    assert code == 0
    assert "toy" in out and "2,3" in out and "leaky=False (a bool)" in out
    assert "klaverjassen" in out and "gin-rummy" in out


def test_bots_lists_the_random_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bots")
    assert code == 0 and "random" in out and "random-bot" in out


def test_play_tells_the_match_and_prints_the_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, *TOY, "play", "toy", "--bots", "random,random", "--seed", "4"
    )
    assert code == 0
    assert "Toy tricks (harness tests), seed 4, 2 seats" in out
    # Seats are called by their bots' labels: the name, plus the seat when twice.
    assert out.count("random#0: ") + out.count("random#1: ") == 12
    assert "rank" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["play", "toyy", "--bots", "random,random"],
            "no game named 'toyy'; did you mean 'toy'?",
        ),
        (["play", "toy", "--bots", "random,rnadom"], "no bot named 'rnadom'"),
        (["play", "toy", "--bots", "random"], "game 'toy' takes 2, 3 seats, not 1"),
        (
            ["play", "toy", "--bots", "random,random", "-o", "leaky=maybe"],
            "option 'leaky' = 'maybe'",
        ),
        (
            ["play", "toy", "--bots", "random,random", "-o", "leaky"],
            "option 'leaky' is not KEY=VALUE",
        ),
    ],
)
def test_bad_input_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, *TOY, *argv)
    assert code == 2
    assert message in err


def test_check_passes_a_sound_game_and_fails_a_leaking_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, *TOY, "check", "toy", "--matches", "3")
    assert code == 0 and "all checks passed" in out
    assert "toy, short check (options leaky=False; at most 10000 actions" in out
    code, out, _ = run(
        capsys, *TOY, "check", "toy", "--matches", "3", "-o", "leaky=true"
    )
    assert code == 1 and "never varied" in out


def test_check_full_and_budget(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *TOY, "check", "toy", "--full", "--seed", "4")
    assert code == 0 and "toy, full check (options leaky=False; no budget)" in out
    assert "toy: 10 matches, 20 deals" in out
    # Three seats play 18 actions a match: a budget of 15 cuts them all.
    code, out, _ = run(capsys, *TOY, "check", "toy", "--budget", "15")
    assert code == 1 and "(5 cut at the budget)" in out
    assert "[3 seats] every match (5) reached the budget of 15 actions" in out
    with pytest.raises(SystemExit):
        main([*TOY, "check", "toy", "--full", "--budget", "15"])
    assert "not allowed with argument --full" in capsys.readouterr().err


def test_the_console_script_is_installed() -> None:
    beside = Path(sys.executable).parent / "troef"
    exe = str(beside) if beside.exists() else shutil.which("troef")
    assert exe is not None, "the troef console script is not installed"
    out = subprocess.run(
        [exe, "play", "--help"], capture_output=True, text=True, check=True
    )
    assert "--bots A,B,..." in out.stdout


def test_check_tells_its_progress_per_match(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *TOY, "check", "toy", "--matches", "2")
    assert code == 0
    lines = err.splitlines()
    assert lines[0] == "pickling the Game: ok"
    for seats in (2, 3):
        for m in (1, 2):
            assert any(
                line.startswith(f"[{seats} seats] match {m} of 2: ")
                and line.endswith(": ok")
                for line in lines
            )
    code, _, err = run(capsys, *TOY, "check", "toy", "--matches", "2", "--quiet")
    assert code == 0 and err == ""
    code, _, err = run(
        capsys, *TOY, "check", "toy", "--matches", "3", "-o", "leaky=true"
    )
    assert code == 1
    assert "[3 seats] hidden places and cards vary in samples: FAILED" in err
