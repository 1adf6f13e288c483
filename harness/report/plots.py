"""The HTML report's plots, drawn with Plotly from the report model's export.

Standings with their intervals, the crosstable as a heat map, the
Holm-corrected significance matrix, score distributions per entrant,
forfeits, thinking time and, for a ladder, the rating history. Each plot
function takes Plotly's ``graph_objects`` (imported by the page, which says
how to install it) and returns its ``<div>``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from harness.stats.elo import OnlineElo

if TYPE_CHECKING:
    from harness.tournament.store import StoredMatch


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
    # Inert until Plotly is loaded (html._PLOTS runs it): the library comes
    # after the page's first paint.
    text = text.replace("<script>", '<script type="text/plain" class="troef-plot">', 1)
    return f'<div class="plot" data-plot="{div_id}">{text}</div>'


def _num(x: Any) -> float | None:
    if isinstance(x, int | float) and math.isfinite(x):
        return float(x)
    return None


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
