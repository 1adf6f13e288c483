"""troef report / compare / rate on real databases and files."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.tournament.store import Store
from tests.conftest import TOY_PLUGIN

BROKEN = Path(__file__).resolve().parents[1] / "plugins" / "broken_bots.py"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("report")
    path = tmp / "rr.toml"
    path.write_text(
        'game = "toy"\nmatches = 12\nseed = 8\nexecutor = "inline"\n'
        f'plugins = ["{TOY_PLUGIN}"]\n'
        '[entrants.search]\nbot = "search"\noptions = { samples = 3 }\n'
        '[entrants.random-a]\nbot = "random"\n[entrants.random-b]\nbot = "random"\n'
    )
    assert main(["run", str(path), "--quiet"]) == 0
    return tmp / "rr.sqlite"


def test_report_text_has_standings_crosstable_and_tests(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    code, out, _ = run(capsys, "report", str(database))
    assert code == 0
    assert "Elo ratings, pool mean = 0, 95% intervals" in out
    assert (
        "Crosstable" in out and "Pairwise tests (Holm-corrected across 3 pairs" in out
    )
    assert "wilcoxon" in out  # duplicate deals: the paired test
    standings = out.split("Crosstable")[0]
    assert all(name in standings for name in ("search", "random-a", "random-b"))
    assert "tiers (statistically tied within braces):" in out


def test_report_json_and_csv_exports(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    _, out, _ = run(capsys, "report", str(database), "--format", "json")
    data = json.loads(out)
    assert (
        abs(sum(row["rating"] for row in data["standings"])) < 1e-6
    )  # anchored to the mean
    assert len(data["pairs"]) == 3
    # Two copies of random play hold each hand in turn with the same seeds: every
    # duplicate set is an exact tie, so the paired differences are all zero.
    twins = next(
        p for p in data["pairs"] if {p["a"], p["b"]} == {"random-a", "random-b"}
    )
    assert twins["wins"] == twins["losses"] and twins["mean_difference"] == 0
    _, out, _ = run(
        capsys, "report", str(database), "--format", "csv", "--anchor", "random-a"
    )
    rows = list(csv.DictReader(io.StringIO(out.split("\n\n")[0])))
    assert {r["entrant"] for r in rows} == {"search", "random-a", "random-b"}
    assert float(next(r for r in rows if r["entrant"] == "random-a")["rating"]) == 0.0


def test_report_markdown(capsys: pytest.CaptureFixture[str], database: Path) -> None:
    _, out, _ = run(capsys, "report", str(database), "--format", "markdown")
    assert out.startswith("## ") and "|---" in out


def test_report_errors(
    capsys: pytest.CaptureFixture[str], database: Path, tmp_path: Path
) -> None:
    code, _, err = run(capsys, "report", str(database), "--anchor", "serch")
    assert (
        code == 2 and "--anchor 'serch': no such entrant; did you mean 'search'?" in err
    )
    code, _, err = run(capsys, "report", str(tmp_path / "none.sqlite"))
    assert code == 2 and "no database at" in err


def test_compare_two_tournaments(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    code, out, _ = run(capsys, "compare", str(database), str(database))
    assert code == 0
    assert "change (95%)" in out and "+0.0 ±" in out  # the same results: no change


def test_rate_a_csv_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    # A scores 4 of 6 against B: a difference of 400*log10(2) = 120.4 Elo.
    path.write_text(
        "white,black,result\nA,B,1\nB,A,0\nA,B,1/2\nB,A,1/2\nA,B,1\nB,A,1\n"
    )
    code, out, _ = run(capsys, "rate", str(path), "--anchor", "B")
    assert code == 0
    assert "6 games (0 skipped)" in out
    line = next(row for row in out.splitlines() if " A " in f" {row} ")
    assert "120.4" in line


def test_rate_reports_bad_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("white,black,result\nA,B,2-0\n")
    code, _, err = run(capsys, "rate", str(path))
    assert code == 2 and "bad.csv:2" in err and "accepted" in err


def test_report_with_bootstrap_and_seat_advantage(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    code, out, _ = run(
        capsys, "report", str(database), "--bootstrap", "50", "--seat-advantage"
    )
    assert code == 0
    assert "bootstrap (50 × sets)" in out
    assert "seat advantage (first seat):" in out
    _, again, _ = run(
        capsys, "report", str(database), "--bootstrap", "50", "--seat-advantage"
    )
    assert again == out  # seeded: the same intervals every time


def test_validate_status_and_replay(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    config = database.with_suffix(".toml")
    code, out, _ = run(capsys, "validate", str(config))
    assert code == 0
    assert f"{config}: valid" in out and "plan       72 matches in 36 groups" in out
    # An installed bot is trusted.
    assert "entrant    search: search (in-process)" in out
    code, out, _ = run(capsys, "status", str(database))
    assert code == 0 and "72 of 72 matches recorded, 0 forfeits" in out
    code, out, _ = run(capsys, "replay", str(database), "0")
    assert code == 0
    assert out.startswith("Toy tricks (harness tests), seed ")
    assert "seat  player" in out and "rank" in out
    with Store.existing(database) as store:
        first = next(store.matches())
    code, again, _ = run(capsys, "replay", str(database), first.job["id"][:8])
    assert code == 0 and again == out
    code, _, err = run(capsys, "replay", str(database), "999")
    assert code == 2 and "no match in" in err and "a plan index from 0 to 71" in err


# -- issue 14 items 9 and 11 ---------------------------------------------------------


def test_csv_exports_one_table_per_stream(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    for table, first in (
        ("standings", "rank"),
        ("pairs", "a"),
        ("crosstable", "entrant"),
    ):
        code, out, _ = run(
            capsys, "report", str(database), "--format", "csv", "--table", table
        )
        assert code == 0
        rows = list(csv.reader(io.StringIO(out)))
        assert rows[0][0] == first
        # One header: no row repeats it, every row as wide as it.
        assert all(row != rows[0] and len(row) == len(rows[0]) for row in rows[1:])
    _, default, _ = run(capsys, "report", str(database), "--format", "csv")
    assert default.splitlines()[0].startswith("rank,")
    with pytest.raises(SystemExit):
        main(["report", str(database), "--table", "nope"])
    assert "expected one of standings, pairs, crosstable" in capsys.readouterr().err


def test_json_has_the_crosstable_and_pairs_in_rank_order(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    _, out, _ = run(capsys, "report", str(database), "--format", "json")
    data = json.loads(out)
    order = [row["entrant"] for row in data["standings"]]
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [
        (order[0], order[1]),
        (order[0], order[2]),
        (order[1], order[2]),
    ]
    cells = {(c["entrant"], c["opponent"]): c["score"] for c in data["crosstable"]}
    assert len(cells) == 6
    for (a, b), score in cells.items():
        assert score + cells[(b, a)] == pytest.approx(1.0)


def test_text_report_has_a_header_on_every_column_and_no_minus_zero(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    _, out, _ = run(capsys, "report", str(database))
    assert " sig." in out and "entrant    " in out.split("Crosstable")[1]
    assert "-0 " not in out and "-0.0 " not in out and "[-0," not in out
    assert max(len(line) for line in out.splitlines() if line.startswith("note")) <= 100


def test_a_small_sample_is_said_to_be_no_finding(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two seeds: two duplicate pairs per pairing, so Wilcoxon cannot reach 5%."""
    path = tmp_path / "small.toml"
    path.write_text(
        'game = "toy"\nmatches = 2\nseed = 8\nexecutor = "inline"\n'
        f'plugins = ["{TOY_PLUGIN}"]\n'
        '[entrants.search]\nbot = "search"\noptions = { samples = 3 }\n'
        '[entrants.random]\nbot = "random"\n'
    )
    assert main(["run", str(path), "--quiet"]) == 0
    capsys.readouterr()
    _, out, _ = run(capsys, "report", str(tmp_path / "small.sqlite"))
    assert "the wilcoxon test cannot give p below 1.000 at this size" in out
    assert "tie is no finding" in out


def test_a_clamped_elo_difference_is_printed_as_a_bound(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "rout.toml"
    path.write_text(
        'game = "toy"\nmatches = 6\nseed = 8\nexecutor = "inline"\nduplicate = false\n'
        f'plugins = ["{TOY_PLUGIN}", "{BROKEN}"]\n'
        '[entrants.random]\nbot = "random"\n'
        '[entrants.raiser]\nbot = "raises"\nisolation = "in-process"\n'
    )
    assert main(["run", str(path), "--quiet"]) == 0
    capsys.readouterr()
    _, out, _ = run(capsys, "report", str(tmp_path / "rout.sqlite"))
    pair = next(line for line in out.splitlines() if line.startswith("random - raiser"))
    assert ">= +1200 [" in pair and "+inf]" in pair
