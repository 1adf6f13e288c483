"""The report model: what every format of ``troef report`` shows, computed once.

``build_report`` turns recorded matches into ratings (maximum-likelihood fit
with intervals), a crosstable and the pairwise significance table (a
:class:`Report`); ``report_model`` turns that into the rows every format
shows (a :class:`ReportModel`). The renderers read only the model: text and
Markdown in ``harness.report.text``, JSON and CSV in
``harness.report.exports``, collected in ``harness.report.render``
(``render``, ``RENDERERS``, ``TABLES``). The HTML report
(``harness.report.html``) draws from the same model.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import TroefError
from harness.contracts.result import Result
from harness.report.numbers import _p
from harness.stats import ratings as rt
from harness.stats import significance as stats
from harness.stats.ratings_bootstrap import (
    BootstrapFit,
    bootstrap_plackett_luce,
    bootstrap_ratings,
)
from harness.stats.ratings_pairwise import fit_ratings
from harness.stats.ratings_plackett_luce import fit_plackett_luce, rankings_from_matches

if TYPE_CHECKING:
    from harness.tournament.store import Store

__all__ = [
    "Report",
    "ReportModel",
    "RunFacts",
    "build_report",
    "json_safe",
    "report_model",
    "stored_report",
]


@dataclass(frozen=True)
class RunFacts:
    """What a run recorded beside its results, as the store gives it."""

    #: (entrant, reason, matches) of every forfeit (``Store.forfeits``).
    forfeits: Sequence[tuple[str, str, int]] = ()
    #: (entrant, decisions, seconds, longest) (``Store.thinking``).
    thinking: Sequence[tuple[str, int, float, float]] = ()
    #: The SPRT's verdict, described, when the run is an SPRT.
    sprt: str | None = None


@dataclass(frozen=True)
class Report:
    """Everything ``troef report`` shows, as data."""

    title: str
    matches: int
    fit: rt.RatingFit
    pairs: tuple[stats.PairStats, ...]
    tiers: tuple[tuple[str, ...], ...]
    #: Likelihood of superiority of each entrant over the next in the standings.
    los_next: dict[str, float | None]
    duplicate: bool
    #: Percentile intervals resampling whole duplicate sets, when asked for.
    bootstrap: BootstrapFit | None = None
    #: What the run itself recorded beside the results: forfeits, time, SPRT.
    run: RunFacts = field(default_factory=RunFacts)


def build_report(
    title: str,
    matches: Iterable[tuple[Sequence[str], Result, str | None]],
    *,
    entrants: Sequence[str] = (),
    anchor: str | None = None,
    duplicate: bool = True,
    seat_advantage: bool = False,
    bootstrap: int = 0,
    seed: int = 1,
    model: str = "pairwise",
    run: RunFacts | None = None,
) -> Report:
    """Fit ratings and test every pair over ``(seating, result, group)`` triples.

    :param model: ``"pairwise"`` (each match split into pair results weighted
        1/(k-1)) or ``"plackett-luce"`` (each match one ranking of its teams);
        the crosstable and pairwise tests are the same for both.
    :param run: the run's forfeits, thinking time and SPRT verdict, shown
        after the tables.
    """
    if model not in rt.MODELS:
        raise ValueError(f"model {model!r} unknown; accepted: {', '.join(rt.MODELS)}")
    matches = list(matches)
    results = rt.pair_results_from_matches(matches)
    rankings = rankings_from_matches(matches) if model == "plackett-luce" else []
    if model == "plackett-luce":
        if seat_advantage:
            raise ValueError(
                "the Plackett-Luce model does not fit a seat advantage; "
                "use the pairwise model for it"
            )
        fit = fit_plackett_luce(rankings, anchor=anchor, entrants=entrants)
    else:
        fit = fit_ratings(
            results, anchor=anchor, entrants=entrants, seat_advantage=seat_advantage
        )
    paired = stats.paired_differences(matches) if duplicate else None
    pairs = tuple(stats.pair_statistics(results, paired=paired))
    order = [line.entrant for line in fit.ratings]
    tiers = tuple(tuple(t) for t in stats.tiers(order, stats.significance(pairs)))
    los_next: dict[str, float | None] = {}
    for here, below in zip(order, [*order[1:], None], strict=True):
        los_next[here] = None if below is None else _los(fit, here, below)
    boot = None
    if bootstrap and model == "plackett-luce":
        boot = bootstrap_plackett_luce(
            rankings,
            rounds=bootstrap,
            seed=seed,
            anchor=anchor,
            entrants=entrants,
        )
    elif bootstrap:
        boot = bootstrap_ratings(
            results,
            rounds=bootstrap,
            seed=seed,
            anchor=anchor,
            seat_advantage=seat_advantage,
        )
    return Report(
        title,
        len(matches),
        fit,
        pairs,
        tiers,
        los_next,
        duplicate,
        boot,
        run or RunFacts(),
    )


def stored_report(
    store: Store,
    *,
    title: str | None = None,
    anchor: str | None = None,
    model: str | None = None,
    seat_advantage: bool = False,
    bootstrap: int = 0,
    seed: int = 1,
) -> Report:
    """The :class:`Report` of everything ``store`` records (``troef report DB``).

    :param title: default: the tournament's name, else the database's path.
    :param model: default: the config's ``rating_model``.
    The other parameters are :func:`build_report`'s.
    :raises TroefError: the database holds no result yet.
    """
    from harness.tournament.sprt import SprtMonitor

    snapshot = store.config_snapshot()
    matches = [(m.job["seating"], m.result, m.job["group"]) for m in store.matches()]
    if not matches:
        raise TroefError(f"{store.path} holds no results yet")
    monitor = SprtMonitor.from_store(store)
    return build_report(
        title or store.meta("name") or str(store.path),
        matches,
        entrants=list(snapshot.get("entrants", {})),
        anchor=anchor,
        duplicate=bool(snapshot.get("duplicate", True)),
        seat_advantage=seat_advantage,
        bootstrap=bootstrap,
        seed=seed,
        model=model or snapshot.get("rating_model", "pairwise"),
        run=RunFacts(
            forfeits=store.forfeits(),
            thinking=store.thinking(),
            sprt=None if monitor is None else monitor.verdict().describe(),
        ),
    )


def _los(fit: rt.RatingFit, a: str, b: str) -> float | None:
    try:
        return fit.los(a, b)
    except ValueError:
        return None  # not comparable (different components)


def _standings_rows(report: Report) -> list[dict[str, Any]]:
    fit = report.fit
    tier_of = {e: i + 1 for i, tier in enumerate(report.tiers) for e in tier}
    rows = []
    for rank, line in enumerate(fit.ratings, 1):
        rows.append(
            {
                "rank": rank,
                "tier": tier_of.get(line.entrant),
                "entrant": line.entrant,
                "rating": line.rating,
                "lower": line.lower,
                "upper": line.upper,
                "games": line.games,
                "score": line.score,
                "los_next": report.los_next.get(line.entrant),
                "flags": [flag.value for flag in line.flags],
            }
        )
        if report.bootstrap is not None:
            b = report.bootstrap[line.entrant]
            rows[-1]["bootstrap_lower"], rows[-1]["bootstrap_upper"] = b.lower, b.upper
    return rows


def _crosstable(report: Report) -> tuple[list[str], list[list[str]]]:
    order = [line.entrant for line in report.fit.ratings]
    cell: dict[tuple[str, str], stats.PairStats] = {}
    for p in report.pairs:
        cell[(p.a, p.b)] = p
    rows = []
    for a in order:
        row = [a]
        for b in order:
            if a == b:
                row.append("")
            elif (a, b) in cell:
                p = cell[(a, b)]
                row.append(f"{100 * p.score:.0f}% ({p.games})")
            elif (b, a) in cell:
                p = cell[(b, a)]
                row.append(f"{100 * (1 - p.score):.0f}% ({p.games})")
            else:
                row.append("-")
        rows.append(row)
    return ["", *order], rows


def _ranked_pairs(report: Report) -> list[stats.PairStats]:
    """Every pair with the higher-ranked entrant first, in standings order."""
    rank = {line.entrant: k for k, line in enumerate(report.fit.ratings)}
    pairs = []
    for p in report.pairs:
        if rank.get(p.b, 0) < rank.get(p.a, 0):
            p = dataclasses.replace(
                p,
                a=p.b,
                b=p.a,
                wins=p.losses,
                losses=p.wins,
                score=1 - p.score,
                elo=-p.elo,
                lower=-p.upper,
                upper=-p.lower,
                los=1 - p.los,
                mean_difference=(
                    None if p.mean_difference is None else -p.mean_difference
                ),
            )
        pairs.append(p)
    return sorted(pairs, key=lambda p: (rank.get(p.a, 0), rank.get(p.b, 0)))


def _pair_rows(report: Report) -> list[dict[str, Any]]:
    return [
        {
            "a": p.a,
            "b": p.b,
            "wins": p.wins,
            "draws": p.draws,
            "losses": p.losses,
            "samples": p.samples,
            "score": p.score,
            "elo": p.elo,
            "lower": p.lower,
            "upper": p.upper,
            "los": p.los,
            "test": p.test,
            "p_value": p.p_value,
            "p_sign": p.p_sign,
            "p_wilcoxon": p.p_wilcoxon,
            "p_ttest": p.p_ttest,
            "mean_difference": p.mean_difference,
            "p_holm": p.p_holm,
            "p_floor": p.p_floor,
            "significant": p.p_holm < 0.05,
        }
        for p in _ranked_pairs(report)
    ]


@dataclass(frozen=True)
class ReportModel:
    """What every format of a report shows, computed once from a :class:`Report`.

    The rows of each table and the facts of the headings, as plain data; each
    renderer of :data:`RENDERERS` (and the HTML report) reads only this, so a
    new format is one more renderer and touches none of the others.
    """

    title: str
    matches: int
    #: The rating model: "pairwise" or "plackett-luce".
    model: str
    anchor: str | None
    anchor_rating: float
    confidence: float
    seat_advantage: float | None
    seat_advantage_interval: tuple[float, float] | None
    #: The fit's notes (perfect scores, unconnected entrants, ...).
    notes: tuple[str, ...]
    standings: list[dict[str, Any]]
    pairs: list[dict[str, Any]]
    #: The crosstable per ordered pair that met (the export's form).
    crosstable: list[dict[str, Any]]
    #: The crosstable as a grid: headers and one row of cells per entrant.
    crosstable_grid: tuple[list[str], list[list[str]]]
    tiers: tuple[tuple[str, ...], ...]
    #: Pairs whose test cannot reach significance at their size.
    small_sample_notes: list[str]
    #: Bootstrap rounds when percentile intervals were asked for.
    bootstrap_rounds: int | None
    #: One row per entrant and forfeit reason.
    forfeits: list[dict[str, Any]]
    #: One row per entrant: moves, total and longest seconds.
    thinking: list[dict[str, Any]]
    #: The SPRT's verdict, described, when the run is an SPRT.
    sprt: str | None

    def as_json(self) -> dict[str, Any]:
        """The JSON export's object: NaN and infinities become null."""
        data: dict[str, Any] = {
            "title": self.title,
            "matches": self.matches,
            "model": self.model,
            "anchor": self.anchor,
            "anchor_rating": self.anchor_rating,
            "confidence": self.confidence,
            "seat_advantage": self.seat_advantage,
            "notes": list(self.notes),
            "standings": self.standings,
            "pairs": self.pairs,
            "crosstable": self.crosstable,
            "tiers": [list(t) for t in self.tiers],
            "forfeits": self.forfeits,
            "thinking": self.thinking,
            "sprt": self.sprt,
        }
        return {key: json_safe(value) for key, value in data.items()}


