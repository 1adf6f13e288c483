"""Teams of three and games won on fewest points, end to end.

The two games of ``tests/plugins/ranking_games.py`` run through ``troef run``
(a real process pool, a real SQLite file) and ``troef report``; a forfeit in
the game won on fewest points keeps that order; the paired statistics and the
search bot read the game's order, not raw points. Each test says what it
would have shown with raw scores.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from scipy import stats as st

from bots.random_bot import RandomBot
from bots.search import SearchBot
from harness import Bot, View
from harness.cli import main
from harness.contracts.result import Result
from harness.match.conformance import check_game
from harness.match.referee import make_bots, play_match, replay
from harness.stats.significance import paired_differences
from harness.stats.standings import standings
from harness.tournament.store import Store
from tests.plugins.ranking_games import EliminationGame, LowGame, TeamsGame

RANKING_PLUGIN = Path(__file__).parents[1] / "plugins" / "ranking_games.py"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def tournament(tmp_path: Path, game: str, matches: int, extra: str = "") -> Path:
    """A search bot against a random bot, duplicate deals, on a pool of 2 workers."""
    path = tmp_path / f"{game}.toml"
    path.write_text(
        f'game = "{game}"\nmatches = {matches}\nseed = 11\nworkers = 2\n'
        f'executor = "process"\nplugins = ["{RANKING_PLUGIN}"]\n{extra}'
        '[entrants.search]\nbot = "search"\noptions = { samples = 4 }\n'
        '[entrants.random]\nbot = "random"\n'
    )
    return path


def report_json(capsys: pytest.CaptureFixture[str], database: Path) -> dict[str, Any]:
    return dict(
        json.loads(run_cli(capsys, "report", str(database), "--format", "json"))
    )


def test_the_test_games_pass_the_conformance_suite() -> None:
    for game in (TeamsGame(), LowGame(), LowGame(deals=3)):
        report = check_game(game, matches=3, seed=5)
        assert report.passed and report.samples > 0, report.summary()


def test_a_game_ranked_by_something_else_than_scores_passes_when_it_says_so() -> None:
    """Ranks by elimination, not points: the suite checks them as a ranking
    (and against the utilities), and against the scores only if the game
    says its ranks follow them."""
    game = EliminationGame(deals=3)
    report = check_game(game, matches=6, seed=2)
    assert report.passed, report.summary()

    class Claims(EliminationGame):
        ranks_follow_scores = True

    claimed = check_game(Claims(deals=3), matches=6, seed=2, raise_on_failure=False)
    assert any("do not follow scores" in f for f in claimed.failures)


# -- two teams of three sitting alternately -------------------------------------------


def test_a_three_a_side_tournament_counts_each_team_as_one_entrant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tournament(tmp_path, "toy-teams", matches=30)
    run_cli(capsys, "run", str(path), "--quiet")
    database = tmp_path / "toy-teams.sqlite"
    with Store.existing(database) as store:
        matches = list(store.matches())
    assert len(matches) == 60  # 30 seeds x 2 rotations
    for match in matches:
        seating, result = match.job["seating"], match.result
        assert result.teams == (0, 1, 0, 1, 0, 1)
        # All three seats of a team: one entrant, one score, rank and utility.
        for team_seats in ((0, 2, 4), (1, 3, 5)):
            assert len({(seating[s], result.ranks[s]) for s in team_seats}) == 1
            assert len({result.utilities[s] for s in team_seats}) == 1
        assert sorted(set(result.utilities)) in ([-1.0, 1.0], [0.0])
    data = report_json(capsys, database)
    assert [row["entrant"] for row in data["standings"]] == ["search", "random"]
    (pair,) = data["pairs"]
    # One pairwise result per match: partners are one team, not three players.
    assert pair["wins"] + pair["draws"] + pair["losses"] == 60
    assert pair["samples"] == 30  # duplicate groups of two rotations
    search_score = pair["score"] if pair["a"] == "search" else 1 - pair["score"]
    assert search_score > 0.6
    status = run_cli(capsys, "status", str(database))
    assert status.index("search") < status.index("random")


# -- a game won on fewest points ------------------------------------------------------


def test_a_fewest_points_tournament_ranks_and_pairs_in_the_games_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tournament(tmp_path, "toy-low", matches=80)
    run_cli(capsys, "run", str(path), "--quiet")
    database = tmp_path / "toy-low.sqlite"
    data = report_json(capsys, database)
    assert [row["entrant"] for row in data["standings"]] == ["search", "random"]
    (pair,) = data["pairs"]
    assert (pair["a"], pair["b"]) == ("search", "random")  # in rank order
    assert pair["test"] == "wilcoxon"  # duplicate deals: the paired test
    # The paired differences (search - random, per duplicate group) favour the
    # search bot, significantly.
    assert pair["mean_difference"] > 0 and pair["p_value"] < 0.01
    assert pair["wins"] > pair["losses"]
    # Raw scores point the other way: the search bot takes fewer penalty
    # points, so the old per-group point differences favoured the random bot.
    with Store.existing(database) as store:
        matches = [
            (m.job["seating"], m.result, m.job["group"]) for m in store.matches()
        ]
    raw: dict[str, float] = defaultdict(float)
    for seating, result, group in matches:
        score = dict(zip(seating, result.scores, strict=True))
        raw[group] += score["random"] - score["search"]
    assert sum(raw.values()) > 0
    ours = paired_differences(matches)[("random", "search")]
    assert sum(ours) < 0 and len(ours) == 80


def test_results_stored_without_utilities_still_load_and_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tournament(tmp_path, "toy-low", matches=6)
    run_cli(capsys, "run", str(path), "--quiet")
    database = tmp_path / "toy-low.sqlite"
    before = report_json(capsys, database)
    with Store.existing(database) as store:
        kept = [m.result for m in store.matches()]
    # Make the database look as one written before utilities existed.
    with sqlite3.connect(database) as con:
        con.execute("UPDATE results SET result = json_remove(result, '$.utilities')")
        assert not con.execute(
            "SELECT COUNT(*) FROM results WHERE result LIKE '%utilities%'"
        ).fetchone()[0]
    con.close()
    with Store.existing(database) as store:
        assert [m.result for m in store.matches()] == kept
    assert report_json(capsys, database) == before
    # The config snapshot still matches: running again plays nothing.
    out = run_cli(capsys, "run", str(path))
    assert "nothing left to play: 12 matches are recorded" in out


def test_standings_break_ties_on_utility_not_on_mean_score() -> None:
    """Fewest points win; "good" and "bad" win one match each, by different margins."""

    def low(scores: tuple[int, int], margin: int) -> Result:
        # The game's own utilities: the winner's margin, zero-sum.
        winner = 0 if scores[0] < scores[1] else 1
        utilities = [-margin, -margin]
        utilities[winner] = margin
        return Result.from_scores(
            scores, (0, 1), (scores,), higher_is_better=False, utilities=utilities
        )

    matches = [
        (("good", "bad"), low((0, 10), 10)),  # good wins by 10
        (("good", "bad"), low((3, 1), 2)),  # bad wins by 2
    ]
    rows = standings(["bad", "good"], matches)
    assert [r.score for r in rows] == [0.5, 0.5]
    # Mean scores 1.5 (good) and 5.5 (bad): sorting on them put "bad" first.
    assert [r.entrant for r in rows] == ["good", "bad"]
    assert [r.mean_utility for r in rows] == [4.0, -4.0]


class FaultAfter(Bot):
    """Plays the lowest legal card for five decisions, then raises."""

    name = "fault-after"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves = 0

    def act(self, view: View) -> str:
        self.moves += 1
        if self.moves > 5:
            raise RuntimeError("gives up in the second deal")
        return view.legal_actions[0]


def test_a_forfeit_keeps_the_fewest_points_order_among_the_others() -> None:
    game = LowGame()
    unequal = 0
    for seed in range(40):
        bots = make_bots(game, [RandomBot, FaultAfter, RandomBot], seed)
        result = play_match(game, bots, seed, keep_log=True)
        assert result.forfeit is not None and result.forfeit.seat == 1
        assert result.ranks[1] == 3 and result.utilities[1] == -1.0
        a, b = result.scores[0], result.scores[2]
        if a == b:
            assert result.ranks[0] == result.ranks[2] == 1
            assert result.utilities[0] == result.utilities[2] == 0.5
            continue
        unequal += 1
        low, high = (0, 2) if a < b else (2, 0)
        # Fewer penalty points, better rank: the game's order, not "more points".
        assert (result.ranks[low], result.ranks[high]) == (1, 2)
        assert (result.utilities[low], result.utilities[high]) == (1.0, 0.0)
        assert result.log is not None
        assert replay(game, 3, seed, result.log, forfeit=result.forfeit) == result
    assert unequal >= 10  # the order was tested, not only ties


# -- the search bot -----------------------------------------------------------------


class PointsSearch(SearchBot):
    """The search bot as it was: more deal points is better, utilities unused."""

    name = "points-search"

    def _rollout(
        self, state: Any, deal: int, rng: random.Random
    ) -> tuple[float, float]:
        for _ in range(self.options["max_rollout"]):
            if state.is_over() or state.deal != deal:
                break
            state.apply(rng.choice(state.legal_actions()))
        result = state.result()
        if deal >= len(result.deal_points):
            return 0.0, 0.0
        points = result.deal_points[deal]
        others = [
            p
            for s, p in enumerate(points)
            if result.teams[s] != result.teams[self.seat]
        ]
        return 0.0, points[self.seat] - max(others)


def head_to_head(bot: type[Bot], seeds: Sequence[int]) -> tuple[int, int, int]:
    """``bot``'s wins, ties and losses against random play in two-seat toy-low."""
    game = LowGame()
    tally = [0, 0, 0]
    for seed in seeds:
        for seat in (0, 1):
            classes: list[type[Bot]] = [RandomBot, RandomBot]
            classes[seat] = bot
            result: Result = play_match(game, make_bots(game, classes, seed), seed)
            mine, theirs = result.ranks[seat], result.ranks[1 - seat]
            tally[0 if mine < theirs else 1 if mine == theirs else 2] += 1
    return tally[0], tally[1], tally[2]


def test_the_search_bot_beats_random_play_where_fewest_points_win() -> None:
    seeds = range(150)
    wins, _, losses = head_to_head(SearchBot, seeds)
    assert wins > losses
    assert st.binomtest(wins, wins + losses, 0.5).pvalue < 0.01
    # The same test with the old margin (most points best) fails: that bot
    # takes the penalty tricks and loses to random play.
    old_wins, _, old_losses = head_to_head(PointsSearch, seeds)
    assert old_wins < old_losses
