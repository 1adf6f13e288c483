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
import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from harness.contracts.errors import TroefError
from harness.stats.ratings import (
    FloatArray,
    PairResult,
    PairTable,
    table_from_columns,
)

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
#: Index columns (int32: a million games' names and groups in 12 MB).
IntArray = NDArray[np.integer[Any]]
_TAG = re.compile(r'^\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')


class ResultsFileError(TroefError, ValueError):
    """A results file (CSV or PGN) cannot be read; the message names file and line."""


class _Interner(dict[str, int]):
    """Names to 0, 1, 2, ... in order of first appearance (a C-speed lookup)."""

    def __missing__(self, name: str) -> int:
        code = self[name] = len(self)
        return code


class _Groups(dict[str, int]):
    """Group names to 0, 1, 2, ... ; the empty name (no group) is -1."""

    def __init__(self) -> None:
        super().__init__({"": -1})

    def __missing__(self, name: str) -> int:
        code = self[name] = len(self) - 1
        return code


@dataclass(frozen=True, eq=False)
class ResultsFile:
    """What a results file held, as columns: one entry per game, in file order.

    Names are interned: ``white[k]`` and ``black[k]`` index ``names`` (sorted),
    ``score[k]`` is White's score, ``group[k]`` indexes ``groups`` (-1: none).
    """

    path: Path
    names: tuple[str, ...]
    white: IntArray = field(repr=False)
    black: IntArray = field(repr=False)
    score: FloatArray = field(repr=False)
    group: IntArray = field(repr=False)
    groups: tuple[str, ...] = ()
    #: Games skipped because they have no result (PGN ``*``).
    skipped: int = 0

    def __len__(self) -> int:
        return len(self.score)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ResultsFile):
            return NotImplemented
        return (self.path, self.skipped, self.names, self.groups) == (
            other.path,
            other.skipped,
            other.names,
            other.groups,
        ) and all(
            np.array_equal(x, y)
            for x, y in zip(self._columns(), other._columns(), strict=True)
        )

    __hash__ = None  # type: ignore[assignment]  # mutable arrays inside

    def _columns(self) -> tuple[Any, ...]:
        return self.white, self.black, self.score, self.group

    @functools.cached_property
    def results(self) -> tuple[PairResult, ...]:
        """The games as PairResults (``first`` is White); built on first use."""
        names, groups = self.names, self.groups
        return tuple(
            PairResult(names[w], names[b], s, groups[g] if g >= 0 else None, names[w])
            for w, b, s, g in zip(
                self.white.tolist(),
                self.black.tolist(),
                self.score.tolist(),
                self.group.tolist(),
                strict=True,
            )
        )

    def table(self) -> PairTable:
        """The games summed into a PairTable (as ``aggregate(self.results)``,
        without building a PairResult per game)."""
        n = len(self)
        return table_from_columns(
            self.names,
            self.white,
            self.black,
            self.score,
            np.ones(n),
            np.ones(n, np.int64),
        )[0]

    @classmethod
    def of_results(
        cls, path: Path, results: Sequence[PairResult], skipped: int = 0
    ) -> ResultsFile:
        """From PairResults whose ``first`` is ``a`` (White)."""
        names, groups = _Interner(), _Groups()
        white = [names[r.a] for r in results]
        black = [names[r.b] for r in results]
        group = [groups[r.group or ""] for r in results]
        return cls._sorted(
            path,
            names,
            np.array(white, np.int32),
            np.array(black, np.int32),
            np.array([r.score for r in results], np.float64),
            np.array(group, np.int32),
            groups,
            skipped,
        )

    @classmethod
    def _sorted(
        cls,
        path: Path,
        names: Mapping[str, int],
        white: IntArray,
        black: IntArray,
        score: FloatArray,
        group: IntArray,
        groups: Mapping[str, int],
        skipped: int = 0,
    ) -> ResultsFile:
        """Renumber interned names in sorted order (as ``aggregate`` does)."""
        order = sorted(names)
        remap = np.zeros(len(order), np.int32)
        for new, name in enumerate(order):
            remap[names[name]] = new
        group_names = [g for g in groups if g]  # interned 0, 1, ...; "" is -1
        return cls(
            path,
            tuple(order),
            remap[white] if len(order) else white,
            remap[black] if len(order) else black,
            score,
            group,
            tuple(group_names),
            skipped,
        )


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


#: Characters of CSV text parsed at a time (whole lines): bounds the memory
#: the per-field strings take.
CHUNK = 1 << 20


