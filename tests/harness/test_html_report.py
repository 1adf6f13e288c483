"""The HTML report's data without a browser: replays, sections, ladder history."""

from __future__ import annotations

import html
import json
import re
import shutil
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from harness.cli import main
from harness.plugins import load_plugins
from harness.report.html import shown_config
from harness.report.plots import _ladder_history
from harness.report.replay import compact_replay, replay_frames
from harness.stats.elo import OnlineElo
from harness.stats.standings import pairwise_outcomes
from harness.tournament.store import Store, StoredMatch
from tests.reportdata import html_report

TOY_PLUGIN = Path(__file__).parents[1] / "plugins" / "toy_game.py"


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


def test_a_replay_keeps_each_seats_account_where_it_differs(gin: Path) -> None:
    """Issue 27: a step's ``l`` is the referee's account; ``h`` holds, by seat,
    the account of a seat that hears it otherwise: a gin rummy stock draw
    (000:508) is told to the other seat without its card."""
    match = _matches(gin)[0]
    game = load_plugins().game(match.job["game"], match.job["options"])
    frames = replay_frames(game, match)["frames"]
    draws = [f for f in frames if f["a"] == "draw:stock"]
    assert draws
    for frame in draws:
        drawer, other = frame["s"], 1 - frame["s"]
        name = match.job["seating"][drawer]
        assert any(
            re.match(rf"{name}\S* draws \w\w from the stock", x) for x in frame["l"]
        )
        assert set(frame["h"]) == {str(other)}  # the drawer hears the referee's
        told = frame["h"][str(other)]
        assert any(re.match(rf"{name}\S* draws from the stock", x) for x in told)
        assert len(told) == len(frame["l"])
    # A step every seat hears alike keeps one account.
    assert any("h" not in f for f in frames[1:])
    # The compact form keeps the accounts as they are.
    compact = compact_replay({"frames": frames})["frames"]
    assert [f.get("h") for f in compact] == [f.get("h") for f in frames]


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
    # Plotly (4.8 MB) is parsed after the page is, so the page paints first;
    # the plots' scripts wait for it (issue 34, item 5: bench/bench_serve.py).
    assert '<script defer src="plotly.min.js">' in page
    assert page.count('<script type="text/plain" class="troef-plot">') >= 4
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

    from harness.match.referee import make_bot, play_match

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


class _Tables(HTMLParser):
    """The header and body cells of every table of a page, by table id."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, dict[str, list[list[str]]]] = {}
        self._table: dict[str, list[list[str]]] | None = None
        self._part = "body"
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._table = self.tables.setdefault(
                dict(attrs).get("id") or "", {"head": [], "body": []}
            )
        elif self._table is not None and tag in ("thead", "tbody"):
            self._part = "head" if tag == "thead" else "body"
        elif self._table is not None and tag == "tr":
            self._table[self._part].append([])
        elif self._table is not None and tag in ("th", "td"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._table = None
        elif tag in ("th", "td") and self._table is not None and self._cell is not None:
            self._table[self._part][-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _tables(page: str) -> dict[str, dict[str, list[list[str]]]]:
    parser = _Tables()
    parser.feed(page)
    return parser.tables


def _numbers(text: str) -> str:
    """``text`` with each number written one way (75.0 and 75 alike)."""
    return re.sub(r"\d+(\.\d+)?(e[-+]\d+)?", lambda m: f"{float(m.group()):g}", text)


def test_the_tables_read_as_the_text_report_reads(
    gin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Standings and pairs under the text report's headings, with its numbers;
    the pairs' other tests behind a toggle, not as raw snake_case columns."""
    db = gin.parent.parent / "results.sqlite"
    tables = _tables(gin.read_text(encoding="utf-8"))
    capsys.readouterr()
    assert main(["report", str(db)]) == 0
    text = capsys.readouterr().out.splitlines()

    standings = tables["standings-table"]
    assert standings["head"] == [
        [
            *("#", "tier", "entrant", "elo", "95% interval", "games", "score %"),
            *("LOS next %", "notes"),
        ]
    ]
    pairs = tables["pairs-table"]
    assert pairs["head"] == [
        ["pair", "score %", "elo diff", "LOS %", "p", "p Holm", "sig."]
    ]
    assert tables["pair-tests-table"]["head"] == [
        [
            *("pair", "W-D-L", "samples", "test", "p sign", "p Wilcoxon"),
            *("p t-test", "mean difference", "p floor"),
        ]
    ]
    # Every row's cells stand in the text report's line for that entrant or pair,
    # in the same order and rounding (a score of 0.0778 is 7.8 in both;
    # tabulate prints 75.0 as 75, so numbers are compared as numbers).
    crosstable = next(i for i, t in enumerate(text) if t.startswith("Crosstable"))
    tests = next(i for i, t in enumerate(text) if t.startswith("Pairwise tests"))
    for table, key, lines in (
        (standings, 2, text[:crosstable]),
        (pairs, 0, text[tests:]),
    ):
        assert table["body"]
        for row in table["body"]:
            line = _numbers(next(t for t in lines if f" {row[key]} " in f" {t} "))
            at = 0
            for cell in (_numbers(c) for c in row if c):
                at = line.index(cell, at) + len(cell)
    page = gin.read_text(encoding="utf-8")
    for raw in ("los_next", "p_sign", "p_wilcoxon", "p_holm", "p_floor"):
        assert f">{raw}<" not in page, raw
    assert "<details id='pair-tests'>" in page


