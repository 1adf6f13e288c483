"""Two small recorded tournaments for the HTML report's tests: seconds each."""

from __future__ import annotations

from pathlib import Path

from harness.cli import main

#: Klaverjassen to 300 points: a heuristic, a search and a random bot, with time
#: control (so thinking time is shown) and logs kept (so matches replay).
KLAVERJASSEN = """
name = "klaverjassen html"
game = "klaverjassen"
format = "round-robin"
matches = 1
seed = 5
keep_logs = true
executor = "inline"
database = "{db}"
[options]
target = 300
[entrants.random]
bot = "random"
[entrants.jass]
bot = "jass"
[entrants.search]
bot = "search"
options = {{ samples = 1, max_rollout = 50 }}
[time_control]
move = 30
"""

#: Gin rummy to 40 points between the search bot and the random bot.
GIN_RUMMY = """
name = "gin rummy html"
game = "gin-rummy"
format = "round-robin"
matches = 2
seed = 5
keep_logs = true
executor = "inline"
database = "{db}"
[options]
target = 40
[entrants.random]
bot = "random"
[entrants.search]
bot = "search"
options = {{ samples = 1, max_rollout = 50 }}
"""

CONFIGS = {"klaverjassen": KLAVERJASSEN, "gin-rummy": GIN_RUMMY}


def html_report(folder: Path, game: str) -> Path:
    """Play the tournament of ``game`` in ``folder``; write its HTML report there."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "results.sqlite"
    config = folder / "tournament.toml"
    config.write_text(CONFIGS[game].format(db=db.as_posix()), encoding="utf-8")
    assert main(["run", str(config), "--quiet"]) == 0
    out = folder / "html"
    assert main(["report", str(db), "--html", str(out)]) == 0
    return out / "index.html"


def single_file_report(index: Path, out: Path) -> Path:
    """The single-file report (``--html FILE.html``) of ``index``'s tournament."""
    db = index.parent.parent / "results.sqlite"
    assert main(["report", str(db), "--html", str(out)]) == 0
    return out
