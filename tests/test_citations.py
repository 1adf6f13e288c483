"""Every citation of the rule texts, in code and docs of the whole tree, is right.

The rule texts are ``../shared/seeds/NNN_<hash>.txt`` beside the repository,
the authority; ``tests/seed_texts/`` holds a copy of them, so that this test
runs on any machine, a clean clone far from ``../shared`` included, and
:func:`test_the_copy_of_the_seed_texts_is_the_authority` fails when the copy
differs from ``../shared/seeds`` where that is there. ``TROEF_SEEDS`` names
another folder to read instead. A seed file is a run of games, each section
opening with its title line (``Bezique, 2 spelers - Spelregels``) and running
to the next one.

A citation is any of the forms the tree uses:

- ``seed 000 line 111``, ``seed 000 lines 114-122``, ``seed 004 lines 81, 82``;
- ``000:466``, ``000:453-455`` (the colon form, seed file and line);
- ``line 109``, ``lines 95, 97`` alone, or a cell of a Markdown table's
  ``line`` column: a line of the seed file the text named
  last before it (``seed 000``, ``seed 000 line 93``,
  ``seeds/002_7b8951f6e8c026cd.txt``, ``../shared/seeds/004_*.txt``; not a
  colon citation, which is a reference in passing), or, in a family whose games
  are all in one seed file (bezique, rummy), of that file. A bare line in a
  file of a family spread over several seed files, before any seed is named,
  is an error: nobody can tell which text it means. A bare line in a file of no
  family and with no seed named is not a citation (engine code speaks of the
  lines of a TOML file).

Each cited line exists and is not empty (a range: its first and last line), and
lies in the section of a game of the citing file's family (``games/jass/``,
``tests/games/jass/``, ``bots/jass.py``, ... are the jass family's; a file of no
family, shared code, may cite any game), or of its own game where its name
names one (``belote.py``, ``tournaments/belote-2-jass-sprt.toml``). Where a
citation is followed by a quotation that occurs in the seed file, the quotation
is on the cited lines: a citation that drifted off its sentence fails even
within its game's section.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The rule texts, as the rules documents cite them: ``../shared/seeds``.
AUTHORITY = ROOT.parent / "shared" / "seeds"
#: The copy of them this test reads.
SEEDS = Path(os.environ.get("TROEF_SEEDS", ROOT / "tests" / "seed_texts"))

#: Section titles of the seed files (their words before the comma) -> game.
TITLES = {
    "Fildinski": "fildinski",
    "Rubicon": "rubicon",
    "Bezique": "bezique",
    "Maison Troggen": "maison-troggen",
    "Triomphe Forcée": "triomphe-forcee",
    "Marjolet": "marjolet",
    "Binage / Cinq Cents": "binage",
    "La Rigueur (Tarot)": "la-rigueur",
    "Maison Tarot": "maison-tarot",
    "Vijfhonderden": "vijfhonderden",
    "Smousjas": "smousjas",
    "Gin Rummy (Oklahoma)": "gin-rummy",
    "Belote / Piekjas": "belote",
    "Klapper / Klapperjas": "klapper",
    "Kleintje Klaverjas": "kleintje-klaverjas",
    "Klaverjassen": "klaverjassen",
}
#: Klaverjassen has two sections, for three and for four players.
KLAVERJASSEN = {"3": "klaverjassen-3", "4": "klaverjassen"}

#: Each family: its games and how a word of a path that marks it as the
#: family's begins (``stock_jass.py``, ``klaverjassen-3-jass-round-robin.toml``).
FAMILIES: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "bezique": (
        frozenset({"bezique", "rubicon", "fildinski", "marjolet", "binage"}),
        ("bezique", "rubicon", "fildinski", "marjolet", "binage"),
    ),
    "jass": (
        frozenset(
            {
                "smousjas",
                "vijfhonderden",
                "belote",
                "klapper",
                "kleintje-klaverjas",
                "klaverjassen-3",
                "klaverjassen",
            }
        ),
        ("jass", "klaverjas", "klapper", "belote", "smous", "vijfhonderden"),
    ),
    "tarot": (
        frozenset({"maison-troggen", "triomphe-forcee", "la-rigueur", "maison-tarot"}),
        ("tarot", "troggen", "triomphe", "rigueur", "maison"),
    ),
    "rummy": (frozenset({"gin-rummy"}), ("rummy", "gin")),
}
#: Where citations are looked for: text the project writes.
SUFFIXES = {".py", ".md", ".toml", ".txt", ".rst", ".cfg", ".html", ".js"}
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", "build", "dist"}

_HEADER = re.compile(
    r"^(?P<title>.+?),? (?P<n>\d[\d, -]*) spelers - Spelregels$", re.IGNORECASE
)
#: A line or a range; a number followed by ``:`` and a digit is a seed file.
_NUM = r"\d+(?!\d|:\d)(?:\s*[-\u2013]\s*\d+(?!\d))?"  # - or an en dash
_SEP = r"(?:[\s#]*,[\s#]*(?:and[\s#]+)?|[\s#]+and[\s#]+)"
_LIST = rf"(?P<list>{_NUM}(?:{_SEP}{_NUM})*)"
_TOKEN = re.compile(
    rf"""
    (?P<file>\b(?P<fid>\d{{3}})_(?:[0-9a-f]{{16}}|\*)(?:\.txt)?|seeds/(?P<did>\d{{3}})\b)
    | \bseed\s(?P<sid>\d{{3}})\b(?:[,:]?\s+lines?\s+(?={_NUM}){_LIST})?
    | (?<![\w.:])(?P<cid>\d{{3}}):(?P<cnum>{_NUM})
    | \blines?\s+(?P<bare>{_NUM}(?:{_SEP}{_NUM})*)
    """,
    re.IGNORECASE | re.VERBOSE,
)
#: A quotation right after a citation: ``(line 59: "altijd zonder ...")``.
_OPEN, _CLOSE = "\"'\u201c\u2018", "\"'\u201d\u2019"  # straight and curly
_QUOTE = re.compile(rf"[^{_OPEN}]{{0,12}}?[{_OPEN}]([^{_CLOSE}]{{8,}}?)[{_CLOSE}]")


@dataclass(frozen=True)
class Section:
    game: str
    first: int
    last: int


@dataclass(frozen=True)
class Seed:
    lines: tuple[str, ...]
    sections: tuple[Section, ...]

    def games_of(self, first: int, last: int) -> set[str]:
        return {s.game for s in self.sections if s.first <= last and first <= s.last}


@dataclass(frozen=True)
class Citation:
    path: str
    line: int
    text: str
    seed: str
    first: int
    last: int
    #: The quotation after the citation, and every range the citation names
    #: (``lines 105, 111: "..."``): the quotation is on one of them.
    quote: str = ""
    together: tuple[tuple[int, int], ...] = ()


@cache
def seeds() -> dict[str, Seed]:
    """The seed files by their number (``"000"``), with their sections."""
    files = sorted(SEEDS.glob("[0-9][0-9][0-9]_*.txt")) if SEEDS.is_dir() else []
    assert files, (
        f"no rule texts in {SEEDS}: copy ../shared/seeds/*.txt into "
        "tests/seed_texts/, or name the folder in TROEF_SEEDS"
    )
    out = {}
    for path in files:
        lines = tuple(path.read_text(encoding="utf-8").splitlines())
        heads = []
        for number, line in enumerate(lines, 1):
            m = _HEADER.match(line.strip())
            if m:
                title = m["title"]
                game = (
                    KLAVERJASSEN[m["n"]] if title == "Klaverjassen" else TITLES[title]
                )
                heads.append((game, number))
        sections = tuple(
            Section(
                game, first, (heads[i + 1][1] - 1) if i + 1 < len(heads) else len(lines)
            )
            for i, (game, first) in enumerate(heads)
        )
        out[path.name[:3]] = Seed(lines, sections)
    return out


#: A word of a file's name (split at ``_ - .``) that makes it one game's own:
#: it cites that game's section only (``belote.py``, ``test_klapper_two.py``,
#: ``triomphe-forcee-5-gauntlet.toml``). Not the names of several games'
#: files (``bezique.py`` speaks for the family, ``maison.py`` for two games).
GAME_WORDS = {
    "belote": "belote",
    "klapper": "klapper",
    "kleintje": "kleintje-klaverjas",
    "klaverjassen3": "klaverjassen-3",
    "smousjas": "smousjas",
    "vijfhonderden": "vijfhonderden",
    "rubicon": "rubicon",
    "fildinski": "fildinski",
    "marjolet": "marjolet",
    "binage": "binage",
    "troggen": "maison-troggen",
    "triomphe": "triomphe-forcee",
    "rigueur": "la-rigueur",
    "gin": "gin-rummy",
}


def family_games(rel: str) -> frozenset[str] | None:
    """The games a file at ``rel`` may cite: those its name names
    (:data:`GAME_WORDS`), else those of the families its path names; ``None``:
    a file of no family (shared code) may cite every game."""
    path = rel.lower()
    words = set(re.split(r"[-_.]", path.rsplit("/", 1)[-1]))
    own = frozenset(GAME_WORDS[w] for w in words & GAME_WORDS.keys())
    if own:
        return own
    tokens = re.split(r"[-_./]", path)
    found: set[str] = set()
    for games, marks in FAMILIES.values():
        if any(token.startswith(marks) for token in tokens):
            found |= games
    return frozenset(found) or None


def default_seed(games: frozenset[str] | None) -> str | None:
    """The one seed file that holds all of ``games``' sections, if there is one."""
    if games is None:
        return None
    holders = {
        number
        for number, seed in seeds().items()
        if {s.game for s in seed.sections} & games
    }
    return holders.pop() if len(holders) == 1 else None


