"""Pins of every text format of ``troef report``: the text byte for byte, each
decimal number to ten significant digits (``tests/textmatch.py``: the last bits of
a fitted rating differ between CPUs).

The report renders each format from one model
(:func:`harness.report.model.report_model`); these pins were written before
that refactoring, from the formats as they were,
so a change of any renderer that alters a word or a number of another format
fails here. Rewrite them only for a deliberate change of the output:
``TROEF_WRITE_PINS=1 python -m pytest tests/harness/test_report_pins.py``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from harness.contracts.result import Result
from harness.report.model import RunFacts, build_report
from harness.report.render import TABLES, render
from tests.textmatch import mismatch

PINS = Path(__file__).parent / "report_pins"

#: Skill of each synthetic entrant: the chance-free part of its score.
SKILL = {"alpha": 3, "bravo": 2, "charlie": 1, "delta": 0}


def _matches(seats: int) -> list[tuple[list[str], Result, str | None]]:
    """Duplicate sets of synthetic matches, the same for every run (seeded)."""
    rng = random.Random(17)
    names = sorted(SKILL)
    matches: list[tuple[list[str], Result, str | None]] = []
    for k in range(24):
        table = rng.sample(names, seats)
        luck = [rng.randrange(6) for _ in range(seats)]
        for turn in range(seats):  # the same deal from every seat: a duplicate set
            seating = table[turn:] + table[:turn]
            scores = [
                SKILL[e] + luck[(i + turn) % seats] for i, e in enumerate(seating)
            ]
            result = Result.from_scores(scores, list(range(seats)), [scores])
            matches.append((seating, result, f"set-{k}"))
    return matches


CASES: dict[str, dict[str, Any]] = {
    "two-seats": dict(seats=2),
    "anchored": dict(seats=2, anchor="delta"),
    "seat-advantage": dict(seats=2, seat_advantage=True),
    "bootstrap": dict(seats=2, bootstrap=30, seed=3),
    "three-seats": dict(seats=3),
    "plackett-luce": dict(seats=3, model="plackett-luce"),
    "run-facts": dict(
        seats=2,
        run=RunFacts(
            forfeits=[("charlie", "timeout", 2), ("delta", "illegal-action", 1)],
            thinking=[("alpha", 480, 0.0123, 0.0009), ("bravo", 480, 2.5, 0.75)],
            sprt="SPRT alpha vs bravo: H1 accepted (LLR 3.02 >= 2.94) after 48 pairs",
        ),
    ),
}


def _outputs(case: str) -> dict[str, str]:
    options = dict(CASES[case])
    seats = int(options.pop("seats"))
    report = build_report(
        f"pinned {case}",
        _matches(seats),
        entrants=sorted(SKILL),
        **options,
    )
    outputs = {fmt: render(report, fmt) for fmt in ("text", "markdown", "json")}
    for table in TABLES:
        if table in ("forfeits", "thinking") and "run" not in CASES[case]:
            continue  # empty without run facts: pinned once, in "run-facts"
        outputs[f"csv-{table}"] = render(report, "csv", table)
        outputs[f"json-{table}"] = render(report, "json", table)
    return outputs


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_format_matches_its_pin(case: str) -> None:
    outputs = _outputs(case)
    for name, text in outputs.items():
        pin = PINS / f"{case}.{name}.txt"
        if os.environ.get("TROEF_WRITE_PINS") == "1":
            pin.write_text(text, encoding="utf-8")
        difference = mismatch(pin.read_text(encoding="utf-8"), text)
        assert difference is None, f"{pin.name}: {difference}"


def test_a_new_format_is_one_more_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.report.model import ReportModel
    from harness.report.render import RENDERERS

    def names(model: ReportModel, table: str | None) -> str:
        return " ".join(r["entrant"] for r in model.standings)

    monkeypatch.setitem(RENDERERS, "names", names)
    report = build_report("extra", _matches(2), entrants=sorted(SKILL))
    assert render(report, "names") == "alpha bravo delta charlie"
    pinned = (
        (PINS / "two-seats.text.txt")
        .read_text()
        .replace("pinned two-seats", "extra", 1)
    )
    assert mismatch(pinned, render(report, "text")) is None
    with pytest.raises(ValueError, match="format 'yaml'"):
        render(report, "yaml")
