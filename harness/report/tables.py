"""Tables a person reads at a glance, or a program reads: one helper per table.

Every table command prints through :func:`format_table`, so ``--format
text|markdown|json|csv`` means the same everywhere: text and Markdown through
tabulate, JSON as a list of objects keyed by the headers, CSV with one header
row. Light on imports: ``troef status`` and ``troef matches`` need no numpy.

``troef games`` and ``troef bots`` fit the terminal (:func:`fit_table`): the
width is ``COLUMNS`` when set, else the terminal's, else 80 (output to a file
or a pipe). Their one-line listings leave the details (options, choices, team
layouts) to ``troef games NAME`` and ``troef bots NAME``.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

if TYPE_CHECKING:
    from harness.contracts.bot import Bot
    from harness.contracts.game import Game
    from harness.contracts.options import Option
    from harness.contracts.result import Result
    from harness.stats.standings import Standing

__all__ = [
    "FORMATS",
    "NOTE_WIDTH",
    "bot_detail",
    "bots_table",
    "duration",
    "fit_table",
    "forfeit_table",
    "format_table",
    "game_detail",
    "games_table",
    "match_record",
    "notes",
    "result_table",
    "seat_ranges",
    "standings_rows",
    "standings_table",
    "terminal_width",
    "thinking_table",
]

#: The formats of every table command's ``--format``.
FORMATS = ("text", "markdown", "json", "csv")
#: Notes are wrapped to this width, below the tables they explain.
NOTE_WIDTH = 100


def format_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    fmt: str = "text",
    *,
    colalign: Sequence[str] | None = None,
) -> str:
    """``rows`` under ``headers`` in one of :data:`FORMATS`."""
    if fmt == "json":
        return json.dumps([dict(zip(headers, row, strict=True)) for row in rows])
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)
        return out.getvalue().rstrip("\n")
    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r}: expected one of {', '.join(FORMATS)}")
    return tabulate(
        rows,
        headers=list(headers),
        tablefmt="github" if fmt == "markdown" else "simple",
        colalign=tuple(colalign) if colalign else None,
    )


def notes(lines: Iterable[str], width: int = NOTE_WIDTH) -> list[str]:
    """Each note wrapped below a table: ``note: ...`` with an indented rest."""
    return [
        textwrap.fill(line, width, initial_indent="note: ", subsequent_indent="      ")
        for line in lines
    ]


def _titled(title: str, table: str, fmt: str) -> str:
    if fmt in ("json", "csv"):
        return table
    heading = "## " if fmt == "markdown" else ""
    return f"{heading}{title}\n\n{table}"


def forfeit_table(forfeits: Sequence[tuple[str, str, int]], fmt: str = "text") -> str:
    """Forfeits by entrant and reason; 'troef matches --forfeits' has the details."""
    table = format_table(["entrant", "forfeit reason", "matches"], forfeits, fmt)
    return _titled("Forfeits (details: troef matches DATABASE --forfeits)", table, fmt)


def thinking_table(
    thinking: Sequence[tuple[str, int, float, float]], fmt: str = "text"
) -> str:
    """Each entrant's thinking time per move, as the referee measured it."""
    if fmt in ("json", "csv"):
        headers = ["entrant", "moves", "total seconds", "longest move seconds"]
        return format_table(headers, [list(row) for row in thinking], fmt)
    rows = [
        [
            entrant,
            decisions,
            duration(total / decisions) if decisions else "-",
            duration(longest),
            duration(total),
        ]
        for entrant, decisions, total, longest in thinking
    ]
    headers = ["entrant", "moves", "mean per move", "longest move", "total"]
    table = format_table(headers, rows, fmt)
    return _titled("Thinking time, as the referee measured it", table, fmt)


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


