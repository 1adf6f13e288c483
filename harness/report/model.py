"""Reports a person reads at a glance, and exports a program reads.

``build_report`` turns recorded matches into ratings (maximum-likelihood fit
with intervals), a crosstable and the pairwise significance table;
``report_model`` turns that into the rows every format shows, and ``render``
hands the model to the format's renderer in ``RENDERERS``: text or Markdown
(tabulate), JSON or CSV. The HTML report (``harness.report.html``) draws from
the same model.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np
from tabulate import tabulate

from harness.contracts.result import Result
from harness.report import tables
from harness.report.tables import format_table
from harness.stats import ratings as rt
from harness.stats import significance as stats
from harness.stats.ratings_bootstrap import (
    BootstrapFit,
    bootstrap_plackett_luce,
    bootstrap_ratings,
)
from harness.stats.ratings_pairwise import fit_ratings
from harness.stats.ratings_plackett_luce import fit_plackett_luce, rankings_from_matches
from harness.stats.standings import Standing

__all__ = [
    "FORMATS",
    "RENDERERS",
    "TABLES",
    "Report",
    "ReportModel",
    "RunFacts",
    "build_report",
    "comparison_table",
    "pair_details_display",
    "pairs_display",
    "render",
    "report_model",
    "result_table",
    "standings_display",
    "standings_rows",
    "standings_table",
]


def standings_rows(
    rows: Sequence[Standing], *, raw: bool = False
) -> tuple[list[str], list[list[Any]]]:
    """Rank, entrant, matches, pairwise score %, wins, mean score and utility, forfeits.

    The mean score is the game's own count (fewer may be better); the mean
    utility is higher-is-better in every game. ``raw``: numbers as they are
    (for JSON and CSV), not rounded for a person.
    """
    if raw:
        headers = ["rank", "entrant", "matches", "score", "wins", "mean_score"]
        headers += ["mean_utility", "forfeits"]
        return headers, [
            [
                *(i, s.entrant, s.matches, s.score, s.wins),
                *(s.mean_score, s.mean_utility, s.forfeits),
            ]
            for i, s in enumerate(rows, 1)
        ]
    body: list[list[Any]] = [
        [
            i,
            s.entrant,
            s.matches,
            f"{100 * s.score:.1f}",
            s.wins,
            f"{s.mean_score:.1f}",
            f"{s.mean_utility:+.2f}",
            s.forfeits,
        ]
        for i, s in enumerate(rows, 1)
    ]
    headers = [
        "#",
        "entrant",
        "matches",
        "score %",
        "wins",
        "mean score",
        "mean utility",
        "forfeits",
    ]
    return headers, body


def standings_table(rows: Sequence[Standing], fmt: str = "text") -> str:
    """:func:`standings_rows` as a table."""
    headers, body = standings_rows(rows)
    return format_table(headers, body, fmt, colalign=("right", "left", *["right"] * 6))


def result_table(result: Result, names: Sequence[str]) -> str:
    """One match's result per seat: team, score, rank and utility."""
    rows = [
        [
            seat,
            names[seat],
            result.teams[seat],
            result.scores[seat],
            result.ranks[seat],
            f"{result.utilities[seat]:+g}",
        ]
        for seat in range(len(names))
    ]
    return tabulate(
        rows, headers=["seat", "player", "team", "score", "rank", "utility"]
    )


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


def _los(fit: rt.RatingFit, a: str, b: str) -> float | None:
    try:
        d, lo, hi = fit.difference(a, b)
    except ValueError:
        return None  # not comparable (different components)
    z = float(NormalDist().inv_cdf(0.5 + fit.confidence / 2))
    sd = (hi - lo) / (2 * z)
    return (
        float(NormalDist().cdf(d / sd))
        if sd > 0
        else (1.0 if d > 0 else 0.0 if d < 0 else 0.5)
    )


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


#: The tables of a report, one per CSV export (``troef report --table``).
TABLES = ("standings", "pairs", "crosstable", "forfeits", "thinking")


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
        return {key: _clean(value) for key, value in data.items()}


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


def _render_json(model: ReportModel, table: str | None) -> str:
    data = model.as_json()
    if table is not None:
        data = {table: data[table]}
    return json.dumps(data, indent=2, allow_nan=False, default=_nan_to_none)


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


def _render_text(model: ReportModel, table: str | None) -> str:
    return _render_tables(model, "simple", "", table)


def _render_markdown(model: ReportModel, table: str | None) -> str:
    return _render_tables(model, "github", "## ", table)


def standings_display(model: ReportModel) -> tuple[list[str], list[list[Any]]]:
    """The standings as a person reads them: headings and formatted cells.

    Shared by the text and Markdown reports and the HTML report, so that every
    format a person reads says "LOS next %" and a score in percent alike.
    """
    conf = f"{100 * model.confidence:.0f}%"
    rows: list[list[Any]] = [
        [
            r["rank"],
            r["tier"],
            r["entrant"],
            _fmt(r["rating"]),
            f"[{_fmt(r['lower'])}, {_fmt(r['upper'])}]",
            r["games"],
            _fmt(100 * r["score"] if r["score"] == r["score"] else None),
            _fmt(r["los_next"] and 100 * r["los_next"]),
            ", ".join(r["flags"]),
        ]
        for r in model.standings
    ]
    headers = [
        "#",
        "tier",
        "entrant",
        "elo",
        f"{conf} interval",
        "games",
        "score %",
        "LOS next %",
        "notes",
    ]
    if model.bootstrap_rounds is not None:
        headers.insert(5, f"bootstrap ({model.bootstrap_rounds} × sets)")
        for row, r in zip(rows, model.standings, strict=True):
            row.insert(
                5, f"[{_fmt(r['bootstrap_lower'])}, {_fmt(r['bootstrap_upper'])}]"
            )
    return headers, rows


