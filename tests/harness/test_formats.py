"""The SPRT and ladder formats with real worker processes and SQLite files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from harness.contracts.errors import ConfigError
from harness.tournament.config import TournamentConfig, load_config
from harness.tournament.ladder import Ladder
from harness.tournament.plan import plan
from harness.tournament.scheduler import run_tournament
from harness.tournament.sprt import SprtMonitor, SprtVerdict
from harness.tournament.tracker import RunSummary
from tests.conftest import TOY_PLUGIN


def sprt_config(
    tmp_path: Path, name: str, extra: str = "", sprt: str = "elo0 = 0\nelo1 = 50\n"
) -> TournamentConfig:
    path = tmp_path / f"{name}.toml"
    path.write_text(
        'game = "toy"\nformat = "sprt"\nmatches = 400\nseed = 3\n'
        f'plugins = ["{TOY_PLUGIN}"]\n{extra}'
        f"[sprt]\n{sprt}"
        '[entrants.search]\nbot = "search"\noptions = { samples = 3 }\n'
        '[entrants.random]\nbot = "random"\n'
    )
    return load_config(path)


def run_sprt(config: TournamentConfig) -> tuple[SprtVerdict, RunSummary]:
    monitor = SprtMonitor(config, plan(config))
    summary = run_tournament(config, monitor=monitor)
    return monitor.verdict(), summary


def test_sprt_stops_at_a_verdict_that_does_not_depend_on_the_workers(
    tmp_path: Path,
) -> None:
    one, s1 = run_sprt(sprt_config(tmp_path, "one", 'executor = "inline"\n'))
    two, s2 = run_sprt(sprt_config(tmp_path, "two", "workers = 2\n"))
    assert one.status == "H1"  # search is clearly stronger than random play
    assert one == two  # same samples, same LLR, same verdict
    assert one.llr >= one.upper
    assert one.model == "pentanomial" and sum(one.counts) == one.samples
    # It stopped early: far fewer than the 400 planned pairs were played.
    assert s1.played < 2 * one.samples + 10 and s2.played < s2.planned / 2


def test_sprt_accepts_h0_when_the_candidate_is_not_better(tmp_path: Path) -> None:
    config = sprt_config(
        tmp_path, "h0", 'executor = "inline"\n', "elo0 = 100\nelo1 = 150\n"
    )
    verdict, _ = run_sprt(config)
    assert verdict.status == "H0" and verdict.llr <= verdict.lower


def test_sprt_resumes_to_the_same_verdict(tmp_path: Path) -> None:
    config = sprt_config(tmp_path, "resume", 'executor = "inline"\n')
    verdict, _ = run_sprt(config)
    again = SprtMonitor(config, plan(config))
    rerun = run_tournament(config, monitor=again)
    assert rerun.played == 0 and again.verdict() == verdict


def test_sprt_without_duplicate_uses_the_trinomial_model(tmp_path: Path) -> None:
    verdict, _ = run_sprt(
        sprt_config(tmp_path, "tri", 'executor = "inline"\nduplicate = false\n')
    )
    assert verdict.model == "trinomial" and len(verdict.counts) == 3


@pytest.mark.parametrize(
    ("sprt", "message"),
    [
        ("elo0 = 10\nelo1 = 5\n", "sprt.elo1: elo1 = 5 must be above elo0 = 10"),
        ("elo1 = 5\n", "missing key 'elo0'"),
        (
            "elo0 = 0\nelo1 = 5000\n",
            "sprt.elo1: 5000 is not allowed; expected a number above elo0 from -200 "
            "to 200 (normalized Elo), e.g. 10",
        ),
        (
            'elo0 = -900\nelo1 = 0\nelo_model = "logistic"\n',
            "sprt.elo0: -900 is not allowed; expected a number from -800 to 800 "
            "(logistic Elo), e.g. 0",
        ),
        (
            "elo0 = 0\nelo1 = 5\nalpha = 0.7\n",
            "sprt.alpha: 0.7 is not allowed; expected a number in (0, 0.5)",
        ),
        (
            "elo0 = 0\nelo1 = 5\nbeta_ = 0.1\n",
            "sprt.beta_: unknown key; did you mean 'beta'?",
        ),
        (
            'elo0 = 0\nelo1 = 5\ncandidate = "serch"\n',
            "no entrant 'serch'; did you mean 'search'?",
        ),
    ],
)
def test_bad_sprt_settings(tmp_path: Path, sprt: str, message: str) -> None:
    with pytest.raises(
        ConfigError,
        match=message.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?"),
    ):
        sprt_config(tmp_path, "bad", sprt=sprt)


def ladder_config(tmp_path: Path, extra: str = "") -> TournamentConfig:
    path = tmp_path / "ladder.toml"
    path.write_text(
        'game = "toy"\nformat = "ladder"\nseed = 4\n'
        f'plugins = ["{TOY_PLUGIN}"]\nexecutor = "inline"\n{extra}'
        "[ladder]\nk = 32\nexplore = 0.2\nsets = 2\n"
        '[entrants.r1]\nbot = "random"\n[entrants.r2]\nbot = "random"\n'
        '[entrants.s1]\nbot = "search"\noptions = { samples = 2 }\n'
    )
    return load_config(path)


def test_a_ladder_pairs_by_rating_lets_entrants_join_and_persists(
    tmp_path: Path,
) -> None:
    config = ladder_config(tmp_path)
    with Ladder(config) as ladder:
        rounds = ladder.run(3)
        assert [r.number for r in ladder.run(0)] == []
        assert [r.number for r in rounds] == [1, 2, 3]
        # Three entrants, two seats: one sits out each round; a table plays
        # 2 sets x 2 rotations.
        assert all(len(r.tables) == 1 and r.played == 4 for r in rounds)
        ladder.add("s2", "search", {"samples": 1})
        with pytest.raises(ConfigError, match="has an entrant 's2' already"):
            ladder.add("s2", "random")
    with Ladder(config) as ladder:  # reopened from its database
        assert [e.label for e in ladder.entrants()] == ["r1", "r2", "s1", "s2"]
        fourth = ladder.run(1)[0]
        assert (
            fourth.number == 4 and len(fourth.tables) == 2
        )  # four entrants: two tables
        elo = ladder.ratings()
        assert sum(elo.games(x) for x in ("r1", "r2", "s1", "s2")) == 2 * (3 * 4 + 8)
        assert (
            abs(sum(elo.rating(x) for x in ("r1", "r2", "s1", "s2")) - 4 * 1500) < 1e-6
        )


def test_ladder_rounds_are_deterministic(tmp_path: Path) -> None:
    tables = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        with Ladder(ladder_config(tmp_path / name)) as ladder:
            tables.append([r.tables for r in ladder.run(4)])
            with sqlite3.connect(ladder.config.database) as con:
                tables.append(
                    con.execute("SELECT result FROM results ORDER BY job_id").fetchall()
                )
    assert tables[0] == tables[2] and tables[1] == tables[3]


def test_a_ladder_config_is_not_run_as_a_tournament(tmp_path: Path) -> None:
    from harness.cli import main

    config = ladder_config(tmp_path)
    assert main(["run", str(config.path)]) == 2


def test_status_and_report_of_a_ladder_include_later_joiners(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from harness.cli import main

    config = ladder_config(tmp_path)
    with Ladder(config) as ladder:
        ladder.run(1)
        ladder.add("late", "random")
        ladder.run(2)
    capsys.readouterr()
    for command in ("status", "report"):
        assert main([command, str(config.database)]) == 0
        assert "late" in capsys.readouterr().out


def test_status_and_report_of_a_decided_sprt_give_the_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 14 item 10: a finished SPRT is done, not '84 of 400 recorded'."""
    from harness.cli import main

    config = sprt_config(tmp_path, "told", 'executor = "inline"\n')
    verdict, summary = run_sprt(config)
    capsys.readouterr()
    assert main(["status", str(config.database)]) == 0
    out = capsys.readouterr().out
    assert f"{summary.played} of {summary.played} matches recorded" in out
    assert "verdict: H1 accepted" in out
    assert f"LLR {verdict.llr:.3f}" in out and "SPRT-adjusted" in out
    assert main(["report", str(config.database)]) == 0
    assert "verdict: H1 accepted" in capsys.readouterr().out