def match_record(job: dict[str, Any], result: Result) -> dict[str, Any]:
    """One recorded match as plain data: ``troef matches --format json``'s
    record (typed, the forfeit whole), and ``harness.api.results``'."""
    seating = job["seating"]
    forfeit = result.forfeit
    return {
        "index": job["index"],
        "job id": job["id"],
        "seating": list(seating),
        "scores": list(result.scores),
        "ranks": list(result.ranks),
        "forfeit": None
        if forfeit is None
        else {
            "entrant": seating[forfeit.seat],
            "seat": forfeit.seat,
            "reason": forfeit.reason.value,
            "detail": forfeit.detail,
        },
        **({} if result.void is None else {"void": result.void}),
    }


def duration(seconds: float) -> str:
    """Seconds for a person: 7 µs, 1.25 ms, 3.40 s."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.2f} s"


#: A wrapped column is never made narrower than this (or its header).
MIN_WRAP = 8
#: ``troef bots`` names at most this many games of a bot before ``+N more``.
LISTED_GAMES = 3


def terminal_width() -> int:
    """``COLUMNS`` when set, else the terminal's width, else 80 (not a terminal)."""
    return shutil.get_terminal_size((80, 24)).columns


def fit_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int,
    *,
    wrap: Iterable[int],
) -> str:
    """A text table no wider than ``width``: the columns numbered in ``wrap``
    are wrapped at spaces (and hyphens), the others keep their width.

    Rows are set apart by a blank line once any of them takes two lines, so
    that a wrapped row reads as one. Narrower than the unwrapped columns and
    :data:`MIN_WRAP` per wrapped one allow, the table is as narrow as it can be.
    """
    wrapped = sorted(set(wrap))
    natural = [
        max([len(h), *(len(line) for r in rows for line in str(r[i]).splitlines())])
        for i, h in enumerate(headers)
    ]
    floor = {i: max(MIN_WRAP, len(headers[i])) for i in wrapped}
    # Share the room left by the other columns: the narrowest first, so that
    # what a short column does not need goes to the long ones.
    room = width - 2 * (len(headers) - 1)
    room -= sum(w for i, w in enumerate(natural) if i not in floor)
    widths = dict.fromkeys(wrapped, 0)
    for k, i in enumerate(sorted(wrapped, key=lambda i: natural[i])):
        share = room // (len(wrapped) - k)
        widths[i] = max(floor[i], min(natural[i], share))
        room -= widths[i]
    while True:
        text = _render(headers, rows, widths)
        excess = max(len(line) for line in text.splitlines()) - width
        shrinkable = [i for i in wrapped if widths[i] > floor[i]]
        if excess <= 0 or not shrinkable:
            return text
        # tabulate's own padding can make a column wider than its cells.
        widest = max(shrinkable, key=lambda i: widths[i])
        widths[widest] = max(floor[widest], widths[widest] - excess)


def _render(
    headers: Sequence[str], rows: Sequence[Sequence[str]], widths: Mapping[int, int]
) -> str:
    cells = [
        [
            _wrap(str(cell), widths[i]) if i in widths else str(cell)
            for i, cell in enumerate(row)
        ]
        for row in rows
    ]
    text = tabulate(
        cells, headers=list(headers), tablefmt="simple", disable_numparse=True
    )
    if not any("\n" in cell for row in cells for cell in row):
        return text
    lines = text.splitlines()
    out = lines[:2]  # the headers and their rule
    for line in lines[2:]:
        if not line.startswith(" ") and len(out) > 2:
            out.append("")  # a row's first line: its first column is filled
        out.append(line)
    return "\n".join(out)


def _wrap(text: str, width: int) -> str:
    return "\n".join(
        "\n".join(textwrap.wrap(line, width) or [""]) for line in text.splitlines()
    )


def seat_ranges(counts: Iterable[int]) -> str:
    """Seat counts as runs: ``2-4, 6``; ``4``."""
    runs: list[list[int]] = []
    for n in sorted(counts):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(
        str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs
    )


