"""``troef report DB --html DIR|FILE.html``: the report a browser opens offline.

``DIR/index.html`` holds the tables and the plots; ``DIR/plotly.min.js`` is
the plotting library, copied once from the ``plotly`` package (it ships the
JavaScript in its wheel, so nothing is fetched at view time);
``DIR/replays/*.js`` hold one recorded match each (compacted: each step's
changes), loaded when picked. A name ending in ``.html`` gets the same page
as one file, Plotly and every replay inline.

This module builds the page: its tables (from the same display functions as
the text report), the configuration section and the sections in order. The
plots are drawn in ``harness.report.plots`` (with Plotly; see docs/REPORT.md
for why); the replays and their viewer are ``harness.report.replay``'s.
"""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from harness.contracts.errors import TroefError
from harness.contracts.game import Game
from harness.report.model import Report, ReportModel, report_model
from harness.report.plots import (
    _crosstable_plot,
    _forfeit_plot,
    _ladder_history,
    _ladder_plot,
    _score_plot,
    _significance_plot,
    _standings_plot,
    _thinking_plot,
)
from harness.report.replay import (
    _REPLAY,
    _SCRIPT,
    compact_replay,
    drawing,
    replay_frames,
)
from harness.report.text import pair_details_display, pairs_display, standings_display
from harness.tournament.store import StoredMatch

__all__ = [
    "HtmlInputs",
    "shown_config",
    "single_file",
    "write_html_report",
]


@dataclass
class HtmlInputs:
    """What the HTML report is drawn from, beyond the report itself."""

    snapshot: Mapping[str, Any]
    matches: Sequence[StoredMatch]
    #: The game of a stored match's job (its registry name and options).
    game_of: Callable[[Mapping[str, Any]], Game] | None = None
    #: How many recorded matches with logs get a replay; None: every one.
    replays: int | None = None
    notes: list[str] = field(default_factory=list)
    #: The folder of the config the run read (the store's ``source``): the
    #: configuration section shows paths relative to it.
    config_folder: Path | None = None
    #: The master seed the store drew and kept when the config gave none.
    master_seed: int | None = None


def _plotly() -> Any:
    try:
        import plotly  # noqa: F401
    except ImportError:
        raise TroefError(
            "the HTML report draws its plots with Plotly: "
            "from the troef checkout, pip install -e '.[html]' (or pip install plotly)"
        ) from None
    import plotly.graph_objects as go

    return go


# -- tables ----------------------------------------------------------------


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return "" if not math.isfinite(value) else f"{value:.3g}"
    if isinstance(value, list):
        return html.escape(", ".join(str(v) for v in value))
    return "" if value is None else html.escape(str(value))


def _table(rows: Sequence[Mapping[str, Any]], table_id: str) -> str:
    if not rows:
        return "<p>none</p>"
    return _grid(list(rows[0]), [list(r.values()) for r in rows], table_id)


def _grid(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    table_id: str,
    *,
    left: Sequence[str] = ("entrant", "pair", "reason", "test"),
    wrap: Sequence[str] = ("notes",),
    titles: Mapping[str, str] | None = None,
) -> str:
    """A table of formatted cells; the ``left`` columns (names) align left.

    Wrapped in a box that scrolls sideways by itself when a table is wider
    than the page, so the page never does; cells never wrap (a p-value
    split over two lines reads as two numbers) but those of the ``wrap``
    columns (sentences).
    """
    lefts = {i for i, h in enumerate(headers) if h in left}
    wraps = {i for i, h in enumerate(headers) if h in wrap}
    titles = titles or {}
    cls = [
        ' class="w"' if i in wraps else ' class="l"' if i in lefts else ""
        for i in range(len(headers))
    ]
    tips = [
        f' title="{html.escape(titles[h])}"' if h in titles else "" for h in headers
    ]
    head = "".join(
        f"<th{cls[i]}{tips[i]}>{html.escape(h)}</th>" for i, h in enumerate(headers)
    )
    body = "".join(
        "<tr>"
        + "".join(f"<td{cls[i]}>{_cell(v)}</td>" for i, v in enumerate(r))
        + "</tr>"
        for r in rows
    )
    return (
        f'<div class="wide"><table id="{table_id}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


#: The pairs table's columns at a glance; the others are behind a toggle.
_PAIR_COLUMNS = ("pair", "score %", "elo diff", "LOS %", "p", "p Holm", "sig.")
#: The pairs' other columns, shown under "every test of each pair".
_PAIR_DETAIL_COLUMNS = ("pair", "W-D-L", "samples")

_PAIR_TITLES = {
    "score %": "the first entrant's pairwise score against the second",
    "elo diff": "Elo difference with its interval",
    "LOS %": "likelihood of superiority of the first over the second",
    "p": "the pair's headline test (named under 'every test of each pair')",
    "p Holm": "p corrected for testing every pair (Holm)",
    "sig.": "* where p Holm < 0.05",
}


def _columns(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], keep: Sequence[str]
) -> tuple[list[str], list[list[Any]]]:
    where = [list(headers).index(k) for k in keep]
    return [headers[i] for i in where], [[r[i] for i in where] for r in rows]


