"""The text and Markdown reports: every table of the model, tabulated, with its notes.

The ``*_display`` functions give the headings and formatted cells a person
reads; the HTML report (``harness.report.html``) takes its standings and pairs
tables from them too, so no two formats disagree on a heading or a rounding.
"""

from __future__ import annotations

import math
from typing import Any

from tabulate import tabulate

from harness.report import tables
from harness.report.model import ReportModel
from harness.report.numbers import _elo, _fmt, _p

__all__ = [
    "pair_details_display",
    "pairs_display",
    "standings_display",
]


def _render_text(model: ReportModel, table: str | None) -> str:
    return _render_tables(model, "simple", "", table)


def _render_markdown(model: ReportModel, table: str | None) -> str:
    return _render_tables(model, "github", "## ", table)


def standings_display(model: ReportModel) -> tuple[list[str], list[list[Any]]]:
    """The standings as a person reads them: headings and formatted cells.

    Shared by the text and Markdown reports and the HTML report, so that every
    format a person reads says "LOS next %" and a score in percent alike.
    """
    conf = f"{100 * model.confidence:.0f}%"
    rows: list[list[Any]] = [
        [
            r["rank"],
            r["tier"],
            r["entrant"],
            _fmt(r["rating"]),
            f"[{_fmt(r['lower'])}, {_fmt(r['upper'])}]",
            r["games"],
            _fmt(100 * r["score"] if r["score"] == r["score"] else None),
            _fmt(r["los_next"] and 100 * r["los_next"]),
            ", ".join(r["flags"]),
        ]
        for r in model.standings
    ]
    headers = [
        "#",
        "tier",
        "entrant",
        "elo",
        f"{conf} interval",
        "games",
        "score %",
        "LOS next %",
        "notes",
    ]
    if model.bootstrap_rounds is not None:
        headers.insert(5, f"bootstrap ({model.bootstrap_rounds} × sets)")
        for row, r in zip(rows, model.standings, strict=True):
            row.insert(
                5, f"[{_fmt(r['bootstrap_lower'])}, {_fmt(r['bootstrap_upper'])}]"
            )
    return headers, rows


def pairs_display(model: ReportModel) -> tuple[list[str], list[list[Any]]]:
    """The pairwise tests as the text report shows them: headings and cells."""
    rows: list[list[Any]] = [
        [
            f"{p['a']} - {p['b']}",
            f"{p['wins']}-{p['draws']}-{p['losses']}",
            p["samples"],
            f"{100 * p['score']:.1f}",
            f"{_elo(p['elo'])} [{_fmt(p['lower'], '+.0f')}, "
            f"{_fmt(p['upper'], '+.0f')}]",
            f"{100 * p['los']:.1f}",
            p["test"],
            _p(p["p_value"]),
            _p(p["p_holm"]),
            "*" if p["significant"] else "",
        ]
        for p in model.pairs
    ]
    headers = [
        "pair",
        "W-D-L",
        "samples",
        "score %",
        "elo diff",
        "LOS %",
        "test",
        "p",
        "p Holm",
        "sig.",
    ]
    return headers, rows


def pair_details_display(model: ReportModel) -> tuple[list[str], list[list[Any]]]:
    """Every test of each pair, formatted like :func:`pairs_display`'s p.

    ``p`` is the headline test's (``test``); the others are shown for a reader
    who wants to see whether they agree. ``p floor`` is the smallest p the
    headline test can give at the pair's sample size.
    """
    rows: list[list[Any]] = [
        [
            f"{p['a']} - {p['b']}",
            p["test"],
            _p(p["p_sign"]),
            _p(p["p_wilcoxon"]),
            _p(p["p_ttest"]),
            _fmt(p["mean_difference"], "+.2f"),
            _p(p["p_floor"]),
        ]
        for p in model.pairs
    ]
    headers = [
        "pair",
        "test",
        "p sign",
        "p Wilcoxon",
        "p t-test",
        "mean difference",
        "p floor",
    ]
    return headers, rows


def _render_tables(
    model: ReportModel, table_fmt: str, heading: str, table: str | None = None
) -> str:
    """Text and Markdown: every table, tabulated, with its notes.

    Ruling: with ``table`` (``--table``), only that table and its notes,
    as with CSV and JSON; the standings keep the report's title line, which
    says what the ratings are anchored to. An empty forfeits or thinking
    table says so rather than printing nothing.
    """
    sections: dict[str, list[str]] = {}
    anchor = (
        f"anchored to {model.anchor} = {model.anchor_rating:g}"
        if model.anchor
        else "pool mean = 0"
    )
    conf = f"{100 * model.confidence:.0f}%"
    kind = (
        "Plackett-Luce ratings (Elo scale)"
        if model.model == "plackett-luce"
        else "Elo ratings"
    )
    out = sections["standings"] = [
        f"{heading}{model.title}: {model.matches} matches; "
        f"{kind}, {anchor}, {conf} intervals",
        "",
    ]
    headers, rows = standings_display(model)
    out.append(tabulate(rows, headers=headers, tablefmt=table_fmt))
    if model.seat_advantage is not None:
        lo, hi = model.seat_advantage_interval or (math.nan, math.nan)
        out.append(
            f"\nseat advantage (first seat): {model.seat_advantage:+.1f} "
            f"[{lo:+.1f}, {hi:+.1f}]"
        )
    out += tables.notes(model.notes)
    out = sections["crosstable"] = [
        f"{heading}Crosstable (row's score against column, pairwise games)",
        "",
    ]
    grid_headers, body = model.crosstable_grid
    headers = ["entrant", *grid_headers[1:]]
    out.append(tabulate(body, headers=headers, tablefmt=table_fmt))
    out = sections["pairs"] = [
        f"{heading}Pairwise tests (Holm-corrected across {len(model.pairs)} pairs; "
        "* = significant at 5%)",
        "",
    ]
    headers, prow = pairs_display(model)
    out.append(tabulate(prow, headers=headers, tablefmt=table_fmt))
    out += tables.notes(model.small_sample_notes)
    tiers = "  >  ".join("{" + ", ".join(t) + "}" for t in model.tiers)
    out += ["", f"tiers (statistically tied within braces): {tiers}"]
    fmt = "markdown" if heading else "text"
    if model.sprt is not None:
        sections["sprt"] = [model.sprt]
    lost = [(r["entrant"], r["reason"], r["matches"]) for r in model.forfeits]
    sections["forfeits"] = (
        [tables.forfeit_table(lost, fmt)] if lost else ["no match ended in a forfeit"]
    )
    spent = [
        (r["entrant"], r["moves"], r["seconds"], r["longest_seconds"])
        for r in model.thinking
    ]
    sections["thinking"] = (
        [tables.thinking_table(spent, fmt)]
        if spent
        else ["no thinking time is recorded"]
    )
    if table is not None:
        return "\n".join(sections[table])
    # The whole report leaves out the empty forfeits and thinking tables.
    empty = {"forfeits": not lost, "thinking": not spent}
    shown = [lines for name, lines in sections.items() if not empty.get(name)]
    return "\n\n".join("\n".join(lines) for lines in shown)
