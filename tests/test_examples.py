"""The example bots of ``examples/`` play real tournaments from their configs:
a bot author copies them, so they must keep working."""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import pytest

from harness.tournament.config import load_config
from harness.tournament.scheduler import run_tournament
from harness.tournament.store import Store

EXAMPLES = Path(__file__).parents[1] / "examples"
CONFIGS = sorted(EXAMPLES.glob("*.toml"))


def test_every_example_bot_has_a_config() -> None:
    bots = {p.name for p in (EXAMPLES / "bots").iterdir() if p.suffix in (".py", ".pl")}
    named = {Path(p).name for c in CONFIGS for p in _named_files(c)}
    assert bots <= named, f"no config in examples/ plays {sorted(bots - named)}"


def _named_files(config: Path) -> list[str]:
    return re.findall(r"bots/([\w.]+)", config.read_text())


@pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_an_example_plays_its_tournament_in_its_own_processes(
    path: Path, tmp_path: Path
) -> None:
    if "perl" in path.read_text() and shutil.which("perl") is None:
        pytest.fail("perl is not installed: the Perl example needs it (Debian: perl)")
    config = load_config(path)
    config = dataclasses.replace(
        config, matches=2, database=tmp_path / "example.sqlite", executor="inline"
    )
    summary = run_tournament(config)
    assert summary.played > 0
    with Store.existing(config.database) as store:
        results = [m.result for m in store.matches()]
    assert len(results) == summary.played
    assert [r.forfeit for r in results] == [None] * len(results)
    # The example entrant played in its own process: it was untrusted.
    example = next(e for e in config.entrants if e.label != "random")
    assert example.process is not None
