"""Golden outputs of the ``troef`` command line: one text file per command.

Each case runs one command in-process (``harness.cli.main``) on fixed inputs —
the toy plugin game, a small inline tournament played once per session — and
keeps what it printed, stdout then stderr, at ``COLUMNS=80``, with what varies
from machine to machine normalised: the temporary folder becomes ``<tmp>``, the
repository ``<repo>``, seconds ``<s>``; the thinking-time table (a measurement)
and a traceback's frames are left out. ``tests/test_cli_golden.py`` compares each
with its file as text.

To make or refresh the files after a deliberate change (then read the diff)::

    python -m tests.cli_golden --write            # every case
    python -m tests.cli_golden --write report     # one case
    python -m tests.cli_golden status             # print it, write nothing
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from unittest import mock

from harness.cli import main as troef

__all__ = ["CASES", "golden_path", "main", "output"]

GOLDEN_DIR = Path(__file__).parent
REPO = GOLDEN_DIR.parents[1]
TOY = REPO / "tests" / "plugins" / "toy_game.py"
BROKEN = REPO / "tests" / "plugins" / "broken_bots.py"

#: A small round robin with a forfeiting entrant: every table has rows.
CONFIG = f"""name = "golden"
game = "toy"
matches = 3
seed = 11
executor = "inline"
plugins = ["{TOY}", "{BROKEN}"]

[entrants.search]
bot = "search"
options = {{ samples = 2 }}

[entrants.random]
bot = "random"

[entrants.raiser]
bot = "raises"
isolation = "in-process"
options = {{ after = 2 }}
"""

#: name -> the command's arguments; "{config}" and "{db}" name the tournament.
CASES: dict[str, list[str]] = {
    "games": ["games"],
    "games-klaverjassen": ["games", "klaverjassen"],
    "bots": ["--plugin", str(TOY), "bots"],
    "bots-pimc": ["bots", "pimc"],
    "play": [
        *("--plugin", str(TOY), "play", "toy"),
        *("--bots", "search:samples=2,random", "--seed", "3", "--show-hands"),
    ],
    "play-quiet-forfeit": [
        *("--plugin", str(TOY), "--plugin", str(BROKEN), "play", "toy"),
        *("--bots", "random,raises", "--quiet"),
    ],
    "check": ["--plugin", str(TOY), "check", "toy", "--matches", "2"],
    "validate": ["validate", "{config}"],
    "status": ["status", "{db}"],
    "matches": ["matches", "{db}"],
    "matches-forfeits": ["matches", "{db}", "--entrant", "search", "--forfeits"],
    "replay": ["replay", "{db}", "0"],
    "report": ["report", "{db}"],
    "report-json": ["report", "{db}", "--format", "json"],
    "report-pairs-csv": ["report", "{db}", "--format", "csv", "--table", "pairs"],
    "report-pairs-text": ["report", "{db}", "--table", "pairs"],
    "export": ["export", "{db}", "--entrant", "raiser", "--seat", "0"],
    "errors": ["replay", "{db}", "99"],
}


def golden_path(name: str) -> Path:
    """Where the golden output of case ``name`` lives."""
    return GOLDEN_DIR / f"{name}.txt"


def write_command(name: str) -> str:
    """The command that (re)makes the golden file of case ``name``."""
    return f"python -m tests.cli_golden --write {name}"


class Tournament:
    """The toy tournament the database cases read, played once."""

    def __init__(self) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="troef-cli-golden-")
        self.tmp = Path(self._folder.name)
        self.config = self.tmp / "golden.toml"
        self.config.write_text(CONFIG)
        self.db = self.tmp / "golden.sqlite"
        code, _, err = _run(["run", str(self.config), "--quiet"])
        if code != 0:
            raise AssertionError(f"the golden tournament did not run: {err}")

    def close(self) -> None:
        self._folder.cleanup()


#: The terminal width every case is printed at (tables fit it).
COLUMNS = "80"


def _run(argv: Sequence[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        mock.patch.dict(os.environ, {"COLUMNS": COLUMNS}),
    ):
        try:
            code = troef(list(argv))
        except SystemExit as exit_:  # argparse's own errors
            code = int(exit_.code or 0)
    return code, out.getvalue(), err.getvalue()


_SECONDS = re.compile(r"\b\d+(\.\d+)?s\b")
#: Thinking time in JSON ("seconds": 0.0017...): a measurement, masked.
_JSON_SECONDS = re.compile(r'("(?:longest_)?seconds": )[-+.\deE]+')
#: A traceback's frames name lines of the code and differ between Pythons;
#: its last line (the exception), at the indent of its first, is kept.
_FRAMES = re.compile(
    r"(?m)^( *)(.*Traceback \(most recent call last\):\n)(?:\1[ ].*\n)+"
)


def output(name: str, tournament: Tournament) -> str:
    """What case ``name`` prints, normalised (see the module docstring)."""
    argv = [
        a.replace("{config}", str(tournament.config)).replace(
            "{db}", str(tournament.db)
        )
        for a in CASES[name]
    ]
    code, out, err = _run(argv)
    out = _without_thinking(out)
    text = (
        f"$ troef {' '.join(CASES[name])}\n{out}"
        + (f"--- stderr\n{err}" if err else "")
        + f"--- exit status {code}\n"
    )
    for old, new in ((str(tournament.tmp), "<tmp>"), (str(REPO), "<repo>")):
        text = text.replace(old, new)
    text = _FRAMES.sub(r"\1\2\1  <frames>\n", text)
    text = _JSON_SECONDS.sub(r"\1<s>", text)
    return _SECONDS.sub("<s>", text)


def _without_thinking(text: str) -> str:
    """Drop the thinking-time section (its title, a blank line, the table): a
    measurement, never the same twice."""
    kept: list[str] = []
    blanks = -1  # -1: keeping; else the blank lines seen since the title
    for line in text.splitlines(keepends=True):
        if line.startswith(("Thinking time", "## Thinking time")):
            blanks = 0
            if kept and not kept[-1].strip():
                kept.pop()  # the blank line that led into the section
            continue
        if blanks >= 0:
            if not line.strip():
                blanks += 1
                if blanks == 2:
                    blanks = -1
            continue
        kept.append(line)
    return "".join(kept)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.cli_golden")
    parser.add_argument("--write", action="store_true", help="write the files")
    parser.add_argument("cases", nargs="*", help="case names (default: all)")
    args = parser.parse_args(argv)
    tournament = Tournament()
    try:
        for name in args.cases or sorted(CASES):
            text = output(name, tournament)
            if args.write:
                golden_path(name).write_text(text)
                print(f"wrote {golden_path(name).relative_to(REPO)}")
            else:
                print(text, end="")
    finally:
        tournament.close()
    return 0
