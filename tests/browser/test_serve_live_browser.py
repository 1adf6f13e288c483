"""``troef serve DB`` in a real headless browser: Chromium shows the live page
of a tournament that a real ``troef run`` plays in the background, and the
page updates as each result lands (issue 34, items 3 and 6).

The run's matches wait at gates the test opens one at a time
(``tests/plugins/gated_bots.py``); the page is waited on by what it shows,
polled with generous timeouts, never by a sleep.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.serve.app import create_app, running
from harness.tournament.executor_plugins import load_registry
from tests.browser.conftest import Pages
from tests.harness.test_serve_live import gated_config, gated_run

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Milliseconds the page has to show a state (the run's start-up included).
PATIENCE = 60_000


def _shows(page: Any, state: str, recorded: int | None = None) -> None:
    test = f"document.body.dataset.state === '{state}'"
    if recorded is not None:
        test += f" && document.body.dataset.recorded === '{recorded}'"
    page.wait_for_function(f"() => {test}", timeout=PATIENCE)


def test_the_live_page_follows_a_tournament_while_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pages: Pages
) -> None:
    # The page polls as often as the server says: more often here, so that
    # each state is shown sooner (what is shown does not depend on it).
    monkeypatch.setattr("harness.serve.live.POLL_SECONDS", 0.2)

    config, database, gate = gated_config(tmp_path)
    app = create_app(
        load_registry(), results=tmp_path / "tables", pace=0, watch=database
    )
    with running(app) as url:
        page = pages.open(url + "/live", allow=url)
        _shows(page, "missing")
        assert str(database) in (page.text_content("#state") or "")
        with gated_run(config, gate) as run:
            _shows(page, "empty", 0)
            assert page.text_content("#state") == f"{database} holds no results yet"
            (gate / "go-1").touch()
            _shows(page, "results", 1)
            assert page.text_content("#progress-line", timeout=PATIENCE)
            line = page.text_content("#progress-line") or ""
            assert line.startswith("1 of 2 matches recorded"), line
            assert page.text_content("#running") == "a run is writing it"
            rows = page.locator("#standings tbody tr")
            assert sorted(
                rows.nth(i).locator("td.entrant").text_content() or ""
                for i in range(rows.count())
            ) == ["gated", "random"]
            assert page.locator("#pairs tbody tr").count() == 1
            assert page.locator("#recent tbody tr").count() == 1
            assert page.is_visible("#llr-mark")
            assert "no decision yet" in (page.text_content("#sprt-line") or "")
            (gate / "go-2").touch()
            run.communicate(timeout=60)
            assert run.returncode == 0
        # Shown once the run has ended: the writer's key is gone.
        page.wait_for_function(
            "() => document.querySelector('#running').textContent === 'finished'",
            timeout=PATIENCE,
        )
        assert document_recorded(page) == "2"
        assert page.locator("#recent tbody tr").count() == 2
        assert "after 1 samples" in (page.text_content("#sprt-line") or "")
        # A latest match opens as a replay at serve's table, every hand open.
        page.locator("#recent tbody tr a").first.click()
        page.wait_for_selector("#replay-controls", state="visible", timeout=PATIENCE)
        assert (page.text_content("#title") or "").endswith(
            "replay, the referee's view"
        )
        assert page.input_value("#replay-seat") == "referee"
        assert pages.errors == []


def document_recorded(page: Any) -> str:
    return str(page.evaluate("() => document.body.dataset.recorded"))