def _pairs_tables(model: ReportModel) -> str:
    """The pairwise tests: a narrow table at a glance, the rest behind a toggle."""
    headers, rows = pairs_display(model)
    main = _grid(
        *_columns(headers, rows, _PAIR_COLUMNS), "pairs-table", titles=_PAIR_TITLES
    )
    some_h, some = _columns(headers, rows, _PAIR_DETAIL_COLUMNS)
    more_h, more = pair_details_display(model)
    details = _grid(
        [*some_h, *more_h[1:]],
        [[*a, *b[1:]] for a, b in zip(some, more, strict=True)],
        "pair-tests-table",
    )
    notes = "".join(
        f"<p class='note'>{html.escape(n)}</p>" for n in model.small_sample_notes
    )
    return (
        f"<p>Holm-corrected across {len(model.pairs)} pairs; * = significant at "
        "5%. p is each pair's headline test.</p>"
        + main
        + "<details id='pair-tests'><summary>every test of each pair</summary>"
        + details
        + "</details>"
        + notes
    )


# -- configuration ---------------------------------------------------------


def _shown_path(text: str, folder: Path | None) -> str:
    """An absolute path as a reader of a shared report should see it.

    Relative to the config's folder when under it, else the file name only:
    the report may be read on another machine, and the absolute path says
    nothing there but who ran it where.
    """
    if not os.path.isabs(text):
        return text
    path = PurePath(text)
    if folder is not None and path.is_relative_to(folder):
        return path.relative_to(folder).as_posix()
    return path.name


def shown_config(
    snapshot: Mapping[str, Any], folder: Path | None, master_seed: int | None
) -> dict[str, Any]:
    """The config snapshot as the report shows it.

    Plugin files, command arguments and entrant plugins that are absolute
    paths become relative (:func:`_shown_path`); a command bot shows its
    command, not its empty registry name; a config without ``seed`` shows
    the master seed the run drew and recorded.
    """
    shown = dict(snapshot)
    if shown.get("seed") is None and master_seed is not None:
        shown["seed"] = master_seed
    shown["plugins"] = [_shown_path(p, folder) for p in shown.get("plugins", [])]
    entrants: dict[str, Any] = {}
    for label, spec in dict(shown.get("entrants", {})).items():
        spec = dict(spec)
        if spec.get("bot") == "" and spec.get("command"):
            del spec["bot"]  # a program named by its command, not a registry bot
        for key in ("command", "plugin"):
            if key in spec:
                spec[key] = [_shown_path(a, folder) for a in spec[key]]
        entrants[label] = spec
    if "entrants" in shown:
        shown["entrants"] = entrants
    return shown


def _config_section(inputs: HtmlInputs) -> str:
    shown = shown_config(inputs.snapshot, inputs.config_folder, inputs.master_seed)
    note = ""
    if inputs.snapshot.get("seed") is None and inputs.master_seed is not None:
        note = (
            "<p class='note'>The config gave no seed: seed is the master seed the "
            "run drew and recorded (give it as seed to replay the run).</p>"
        )
    return (
        "<p class='note'>Paths are relative to the config's folder (file names "
        "where outside it).</p>"
        + note
        + "<pre id='config-snapshot'>"
        + html.escape(json.dumps(shown, indent=2, sort_keys=True))
        + "</pre>"
    )


# -- the page --------------------------------------------------------------


def single_file(out: Path) -> bool:
    """True when ``--html OUT`` asks for one file: a name ending in ``.html``
    (or ``.htm``) that is not an existing folder; anything else is a folder."""
    return out.suffix.lower() in (".html", ".htm") and not out.is_dir()


