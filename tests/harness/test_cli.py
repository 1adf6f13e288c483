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
LEAKY = ["--plugin", str(TOY_PLUGIN.with_name("leaky_toy.py"))]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_seats_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *TOY, "games")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("toy "))
    assert "2-3" in line
    assert "klaverjassen" in out and "gin-rummy" in out
    code, out, _ = run(capsys, *TOY, "games", "toy")  # the options are one game's
    assert code == 0
    row = next(x for x in out.splitlines() if x.startswith("leaky"))
    assert row.split()[:3] == ["leaky", "False", "a"] and "a deliberate leak" in row


def test_bots_lists_the_random_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bots")
    assert code == 0 and "random" in out and "random-bot" in out
    code, out, _ = run(capsys, "bots", "search")  # the options are one bot's
    assert code == 0 and "samples" in out and "max_rollout" in out


def test_an_unknown_name_for_games_or_bots_is_an_error_naming_the_close_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "games", "klaverjasen")
    assert code == 2 and "no game named 'klaverjasen'; did you mean" in err
    code, _, err = run(capsys, "bots", "pmic")
    assert code == 2 and "no bot named 'pmic'" in err


def _commands() -> list[list[str]]:
    from harness.plugins import load_plugins

    registry = load_plugins()
    return [
        ["games"],
        ["bots"],
        *(["games", name] for name in sorted(registry.games)),
        *(["bots", name] for name in sorted(registry.bots)),
    ]


@pytest.mark.parametrize("columns", [80, 120])
def test_games_and_bots_fit_the_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    """Issue #25: `troef games` was 257 columns and `troef bots` 220 wide, even
    with COLUMNS=80. Every listing and every game's and bot's detail fits."""
    monkeypatch.setenv("COLUMNS", str(columns))
    for argv in _commands():
        code, out, _ = run(capsys, *argv)
        assert code == 0
        widest = max(out.splitlines(), key=len)
        assert len(widest) <= columns, (argv, widest)
        assert len(out.splitlines()) > 3, argv


def test_without_a_terminal_or_columns_the_width_is_80(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)  # and stdout is captured: no tty
    code, out, _ = run(capsys, "games", "klaverjassen")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80


def _rows(out: str, header: str) -> dict[str, str]:
    """The rows of the table headed ``header``, printed unwrapped: first cell ->
    the rest of the line."""
    lines = out.splitlines()
    start = 2 + next(
        i
        for i, x in enumerate(lines[:-1])
        if x.split()[:1] == [header] and lines[i + 1].startswith("---")
    )
    rows = {}
    for line in lines[start:]:
        if not line.strip():
            break
        first, _, rest = line.partition("  ")
        rows[first] = rest.strip()
    return rows


def test_every_game_bot_and_variant_has_a_one_line_description(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #25: every bot and every variant gets a one-line description, and
    every game too; shown by `troef games`, `troef bots` and `troef games NAME`."""
    from harness.plugins import load_plugins

    registry = load_plugins()
    monkeypatch.setenv("COLUMNS", "1000")  # one row a line, nothing wrapped
    for command, header, table in (
        ("games", "game", registry.games),
        ("bots", "bot", registry.bots),
    ):
        code, out, _ = run(capsys, command)
        rows = _rows(out, header)
        assert code == 0 and sorted(rows) == sorted(table)
        for name, cls in table.items():
            assert cls.description.strip(), f"{command}: {name} has no description"
            assert "\n" not in cls.describe() and cls.describe() in rows[name]
    variants = 0
    for name, cls in registry.games.items():
        for option in cls.option_specs:
            if option.choices is None or (
                option.name != "variant" and not option.choice_docs
            ):
                continue
            code, out, _ = run(capsys, "games", name)
            rows = _rows(out, option.name)
            for choice in option.choices:
                variants += option.name == "variant"
                doc = option.choice_doc(choice)
                assert doc.strip(), f"{name}: {option.name} {choice!r} is undescribed"
                assert rows[str(choice)] == doc
    assert variants >= 17  # klaverjassen's 7, two each of 5 other games: none missed


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


@pytest.mark.parametrize(
    ("leak", "message"),
    [
        # A view field that shows a card of the next seat's hand.
        ("view", "class (b) hidden card name, at action "),
        # A narration line that names the next seat's card.
        ("narration", "class (b) hidden card name, at action "),
        # A line whose public text differs between deals the listener cannot
        # tell apart (it names no card).
        ("twin", "class (a) twins, at action "),
        # A sampler that deals a hidden hand one card too many.
        ("world", "class (c) sampled world, at action "),
    ],
)
def test_check_catches_a_planted_leak_of_each_class(
    capsys: pytest.CaptureFixture[str], leak: str, message: str
) -> None:
    code, out, _ = run(
        capsys, *LEAKY, "check", "leaky-toy", "--matches", "3", "-o", f"leak={leak}"
    )
    assert code == 1 and message in out, out
    detail = {
        "view": "the view for seat ",
        "narration": "the narration for seat ",
        "twin": "narrate it differently to seat ",
        "world": "is impossible: validate() raised ValueError: hand ",
    }[leak]
    assert detail in out


def test_check_counts_twin_pairs_and_worlds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *TOY, "check", "toy", "--matches", "3")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("toy: "))
    worlds = int(line.split(" sampled worlds")[0].rsplit(" ", 1)[1])
    twins = int(line.split(" twin pairs")[0].rsplit(" ", 1)[1])
    assert worlds > 100 and twins > 20, line
