"""``troef export DB --format jsonl``: every recorded decision as training data.

Real tournaments into real SQLite files, exported through the command; each
line is checked against the referee: its view is the View the referee sent
the bot when the match is played again from its log, its action the log's,
its utility the recorded Result's. Memory is checked by its peak under
tracemalloc, N matches against 4N (built fast: copies of recorded matches
written through the store's own API), never by time.
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat
import threading
import tracemalloc
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from harness import Bot, View
from harness.api import run_tournament
from harness.cli import main
from harness.contracts.game import Game
from harness.match.referee import play_match
from harness.plugins import load_plugins
from harness.report.dataset import Export, decision_lines
from harness.tournament.config import load_config
from harness.tournament.plan import Job
from harness.tournament.store import Store
from tests.conftest import TOY_PLUGIN

BROKEN = Path(__file__).parents[1] / "plugins" / "broken_bots.py"


class Replayer(Bot):
    """Answers the log's actions in turn and keeps every View it is sent."""

    name = "replayer"

    def __init__(
        self, game: Game, seat: int, log: Sequence[str], seen: list[tuple[int, View]]
    ) -> None:
        super().__init__(game, seat, 0)
        self.log = log
        self.seen = seen

    def act(self, view: View) -> str:
        step = len(self.seen)
        self.seen.append((self.seat, view))
        return self.log[step]


def _export(database: Path, *args: str) -> list[dict[str, Any]]:
    out = database.with_suffix(".jsonl")
    assert (
        main(["export", str(database), "--format", "jsonl", "-o", str(out), *args]) == 0
    )
    assert out.read_text(encoding="utf-8").endswith("\n")
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _klaverjassen(tmp_path: Path) -> Path:
    return run_tournament(
        {
            "game": "klaverjassen",
            "options": {"target": 300},
            "matches": 2,
            "seed": 11,
            "executor": "inline",
            "keep_logs": True,
            "entrants": {"random": {"bot": "random"}, "jass": {"bot": "jass"}},
        },
        database=tmp_path / "kj.sqlite",
    )


def test_every_decision_is_the_referees_view_action_and_utility(
    tmp_path: Path,
) -> None:
    database = _klaverjassen(tmp_path)
    records = _export(database)
    registry = load_plugins()
    with Store.existing(database) as store:
        stored = list(store.matches())
    assert len(stored) == 4
    by_match: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        by_match.setdefault(record["match"], []).append(record)
    assert list(by_match) == [m.job["id"] for m in stored]  # plan order
    for match in stored:
        job, result = match.job, match.result
        assert result.log is not None
        game = registry.game(job["game"], job["options"])
        seen: list[tuple[int, View]] = []
        bots = [Replayer(game, s, result.log, seen) for s in range(4)]
        again = play_match(game, bots, job["seed"], keep_log=True)
        assert again == result  # the referee plays the recorded match again
        lines = by_match[job["id"]]
        assert len(lines) == len(result.log) == len(seen)
        view_class = type(seen[0][1])
        for step, (line, (seat, view)) in enumerate(zip(lines, seen, strict=True)):
            assert line["step"] == step and line["seat"] == seat
            assert view_class.from_json(json.dumps(line["view"])) == view
            assert json.dumps(line["view"], separators=(",", ":")) == view.to_json()
            assert line["action"] == result.log[step]
            assert line["utility"] == result.utilities[seat]
            assert line["entrant"] == job["seating"][seat]
            assert line["bot"] == job["bots"][seat][0]
            assert line["deal"] == line["view"]["deal"]  # klaverjassen's says
            assert (line["index"], line["game"], line["seed"]) == (
                job["index"],
                "klaverjassen",
                job["seed"],
            )
            assert line["options"] == job["options"]


def test_filters_keep_only_the_seats_asked_for(tmp_path: Path) -> None:
    database = _klaverjassen(tmp_path)
    everything = _export(database)
    jass_seat_1 = _export(database, "--entrant", "jass", "--seat", "1")
    expected = [r for r in everything if r["entrant"] == "jass" and r["seat"] == 1]
    assert jass_seat_1 == expected and 0 < len(expected) < len(everything)
    by_bot = _export(database, "--bot", "random")
    assert by_bot == [r for r in everything if r["bot"] == "random"]


def test_a_filter_that_names_nothing_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = _toy_tournament(tmp_path, keep_logs=True)
    assert main(["export", str(database), "--entrant", "nobdy"]) == 2
    assert "--entrant 'nobdy': no such entrant" in capsys.readouterr().err
    assert main(["export", str(database), "--seat", "2"]) == 2
    assert "--seat 2: no such seat; expected 0 to 1" in capsys.readouterr().err


def _toy_tournament(
    folder: Path, *, keep_logs: bool, matches: int = 2, entrants: Any = None
) -> Path:
    folder.mkdir(exist_ok=True)
    config = folder / "toy.toml"
    config.write_text(
        f'game = "toy"\nplugins = ["{TOY_PLUGIN}", "{BROKEN}"]\n'
        f'matches = {matches}\nseed = 5\nexecutor = "inline"\n'
        f"keep_logs = {str(keep_logs).lower()}\n"
        + (entrants or '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'),
        encoding="utf-8",
    )
    return run_tournament(config)