def write_html_report(out: Path, report: Report, inputs: HtmlInputs) -> Path:
    """Write the report; return the path of the page a browser opens.

    ``out`` a folder (created): ``index.html``, ``plotly.min.js`` once, and
    one small script per replay, loaded when picked. ``out`` a file name
    ending in ``.html`` (:func:`single_file`): one page with Plotly and every
    replay inline, to mail or attach as it is.
    """
    go = _plotly()
    import plotly.offline

    one = single_file(out)
    plotly_js = plotly.offline.get_plotlyjs()
    if one:
        out.parent.mkdir(parents=True, exist_ok=True)
        # Plotly's own to_html(include_plotlyjs=True) inlines it so: it holds
        # no "</script>". Held as text, run after the first paint (_PLOTS).
        library = f'<script type="text/plain" id="troef-plotly">{plotly_js}</script>'
    else:
        out.mkdir(parents=True, exist_ok=True)
        (out / "plotly.min.js").write_text(plotly_js, encoding="utf-8")
        library = '<script defer src="plotly.min.js"></script>'
    model = report_model(report)
    data = model.as_json()
    sections: list[tuple[str, str, str]] = []

    sections.append(
        (
            "standings",
            "Standings",
            _grid(*standings_display(model), "standings-table")
            + _standings_plot(go, data),
        )
    )
    tiers = "".join(
        f"<li>tier {i}: {html.escape(', '.join(t))}</li>"
        for i, t in enumerate(data["tiers"], 1)
    )
    sections.append(
        (
            "tiers",
            "Tiers",
            f"<p>Entrants no pair test separates share a tier.</p><ol>{tiers}</ol>",
        )
    )
    if data["pairs"]:
        sections.append(("crosstable", "Crosstable", _crosstable_plot(go, data)))
        sections.append(
            (
                "significance",
                "Pairwise significance",
                _significance_plot(go, data) + _pairs_tables(model),
            )
        )
    sections.append(
        ("scores", "Score distributions", _score_plot(go, data, inputs.matches))
    )
    if data["seat_advantage"] is not None:
        interval = model.seat_advantage_interval
        extra = "" if interval is None else f" ({interval[0]:.0f} to {interval[1]:.0f})"
        sections.append(
            (
                "seat-advantage",
                "Seat advantage",
                f"<p>The first seat is worth {data['seat_advantage']:.0f} Elo"
                f"{extra}.</p>",
            )
        )
    if model.forfeits:
        sections.append(
            (
                "forfeits",
                "Forfeits",
                _forfeit_plot(go, model.forfeits)
                + _table(model.forfeits, "forfeits-table"),
            )
        )
    else:
        sections.append(("forfeits", "Forfeits", "<p>No bot forfeited a match.</p>"))
    if model.thinking:
        rows = [
            {
                "entrant": r["entrant"],
                "decisions": r["moves"],
                "seconds": round(r["seconds"], 3),
                "mean ms": round(1000 * r["seconds"] / r["moves"], 3)
                if r["moves"]
                else None,
                "longest ms": round(1000 * r["longest_seconds"], 3),
            }
            for r in model.thinking
        ]
        sections.append(
            (
                "thinking",
                "Time used",
                _thinking_plot(go, model.thinking) + _table(rows, "thinking-table"),
            )
        )
    if inputs.snapshot.get("format") == "ladder":
        history = _ladder_history(inputs.snapshot, inputs.matches)
        sections.append(("ladder", "Rating history", _ladder_plot(go, history)))
    sections.append(
        (
            "config",
            "Configuration",
            _config_section(inputs),
        )
    )
    replays = _replay_scripts(inputs)
    if not one and replays:
        folder = out / "replays"
        folder.mkdir(exist_ok=True)
        for r in replays:
            (folder / r["file"]).write_text(r["script"], encoding="utf-8")
    sections.append(("replays", "Replays", _replay_section(replays, inputs)))

    notes = [*data["notes"], *inputs.notes]
    head = (
        f"<p>{data['matches']} matches.</p>"
        + (f"<pre id='sprt'>{html.escape(model.sprt)}</pre>" if model.sprt else "")
        + "".join(f"<p class='note'>{html.escape(n)}</p>" for n in notes)
    )
    nav = " · ".join(f"<a href='#{k}'>{html.escape(t)}</a>" for k, t, _ in sections)
    body = "".join(
        f"<section id='{k}'><h2>{html.escape(t)}</h2>{content}</section>"
        for k, t, content in sections
    )
    inline = "".join(f"<script>{r['script']}</script>" for r in replays) if one else ""
    drawing_js, drawing_css = drawing()
    page = _PAGE.format(
        plots=_PLOTS,
        drawing_js=drawing_js,
        drawing_css=drawing_css,
        title=html.escape(data["title"]),
        library=library,
        head=head,
        nav=nav,
        body=body,
        replays=inline,
        script=_SCRIPT,
    )
    index = out if one else out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def _replay_scripts(inputs: HtmlInputs) -> list[dict[str, Any]]:
    """One script per replayed match (its name, label and text), in order."""
    logged = [m for m in inputs.matches if m.result.log is not None]
    if inputs.replays is not None:
        logged = logged[: inputs.replays]
    if not logged or inputs.game_of is None:
        return []
    listed = []
    for k, match in enumerate(logged):
        data = compact_replay(replay_frames(inputs.game_of(match.job), match))
        name = f"match-{k:04d}.js"
        # "</" escaped: the single-file page holds the script inline, and a
        # narration line must never end its <script> element.
        text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
        listed.append(
            {
                "file": name,
                "script": f"window.TROEF_REPLAYS[{json.dumps(name)}]={text};\n",
                "label": f"#{match.job.get('index', k)} "
                + " · ".join(match.job["seating"])
                + f" — scores {' '.join(str(s) for s in match.result.scores)}",
            }
        )
    return listed


