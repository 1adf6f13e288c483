"""``troef serve`` in a real headless browser: Playwright drives Chromium
through whole matches against random bots, one game of each family:
klaverjassen (jass) and bezique clicking cards, maison-tarot and gin rummy
with the keyboard only.

Ruling (issue 34, item 6): the browser plays one game per family, four
whole matches, within the suite's time for browser tests; that every one of
the 17 games plays a whole match at a served table is
``tests/harness/test_serve.py``'s (through the table's socket, no browser).

The server is uvicorn on a free loopback port in a thread
(:func:`harness.serve.app.running`), stopped when the test ends. Run as a
script, ``python -m tests.browser.test_serve_browser``, it writes the
screenshots of the table in ``docs/`` (``docs/serve-<game>.png`` per family,
``docs/serve-replay-referee.png``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from harness.serve.app import create_app, running
from harness.serve.table import PERSON_BOT
from harness.tournament.executor_plugins import load_registry
from harness.tournament.store import Store
from tests.browser.conftest import Pages, chromium, need_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The families' games played here, klaverjassen (jass) and bezique, each with
#: a target reached in a deal or two: the browser clicks every card.
GAMES = {"klaverjassen": "100", "bezique": "150"}
#: The seed of each game's match (the bots are seeded, the clicks fixed: the
#: same match every run): one in which a card is refused while a trick is open.
SEEDS = {"klaverjassen": "5", "bezique": "4"}


@contextmanager
def _table_page(pages: Pages, results: Path) -> Iterator[Any]:
    """The lobby of a fresh server in Chromium (its URL the only one the
    page may fetch; the errors it raised in ``pages.errors``)."""
    app = create_app(load_registry(), results=results, pace=0)
    with running(app) as url:
        page = pages.open(url + "/", allow=url)
        page.wait_for_selector("body[data-ready='1']")
        yield page


_TURN_OR_OVER = """() => document.querySelector('#message').textContent === 'your turn'
    || !document.querySelector('#result').hidden"""


def _sit_down(page: Any, game: str) -> None:
    page.select_option("#game", game)
    page.check("#short")  # the game's check options: a short match
    page.fill("[data-option='target']", GAMES[game])  # and a shorter one still
    page.fill("#seed", SEEDS[game])
    page.fill("#name", "Ann")
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])")


def _play_match(page: Any, *, screenshot: Path | None = None) -> tuple[int, str]:
    """Click through the match: once a greyed card (refused with its reason),
    else the first legal card or move. The turns played and the reason."""
    turns = 0
    reason = ""
    while True:
        page.wait_for_function(_TURN_OR_OVER, timeout=60_000)
        if not page.locator("#result").is_hidden():
            return turns, reason
        turns += 1
        greyed = page.locator("#hand button.illegal")
        if not reason and greyed.count() and page.locator("#trick .played").count():
            card = greyed.first
            why = card.get_attribute("title") or ""
            card.click(force=True)  # greyed (aria-disabled), still clickable
            reason = _refusal_shown(page, why, screenshot)
        page.locator("#hand button.legal, #actions button").first.click()


def _refusal_shown(page: Any, why: str, screenshot: Path | None) -> str:
    """The message a refused card gets, once shown: it ends with the card's
    own reason (its title); the screenshot, if asked for, shows it."""
    page.wait_for_function(
        "() => document.querySelector('#message').textContent.includes(':')"
    )
    reason = page.locator("#message").text_content() or ""
    assert reason.endswith(why), (reason, why)
    if screenshot is not None:
        page.screenshot(path=str(screenshot))
    return reason


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_match_in_the_browser_is_played_and_recorded(
    pages: Pages, game: str, tmp_path: Path
) -> None:
    results = tmp_path / "tables"
    errors = pages.errors
    with _table_page(pages, results) as page:
        _sit_down(page, game)
        # The table as drawn: every seat, the person's own marked, a dealer.
        assert page.locator(".seat").count() == (4 if game == "klaverjassen" else 2)
        assert page.locator(".seat", has_text="Ann (you)").count() == 1
        assert page.locator(".badge.dealer").count() == 1
        turns, reason = _play_match(page)
        assert turns > 5
        assert "you must" in reason or "may not be played" in reason, reason
        shown_db = page.locator("#result-db").text_content()
        shown_match = page.locator("#result-match").text_content()
        table = page.locator("#result-table").text_content() or ""
        assert "Ann" in table and "rank" in table
        # The match again, drawn as the same table, stepped through by trick.
        page.click("#replay-this")
        page.wait_for_selector("#replay-controls:not([hidden])")
        assert page.locator("#frame-number").text_content() == (
            f"move 0 of {len(_log(results))}"
        )
        page.click("[data-step='trick'][data-by='1']")
        page.click("#last-trick-button")
        assert page.locator("#trick .played .card").count() == (
            4 if game == "klaverjassen" else 2
        )
        assert page.locator("#hand button.card").count() > 0
        page.click("[data-step='deal'][data-by='1']")
        page.click("[data-step='deal'][data-by='-1']")
        assert page.locator("#frame-number").text_content().startswith("move 0 of")
        assert errors == []
    (database,) = results.glob("*.sqlite")
    assert shown_db == str(database)
    with Store.existing(database) as store:
        (match,) = list(store.matches())
    assert match.job["id"] == shown_match
    assert PERSON_BOT in [bot for bot, _ in match.job["bots"]]
    assert match.result.forfeit is None


def test_two_people_play_at_one_table_each_through_their_link(
    pages: Pages, tmp_path: Path
) -> None:
    results = tmp_path / "tables"
    errors = pages.errors
    with _table_page(pages, results) as host:
        host.select_option("#game", "klaverjassen")
        host.fill("[data-option='target']", "100")
        host.fill("#name", "Ann")
        host.select_option("select.bot >> nth=0", "person")  # seat 1: a person
        host.click("#start")
        link = host.locator("a.invite[data-seat='1']")
        link.wait_for()
        href = link.get_attribute("href") or ""
        guest = pages.open(href, allow=href.split("/?")[0])
        players = [host, guest]
        done = [False, False]
        turns = [0, 0]
        while not all(done):
            for i, page in enumerate(players):
                if done[i]:
                    continue
                state = page.evaluate(
                    """() => !document.querySelector('#result').hidden ? 'over'
                    : document.querySelector('#message').textContent"""
                )
                if state == "over":
                    done[i] = True
                elif state == "your turn":
                    turns[i] += 1
                    page.locator("#hand button.legal, #actions button").first.click()
            host.wait_for_timeout(20)  # polled: neither page is waited on for long
        assert min(turns) > 3
        assert host.locator(".seat", has_text="Ann (you)").count() == 1
        assert guest.locator(".seat", has_text="guest (you)").count() == 1
        assert (
            host.locator("#result-match").text_content()
            == guest.locator("#result-match").text_content()
        )
        assert errors == []
    with Store.existing(next(results.glob("*.sqlite"))) as store:
        (match,) = list(store.matches())
    assert [b for b, _ in match.job["bots"]][:2] == [PERSON_BOT, PERSON_BOT]
    assert match.result.forfeit is None


#: The other two families, each a whole short match (a deal) played with the
#: keyboard only: the target and the seed (one whose match is short).
KEYBOARD = {"maison-tarot": ("30", "16"), "gin-rummy": ("10", "6")}

#: The element with the focus: a move, and its focus drawn (issue 34, item 5).
_FOCUS = """() => { const e = document.activeElement;
    return [e.id || e.className, e.matches(':focus-visible'),
    getComputedStyle(e).outlineStyle]; }"""


def _tab_to(page: Any, selector: str) -> None:
    """Tab until ``selector`` has the focus, each stop's focus visible."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => document.activeElement.matches({selector!r})"):
            return
        _, visible, outline = page.evaluate(_FOCUS)
        assert visible and outline != "none", page.evaluate(_FOCUS)
    raise AssertionError(f"Tab never reached {selector}")


