"""From a fit's parameters to anchored ratings and their intervals.

Shared by the rating models: the layout a fit decided on (components,
regularised components, reference entrants), the linear map from natural-unit
parameters to ratings anchored on an entrant or on each component's mean, and
the covariance of the parameters (the sandwich for the half-point model,
docs/STATISTICS.md R2). Confidence intervals are ±z·sd of the mapped
covariance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from harness.stats.ratings import FloatArray

if TYPE_CHECKING:
    from harness.stats.ratings_pairwise import _Problem

__all__: list[str] = []  # helpers of the rating models only


@dataclass
class _Layout:
    """What fit_ratings decided before solving: components, references, priors."""

    components: list[list[int]]
    regularised: set[int]
    #: One entrant per unregularised component, held at 0 during the solve.
    references: set[int]
    played: NDArray[np.bool_]


def _anchor_transform(
    names: Sequence[str], layout: _Layout, anchor: str | None
) -> tuple[FloatArray, list[list[int]]]:
    """Matrix T with anchored ratings = T·gamma (+ anchor_rating); components, anchor's
    first.
    """
    n = len(names)
    components = list(layout.components)
    anchor_index = names.index(anchor) if anchor is not None else -1
    components.sort(key=lambda c: anchor_index not in c)  # stable: the anchor's first
    t = np.eye(n + 3)
    for members in components:
        idx = np.array(members)
        if anchor_index in members:
            t[np.ix_(idx, np.array([anchor_index]))] -= 1.0
        else:
            t[np.ix_(idx, idx)] -= 1.0 / len(members)
    return t, components


def _covariance(problem: _Problem, theta: FloatArray, info: FloatArray) -> FloatArray:
    """Covariance of θ: the sandwich I⁻¹·J·I⁻¹ for the half-point model, I⁻¹ for
    Davidson's.

    The half-point likelihood treats a draw as half a win and half a loss, so
    its information I assumes the binomial variance p(1 - p) per game; draws
    make the true variance smaller and I⁻¹ too wide (95 % intervals covered
    98-99 % at 40 % draws). J, the observed variance of the score equations,
    holds with or without draws (Huber 1967; White 1982); without draws and
    with two entrants it equals I; it is summed per duplicate group when the
    results come in groups (``problem.score_outer``, docs R2c). Davidson's
    trinomial likelihood models the draws itself, so its own information is
    kept (docs/STATISTICS.md R2).
    """
    cov = np.zeros((problem.size, problem.size))
    free = problem.free
    try:
        inner = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        inner = np.linalg.pinv(info)
    if not problem.davidson:
        meat = problem.score_outer(theta)[np.ix_(free, free)]
        inner = inner @ meat @ inner
    cov[np.ix_(free, free)] = inner
    return cov
