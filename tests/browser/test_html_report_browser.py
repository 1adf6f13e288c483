"""The HTML report in a real headless browser: Playwright driving Chromium
(the page set up by ``tests/browser/conftest.py``: no network but files)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Pages, need_browser
from tests.reportdata import html_report, single_file_report

# Marked slow too: a browser start and a tournament take several seconds.
pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _page(
    pages: Pages, index: Path, *, width: int = 1200, offline: bool = False
) -> Any:
    """A page showing ``index``, its plots drawn; only files may be fetched
    (``offline``: the context has no network at all)."""
    page = pages.open(
        index.as_uri(), allow="file:", width=width, height=900, offline=offline
    )
    page.wait_for_selector("#plot-standings .main-svg")
    return page


@pytest.fixture(scope="module", params=["klaverjassen", "gin-rummy"])
def report_index(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    need_browser()
    return html_report(tmp_path_factory.mktemp(request.param), request.param)


#: Each plot with text its drawing must carry: its title.
PLOTS = {
    "plot-standings": "Ratings with 95% intervals",
    "plot-crosstable": "Crosstable",
    "plot-significance": "Pairwise significance",
    "plot-scores": "Match scores per entrant",
}


def test_plots_render_without_console_errors(pages: Pages, report_index: Path) -> None:
    page = _page(pages, report_index)
    errors = pages.errors
    blank = page.evaluate(
        """() => { const d = document.createElement('div');
        d.id = 'blank'; d.style.height = '300px'; d.style.width = '600px';
        document.body.prepend(d); return true; }"""
    )
    assert blank
    blank_png = page.locator("#blank").screenshot()
    for plot, title in PLOTS.items():
        box = page.locator(f"#{plot}")
        box.scroll_into_view_if_needed()
        page.wait_for_selector(f"#{plot} .main-svg")
        assert title in (box.locator(".gtitle").text_content() or "")
        size = box.bounding_box()
        assert size is not None and size["height"] > 150 and size["width"] > 300
        # A drawn plot compresses far worse than an empty box of similar size.
        png = box.screenshot()
        assert len(png) > 4 * len(blank_png), plot
    # The entrants are the standings plot's axis labels.
    ticks = page.locator("#plot-standings .ytick text").all_text_contents()
    assert "random" in ticks and "search" in ticks
    assert page.locator("#standings-table tbody tr").count() >= 2
    assert "plot-thinking" in page.content()
    assert errors == []


def _cards(page: Any, selector: str) -> list[str]:
    return [
        str(c)
        for c in page.eval_on_selector_all(
            f"{selector} [data-card]", "cs => cs.map(c => c.dataset.card)"
        )
    ]


def test_replay_steps_forward_and_back(pages: Pages, report_index: Path) -> None:
    page = _page(pages, report_index)
    errors = pages.errors
    page.locator("#replays").scroll_into_view_if_needed()
    position = page.locator("#replay-position")
    page.wait_for_function("document.getElementById('replay-position').textContent")
    assert (position.text_content() or "").startswith("step 0 / ")
    page.click("#next-step")
    page.click("#next-step")
    assert (position.text_content() or "").startswith("step 2 / ")
    page.click("#prev-step")
    assert (position.text_content() or "").startswith("step 1 / ")
    page.click("#next-deal")
    assert ", deal 1" in (position.text_content() or "")
    assert page.locator("#replay-scores tr").count() == 2  # header + deal 0
    page.click("#prev-deal")
    assert ", deal 0" in (position.text_content() or "")
    page.keyboard.press("ArrowRight")
    assert not (position.text_content() or "").startswith("step 0 ")
    lines = page.locator("#replay-log div").all_text_contents()
    assert lines and "seats:" in lines[1]
    # Cards are drawn with their suits in colour.
    page.select_option("#replay-seat", "0")
    assert page.locator("#replay-view .card.red").count() > 0
    # Another match loads from its own file.
    options = page.locator("#replay-match option").all_text_contents()
    if len(options) > 1:
        page.select_option("#replay-match", index=1)
        page.wait_for_function(
            "document.getElementById('replay-position').textContent"
            ".startsWith('step 0 ')"
        )
    assert errors == []


def test_a_seat_sees_its_own_hand_and_no_other(
    pages: Pages, report_index: Path
) -> None:
    page = _page(pages, report_index)
    errors = pages.errors
    page.click("#next-step")
    page.select_option("#replay-seat", "referee")
    seats = page.locator("#replay-seat option").count() - 1
    hands = {s: _cards(page, f'[data-place="hand:{s}"]') for s in range(seats)}
    assert all(hands.values())
    for seat in range(seats):
        page.select_option("#replay-seat", str(seat))
        heading = page.locator("#replay-view h4").text_content() or ""
        assert heading.startswith(f"Seat {seat} ")
        seen = set(_cards(page, "#replay-view"))
        assert set(hands[seat]) <= seen
        for other, cards in hands.items():
            if other != seat:
                assert not seen & set(cards), (seat, other)
        assert _cards(page, '[data-field="hand"]') != []
    _the_table_in_each_view(page, seats)
    assert errors == []


def _the_table_in_each_view(page: Any, seats: int) -> None:
    """Issue 34, item 4: the step is drawn as troef serve's table, every hand
    face up in the referee's view; in a seat's view that seat's hand and
    words, and no card of another hand anywhere on the table."""
    # A step with a trick open where the game has tricks (else step 5).
    step, frame = page.evaluate(
        """() => { const fs = window.TROEF_REPLAYS['match-0000.js'].frames;
        let k = fs.findIndex((f) => (f.r.trick || []).length > 0);
        k = k < 0 ? 5 : k; return [k, fs[k]]; }"""
    )
    page.locator("#replay-slider").fill(str(step))
    page.wait_for_function(
        f"document.getElementById('replay-position').textContent"
        f".startsWith('step {step} ')"
    )
    page.select_option("#replay-seat", "referee")
    assert page.locator("#replay-table .seat").count() == seats
    for s in range(seats):
        shown = _cards(page, f'#replay-table .open-hand[data-hand="{s}"]')
        assert sorted(shown) == sorted(frame["p"][f"hand:{s}"])
    trick = [card for _, card in frame["r"].get("trick", [])]
    assert _cards(page, "#replay-table .trick") == trick or not trick
    assert page.locator("#replay-table .to-act").count() == (
        frame["r"].get("to_act") is not None
    )
    for s in range(seats):
        page.select_option("#replay-seat", str(s))
        assert page.locator("#replay-table .open-hand").count() == 0
        hand = _cards(page, "#replay-table .hand")
        assert sorted(hand) == sorted(frame["v"][s]["hand"])
        words = page.locator("#replay-table .words li").all_text_contents()
        assert words == frame["w"][str(s)] and words
        drawn = set(_cards(page, "#replay-table"))
        for other in range(seats):
            if other != s:
                assert not drawn & set(frame["p"][f"hand:{other}"]), (s, other)
        assert page.locator(".seat", has_text="(this view)").count() == 1


def test_a_seat_hears_its_own_account_of_the_match(
    pages: Pages, report_index: Path
) -> None:
    """Issue 27: a seat's view shows that seat's narration, the referee's view
    every line: in gin rummy the other seat's stock draws without their cards
    (000:508), and no seat's view names the last action (a skart card)."""
    page = _page(pages, report_index)
    errors = pages.errors
    page.locator("#replays").scroll_into_view_if_needed()
    page.wait_for_function("document.getElementById('replay-position').textContent")
    page.click("#next-deal")  # deal 1 begins: every line of deal 0 is in the log
    page.select_option("#replay-seat", "referee")
    referee = page.locator("#replay-log div").all_text_contents()
    assert ", last action " in (page.locator("#replay-position").text_content() or "")
    labels = page.locator("#replay-seat option").all_text_contents()[1:]
    names = [re.sub(r"^seat \d+ \((.*)\)$", r"\1", label) for label in labels]
    draw = re.compile(r"^(.+) draws ([2-9TJQKA][CDHS]) from the stock")
    drawers = {m[1] for line in referee if (m := draw.match(line))}
    gin = "gin-rummy" in str(report_index)
    assert not gin or drawers == set(names)
    for seat, name in enumerate(names):
        page.select_option("#replay-seat", str(seat))
        told = page.locator("#replay-log div").all_text_contents()
        position = page.locator("#replay-position").text_content() or ""
        assert ", last action " not in position
        if not gin:
            assert told == referee  # klaverjassen: every line is public
            continue
        # The seat's own draws keep their cards; the other's lose them.
        named = {m[1] for line in told if (m := draw.match(line))}
        assert named == {name}
        other = next(n for n in names if n != name)
        assert f"{other} draws from the stock" in told
        assert len(told) == len(referee)
    assert errors == []