def _ranges(text: str) -> list[tuple[int, int]]:
    out = []
    for part in re.split(_SEP, text):
        a, _, b = re.sub(r"\s", "", part).replace("\u2013", "-").partition("-")
        out.append((int(a), int(b or a)))
    return out


def tree_files() -> list[Path]:
    """Every text file of the tree the project writes."""
    out = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in SKIP_DIRS
            and not d.startswith(".")
            and not d.endswith(".egg-info")
        )
        for name in sorted(filenames):
            path = Path(dirpath) / name
            # This file's examples are wrong on purpose.
            if path.suffix in SUFFIXES and path != Path(__file__).resolve():
                out.append(path)
    return out


_Groups = dict[str | int, str | None]


def _hits(text: str) -> list[tuple[int, int, _Groups]]:
    """The seed mentions and citations of ``text`` in order, each as its
    span and :data:`_TOKEN`'s groups; a cell of a Markdown table's ``line``
    column (``| meld:trumps | ... | 250 | 114 |``) is a bare citation."""
    hits: list[tuple[int, int, _Groups]] = []
    for m in _TOKEN.finditer(text):
        groups: _Groups = {name: value for name, value in m.groupdict().items()}
        groups[0] = m[0]
        hits.append((m.start(), m.end(), groups))
    column, offset = -1, 0
    for row in text.splitlines(keepends=True):
        cells = (
            row.strip().strip("|").split("|") if row.lstrip().startswith("|") else []
        )
        names = [c.strip().lower() for c in cells]
        if not cells:
            column = -1
        elif column < 0 and ("line" in names or "lines" in names):
            column = names.index("line" if "line" in names else "lines")
        elif column >= 0 and column < len(cells):
            cell = cells[column]
            if re.fullmatch(rf"\s*{_LIST}\s*", cell):
                at = (
                    offset
                    + row.index("|")
                    + 1
                    + sum(len(c) + 1 for c in cells[:column])
                )
                hits.append(
                    (at, at + len(cell), {0: cell.strip(), "bare": cell.strip()})
                )
        offset += len(row)
    return sorted(hits, key=lambda hit: hit[0])


