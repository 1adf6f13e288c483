"""Every example config in tournaments/ validates and runs, shrunk to one seed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from harness.plugins import load_plugins
from harness.tournament.config import load_config
from harness.tournament.entrants import Entrant
from harness.tournament.ladder import Ladder
from harness.tournament.plan import plan
from harness.tournament.scheduler import run_tournament
from harness.tournament.store import Store

EXAMPLES = sorted((Path(__file__).parents[1] / "tournaments").glob("*.toml"))
#: Strength-ladder configs: search bots with a budget per move, seconds each.
_SLOW = {"ladder-gin-rummy"}


def test_there_are_examples_for_every_game() -> None:
    """Every registered game (the registry, not a written-in list) has one."""
    configs = [load_config(path) for path in EXAMPLES]
    missing = set(load_plugins().games) - {c.game for c in configs}
    assert not missing, f"no example config in tournaments/ for {sorted(missing)}"
    assert {"round-robin", "gauntlet", "sprt", "ladder"} <= {c.format for c in configs}


#: Search budgets cut for the shrunk run: it checks that the config runs, not
#: how well its bots play (the ladders' own figures are in docs/SEARCH.md).
#: OpenSpiel's IS-MCTS (the yardstick configs) rolls out to the end of the
#: match through the adapter: one simulation keeps Troggen's round at 1 s.
_CHEAP: dict[str, float] = {
    "iterations": 10,
    "samples": 1,
    "worlds": 1,
    "rollouts": 1,
    "simulations": 1,
}
#: Seconds per move cut everywhere, gin rummy too: a ladder's search bots think
#: by the clock, with counts far above what it allows.
_CHEAP_SECONDS = 0.01
#: The search bots' own costs, cut whether the config names them or not: short
#: rollouts (a Bezique deal is 100-odd actions) and no exact ending search.
_CHEAP_SEARCH: dict[str, dict[str, float]] = {
    "ismcts": {"max_rollout": 20},
    "pimc": {"max_rollout": 20, "endgame_cards": 0},
}
#: A ladder plays the game's whole match; shrunk, it plays the first deal.
_ONE_DEAL = {"target": 1, "lives": 1, "deals": 1}


def _cheap(entrant: Entrant, *, counts: bool) -> Entrant:
    cut = {**(_CHEAP if counts else {}), "seconds": _CHEAP_SECONDS}
    options = dict(entrant.options)
    if counts:
        for k, v in _CHEAP_SEARCH.get(entrant.bot, {}).items():
            options.setdefault(k, v)
            cut[k] = v
    for k, v in options.items():
        if k in cut and isinstance(v, int | float):
            options[k] = min(v, cut[k])
    return dataclasses.replace(entrant, options=tuple(sorted(options.items())))


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=pytest.mark.slow) if p.stem in _SLOW else p
        for p in EXAMPLES
    ],
    ids=[p.stem for p in EXAMPLES],
)
def test_example_runs_shrunk(path: Path, tmp_path: Path) -> None:
    config = load_config(path)
    options = dict(config.options)
    if "target" in options:
        options["target"] = 1  # the first scored deal ends the match
    if path.stem.startswith("ladder-"):
        options.update((k, v) for k, v in _ONE_DEAL.items() if k in options)
    shrunk = dataclasses.replace(
        config,
        matches=1,
        options=tuple(sorted(options.items())),
        # Counts not in gin rummy: weaker bots make its deal far longer.
        entrants=tuple(
            _cheap(e, counts=config.game != "gin-rummy") for e in config.entrants
        ),
        database=tmp_path / "shrunk.sqlite",
        executor="inline",
    )
    if shrunk.ladder is not None:
        with Ladder(shrunk) as ladder:
            (played,) = ladder.run(1)
        assert played.number == 1 and played.played > 0
        return
    summary = run_tournament(shrunk)
    if shrunk.sprt is None:
        assert summary.played == len(plan(shrunk)) > 0
    else:
        assert 0 < summary.played <= len(plan(shrunk))
    with Store.existing(shrunk.database) as store:
        assert store.counts()[0] == summary.played
