"""The sequential probability ratio test: its log-likelihood ratio, the Elo
after stopping, and the test itself (:class:`SPRT`). The SPRT head-to-head
format that runs matches until it decides is :mod:`harness.tournament.sprt`.

Counts as in :mod:`harness.stats.significance`: trinomial ``(L, D, W)`` or
pentanomial ``(LL, LD, DD+WL, WD, WW)``.

Elo models in the SPRT: ``"logistic"`` (the hypotheses constrain the expected
score, s = E(elo)) and ``"normalized"`` (they constrain the t-value
(μ - ½)/sigma: nElo). Both are the generalised SPRT of fishtest's ``LLRcalc``
(``LLR_logistic``, ``LLR_normalized``) and fastchess ``sprt.cpp``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from harness.stats.significance import (
    _NORMAL,
    NELO_PER_T,
    REGULARIZE,
    EloEstimate,
    FloatArray,
    _distribution,
    elo_estimate,
    score_from_elo,
)

__all__ = [
    "SPRT",
    "SprtElo",
    "llr",
    "llr_approx",
    "llr_batch",
    "sprt_bounds",
    "sprt_elo",
]


ELO_MODELS = ("logistic", "normalized")


SPRT_MODELS = ("trinomial", "pentanomial")


# -- the log-likelihood ratio --------------------------------------------------


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds (ln(β/(1-alpha)), ln((1-β)/alpha)) (STATISTICS.md §2.6)."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError(
            f"need 0 < alpha, beta and alpha + beta < 1; got {alpha!r}, {beta!r}"
        )
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _secular(phat: FloatArray, x: FloatArray) -> FloatArray:
    """θ solving Σᵢ p̂ᵢxᵢ/(1 + θxᵢ) = 0 per row, in (-1/max x, -1/min x).

    The left side falls from +∞ to -∞ on that interval, so bisection (to
    machine precision) finds the unique root; fishtest ``LLRcalc.secular``
    uses Brent's method on the same bracket. ``x`` is rows x classes.
    """
    lo = -1 / x.max(axis=1)
    hi = -1 / x.min(axis=1)
    for _ in range(200):
        mid = (lo + hi) / 2
        f = np.sum(phat * x / (1 + mid[:, None] * x), axis=1)
        lo = np.where(f > 0, mid, lo)
        hi = np.where(f > 0, hi, mid)
        if np.all(hi - lo <= 1e-15 * np.maximum(1, np.abs(mid))):
            break
    return np.asarray((lo + hi) / 2, dtype=np.float64)


def _mle_expected(phat: FloatArray, a: FloatArray, s: float) -> FloatArray:
    """The ML distribution with mean ``s`` given p̂: p̂ᵢ/(1 + θ(aᵢ - s))
    (``LLRcalc.MLE_expected``).
    """
    x = np.broadcast_to(a - s, phat.shape)
    theta = _secular(phat, x)
    return phat / (1 + theta[:, None] * x)


def _mle_t_value(phat: FloatArray, a: FloatArray, t: float) -> FloatArray:
    """The ML distribution with (μ - ½)/sigma = t given p̂ (``LLRcalc.MLE_t_value``; §2.7
    steps 1-5).
    """
    p = np.full(phat.shape, 1 / phat.shape[1])
    for _ in range(100):
        mu = np.sum(p * a, axis=1)
        sigma = np.sqrt(np.sum(p * (a - mu[:, None]) ** 2, axis=1))
        phi = (
            a
            - 0.5
            - t * sigma[:, None] * (1 + ((a - mu[:, None]) / sigma[:, None]) ** 2) / 2
        )
        theta = _secular(phat, phi)
        new = phat / (1 + theta[:, None] * phi)
        done = np.max(np.abs(new - p)) < 1e-12
        p = new
        if done:
            break
    return p


def llr_batch(
    counts: ArrayLike, elo0: float, elo1: float, *, elo_model: str = "normalized"
) -> FloatArray:
    """Generalised-SPRT log-likelihood ratios of many count vectors (rows x classes).

    LLR = N·Σ p̂ᵢ·ln(pᵢ(H1)/pᵢ(H0)), where p(H) is the ML distribution under the
    hypothesis (STATISTICS.md §2.7): mean score E(elo) for ``"logistic"``;
    t-value nelo/(800/ln 10), x√2 for pentanomial rows, for ``"normalized"``.
    Zero counts are replaced by 1e-3 first, as fishtest and fastchess do.
    """
    if elo_model not in ELO_MODELS:
        raise ValueError(
            f"elo_model {elo_model!r} unknown; accepted: {', '.join(ELO_MODELS)}"
        )
    c = np.atleast_2d(np.asarray(counts, dtype=np.float64))
    c = np.where(c == 0, REGULARIZE, c)
    n = c.sum(axis=1)
    phat = c / n[:, None]
    k = c.shape[1]
    a = np.arange(k) / (k - 1)
    if elo_model == "logistic":
        p0 = _mle_expected(phat, a, score_from_elo(elo0))
        p1 = _mle_expected(phat, a, score_from_elo(elo1))
    else:
        # Games per sample: sigma of one game is √(games)·sigma of the sample mean
        # (§2.4).
        scale = math.sqrt((k - 1) / 2) / NELO_PER_T
        p0 = _mle_t_value(phat, a, elo0 * scale)
        p1 = _mle_t_value(phat, a, elo1 * scale)
    return np.asarray(n * np.sum(phat * np.log(p1 / p0), axis=1), dtype=np.float64)


def llr(
    counts: Sequence[float], elo0: float, elo1: float, *, elo_model: str = "normalized"
) -> float:
    """Generalised-SPRT LLR of one count vector (see :func:`llr_batch`).

    The same solution as :func:`llr_batch`, computed on plain floats: an
    SPRT takes it after every sample, and numpy's cost per call on a vector
    of 3 or 5 made it the runner's bottleneck (about 5 ms a sample).
    """
    if elo_model not in ELO_MODELS:
        raise ValueError(
            f"elo_model {elo_model!r} unknown; accepted: {', '.join(ELO_MODELS)}"
        )
    shares, scores, n = _distribution(counts, regularize=True)
    phat: list[float] = shares.tolist()
    a: list[float] = scores.tolist()
    k = len(a)
    if elo_model == "logistic":
        p0 = _mle_expected_one(phat, a, score_from_elo(elo0))
        p1 = _mle_expected_one(phat, a, score_from_elo(elo1))
    else:
        scale = math.sqrt((k - 1) / 2) / NELO_PER_T
        p0 = _mle_t_value_one(phat, a, elo0 * scale)
        p1 = _mle_t_value_one(phat, a, elo1 * scale)
    return n * math.fsum(
        h * math.log(q1 / q0) for h, q0, q1 in zip(phat, p0, p1, strict=True)
    )


def _secular_one(phat: Sequence[float], x: Sequence[float]) -> float:
    """:func:`_secular` of one row: Newton's method on the same bracket, kept
    inside it by bisection (the left side falls monotonically, so each step
    narrows the bracket)."""
    lo, hi = -1 / max(x), -1 / min(x)
    theta = 0.0  # inside: x has both signs when a root exists
    for _ in range(200):
        f = slope = 0.0
        for p, xi in zip(phat, x, strict=True):
            d = 1 + theta * xi
            f += p * xi / d
            slope -= p * xi * xi / (d * d)
        if f > 0:
            lo = theta
        else:
            hi = theta
        step = theta - f / slope if slope else (lo + hi) / 2
        if not lo < step < hi:
            step = (lo + hi) / 2
        if abs(step - theta) <= 1e-15 * max(1.0, abs(theta)):
            return step
        theta = step
    return theta


def _mle_expected_one(phat: list[float], a: list[float], s: float) -> list[float]:
    """:func:`_mle_expected` of one row."""
    x = [ai - s for ai in a]
    theta = _secular_one(phat, x)
    return [h / (1 + theta * xi) for h, xi in zip(phat, x, strict=True)]


def _mle_t_value_one(phat: list[float], a: list[float], t: float) -> list[float]:
    """:func:`_mle_t_value` of one row."""
    p = [1 / len(phat)] * len(phat)
    for _ in range(100):
        mu = sum(pi * ai for pi, ai in zip(p, a, strict=True))
        sigma = math.sqrt(sum(pi * (ai - mu) ** 2 for pi, ai in zip(p, a, strict=True)))
        phi = [ai - 0.5 - t * sigma * (1 + ((ai - mu) / sigma) ** 2) / 2 for ai in a]
        theta = _secular_one(phat, phi)
        new = [h / (1 + theta * f) for h, f in zip(phat, phi, strict=True)]
        done = max(abs(q - pi) for q, pi in zip(new, p, strict=True)) < 1e-12
        p = new
        if done:
            break
    return p


def llr_approx(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """Closed-form logistic LLR ≈ N(s1 - s0)(2ŝ - s0 - s1)/(2sigmâ²) (fishtest
    ``LLR_alt2``).
    """
    p, a, n = _distribution(counts, regularize=True)
    s = float(p @ a)
    var = float(p @ (a - s) ** 2)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


# -- Elo after an SPRT (ref §2.10) ---------------------------------------------


@dataclass(frozen=True)
class SprtElo:
    """fishtest's median-unbiased logistic Elo of an SPRT, its interval and LOS."""

    elo: float
    lower: float
    upper: float
    los: float
    confidence: float