def read_csv(path: str | Path, *, groups: bool = True) -> ResultsFile:
    """Read ``white,black,result[,group]`` rows (blank lines are skipped).

    ``groups=False`` leaves the group column unread (every game its own group):
    only the bootstrap needs it, and a million distinct group names cost more
    memory than all the other columns.

    Lines are split in chunks of about a MiB with ``str.split`` and names
    interned to integers, so no object is made per game; a chunk with quotes,
    blank lines, short rows or bad values is read by the ``csv`` module line
    by line instead, which finds the line to blame.

    :raises ResultsFileError: a missing file, a header without the three
        columns, a short row, a result not in ``1, 0.5, 0, 1/2, 1-0, 0-1,
        1/2-1/2``, an empty or repeated name, or no game at all.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ResultsFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        raise ResultsFileError(
            f"{path}:{line}: not UTF-8 text (byte {exc.start}); expected a CSV "
            "with the header white,black,result"
        ) from None
    # Positions into the text, not slices of it: a copy of a large file's text
    # costs as much memory as the columns of all its games.
    end_of_text = len(text) - 1 if text.endswith("\n") else len(text)
    cut = text.find("\n")
    cut = end_of_text if cut < 0 else cut
    head = text[:cut]
    header = next(csv.reader([head]), None) if head.strip() else None
    columns = [c.strip().lower() for c in header or []]
    missing = [c for c in ("white", "black", "result") if c not in columns]
    if missing:
        raise ResultsFileError(
            f"{path}:1: header {','.join(header or [])!r} lacks {', '.join(missing)}; "
            "expected: white,black,result (optionally group)"
        )
    reader = _CsvColumns(path, columns, groups)
    pos = cut + 1
    if '"' in text:  # quoted fields (maybe spanning lines): the csv module
        reader.slow(text[pos:end_of_text].split("\n"), 2)
    else:
        line = 2
        while pos < end_of_text:
            end = text.find("\n", pos + CHUNK, end_of_text)
            end = end_of_text if end < 0 else end
            line = reader.chunk(text[pos:end], line)
            pos = end + 1
    if not reader.scores:
        raise ResultsFileError(f"{path}:2: no games after the header")
    return ResultsFile._sorted(
        path,
        reader.names,
        np.concatenate(reader.white),
        np.concatenate(reader.black),
        np.concatenate(reader.scores),
        np.concatenate(reader.group),
        reader.groups,
    )


class _CsvColumns:
    """Accumulates the columns of a CSV body, chunk by chunk."""

    def __init__(self, path: Path, columns: list[str], groups: bool) -> None:
        self.path = path
        self.width = len(columns)
        self.w, self.b, self.r = (
            columns.index(c) for c in ("white", "black", "result")
        )
        self.g = columns.index("group") if groups and "group" in columns else None
        self.names = _Interner()
        self.groups = _Groups()
        self.white: list[IntArray] = []
        self.black: list[IntArray] = []
        self.scores: list[FloatArray] = []
        self.group: list[IntArray] = []

    def chunk(self, text: str, first_line: int) -> int:
        """Read the lines ``text``, numbered from ``first_line``.

        :returns: the number of the line after them.
        """
        lines = text.split("\n")
        commas = np.fromiter(map(str.count, lines, repeat(",")), np.int64, len(lines))
        if not np.all(commas == self.width - 1):
            self.slow(lines, first_line)  # blank or short lines: find which
            return first_line + len(lines)
        k = self.width
        fields = text.replace("\n", ",").split(",")
        white = list(map(str.strip, fields[self.w :: k]))
        black = list(map(str.strip, fields[self.b :: k]))
        scores = list(map(RESULTS.get, map(str.strip, fields[self.r :: k])))
        if "" in white or "" in black or None in scores:
            self.slow(lines, first_line)
            return first_line + len(lines)
        groups = (
            list(map(str.strip, fields[self.g :: k])) if self.g is not None else None
        )
        self.add(white, black, scores, groups, first_line + np.arange(len(lines)))
        return first_line + len(lines)

    def slow(self, lines: list[str], first_line: int) -> None:
        """The csv module, row by row, with the errors of each bad line."""
        white, black, scores, groups, numbers = [], [], [], [], []
        path = self.path
        for line, row in enumerate(csv.reader(lines), start=first_line):
            if not any(cell.strip() for cell in row):
                continue
            if len(row) < self.width:
                raise ResultsFileError(
                    f"{path}:{line}: {len(row)} fields, the header has {self.width}"
                )
            group = row[self.g].strip() if self.g is not None else None
            pair = _pair(
                path,
                line,
                row[self.w],
                row[self.b],
                _score(path, line, row[self.r]),
                group,
            )
            white.append(pair.a)
            black.append(pair.b)
            scores.append(pair.score)
            groups.append(pair.group or "")
            numbers.append(line)
        self.add(white, black, scores, groups, np.array(numbers, np.int64))

    def add(
        self,
        white: list[str],
        black: list[str],
        scores: list[Any],
        groups: list[str] | None,
        lines: IntArray,
    ) -> None:
        n = len(white)
        if not n:
            return
        w = np.fromiter(map(self.names.__getitem__, white), np.int32, n)
        b = np.fromiter(map(self.names.__getitem__, black), np.int32, n)
        same = np.flatnonzero(w == b)
        if len(same):
            raise ResultsFileError(
                f"{self.path}:{lines[same[0]]}: {white[same[0]]!r} is listed as both "
                "white and black"
            )
        self.white.append(w)
        self.black.append(b)
        self.scores.append(np.array(scores, np.float64))
        self.group.append(
            np.fromiter(map(self.groups.__getitem__, groups), np.int32, n)
            if groups is not None
            else np.full(n, -1, np.int32)
        )


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
    if not out:
        what = f" ({skipped} unfinished skipped)" if skipped else ""
        raise ResultsFileError(f"{path}: no finished games{what}")
    return ResultsFile.of_results(path, out, skipped)


def read_results(path: str | Path, *, groups: bool = True) -> ResultsFile:
    """Read a ``.csv`` or ``.pgn`` file by its suffix (``groups``: see read_csv)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return read_csv(path, groups=groups)
    if suffix == ".pgn":
        return read_pgn(path)
    raise ResultsFileError(
        f"{path}: unknown results format {suffix!r}; accepted: .csv, .pgn"
    )