def citations(rel: str, text: str) -> tuple[list[Citation], list[str]]:
    """The citations in one file's ``text``, and the errors of those that name
    no seed file."""
    known = seeds()
    games = family_games(rel)
    context = default_seed(games)
    found: list[Citation] = []
    errors: list[str] = []
    for start, end, m in _hits(text):
        line = text.count("\n", 0, start) + 1
        quoted = _QUOTE.match(text, end)
        quote = quoted[1] if quoted else ""
        number = m.get("fid") or m.get("did") or m.get("sid") or m.get("cid")
        if number is not None and number not in known:
            # "seed 170" is a match seed; "seed 170 line 4" names no rule text.
            if m.get("list"):
                errors.append(f"{rel}:{line}: {m[0]!r}: no seed file {number}")
            continue
        if m.get("cid"):
            # A colon citation is a reference in passing (``the same words at
            # 003:1``): bare lines after it still mean the file named before.
            seed = number
        else:
            if number is not None:
                context = number
            seed = context
        cited = m.get("list") or m.get("cnum") or m.get("bare")
        if cited is None:
            continue
        if seed is None:
            if games is not None:
                errors.append(
                    f"{rel}:{line}: {m[0]!r} names no seed file (none named "
                    f"before it in this file)"
                )
            continue
        ranges = tuple(_ranges(cited))
        for first, last in ranges:
            found.append(
                Citation(rel, line, str(m[0]), seed, first, last, quote, ranges)
            )
    return found, errors


