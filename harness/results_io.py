"""Reading results played elsewhere: CSV tables and PGN files, as PairResults.

CSV: a header ``white,black,result`` (case-insensitive, in any order; an
optional ``group`` column names duplicate groups; other columns are ignored),
then one game per line. PGN: the ``White``, ``Black`` and ``Result`` tags of
each game (the PGN standard, §8.1.1, "Seven Tag Roster"); games whose result
is ``*`` (unfinished) are skipped and counted. In both, ``first`` is White,
so a fit with ``seat_advantage=True`` estimates the first-move advantage.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from harness.errors import TroefError
from harness.ratings import PairResult

__all__ = ["ResultsFile", "ResultsFileError", "read_csv", "read_pgn", "read_results"]

#: Result notations and White's score.
RESULTS = {
    "1": 1.0,
    "1.0": 1.0,
    "1-0": 1.0,
    "0": 0.0,
    "0.0": 0.0,
    "0-1": 0.0,
    "0.5": 0.5,
    ".5": 0.5,
    "1/2": 0.5,
    "½": 0.5,
    "1/2-1/2": 0.5,
    "½-½": 0.5,
}
ACCEPTED = "1, 0.5, 0, 1/2, 1-0, 0-1, 1/2-1/2"
_TAG = re.compile(r'^\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')


class ResultsFileError(TroefError, ValueError):
    """A results file (CSV or PGN) cannot be read; the message names file and line."""


@dataclass(frozen=True)
class ResultsFile:
    """What a results file held."""

    path: Path
    results: tuple[PairResult, ...]
    #: Games skipped because they have no result (PGN ``*``).
    skipped: int = 0


def _score(path: Path, line: int, text: str) -> float:
    try:
        return RESULTS[text.strip()]
    except KeyError:
        raise ResultsFileError(
            f"{path}:{line}: result {text!r} not understood; accepted: {ACCEPTED}"
        ) from None


def _pair(
    path: Path, line: int, white: str, black: str, score: float, group: str | None
) -> PairResult:
    white, black = white.strip(), black.strip()
    if not white or not black:
        raise ResultsFileError(
            f"{path}:{line}: a player name is empty (white={white!r}, black={black!r})"
        )
    if white == black:
        raise ResultsFileError(
            f"{path}:{line}: {white!r} is listed as both white and black"
        )
    return PairResult(white, black, score, group or None, white)


def read_csv(path: str | Path) -> ResultsFile:
    """Read ``white,black,result[,group]`` rows (blank lines are skipped).

    :raises ResultsFileError: a missing file, a header without the three
        columns, a short row or a result not in ``1, 0.5, 0, 1/2, 1-0, 0-1, 1/2-1/2``.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ResultsFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    rows = csv.reader(text.splitlines())
    header = next(rows, None)
    columns = [c.strip().lower() for c in header or []]
    missing = [c for c in ("white", "black", "result") if c not in columns]
    if missing:
        raise ResultsFileError(
            f"{path}:1: header {','.join(header or [])!r} lacks {', '.join(missing)}; "
            "expected: white,black,result (optionally group)"
        )
    w, b, r = (columns.index(c) for c in ("white", "black", "result"))
    g = columns.index("group") if "group" in columns else None
    out = []
    for line, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < len(columns):
            raise ResultsFileError(
                f"{path}:{line}: {len(row)} fields, the header has {len(columns)}"
            )
        group = row[g].strip() if g is not None else None
        out.append(_pair(path, line, row[w], row[b], _score(path, line, row[r]), group))
    return ResultsFile(path, tuple(out))


def _games(lines: list[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """(line of first tag, tags) per game; a game starts at a tag after other text."""
    tags: dict[str, str] = {}
    start = 0
    in_tags = False
    in_comment = False
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if in_comment:  # a {comment} may span lines and hold brackets
            in_comment = "}" not in line
            continue
        match = _TAG.match(line)
        if match:
            if not in_tags and tags:
                yield start, tags
                tags = {}
            if not in_tags:
                start = number
            in_tags = True
            tags[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
        elif line:
            in_tags = False
            in_comment = line.count("{") > line.count("}")
    if tags:
        yield start, tags


def read_pgn(path: str | Path) -> ResultsFile:
    """Read the games of a PGN file; ``*`` results are skipped and counted.

    :raises ResultsFileError: a game without White, Black or Result, or an
        unknown Result (the line is that of the game's first tag).
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8-sig", errors="replace").splitlines()
    except OSError as exc:
        raise ResultsFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    out = []
    skipped = 0
    for line, tags in _games(lines):
        missing = [t for t in ("White", "Black", "Result") if t not in tags]
        if missing:
            raise ResultsFileError(
                f"{path}:{line}: game without a {', '.join(missing)} tag"
            )
        if tags["Result"].strip() == "*":
            skipped += 1
            continue
        out.append(
            _pair(
                path,
                line,
                tags["White"],
                tags["Black"],
                _score(path, line, tags["Result"]),
                None,
            )
        )
    return ResultsFile(path, tuple(out), skipped)


def read_results(path: str | Path) -> ResultsFile:
    """Read a ``.csv`` or ``.pgn`` file by its suffix."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return read_csv(path)
    if suffix == ".pgn":
        return read_pgn(path)
    raise ResultsFileError(
        f"{path}: unknown results format {suffix!r}; accepted: .csv, .pgn"
    )
