"""``troef serve``'s replays (issue 34, item 4): a seat's view from that
seat's View and account only, the referee's view with every hand open, and
the HTML report's frames drawing the same table as live play."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from harness.match.narration import Narrator
from harness.match.referee import make_bots, play_match
from harness.plugins import Registry
from harness.report.replay import replay_frames as report_frames
from harness.serve.app import create_app
from harness.serve.record import record_match
from harness.tournament.executor_plugins import load_registry
from harness.tournament.store import Store

#: Klaverjassen to 100 points between random bots: a deal or two, every card
#: of a hand hidden from the other seats until it is played.
GAME, OPTIONS, SEED = "klaverjassen", {"target": 100}, 3


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_registry()


@pytest.fixture(scope="module")
def recorded(
    registry: Registry, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, str, str]:
    """A recorded match: the results folder, its database's name, the match."""
    folder = tmp_path_factory.mktemp("tables")
    game = registry.game(GAME, OPTIONS)
    bots = make_bots(game, [registry.bots["random"]] * 4, SEED)
    result = play_match(game, bots, SEED, keep_log=True)
    labels = ["North", "East", "South", "West"]
    path, match = record_match(folder, game, labels, ["random"] * 4, SEED, result)
    return folder, path.name, match


@pytest.fixture
def client(registry: Registry, recorded: tuple[Path, str, str]) -> Iterator[TestClient]:
    with TestClient(create_app(registry, results=recorded[0], pace=0)) as client:
        yield client


def _replay(client: TestClient, recorded: tuple[Path, str, str], seat: str) -> Any:
    _, database, match = recorded
    answer = client.get(
        "/api/replay", params={"database": database, "match": match, "seat": seat}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def _hidden(registry: Registry, recorded: tuple[Path, str, str]) -> list[Any]:
    """Per step, per seat, the cards in the places hidden from that seat
    (``State.hidden_from``), replayed from the stored log."""
    folder, database, match = recorded
    with Store.existing(folder / database) as store:
        stored = store.match(match)
    assert stored.result.log is not None
    game = registry.game(GAME, OPTIONS)
    state = game.new_match(4, SEED)

    def now() -> list[set[str]]:
        places = state.card_locations()
        return [{c for p in state.hidden_from(s) for c in places[p]} for s in range(4)]

    steps = [now()]
    for action in stored.result.log:
        state.apply(action)
        steps.append(now())
    return steps


def _named(frame: Any) -> set[str]:
    """Every word of a frame's data: each string, and each word of a line."""
    return set(re.findall(r"[0-9A-Za-z]+", json.dumps(frame)))


def test_a_seat_view_has_no_card_of_a_hand_hidden_from_that_seat(
    client: TestClient, registry: Registry, recorded: tuple[Path, str, str]
) -> None:
    hidden = _hidden(registry, recorded)
    for seat in range(4):
        frames = _replay(client, recorded, str(seat))["frames"]
        assert len(frames) == len(hidden)
        for k, frame in enumerate(frames):
            assert not _named(frame) & hidden[k][seat], (seat, k)
            assert set(frame["view"]["hand"]) <= _named(frame)
            assert "hands" not in frame and "places" not in frame
    # The check can fail: the referee's frames name every hidden card.
    referee = _replay(client, recorded, "referee")["frames"]
    for k, frame in enumerate(referee):
        assert set().union(*hidden[k]) <= _named(frame), k


def test_the_referee_view_draws_every_hand_open_with_the_referees_account(
    client: TestClient, registry: Registry, recorded: tuple[Path, str, str]
) -> None:
    data = _replay(client, recorded, "referee")
    assert data["seat"] is None
    frames = data["frames"]
    folder, database, match = recorded
    with Store.existing(folder / database) as store:
        stored = store.match(match)
    game = registry.game(GAME, OPTIONS)
    full = report_frames(game, stored)["frames"]
    narrator = Narrator(game, SEED, stored.job["seating"])
    told = [narrator.start()]
    told += [narrator.tell(a) for a in stored.result.log or ()]
    for frame, step, lines in zip(frames, full, told, strict=True):
        assert frame["hands"] == [step["p"][f"hand:{s}"] for s in range(4)]
        assert not any(p.startswith("hand:") for p in frame["places"])
        assert frame["places"]["trick"] == step["p"]["trick"]
        # The public View: what every seat's View holds alike, so no hand
        # while one holds a card; the table every seat sees.
        view = frame["view"]
        assert "seat" not in view
        assert all(v[k] == x for k, x in view.items() for v in step["v"])
        assert ("hand" in view) == (not any(frame["hands"]))
        assert {"trick", "trump", "dealer", "to_act", "scores"} <= set(view)
        assert frame["lines"] == lines  # the referee's account: troef replay's
        assert frame["deal"] == step["d"]
    # Stepped by trick as a seat's replay is: 8 tricks in each deal.
    seat = _replay(client, recorded, "0")["frames"]
    done = [f.get("trick_done", False) for f in frames]
    assert done == [f.get("trick_done", False) for f in seat]
    assert sum(done) == 8 * len(frames[-1]["view"]["deal_scores"])
    # The last trick shown is the one the seats see.
    assert [f["last_trick"] for f in frames] == [f["last_trick"] for f in seat]


def test_the_report_draws_each_seat_as_live_play_does(
    client: TestClient, registry: Registry, recorded: tuple[Path, str, str]
) -> None:
    """The report's frames hold, per seat, the View, its words and the last
    trick that troef serve's table draws for that seat (one drawing)."""
    folder, database, match = recorded
    with Store.existing(folder / database) as store:
        stored = store.match(match)
    full = report_frames(registry.game(GAME, OPTIONS), stored)["frames"]
    for seat in range(4):
        frames = _replay(client, recorded, str(seat))["frames"]
        for frame, step in zip(frames, full, strict=True):
            assert step["v"][seat] == frame["view"]
            assert step["w"][str(seat)] == frame["words"]
            assert step["k"][str(seat)] == frame["last_trick"]
            told = step.get("h", {}).get(str(seat), step["l"])
            assert told == frame["lines"]


def test_a_seat_not_at_the_table_names_the_seats_there(
    client: TestClient, recorded: tuple[Path, str, str]
) -> None:
    _, database, match = recorded
    query = {"database": database, "match": match}
    answer = client.get("/api/replay", params={**query, "seat": "4"})
    assert answer.status_code == 404
    assert answer.json()["error"] == (
        "replay: seat 4 is not at a table of 4; expected 0 to 3, or referee"
    )
    answer = client.get("/api/replay", params={**query, "seat": "umpire"})
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        "replay: seat 'umpire'; expected a number or referee"
    )
    # live=1 asks for the database 'troef serve DB' follows: here there is none.
    answer = client.get("/api/replay", params={"live": "1", "match": match})
    assert answer.status_code == 404
    assert answer.json()["error"] == (
        "replay: live=1 names the database of 'troef serve DB'; this server "
        "follows none"
    )