def problems(cite: Citation) -> list[str]:
    """What is wrong with one citation (empty: nothing)."""
    seed = seeds()[cite.seed]
    where = f"{cite.path}:{cite.line}: {cite.text!r} (seed {cite.seed}"
    where += f" line {cite.first}" + (
        f"-{cite.last}" if cite.last != cite.first else ""
    )
    where += ")"
    n = len(seed.lines)
    if not 1 <= cite.first <= cite.last <= n:
        return [f"{where}: seed {cite.seed} has lines 1-{n}"]
    out = []
    for number in {cite.first, cite.last}:
        if not seed.lines[number - 1].strip():
            out.append(f"{where}: line {number} is empty")
    games = family_games(cite.path)
    cited_games = seed.games_of(cite.first, cite.last)
    if games is not None and not cited_games <= games:
        out.append(
            f"{where}: in the section of {', '.join(sorted(cited_games))}, not of "
            f"{', '.join(sorted(games))}"
        )
    if cite.quote:
        text = " ".join(seed.lines)
        said = " ".join(
            " ".join(seed.lines[a - 1 : b])
            for a, b in cite.together or [(cite.first, cite.last)]
        )
        quote = " ".join(cite.quote.split()).strip(" .,;…")
        if quote.lower() in text.lower() and quote.lower() not in said.lower():
            out.append(f"{where}: the quotation {quote!r} is not on the cited lines")
    return out


def every_citation() -> tuple[list[Citation], list[str]]:
    found: list[Citation] = []
    errors: list[str] = []
    for path in tree_files():
        rel = path.relative_to(ROOT).as_posix()
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        cites, errs = citations(rel, text)
        found += cites
        errors += errs
    return found, errors


def test_the_copy_of_the_seed_texts_is_the_authority() -> None:
    """The copy in tests/seed_texts/ is ../shared/seeds, file by file, where
    the authority lies beside the repository (a clean clone elsewhere has only
    the copy, and says so)."""
    if not AUTHORITY.is_dir():
        pytest.skip(f"no {AUTHORITY} beside this clone: only the copy is checked")
    theirs = {p.name: p.read_bytes() for p in AUTHORITY.glob("*.txt")}
    ours = {p.name: p.read_bytes() for p in SEEDS.glob("*.txt")}
    assert ours == theirs, (
        "tests/seed_texts/ differs from ../shared/seeds: copy the texts again"
    )


def test_the_seed_texts_are_there_and_cut_into_every_game() -> None:
    """The texts the rules documents cite, each game's section found."""
    found = {s.game for seed in seeds().values() for s in seed.sections}
    every = set().union(*(games for games, _ in FAMILIES.values()))
    assert every <= found, f"no section for {sorted(every - found)} in {SEEDS}"
    bezique = next(s for s in seeds()["000"].sections if s.game == "bezique")
    assert (bezique.first, bezique.last) == (93, 140)


