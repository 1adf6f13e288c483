"""``render``: a report in one of :data:`FORMATS`, by its renderer in :data:`RENDERERS`.

The renderers are collected here, one per format (text and Markdown from
``harness.report.text``, JSON and CSV from ``harness.report.exports``), with
:data:`TABLES`, the tables ``troef report --table`` picks from.
"""

from __future__ import annotations

from collections.abc import Callable

from harness.report.exports import _render_csv, _render_json
from harness.report.model import Report, ReportModel, report_model
from harness.report.text import _render_markdown, _render_text

__all__ = [
    "FORMATS",
    "RENDERERS",
    "TABLES",
    "Renderer",
    "render",
]

#: The tables of a report, one per CSV export (``troef report --table``).
TABLES = ("standings", "pairs", "crosstable", "forfeits", "thinking")


#: Renders a model as one format; the second argument is ``--table`` (or None).
Renderer = Callable[[ReportModel, str | None], str]


def render(report: Report, fmt: str = "text", table: str | None = None) -> str:
    """The report in one of :data:`FORMATS`, by its renderer in :data:`RENDERERS`.

    :param table: with ``csv``, which of :data:`TABLES` (default standings):
        one table per stream, so that each has one header; with any other
        format, only that table (None: all of them).
    """
    if table is not None and table not in TABLES:
        raise ValueError(f"table {table!r}: expected one of {', '.join(TABLES)}")
    if fmt not in RENDERERS:
        raise ValueError(f"format {fmt!r}: expected one of {', '.join(FORMATS)}")
    return RENDERERS[fmt](report_model(report), table)


#: One renderer per format: adding a format adds a line here and touches no other.
RENDERERS: dict[str, Renderer] = {
    "text": _render_text,
    "markdown": _render_markdown,
    "json": _render_json,
    "csv": _render_csv,
}
#: The formats of ``troef report --format``.
FORMATS = tuple(RENDERERS)
