"""``troef report DB --html DIR|FILE.html``: the report a browser opens offline.

``DIR/index.html`` holds the tables and the plots; ``DIR/plotly.min.js`` is
the plotting library, copied once from the ``plotly`` package (it ships the
JavaScript in its wheel, so nothing is fetched at view time);
``DIR/replays/*.js`` hold one recorded match each (compacted: each step's
changes), loaded when picked. A name ending in ``.html`` gets the same page
as one file, Plotly and every replay inline. Plots
are drawn with Plotly (see docs/REPORT.md for why): standings with their
intervals, the crosstable as a heat map, the Holm-corrected significance
matrix, score distributions per entrant, forfeits, thinking time and, for a
ladder, the rating history.

The replay viewer steps a match action by action, trick by trick and deal by
deal. Each step holds what the game's narration said, every seat's View as
``State.view(seat)`` gives it (the very View a bot at that seat received when
it was to act) and the referee's ``card_locations()``; it is rebuilt by
replaying the stored log from the match seed, so it needs ``keep_logs``.
"""

from __future__ import annotations

import html
import json
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from harness.contracts.errors import TroefError
from harness.contracts.game import Game
from harness.match.narration import Narrator
from harness.report.model import Report, ReportModel, report_model
from harness.report.text import pair_details_display, pairs_display, standings_display
from harness.stats.elo import OnlineElo
from harness.tournament.store import StoredMatch

__all__ = [
    "HtmlInputs",
    "compact_replay",
    "replay_frames",
    "shown_config",
    "single_file",
    "write_html_report",
]

#: Trick play is told in lines like "trick 3 to seat 1: 35 points".
_TRICK = re.compile(r"\btrick\b", re.IGNORECASE)


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


def _figure_html(fig: Any, div_id: str) -> str:
    import plotly.io as pio

    fig.update_layout(
        template="plotly_white", margin={"l": 60, "r": 20, "t": 50, "b": 50}
    )
    text: str = pio.to_html(
        fig,
        full_html=False,
        include_plotlyjs=False,
        div_id=div_id,
        config={"displaylogo": False, "responsive": True},
    )
    return f'<div class="plot" data-plot="{div_id}">{text}</div>'


def _num(x: Any) -> float | None:
    if isinstance(x, int | float) and math.isfinite(x):
        return float(x)
    return None


# -- plots -----------------------------------------------------------------


def _standings_plot(go: Any, data: Mapping[str, Any]) -> str:
    rows = data["standings"]
    fig = go.Figure()
    tiers = sorted({r["tier"] for r in rows if r["tier"] is not None})
    for tier in [*tiers, None]:
        part = [r for r in rows if r["tier"] == tier]
        if not part:
            continue
        ratings = [_num(r["rating"]) or 0.0 for r in part]
        fig.add_trace(
            go.Scatter(
                x=ratings,
                y=[r["entrant"] for r in part],
                mode="markers",
                name=f"tier {tier}" if tier is not None else "unrated",
                marker={"size": 11},
                error_x={
                    "type": "data",
                    "symmetric": False,
                    "array": [
                        (_num(r["upper"]) or x) - x
                        for r, x in zip(part, ratings, strict=True)
                    ],
                    "arrayminus": [
                        x - (_num(r["lower"]) or x)
                        for r, x in zip(part, ratings, strict=True)
                    ],
                },
                hovertemplate="%{y}: %{x:.0f} Elo<extra></extra>",
            )
        )
    confidence = round(100 * float(data["confidence"]))
    fig.update_layout(
        title=f"Ratings with {confidence}% intervals (Elo)",
        height=120 + 40 * len(rows),
        xaxis_title="Elo",
        yaxis={
            "categoryorder": "array",
            "categoryarray": [r["entrant"] for r in reversed(rows)],
        },
    )
    return _figure_html(fig, "plot-standings")


def _order(data: Mapping[str, Any]) -> list[str]:
    return [r["entrant"] for r in data["standings"]]


