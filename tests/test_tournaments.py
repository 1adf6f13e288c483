"""Every example config in tournaments/ validates and runs, shrunk to one seed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from harness.config import load_config
from harness.plan import plan
from harness.scheduler import run_tournament
from harness.store import Store

EXAMPLES = sorted((Path(__file__).parents[1] / "tournaments").glob("*.toml"))


def test_there_are_examples_for_every_game() -> None:
    games = {load_config(path).game for path in EXAMPLES}
    assert {"klaverjassen", "gin-rummy"} <= games


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs_shrunk(path: Path, tmp_path: Path) -> None:
    config = load_config(path)
    options = dict(config.options)
    if "target" in options:
        options["target"] = 1  # the first scored deal ends the match
    shrunk = dataclasses.replace(
        config, matches=1, options=tuple(sorted(options.items())),
        database=tmp_path / "shrunk.sqlite", executor="inline",
    )
    summary = run_tournament(shrunk)
    assert summary.played == len(plan(shrunk)) > 0
    with Store.existing(shrunk.database) as store:
        assert store.counts() == (summary.played, summary.played)