def _brownian_cdf(
    a: float, b: float, mu: float, var: float, t: float, y: float
) -> float:
    """P(a Brownian path with drift mu, variance var, from 0, absorbed at a and b,
    ends to the right of (t, y)): fishtest ``brownian.Brownian.outcome_cdf``.
    """
    gamma, width = mu / var, b - a
    if var * t / width**2 < 1e-2 or abs(gamma * width) > 15:
        # Siegmund's approximation, with the asymptotic Phi where exp overflows.
        root = math.sqrt(t * var)
        z, za, zb = (
            (y - mu * t) / root,
            (-y + mu * t + 2 * a) / root,
            (y - mu * t - 2 * b) / root,
        )

        def term(bound: float, zz: float) -> float:
            if gamma * bound >= 5:
                return float(
                    -math.exp(-(zz**2) / 2 + 2 * gamma * bound)
                    / math.sqrt(2 * math.pi)
                    * (1 / zz - 1 / zz**3)
                )
            return math.exp(2 * gamma * bound) * float(_NORMAL.cdf(zz))

        return float(_NORMAL.cdf(z)) + term(a, za) - term(b, zb)
    x, y = -a, y - a
    lambda_1 = (math.pi / width) ** 2 * var / 2 + mu**2 / var / 2
    t0 = math.exp(-lambda_1 * t - x * gamma + y * gamma)
    total, n = 0.0, 1
    while True:
        lambda_n = (n * math.pi / width) ** 2 * var / 2 + mu**2 / var / 2
        t1 = math.exp(-(lambda_n - lambda_1) * t)
        u = (
            2 * width * gamma * math.sin(math.pi * n * y / width)
            - 2 * math.pi * n * math.cos(math.pi * n * y / width)
        ) / (width**2 * gamma**2 + math.pi**2 * n**2)
        total += t1 * u * math.sin(n * math.pi * x / width)
        if abs(t0 * t1 * u) <= 1e-9:
            break
        n += 1
    if gamma * width > 30:
        pre = math.exp(-2 * gamma * x)
    elif abs(gamma * width) < 1e-8:
        pre = (width - x) / width
    else:
        pre = (1 - math.exp(2 * gamma * (width - x))) / (
            1 - math.exp(2 * gamma * width)
        )
    return pre + t0 * total


