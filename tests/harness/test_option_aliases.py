"""Renamed options: one convention, old spellings as aliases (issue #25, item 9).

Option names are ``snake_case`` everywhere; belote has one ``target``. An old
spelling given in a config or with ``-o`` still works, with a note naming the
new one, and the records (job ids, config snapshots) keep the old names, so
a database made before the rename resumes.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from games.jass.belote import Belote
from harness.contracts.errors import OptionError
from harness.contracts.options import Option, OptionRenamedWarning, resolve_options
from harness.plugins import load_plugins
from harness.tournament.config import load_config
from harness.tournament.plan import content_id, plan

SNAKE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")


def _troef(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_every_game_and_bot_option_is_snake_case() -> None:
    registry = load_plugins()
    specs = [
        *(
            (g.__name__, s.name)
            for g in registry.games.values()
            for s in g.option_specs
        ),
        *((b.__name__, s.name) for b in registry.bots.values() for s in b.option_specs),
    ]
    names = set(specs)
    assert {n for n in names if not SNAKE.fullmatch(n[1])} == set()


def test_an_alias_resolves_to_the_new_name_with_a_warning() -> None:
    specs = (Option("last_card", "loser", aliases=("last-card",)),)
    with pytest.warns(OptionRenamedWarning, match="it is now spelled 'last_card'"):
        options = resolve_options(specs, {"last-card": "winner"}, "game 'x'")
    assert dict(options) == {"last_card": "winner"}


def test_both_spellings_with_two_values_are_refused() -> None:
    specs = (Option("last_card", "loser", aliases=("last-card",)),)
    with (
        pytest.warns(OptionRenamedWarning),
        pytest.raises(OptionError, match="given twice, as last_card = 'loser' and"),
    ):
        resolve_options(
            specs, {"last_card": "loser", "last-card": "winner"}, "game 'x'"
        )


def test_play_takes_the_old_spelling_with_a_note() -> None:
    common = ["play", "marjolet", "--bots", "random,random", "--max-actions", "30"]
    old = _troef(*common, "-o", "last-card=winner")
    new = _troef(*common, "-o", "last_card=winner")
    assert old.returncode == 0, old.stderr
    assert (
        "troef: warning: game 'marjolet': option 'last-card' is deprecated; "
        "it is now spelled 'last_card'"
    ) in old.stderr
    assert "deprecated" not in new.stderr
    assert old.stdout == new.stdout  # the same match


def test_belote_target_default_depends_on_the_seat_count() -> None:
    """B15: 500 at two, 700 at three, 1000 at four; one target for all."""
    assert [Belote().target(n) for n in (2, 3, 4)] == [500, 700, 1000]
    assert Belote(target=300).target(4) == 300


CONFIG = """\
game = "belote"
format = "round-robin"
matches = 1
seats = 3
seed = 5
executor = "inline"

[options]
{option} = 300

[entrants.a]
bot = "random"
[entrants.b]
bot = "random"
"""


def test_a_belote_database_made_before_target_resumes(tmp_path: Path) -> None:
    """A config with ``target3`` runs with a note; its job ids and snapshot
    are those of troef before the rename ({target2, target3, target4} at
    their defaults but the seat count's); the new spelling resumes it."""
    path = tmp_path / "belote.toml"
    path.write_text(CONFIG.format(option="target3"))
    first = _troef("run", str(path), "--workers", "1")
    assert first.returncode == 0, first.stderr
    assert (
        f"troef: warning: {path}:9: options.target3: game 'belote': option "
        "'target3' is deprecated; it is now spelled 'target'"
    ) in first.stderr
    old_options = {"target2": 500, "target3": 300, "target4": 1000}
    db = sqlite3.connect(tmp_path / "belote.sqlite")
    try:
        (stored,) = db.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
    finally:
        db.close()
    assert json.loads(stored)["options"] == old_options
    config = load_config(path)
    for job in plan(config):
        # The id formula of harness/tournament/plan.py (_Seating) with the old options.
        content = [
            "belote",
            old_options,
            list(job.seating),
            [[b, dict(o)] for b, o in job.bots],
            job.seed,
            job.rotation,
        ]
        assert job.id == content_id(content)
    path.write_text(CONFIG.format(option="target"))
    again = _troef("run", str(path), "--workers", "1")
    assert again.returncode == 0, again.stderr
    assert "different config" not in again.stderr
    assert "deprecated" not in again.stderr


def test_stored_jobs_with_the_old_belote_targets_replay(tmp_path: Path) -> None:
    """troef before the rename stored each job's options with all three
    targets spelled out; such a job still builds its game (the old targets
    at their old defaults set nothing) and replays as recorded."""
    path = tmp_path / "belote.toml"
    path.write_text(CONFIG.format(option="target"))
    assert _troef("run", str(path), "--workers", "1").returncode == 0
    database = str(tmp_path / "belote.sqlite")
    before = _troef("replay", database, "0")
    assert before.returncode == 0, before.stderr
    db = sqlite3.connect(database)
    try:
        with db:
            for job_id, spec in db.execute("SELECT id, spec FROM jobs").fetchall():
                job = json.loads(spec)
                assert job["options"] == {"target": 300}
                job["options"] = {"target2": 500, "target3": 300, "target4": 1000}
                db.execute(
                    "UPDATE jobs SET spec = ? WHERE id = ?", (json.dumps(job), job_id)
                )
    finally:
        db.close()
    after = _troef("replay", database, "0")
    assert after.returncode == 0, after.stderr
    assert "option 'target3' is deprecated" in after.stderr  # the old shape was read
    assert after.stdout == before.stdout
    assert "replaying the log gives another result" not in after.stdout


def test_marjolet_records_keep_last_card(tmp_path: Path) -> None:
    source = Path(__file__).parents[2] / "tournaments" / "marjolet-sprt.toml"
    path = tmp_path / "marjolet.toml"
    path.write_text(source.read_text())
    config = load_config(path)
    assert dict(config.options)["last_card"] == "loser"
    assert config.snapshot()["options"] == {
        "last-card": "loser",
        "marias": "king-queen",
        "target": 200,
    }
    job = plan(config)[0]
    content = [
        "marjolet",
        config.snapshot()["options"],
        list(job.seating),
        [[b, dict(o)] for b, o in job.bots],
        job.seed,
        job.rotation,
    ]
    assert job.id == content_id(content)


def test_tournaments_use_the_new_spellings() -> None:
    folder = Path(__file__).parents[2] / "tournaments"
    for path in sorted(folder.glob("*.toml")):
        text = path.read_text()
        assert not re.search(r"^(target[234]|last-card)\s*=", text, re.M), path
