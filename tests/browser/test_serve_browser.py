"""``troef serve`` in a real headless browser: Playwright drives Chromium
through whole matches against random bots, clicking cards.

The server is uvicorn on a free loopback port in a thread
(:func:`harness.serve.app.running`), stopped when the test ends. Run as a
script, ``python -m tests.browser.test_serve_browser``, it writes the
screenshots of the table in ``docs/`` (``docs/serve-<game>.png``).
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
            page.wait_for_function(
                "() => document.querySelector('#message').textContent.includes(':')"
            )
            reason = page.locator("#message").text_content() or ""
            assert reason.endswith(why), (reason, why)
            if screenshot is not None:
                page.screenshot(path=str(screenshot))
        page.locator("#hand button.legal, #actions button").first.click()


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


def _log(results: Path) -> tuple[str, ...]:
    """The action log of the one match recorded in ``results``."""
    (database,) = results.glob("*.sqlite")
    with Store.existing(database) as store:
        (match,) = list(store.matches())
    assert match.result.log is not None
    return match.result.log


def write_screenshots(folder: Path) -> None:
    """The table of each game in GAMES, mid-trick, as ``serve-<game>.png``."""
    import tempfile

    with chromium(need_browser()) as browser:
        pages = Pages(browser)
        for game in GAMES:
            with tempfile.TemporaryDirectory() as tmp:
                with _table_page(pages, Path(tmp)) as page:
                    _sit_down(page, game)
                    _play_match(page, screenshot=folder / f"serve-{game}.png")
            pages.close()


if __name__ == "__main__":
    write_screenshots(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs"))