def _replay_section(replays: Sequence[dict[str, Any]], inputs: HtmlInputs) -> str:
    logged = sum(1 for m in inputs.matches if m.result.log is not None)
    if not replays:
        why = (
            "no match was recorded with its log (set keep_logs = true)"
            if not logged
            else "replays were not asked for"
        )
        return f"<p>No replays: {why}.</p>"
    options = "".join(
        f"<option value='{html.escape(r['file'])}'>{html.escape(r['label'])}</option>"
        for r in replays
    )
    shown = f"{len(replays)} of {logged} recorded matches with logs"
    return _REPLAY.format(options=options, shown=shown)


#: Draws the plots once Plotly is there: its 4.8 MB parsed in the page's
#: <head> held the first paint back by seconds. A folder's page loads it
#: deferred (run after the page is parsed, before DOMContentLoaded); the
#: single file holds it as text and runs it after the first paint. Each plot's
#: script (plots._figure_html) is inert text until then.
_PLOTS = """(function () {
  function draw() {
    for (const held of document.querySelectorAll("script.troef-plot")) {
      const run = document.createElement("script");
      run.text = held.textContent;
      held.replaceWith(run);
    }
  }
  const inline = document.getElementById("troef-plotly");
  if (!inline) { document.addEventListener("DOMContentLoaded", draw); return; }
  requestAnimationFrame(() => setTimeout(() => {
    const run = document.createElement("script");
    run.text = inline.textContent;
    document.head.append(run);
    draw();
  }, 0));
})();"""

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1100px;
  padding: 0 1em; color: #222; }}
table {{ border-collapse: collapse; margin: .5em 0; font-size: 90%; }}
th, td {{ border: 1px solid #ccc; padding: .2em .5em; text-align: right; }}
.wide th, .wide td {{ white-space: nowrap; }}
th.l, td.l {{ text-align: left; }}
.wide th.w, .wide td.w {{ white-space: normal; min-width: 16em; text-align: left; }}
.wide {{ max-width: 100%; overflow-x: auto; }}
details summary {{ cursor: pointer; color: #335; }}
th {{ background: #f3f3f3; }}
section {{ margin-top: 2em; }}
.note {{ color: #555; font-size: 90%; }}
.plot {{ min-height: 200px; }}
.card {{ display: inline-block; border: 1px solid #999; border-radius: 4px;
  padding: 0 .25em; margin: 1px; background: #fff; font-weight: 600;
  min-width: 1.8em; text-align: center; }}
.card.red {{ color: #c00; }} .card.black {{ color: #111; }}
.card.trump {{ color: #6a2c91; background: #f6efff; }}
#replay-panels {{ display: flex; gap: 1em; align-items: flex-start; }}
#replay-table .words {{ font-size: 90%; }}
@media (max-width: 800px) {{ #replay-panels {{ flex-direction: column; }}
  #replay-view, #replay-log {{ width: 100%; }} }}
#replay-view {{ flex: 3; min-width: 0; overflow-x: auto; }}
#replay-log {{ flex: 2; min-width: 0; max-height: 420px;
  overflow-y: auto; font-family: monospace; font-size: 85%; background: #fafafa;
  border: 1px solid #ddd; padding: .4em; }}
#replay-log .now {{ background: #fff3b0; }}
#replay-view td, #replay-view th {{ text-align: left; vertical-align: top; }}
.controls button {{ margin: 2px; }}
.controls label {{ display: inline-block; max-width: 100%; }}
.controls select {{ max-width: 100%; }}
</style>
<style>{drawing_css}</style>
{library}
</head><body>
<h1>{title}</h1>
{head}
<nav>{nav}</nav>
{body}
<script>window.TROEF_REPLAYS = {{}};</script>
{replays}
<script>{drawing_js}</script>
<script>{script}</script>
<script>{plots}</script>
</body></html>
"""