def _crosstable_plot(go: Any, data: Mapping[str, Any]) -> str:
    order = _order(data)
    cell = {(r["entrant"], r["opponent"]): r for r in data["crosstable"]}
    z: list[list[float | None]] = []
    text: list[list[str]] = []
    for a in order:
        z.append([])
        text.append([])
        for b in order:
            r = cell.get((a, b))
            score = None if r is None else _num(r["score"])
            z[-1].append(None if score is None else 100 * score)
            text[-1].append(
                ""
                if r is None or score is None
                else f"{100 * score:.0f}% ({r['games']})"
            )
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=order,
            y=order,
            text=text,
            texttemplate="%{text}",
            zmin=0,
            zmax=100,
            colorscale="RdBu",
            colorbar={"title": "score %"},
            hovertemplate="%{y} against %{x}: %{text}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Crosstable: the row's score against the column (games)",
        height=200 + 45 * len(order),
        yaxis={"autorange": "reversed"},
    )
    return _figure_html(fig, "plot-crosstable")


def _significance_plot(go: Any, data: Mapping[str, Any]) -> str:
    order = _order(data)
    index = {e: i for i, e in enumerate(order)}
    n = len(order)
    z: list[list[float | None]] = [[None] * n for _ in range(n)]
    text = [[""] * n for _ in range(n)]
    for p in data["pairs"]:
        if p["a"] not in index or p["b"] not in index:
            continue
        holm = _num(p["p_holm"])
        score = _num(p["score"]) or 0.5
        for a, b, sign in ((p["a"], p["b"], 1), (p["b"], p["a"], -1)):
            better = sign * (score - 0.5)
            verdict = 0.0
            if p["significant"]:
                verdict = 1.0 if better > 0 else -1.0
            z[index[a]][index[b]] = verdict
            text[index[a]][index[b]] = (
                "p n/a"
                if holm is None
                else f"p={holm:.3g}{'*' if p['significant'] else ''}"
            )
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=order,
            y=order,
            text=text,
            texttemplate="%{text}",
            zmin=-1,
            zmax=1,
            colorscale=[[0, "#d6604d"], [0.5, "#eeeeee"], [1, "#4393c3"]],
            showscale=False,
            hovertemplate="%{y} vs %{x}: %{text}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Pairwise significance (Holm-corrected p; * significant at 5%)",
        height=200 + 45 * n,
        yaxis={"autorange": "reversed"},
    )
    return _figure_html(fig, "plot-significance")


def _score_plot(
    go: Any, data: Mapping[str, Any], matches: Sequence[StoredMatch]
) -> str:
    scores: dict[str, list[int]] = {e: [] for e in _order(data)}
    for m in matches:
        for seat, entrant in enumerate(m.job["seating"]):
            scores.setdefault(entrant, []).append(m.result.scores[seat])
    fig = go.Figure()
    for entrant, values in scores.items():
        fig.add_trace(
            go.Box(y=values, name=entrant, boxpoints="all", jitter=0.4, pointpos=0)
        )
    fig.update_layout(
        title="Match scores per entrant (every seat it played)",
        height=420,
        showlegend=False,
        yaxis_title="match score",
    )
    return _figure_html(fig, "plot-scores")


def _forfeit_plot(go: Any, forfeits: Sequence[Mapping[str, Any]]) -> str:
    fig = go.Figure()
    for reason in sorted({r["reason"] for r in forfeits}):
        part = [r for r in forfeits if r["reason"] == reason]
        fig.add_trace(
            go.Bar(
                x=[r["entrant"] for r in part],
                y=[r["matches"] for r in part],
                name=reason,
            )
        )
    fig.update_layout(
        title="Forfeits by entrant and reason",
        barmode="stack",
        height=360,
        yaxis_title="matches",
    )
    return _figure_html(fig, "plot-forfeits")


def _thinking_plot(go: Any, thinking: Sequence[Mapping[str, Any]]) -> str:
    names = [r["entrant"] for r in thinking]
    fig = go.Figure(
        [
            go.Bar(
                x=names,
                y=[
                    1000 * r["seconds"] / r["moves"] if r["moves"] else 0
                    for r in thinking
                ],
                name="mean ms per decision",
            ),
            go.Bar(
                x=names,
                y=[1000 * r["longest_seconds"] for r in thinking],
                name="longest decision ms",
            ),
        ]
    )
    fig.update_layout(title="Time used per entrant", height=380, yaxis_title="ms")
    return _figure_html(fig, "plot-thinking")


def _ladder_history(
    snapshot: Mapping[str, Any], matches: Sequence[StoredMatch]
) -> dict[str, list[float]]:
    """Each entrant's online Elo after every match, replayed in plan order."""
    from harness.stats.standings import pairwise_outcomes

    settings = snapshot.get("ladder") or {}
    elo = OnlineElo(
        k=float(settings.get("k", 16)), initial=float(settings.get("initial", 1500))
    )
    entrants = list(snapshot.get("entrants", {}))
    history: dict[str, list[float]] = {e: [] for e in entrants}
    for m in matches:
        for a, b, score in pairwise_outcomes(m.job["seating"], m.result):
            elo.update(a, b, score)
        for e in history:
            history[e].append(elo.rating(e))
    for e, _ in elo:
        history.setdefault(e, [])
    return history


