"""Compare printed output with a pinned text: the words byte for byte, the
decimal numbers to a relative tolerance.

A rating or a p-value comes out of floating-point reductions (BLAS kernels,
scipy's optimisers) whose last bits differ between CPUs and libraries, so a pin
written on one machine may not hold on another to the last digit (issue 25).
What a pin means to fix is the text and each number to about ten significant
digits: everything that is not a decimal number must match exactly, integers
included; a number rounded for display (at most ``SHORT`` significant digits on
both sides) must match exactly too, and a full-precision one must be within
``REL_TOL`` of the pinned one.
"""

from __future__ import annotations

import math
import re

#: Relative tolerance of a decimal number: ten significant digits, far above the
#: last-bit noise of a float (2e-16) and far below anything a reader would see.
REL_TOL = 1e-9
#: Absolute tolerance, for values that are zero up to rounding (1e-17 vs 0.0).
ABS_TOL = 1e-12

#: A number printed with at most this many significant digits was rounded for a
#: reader: its text is what is pinned.
SHORT = 10

#: A decimal number: digits with a fraction, an exponent or both. Bare integers
#: (counts, ranks, seeds) are not matched: they stay part of the exact text.
_DECIMAL = re.compile(r"-?\d+(?:\.\d+(?:[eE][-+]?\d+)?|[eE][-+]?\d+)")


def mismatch(expected: str, actual: str) -> str | None:
    """Where ``actual`` departs from ``expected``, or None when it matches.

    The answer names the line and shows both versions of it.
    """
    expected_lines = expected.splitlines(keepends=True)
    actual_lines = actual.splitlines(keepends=True)
    pairs = zip(expected_lines, actual_lines, strict=False)
    for number, (want, got) in enumerate(pairs, 1):
        if want != got and not _same_line(want, got):
            return (
                f"line {number}:\n  pinned:  {want.rstrip()}\n  printed: {got.rstrip()}"
            )
    if len(expected_lines) != len(actual_lines):
        return (
            f"{len(expected_lines)} lines pinned, {len(actual_lines)} printed; "
            f"the first {min(len(expected_lines), len(actual_lines))} agree"
        )
    return None


def _same_line(want: str, got: str) -> bool:
    want_words, got_words = _DECIMAL.split(want), _DECIMAL.split(got)
    if want_words != got_words:
        return False
    return all(
        _same_number(a, b)
        for a, b in zip(_DECIMAL.findall(want), _DECIMAL.findall(got), strict=True)
    )


def _same_number(want: str, got: str) -> bool:
    if want == got:
        return True
    if _digits(want) <= SHORT and _digits(got) <= SHORT:
        return False
    return math.isclose(float(want), float(got), rel_tol=REL_TOL, abs_tol=ABS_TOL)


def _digits(number: str) -> int:
    """Significant digits of a decimal number's mantissa."""
    mantissa = re.split("[eE]", number)[0].lstrip("-").replace(".", "")
    return len(mantissa.lstrip("0"))