def games_table(
    games: Mapping[str, type[Game]], width: int, *, note: bool = True
) -> str:
    """``troef games``: name, title, seat counts and one line per game."""
    rows = [
        [name, cls.title, seat_ranges(cls.seat_counts), cls.describe() or "-"]
        for name, cls in sorted(games.items())
    ]
    text = fit_table(
        ["game", "title", "seats", "description"], rows, width, wrap=(1, 3)
    )
    if note:
        text += "\n\n" + "\n".join(
            notes(
                [
                    "troef games NAME shows one game's team layouts, options "
                    "and variants"
                ],
                width,
            )
        )
    return text


def game_detail(cls: type[Game], plugin: str, width: int) -> str:
    """``troef games NAME``: the game's seat counts with their team layouts,
    every option with its default, allowed values and doc, and a table per
    option with choices, one line each."""
    from harness.contracts.teams import team_layout, team_seats

    game = cls()
    seats = []
    for n in sorted(cls.seat_counts):
        teams = team_seats(team_layout(game, n))
        if all(len(team) == 1 for team in teams):
            layout = "each for himself"
        else:
            layout = f"{len(teams)} teams: " + " against ".join(
                ", ".join(str(s) for s in team) for team in teams
            )
        seats.append([str(n), layout])
    parts = [
        _wrap(f"{cls.name}: {cls.title}", width),
        _wrap(cls.describe() or "-", width),
        f"plugin: {plugin}",
        fit_table(["seats", "teams (seats from 0)"], seats, width, wrap=(1,)),
    ]
    if cls.option_specs:
        parts.append(options_table(cls.option_specs, width))
    for option in cls.option_specs:
        if option.choices is not None:
            parts.append(_choices_table(option, width))
    return "\n\n".join(parts)


def options_table(specs: Sequence[Option], width: int) -> str:
    """Every option with its default, the values it takes and what it does."""
    rows = []
    for o in specs:
        allowed = o.allowed()
        if o.choices is not None:
            allowed = f"one of {len(o.choices)}, below"  # one line each there
        rows.append([o.name, repr(o.default), allowed, o.doc or "-"])
    return fit_table(
        ["option", "default", "allowed", "what it does"], rows, width, wrap=(2, 3)
    )


def _choices_table(option: Option, width: int) -> str:
    rows = [[str(c), option.choice_doc(c) or "-"] for c in option.choices or ()]
    return fit_table([option.name, "what it is"], rows, width, wrap=(1,))


def _games_of(cls: type[Bot], listed: int | None = None) -> str:
    if cls.games is None:
        return "any"
    names = sorted(cls.games)
    if listed is None or len(names) <= listed:
        return ", ".join(names)
    return ", ".join(names[: listed - 1]) + f" +{len(names) - listed + 1} more"


def bots_table(
    bots: Mapping[str, type[Bot]], plugins: Mapping[str, str], width: int
) -> str:
    """``troef bots``: name, the games it plays, one line, and its plugin."""
    rows = [
        [name, _games_of(cls, LISTED_GAMES), cls.describe() or "-", plugins[name]]
        for name, cls in sorted(bots.items())
    ]
    text = fit_table(
        ["bot", "games", "description", "plugin"], rows, width, wrap=(1, 2)
    )
    return (
        text
        + "\n\n"
        + "\n".join(
            notes(
                ["troef bots NAME shows one bot's games in full and its options"], width
            )
        )
    )


def bot_detail(cls: type[Bot], plugin: str, width: int) -> str:
    """``troef bots NAME``: the bot's games, description, plugin and options."""
    parts = [
        _wrap(f"{cls.name}: {cls.describe() or '-'}", width),
        _wrap(f"games: {_games_of(cls)}", width),
        f"plugin: {plugin}",
    ]
    if cls.option_specs:
        parts.append(options_table(cls.option_specs, width))
        for option in cls.option_specs:
            if option.choices is not None:
                parts.append(_choices_table(option, width))
    else:
        parts.append("options: none")
    return "\n\n".join(parts)