def _ladder_plot(go: Any, history: Mapping[str, list[float]]) -> str:
    fig = go.Figure(
        [
            go.Scatter(
                y=values, x=list(range(1, len(values) + 1)), name=e, mode="lines"
            )
            for e, values in history.items()
        ]
    )
    fig.update_layout(
        title="Ladder rating history (online Elo after each match)",
        height=420,
        xaxis_title="match",
        yaxis_title="Elo",
    )
    return _figure_html(fig, "plot-ladder")


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


# -- replays ---------------------------------------------------------------


def replay_frames(game: Game, match: StoredMatch) -> dict[str, Any]:
    """A recorded match step by step, rebuilt from its seed and log.

    Step 0 is the deal before any action; step k follows the k-th action. Each
    step holds the narration's lines, the deal, every seat's View and the
    referee's card locations.
    """
    log = match.result.log
    if log is None:
        raise TroefError(f"match {match.job['id']} was recorded without its log")
    seating = list(match.job["seating"])
    narrator = Narrator(game, match.job["seed"], seating)
    frames = [_frame(narrator, None, None, narrator.start())]
    for action in log:
        actor = narrator.state.to_act
        frames.append(_frame(narrator, action, actor, narrator.tell(action)))
    if match.result.forfeit is not None:
        frames[-1]["l"].append(narrator.forfeit(match.result.forfeit))
    if match.result.ended is not None:
        frames[-1]["l"].append(f"match ended by the referee: {match.result.ended}")
    state = narrator.state
    return {
        "id": match.job["id"],
        "game": game.title,
        "seed": match.job["seed"],
        "seating": seating,
        "deck": sorted(set(state.deck())),
        "result": {
            "scores": list(match.result.scores),
            "ranks": list(match.result.ranks),
            "deal_points": [list(d) for d in match.result.deal_points],
        },
        "frames": frames,
    }