#: The pairs table's headings: the text report's, the columns read at a glance.
PAIR_HEADINGS = ["pair", "score %", "elo diff", "LOS %", "p", "p Holm", "sig."]

_FITS = """() => [document.documentElement.scrollWidth,
    document.documentElement.clientWidth]"""


def test_the_report_fits_a_1280_px_window(pages: Pages, report_index: Path) -> None:
    """No horizontal scrollbar, with the pair tests opened and a seat's view
    shown; the pairs headings are the text report's and no cell wraps."""
    page = _page(pages, report_index, width=1280)
    errors = pages.errors
    scroll, client = page.evaluate(_FITS)
    assert scroll <= client
    headings = page.locator("#pairs-table th").all_text_contents()
    assert headings == PAIR_HEADINGS
    standings = page.locator("#standings-table th").all_text_contents()
    assert "LOS next %" in standings and "score %" in standings
    # The pairs table fits its box: no scrolling needed to read p Holm.
    box = page.locator("#pairs-table").evaluate(
        "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]"
    )
    assert box[0] <= box[1]
    wraps = page.eval_on_selector_all(
        "#pairs-table td, #pairs-table th, #standings-table td:not(.w)",
        "cs => cs.filter(c => getComputedStyle(c).whiteSpace !== 'nowrap').length",
    )
    assert wraps == 0
    page.click("#pair-tests summary")
    assert page.locator("#pair-tests-table").is_visible()
    assert "p Wilcoxon" in page.locator("#pair-tests-table th").all_text_contents()
    for seat in ["referee", "0", "1"]:
        page.select_option("#replay-seat", seat)
        page.click("#next-step")
        scroll, client = page.evaluate(_FITS)
        assert scroll <= client, seat
    # On a phone (issue 34, item 5): the replay fits the screen's width, and
    # the referee's table draws no seat or trick over another.
    page.set_viewport_size({"width": 390, "height": 844})
    page.select_option("#replay-seat", "referee")
    widest = page.eval_on_selector_all(
        "#replays *", "es => Math.max(...es.map(e => e.getBoundingClientRect().right))"
    )
    assert widest <= 390
    # The plots follow the window (Plotly's resize runs after the event) and
    # the pairs' tests, opened above, scroll in their own box: not the page.
    assert page.locator("#pair-tests-table").is_visible()
    page.wait_for_function(
        "() => document.documentElement.scrollWidth <= 390", timeout=60_000
    )
    boxes = page.eval_on_selector_all(
        "#replay-table .seat, #replay-table .trick",
        """es => es.map(e => { const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; })""",
    )
    for i, (left, top, right, bottom) in enumerate(boxes):
        for other in boxes[i + 1 :]:
            apart = right <= other[0] or other[2] <= left
            assert apart or bottom <= other[1] or other[3] <= top, (boxes[i], other)
    assert errors == []


