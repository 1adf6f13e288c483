"""``docs/games/``: the bot author's reference page of every built-in game.

``tests/games/test_game_pages.py`` compares each page with
:func:`harness.report.reference.game_reference`, so a page cannot drift from
the code. After a deliberate change of a game's view, moves or options, from
the repository root::

    python -m tests.game_pages --write     # rewrite docs/games/
    python -m tests.game_pages             # list the stale pages, write nothing
"""

from __future__ import annotations

import sys
from pathlib import Path

from harness.plugins import load_plugins
from harness.report.reference import game_reference

PAGES = Path(__file__).parents[1] / "docs" / "games"
INDEX = PAGES / "README.md"


def pages() -> dict[Path, str]:
    """Every page's path and its text as the code makes it, the index too."""
    registry = load_plugins()
    out = {}
    index = [
        "# The games, for bot authors",
        "",
        "One page per game, generated from the code (`python -m tests.game_pages "
        "--write`): its moves, its view's fields with what each means and an "
        "example value, its options and its cards. `troef games GAME --view` "
        "prints the same page for any registered game, outside plugins included.",
        "",
        "| game | title |",
        "| --- | --- |",
    ]
    for name in sorted(registry.games):
        cls = registry.games[name]
        if not cls.__module__.startswith("games."):
            continue  # an outside plugin installed here is not ours to document
        out[PAGES / f"{name}.md"] = game_reference(cls, root=PAGES)
        index.append(f"| [`{name}`]({name}.md) | {cls.title} |")
    out[INDEX] = "\n".join(index) + "\n"
    return out


def main(argv: list[str]) -> int:
    stale = 0
    for path, text in pages().items():
        if not path.is_file() or path.read_text() != text:
            stale += 1
            if argv == ["--write"]:
                path.write_text(text)
                print(f"wrote {path.relative_to(PAGES.parents[1])}")
            else:
                print(f"stale: {path.relative_to(PAGES.parents[1])}")
    if not stale:
        print("every page is current")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
