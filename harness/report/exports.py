"""The JSON and CSV exports of a report, the formats a program reads.

JSON is the model's :meth:`~harness.report.model.ReportModel.as_json` (NaN and
infinities as null); CSV is one table per stream, so that each has one header.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from harness.report.model import ReportModel


def _render_json(model: ReportModel, table: str | None) -> str:
    data = model.as_json()
    if table is not None:
        data = {table: data[table]}
    return json.dumps(data, indent=2, allow_nan=False, default=_nan_to_none)


def _nan_to_none(x: Any) -> Any:
    raise TypeError(f"not JSON serialisable: {x!r}")


#: The header of an empty CSV table whose columns no row names.
_EMPTY_COLUMNS = {
    "forfeits": ["entrant", "reason", "matches"],
    "thinking": ["entrant", "moves", "seconds", "longest_seconds"],
}


def _render_csv(model: ReportModel, table: str | None) -> str:
    rows: list[dict[str, Any]]
    table = table or "standings"
    if table == "standings":
        rows = [{**r, "flags": ";".join(r["flags"])} for r in model.standings]
    else:
        rows = {
            "pairs": model.pairs,
            "crosstable": model.crosstable,
            "forfeits": model.forfeits,
            "thinking": model.thinking,
        }[table]
    buffer = io.StringIO()
    writer = csv.DictWriter(
        buffer,
        fieldnames=list(rows[0]) if rows else _EMPTY_COLUMNS.get(table, ["rank"]),
        lineterminator="\n",
    )
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue().rstrip("\n")