def _fits(page: Any) -> None:
    """No horizontal scroll; every card of the hand on screen and readable."""
    size = page.viewport_size
    scroll, client = page.evaluate(
        "() => [document.documentElement.scrollWidth,"
        " document.documentElement.clientWidth]"
    )
    assert scroll <= client, size
    cards = page.eval_on_selector_all(
        "#hand .card",
        """cs => cs.map(c => { const r = c.getBoundingClientRect();
        return [r.left, r.right, r.bottom, r.width,
        parseFloat(getComputedStyle(c).fontSize),
        c.scrollWidth <= c.clientWidth]; })""",
    )
    assert cards
    for left, right, bottom, width, font, whole in cards:
        assert 0 <= left and right <= size["width"] and bottom <= size["height"], size
        assert width >= 30 and font >= 14 and whole, size


def _play_by_keys(page: Any, *, screenshot: Path | None = None) -> tuple[int, str]:
    """The match played with Enter on the move the table focuses; once, the
    arrow keys to a greyed card, refused with its reason. The turns played
    and the reason."""
    turns, reason = 0, ""
    while True:
        page.wait_for_function(_TURN_OR_OVER, timeout=60_000)
        if not page.locator("#result").is_hidden():
            return turns, reason
        turns += 1
        assert page.evaluate(
            "() => document.activeElement.matches('#hand .legal, #actions button')"
        )
        _, visible, outline = page.evaluate(_FOCUS)
        assert visible and outline != "none"
        if turns == 1:
            for width, height in ((1280, 720), (390, 844)):
                page.set_viewport_size({"width": width, "height": height})
                _fits(page)
            page.set_viewport_size({"width": 1280, "height": 720})
        hand = page.locator("#hand button.card")
        open_trick = page.locator("#trick .played:not(.pile)").count()
        if not reason and open_trick and page.locator("#hand .illegal").count():
            for _ in range(hand.count()):
                if page.evaluate("() => document.activeElement.matches('.illegal')"):
                    break
                page.keyboard.press("ArrowRight")
            why = page.evaluate("() => document.activeElement.title")
            page.keyboard.press("Enter")
            reason = _refusal_shown(page, why, screenshot)
            while not page.evaluate("() => document.activeElement.matches('.legal')"):
                page.keyboard.press("ArrowLeft")
        elif screenshot is not None and turns == 4:
            page.screenshot(path=str(screenshot))
        page.keyboard.press("Enter")