def sprt_elo(
    counts: Sequence[float],
    elo0: float,
    elo1: float,
    *,
    alpha: float = 0.05,
    beta: float = 0.05,
    elo_model: str = "normalized",
    confidence: float = 0.95,
) -> SprtElo:
    """The Elo an SPRT-stopped run supports: fishtest's ``stat_util.SPRT_elo``.

    The LLR path is approximated by a Brownian motion with the drift and
    variance of ``LLRcalc.LLR_drift_variance_alt2``; the path is stopped at
    the bound it crossed (clamped there, at the time it would have reached
    it). The estimate is the Elo at which the observed outcome is the median
    (a worse outcome has probability ½), the interval the Elos where it is
    (1 ∓ confidence)/2. Logistic Elo per game whatever ``elo_model`` the bounds
    are in. Valid only for small Elo differences (fishtest's own caveat).
    """
    if elo_model not in ELO_MODELS:
        raise ValueError(
            f"elo_model {elo_model!r} unknown; accepted: {', '.join(ELO_MODELS)}"
        )
    lower_bound, upper_bound = sprt_bounds(alpha, beta)
    p, a, n = _distribution(counts, regularize=True)
    mean = float(p @ a)
    var = float(p @ (a - mean) ** 2)
    if elo_model == "normalized":
        sigma = math.sqrt(var * (len(a) - 1) / 2)  # per game (§2.4)
        s0, s1 = (0.5 + e / NELO_PER_T * sigma for e in (elo0, elo1))
    else:
        s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    drift = (mean - (s0 + s1) / 2) * (s1 - s0) / var
    spread = (s1 - s0) ** 2 / var
    llr_value, t = n * drift, n
    if llr_value < lower_bound:
        t, llr_value = lower_bound / drift, lower_bound
    elif llr_value > upper_bound:
        t, llr_value = upper_bound / drift, upper_bound

    def worse(elo: float) -> float:
        mu = (score_from_elo(elo) - (s0 + s1) / 2) * (s1 - s0) / var
        return _brownian_cdf(lower_bound, upper_bound, mu, spread, t, llr_value)

    from scipy.optimize import brentq

    def bound(q: float) -> float:
        centre, delta, k = (elo0 + elo1) / 2, elo1 - elo0, 30
        while True:
            lo, hi = max(centre - k * delta, -1000), min(centre + k * delta, 1000)
            f_lo, f_hi = worse(lo) - (1 - q), worse(hi) - (1 - q)
            if f_lo * f_hi <= 0:
                return float(brentq(lambda e: worse(e) - (1 - q), lo, hi))
            if lo > -1000 or hi < 1000:
                k *= 2
                continue
            return hi if f_lo > 0 else lo

    tail = (1 - confidence) / 2
    return SprtElo(bound(0.5), bound(tail), bound(1 - tail), worse(0.0), confidence)