def _frame(
    narrator: Narrator, action: str | None, actor: int | None, lines: list[str]
) -> dict[str, Any]:
    state = narrator.state
    return {
        "a": action,
        "s": actor,
        "d": state.deal,
        "o": state.is_over(),
        "t": any(_TRICK.search(line) for line in lines),
        "l": lines,
        "v": [json.loads(state.view(s).to_json()) for s in range(state.n_seats)],
        "p": {k: list(v) for k, v in state.card_locations().items()},
    }


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
        # no "</script>".
        library = f"<script>{plotly_js}</script>"
    else:
        out.mkdir(parents=True, exist_ok=True)
        (out / "plotly.min.js").write_text(plotly_js, encoding="utf-8")
        library = '<script src="plotly.min.js"></script>'
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
    page = _PAGE.format(
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


#: A compact frame's keys: the fields a step removed, and the lists it
#: lengthened, with only their new items (see compact_replay).
_GONE = "~"
_GREW = "+"


def _delta(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    changed: dict[str, Any] = {}
    grew: dict[str, Any] = {}
    for k, v in after.items():
        old = before.get(k)
        if k in before and old == v:
            continue
        if isinstance(old, list) and isinstance(v, list) and old == v[: len(old)]:
            grew[k] = v[len(old) :]  # a trick or a history one item longer
        else:
            changed[k] = v
    gone = [k for k in before if k not in after]
    if gone:
        changed[_GONE] = gone
    if grew:
        changed[_GREW] = grew
    return changed


def compact_replay(data: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`replay_frames`' data with each step's views and card places as
    changes from the step before (the viewer rebuilds them when a match loads).

    One action changes a field or two of a View, and a list that grows (the
    tricks of the deal) is sent only its new items, so this is a fraction of
    the size: every seat's whole View at every step is what made a report
    folder grow by megabytes per long match.
    """
    frames = []
    views: list[Mapping[str, Any]] = []
    places: Mapping[str, Any] = {}
    for frame in data["frames"]:
        seats = frame["v"]
        views = views or [{} for _ in seats]
        frames.append(
            {
                **frame,
                "v": [_delta(v, w) for v, w in zip(views, seats, strict=True)],
                "p": _delta(places, frame["p"]),
            }
        )
        views, places = seats, frame["p"]
    return {**data, "frames": frames, "compact": True}


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
#replay-view {{ flex: 3; min-width: 0; overflow-x: auto; }}
#replay-log {{ flex: 2; min-width: 0; max-height: 420px;
  overflow-y: auto; font-family: monospace; font-size: 85%; background: #fafafa;
  border: 1px solid #ddd; padding: .4em; }}
#replay-log .now {{ background: #fff3b0; }}
#replay-view td, #replay-view th {{ text-align: left; vertical-align: top; }}
.controls button {{ margin: 2px; }}
</style>
{library}
</head><body>
<h1>{title}</h1>
{head}
<nav>{nav}</nav>
{body}
<script>window.TROEF_REPLAYS = {{}};</script>
{replays}
<script>{script}</script>
</body></html>
"""

_REPLAY = """<p>{shown}. A seat's view is the View that seat's bot received
(what a player at that seat knew); the referee sees every card.</p>
<div class="controls">
<label>match <select id="replay-match">{options}</select></label>
<label>view <select id="replay-seat"></select></label>
</div>
<div class="controls">
<button id="prev-deal">&laquo; deal</button>
<button id="prev-trick">&#x25C0;&#x25C0; trick</button>
<button id="prev-step">&#x25C0; step</button>
<button id="next-step">step &#x25B6;</button>
<button id="next-trick">trick &#x25B6;&#x25B6;</button>
<button id="next-deal">deal &raquo;</button>
<input id="replay-slider" type="range" min="0" max="0" value="0">
<span id="replay-position"></span>
</div>
<div id="replay-panels"><div id="replay-view"></div><div id="replay-log"></div></div>
<h3>Scores after each deal</h3><div id="replay-scores"></div>
"""

# The viewer: plain DOM, no library. Cards are strings of the match's deck;
# everything else of a View is drawn as a small table of its fields.
_SCRIPT = r"""
window.TROEF_REPLAYS = window.TROEF_REPLAYS || {};
// A compact replay (harness.report.html.compact_replay) holds each step's
// views and card places as changes from the step before: rebuilt once here.
function troefExpand(match) {
  if (!match.compact) return match;
  let views = [], places = {};
  const apply = (before, change) => {
    const after = Object.assign({}, before, change);
    for (const k of change["~"] || []) delete after[k];
    for (const [k, tail] of Object.entries(change["+"] || {})) {
      after[k] = before[k].concat(tail);
    }
    delete after["~"];
    delete after["+"];
    return after;
  };
  for (const f of match.frames) {
    views = f.v.map((change, s) => apply(views[s] || {}, change));
    places = apply(places, f.p);
    f.v = views;
    f.p = places;
  }
  match.compact = false;
  return match;
}
(function () {
  const $ = (id) => document.getElementById(id);
  if (!$("replay-match")) return;
  const SUIT = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  let match = null, deck = new Set(), step = 0, seat = "referee";

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function card(c) {
    const suit = c.slice(-1), rank = c.slice(0, -1);
    const red = suit === "D" || suit === "H";
    const e = el("span", "card " + (suit === "T" ? "trump" : red ? "red" : "black"));
    // The rank as the notation writes it (TC is T\u2663, tarot's 10D 10\u2666),
    // so a chip reads as the narration and docs/CARDS.md spell the card.
    e.textContent = SUIT[suit] ? rank + SUIT[suit]
      : suit === "T" ? rank + "\u2605" : c;
    e.dataset.card = c;
    e.title = c;
    return e;
  }
  function value(v) {
    if (typeof v === "string" && deck.has(v)) return card(v);
    if (Array.isArray(v)) {
      const box = el("span", "list");
      box.append("[");
      v.forEach((x, i) => { if (i) box.append(" "); box.append(value(x)); });
      box.append("]");
      return box;
    }
    if (v !== null && typeof v === "object") {
      const t = el("table");
      for (const [k, x] of Object.entries(v)) {
        const tr = el("tr"); tr.append(el("th", "", k));
        const td = el("td"); td.append(value(x)); tr.append(td); t.append(tr);
      }
      return t;
    }
    return document.createTextNode(v === null ? "-" : String(v));
  }
  function fields(obj, first, attr) {
    const t = el("table");
    const keys = Object.keys(obj);
    keys.sort((a, b) => (first.indexOf(b) >= 0) - (first.indexOf(a) >= 0));
    for (const k of keys) {
      const tr = el("tr"); tr.dataset[attr] = k;
      tr.append(el("th", "", k));
      const td = el("td"); td.append(value(obj[k])); tr.append(td); t.append(tr);
    }
    return t;
  }
  function show() {
    if (!match) return;
    const f = match.frames[step];
    const box = $("replay-view");
    box.replaceChildren();
    if (seat === "referee") {
      box.append(el("h4", "", "Referee's view: every card of the match"));
      box.append(fields(f.p, [], "place"));
    } else {
      const s = Number(seat);
      const who = match.seating[s];
      box.append(el("h4", "", "Seat " + s + " (" + who + "): the View its bot received"
        + (f.v[s].legal_actions.length ? ", to act" : "")));
      box.append(fields(f.v[s], ["hand", "legal_actions", "trick"], "field"));
    }
    const pos = $("replay-position");
    pos.textContent = "step " + step + " / " + (match.frames.length - 1)
      + ", deal " + f.d + (f.a ? ", last action " + f.a : "");
    $("replay-slider").value = String(step);
    const log = $("replay-log");
    log.replaceChildren();
    let now = null;
    match.frames.slice(0, step + 1).forEach((g, i) => {
      for (const line of g.l) {
        const p = el("div", i === step ? "now" : "", line);
        log.append(p);
        if (i === step && !now) now = p;
      }
    });
    // Scroll the log box only, never the page: the viewer may be off screen.
    log.scrollTop = now ? now.offsetTop - log.offsetTop - 40 : log.scrollHeight;
    const rows = match.result.deal_points;
    const done = f.o ? rows.length : Math.min(f.d, rows.length);
    const t = el("table");
    const head = el("tr"); head.append(el("th", "", "deal"));
    match.seating.forEach((n, i) => head.append(el("th", "", i + " " + n)));
    t.append(head);
    const total = match.seating.map(() => 0);
    rows.slice(0, done).forEach((r, k) => {
      const tr = el("tr"); tr.append(el("td", "", String(k)));
      r.forEach((x, i) => {
        total[i] += x;
        tr.append(el("td", "", x + " (" + total[i] + ")"));
      });
      t.append(tr);
    });
    $("replay-scores").replaceChildren(t);
  }
  function go(k) {
    if (!match) return;
    step = Math.max(0, Math.min(match.frames.length - 1, k));
    show();
  }
  function seek(dir, test) {
    if (!match) return;
    for (let k = step + dir; k >= 0 && k < match.frames.length; k += dir) {
      if (test(k)) { go(k); return; }
    }
    go(dir > 0 ? match.frames.length - 1 : 0);
  }
  const fr = (k) => match.frames[k];
  const dealStart = (k) => k === 0 || fr(k).d !== fr(k - 1).d;
  function load(file) {
    const ready = () => {
      match = troefExpand(window.TROEF_REPLAYS[file]);
      deck = new Set(match.deck);
      const sel = $("replay-seat");
      sel.replaceChildren();
      const ref = el("option", "", "referee"); ref.value = "referee"; sel.append(ref);
      match.seating.forEach((n, i) => {
        const o = el("option", "", "seat " + i + " (" + n + ")"); o.value = String(i);
        sel.append(o);
      });
      sel.value = seat = (seat !== "referee" && Number(seat) < match.seating.length)
        ? seat : "referee";
      $("replay-slider").max = String(match.frames.length - 1);
      go(0);
    };
    if (window.TROEF_REPLAYS[file]) { ready(); return; }
    const s = document.createElement("script");
    s.src = "replays/" + file;
    s.onload = ready;
    document.body.append(s);
  }
  $("replay-match").addEventListener("change", (e) => load(e.target.value));
  $("replay-seat").addEventListener("change", (e) => {
    seat = e.target.value;
    show();
  });
  $("prev-step").addEventListener("click", () => go(step - 1));
  $("next-step").addEventListener("click", () => go(step + 1));
  $("prev-trick").addEventListener("click", () => seek(-1, (k) => fr(k).t));
  $("next-trick").addEventListener("click", () => seek(1, (k) => fr(k).t));
  $("prev-deal").addEventListener("click", () => seek(-1, dealStart));
  $("next-deal").addEventListener("click", () => seek(1, dealStart));
  $("replay-slider").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") go(step + 1);
    if (e.key === "ArrowLeft") go(step - 1);
  });
  load($("replay-match").value);
})();
"""
