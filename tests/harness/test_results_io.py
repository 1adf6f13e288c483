"""Reading CSV and PGN results: accepted notations, skipped games, error messages."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from harness.report import results_io
from harness.report.results_io import ResultsFileError, read_csv, read_pgn, read_results
from harness.stats.ratings import PairResult, PairTable, aggregate
from harness.stats.ratings_pairwise import fit_ratings

PGN = r"""[Event "Test"]
[Site "?"]
[White "Alpha"]
[Black "Beta \"B\""]
[Result "1-0"]

1. e4 e5 {a comment with [brackets]
spanning [lines] } 2. Nf3 1-0

[Event "Test"]
[White "Beta \"B\""]
[Black "Alpha"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2
[Event "Test"]
[White "Gamma"]
[Black "Alpha"]
[Result "*"]

1. c4 *

[White "Gamma"]
[Black "Beta \"B\""]
[Result "0-1"]
0-1
"""


def test_csv_accepts_every_notation_and_sets_first_to_white(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_text(
        "White,Black,Result,group\n"
        "a,b,1,g1\nb,a,0,g1\na,c,0.5,\nc,a,1/2,\n\n"
        "b,c,1-0,\nc,b,0-1,\nb,c,1/2-1/2,\n"
    )
    loaded = read_csv(path)
    assert loaded.skipped == 0
    assert loaded.results[:3] == (
        PairResult("a", "b", 1.0, "g1", "a"),
        PairResult("b", "a", 0.0, "g1", "b"),
        PairResult("a", "c", 0.5, None, "a"),
    )
    assert [r.score for r in loaded.results] == [1, 0, 0.5, 0.5, 1, 0, 0.5]
    assert read_results(path) == loaded


def test_csv_columns_in_any_order_and_extra_columns(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_text("result,event,black,white\n1-0,x,b,a\n")
    assert read_csv(path).results == (PairResult("a", "b", 1.0, None, "a"),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("white,black\na,b\n", r"games.csv:1: header 'white,black' lacks result"),
        (
            "white,black,result\na,b,2-0\n",
            r"games.csv:2: result '2-0' not understood; accepted: 1, 0.5, 0, 1/2, "
            r"1-0, 0-1, 1/2-1/2",
        ),
        (
            "white,black,result\na,b,1\na,b\n",
            r"games.csv:3: 2 fields, the header has 3",
        ),
        (
            "white,black,result\na,a,1\n",
            r"games.csv:2: 'a' is listed as both white and black",
        ),
        ("white,black,result\n,b,1\n", r"games.csv:2: a player name is empty"),
    ],
)
def test_csv_errors_name_file_line_and_what_is_accepted(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "games.csv"
    path.write_text(text)
    with pytest.raises(ResultsFileError, match=message):
        read_csv(path)


def test_pgn_reads_tags_skips_unfinished_games_and_counts_them(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_text(PGN)
    loaded = read_pgn(path)
    assert loaded.skipped == 1
    beta = 'Beta "B"'
    assert loaded.results == (
        PairResult("Alpha", beta, 1.0, None, "Alpha"),
        PairResult(beta, "Alpha", 0.5, None, beta),
        PairResult("Gamma", beta, 0.0, None, "Gamma"),
    )
    assert read_results(path) == loaded
    assert fit_ratings(loaded.results, seat_advantage=True).seat_advantage is not None


def test_pgn_errors_name_the_game_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.pgn"
    path.write_text(
        '[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1-0\n\n[White "a"]\n[Result '
        '"1-0"]\n\n1-0\n'
    )
    with pytest.raises(ResultsFileError, match=r"bad.pgn:7: game without a Black tag"):
        read_pgn(path)
    path.write_text('[White "a"]\n[Black "b"]\n[Result "2-0"]\n')
    with pytest.raises(
        ResultsFileError, match=r"bad.pgn:1: result '2-0' not understood"
    ):
        read_pgn(path)


def test_missing_file_and_unknown_suffix(tmp_path: Path) -> None:
    with pytest.raises(ResultsFileError, match="cannot read"):
        read_csv(tmp_path / "nope.csv")
    with pytest.raises(ResultsFileError, match="cannot read"):
        read_pgn(tmp_path / "nope.pgn")
    with pytest.raises(
        ResultsFileError, match=r"unknown results format '.txt'; accepted: .csv, .pgn"
    ):
        read_results(tmp_path / "games.txt")


# -- the chunked reader (issue 15 item 7) --------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "white,black,result\n", "white,black,result\n\n  \n,,\n"],
    ids=["empty", "header only", "blank rows"],
)
def test_a_csv_without_games_is_an_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "games.csv"
    path.write_text(text)
    with pytest.raises(ResultsFileError, match=r"games.csv:(1: header|2: no games)"):
        read_csv(path)


def test_a_pgn_without_finished_games_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_text('[White "a"]\n[Black "b"]\n[Result "*"]\n\n*\n')
    with pytest.raises(ResultsFileError, match=r"no finished games \(1 unfinished"):
        read_pgn(path)


def many_games(rows: int) -> str:
    lines = ["white,black,result,group"]
    for k in range(rows):
        a, b = f"p{k % 7}", f"p{(k * 3 + 1) % 7}"
        if a == b:
            b = "q"
        lines.append(
            f"{a},{b},{('1', '0', '1/2')[k % 3]},{'g' + str(k // 2) if k % 5 else ''}"
        )
    return "\n".join(lines) + "\n"


def test_chunks_fast_and_slow_paths_read_the_same_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.csv"
    text = many_games(300)
    path.write_text(text)
    whole = read_csv(path)
    monkeypatch.setattr(results_io, "CHUNK", 50)  # many chunks, cut mid-file
    assert read_csv(path) == whole
    # A blank line sends its chunk through the csv module: same games.
    lines = text.split("\n")
    path.write_text("\n".join([*lines[:100], "", *lines[100:]]))
    assert read_csv(path).results == whole.results
    # Quotes anywhere: the csv module for all of it, same games.
    path.write_text(text.replace("p3,", '"p3",'))
    assert read_csv(path).results == whole.results
    assert len(whole) == 300 and whole.results[1].group == "g0"
    assert whole.results[0].group is None  # k = 0: no group
    assert _same_table(aggregate(whole.results), whole.table())


def _same_table(x: PairTable, y: PairTable) -> bool:
    return x.names == y.names and all(
        np.array_equal(getattr(x, f), getattr(y, f))
        for f in ("i", "j", "side", "wins", "draws", "losses", "count")
    )


@pytest.mark.parametrize(
    ("line", "bad", "message"),
    [
        (250, "p1,p2,2-0,g", r"games.csv:250: result '2-0' not understood"),
        (251, "p1,p1,1,g", r"games.csv:251: 'p1' is listed as both white and black"),
        (252, "p1,,1,g", r"games.csv:252: a player name is empty"),
        (253, "p1,p2", r"games.csv:253: 2 fields, the header has 4"),
    ],
)
def test_errors_in_a_later_chunk_name_their_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: int, bad: str, message: str
) -> None:
    monkeypatch.setattr(results_io, "CHUNK", 64)
    lines = many_games(300).split("\n")
    lines[line - 1] = bad
    path = tmp_path / "games.csv"
    path.write_text("\n".join(lines))
    with pytest.raises(ResultsFileError, match=message):
        read_csv(path)


def test_the_group_column_can_be_left_unread(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_text(many_games(20))
    plain = read_csv(path, groups=False)
    assert {r.group for r in plain.results} == {None}
    assert [r.score for r in plain.results] == [r.score for r in read_csv(path).results]


def test_troef_rate_reads_groups_only_to_bootstrap_and_refuses_an_empty_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from harness.cli import main

    path = tmp_path / "games.csv"
    path.write_text(many_games(200))
    assert main(["rate", str(path)]) == 0
    plain = capsys.readouterr().out
    assert "games.csv: 200 games (0 skipped)" in plain
    assert main(["rate", str(path), "--bootstrap", "30"]) == 0
    boot = capsys.readouterr().out
    assert "bootstrap (30)" in boot
    # The same fit either way: only the bootstrap column is added.
    first = plain.splitlines()[3].split()[:3]
    assert boot.splitlines()[3].split()[:3] == first
    path.write_text("white,black,result\n")
    assert main(["rate", str(path)]) == 2
    assert "games.csv:2: no games after the header" in capsys.readouterr().err