@pytest.mark.parametrize("game", KEYBOARD)
def test_a_whole_match_is_played_with_the_keyboard_only(
    pages: Pages, game: str, tmp_path: Path
) -> None:
    """Issue 34, items 5 and 6: tarot and rummy played to the end with Tab,
    Enter and the arrow keys, the focus always drawn; the table fits 1280 x
    720 and a phone (390 x 844) with no horizontal scroll; the replay is
    stepped by the arrow keys and shows the referee's view."""
    results = tmp_path / "tables"
    errors = pages.errors
    with _table_page(pages, results) as page:
        _sit_down_by_keys(page, game)
        turns, reason = _play_by_keys(page)
        assert turns >= 5
        if game == "maison-tarot":
            assert "you must" in reason, reason
        else:  # no trick, so the centre shows the stock and the discard pile
            assert page.locator("#trick .pile").count() == 2
        assert "rank" in (page.locator("#result-table").text_content() or "")
        _tab_to(page, "#replay-this")
        page.keyboard.press("Enter")
        page.wait_for_selector("#replay-controls:not([hidden])")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        number = page.locator("#frame-number").text_content() or ""
        assert number == f"move 1 of {len(_log(results))}"
        _tab_to(page, "#replay-seat")
        page.keyboard.press("Home")  # the first view: the referee's
        page.wait_for_function("() => document.querySelectorAll('.open-hand').length")
        assert page.locator(".open-hand").count() == 2
        assert page.locator(".open-hand .card").count() > 0
        assert page.locator("#hand .card").count() == 0
        assert errors == []
    (database,) = results.glob("*.sqlite")
    with Store.existing(database) as store:
        (match,) = list(store.matches())
    assert match.result.forfeit is None


def _log(results: Path) -> tuple[str, ...]:
    """The action log of the one match recorded in ``results``."""
    (database,) = results.glob("*.sqlite")
    with Store.existing(database) as store:
        (match,) = list(store.matches())
    assert match.result.log is not None
    return match.result.log


def _sit_down_by_keys(page: Any, game: str) -> None:
    target, seed = KEYBOARD[game]
    page.select_option("#game", game)
    page.check("#short")
    page.fill("[data-option='target']", target)
    page.fill("#seed", seed)
    _tab_to(page, "#start")
    page.keyboard.press("Enter")


def write_screenshots(folder: Path) -> None:
    """The table of one game of each family, mid-trick (rummy: mid-deal), as
    ``serve-<game>.png``; and a replay in the referee's view, every hand
    open, as ``serve-replay-referee.png``."""
    import tempfile

    with chromium(need_browser()) as browser:
        pages = Pages(browser)
        for game in [*GAMES, *KEYBOARD]:
            shot = folder / f"serve-{game}.png"
            with tempfile.TemporaryDirectory() as tmp:
                with _table_page(pages, Path(tmp)) as page:
                    if game in GAMES:
                        _sit_down(page, game)
                        _play_match(page, screenshot=shot)
                    else:
                        _sit_down_by_keys(page, game)
                        _play_by_keys(page, screenshot=shot)
                    if game == "klaverjassen":
                        page.click("#replay-this")
                        page.select_option("#replay-seat", "referee")
                        page.wait_for_selector(".open-hand")
                        for _ in range(6):
                            page.click("[data-step='move'][data-by='1']")
                        page.screenshot(path=str(folder / "serve-replay-referee.png"))
            pages.close()


if __name__ == "__main__":
    write_screenshots(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs"))
