"""Issue 27: ``troef play --human`` and ``troef replay --seat`` tell a seat's account.

The issue's example: gin rummy told the person at seat 0 ``r2 draws 2D from
the stock``, a card only r2 saw (000:508: the stock lies face down). The
seat's account says ``r2 draws from the stock``; the referee's account, the
default of ``troef replay``, still names the card.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main

_CARD = r"[2-9TJQKA][CDHS]"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def gin_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("audience")
    path = tmp / "gin.toml"
    path.write_text(
        'game = "gin-rummy"\nmatches = 1\nseed = 3\nexecutor = "inline"\n'
        "duplicate = false\n[options]\ntarget = 30\n"
        '[entrants.r1]\nbot = "random"\n[entrants.r2]\nbot = "random"\n'
    )
    assert main(["run", str(path), "--quiet"]) == 0
    return tmp / "gin.sqlite"


def test_the_person_hears_the_bots_stock_draws_without_their_cards() -> None:
    """``troef play gin-rummy --human 0`` with its moves piped on stdin."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "play",
            "gin-rummy",
            "--human",
            "0",
            "--bots",
            "random",
            "--max-actions",
            "80",
        ],
        input="1\n" * 200,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "random draws from the stock" in out
    assert not re.search(rf"random draws {_CARD} from the stock", out)
    assert re.search(rf"human draws {_CARD} from the stock", out)  # his own card


def test_replay_seat_tells_that_seats_account(
    capsys: pytest.CaptureFixture[str], gin_database: Path
) -> None:
    code, referee, _ = run(capsys, "replay", str(gin_database), "0")
    assert code == 0
    seating = re.search(r"seats: (\w+) \(seat 0\), (\w+) \(seat 1\)", referee)
    assert seating is not None
    # The referee's account (the default) names every drawn card.
    for name in seating.groups():
        assert re.search(rf"{name} draws {_CARD} from the stock", referee)
    for seat, name in enumerate(seating.groups()):
        code, told, _ = run(
            capsys, "replay", str(gin_database), "0", "--seat", str(seat)
        )
        assert code == 0
        other = seating[2 - seat]
        assert re.search(rf"{name} draws {_CARD} from the stock", told)
        assert f"{other} draws from the stock" in told
        assert not re.search(rf"{other} draws {_CARD} from the stock", told)
        # Every other line is the referee's, in the same order.
        expected = re.sub(
            rf"{other} draws {_CARD} from", f"{other} draws from", referee
        )
        expected = re.sub(
            rf"{other} knocks, discarding {_CARD}",
            f"{other} knocks, discarding face down",
            expected,
        )
        assert told == expected


def test_replay_seat_does_not_tell_the_other_seats_pass(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 27 item 1: in bezique, ``declares nothing`` told the other seat
    that the trick's winner had a combination he kept to himself."""
    path = tmp_path / "bezique.toml"
    path.write_text(
        'game = "bezique"\nmatches = 1\nseed = 4\nexecutor = "inline"\n'
        "duplicate = false\n[options]\ntarget = 500\n"
        '[entrants.r1]\nbot = "random"\n[entrants.r2]\nbot = "random"\n'
    )
    assert main(["run", str(path), "--quiet"]) == 0
    database = str(tmp_path / "bezique.sqlite")
    code, referee, _ = run(capsys, "replay", database, "0")
    assert code == 0
    passes = re.findall(r"^(r[12]) declares nothing", referee, re.MULTILINE)
    assert passes  # the referee's account tells every pass
    for seat in (0, 1):
        code, told, _ = run(capsys, "replay", database, "0", "--seat", str(seat))
        assert code == 0
        me = re.search(rf"(\w+) \(seat {seat}\)", told)
        assert me is not None
        heard = set(re.findall(r"^(r[12]) declares nothing", told, re.MULTILINE))
        assert heard <= {me[1]}
        assert heard == {me[1]} & set(passes)
        assert "may declare" not in told


def test_replay_refuses_a_seat_outside_the_table(
    capsys: pytest.CaptureFixture[str], gin_database: Path
) -> None:
    code, _, err = run(capsys, "replay", str(gin_database), "0", "--seat", "2")
    assert code == 2
    assert "--seat 2: no such seat at a table of 2; expected 0 to 1" in err