# -- the test ------------------------------------------------------------------


class SPRT:
    """A sequential probability ratio test of elo0 against elo1 (GSPRT, ref §2.6-2.7).

    ``model="trinomial"`` counts games (L, D, W); ``"pentanomial"`` counts pairs
    of games, e.g. a duplicate set of two matches, by their total score
    0, ½, 1, 1½, 2. ``elo_model`` says what elo0/elo1 mean: ``"normalized"``
    (nElo, the default of fastchess and of STATISTICS.md) or ``"logistic"``.
    Status is decided on the current LLR against Wald's bounds moved by
    fishtest's overshoot correction (§2.9, ``stat_util.update_SPRT``), with
    fishtest's batch contract. A *batch* is ``batch_size`` samples (games
    for trinomial, pairs for pentanomial; default 1, as fishtest's), and each
    call of :meth:`add` or :meth:`add_counts` is one update:

    - an update that adds exactly one batch is the normal case: a step of the
      LLR past its running minimum (maximum) adds to m0 (m1) and its square to
      sq0 (sq1), and the bounds move in by sq/(2m) (Siegmund 1985, Cor. 8.33);
    - an update that adds more (several batches at once, such as a whole count
      vector) restarts the running extremes at the current LLR and keeps m and
      sq, so a test fed all its counts in one call decides on Wald's bounds;
    - once the total is not a multiple of ``batch_size`` the correction is
      dropped for good (fishtest's "the contract is violated"): Wald's bounds.
    """

    def __init__(
        self,
        elo0: float,
        elo1: float,
        alpha: float = 0.05,
        beta: float = 0.05,
        *,
        model: str = "pentanomial",
        elo_model: str = "normalized",
        batch_size: int = 1,
    ) -> None:
        if not elo0 < elo1:
            raise ValueError(f"elo0 must be less than elo1, got {elo0!r} and {elo1!r}")
        if model not in SPRT_MODELS:
            raise ValueError(
                f"model {model!r} unknown; accepted: {', '.join(SPRT_MODELS)}"
            )
        if elo_model not in ELO_MODELS:
            raise ValueError(
                f"elo_model {elo_model!r} unknown; accepted: {', '.join(ELO_MODELS)}"
            )
        if isinstance(batch_size, bool) or not isinstance(batch_size, int):
            raise ValueError(f"batch_size must be an integer, got {batch_size!r}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size!r}")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.model, self.elo_model, self.batch_size = model, elo_model, batch_size
        self.lower, self.upper = sprt_bounds(alpha, beta)
        self._counts = [0] * (3 if model == "trinomial" else 5)
        # fishtest's overshoot data: running extremes of the LLR (ref), sum (m)
        # and sum of squares (sq) of the steps that set a new extreme.
        self._ref0 = self._ref1 = self._m0 = self._m1 = self._sq0 = self._sq1 = 0.0
        # Samples at the last update (fishtest's last_update), and whether the
        # batch contract still holds (fishtest deletes its overshoot data when not).
        self._last = 0
        self._tracking = True
        self._llr = 0.0

    def add(self, outcome: float, count: int = 1) -> None:
        """Record ``count`` samples with this score (a game's 0/½/1, or a pair's 0..2 in
        halves) as one update, as :meth:`add_counts` does.
        """
        slot = outcome * 2
        if slot != int(slot) or not 0 <= slot < len(self._counts) or count < 0:
            top = "1" if self.model == "trinomial" else "2"
            raise ValueError(
                f"outcome {outcome!r} is not a {self.model} score 0, 0.5, ... {top}"
            )
        self._counts[int(slot)] += count
        self._batch_done()

    def _batch_done(self) -> None:
        self._llr = (
            llr(self._counts, self.elo0, self.elo1, elo_model=self.elo_model)
            if any(self._counts)
            else 0.0
        )
        samples = sum(self._counts)
        if samples % self.batch_size:
            self._tracking = False
        if not self._tracking or samples == self._last:
            return
        added, self._last = samples - self._last, samples
        if added != self.batch_size:
            # More than one batch at once: the steps inside it are unknown, so
            # the extremes restart here (update_SPRT "reset data collection").
            self._ref0 = self._ref1 = self._llr
            return
        if self._llr < self._ref0:
            step = self._llr - self._ref0
            self._m0, self._sq0, self._ref0 = (
                self._m0 + step,
                self._sq0 + step**2,
                self._llr,
            )
        if self._llr > self._ref1:
            step = self._llr - self._ref1
            self._m1, self._sq1, self._ref1 = (
                self._m1 + step,
                self._sq1 + step**2,
                self._llr,
            )

    @property
    def overshoot(self) -> tuple[float, float]:
        """(o0, o1): how far the lower bound moves up and the upper bound down
        ((0, 0) once the batch contract is broken)."""
        if not self._tracking:
            return 0.0, 0.0
        o0 = -self._sq0 / self._m0 / 2 if self._m0 else 0.0
        o1 = self._sq1 / self._m1 / 2 if self._m1 else 0.0
        return o0, o1

    def add_counts(self, counts: Sequence[int]) -> None:
        """Add a whole count vector ((L, D, W) or the 5 pair classes) as one update:
        one batch if it holds ``batch_size`` samples, else several at once (see
        :class:`SPRT`)."""
        if len(counts) != len(self._counts):
            raise ValueError(
                f"a {self.model} count vector has {len(self._counts)} entries, got "
                f"{counts!r}"
            )
        for k, c in enumerate(counts):
            self._counts[k] += int(c)
        self._batch_done()

    @property
    def counts(self) -> tuple[int, ...]:
        """Samples per outcome class, worst first."""
        return tuple(self._counts)

    @property
    def llr(self) -> float:
        """The current log-likelihood ratio (0 before any sample)."""
        return self._llr

    @property
    def status(self) -> str:
        """``"H1"`` (LLR ≥ upper - o1), ``"H0"`` (LLR ≤ lower + o0), or "continue"."""
        value = self.llr
        o0, o1 = self.overshoot
        return (
            "H1"
            if value >= self.upper - o1
            else "H0"
            if value <= self.lower + o0
            else "continue"
        )

    def elo_estimate(self, *, confidence: float = 0.95) -> EloEstimate:
        """Raw logistic Elo per game with its interval (§2.3); biased after stopping
        (§2.10).
        """
        return elo_estimate(self._counts, confidence=confidence)

    def sprt_elo(self, *, confidence: float = 0.95) -> SprtElo:
        """fishtest's median-unbiased Elo after stopping (:func:`sprt_elo`, §2.10)."""
        return sprt_elo(
            self._counts,
            self.elo0,
            self.elo1,
            alpha=self.alpha,
            beta=self.beta,
            elo_model=self.elo_model,
            confidence=confidence,
        )

    def __repr__(self) -> str:
        return (
            f"SPRT({self.elo0!r}, {self.elo1!r}, {self.alpha!r}, {self.beta!r}, "
            f"model={self.model!r}, elo_model={self.elo_model!r}"
            + (f", batch_size={self.batch_size!r})" if self.batch_size != 1 else ")")
        )
