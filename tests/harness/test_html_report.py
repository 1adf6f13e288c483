"""The HTML report's data without a browser: replays, sections, ladder history."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli import main
from harness.elo import OnlineElo
from harness.html_report import _ladder_history, replay_frames
from harness.plugins import load_plugins
from harness.standings import pairwise_outcomes
from harness.store import Store, StoredMatch
from tests.reportdata import html_report


@pytest.fixture(scope="module")
def gin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return html_report(tmp_path_factory.mktemp("gin"), "gin-rummy")


def _matches(index: Path) -> list[StoredMatch]:
    with Store.existing(index.parent.parent / "results.sqlite") as store:
        return list(store.matches())


def test_a_replay_has_a_step_per_action_and_views_only_the_seat_knew(
    gin: Path,
) -> None:
    match = _matches(gin)[0]
    game = load_plugins().game(match.job["game"], match.job["options"])
    data = replay_frames(game, match)
    frames = data["frames"]
    assert match.result.log is not None
    assert len(frames) == len(match.result.log) + 1
    assert [f["a"] for f in frames[1:]] == list(match.result.log)
    assert frames[0]["l"][1].startswith("seats: ")
    assert frames[-1]["o"] is True
    for frame in frames:
        for seat, view in enumerate(frame["v"]):
            assert view["seat"] == seat
            assert sorted(view["hand"]) == sorted(frame["p"][f"hand:{seat}"])
            other = frame["p"][f"hand:{1 - seat}"]
            # Gin shows the opponent only the cards it took from the open pile.
            unknown = set(other) - set(view["opponent_known"])
            assert not unknown & set(view["hand"] + view["discard_pile"])
    # Before the first move a seat's View names none of the other hand's cards.
    for seat, view in enumerate(frames[0]["v"]):
        named = set(str(view).replace("'", " ").replace(",", " ").split())
        assert not named & set(frames[0]["p"][f"hand:{1 - seat}"])
    assert data["result"]["scores"] == list(match.result.scores)


def test_the_page_has_every_section_and_the_plotting_library(gin: Path) -> None:
    page = gin.read_text(encoding="utf-8")
    for section in (
        "standings",
        "tiers",
        "crosstable",
        "significance",
        "scores",
        "forfeits",
        "thinking",
        "config",
        "replays",
    ):
        assert f"<section id='{section}'>" in page, section
    assert '<script src="plotly.min.js">' in page
    assert "https://" not in page.split("<script>")[0]  # nothing fetched at view time
    assert (gin.parent / "plotly.min.js").stat().st_size > 1_000_000
    assert len(list((gin.parent / "replays").glob("match-*.js"))) == len(_matches(gin))


def test_no_replays_when_asked_for_none(gin: Path, tmp_path: Path) -> None:
    db = gin.parent.parent / "results.sqlite"
    out = tmp_path / "html"
    assert main(["report", str(db), "--html", str(out), "--replays", "0"]) == 0
    assert "No replays: replays were not asked for." in (out / "index.html").read_text()
    assert not (out / "replays").exists()


def test_ladder_history_replays_the_online_elo(gin: Path) -> None:
    matches = _matches(gin)
    snapshot = {
        "format": "ladder",
        "ladder": {"k": 24, "initial": 1500},
        "entrants": {"random": {}, "search": {}},
    }
    history = _ladder_history(snapshot, matches)
    elo = OnlineElo(k=24, initial=1500)
    for m in matches:
        for a, b, score in pairwise_outcomes(m.job["seating"], m.result):
            elo.update(a, b, score)
    assert {e: h[-1] for e, h in history.items()} == {
        "random": elo.rating("random"),
        "search": elo.rating("search"),
    }
    assert all(len(h) == len(matches) for h in history.values())


def test_every_registered_game_replays_step_by_step() -> None:
    """The viewer's data for a short random match of every game: narrated steps,
    JSON views of every seat, and the referee's cards."""
    import json

    from harness.referee import make_bot, play_match

    registry = load_plugins()
    for name in sorted(registry.games):
        game = registry.game(name, {}).with_max_actions(60)
        seats = min(game.seat_counts)
        bots = [
            make_bot(game, registry.bot_class("random", name), s, 11, {})
            for s in range(seats)
        ]
        result = play_match(game, bots, 11, keep_log=True)
        job = {"id": name, "seed": 11, "seating": [f"r{s}" for s in range(seats)]}
        data = replay_frames(game, StoredMatch(job, result))
        assert result.log is not None
        assert len(data["frames"]) == len(result.log) + 1, name
        assert all(f["l"] for f in data["frames"][1:]), name  # every step is told
        for frame in data["frames"]:
            assert [v["seat"] for v in frame["v"]] == list(range(seats))
            # The viewer draws a string as a card when it is in the deck.
            placed = {c for cards in frame["p"].values() for c in cards}
            assert placed == set(data["deck"]), name
        json.dumps(data)


def test_the_seat_advantage_is_shown_when_fitted(gin: Path, tmp_path: Path) -> None:
    db = gin.parent.parent / "results.sqlite"
    out = tmp_path / "html"
    args = ["report", str(db), "--html", str(out), "--seat-advantage", "--replays", "0"]
    assert main(args) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "<section id='seat-advantage'>" in page
    assert "The first seat is worth" in page
