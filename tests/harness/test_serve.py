"""``troef serve``: the table's WebSocket through Starlette's test client (the
real application, real matches, real SQLite files), the reasons a refused card
is given, and the command line. The browser drives it in
``tests/browser/test_serve_browser.py``."""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from harness.cli import main
from harness.contracts.errors import ConfigError
from harness.contracts.result import ForfeitReason
from harness.match.referee import replay
from harness.plugins import Registry
from harness.serve.app import create_app, games_data
from harness.serve.table import PERSON_BOT, refusal, refusals, view_data
from harness.tournament.executor_plugins import load_registry
from harness.tournament.store import Store


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_registry()


@pytest.fixture
def client(registry: Registry, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(registry, results=tmp_path / "tables", pace=0)
    with TestClient(app) as test_client:
        yield test_client


# -- the reasons (klaverjassen, seed 004 line 22 and RULES.md R5) ------------


def _view(trick: list[list[Any]], hand: list[str], legal: list[str]) -> dict[str, Any]:
    return {"trick": trick, "hand": hand, "legal_actions": legal, "trump": "C"}


def test_a_card_of_another_suit_while_holding_the_suit_led_must_follow() -> None:
    # "De andere spelers zijn verplicht de gevraagde bloem te volgen als ze dat
    # kunnen" (seed 004 line 22): hearts led, the hand holds hearts.
    view = _view([[3, "KH"]], ["QC", "7H", "AH", "JS"], ["7H", "AH"])
    assert refusal(view, "QC") == "you must follow suit (hearts ♥)"
    assert refusal(view, "JS") == "you must follow suit (hearts ♥)"


def test_void_in_the_suit_led_with_trumps_must_trump() -> None:
    # "... en te troeven wanneer ze dat niet kunnen" (seed 004 line 22; R5).
    view = _view([[1, "9D"], [2, "KD"]], ["QC", "7H", "JS"], ["QC"])
    assert refusal(view, "7H") == "you must trump (clubs ♣)"


def test_a_trump_too_low_when_one_can_overtrump_must_overtrump() -> None:
    # "verplicht om een hogere troef te spelen dan iedere reeds gespeelde troef
    # aan de slag, indien mogelijk (overtroeven)" (seed 004 line 22; R5).
    view = _view([[1, "9D"], [2, "9C"]], ["7C", "JC", "7H"], ["JC"])
    assert refusal(view, "7C") == "you must overtrump"
    # Trump led: following means a higher trump (R5).
    led = _view([[1, "AC"]], ["7C", "9C", "7H"], ["9C"])
    assert refusal(led, "7C") == "you must play a higher trump"


def test_a_bezique_card_open_on_the_table_is_playable_by_its_star_move() -> None:
    # Bezique (RULES.md R11, docs/games/bezique.md): "<card>*" plays the copy
    # of a declared card that lies open on the table; the hand lists it. In
    # the stock phase any card goes, so no card of this hand is refused.
    view = {
        "trick": [[1, "9D"]],
        "hand": ["8D", "KD", "KS", "QS"],
        "legal_actions": ["8D", "KD", "KS*", "QS"],
        "trump": "S",
    }
    assert refusals(view) == {}
    assert refusals({**view, "legal_actions": ["8D", "KD"]}) == {
        "KS": "you must follow suit (diamonds ♦)",
        "QS": "you must follow suit (diamonds ♦)",
    }


def test_other_refusals_say_what_the_person_may_do() -> None:
    assert refusal(_view([], ["QC"], []), "QC") == "it is not your turn"
    bidding = _view([], ["QC", "7H"], ["play", "pass"])
    assert refusal(bidding, "QC") == (
        "you cannot play a card now; choose one of: play, pass"
    )
    assert refusal(bidding, "AS") == "AS is not a move you can make now"
    # No trick on the table and no rule the View shows: a plain reason.
    assert refusal(_view([], ["QC", "7H"], ["7H"]), "QC") == "QC may not be played now"


# -- a whole match through the WebSocket --------------------------------------

_CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def _play_out(
    ws: Any, *, refuse: int = 1, seed: int | None = None
) -> tuple[list[dict[str, Any]], int]:
    """Answer every turn with its first legal move (with ``seed``: one drawn
    from that seed, going out at gin rummy when it may), first sending
    ``refuse`` cards that are not legal; every message and how many were
    refused."""
    draw = None if seed is None else random.Random(seed)
    messages: list[dict[str, Any]] = []
    refused = 0
    while True:
        message = ws.receive_json()
        messages.append(message)
        if message["type"] == "turn":
            if message["reasons"] and refused < refuse:
                card = sorted(message["reasons"])[0]
                ws.send_json({"type": "move", "action": card})
                answer = ws.receive_json()
                messages.append(answer)
                assert answer == {
                    "type": "refused",
                    "action": card,
                    "reason": message["reasons"][card],
                }
                refused += 1
            legal = message["view"]["legal_actions"]
            out = [a for a in legal if a.startswith(("gin", "knock:"))]
            move = legal[0] if draw is None else draw.choice(out or legal)
            ws.send_json({"type": "move", "action": move})
        if message["type"] in ("over", "error"):
            return messages, refused


def test_a_whole_match_is_played_refused_cards_asked_again_and_recorded(
    client: TestClient, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    with client.websocket_connect("/ws/table") as ws:
        ws.send_json(
            {
                "type": "new",
                "game": "klaverjassen",
                "seat": 1,
                "bots": ["random", "random", "random"],
                "options": {"target": 100},
                "seed": 5,
                "name": "Ann",
            }
        )
        messages, refused = _play_out(ws, refuse=2)
    assert refused == 2
    start, over = messages[0], messages[-1]
    assert start["type"] == "start" and over["type"] == "over", over
    assert start["labels"] == ["random#0", "Ann", "random#2", "random#3"]
    assert start["teams"] == [0, 1, 0, 1]
    refusals = [m["reason"] for m in messages if m["type"] == "refused"]
    assert all(r.startswith("you must ") for r in refusals), refusals

    # Recorded like any match: the store, troef replay and troef report read it.
    database = Path(over["database"])
    with Store.existing(database) as store:
        (match,) = list(store.matches())
    assert match.job["id"] == over["match"]
    assert match.job["seating"] == start["labels"]
    assert match.job["bots"][1] == [PERSON_BOT, {}]
    assert list(match.result.scores) == over["scores"]
    game = registry.game("klaverjassen", {"target": 100})
    assert match.result.log is not None
    assert replay(game, 4, 5, match.result.log) == match.result
    capsys.readouterr()
    assert main(["replay", str(database), "0", "--seat", "1"]) == 0
    told = capsys.readouterr().out
    assert "match over" in told and "Ann" in told
    assert main(["report", str(database)]) == 0
    assert "Ann" in capsys.readouterr().out


def test_the_browser_is_sent_the_seats_view_and_account_only(
    client: TestClient, registry: Registry
) -> None:
    with client.websocket_connect("/ws/table") as ws:
        ws.send_json(
            {"type": "new", "game": "klaverjassen", "seat": 0, "bots": ["random"] * 3}
        )
        messages, _ = _play_out(ws, refuse=0)
    game = registry.game("klaverjassen")
    state = game.new_match(4, 1)
    own = set(view_data(state.view(0))["hand"])
    fields = {f for f in game.view_type().__dataclass_fields__}
    for message in messages:
        if "view" in message:
            assert set(message["view"]) == fields
            assert message["view"]["seat"] == 0
    # Before anyone plays, no card but the person's own is named anywhere.
    first = json.dumps(messages[0])
    assert set(_CARD.findall(first)) <= own


def test_a_person_who_leaves_forfeits_and_the_match_is_recorded(
    client: TestClient, tmp_path: Path
) -> None:
    with client.websocket_connect("/ws/table") as ws:
        ws.send_json(
            {"type": "new", "game": "bezique", "seat": 0, "bots": ["random"], "seed": 3}
        )
        while ws.receive_json()["type"] != "turn":
            pass
    # The socket closed at the person's turn: the table thread ends the match.
    for _ in range(1000):
        found = list((tmp_path / "tables").glob("*.sqlite"))
        if found and not any(t.name == "troef-table" for t in threading.enumerate()):
            break
        threading.Event().wait(0.05)
    (database,) = found
    with Store.existing(database) as store:
        (match,) = list(store.matches())
    forfeit = match.result.forfeit
    assert forfeit is not None and forfeit.seat == 0
    assert forfeit.reason is ForfeitReason.CRASH
    assert "left the table" in forfeit.detail


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"game": "nope", "bots": ["random"]}, "no game named 'nope'"),
        ({"game": "bezique", "seat": 2, "bots": ["random"]}, "seat 2 is not at a"),
        ({"game": "bezique", "bots": "random"}, "'bots' is 'random'"),
        ({"game": "bezique", "bots": ["random"], "options": {"target": 0}}, "target"),
        ({"game": "bezique", "bots": ["nobot"]}, "no bot named 'nobot'"),
    ],
)
def test_bad_settings_are_answered_with_what_was_wrong(
    client: TestClient, settings: dict[str, Any], message: str
) -> None:
    with client.websocket_connect("/ws/table") as ws:
        ws.send_json({"type": "new", **settings})
        answer = ws.receive_json()
        assert answer["type"] == "error"
        assert message in answer["message"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_the_lobby_lists_every_game_with_its_bots_and_the_page_is_local(
    client: TestClient, registry: Registry
) -> None:
    games = client.get("/api/games").json()
    assert games == games_data(registry)
    assert {g["name"] for g in games} == set(registry.games)
    klaverjassen = next(g for g in games if g["name"] == "klaverjassen")
    assert klaverjassen["seats"] == [4] and "random" in klaverjassen["bots"]
    page = client.get("/").text
    # Nothing from the network: every script and style is served here.
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    for asset in re.findall(r"(?:src|href)=\"(/static/[^\"]+)\"", page):
        assert client.get(asset).status_code == 200


def test_troef_serve_refuses_a_negative_pace(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--pace", "-1"]) != 0
    assert "--pace -1.0: expected 0 or more seconds" in capsys.readouterr().err


def _every_game() -> list[tuple[str, int]]:
    registry = load_registry()
    return [
        (name, min(cls.seat_counts)) for name, cls in sorted(registry.games.items())
    ]


@pytest.mark.parametrize(("game", "seats"), _every_game())
def test_every_game_is_played_to_its_end_at_the_table(
    client: TestClient, registry: Registry, game: str, seats: int
) -> None:
    # The last seat is the person's: the table, the reasons and the words
    # work for every game's View, not only the trick games'.
    options = dict(registry.game_class(game).check_options)
    with client.websocket_connect("/ws/table") as ws:
        ws.send_json(
            {
                "type": "new",
                "game": game,
                "seat": seats - 1,
                "bots": ["random"] * (seats - 1),
                "options": options,
                "seed": 2,
            }
        )
        # Seeded choices: always the first move can loop (gin rummy's draws).
        messages, _ = _play_out(ws, refuse=1, seed=9)
    over = messages[-1]
    assert over["type"] == "over", over
    assert any(m["type"] == "turn" for m in messages)
    assert all(m["words"] for m in messages if m["type"] == "turn")
    with Store.existing(Path(over["database"])) as store:
        (match,) = list(store.matches())
    assert match.result.forfeit is None
    assert list(match.result.scores) == over["scores"]


def test_a_recorded_match_is_replayed_as_the_table_live_play_drew(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws/table") as ws:
        ws.send_json(
            {
                "type": "new",
                "game": "klaverjassen",
                "seat": 2,
                "bots": ["random"] * 3,
                "options": {"target": 100},
                "seed": 4,
            }
        )
        messages, _ = _play_out(ws, refuse=0)
    over = messages[-1]
    live = [m for m in messages if m["type"] in ("start", "update")]
    database = Path(over["database"]).name
    (listed,) = client.get("/api/recorded").json()
    assert listed["database"] == database
    assert [m["match"] for m in listed["matches"]] == [over["match"]]

    query = {"database": database, "match": over["match"], "seat": "2"}
    replayed = client.get("/api/replay", params=query).json()
    frames = replayed["frames"]
    # The same drawing as live play, move by move: the View, the words, the
    # last trick and what the seat heard.
    assert len(frames) == len(live)
    for frame, message in zip(frames, live, strict=True):
        for key in ("view", "words", "last_trick", "lines"):
            assert frame[key] == message[key], key
    assert replayed["scores"] == over["scores"]
    # Stepping by trick stops at every finished trick: 8 in each deal.
    deals = len(frames[-1]["view"]["deal_scores"])
    assert sum(f.get("trick_done", False) for f in frames) == 8 * deals
    # Another seat's replay draws that seat's hand.
    other = client.get("/api/replay", params={**query, "seat": "0"}).json()
    assert {f["view"]["seat"] for f in other["frames"]} == {0}
    assert other["frames"][0]["view"]["hand"] != frames[0]["view"]["hand"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"database": "../x.sqlite"}, "replay: no database '../x.sqlite'"),
        ({"database": "none.sqlite"}, "replay: no database 'none.sqlite'"),
        ({"database": "x", "seat": "one"}, "replay: seat 'one'; expected a number"),
    ],
)
def test_a_replay_of_what_is_not_there_says_what_is_missing(
    client: TestClient, query: dict[str, str], message: str
) -> None:
    answer = client.get("/api/replay", params=query)
    assert answer.status_code in (400, 404)
    assert message in answer.json()["error"]