def test_a_forfeited_match_gives_its_played_decisions_and_recorded_utilities(
    tmp_path: Path,
) -> None:
    """Ruling 2 of harness/report/dataset.py: the forfeited answer is no decision."""
    database = _toy_tournament(
        tmp_path,
        keep_logs=True,
        matches=1,
        entrants=(
            '[entrants.a]\nbot = "random"\n'
            '[entrants.b]\nbot = "raises"\noptions = { after = 2 }\n'
            'isolation = "in-process"\n'
        ),
    )
    with Store.existing(database) as store:
        stored = list(store.matches())
    records = _export(database)
    for match in stored:
        assert match.result.forfeit is not None
        log = match.result.log
        assert log is not None
        lines = [r for r in records if r["match"] == match.job["id"]]
        assert [r["action"] for r in lines] == list(log)
        loser = match.result.forfeit.seat
        assert {r["utility"] for r in lines if r["seat"] == loser} <= {-1.0}
        assert {r["utility"] for r in lines if r["seat"] != loser} == {1.0}


def test_matches_without_their_log_are_left_out_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = _toy_tournament(tmp_path, keep_logs=False)
    assert main(["export", str(database)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "exported 0 decisions of 0 matches" in captured.err
    assert "left out 4 matches recorded without their log" in captured.err


def test_a_log_the_game_no_longer_replays_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ruling 4: a changed game is an error naming the match and the step, and
    ``-o FILE`` leaves no half-written file behind."""
    database = _toy_tournament(tmp_path, keep_logs=True, matches=1)
    with Store.existing(database) as store:
        stored = list(store.matches())
        last = stored[-1].job["id"]
        with store.db:
            store.db.execute(
                "UPDATE logs SET log = log || ' XX' WHERE job_id = ?", (last,)
            )
    out = tmp_path / "out.jsonl"
    assert main(["export", str(database), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    step = len(stored[-1].result.log or ())
    assert f"match {last} (plan index 1): step {step}, 'XX' does not replay" in err
    assert list(tmp_path.glob("out.jsonl*")) == []


def test_an_output_that_cannot_be_written_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = _toy_tournament(tmp_path, keep_logs=True, matches=1)
    out = tmp_path / "no such folder" / "out.jsonl"
    assert main(["export", str(database), "-o", str(out)]) == 2
    assert f"-o {out}: cannot write the export" in capsys.readouterr().err


def test_an_output_that_is_no_regular_file_is_written_not_replaced(
    tmp_path: Path,
) -> None:
    """``-o`` on a FIFO (as on /dev/null) writes into it: renaming a finished
    file over it would replace it."""
    database = _toy_tournament(tmp_path, keep_logs=True, matches=1)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(
        target=lambda: received.extend(fifo.read_text(encoding="utf-8").splitlines()),
        daemon=True,
    )
    reader.start()
    assert main(["export", str(database), "-o", str(fifo)]) == 0
    reader.join(timeout=60)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert len(received) == 24  # two matches of two deals of six cards
    assert {json.loads(line)["step"] for line in received} == set(range(12))


def _copies(database: Path, config: Path, count: int) -> None:
    """Add copies of the recorded matches through the store's API until the
    database holds ``count``: each a job of its own (id, plan index)."""
    with Store.existing(database) as store:
        originals = [(Job.from_dict(m.job), m.result) for m in store.matches()]
    copies = [
        (dataclasses.replace(job, id=f"{index:016x}", index=index), result)
        for index in range(len(originals), count)
        for job, result in [originals[index % len(originals)]]
    ]
    with Store.open(database, load_config(config)) as store:
        store.add_jobs(job for job, _ in copies)
        store.record_many(copies)


def _peak(database: Path, registry: Any) -> tuple[int, Export]:
    """tracemalloc's peak while exporting ``database`` to nowhere."""
    games: dict[str, Game] = {}

    def game_of(job: Mapping[str, Any]) -> Game:
        if job["game"] not in games:
            games[job["game"]] = registry.game(job["game"], job["options"])
        return games[job["game"]]

    counts = Export()
    with Store.existing(database) as store, open(os.devnull, "w") as sink:
        tracemalloc.start()
        try:
            sink.writelines(decision_lines(store, game_of, counts=counts))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    return peak, counts


@pytest.mark.slow
def test_export_memory_does_not_grow_with_the_database(tmp_path: Path) -> None:
    small = _toy_tournament(tmp_path / "small", keep_logs=True)
    big = _toy_tournament(tmp_path / "big", keep_logs=True)
    _copies(small, small.with_suffix(".toml"), 200)
    _copies(big, big.with_suffix(".toml"), 800)
    registry = load_plugins(files=[TOY_PLUGIN])
    # Untraced, once: what a first export allocates for good (imports, caches)
    # is not what the comparison is about.
    with Store.existing(small) as store:
        for _ in decision_lines(store, lambda job: registry.game(job["game"])):
            pass
    peak_small, counts_small = _peak(small, registry)
    peak_big, counts_big = _peak(big, registry)
    assert (counts_small.matches, counts_big.matches) == (200, 800)
    assert counts_big.decisions == 4 * counts_small.decisions
    # Were records kept, the peak would grow about fourfold (800 matches of
    # 12 decisions of some 300 bytes each is near 3 MB).
    assert peak_big < 1.5 * peak_small + 64_000, (peak_small, peak_big)