def _config_shown(page: str) -> dict[str, Any]:
    found = re.search(r"<pre id='config-snapshot'>(.*?)</pre>", page, re.DOTALL)
    assert found is not None
    return dict(json.loads(html.unescape(found.group(1))))


#: A stdlib-only protocol bot: always the first legal action.
FIRST_BOT = """\
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        first = msg["view"]["legal_actions"][0]
        print(json.dumps({"type": "action", "action": first}), flush=True)
    elif msg["type"] == "quit":
        break
"""


def test_the_configuration_shows_paths_relative_and_the_master_seed() -> None:
    """No absolute local path reaches a shared report; a command bot shows its
    command, not "bot": ""; a config without seed shows the recorded one."""
    # A folder a bot run as nobody (under a root harness) can search.
    folder = Path(tempfile.mkdtemp(prefix="troef-html-"))
    try:
        folder.chmod(0o755)
        (folder / "first_bot.py").write_text(FIRST_BOT, encoding="utf-8")
        config = folder / "cmd.toml"
        config.write_text(
            f'game = "toy"\nplugins = ["{TOY_PLUGIN.as_posix()}"]\nmatches = 1\n'
            'keep_logs = true\nexecutor = "inline"\ndatabase = "cmd.sqlite"\n'
            '[entrants.r]\nbot = "random"\n[entrants.first]\n'
            'command = ["/usr/bin/python3", "-I", "first_bot.py"]\n',
            encoding="utf-8",
        )
        config.chmod(0o600)
        assert main(["run", str(config), "--quiet"]) == 0
        out = folder / "report.html"
        assert main(["report", str(folder / "cmd.sqlite"), "--html", str(out)]) == 0
        page = out.read_text(encoding="utf-8")
        with Store.existing(folder / "cmd.sqlite") as store:
            master_seed = store.meta("master_seed")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    shown = _config_shown(page)
    assert master_seed is not None and shown["seed"] == int(master_seed)
    assert shown["entrants"]["first"] == {
        "command": ["python3", "-I", "first_bot.py"],
        "options": {},
    }
    assert shown["entrants"]["r"]["bot"] == "random"
    assert shown["plugins"] == ["toy_game.py"]
    assert str(folder) not in page and str(TOY_PLUGIN.parent) not in page


def test_shown_paths_keep_the_folders_under_the_configs(tmp_path: Path) -> None:
    snapshot = {
        "seed": 7,
        "plugins": [str(tmp_path / "bots" / "mine.py"), "some.module"],
        "entrants": {
            "a": {"bot": "", "command": ["node", str(tmp_path / "js" / "a.js")]}
        },
    }
    shown = shown_config(snapshot, tmp_path, master_seed=None)
    assert shown == {
        "seed": 7,
        "plugins": ["bots/mine.py", "some.module"],
        "entrants": {"a": {"command": ["node", "js/a.js"]}},
    }


def _expand(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The viewer's troefExpand, in Python: full frames from a compact replay."""
    frames: list[dict[str, Any]] = []
    views: list[dict[str, Any]] = []
    places: dict[str, Any] = {}

    def apply(before: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
        after = {**before, **change}
        for key in change.get("~", []):
            del after[key]
        for key, tail in change.get("+", {}).items():
            after[key] = before[key] + tail
        after.pop("~", None)
        after.pop("+", None)
        return after

    public: dict[str, Any] = {}
    words: dict[str, Any] = {}
    lasts: dict[str, Any] = {}
    for f in data["frames"]:
        views = [apply(views[s] if views else {}, c) for s, c in enumerate(f["v"])]
        places = apply(places, f["p"])
        public = apply(public, f["r"])
        told = {s: [data["lines"][n] for n in ns] for s, ns in f["w"].items()}
        words, lasts = {**words, **told}, {**lasts, **f["k"]}
        frames.append(
            {**f, "v": views, "p": places, "r": public, "w": words, "k": lasts}
        )
    return frames


def test_single_file_and_a_small_folder(gin: Path, tmp_path: Path) -> None:
    """--html FILE.html is one page with Plotly and every replay inline; the
    folder holds Plotly once and replays as changes from step to step."""
    db = gin.parent.parent / "results.sqlite"
    out = tmp_path / "shared" / "report.html"
    assert main(["report", str(db), "--html", str(out)]) == 0
    assert [p.name for p in out.parent.iterdir()] == ["report.html"]
    page = out.read_text(encoding="utf-8")
    import plotly.offline

    library = plotly.offline.get_plotlyjs()
    assert page.count(library) == 1
    ours = page.replace(library, "")
    assert "<script src=" not in ours and "https://" not in ours
    assert page.count('window.TROEF_REPLAYS["match-') == len(_matches(gin))
    folder = gin.parent
    assert [p.name for p in folder.glob("*.js")] == ["plotly.min.js"]
    # Each replay file is the compact form of the full frames, losing nothing.
    registry = load_plugins()
    for k, match in enumerate(_matches(gin)):
        game = registry.game(match.job["game"], match.job["options"])
        full = replay_frames(game, match)
        text = (folder / "replays" / f"match-{k:04d}.js").read_text(encoding="utf-8")
        compact = json.loads(text.split("=", 1)[1].rstrip().rstrip(";"))
        assert compact == json.loads(json.dumps(compact_replay(full)))
        assert _expand(compact) == json.loads(json.dumps(full["frames"]))
        assert len(text) < len(json.dumps(full, separators=(",", ":")))
