"""Issue 27, narration per audience: each seat hears only what it may know.

``State.narrate`` is the referee's account; a line that tells what only some
seats know is an :class:`~harness.contracts.game.Aside`, and
:func:`~harness.contracts.game.heard_by` gives one seat's account. For every
registered game at every seat count, a seat's account of a random match names
no card that seat could not see; the cases the audit found are pinned one by
one: gin rummy's stock draws (000:508) and face-down knock discard (000:516),
klaverjassen-3's skart, the Bezique family's pass, belote's kept seven
(002:76).
"""

from __future__ import annotations

import pickle
import random
import re

import pytest

from harness import Aside
from harness.contracts.game import State, heard_by
from harness.match.human import visible_cards
from harness.match.narration import Narrator
from harness.plugins import load_plugins

REGISTRY = load_plugins()
CASES = [
    (name, n)
    for name in sorted(REGISTRY.games)
    for n in sorted(REGISTRY.games[name].seat_counts)
]
_WORD = re.compile(r"[A-Za-z0-9]+")
#: Actions per match: enough for a deal or two of every game, and its end.
_BUDGET = 300


def _known(state: State, seat: int) -> set[str]:
    """The cards ``seat`` sees now: in the places open to it, or in its View."""
    return set(visible_cards(state, seat)) | set(_WORD.findall(repr(state.view(seat))))


def test_an_aside_is_heard_by_its_seats_and_told_otherwise_to_the_rest() -> None:
    line = Aside("seat 1 draws 2D from the stock", {1}, "seat 1 draws from the stock")
    secret = Aside("seat 0 declares nothing", {0})
    lines = ["seat 0 plays 7C", line, secret]
    assert heard_by(lines, None) == [
        "seat 0 plays 7C",
        "seat 1 draws 2D from the stock",
        "seat 0 declares nothing",
    ]
    assert heard_by(lines, 1) == ["seat 0 plays 7C", "seat 1 draws 2D from the stock"]
    assert heard_by(lines, 0) == [
        "seat 0 plays 7C",
        "seat 1 draws from the stock",
        "seat 0 declares nothing",
    ]
    # The referee's account is the text itself; an Aside survives a process hop.
    assert line == "seat 1 draws 2D from the stock"
    again = pickle.loads(pickle.dumps(line))
    assert isinstance(again, Aside)
    assert (again.seats, again.public) == (frozenset({1}), line.public)


@pytest.mark.parametrize(("name", "n"), CASES)
def test_a_seats_account_names_no_card_that_seat_could_not_see(
    name: str, n: int
) -> None:
    """Every seat's account of a random match, step by step: each card it
    names is one the seat sees (before or after the action) or one played to
    a trick by that very action (a deal's last trick leaves no place to see it
    in); the referee's account is every line as the game told it."""
    game = REGISTRY.game(name, REGISTRY.games[name].check_options)
    for seed in (1, 2):
        labels = [f"seat {s}" for s in range(n)]
        referee = Narrator(game, seed, labels)
        narrators = [Narrator(game, seed, labels, seat=s) for s in range(n)]
        deck = set(referee.state.deck())
        known = [_known(narrators[s].state, s) for s in range(n)]
        opening = referee.start()
        assert all(len(narrator.start()) <= len(opening) for narrator in narrators)
        rng = random.Random(seed)
        steps = 0
        while not referee.state.is_over() and steps < _BUDGET:
            action = rng.choice(referee.state.legal_actions())
            full = referee.tell(action)
            for seat, narrator in enumerate(narrators):
                known[seat] |= _known(narrator.state, seat)
                lines = narrator.tell(action)
                known[seat] |= _known(narrator.state, seat)
                if any(f"plays {action}" in line for line in lines):
                    known[seat].add(action)
                for line in lines:
                    unseen = [w for w in _WORD.findall(line) if w in deck - known[seat]]
                    assert not unseen, (
                        f"{name}, {n} seats, seed {seed}, step {steps} ({action}): "
                        f"seat {seat} hears {line!r}, naming {unseen} it cannot see"
                    )
                assert len(lines) <= len(full)
            steps += 1