def test_the_progress_line_of_an_sprt_shows_the_llr_and_its_bounds(
    tmp_path: Path,
) -> None:
    import io

    from harness.tournament.progress import Progress

    config = sprt_config(tmp_path, "live", 'executor = "inline"\n')
    stream = io.StringIO()
    monitor = SprtMonitor(config, plan(config))
    run_tournament(
        config, monitor=monitor, progress=Progress(stream=stream, live=False)
    )
    last = stream.getvalue().splitlines()[-1]
    verdict = monitor.verdict()
    assert last.endswith(
        f"SPRT LLR {verdict.llr:+.2f} [{verdict.lower:+.2f}, {verdict.upper:+.2f}] "
        f"after {verdict.samples} pairs"
    )


@pytest.mark.parametrize(("model", "limit"), [("normalized", 200), ("logistic", 800)])
def test_the_llr_has_a_value_on_any_counts_within_the_elo_limits(
    model: str, limit: int
) -> None:
    """The bound on elo0 and elo1 is where the LLR is always defined: on
    trinomial and pentanomial counts from none to thousands (regularised)."""
    import itertools

    from harness.stats.sprt import llr
    from harness.tournament.format_settings import ELO_LIMITS

    assert ELO_LIMITS[model] == limit
    for k in (3, 5):
        for counts in itertools.product((0, 5, 3000), repeat=k):
            if any(counts):
                for elo0, elo1 in ((0, limit), (-limit, 0), (limit - 1, limit)):
                    value = llr(list(counts), elo0, elo1, elo_model=model)
                    assert value == value  # not NaN
