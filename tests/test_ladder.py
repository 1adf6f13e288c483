"""The strength ladders (docs/SEARCH.md, "The strength ladder"; issue 35): their configs
and ``python -m bench.ladder``, which plays them and writes their table.

The generator is run on a real database, a real run of a shrunk ladder config;
the strength of the bots is not checked here (the night's run is for that).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from scipy import stats as st

from harness.contracts.errors import ConfigError, TroefError
from harness.plugins import load_plugins
from harness.tournament.config import TournamentConfig, load_config
from harness.tournament.plan import plan
from harness.tournament.scheduler import run_tournament
from harness.tournament.store import Store

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "ladder.py"
LADDERS = sorted((ROOT / "tournaments").glob("ladder-*.toml"))


def _ladder_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("troef_bench_ladder", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


ladder = _ladder_module()


# -- the configs ----------------------------------------------------------------


@pytest.mark.parametrize("path", LADDERS, ids=[p.stem for p in LADDERS])
def test_a_ladder_plays_the_real_match_with_equal_time_per_move(path: Path) -> None:
    """random < heuristic < ismcts and pimc, at the game's default options, on
    duplicate deals, the two search bots on the same clock with budgets that
    the clock, not the count, ends."""
    config = load_config(path)
    game = load_plugins().game(config.game, {})
    defaults = {option.name: option.default for option in game.option_specs}
    for name, value in config.options:
        assert value == defaults[name], f"{path.name}: option {name} = {value}"
    labels = [e.label for e in config.entrants]
    assert labels[0] == "random" and labels[2:] == ["ismcts", "pimc"], labels
    assert len(labels) == 4
    assert config.duplicate and config.format == "round-robin"
    search = {e.label: dict(e.options) for e in config.entrants[2:]}
    assert search["ismcts"]["seconds"] == search["pimc"]["seconds"] > 0
    # At 10,000 iterations per second, the count lasts far beyond the clock.
    assert search["ismcts"]["iterations"] >= 10_000 * 100 * search["ismcts"]["seconds"]
    assert search["pimc"]["worlds"] >= 10_000


def test_every_registered_game_has_a_ladder() -> None:
    games = {load_config(path).game for path in LADDERS}
    assert games == set(load_plugins().games)
    assert set(ladder.ladder_configs()) == {
        p.stem.removeprefix("ladder-") for p in LADDERS
    }


# -- the generator on a real run ------------------------------------------------


def _shrunk_ladder(directory: Path) -> Path:
    """ladder-klapper.toml cut to two seeds of one deal, cheap search, in process."""
    text = (ROOT / "tournaments" / "ladder-klapper.toml").read_text()
    text = re.sub(r"(?m)^matches = \d+", "matches = 2", text)
    text = re.sub(r"(?m)^target = \d+", "target = 1", text)
    text = text.replace("iterations = 10000000", "iterations = 10")
    text = text.replace("worlds = 10000", "worlds = 1, rollouts = 1")
    text = re.sub(r"seconds = [\d.]+", "seconds = 0.01", text)
    text = text.replace(
        'format = "round-robin"', 'format = "round-robin"\nexecutor = "inline"'
    )
    path = directory / "ladder-klapper.toml"
    path.write_text(text)
    return path


def _doc(path: Path) -> Path:
    path.write_text(
        f"# Search\n\nbefore\n\n{ladder.BEGIN}\nold rows\n{ladder.END}\n\nafter\n"
    )
    return path


def test_the_table_is_generated_from_a_real_run_and_a_rerun_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tournaments = tmp_path / "tournaments"
    tournaments.mkdir()
    config_path = _shrunk_ladder(tournaments)
    doc = _doc(tmp_path / "SEARCH.md")
    databases = tmp_path / "databases"
    argv = ["--tournaments", str(tournaments), "--databases", str(databases)]
    argv += ["--doc", str(doc), "--archives", str(tmp_path / "archives")]
    assert ladder.main(["--games", "klapper", "--workers", "1", *argv]) == 0
    database = databases / "ladder-klapper.sqlite"
    with Store.existing(database) as store:
        assert store.counts() == (24, 24)  # 6 pairs x 2 seatings x 2 seeds
    text = doc.read_text()
    assert text.startswith("# Search\n\nbefore\n\n") and text.endswith("\n\nafter\n")
    assert "old rows" not in text
    region = text.split(ladder.BEGIN)[1].split(ladder.END)[0]
    step_table, time_table = region.split("\n\n")
    found = [line for line in step_table.splitlines() if line.startswith("| klapper")]
    steps = [line.split(" | ")[1] for line in found]
    assert steps == [
        "random < jass",
        "random < ismcts",
        "random < pimc",
        "jass < ismcts",
        "jass < pimc",
        "ismcts vs pimc",
    ]
    for line in found:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[0] == "klapper (24/24)"
        wins, draws, losses = map(int, cells[2].split("-"))
        assert wins + draws + losses == 4  # two seeds, each in both seatings
        assert cells[3] == "2"  # paired seeds
        assert cells[6] in ("yes", "no", "REVERSED") or cells[6].endswith("ahead")
        # A step that is not significant says the sample it needs.
        assert (cells[6] == "no") == (cells[7] != "")
    # Equal time, as measured: each search bot's mean seconds per decision
    # (forced ones too) and its longest decision.
    (thinking,) = time_table.splitlines()[2:]
    cells = [c.strip() for c in thinking.strip("|").split("|")]
    assert cells[0] == "klapper" and len(cells) == 4
    # The commit that played it (ruling 4): this checkout's, or "unknown"
    # outside git.
    assert cells[3] == ladder.code_version()
    assert re.fullmatch(r"[0-9a-f]{12}(\+changes)?|unknown", cells[3]), cells[3]
    for cell in cells[1:3]:
        timed = re.fullmatch(r"(\d+\.\d{3}) \((\d+\.\d\d)\)", cell)
        assert timed is not None, cell
        assert 0 <= float(timed[1]) <= float(timed[2]) + 0.005  # both rounded
    # The wins of "random < jass" are jass's: counted here from the results.
    jass_wins = 0
    with Store.existing(database) as store:
        for m in store.matches():
            seating = list(m.job["seating"])
            if sorted(seating) == ["jass", "random"]:
                ranks = dict(zip(seating, m.result.ranks, strict=True))
                jass_wins += ranks["jass"] < ranks["random"]
    assert found[0].split(" | ")[2].split("-")[0] == str(jass_wins)
    # A rerun plays nothing and writes the same table; so does --table-only.
    capsys.readouterr()
    assert ladder.main(["--games", "klapper", *argv]) == 0
    assert "klapper: played 0 matches" in capsys.readouterr().err
    assert doc.read_text() == text
    assert ladder.main(["--table-only", *argv]) == 0
    assert doc.read_text() == text
    assert load_config(config_path).matches == 2
    # Ruling 5: a checkout without the database restores it from the archive
    # the run wrote, and writes the same table, thinking times and commits too.
    archive = tmp_path / "archives" / "ladder-klapper.jsonl"
    assert len(archive.read_text().splitlines()) == 1 + 24
    for path in databases.iterdir():
        path.unlink()
    doc.write_text(_doc(tmp_path / "other.md").read_text())
    assert ladder.main(["--table-only", *argv]) == 0
    assert doc.read_text() == text
    with Store.existing(database) as store:
        assert store.counts() == (24, 24)


def test_sigterm_stops_the_ladder_archives_it_and_says_to_rerun_the_ladder(
    tmp_path: Path,
) -> None:
    """A ladder stopped by SIGTERM once its first matches are in: exit 130,
    the matches recorded are archived, and the message names this command,
    not ``troef run`` (which would play into the config's own database)."""
    tournaments = tmp_path / "tournaments"
    tournaments.mkdir()
    config_path = _shrunk_ladder(tournaments)
    config_path.write_text(
        re.sub(r"(?m)^matches = \d+", "matches = 40", config_path.read_text())
    )
    databases, archives = tmp_path / "databases", tmp_path / "archives"
    database = databases / "ladder-klapper.sqlite"
    argv = ["--tournaments", str(tournaments), "--databases", str(databases)]
    argv += ["--doc", str(_doc(tmp_path / "SEARCH.md")), "--archives", str(archives)]
    command = [sys.executable, "-m", "bench.ladder", "--games", "klapper", *argv]
    proc = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 120
        while not _recorded(database) and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, err
    with Store.existing(database) as store:
        done, planned = store.counts()
    assert 0 < done < planned == 480
    assert (
        f"bench.ladder: stopped: {done} of 480 matches of the klapper ladder are "
        f"recorded in {database} and archived in {archives / 'ladder-klapper.jsonl'}; "
        "rerun this command to resume every ladder it names"
    ) in err
    assert "troef run" not in err
    lines = (archives / "ladder-klapper.jsonl").read_text().splitlines()
    assert len(lines) == 1 + done


def _recorded(database: Path) -> int:
    """Matches recorded in ``database`` so far (0 before it exists)."""
    if not database.exists():
        return 0
    try:
        with Store.read_snapshot(database) as store:  # never writes beside the run
            return store.counts()[0]
    except (TroefError, sqlite3.Error):  # being created this moment
        return 0


def _forget_all_but(database: Path, kept: int) -> None:
    """Delete every result of ``database`` but the first ``kept`` in plan order."""
    with sqlite3.connect(database) as db:
        ids = [id for (id,) in db.execute("SELECT id FROM jobs ORDER BY idx")]
        for table in ("logs", "thinking", "seat_results", "results"):
            db.executemany(
                f"DELETE FROM {table} WHERE job_id = ?", [(i,) for i in ids[kept:]]
            )
    db.close()


def test_a_stopped_run_is_archived_and_resumes_from_the_archive(
    tmp_path: Path,
) -> None:
    """Half a ladder archived, its database gone: the rest is played on top
    of the restored half, and the matches restored are the ones played."""
    config = ladder.ladder_config(_shrunk_ladder(tmp_path), tmp_path / "db")
    half = dataclasses.replace(config, database=tmp_path / "half.sqlite")
    run_tournament(half, workers=1)
    _forget_all_but(half.database, 10)  # as if stopped after ten matches
    archive = tmp_path / "ladder-klapper.jsonl"
    assert ladder.write_archive(half, archive) == 10
    assert ladder.restore(config, archive) == 10
    assert ladder.restore(config, archive) == 0  # it has them all now
    with Store.existing(half.database) as store:
        played = {m.job["id"]: m.result.to_dict() for m in store.matches()}
    with Store.existing(config.database) as store:
        restored = {m.job["id"]: m.result.to_dict() for m in store.matches()}
        assert store.counts() == (10, 24)
    assert restored == {k: {**v, "log": None} for k, v in played.items()}
    summary = run_tournament(config, workers=1)
    assert (summary.already_done, summary.played) == (10, 14)
    # A checkout whose database was restored from the half archive, given the
    # whole archive from elsewhere: the 14 matches it lacks are added.
    whole = tmp_path / "whole" / "ladder-klapper.jsonl"
    whole.parent.mkdir()
    assert ladder.write_archive(config, whole) == 24
    stale = dataclasses.replace(config, database=tmp_path / "stale.sqlite")
    assert ladder.restore(stale, archive) == 10
    assert ladder.restore(stale, whole) == 14
    with Store.existing(stale.database) as store:
        assert store.counts() == (24, 24)
        assert {m.job["id"] for m in store.matches()} == {j.id for j in plan(config)}


def test_an_archive_of_another_config_is_refused(tmp_path: Path) -> None:
    config = ladder.ladder_config(_shrunk_ladder(tmp_path), tmp_path / "db")
    run_tournament(config, workers=1)
    archive = tmp_path / "ladder-klapper.jsonl"
    ladder.write_archive(config, archive)
    config.database.unlink()
    changed = dataclasses.replace(config, seed=config.seed + 1)
    with pytest.raises(ConfigError, match=r"ladder-klapper.jsonl: results of another"):
        ladder.restore(changed, archive)
    assert not changed.database.exists()


def test_a_lengthened_ladder_keeps_its_archive_and_plays_the_seeds_added(
    tmp_path: Path,
) -> None:
    """Ruling 8: two seeds archived, the config raised to three: the two are
    restored as the new plan's first matches and only the third seed is
    played; a config cut to one seed refuses the archive."""
    config = ladder.ladder_config(_shrunk_ladder(tmp_path), tmp_path / "db")
    run_tournament(config, workers=1)
    archive = tmp_path / "ladder-klapper.jsonl"
    assert ladder.write_archive(config, archive) == 24
    longer = dataclasses.replace(config, matches=3, database=tmp_path / "longer.sqlite")
    assert ladder.restore(longer, archive) == 24
    with Store.existing(longer.database) as store:
        assert store.counts()[0] == 24
        assert {m.job["id"] for m in store.matches()} == {j.id for j in plan(config)}
    summary = run_tournament(longer, workers=1)
    assert (summary.already_done, summary.played) == (24, 12)
    shorter = dataclasses.replace(
        config, matches=1, database=tmp_path / "shorter.sqlite"
    )
    with pytest.raises(ConfigError, match="results of another config"):
        ladder.restore(shorter, archive)
    assert not shorter.database.exists()


def _without_pimc_prior(config: TournamentConfig) -> TournamentConfig:
    """``config`` as it was before PIMC had its ``prior`` options."""
    entrants = tuple(
        dataclasses.replace(
            e,
            options=tuple(
                (k, v) for k, v in e.options if k not in ("prior", "prior_margin")
            ),
        )
        if e.bot == "pimc"
        else e
        for e in config.entrants
    )
    return dataclasses.replace(config, entrants=entrants)


def test_an_archive_from_before_a_new_bot_option_restores_at_its_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ruling 6: a ladder archived before PIMC had ``prior`` restores into
    today's config, which leaves it at its default, under today's job ids, and
    a rerun plays nothing again. Ruling 7: with ``prior`` set, only the matches
    without PIMC are restored, and the restore says which are left to play."""
    config = ladder.ladder_config(_shrunk_ladder(tmp_path), tmp_path / "db")
    before = dataclasses.replace(
        _without_pimc_prior(config), database=tmp_path / "before.sqlite"
    )
    assert "prior" not in before.snapshot()["entrants"]["pimc"]["options"]
    run_tournament(before, workers=1)
    archive = tmp_path / "ladder-klapper.jsonl"
    assert ladder.write_archive(before, archive) == 24
    assert ladder.restore(config, archive) == 24
    with Store.existing(before.database) as store:
        played = [m.result.to_dict() for m in store.matches()]
    with Store.existing(config.database) as store:
        restored = [m.result.to_dict() for m in store.matches()]
        ids = {m.job["id"] for m in store.matches()}
    assert ids == {job.id for job in plan(config)}
    for was, job in zip(plan(before), plan(config), strict=True):
        assert (was.id != job.id) == ("pimc" in job.seating)  # options digested
    assert restored == [{**r, "log": None} for r in played]
    summary = run_tournament(config, workers=1)
    assert (summary.already_done, summary.played) == (24, 0)
    pimc = config.entrant("pimc")
    prior = dataclasses.replace(
        pimc, options=tuple(sorted({**pimc.options_dict(), "prior": "jass"}.items()))
    )
    changed = dataclasses.replace(
        config,
        entrants=tuple(prior if e is pimc else e for e in config.entrants),
        database=tmp_path / "changed.sqlite",
    )
    assert ladder.restore(changed, archive) == 12  # ruling 7: the pairs without pimc
    note = capsys.readouterr().err
    assert "12 matches of pimc left to play again" in note
    assert "pimc.options.prior: '<absent>' -> 'jass'" in note
    with Store.existing(changed.database) as store:
        assert all("pimc" not in m.job["seating"] for m in store.matches())
        assert store.counts() == (12, 24)


def test_the_committed_table_is_the_committed_archives(tmp_path: Path) -> None:
    """docs/SEARCH.md's generated region is what the archives of
    bench/ladder-results/ give, restored into fresh databases."""
    configs = {
        game: ladder.ladder_config(path, tmp_path)
        for game, path in ladder.ladder_configs().items()
    }
    for config in configs.values():
        ladder.restore(config, ladder.archive_of(config))
    text = ladder.DOC.read_text()
    region = text.split(ladder.BEGIN)[1].split(ladder.END)[0]
    assert region == f"\n{ladder.table(configs)}\n"


def test_a_ladder_without_a_database_says_not_run_yet(tmp_path: Path) -> None:
    configs = {
        game: ladder.ladder_config(path, tmp_path)
        for game, path in ladder.ladder_configs().items()
    }
    lines = ladder.table(configs).splitlines()
    assert lines[0] == ladder.HEADER.splitlines()[0]
    assert lines[2:] == [f"| {game} | not run yet | | | | | | |" for game in configs]


def test_the_committed_doc_has_one_generated_region_naming_every_ladder() -> None:
    text = ladder.DOC.read_text()
    assert text.count(ladder.BEGIN) == text.count(ladder.END) == 1
    region = text.split(ladder.BEGIN)[1].split(ladder.END)[0]
    steps = region.split("\n\n")[0]  # the search bots' time table follows
    named = {line.split(" ")[1] for line in steps.splitlines()[3:]}
    assert named == set(ladder.ladder_configs())


def test_playing_needs_games_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        ladder.main([])
    assert "--games is needed" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        ladder.main(["--games", "bridge"])
    assert "for bridge; accepted: all, belote," in capsys.readouterr().err


def test_games_are_all_or_named_ladders() -> None:
    available = ["belote", "klapper"]
    assert ladder.choose("all", available) == available
    assert ladder.choose("klapper, belote", available) == ["klapper", "belote"]
    with pytest.raises(ConfigError, match=r"bridge; accepted: all, belote, klapper"):
        ladder.choose("klapper,bridge", available)


def test_the_table_needs_its_markers_once_in_order(tmp_path: Path) -> None:
    doc = tmp_path / "SEARCH.md"
    doc.write_text(f"no markers\n{ladder.END}\n")
    with pytest.raises(ConfigError, match=r"SEARCH.md: expected the markers"):
        ladder.write_table("rows", doc)
    doc.write_text(f"{ladder.END}\n{ladder.BEGIN}\n")
    with pytest.raises(ConfigError, match=r"comes before"):
        ladder.write_table("rows", doc)
    assert doc.read_text() == f"{ladder.END}\n{ladder.BEGIN}\n"


# -- the sample a step needs ----------------------------------------------------


def test_seeds_needed_worked_example() -> None:
    """Mean 0.5, sd 1, six pairs: z = 2.638 + 0.842 at alpha 0.05/6 and 80% power,
    n = (3.480 / 0.5)^2 = 48.4 for a t-test, / (3/pi) = 50.7 for Wilcoxon: 51."""
    assert ladder.seeds_needed(0.5, 1.0, 0.05 / 6, 0.8) == 51
    assert ladder.seeds_needed(-0.5, 1.0, 0.05 / 6, 0.8) == 51
    assert ladder.seeds_needed(0.0, 1.0, 0.05 / 6, 0.8) is None
    # A quarter of the gap needs sixteen times the seeds, give or take rounding.
    assert ladder.seeds_needed(0.125, 1.0, 0.05 / 6, 0.8) == 812


def test_seeds_needed_is_never_below_what_the_test_can_reach() -> None:
    """Every seed won by the same margin (sd 0): the formula says 0, but the
    Wilcoxon test's smallest p on n seeds all one way is 2/2^n, below 0.05/6
    from 8 seeds on (2/128 = 0.0156 at 7, 2/256 = 0.0078 at 8)."""
    assert ladder.p_floor(7) == pytest.approx(2 / 2**7)
    assert ladder.p_floor(8) == pytest.approx(2 / 2**8)
    assert ladder.seeds_needed(2.0, 0.0, 0.05 / 6, 0.8) == 8


def test_seeds_needed_gives_the_power_it_promises() -> None:
    """At the needed sample, Wilcoxon's test on normal paired differences rejects
    in about 80% of 600 simulated ladders (binomial sd 1.6%)."""
    alpha = 0.05 / 6
    n = ladder.seeds_needed(0.5, 1.0, alpha, 0.8)
    rng = np.random.default_rng(35)
    samples = rng.normal(0.5, 1.0, size=(600, n))
    power = np.mean(st.wilcoxon(samples, axis=1).pvalue < alpha)
    assert 0.74 <= power <= 0.88, power


# -- the search bench: a row per game --------------------------------------------


def test_the_search_bench_has_a_row_per_game_and_the_goal_beside_klaverjassen(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """bench/bench_search.py with no --games: every registered game (speed is
    not asserted, only that each row is there and klaverjassen's has the goal)."""
    spec = importlib.util.spec_from_file_location(
        "troef_bench_search", ROOT / "bench" / "bench_search.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--no-peers", "--deals", "1", "--iterations", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split()[1]: line for line in lines if line.startswith("troef ")}
    assert set(rows) == set(load_plugins().games)
    assert re.search(r"[\d,]+  >= 10,000: (meets|misses)$", rows["klaverjassen"])
    assert ">=" not in rows["bezique"]


def _step(*, ordered: bool, elo: float, p_holm: float, mean: float) -> Any:
    return ladder.Step(
        lower="ismcts" if not ordered else "random",
        higher="pimc" if not ordered else "jass",
        ordered=ordered,
        wins=10,
        draws=0,
        losses=10,
        seeds=10,
        elo=elo,
        low=elo - 50,
        high=elo + 50,
        p_holm=p_holm,
        mean=mean,
        sd=1.0,
        pairs=6,
    )


def test_a_step_is_yes_no_or_reversed_and_the_search_pair_has_no_order() -> None:
    """Rulings 1 and 2 of bench/ladder.py."""
    assert _step(ordered=True, elo=80, p_holm=0.01, mean=0.4).verdict == "yes"
    assert _step(ordered=True, elo=-80, p_holm=0.01, mean=-0.4).verdict == "REVERSED"
    assert _step(ordered=True, elo=80, p_holm=0.05, mean=0.4).verdict == "no"
    assert _step(ordered=False, elo=-80, p_holm=0.01, mean=-0.4).verdict == (
        "yes, ismcts ahead"
    )
    assert _step(ordered=False, elo=-80, p_holm=0.2, mean=-0.4).verdict == "no"
    # A "no" against the order says so beside the sample it needs.
    behind = _step(ordered=True, elo=-20, p_holm=0.3, mean=-0.5)
    assert ladder._needed(behind) == "51 (lower ahead)"
    assert ladder._needed(_step(ordered=True, elo=80, p_holm=0.01, mean=0.4)) == ""
    assert [ladder._elo(x) for x in (-0.3, 120.6, float("inf"))] == ["+0", "+121", "-"]
