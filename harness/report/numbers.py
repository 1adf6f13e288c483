"""How a report writes a number for a person.

A dash for no number, never "-0", the bound a clamped Elo difference is
rather than a made-up estimate, p-values to two or three digits. Shared by
the report model's notes, the text and Markdown tables
(``harness.report.text``) and ``troef compare`` (``harness.report.compare``).
"""

from __future__ import annotations

import math


def _fmt(x: float | None, spec: str = ".1f") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, float) and math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    text = format(x, spec)
    # A value that rounds to zero is zero, whatever its sign: never "-0".
    return text.replace("-", "+" if "+" in spec else "", 1) if _is_zero(text) else text


def _is_zero(text: str) -> bool:
    return text.lstrip("+-").strip("0.") == ""


#: Elo of a clamped score (fishtest's 1e-3, ±1199.8): a bound, not an estimate.
_CLAMPED_ELO = 1199.0


def _elo(x: float) -> str:
    """A pair's Elo difference, or the bound it is when the score was clamped."""
    if x >= _CLAMPED_ELO:
        return ">= +1200"
    if x <= -_CLAMPED_ELO:
        return "<= -1200"
    return _fmt(x, "+.0f")


def _p(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.2g}" if x < 0.01 else f"{x:.3f}"
