"""The outside yardstick (``bench/yardstick.py``, issue 33 item 4): its configs
and the table it writes into docs/SEARCH.md from real databases.

``tests/test_tournaments.py`` runs every config shrunk, these included; here a
tiny yardstick is played into a real SQLite file through the script and its
table read back.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from harness.contracts.errors import TroefError
from harness.contracts.result import Result
from harness.plugins import load_plugins
from harness.tournament.config import TournamentConfig, load_config
from harness.tournament.plan import Job, planned_count
from harness.tournament.scheduler import run_tournament
from harness.tournament.store import Store

pytest.importorskip("pyspiel")

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "yardstick.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("troef_yardstick", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


yardstick = _script()


def test_every_trick_game_has_a_config_at_equal_iterations() -> None:
    paths = yardstick.configs()
    games = {load_config(p).game for p in paths}
    # Gin rummy is no trick game: the issue asks for the trick games.
    assert games == set(load_plugins().games) - {"gin-rummy"}
    assert len(paths) == len(games) == 16
    for path in paths:
        config = load_config(path)
        # As written: every option the file sets, the defaults left out.
        bots = {k: (v["bot"], v["options"]) for k, v in config.raw["entrants"].items()}
        assert bots.keys() == {yardstick.TROEF, yardstick.OUTSIDE}, path
        troef, troef_options = bots[yardstick.TROEF]
        outside, outside_options = bots[yardstick.OUTSIDE]
        assert (troef, outside) == ("ismcts", "openspiel:ismcts"), path
        # Equal budgets, each bot's defaults otherwise (no tuning either way).
        assert troef_options == {"iterations": outside_options["simulations"]}, path
        assert set(outside_options) == {"simulations"}, path
        assert config.duplicate and config.format == "round-robin", path
        assert planned_count(config) > 0


def _tiny(tmp_path: Path, game: str = "binage", seeds: int = 2) -> Path:
    """The real config of ``game`` with ``seeds`` seeds and 3 iterations a move."""
    text = (yardstick.CONFIGS / f"yardstick-{game}.toml").read_text()
    text = re.sub(r"(?m)^matches = \d+$", f"matches = {seeds}", text)
    text = re.sub(r"(iterations|simulations) = \d+", r"\1 = 3", text)
    path = tmp_path / f"yardstick-{game}.toml"
    path.write_text(text)
    return path


def test_run_plays_every_seed_resumably_and_the_table_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _tiny(tmp_path)
    yardstick.run([path])
    assert capsys.readouterr().out == "yardstick-binage.toml: 4 more matches\n"
    yardstick.run([path])
    assert capsys.readouterr().out == "yardstick-binage.toml: 0 more matches\n"
    row = yardstick.row(path)
    assert row is not None
    assert (row.game, row.played, row.planned, row.iterations) == ("binage", 4, 4, 3)
    pair = row.pair
    assert (pair.a, pair.b, pair.samples, pair.games) == ("ismcts", "openspiel", 2, 4)
    assert all(seconds > 0 for seconds in row.per_move)
    text = yardstick.table([row])
    line = next(x for x in text.splitlines() if x.startswith("| binage"))
    assert line.startswith(f"| binage (4/4) | 3 | {pair.wins}-{pair.draws}-")
    assert "| tied |" in line  # two seeds cannot separate anything
    assert "tied in 1" in text and "In 1 of them even a sweep" in text
    assert "Not played" not in text
    later = yardstick.table([row], ["rubicon", "smousjas"])
    assert later.endswith("any seed yet: rubicon, smousjas.\n")


def test_a_seed_not_played_in_every_seating_is_left_out(tmp_path: Path) -> None:
    # Three seats: a group is a seed's three seatings of one table.
    path = _tiny(tmp_path, "klaverjassen-3", seeds=1)
    # In this process, one match at a time, so where the run stops does not
    # depend on timing (a pool has more in flight when the monitor says stop).
    config = dataclasses.replace(load_config(path), chunk=1, executor="inline")
    run_tournament(config, workers=1, monitor=_After(1))
    assert 0 < _recorded(config) < 3
    assert yardstick.row(path) is None
    yardstick.run([path])  # completes the group, then the other one
    row = yardstick.row(path)
    assert row is not None and row.played == row.planned == 6


def _recorded(config: TournamentConfig) -> int:
    with Store.existing(config.database) as store:
        return store.counts()[0]


class _After:
    """A monitor that ends a run after ``n`` results."""

    def __init__(self, n: int) -> None:
        self.left = n

    def feed(self, job: Job, result: Result) -> None:
        self.left -= 1

    def done(self) -> bool:
        return self.left <= 0

    def progress(self) -> str:
        return f"{self.left} to go"


def test_the_verdicts_are_holm_corrected_across_the_games(tmp_path: Path) -> None:
    path = _tiny(tmp_path)
    yardstick.run([path])
    row = yardstick.row(path)
    assert row is not None

    def game(name: str, p: float, difference: float) -> object:
        pair = dataclasses.replace(row.pair, p_value=p, mean_difference=difference)
        return dataclasses.replace(row, game=name, pair=pair)

    # Holm: 0.01 x 3, then max(0.03, 0.02 x 2), then max(0.04, 0.3 x 1).
    rows = [game("a", 0.01, 0.5), game("b", 0.02, -0.5), game("c", 0.3, 0.5)]
    lines = {x.split(" ")[1]: x for x in yardstick.table(rows).splitlines()[2:5]}
    assert "| 0.010 | 0.030 |" in lines["a"] and "| stronger |" in lines["a"]
    assert "| 0.020 | 0.040 |" in lines["b"] and "| weaker |" in lines["b"]
    assert "| 0.300 | 0.300 |" in lines["c"] and "| tied |" in lines["c"]


def test_write_replaces_only_the_generated_part(tmp_path: Path) -> None:
    doc = tmp_path / "SEARCH.md"
    doc.write_text(f"before\n{yardstick.BEGIN}\nold\n{yardstick.END}\nafter\n")
    yardstick.write(doc, "| new |\n")
    yardstick.write(doc, "| new |\n")  # twice: the same file
    assert doc.read_text() == (
        f"before\n{yardstick.BEGIN}\n\n| new |\n\n{yardstick.END}\nafter\n"
    )
    doc.write_text("no markers\n")
    with pytest.raises(TroefError, match=r"SEARCH\.md: no generated part .*yardstick"):
        yardstick.write(doc, "| new |\n")


def test_the_search_doc_has_the_generated_part() -> None:
    text = yardstick.DOC.read_text()
    assert text.index(yardstick.BEGIN) < text.index(yardstick.END)
