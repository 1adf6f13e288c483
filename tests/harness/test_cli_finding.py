"""Issue 14, items 6, 7 and 12: finding matches and forfeits; compare refuses mixes."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from harness.cli import main
from tests.conftest import TOY_PLUGIN

BROKEN = Path(__file__).resolve().parents[1] / "plugins" / "broken_bots.py"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A toy round robin in which 'raiser' forfeits every match it plays."""
    tmp = tmp_path_factory.mktemp("finding")
    path = tmp / "ff.toml"
    path.write_text(
        'game = "toy"\nmatches = 3\nseed = 8\nexecutor = "inline"\n'
        f'plugins = ["{TOY_PLUGIN}", "{BROKEN}"]\n'
        '[entrants.raiser]\nbot = "raises"\nisolation = "in-process"\n'
        '[entrants.random-a]\nbot = "random"\n[entrants.random-b]\nbot = "random"\n'
    )
    assert main(["run", str(path), "--quiet"]) == 0
    return path


@pytest.fixture(scope="module")
def database(config: Path) -> Path:
    return config.with_suffix(".sqlite")


def test_status_shows_forfeits_by_entrant_and_reason(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    code, out, _ = run(capsys, "status", str(database))
    assert code == 0
    # raiser plays 2 of the 3 pairings, 3 seeds x 2 seatings each: 12 matches.
    line = next(row for row in out.splitlines() if row.startswith("raiser"))
    assert line.split() == ["raiser", "exception", "12"]


def test_report_shows_the_forfeits_too(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    code, out, _ = run(capsys, "report", str(database))
    assert code == 0
    assert "forfeit reason" in out and "exception" in out


def test_matches_lists_every_match_with_its_index_and_id(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    code, out, _ = run(capsys, "matches", str(database), "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 18
    assert [int(r["index"]) for r in rows] == sorted(int(r["index"]) for r in rows)
    assert all(len(r["job id"]) == 16 for r in rows)


def test_matches_filters_forfeits_and_entrant(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    _, out, _ = run(capsys, "matches", str(database), "--forfeits", "--format", "json")
    forfeited = json.loads(out)
    assert len(forfeited) == 12
    assert {r["forfeit"]["entrant"] for r in forfeited} == {"raiser"}
    assert {r["forfeit"]["reason"] for r in forfeited} == {"exception"}
    _, out, _ = run(
        capsys, "matches", str(database), "--entrant", "random-a", "--format", "json"
    )
    assert len(json.loads(out)) == 12
    assert all("random-a" in r["seating"] for r in json.loads(out))


def test_matches_json_carries_numbers_lists_and_the_forfeit_detail(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    """Issue 25, item 4: typed JSON, the traceback where the hint points."""
    _, out, _ = run(capsys, "matches", str(database), "--format", "json")
    rows = json.loads(out)
    first = rows[0]
    assert isinstance(first["index"], int)
    assert isinstance(first["seating"], list) and len(first["seating"]) == 2
    assert all(isinstance(x, int) for x in first["scores"] + first["ranks"])
    # The CSV of the same matches says the same numbers.
    _, text, _ = run(capsys, "matches", str(database), "--format", "csv")
    csv_rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["scores"] for r in csv_rows] == [
        " ".join(map(str, r["scores"])) for r in rows
    ]
    lost = [r for r in rows if r["forfeit"] is not None]
    assert lost and all(r["forfeit"]["entrant"] == "raiser" for r in lost)
    for r in lost:
        assert r["seating"][r["forfeit"]["seat"]] == "raiser"
        assert "Traceback" in r["forfeit"]["detail"]
    assert all(r["forfeit"] is None for r in rows if "raiser" not in r["seating"])


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_matches_forfeits_shows_each_traceback_below_the_table(
    capsys: pytest.CaptureFixture[str], database: Path, fmt: str
) -> None:
    """The report's forfeit hint points here: the detail replay tells is shown."""
    _, out, _ = run(capsys, "matches", str(database), "--forfeits", "--format", fmt)
    table, details = out.split("Forfeit details", 1)
    assert table.count("raiser: exception") == 12
    assert details.count("Traceback (most recent call last)") == 12
    assert details.count("RuntimeError: my bug") == 12  # the bot's own message
    _, plain, _ = run(capsys, "matches", str(database), "--format", fmt)
    assert "Forfeit details" not in plain and "Traceback" not in plain


def test_matches_names_an_unknown_entrant(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    code, _, err = run(capsys, "matches", str(database), "--entrant", "random-c")
    assert code == 2 and "did you mean" in err and "random-a" in err


def test_replay_of_a_missing_match_gives_the_range(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    code, _, err = run(capsys, "replay", str(database), "24")
    assert code == 2
    assert "a plan index from 0 to 17 (18 of 18 recorded)" in err
    assert "troef matches" in err


def test_a_config_given_for_a_database_points_to_its_database(
    capsys: pytest.CaptureFixture[str], config: Path, database: Path
) -> None:
    code, _, err = run(capsys, "status", str(config))
    assert code == 2
    assert "is a tournament config, not a database" in err
    assert f"its database is {database}" in err


def test_compare_refuses_databases_of_different_games(
    capsys: pytest.CaptureFixture[str], database: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.toml"
    other.write_text(
        'game = "toy"\nmatches = 2\nseed = 8\nexecutor = "inline"\n'
        f'plugins = ["{TOY_PLUGIN}", "{BROKEN}"]\n[options]\nleaky = true\n'
        '[entrants.random-a]\nbot = "random"\n[entrants.random-b]\nbot = "random"\n'
    )
    assert main(["run", str(other), "--quiet"]) == 0
    capsys.readouterr()
    pair = [str(database), str(other.with_suffix(".sqlite"))]
    code, _, err = run(capsys, "compare", *pair)
    assert code == 2 and "different games or game options" in err
    code, out, _ = run(capsys, "compare", *pair, "--any-game")
    assert code == 0 and "random-a" in out


#: Each table of the report and a line only its section prints.
_SECTION_MARKS = {
    "standings": "matches; Elo ratings",
    "crosstable": "Crosstable (row's score",
    "pairs": "Pairwise tests (Holm-corrected",
    "forfeits": "Forfeits (details: troef matches",
    "thinking": "Thinking time, as the referee",
}


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_report_table_keeps_one_table_in_text_and_markdown(
    capsys: pytest.CaptureFixture[str], database: Path, fmt: str
) -> None:
    """Issue 25, item 4: --table was silently ignored outside CSV and JSON."""
    shown = {}
    for table, mark in _SECTION_MARKS.items():
        code, out, _ = run(
            capsys, "report", str(database), "--format", fmt, "--table", table
        )
        assert code == 0
        assert mark in out
        others = [m for t, m in _SECTION_MARKS.items() if t != table]
        assert not [m for m in others if m in out], table
        shown[table] = out.rstrip("\n")
    # The whole report is its tables in order, nothing lost or added.
    _, whole, _ = run(capsys, "report", str(database), "--format", fmt)
    assert whole.rstrip("\n") == "\n\n".join(shown.values())


def test_report_table_of_nothing_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "clean.toml"
    path.write_text(
        'game = "toy"\nmatches = 1\nseed = 8\nexecutor = "inline"\n'
        f'plugins = ["{TOY_PLUGIN}"]\n'
        '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
    )
    assert main(["run", str(path), "--quiet"]) == 0
    capsys.readouterr()
    db = str(path.with_suffix(".sqlite"))
    _, out, _ = run(capsys, "report", db, "--table", "forfeits")
    assert out == "no match ended in a forfeit\n"
    _, whole, _ = run(capsys, "report", db)
    assert "forfeit" not in whole.lower()
