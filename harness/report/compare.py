"""``troef compare``: how each entrant's rating changed between tournaments.

Each fit is shifted so that the entrants common to all fits average 0, and
the change's interval is that of the shifted quantity (docs/STATISTICS.md,
R2b).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

import numpy as np

from harness.report.numbers import _p
from harness.report.tables import format_table
from harness.stats import ratings as rt

__all__ = ["compare_fits", "comparison_table"]


def _shared_mean_sd(fit: rt.RatingFit, entrant: str, shared: Sequence[str]) -> float:
    """Standard deviation of R_entrant - mean(R_shared) in one fit: √(cᵀΣc) with
    c = e_entrant - 1_shared/|shared| over the fit's full covariance.
    """
    index = {name: k for k, name in enumerate(fit.names)}
    c = np.zeros(len(fit.names))
    for name in shared:
        c[index[name]] -= 1 / len(shared)
    c[index[entrant]] += 1
    return math.sqrt(max(float(c @ fit.covariance @ c), 0.0))


def compare_fits(
    fits: Sequence[tuple[str, rt.RatingFit]], entrants: Sequence[str]
) -> list[dict[str, Any]]:
    """Per entrant and later fit: the rating relative to the shared entrants' mean,
    its change from the first fit, the change's standard deviation and p-value.

    The reported rating is R_e - mean of the shared entrants' R, so its variance
    is cᵀΣc with c = e_e - 1_shared/|shared| over each fit's covariance, not the
    entrant's own interval (that one is relative to its pool's mean); the
    tournaments are independent, so the change's variance is the sum of the two.
    """
    shift = {
        label: sum(fit[e].rating for e in entrants) / len(entrants)
        for label, fit in fits
    }
    base_label, base = fits[0]
    out = []
    for e in entrants:
        r0 = base[e].rating - shift[base_label]
        sd0 = _shared_mean_sd(base, e, entrants)
        for label, fit in fits[1:]:
            r1 = fit[e].rating - shift[label]
            change = r1 - r0
            sd = math.hypot(sd0, _shared_mean_sd(fit, e, entrants))
            p = 2 * (1 - NormalDist().cdf(abs(change) / sd)) if sd > 0 else math.nan
            out.append(
                {
                    "entrant": e,
                    "base": r0,
                    "label": label,
                    "rating": r1,
                    "change": change,
                    "sd": sd,
                    "p": p,
                }
            )
    return out


def comparison_table(
    fits: Sequence[tuple[str, rt.RatingFit]], entrants: Sequence[str], fmt: str = "text"
) -> str:
    """How each entrant's rating changed from the first fit to each later one.

    Each fit is shifted so that the entrants common to all fits average 0,
    which makes pools of different composition comparable; the change's
    interval is that of the shifted quantity (:func:`compare_fits`).
    """
    z = float(NormalDist().inv_cdf(0.975))
    changes = compare_fits(fits, entrants)
    if fmt in ("json", "csv"):
        keys = list(changes[0]) if changes else ["entrant"]
        plain = [[c[k] for k in keys] for c in changes]
        return format_table(keys, plain, fmt)
    rows = []
    for e in entrants:
        mine = [c for c in changes if c["entrant"] == e]
        row: list[Any] = [e, f"{mine[0]['base']:+.1f}"]
        for c in mine:
            row += [
                f"{c['rating']:+.1f}",
                f"{c['change']:+.1f} ± {z * c['sd']:.1f}",
                _p(c["p"]) + (" *" if c["p"] < 0.05 else ""),
            ]
        rows.append(row)
    base_label = fits[0][0]
    headers = ["entrant", base_label]
    for label, _ in fits[1:]:
        headers += [label, "change (95%)", "p"]
    return format_table(headers, rows, fmt)