def report_model(report: Report) -> ReportModel:
    """The model every format renders from."""
    fit = report.fit
    return ReportModel(
        title=report.title,
        matches=report.matches,
        model=fit.model,
        anchor=fit.anchor,
        anchor_rating=fit.anchor_rating,
        confidence=fit.confidence,
        seat_advantage=fit.seat_advantage,
        seat_advantage_interval=fit.seat_advantage_interval,
        notes=tuple(fit.notes),
        standings=_standings_rows(report),
        pairs=_pair_rows(report),
        crosstable=_crosstable_rows(report),
        crosstable_grid=_crosstable(report),
        tiers=report.tiers,
        small_sample_notes=_small_sample_notes(report),
        bootstrap_rounds=None if report.bootstrap is None else report.bootstrap.rounds,
        forfeits=[
            {"entrant": e, "reason": r, "matches": n} for e, r, n in report.run.forfeits
        ],
        thinking=[
            {"entrant": e, "moves": n, "seconds": t, "longest_seconds": m}
            for e, n, t, m in report.run.thinking
        ],
        sprt=report.run.sprt,
    )


def _small_sample_notes(report: Report) -> list[str]:
    """Pairs whose test could not reach significance at their sample size."""
    notes = []
    for p in _ranked_pairs(report):
        if p.p_floor >= 0.05:
            notes.append(
                f"{p.a} - {p.b}: {p.samples} samples; the {p.test} test cannot give "
                f"p below {_p(p.p_floor)} at this size, so its tie is no finding "
                "(play more matches to separate them)"
            )
    return notes


def json_safe(value: Any) -> Any:
    """``value`` for strict JSON: NaN and infinities, also in lists and dicts,
    as None."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def _crosstable_rows(report: Report) -> list[dict[str, Any]]:
    """Per ordered pair that met: the row entrant's score against the column's."""
    order = [line.entrant for line in report.fit.ratings]
    rows = []
    for p in report.pairs:
        for a, b, score in ((p.a, p.b, p.score), (p.b, p.a, 1 - p.score)):
            rows.append({"entrant": a, "opponent": b, "score": score, "games": p.games})
    return sorted(
        rows, key=lambda r: (order.index(r["entrant"]), order.index(r["opponent"]))
    )