def test_a_replay_leaves_its_database_file_as_it_found_it(
    client: TestClient, recorded: tuple[Path, str, str]
) -> None:
    folder, database, _ = recorded
    before = sorted(p.name for p in folder.iterdir())
    path = folder / database
    content, mtime = path.read_bytes(), path.stat().st_mtime_ns
    _replay(client, recorded, "referee")
    assert sorted(p.name for p in folder.iterdir()) == before
    assert (path.read_bytes(), path.stat().st_mtime_ns) == (content, mtime)


def test_tarot_refuses_a_card_for_its_trumps_as_a_card_player_says() -> None:
    """Maison Tarot (seed 000 line 351): who cannot follow must trump, and
    trumps led must be followed with a trump; the View names no trump suit,
    its trumps are the suit T. The browser showed "10C may not be played"."""
    from harness.serve.table import refusal

    hand = ["10C", "3D", "4T", "11T", "EX"]
    void = {"trick": [[1, "KH"]], "hand": hand, "legal_actions": ["4T", "11T", "EX"]}
    assert refusal(void, "10C") == "you must trump (trumps \u2605)"
    led = {"trick": [[1, "7T"]], "hand": hand, "legal_actions": ["4T", "11T", "EX"]}
    assert refusal(led, "3D") == "you must play a trump (trumps were led)"
    follow = {"trick": [[1, "KD"]], "hand": hand, "legal_actions": ["3D", "EX"]}
    assert refusal(follow, "4T") == "you must follow suit (diamonds \u2666)"