def _tell_until(state: State, want: str, seed: int = 0) -> list[str]:
    """Random moves on ``state`` until ``want`` (a regex) is told; those lines."""
    rng = random.Random(seed)
    for _ in range(5000):
        if state.is_over():
            break
        lines = state.narrate(rng.choice(state.legal_actions()))
        if any(re.search(want, line) for line in lines):
            return lines
    raise AssertionError(f"no line matching {want!r}")


def _aside(lines: list[str], want: str) -> Aside:
    line = next(line for line in lines if re.search(want, line))
    assert isinstance(line, Aside), f"{line!r} is told to every seat"
    return line


def test_gin_a_stock_draw_is_told_without_its_card_to_the_other_seat() -> None:
    """000:508: a turn draws the top card of the stock, which lies face down;
    the issue's example ``r2 draws 2D from the stock`` is heard by the other
    seat as ``r2 draws from the stock``."""
    state = REGISTRY.game("gin-rummy").new_match(2, 1)
    lines = _tell_until(state, r"draws \w\w from the stock")
    line = _aside(lines, r"draws \w\w from the stock")
    drawer = int(re.match(r"seat (\d)", line)[1])  # type: ignore[index]
    assert line.seats == {drawer}
    assert heard_by([line], 1 - drawer) == [f"seat {drawer} draws from the stock"]
    assert heard_by([line], drawer) == [str(line)]


def test_gin_the_knock_discard_is_told_face_down() -> None:
    """000:516: the knocker lays his discard face down on the pile."""
    state = REGISTRY.game("gin-rummy").new_match(2, 1)
    lines = _tell_until(state, r"knocks, discarding \w\w")
    line = _aside(lines, r"knocks, discarding")
    knocker = next(iter(line.seats))
    assert heard_by([line], 1 - knocker) == [
        f"seat {knocker} knocks, discarding face down"
    ]


@pytest.mark.parametrize("n", [3, 4])
def test_klaverjassen_3_the_skart_card_is_told_only_to_its_player(n: int) -> None:
    """The skart lies face down: the others hear that a card went to it."""
    state = REGISTRY.game("klaverjassen-3").new_match(n, 1)
    lines = _tell_until(state, r"lays \w\w in the skart")
    line = _aside(lines, r"in the skart")
    seat = next(iter(line.seats))
    other = (seat + 1) % n
    assert heard_by([line], other) == [f"seat {seat} lays a card in the skart"]


@pytest.mark.parametrize("name", ["bezique", "marjolet", "binage", "rubicon"])
def test_bezique_family_a_pass_is_not_told_to_the_other_seat(name: str) -> None:
    """Issue 27 item 1: ``declares nothing`` told the other seat that the
    trick's winner had a combination to declare; now only he hears it."""
    state = REGISTRY.game(name).new_match(2, 1)
    for seed in range(20):
        try:
            lines = _tell_until(state.clone(), r"declares nothing", seed)
        except AssertionError:
            continue
        line = _aside(lines, r"declares nothing")
        seat = next(iter(line.seats))
        other = heard_by([line], 1 - seat)
        # The public rest of the line (``both draw, 18 left in the stock``) stays.
        rest = re.sub(r"^seat \d declares nothing( more)?(; )?", "", line)
        assert other == ([rest] if rest else [])
        assert not any("declares" in told for told in other)
        return
    raise AssertionError(f"{name}: no pass in 20 random matches")


def test_belote_keeping_the_seven_is_told_as_every_other_seats_answer() -> None:
    """002:76: the holder of the trump 7 *may* exchange it; if he keeps it,
    nothing public happens. Every seat that may hold it is asked (B6), so a
    keep is told in the same words whether or not the seat holds the seven."""
    for seed in range(40):
        state = REGISTRY.game("belote").new_match(3, seed)
        try:
            lines = _tell_until(state, r"does not exchange", seed)
        except AssertionError:
            continue
        line = next(line for line in lines if "does not exchange" in line)
        assert not isinstance(line, Aside)
        assert re.fullmatch(r"seat \d does not exchange \(no Dix\)", line)
        return
    raise AssertionError("belote: nobody kept in 40 random matches")
