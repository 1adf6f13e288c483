"""One way to open a page in the system Chromium for every browser test.

:func:`chromium` starts the browser (one per test session through the
``browser`` fixture); :class:`Pages` opens pages in it, each in a context of
its own, with the network refused but for what the page may load (the
report's files, the local server) and every console error, page error and
refused request collected in ``errors``. The ``pages`` fixture closes its
pages when the test ends. A machine without the browser skips these tests
with the reason; CI sets ``TROEF_REQUIRE_BROWSER=1`` (``.ci/run``), which
turns that skip into a failure.
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.conftest import SESSION_PROCESSES, _descendants

#: The system's Chromium (Debian package ``chromium``): no browser download.
CHROMIUM_NAMES = ("chromium", "chromium-browser")


def _chromium() -> str | None:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def need_browser() -> str:
    """The Chromium to drive; skips (fails under TROEF_REQUIRE_BROWSER=1)
    the test, saying why, when Playwright or the browser is missing."""
    why = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        why = (
            "the Python package playwright is not installed (pip install -e '.[test]')"
        )
    browser = _chromium()
    if why is None and browser is None:
        why = "no Chromium on PATH (Debian: apt-get install chromium; .ci/run does)"
    if why is not None:
        if os.environ.get("TROEF_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests required but cannot run: {why}")
        pytest.skip(f"browser tests skipped: {why}")
    assert browser is not None
    return browser


@contextmanager
def chromium(executable: str) -> Iterator[Any]:
    """Headless Chromium through Playwright, closed on leaving."""
    from playwright.sync_api import sync_playwright

    # Starting Playwright draws from the global random stream (its driver's
    # connection); that is the test tool's, not troef's, so it is put back.
    saved = random.getstate()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=executable, args=["--no-sandbox", "--disable-gpu"]
        )
        random.setstate(saved)
        try:
            yield browser
        finally:
            browser.close()
    random.setstate(saved)


class Pages:
    """Pages of one browser, each refusing the network but ``allow``."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        #: Console errors, page errors and refused requests of every page.
        self.errors: list[str] = []
        self._contexts: list[Any] = []

    def open(
        self,
        url: str,
        *,
        allow: str,
        width: int = 1280,
        height: int = 720,
        offline: bool = False,
    ) -> Any:
        """A new page showing ``url``: a request for other than a URL that
        starts with ``allow`` is refused and recorded in :attr:`errors`;
        ``offline``, the context has no network at all."""
        context = self.browser.new_context(
            viewport={"width": width, "height": height}, offline=offline
        )
        self._contexts.append(context)
        page = context.new_page()

        def refuse(route: Any) -> None:
            if route.request.url.startswith(allow):
                route.continue_()
            else:
                self.errors.append(f"fetched {route.request.url}")
                route.abort()

        page.route("**/*", refuse)
        page.on(
            "console",
            lambda m: self.errors.append(m.text) if m.type == "error" else None,
        )
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(url)
        return page

    def close(self) -> None:
        for context in self._contexts:
            context.close()
        self._contexts.clear()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium for the session's browser tests: a start costs seconds.

    Its processes (Playwright's driver, the browser and the helpers it starts
    later) are the session's for the survivor guard (``tests/conftest.py``);
    they end when the session closes the browser.
    """
    before = set(_descendants())
    with chromium(need_browser()) as started:
        SESSION_PROCESSES.update(set(_descendants()) - before)
        try:
            yield started
        finally:
            SESSION_PROCESSES.clear()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    """Open pages with :meth:`Pages.open`; closed when the test ends."""
    opened = Pages(browser)
    try:
        yield opened
    finally:
        opened.close()