def test_card_chips_keep_the_notations_rank(pages: Pages, report_index: Path) -> None:
    """A chip shows the card as the narration names it, with a suit symbol:
    TC is T\u2663 (never 10\u2663)."""
    page = _page(pages, report_index)
    errors = pages.errors
    page.select_option("#replay-seat", "referee")
    chips = page.eval_on_selector_all(
        "#replay-view .card", "cs => cs.map(c => [c.dataset.card, c.textContent])"
    )
    assert chips
    suits = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
    for card, text in chips:
        assert text == card[:-1] + suits[card[-1]], (card, text)
    assert any(card.startswith("T") for card, _ in chips)
    assert errors == []


def test_the_single_file_report_opens_offline(
    pages: Pages, report_index: Path, tmp_path: Path
) -> None:
    """--html FILE.html alone in a folder, no network: plots drawn, replays play."""
    alone = single_file_report(report_index, tmp_path / "mail" / "report.html")
    assert [p.name for p in alone.parent.iterdir()] == ["report.html"]
    page = _page(pages, alone, width=1280, offline=True)
    errors = pages.errors
    for plot, title in PLOTS.items():
        page.wait_for_selector(f"#{plot} .main-svg")
        assert title in (page.locator(f"#{plot} .gtitle").text_content() or "")
    position = page.locator("#replay-position")
    assert (position.text_content() or "").startswith("step 0 / ")
    page.click("#next-step")
    assert (position.text_content() or "").startswith("step 1 / ")
    options = page.locator("#replay-match option").count()
    page.select_option("#replay-match", index=options - 1)
    page.wait_for_function(
        "document.getElementById('replay-position').textContent.startsWith('step 0 ')"
    )
    scroll, client = page.evaluate(_FITS)
    assert scroll <= client
    assert errors == []


def test_the_viewer_rebuilds_every_step_of_a_compact_replay(
    pages: Pages, report_index: Path
) -> None:
    """The replay files hold changes from step to step; the page's rebuilt
    steps are replay_frames' full ones, every View and card place."""
    from harness.plugins import load_plugins
    from harness.report.replay import replay_frames
    from harness.tournament.store import Store

    with Store.existing(report_index.parent.parent / "results.sqlite") as store:
        match = next(m for m in store.matches() if m.result.log is not None)
    game = load_plugins().game(match.job["game"], match.job["options"])
    full = json.loads(json.dumps(replay_frames(game, match)["frames"]))
    page = _page(pages, report_index)
    errors = pages.errors
    page.wait_for_function("document.getElementById('replay-position').textContent")
    rebuilt = page.evaluate("() => window.TROEF_REPLAYS['match-0000.js'].frames")
    assert rebuilt == full
    assert errors == []