def test_every_citation_in_the_tree_points_at_its_games_text() -> None:
    """Each cited line exists, is not empty, lies in a section of the citing
    file's family, and holds the quotation that follows the citation."""
    found, errors = every_citation()
    assert len(found) > 1000  # the tree cites its texts throughout
    for cite in found:
        errors += problems(cite)
    assert not errors, f"{len(errors)} wrong citations:\n" + "\n".join(errors)


def test_the_reader_finds_each_form_and_catches_each_fault() -> None:
    """The forms the tree writes, resolved; a wrong one of each kind caught."""
    text = (
        "Bezique (seed 000 line 93): lines 95, 97 and 101-102.\n"
        "Belote: seeds/002_7b8951f6e8c026cd.txt, line 59 and 000:466.\n"
        'Then line 111 (line 91: "Heer & Vrouw van troef").\n'
    )
    cites, errors = citations("games/bezique/RULES.md", text)
    assert not errors
    got = [(c.seed, c.first, c.last) for c in cites]
    assert got == [
        ("000", 93, 93), ("000", 95, 95), ("000", 97, 97), ("000", 101, 102),
        ("002", 59, 59), ("000", 466, 466), ("002", 111, 111), ("002", 91, 91),
    ]  # fmt: skip
    wrong = {(c.seed, c.first): problems(c) for c in cites}
    assert wrong["000", 93] == wrong["000", 95] == wrong["000", 97] == []
    assert "line 102 is empty" in wrong["000", 101][0]  # a range's last line
    assert "section of belote" in wrong["002", 59][0]  # jass's text in bezique's
    assert "section of smousjas" in wrong["000", 466][0]
    assert "section of klapper" in wrong["002", 111][0]
    assert [c.quote for c in cites][-1] == "Heer & Vrouw van troef"
    assert "quotation" not in " ".join(wrong["002", 91])
    cite = Citation("x.md", 1, "line 107", "000", 107, 107, "Tijdens het spel")
    (bad,) = problems(cite)
    assert "x.md:1" in bad and "quotation 'Tijdens het spel' is not on" in bad
    jass = 'seeds/002_7b8951f6e8c026cd.txt, lines 105, 111: "partners zitten om en om"'
    cites, errors = citations("games/jass/RULES.md", jass)
    assert not errors and [problems(c) for c in cites] == [[], []]
    cites, _ = citations("games/jass/RULES.md", jass.replace("105, 111", "105"))
    assert "quotation" in problems(cites[0])[0]
    _, errors = citations("games/jass/RULES.md", "cards (line 84)")
    assert errors and "names no seed file" in errors[0]
    cites, errors = citations("harness/cli/run.py", "on line 3 of the TOML file")
    assert cites == [] and errors == []
    _, errors = citations("games/tarot/RULES.md", "seed 001 line 3")
    assert "no seed file 001" in errors[0]
    cites, errors = citations("tests/golden/__init__.py", "seed 170: 416 lines")
    assert cites == [] and errors == []  # a match seed
    cites, _ = citations("games/jass/belote.py", "seed 002 line 111 (Klapper)")
    assert "section of klapper, not of belote" in problems(cites[0])[0]
    assert family_games("harness/plugins.py") is None  # "gin" is no word of it
    assert family_games("tests/games/rummy/test_gin_rules.py") == frozenset(
        {"gin-rummy"}
    )
    table = (
        "seed 000 line 93\n\n| action | points | line |\n| --- | ---: | --- |\n"
        "| `meld:kings` | 80 | 116 |\n| `dix` | 10 | 124 |\n\nline 127\n"
    )
    cites, errors = citations("games/bezique/RULES.md", table)
    assert [(c.first, c.line) for c in cites] == [(93, 1), (116, 5), (124, 6), (127, 8)]
    assert [bool(problems(c)) for c in cites] == [False, False, True, False]
