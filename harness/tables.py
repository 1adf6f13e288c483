"""Tables a person reads at a glance, or a program reads: one helper per table.

Every table command prints through :func:`format_table`, so ``--format
text|markdown|json|csv`` means the same everywhere: text and Markdown through
tabulate, JSON as a list of objects keyed by the headers, CSV with one header
row. Light on imports: ``troef status`` and ``troef matches`` need no numpy.
"""

from __future__ import annotations

import csv
import io
import json
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from tabulate import tabulate

__all__ = [
    "FORMATS",
    "NOTE_WIDTH",
    "duration",
    "forfeit_table",
    "format_table",
    "notes",
    "thinking_table",
]

#: The formats of every table command's ``--format``.
FORMATS = ("text", "markdown", "json", "csv")
#: Notes are wrapped to this width, below the tables they explain.
NOTE_WIDTH = 100


def format_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    fmt: str = "text",
    *,
    colalign: Sequence[str] | None = None,
) -> str:
    """``rows`` under ``headers`` in one of :data:`FORMATS`."""
    if fmt == "json":
        return json.dumps([dict(zip(headers, row, strict=True)) for row in rows])
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)
        return out.getvalue().rstrip("\n")
    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r}: expected one of {', '.join(FORMATS)}")
    return tabulate(
        rows,
        headers=list(headers),
        tablefmt="github" if fmt == "markdown" else "simple",
        colalign=tuple(colalign) if colalign else None,
    )


def notes(lines: Iterable[str], width: int = NOTE_WIDTH) -> list[str]:
    """Each note wrapped below a table: ``note: ...`` with an indented rest."""
    return [
        textwrap.fill(line, width, initial_indent="note: ", subsequent_indent="      ")
        for line in lines
    ]


def _titled(title: str, table: str, fmt: str) -> str:
    if fmt in ("json", "csv"):
        return table
    heading = "## " if fmt == "markdown" else ""
    return f"{heading}{title}\n\n{table}"


def forfeit_table(forfeits: Sequence[tuple[str, str, int]], fmt: str = "text") -> str:
    """Forfeits by entrant and reason; 'troef matches --forfeits' has the details."""
    table = format_table(["entrant", "forfeit reason", "matches"], forfeits, fmt)
    return _titled("Forfeits (details: troef matches DATABASE --forfeits)", table, fmt)


def thinking_table(
    thinking: Sequence[tuple[str, int, float, float]], fmt: str = "text"
) -> str:
    """Each entrant's thinking time per move, as the referee measured it."""
    if fmt in ("json", "csv"):
        headers = ["entrant", "moves", "total seconds", "longest move seconds"]
        return format_table(headers, [list(row) for row in thinking], fmt)
    rows = [
        [
            entrant,
            decisions,
            duration(total / decisions) if decisions else "-",
            duration(longest),
            duration(total),
        ]
        for entrant, decisions, total, longest in thinking
    ]
    headers = ["entrant", "moves", "mean per move", "longest move", "total"]
    table = format_table(headers, rows, fmt)
    return _titled("Thinking time, as the referee measured it", table, fmt)


def duration(seconds: float) -> str:
    """Seconds for a person: 7 µs, 1.25 ms, 3.40 s."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.2f} s"
