"""``troef play GAME --human SEAT`` told in words (issue #25, item 8).

The person's moves come from a pipe, as a script or a test harness would
give them: the prompts then end without a newline, so a move the person did
not type follows its "only legal move" line directly.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from dataclasses import fields

import pytest

from games.rummy.gin import GinRummyView
from harness.match.human import describe_view, match_move
from harness.plugins import load_plugins


def _play(args: list[str], answers: list[str]) -> str:
    """Run ``troef play`` with ``answers`` on its standard input, then '1's."""
    proc = subprocess.run(
        [sys.executable, "-m", "harness", "play", *args],
        input="\n".join([*answers, *["1"] * 200]) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _turns(text: str) -> list[str]:
    """The person's turns: each from its header to the move that answered it."""
    return text.split("== your turn")[1:]


def test_klaverjassen_tells_trump_partner_and_scores_and_takes_lower_case() -> None:
    text = _play(["klaverjassen", "--human", "0", "--max-actions", "32"], ["tc", "ah"])
    first, second = _turns(text)[:2]
    # Seed 1: seat 0 plays in clubs; the partner sits across.
    assert "  Trump: clubs ♣\n" in first
    assert "  Your partner: seat 2 (random#2)\n" in first
    assert "  Dealer: seat 3 (random#3)\n" in first
    assert "  Declarer: you\n" in first
    assert "  Match: us 0, them 0\n" in first
    assert "human plays TC" in text  # typed 'tc'
    # The first trick (TC AC KH 9C, 39 points) went to seat 3, the other side.
    assert "trick 1 to random#3 (team 1): 39 points" in text
    assert "  Score this deal: us 0, them 39\n" in second
    assert "  Tricks won: us 0, them 1\n" in second
    assert "human plays AH" in text  # typed 'ah'
    assert '"' not in first and "[" not in first  # no raw JSON fields


def test_one_legal_move_is_played_without_asking() -> None:
    text = _play(
        [
            "maison-tarot",
            "--human",
            "1",
            "--bots",
            "random,random,random",
            "--max-actions",
            "60",
        ],
        [],
    )
    only = re.findall(r"  only legal move: (\S+)\n(.*)\n", text)
    assert only, "seed 1 gives seat 1 a forced move in the first deal"
    for move, next_line in only:
        assert next_line == f"human plays {move}"  # no prompt in between
    assert "  Match: random#0 0, you 0, random#2 0, random#3 0\n" in text


def test_tarot_move_in_lower_case() -> None:
    text = _play(["maison-tarot", "--human", "0", "--max-actions", "4"], ["nc"])
    first = _turns(text)[0]
    assert "  Your hand: 5C 7C NC  3D ND  10H QH  2S 7S  4T 7T 11T\n" in first
    assert "  Match: you 0, random 0\n" in first
    assert "human plays NC" in text


def test_gin_rummy_in_words_with_an_upper_case_move() -> None:
    text = _play(["gin-rummy", "--human", "1", "--max-actions", "6"], ["DRAW:STOCK"])
    first = _turns(text)[0]
    assert "  Discard pile: KH\n" in first
    assert "  Stock: 31 cards\n" in first
    assert "  Match: random 0, you 0\n" in first
    assert "  Opponent cards: 10\n" in first
    assert "human draws 5D from the stock" in text  # typed 'DRAW:STOCK'
    assert '"' not in first and "[" not in first


def test_gin_rummy_tells_the_person_none_of_the_opponents_cards() -> None:
    """Only the View is told: the opponent's hand stays hidden (seed 1)."""
    text = _play(["gin-rummy", "--human", "1", "--max-actions", "2"], [])
    game = load_plugins().game("gin-rummy", {})
    view = game.new_match(2, 1).view(0)  # what the opponent holds
    assert isinstance(view, GinRummyView)
    hidden = set(view.hand) - {"KH"}  # KH went to the open discard pile
    told = set(re.findall(r"\b[2-9TJQKA][CDHS]\b", _turns(text)[0]))
    assert told and not told & hidden


def test_unknown_and_case_ambiguous_answers_are_refused() -> None:
    assert match_move("ah", ("AH", "KH")) == "AH"
    assert match_move(" 2 ", ("AH", "KH")) == "KH"
    assert match_move("ah", ("AH", "ah")) == "ah"  # exact still goes
    assert match_move("Ah", ("AH", "ah")) is None  # which one is not clear
    assert match_move("zz", ("AH", "KH")) is None


@pytest.mark.parametrize("name", sorted(load_plugins().games))
def test_every_game_is_told_in_labelled_words(name: str) -> None:
    """Each line is 'Label: words', without the JSON of the View's fields."""
    registry = load_plugins()
    game = registry.games[name].for_checks()
    n = min(game.seat_counts)
    state = game.new_match(n, 7)
    rng = random.Random(7)
    labels = [f"bot{i}" for i in range(n)]
    for _ in range(40):
        if state.is_over():
            break
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        assert {f.name for f in fields(view)} >= {"seat", "legal_actions"}
        for line in describe_view(view, labels, teams=game.teams(n)):
            assert re.fullmatch(r"  [A-Z][a-z ]+: \S.*", line), (name, line)
            assert '"' not in line, (name, line)
        state.apply(rng.choice(state.legal_actions()))


def test_a_game_of_tricks_only_tells_tricks_not_a_score_of_nothing() -> None:
    """Triomphe Forcée counts tricks, no card points (seed 003 line 21)."""
    registry = load_plugins()
    game = registry.games["triomphe-forcee"].for_checks()
    state = game.new_match(2, 1)
    rng = random.Random(1)
    told: list[str] = []
    while not state.is_over() and not any("Tricks won" in t for t in told):
        seat = state.to_act
        assert seat is not None
        told = describe_view(state.view(seat), ["a", "b"], teams=game.teams(2))
        state.apply(rng.choice(state.legal_actions()))
    assert any(re.fullmatch(r"  Tricks won: (you|a) \d+, (you|b) \d+", t) for t in told)
    assert not any(t.startswith("  Score this deal") for t in told)
