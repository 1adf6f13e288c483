"""First paint of the browser pages: ``troef serve``'s table and the HTML report.

Issue 34, item 5 asks for a first paint under a second on a local machine.
Each page is loaded ``--runs`` times, each in a fresh browser context of the
system Chromium (Playwright), and the browser's own figures are read from
its performance API: ``first-contentful-paint`` (the paint entry) and, for
``troef serve``, the moment the page's script says it is ready
(``body[data-ready]``: the games fetched, the lobby filled). The pages, in
one run side by side: ``troef serve``'s lobby (uvicorn on a loopback port in
a thread) and the HTML report of a recorded klaverjassen match, as a folder
and as one file; and the time the lobby takes to fetch that match's replay
in the referee's view (the ready column). It prints the median and the
spread of each and whether the goal is met; it is a script, not a test: it
never fails because something is slow.

    python bench/bench_serve.py [--runs 7] [--json PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

GOAL_MS = 1000.0

#: The browser's figures for the page loaded now: first contentful paint and,
#: when the page marks itself ready, when it did (ms since navigation start).
_FIGURES = """() => new Promise((done) => {
  const read = () => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const ready = performance.getEntriesByName('troef-ready')[0];
    if (!paint) return setTimeout(read, 10);
    done([paint.startTime, ready ? ready.startTime : null]);
  };
  read();
})"""

#: Marks the moment the serve page is ready, as a performance entry.
_MARK_READY = """() => new Promise((done) => {
  const look = () => document.body.dataset.ready
    ? (performance.mark('troef-ready'), done(true)) : setTimeout(look, 5);
  look();
})"""


def _recorded(folder: Path) -> tuple[str, str]:
    """A klaverjassen match between random bots recorded in ``folder``: the
    database's name and the match."""
    from harness.match.referee import make_bots, play_match
    from harness.serve.record import record_match
    from harness.tournament.executor_plugins import load_registry

    registry = load_registry()
    game = registry.game("klaverjassen", {"target": 300})
    bots = make_bots(game, [registry.bots["random"]] * 4, 1)
    result = play_match(game, bots, 1, keep_log=True)
    labels = ["North", "East", "South", "West"]
    path, match = record_match(folder, game, labels, ["random"] * 4, 1, result)
    return path.name, match


def _report(database: Path, out: Path) -> Path:
    from harness.cli import main

    with contextlib.redirect_stdout(io.StringIO()):  # the text report: not ours
        status = main(["report", str(database), "--html", str(out)])
    if status != 0:
        raise SystemExit(f"troef report {database} --html {out} failed")
    return out / "index.html" if out.is_dir() else out


def measure(runs: int) -> dict[str, list[list[float | None]]]:
    """Per page, each run's [first contentful paint, ready] in ms."""
    from playwright.sync_api import sync_playwright

    from harness.serve.app import create_app, running
    from harness.tournament.executor_plugins import load_registry

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no Chromium on PATH (Debian: apt-get install chromium)")
    figures: dict[str, list[list[float | None]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        database, match = _recorded(folder)
        pages = {
            "report folder (index.html)": _report(folder / database, folder / "html"),
            "report single file": _report(folder / database, folder / "one.html"),
        }
        app = create_app(load_registry(), results=folder, pace=0)
        with running(app) as url, sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
            )
            urls = {
                "troef serve lobby": url + "/",
                **{name: path.as_uri() for name, path in pages.items()},
            }
            replay = f"database={database}&match={match}&seat=referee"
            for run in range(runs + 1):  # run 0 warms the browser and the server
                for name, address in urls.items():
                    context = browser.new_context(
                        viewport={"width": 1280, "height": 720}
                    )
                    page = context.new_page()
                    page.goto(address)
                    if address.startswith(url):
                        page.evaluate(_MARK_READY)
                    paint, ready = page.evaluate(_FIGURES)
                    if run:
                        figures.setdefault(name, []).append([paint, ready])
                    context.close()
                # The replay drawn: fetched and drawn by the page's script.
                context = browser.new_context(viewport={"width": 1280, "height": 720})
                page = context.new_page()
                page.goto(url + "/")
                page.evaluate(_MARK_READY)
                drawn = page.evaluate(
                    """async (query) => { const t = performance.now();
                    const r = await fetch('/api/replay?' + query); await r.json();
                    return performance.now() - t; }""",
                    replay,
                )
                if run:
                    figures.setdefault("serve replay fetched (referee)", []).append(
                        [None, drawn]
                    )
                context.close()
            browser.close()
    return figures


def _median(values: list[float | None]) -> tuple[float, float] | None:
    kept = [v for v in values if v is not None]
    if not kept:
        return None
    mid = statistics.median(kept)
    return mid, (max(kept) - min(kept)) / mid if mid else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="loads per page")
    parser.add_argument("--json", type=Path, help="write every run's figures here")
    args = parser.parse_args(argv)
    figures = measure(args.runs)
    load = os.getloadavg()[0]
    print(f"{'page':34} {'first paint ms':>15} {'spread':>7} {'ready ms':>9}")
    worst = 0.0
    for name, rows in figures.items():
        paint = _median([r[0] for r in rows])
        ready = _median([r[1] for r in rows])
        first = f"{paint[0]:15.0f} {paint[1]:7.0%}" if paint else f"{'-':>15} {'':7}"
        then = f"{ready[0]:9.0f}" if ready else f"{'-':>9}"
        print(f"{name:34} {first} {then}")
        if paint:
            worst = max(worst, paint[0])
    met = "met" if worst < GOAL_MS else "NOT met"
    print(
        f"goal: first paint under {GOAL_MS:.0f} ms: {met} (worst median {worst:.0f} ms)"
    )
    if load > (os.cpu_count() or 1):
        print(f"warning: load average {load:.1f} above the {os.cpu_count()} CPUs")
    if args.json:
        args.json.write_text(
            json.dumps({"runs": figures, "load": load, "goal_ms": GOAL_MS}, indent=1),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
