"""``troef play GAME --human SEAT``: a person plays through a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from harness.match.human import describe_view, legal_lines, sorted_hand
from harness.plugins import load_plugins

PROMPT = b"your move ("


def _play_in_pty(args: list[str], answers: list[str], limit: float = 60.0) -> str:
    """Run ``troef`` on a pseudo-terminal; answer each prompt, then '1' to the end."""
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", *args],
        stdin=child,
        stdout=child,
        stderr=child,
        close_fds=True,
    )
    os.close(child)
    out = b""
    answered = 0
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.5)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the child closed the terminal: it has ended
                break
            if not chunk:
                break
            out += chunk
            while out.count(PROMPT) > answered:
                reply = answers[answered] if answered < len(answers) else "1"
                os.write(main, reply.encode() + b"\n")
                answered += 1
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
    return out.decode(errors="replace").replace("\r\n", "\n")


def test_a_person_plays_klaverjassen_through_a_terminal() -> None:
    text = _play_in_pty(
        [
            "play",
            "klaverjassen",
            "--human",
            "0",
            "--bots",
            "random,random,random",
            "--max-actions",
            "40",
        ],
        answers=["zz", "99", "2"],
    )
    # The hand sorted by suit: seed 1 deals seat 0 these cards, clubs trump.
    assert "Your hand: TC QC  JD AD  7H QH AH  JS" in text
    assert "Trick so far: -" in text
    assert "Match: us 0, them 0" in text
    assert "    1) TC" in text
    # Bad input is answered with the legal list, then the number is taken.
    assert "'zz' is not a legal move; the legal moves are:" in text
    assert "'99' is not a legal move" in text
    assert "human plays QC" in text  # the third answer, '2', is QC
    # The result at the end.
    assert "match ended by the referee" in text
    assert "utility" in text


def test_the_person_does_not_see_the_opponents_stock_draws() -> None:
    text = _play_in_pty(
        [
            "play",
            "gin-rummy",
            "--human",
            "1",
            "--bots",
            "random",
            "--max-actions",
            "60",
        ],
        answers=[],
    )
    # The seat's account (issue 27): the bot's draw is told without its card.
    assert "random draws from the stock" in text
    assert not re.search(r"random draws \w+ from the stock", text)
    assert "human draws 5D from the stock" in text  # the person's own draw is named
    assert "rank" in text


def test_end_of_input_forfeits_the_person() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "harness", "play", "gin-rummy", "--human", "0"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert "human forfeits (crash): the person at seat 0 left" in proc.stdout


@pytest.mark.parametrize("seat", ["-1", "4"])
def test_a_seat_outside_the_table_is_refused(seat: str) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "play",
            "klaverjassen",
            "--human",
            seat,
            "--bots",
            "random,random,random",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0
    assert f"--human {seat}: no such seat" in proc.stderr


def test_sorted_hand_groups_by_suit_trumps_last() -> None:
    assert sorted_hand(["7T", "AS", "2C", "QH", "KC"]) == "2C KC  QH  AS  7T"
    assert sorted_hand([]) == "-"


def test_describe_view_numbers_the_legal_moves() -> None:
    game = load_plugins().game("klaverjassen", {})
    state = game.new_match(4, 1)
    view = state.view(0)
    lines = describe_view(view, ["you", "b", "c", "d"]) + legal_lines(
        view.legal_actions
    )
    assert lines[0] == "  Your hand: TC QC  JD AD  7H QH AH  JS"
    assert lines[-1] == "    8) JS"