# -- several people at one table (a real server, real sockets) ----------------


class _Socket:
    """A browser's socket to a served table: JSON in and out."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self._connection = connect(url.replace("http://", "ws://") + "/ws/table")
        self._ws = self._connection.__enter__()

    def send_json(self, data: dict[str, Any]) -> None:
        self._ws.send(json.dumps(data))

    def receive_json(self) -> Any:
        return json.loads(self._ws.recv(timeout=120))

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


@pytest.fixture
def served(registry: Registry, tmp_path: Path) -> Iterator[str]:
    from harness.serve.app import running

    with running(create_app(registry, results=tmp_path / "tables", pace=0)) as url:
        yield url


def _two_seat_table(url: str, **settings: Any) -> tuple[_Socket, str]:
    """Klaverjassen set up at seat 0 with a person invited to seat 1: the
    creator's socket and the table's id, from its invitation."""
    host = _Socket(url)
    host.send_json(
        {
            "type": "new",
            "game": "klaverjassen",
            "seat": 0,
            "bots": ["person", "random", "random"],
            "options": {"target": 100},
            "seed": 6,
            "name": "Ann",
            **settings,
        }
    )
    invited = host.receive_json()
    assert invited["type"] == "invited"
    assert invited["links"] == {"1": f"/?table={invited['table']}&seat=1"}
    return host, invited["table"]


def _in_thread(ws: _Socket, found: list[Any], **kwargs: Any) -> threading.Thread:
    thread = threading.Thread(target=lambda: found.append(_play_out(ws, **kwargs)))
    thread.start()
    return thread


def test_two_people_play_one_table_each_from_their_own_seat(
    served: str, tmp_path: Path
) -> None:
    host, table = _two_seat_table(served)
    guest = _Socket(served)
    guest.send_json({"type": "join", "table": table, "seat": 1})
    hosts: list[Any] = []
    thread = _in_thread(host, hosts, refuse=1)
    guests, _ = _play_out(guest, refuse=1)
    thread.join()
    host.close()
    guest.close()
    ((host_messages, _),) = hosts
    for messages, seat in ((host_messages, 0), (guests, 1)):
        assert messages[-1]["type"] == "over"
        views = [m["view"] for m in messages if "view" in m]
        assert views and {v["seat"] for v in views} == {seat}
        assert any(m["type"] == "turn" for m in messages)
    assert host_messages[0]["labels"] == ["Ann", "guest", "random#2", "random#3"]
    (database,) = (tmp_path / "tables").glob("*.sqlite")
    with Store.existing(database) as store:
        (match,) = list(store.matches())
    assert match.result.forfeit is None
    assert [b for b, _ in match.job["bots"]][:2] == [PERSON_BOT, PERSON_BOT]


def test_a_person_who_leaves_is_replaced_by_a_bot_after_the_grace_time(
    served: str, tmp_path: Path
) -> None:
    host, table = _two_seat_table(served, on_leave="bot", grace=0)
    guest = _Socket(served)
    guest.send_json({"type": "join", "table": table, "seat": 1})
    assert guest.receive_json()["type"] == "start"
    guest.close()  # gone before the first card: the stand-in plays seat 1
    messages, _ = _play_out(host, refuse=0)
    host.close()
    assert messages[-1]["type"] == "over"
    (database,) = (tmp_path / "tables").glob("*.sqlite")
    with Store.existing(database) as store:
        (match,) = list(store.matches())
    assert match.result.forfeit is None


def test_a_match_that_waits_for_a_person_goes_on_when_they_come_back(
    served: str,
) -> None:
    host, table = _two_seat_table(served, on_leave="wait")
    guest = _Socket(served)
    guest.send_json({"type": "join", "table": table, "seat": 1})
    hosts: list[Any] = []
    thread = _in_thread(host, hosts, refuse=0)
    while (message := guest.receive_json())["type"] != "turn":
        pass
    guest.close()  # gone at their turn: the table waits
    back = _Socket(served)
    back.send_json({"type": "join", "table": table, "seat": 1})
    opening = back.receive_json()
    assert opening["type"] == "start" and opening["seat"] == 1
    assert opening["lines"][0].startswith("Klaverjassen")
    again = back.receive_json()
    assert again["type"] == "turn" and again["view"] == message["view"]
    # The socket that answers the turn sent again plays the match out.
    back.send_json({"type": "move", "action": again["view"]["legal_actions"][0]})
    messages, _ = _play_out(back, refuse=0)
    thread.join()
    host.close()
    back.close()
    assert messages[-1]["type"] == "over"
    assert hosts[0][0][-1]["type"] == "over"


def test_joining_what_is_not_there_or_taken_says_so(served: str) -> None:
    host, table = _two_seat_table(served)
    for join, wanted in [
        ({"table": "nope", "seat": 1}, "no table 'nope' here"),
        ({"table": table, "seat": 2}, "seat 2 is not a person's"),
        ({"table": table, "seat": 0}, "seat 0 is taken"),
    ]:
        ws = _Socket(served)
        ws.send_json({"type": "join", **join})
        answer = ws.receive_json()
        ws.close()
        assert answer["type"] == "error" and wanted in answer["message"], answer
    host.close()  # the host leaves before the guest came: the table closes


def test_the_bots_at_the_table_play_as_they_would_in_their_own_seat(
    client: TestClient, registry: Registry
) -> None:
    # The person at seat 1 plays the first legal move; the same match played
    # by the referee with the random bots made for seats 0, 2 and 3 (as troef
    # play makes them) and a bot that plays the first legal move at seat 1
    # must be the recorded one, move for move.
    from harness.contracts.bot import Bot
    from harness.contracts.view import View
    from harness.match.referee import make_bot, play_match

    class FirstLegal(Bot):
        name = "first-legal"

        def act(self, view: View) -> str:
            return view.legal_actions[0]

    with client.websocket_connect("/ws/table") as ws:
        ws.send_json(
            {
                "type": "new",
                "game": "klaverjassen",
                "seat": 1,
                "bots": ["random"] * 3,
                "options": {"target": 100},
                "seed": 8,
            }
        )
        messages, _ = _play_out(ws, refuse=0)
    with Store.existing(Path(messages[-1]["database"])) as store:
        (match,) = list(store.matches())
    game = registry.game("klaverjassen", {"target": 100})
    random_bot = registry.bot_class("random", "klaverjassen")
    bots: list[Bot] = [make_bot(game, random_bot, s, 8, {}) for s in range(4)]
    bots[1] = FirstLegal(game, 1, 8)
    assert play_match(game, bots, 8, keep_log=True).log == match.result.log


def test_troef_serve_serves_the_page_until_interrupted(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import urllib.request

    command = [sys.executable, "-m", "harness", "serve", "--port", "0"]
    command += ["--results", str(tmp_path / "tables")]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as server:
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            assert found, line
            with urllib.request.urlopen(found.group(0), timeout=60) as page:
                assert b"/static/table.js" in page.read()
            # Ctrl-C: uvicorn shuts down, then troef exits as every command
            # does when interrupted (status 130, "troef: interrupted").
            server.send_signal(signal.SIGINT)
            assert server.wait(timeout=60) == 130
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()


def test_a_table_its_host_leaves_before_the_match_began_is_closed(
    registry: Registry, tmp_path: Path
) -> None:
    from harness.serve.table import Table, TableSettings

    settings = TableSettings("klaverjassen", 0, ("person", "random", "random"))
    table = Table(registry, settings, results=tmp_path, pace=0)
    table.attach(0, lambda message: None)
    table.detach(0)  # gone while the guest at seat 1 was still awaited
    assert table.run() is None
    with pytest.raises(ConfigError, match="table: the table was closed"):
        table.attach(1, lambda message: None)
    assert not list(tmp_path.glob("*.sqlite"))