def pairs_display(model: ReportModel) -> tuple[list[str], list[list[Any]]]:
    """The pairwise tests as the text report shows them: headings and cells."""
    rows: list[list[Any]] = [
        [
            f"{p['a']} - {p['b']}",
            f"{p['wins']}-{p['draws']}-{p['losses']}",
            p["samples"],
            f"{100 * p['score']:.1f}",
            f"{_elo(p['elo'])} [{_fmt(p['lower'], '+.0f')}, "
            f"{_fmt(p['upper'], '+.0f')}]",
            f"{100 * p['los']:.1f}",
            p["test"],
            _p(p["p_value"]),
            _p(p["p_holm"]),
            "*" if p["significant"] else "",
        ]
        for p in model.pairs
    ]
    headers = [
        "pair",
        "W-D-L",
        "samples",
        "score %",
        "elo diff",
        "LOS %",
        "test",
        "p",
        "p Holm",
        "sig.",
    ]
    return headers, rows


def pair_details_display(model: ReportModel) -> tuple[list[str], list[list[Any]]]:
    """Every test of each pair, formatted like :func:`pairs_display`'s p.

    ``p`` is the headline test's (``test``); the others are shown for a reader
    who wants to see whether they agree. ``p floor`` is the smallest p the
    headline test can give at the pair's sample size.
    """
    rows: list[list[Any]] = [
        [
            f"{p['a']} - {p['b']}",
            p["test"],
            _p(p["p_sign"]),
            _p(p["p_wilcoxon"]),
            _p(p["p_ttest"]),
            _fmt(p["mean_difference"], "+.2f"),
            _p(p["p_floor"]),
        ]
        for p in model.pairs
    ]
    headers = [
        "pair",
        "test",
        "p sign",
        "p Wilcoxon",
        "p t-test",
        "mean difference",
        "p floor",
    ]
    return headers, rows


def _render_tables(
    model: ReportModel, table_fmt: str, heading: str, table: str | None = None
) -> str:
    """Text and Markdown: every table, tabulated, with its notes.

    Ruling: with ``table`` (``--table``), only that table and its notes,
    as with CSV and JSON; the standings keep the report's title line, which
    says what the ratings are anchored to. An empty forfeits or thinking
    table says so rather than printing nothing.
    """
    sections: dict[str, list[str]] = {}
    anchor = (
        f"anchored to {model.anchor} = {model.anchor_rating:g}"
        if model.anchor
        else "pool mean = 0"
    )
    conf = f"{100 * model.confidence:.0f}%"
    kind = (
        "Plackett-Luce ratings (Elo scale)"
        if model.model == "plackett-luce"
        else "Elo ratings"
    )
    out = sections["standings"] = [
        f"{heading}{model.title}: {model.matches} matches; "
        f"{kind}, {anchor}, {conf} intervals",
        "",
    ]
    headers, rows = standings_display(model)
    out.append(tabulate(rows, headers=headers, tablefmt=table_fmt))
    if model.seat_advantage is not None:
        lo, hi = model.seat_advantage_interval or (math.nan, math.nan)
        out.append(
            f"\nseat advantage (first seat): {model.seat_advantage:+.1f} "
            f"[{lo:+.1f}, {hi:+.1f}]"
        )
    out += tables.notes(model.notes)
    out = sections["crosstable"] = [
        f"{heading}Crosstable (row's score against column, pairwise games)",
        "",
    ]
    grid_headers, body = model.crosstable_grid
    headers = ["entrant", *grid_headers[1:]]
    out.append(tabulate(body, headers=headers, tablefmt=table_fmt))
    out = sections["pairs"] = [
        f"{heading}Pairwise tests (Holm-corrected across {len(model.pairs)} pairs; "
        "* = significant at 5%)",
        "",
    ]
    headers, prow = pairs_display(model)
    out.append(tabulate(prow, headers=headers, tablefmt=table_fmt))
    out += tables.notes(model.small_sample_notes)
    tiers = "  >  ".join("{" + ", ".join(t) + "}" for t in model.tiers)
    out += ["", f"tiers (statistically tied within braces): {tiers}"]
    fmt = "markdown" if heading else "text"
    if model.sprt is not None:
        sections["sprt"] = [model.sprt]
    lost = [(r["entrant"], r["reason"], r["matches"]) for r in model.forfeits]
    sections["forfeits"] = (
        [tables.forfeit_table(lost, fmt)] if lost else ["no match ended in a forfeit"]
    )
    spent = [
        (r["entrant"], r["moves"], r["seconds"], r["longest_seconds"])
        for r in model.thinking
    ]
    sections["thinking"] = (
        [tables.thinking_table(spent, fmt)]
        if spent
        else ["no thinking time is recorded"]
    )
    if table is not None:
        return "\n".join(sections[table])
    # The whole report leaves out the empty forfeits and thinking tables.
    empty = {"forfeits": not lost, "thinking": not spent}
    shown = [lines for name, lines in sections.items() if not empty.get(name)]
    return "\n\n".join("\n".join(lines) for lines in shown)


#: One renderer per format: adding a format adds a line here and touches no other.
RENDERERS: dict[str, Renderer] = {
    "text": _render_text,
    "markdown": _render_markdown,
    "json": _render_json,
    "csv": _render_csv,
}
#: The formats of ``troef report --format``.
FORMATS = tuple(RENDERERS)


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


def _nan_to_none(x: Any) -> Any:
    raise TypeError(f"not JSON serialisable: {x!r}")


def _clean(value: Any) -> Any:
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def _as_json(report: Report) -> dict[str, Any]:
    """The JSON export's object (kept for callers of the old name)."""
    return report_model(report).as_json()


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
