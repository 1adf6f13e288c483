#!/usr/bin/env python
"""Benchmark troef's games against peer engines and a bare-loop floor.

Run from the repository root with the project's venv::

    python bench/bench_games.py              # full run, ~2-3 minutes
    python bench/bench_games.py --quick      # short run, < 30 s
    python bench/bench_games.py --no-peers   # troef games (and the floor) only
    python bench/bench_games.py --json out.json

Every figure is the median of several runs; the runs of all measurements are
interleaved so that drift of the machine hits them alike. See bench/README.md
for what each figure means and the goals the last table checks.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.metadata
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from time import perf_counter
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floor import play_floor

if TYPE_CHECKING:
    from harness.contracts.game import Game

# The games whose goals the last table checks, by registry name.
GIN = "gin-rummy"
KLAVERJASSEN = "klaverjassen"
# The harness's own game plugins; loaded one by one when the whole set fails.
GAME_MODULES = ("games.jass", "games.rummy")
# Above this (max - min) / median of µs/decision over the runs, or with a load
# average above the number of CPUs, warn that the machine was too busy for the
# figures to be trusted.
BUSY_SPREAD = 0.25


# ---------------------------------------------------------------------------
# Configuration and bookkeeping
# ---------------------------------------------------------------------------


@dataclass
class Config:
    runs: int
    seconds: float  # wall time of one run of one measurement
    warmup: float
    clone_states: int  # states sampled for clone() per run (and views for sampling)
    clone_repeat: int  # clones timed per sampled state (twice that: worlds per view)


@dataclass
class Measurement:
    """One row of a table: a named series of runs, each a dict of figures."""

    key: str
    label: str
    runs: list[dict[str, float]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def median(self, name: str) -> float | None:
        values = [r[name] for r in self.runs if r.get(name) is not None]
        return statistics.median(values) if values else None

    def spread(self, name: str) -> float | None:
        """(max - min) / median over runs, as a fraction."""
        values = [r[name] for r in self.runs if r.get(name) is not None]
        if len(values) < 2:
            return None
        mid = statistics.median(values)
        return (max(values) - min(values)) / mid if mid else None

    def medians(self) -> dict[str, float]:
        names = sorted({k for r in self.runs for k in r})
        return {n: m for n in names if (m := self.median(n)) is not None}


def _git_commit() -> str | None:
    """The repository's HEAD, with ``+dirty`` if tracked files changed."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "")


def _load() -> float | None:
    """The 1-minute load average, where the system tells it."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


# ---------------------------------------------------------------------------
# troef games
# ---------------------------------------------------------------------------


def load_troef_games(
    files: list[str] | None = None,
) -> tuple[dict[str, type[Game]], list[str]]:
    """The registry's game classes by name, and notes on what could not load.

    Tries the whole plugin set first (the entry-point group plus ``files``,
    as a tournament would). If a plugin fails, loads each entry point of the
    group and each file on its own and keeps those that work, so one game
    still being written does not stop the others from being measured.
    """
    from harness.contracts.errors import PluginError
    from harness.plugins import ENTRY_POINT_GROUP, load_plugins

    files = list(files or ())
    notes: list[str] = []
    try:
        return dict(load_plugins(files=files).games), notes
    except PluginError as exc:
        notes.append(f"loading every plugin failed ({exc}); loading one by one")
    group = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    modules = [ep.value for ep in group]
    modules += [m for m in GAME_MODULES if m not in modules]
    games: dict[str, type[Game]] = {}
    for kwargs in [{"modules": [m]} for m in modules] + [{"files": [f]} for f in files]:
        try:
            loaded = load_plugins(
                entry_points=False,
                modules=kwargs.get("modules", ()),
                files=kwargs.get("files", ()),
            )
            games.update(loaded.games)
        except (PluginError, OSError) as exc:
            notes.append(f"skipped plugin {next(iter(kwargs.values()))[0]}: {exc}")
    return games, notes


def _deals_of(state: Any) -> int:
    """Deals completed in a finished match: one row of deal points per deal.

    Falls back to the ``deal`` counter (deals counted from 0) if the result
    has no rows.
    """
    rows = len(state.result().deal_points)
    return rows if rows else state.deal + 1


def _troef_pass(
    game: Any,
    n_seats: int,
    seeds: list[int] | None,
    seconds: float,
    rng_seed: int,
    first_seed: int,
    views: bool,
) -> tuple[dict[str, float], list[int]]:
    """Random playouts of whole matches.

    With ``seeds=None``, plays matches from ``first_seed`` on until
    ``seconds`` have passed; otherwise plays exactly ``seeds``. At every
    decision it builds ``state.view(seat)`` and draws from its legal actions
    when ``views`` is set (as the referee does), else draws from
    ``state.legal_actions()`` directly. The same seeds and ``rng_seed`` play
    the same actions either way.
    """
    rng = random.Random(rng_seed)
    choice = rng.choice
    played: list[int] = []
    decisions = deals = 0
    new_match = game.new_match
    gc.collect()
    start = perf_counter()
    seed = first_seed
    todo = iter(seeds) if seeds is not None else None
    while True:
        if todo is not None:
            drawn = next(todo, None)
            if drawn is None:
                break
            seed = drawn
        state = new_match(n_seats, seed)
        is_over = state.is_over
        apply = state.apply
        n = 0
        if views:
            view = state.view
            while not is_over():
                apply(choice(view(state.to_act).legal_actions))
                n += 1
        else:
            legal = state.legal_actions
            while not is_over():
                apply(choice(legal()))
                n += 1
        decisions += n
        deals += _deals_of(state)
        played.append(seed)
        if todo is None:
            seed += 1
            if perf_counter() - start >= seconds:
                break
    elapsed = perf_counter() - start
    return {
        "seconds": elapsed,
        "matches": len(played),
        "deals": deals,
        "decisions": decisions,
    }, played


def _clone_costs(
    game: Any, n_seats: int, first_seed: int, rng_seed: int, n_states: int, repeat: int
) -> list[float]:
    """µs per ``state.clone()`` at ``n_states`` random points of random matches."""
    rng = random.Random(rng_seed)
    costs: list[float] = []
    seed = first_seed
    while len(costs) < n_states:
        state = game.new_match(n_seats, seed)
        seed += 1
        # One decision in 20 on average, so the samples spread over deals.
        p = 0.05
        while not state.is_over() and len(costs) < n_states:
            if rng.random() < p:
                clone = state.clone
                t0 = perf_counter()
                for _ in range(repeat):
                    clone()
                costs.append((perf_counter() - t0) / repeat * 1e6)
            state.apply(rng.choice(state.legal_actions()))
    return costs


def _sample_costs(
    game: Any, n_seats: int, first_seed: int, rng_seed: int, n_views: int, repeat: int
) -> dict[str, float]:
    """Median µs of sampling worlds behind ``n_views`` views of the seat to act.

    At random decisions of random matches, the acting seat's view is taken,
    as a search bot gets it. Per view: first ``repeat`` fresh
    ``game.sample_state(view, rng)`` calls (µs per call: set-up and one world,
    what a bot pays that does not keep a sampler), then ``game.sampler(view)``
    is built (timed alone) and ``repeat`` worlds are drawn from it (µs per
    world).
    """
    rng = random.Random(rng_seed)
    build: list[float] = []
    each: list[float] = []
    fresh: list[float] = []
    seed = first_seed
    while len(each) < n_views:
        state = game.new_match(n_seats, seed)
        seed += 1
        while not state.is_over() and len(each) < n_views:
            if rng.random() < 0.05:
                view = state.view(state.to_act)
                t0 = perf_counter()
                for _ in range(repeat):
                    game.sample_state(view, rng)
                t1 = perf_counter()
                sampler = game.sampler(view)
                t2 = perf_counter()
                for _ in range(repeat):
                    sampler.sample(rng)
                t3 = perf_counter()
                fresh.append((t1 - t0) / repeat * 1e6)
                build.append((t2 - t1) * 1e6)
                each.append((t3 - t2) / repeat * 1e6)
            state.apply(rng.choice(state.legal_actions()))
    return {
        "sampler_build_us": statistics.median(build),
        "sample_us": statistics.median(each),
        "sample_state_us": statistics.median(fresh),
    }


def bench_troef_game(
    name: str, cls: type[Game], cfg: Config, run: int, m: Measurement
) -> None:
    game = cls()
    n_seats = min(cls.seat_counts)
    first = 1_000_003 * (run + 1)
    with_view, seeds = _troef_pass(
        game, n_seats, None, cfg.seconds, run, first, views=True
    )
    without, _ = _troef_pass(game, n_seats, seeds, 0.0, run, first, views=False)
    if without["decisions"] != with_view["decisions"]:
        m.notes.append(
            "playouts without views took other actions than with views "
            "(view.legal_actions differs from state.legal_actions?)"
        )
    clones = _clone_costs(
        game, n_seats, first + 500_000, run, cfg.clone_states, cfg.clone_repeat
    )
    samples = _sample_costs(
        game, n_seats, first + 700_000, run, cfg.clone_states, 2 * cfg.clone_repeat
    )
    clone_us = statistics.median(clones)
    t, d = with_view["seconds"], with_view["decisions"]
    m.runs.append(
        {
            "seats": n_seats,
            "matches_per_s": with_view["matches"] / t,
            "deals_per_s": with_view["deals"] / t,
            "decisions_per_deal": d / with_view["deals"],
            "deals_per_match": with_view["deals"] / with_view["matches"],
            "us_per_decision": t / d * 1e6,
            "us_per_decision_no_view": without["seconds"] / without["decisions"] * 1e6,
            "view_share": max(0.0, 1.0 - without["seconds"] / t),
            "clone_us": clone_us,
            **samples,
            "sample_per_clone": samples["sample_us"] / clone_us,
            "matches": with_view["matches"],
            "decisions": d,
        }
    )


# ---------------------------------------------------------------------------
# Peers
# ---------------------------------------------------------------------------


def _openspiel_gin(observation: str) -> Callable[[Config, int, Measurement], None]:
    """OpenSpiel ``gin_rummy``: one hand per episode, random at every node.

    Chance nodes (the deal, draws from the stock) are sampled uniformly and
    are part of the hand's time, not counted as decisions. At every decision
    the acting player's observation is built: ``observation_tensor(player)``
    (what OpenSpiel's rl_environment hands to an agent; gin_rummy has no
    information-state string or tensor) or ``observation_string(player)``.
    """
    import pyspiel

    def observe(state: Any, player: int) -> object:
        if observation == "tensor":
            return state.observation_tensor(player)
        return state.observation_string(player)

    return _pyspiel_playouts(pyspiel.load_game("gin_rummy"), observe)


def _adapter(name: str, tensor: bool) -> Callable[[Config, int, Measurement], None]:
    """troef's ``name`` through its OpenSpiel adapter (``harness/interop``):
    random at every node as ``_openspiel_gin`` plays; with ``tensor``,
    ``observation_tensor(p)`` (the encoding's tensor of the View) at every
    decision, else ``legal_actions(p)`` only. A match is one episode, its 8
    seed bytes the chance nodes; gin rummy's matches stop at 2,000 actions
    (random play seldom knocks), which does not change the cost of a decision."""
    import pyspiel

    from harness.interop import openspiel

    openspiel.register()
    options = {"max_actions": 2000} if name == GIN else {}
    game = pyspiel.load_game(openspiel.short_name(name), options)

    def observe(state: Any, player: int) -> object:
        return state.observation_tensor(player)

    return _pyspiel_playouts(game, observe if tensor else None)


def _pyspiel_playouts(
    game: Any, observe: Callable[[Any, int], object] | None
) -> Callable[[Config, int, Measurement], None]:
    """Random playouts of the pyspiel ``game``, an episode a hand: chance
    nodes sampled uniformly (timed, not counted), ``observe(state, player)``
    at every decision when given."""

    def bench(cfg: Config, run: int, m: Measurement) -> None:
        rng = random.Random(run)
        choice = rng.choice
        hands = decisions = 0
        gc.collect()
        start = perf_counter()
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                    continue
                player = state.current_player()
                if observe is not None:
                    observe(state, player)
                state.apply_action(choice(state.legal_actions(player)))
                decisions += 1
            hands += 1
            if perf_counter() - start >= cfg.seconds:
                break
        t = perf_counter() - start
        m.runs.append(
            {
                "hands_per_s": hands / t,
                "us_per_decision": t / decisions * 1e6,
                "decisions_per_hand": decisions / hands,
            }
        )

    return bench


def _rlcard_gin() -> Callable[[Config, int, Measurement], None]:
    """RLCard ``gin-rummy``: ``env.reset`` then ``env.step`` per decision.

    ``env.step`` applies the action and extracts the next player's state
    (observation array, legal actions, raw observation): RLCard's own
    per-decision observation, exactly what its ``env.run`` does with agents.
    """
    import rlcard

    def bench(cfg: Config, run: int, m: Measurement) -> None:
        env = rlcard.make("gin-rummy", config={"seed": run})
        rng = random.Random(run)
        choice = rng.choice
        hands = decisions = 0
        gc.collect()
        start = perf_counter()
        while True:
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(choice(list(state["legal_actions"])))
                decisions += 1
            hands += 1
            if perf_counter() - start >= cfg.seconds:
                break
        t = perf_counter() - start
        m.runs.append(
            {
                "hands_per_s": hands / t,
                "us_per_decision": t / decisions * 1e6,
                "decisions_per_hand": decisions / hands,
            }
        )

    return bench


_BRIDGE_PASS = 52
_BRIDGE_FIRST_BID = 55


def _openspiel_bridge() -> Callable[[Config, int, Measurement], None]:
    """OpenSpiel ``bridge``: the card play only, info-state string per decision.

    The game has no way to start at the play, so each deal is prepared off
    the clock: the 52 chance deals, then the dealer bids a random contract
    (1C..7NT) and the other three pass. The clock then runs over the 52 card
    decisions: ``information_state_string(player)``, ``legal_actions()``, a
    random choice, ``apply_action``.
    """
    import pyspiel

    game = pyspiel.load_game("bridge(use_double_dummy_result=false)")

    def bench(cfg: Config, run: int, m: Measurement) -> None:
        rng = random.Random(run)
        choice = rng.choice
        timed = 0.0
        deals = decisions = 0
        gc.collect()
        wall = perf_counter()
        while True:
            state = game.new_initial_state()
            while state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            bids = [a for a in state.legal_actions() if a >= _BRIDGE_FIRST_BID]
            state.apply_action(choice(bids))
            for _ in range(3):
                state.apply_action(_BRIDGE_PASS)
            n = 0
            t0 = perf_counter()
            while not state.is_terminal():
                player = state.current_player()
                state.information_state_string(player)
                state.apply_action(choice(state.legal_actions()))
                n += 1
            timed += perf_counter() - t0
            decisions += n
            deals += 1
            # Half of the run's wall time on the clock, half preparing deals.
            if timed >= cfg.seconds / 2 or perf_counter() - wall >= cfg.seconds:
                break
        m.runs.append(
            {
                "hands_per_s": deals / timed,
                "us_per_decision": timed / decisions * 1e6,
                "decisions_per_hand": decisions / deals,
            }
        )

    return bench


def _floor(pick: str) -> Callable[[Config, int, Measurement], None]:
    def bench(cfg: Config, run: int, m: Measurement) -> None:
        gc.collect()
        t, decisions = play_floor(pick, cfg.seconds, seed=run)
        m.runs.append(
            {
                "hands_per_s": decisions / 32 / t,
                "us_per_decision": t / decisions * 1e6,
                "decisions_per_hand": 32.0,
            }
        )

    return bench


@dataclass
class Peer:
    key: str
    label: str
    observation: str
    make: Callable[[], Callable[[Config, int, Measurement], None]]
    needs: str | None  # the distribution that provides it


PEERS = [
    Peer(
        "openspiel_gin",
        "OpenSpiel gin_rummy",
        "observation_tensor(p)",
        lambda: _openspiel_gin("tensor"),
        "open_spiel",
    ),
    Peer(
        "openspiel_gin_string",
        "OpenSpiel gin_rummy",
        "observation_string(p)",
        lambda: _openspiel_gin("string"),
        "open_spiel",
    ),
    Peer(
        "adapter_gin",
        "troef gin-rummy via OpenSpiel adapter",
        "none (legal_actions(p))",
        lambda: _adapter(GIN, tensor=False),
        "open_spiel",
    ),
    Peer(
        "adapter_gin_tensor",
        "troef gin-rummy via OpenSpiel adapter",
        "observation_tensor(p)",
        lambda: _adapter(GIN, tensor=True),
        "open_spiel",
    ),
    Peer(
        "adapter_klaverjassen",
        "troef klaverjassen via OpenSpiel adapter",
        "none (legal_actions(p))",
        lambda: _adapter(KLAVERJASSEN, tensor=False),
        "open_spiel",
    ),
    Peer(
        "adapter_klaverjassen_tensor",
        "troef klaverjassen via OpenSpiel adapter",
        "observation_tensor(p)",
        lambda: _adapter(KLAVERJASSEN, tensor=True),
        "open_spiel",
    ),
    Peer(
        "rlcard_gin",
        "RLCard gin-rummy",
        "env.step state extraction",
        _rlcard_gin,
        "rlcard",
    ),
    Peer(
        "openspiel_bridge",
        "OpenSpiel bridge, card play",
        "information_state_string(p)",
        _openspiel_bridge,
        "open_spiel",
    ),
    Peer(
        "floor",
        "floor: bitmask trick loop",
        "none (random bit)",
        lambda: _floor("random"),
        None,
    ),
    Peer(
        "floor_lowest",
        "floor: bitmask trick loop",
        "none (lowest bit, no rng)",
        lambda: _floor("lowest"),
        None,
    ),
]


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def _fmt(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "-"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def troef_table(rows: list[Measurement]) -> tuple[list[str], list[list[str]]]:
    headers = [
        "game",
        "seats",
        "matches/s",
        "deals/s",
        "deals/match",
        "dec/deal",
        "µs/dec",
        "µs/dec no view",
        "view share",
        "clone µs",
        "sample µs",
        "sample_state µs",
        "sample ÷ clone",
        "spread",
    ]
    body = []
    for m in rows:
        body.append(
            [
                m.label,
                _fmt(m.median("seats"), 0),
                _fmt(m.median("matches_per_s")),
                _fmt(m.median("deals_per_s")),
                _fmt(m.median("deals_per_match")),
                _fmt(m.median("decisions_per_deal")),
                _fmt(m.median("us_per_decision"), 2),
                _fmt(m.median("us_per_decision_no_view"), 2),
                _pct(m.median("view_share")),
                _fmt(m.median("clone_us"), 2),
                _fmt(m.median("sample_us"), 1),
                _fmt(m.median("sample_state_us"), 1),
                _fmt(m.median("sample_per_clone"), 1),
                _pct(m.spread("us_per_decision")),
            ]
        )
    return headers, body


def peer_table(
    rows: list[Measurement], peers: dict[str, Peer]
) -> tuple[list[str], list[list[str]]]:
    headers = [
        "engine",
        "observation per decision",
        "hands/s",
        "dec/hand",
        "µs/dec",
        "spread",
    ]
    body = []
    for m in rows:
        body.append(
            [
                m.label,
                peers[m.key].observation,
                _fmt(m.median("hands_per_s")),
                _fmt(m.median("decisions_per_hand")),
                _fmt(m.median("us_per_decision"), 2),
                _pct(m.spread("us_per_decision")),
            ]
        )
    return headers, body


def goal_ratios(
    troef: dict[str, Measurement], peers: dict[str, Measurement]
) -> list[dict[str, Any]]:
    """The goals, each with its value (None when a side is missing)."""

    def fig(table: dict[str, Measurement], key: str, name: str) -> float | None:
        m = table.get(key)
        return None if m is None else m.median(name)

    gin = fig(troef, GIN, "deals_per_s")
    klaver = fig(troef, KLAVERJASSEN, "us_per_decision")
    specs = [
        (
            "gin-rummy deals/s ÷ OpenSpiel gin_rummy hands/s",
            gin,
            fig(peers, "openspiel_gin", "hands_per_s"),
            ">=",
            2.0,
        ),
        (
            "gin-rummy deals/s ÷ RLCard gin-rummy hands/s",
            gin,
            fig(peers, "rlcard_gin", "hands_per_s"),
            ">=",
            2.0,
        ),
        (
            "(alt) gin-rummy deals/s ÷ OpenSpiel gin_rummy hands/s, string obs.",
            gin,
            fig(peers, "openspiel_gin_string", "hands_per_s"),
            ">=",
            2.0,
        ),
        (
            "klaverjassen µs/decision ÷ floor µs/decision",
            klaver,
            fig(peers, "floor", "us_per_decision"),
            "<=",
            2.0,
        ),
        (
            "klaverjassen µs/decision ÷ OpenSpiel bridge play µs/decision",
            klaver,
            fig(peers, "openspiel_bridge", "us_per_decision"),
            "<=",
            0.5,
        ),
        (
            "gin-rummy OpenSpiel adapter µs/decision ÷ troef's, no observation",
            fig(peers, "adapter_gin", "us_per_decision"),
            fig(troef, GIN, "us_per_decision_no_view"),
            "<=",
            3.0,
        ),
        (
            "klaverjassen OpenSpiel adapter µs/decision ÷ troef's, no observation",
            fig(peers, "adapter_klaverjassen", "us_per_decision"),
            fig(troef, KLAVERJASSEN, "us_per_decision_no_view"),
            "<=",
            3.0,
        ),
        (
            "(alt) gin-rummy adapter with observation_tensor ÷ troef's with a view",
            fig(peers, "adapter_gin_tensor", "us_per_decision"),
            fig(troef, GIN, "us_per_decision"),
            "<=",
            3.0,
        ),
        (
            "(alt) klaverjassen adapter with observation_tensor ÷ troef's with a view",
            fig(peers, "adapter_klaverjassen_tensor", "us_per_decision"),
            klaver,
            "<=",
            3.0,
        ),
        (
            "klaverjassen sample µs ÷ clone µs (a world from Game.sampler)",
            fig(troef, KLAVERJASSEN, "sample_us"),
            fig(troef, KLAVERJASSEN, "clone_us"),
            "<=",
            10.0,
        ),
    ]
    out = []
    for label, num, den, op, goal in specs:
        value = None if num is None or not den else num / den
        if value is None:
            status = "n/a"
        else:
            ok = value >= goal if op == ">=" else value <= goal
            status = "met" if ok else "not met"
        out.append(
            {"ratio": label, "value": value, "goal": f"{op} {goal:g}", "status": status}
        )
    return out


def _print_table(headers: list[str], body: list[list[str]]) -> None:
    try:
        from tabulate import tabulate
    except ImportError:  # tabulate is a dependency; this is a fallback only
        print(" | ".join(headers))
        for row in body:
            print(" | ".join(row))
        return
    print(
        tabulate(
            body,
            headers=headers,
            disable_numparse=True,
            colalign=("left",) + ("right",) * (len(headers) - 1),
        )
    )


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Random-playout throughput of troef's games, peers and a floor."
    )
    p.add_argument("--quick", action="store_true", help="short run (< 30 s)")
    p.add_argument(
        "--no-peers",
        action="store_true",
        help="skip OpenSpiel and RLCard (the floor still runs)",
    )
    p.add_argument(
        "--games",
        nargs="*",
        metavar="NAME",
        help="only these troef games (registry names)",
    )
    p.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="FILE.py",
        help="also load this plugin file (repeatable)",
    )
    p.add_argument("--runs", type=int, help="runs per measurement (median taken)")
    p.add_argument("--seconds", type=float, help="seconds per run of one measurement")
    p.add_argument("--json", metavar="PATH", help="write the raw figures here")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.quick:
        cfg = Config(runs=3, seconds=0.25, warmup=0.05, clone_states=40, clone_repeat=5)
    else:
        cfg = Config(runs=5, seconds=2.0, warmup=0.2, clone_states=200, clone_repeat=10)
    if args.runs:
        cfg.runs = args.runs
    if args.seconds:
        cfg.seconds = args.seconds
    wall = time.monotonic()
    load_start = _load()

    print(
        f"troef bench: Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs; {cfg.runs} runs x {cfg.seconds:g} s per run, "
        f"commit {(_git_commit() or '?')[:12]}",
        flush=True,
    )

    # troef games
    classes, notes = load_troef_games(args.plugin)
    for note in notes:
        print(f"note: {note}")
    for expected in (KLAVERJASSEN, GIN):
        if expected not in classes:
            print(f"note: troef game {expected!r} is not in the registry; skipped")
    wanted = sorted(classes) if args.games is None else args.games
    for name in wanted:
        if name not in classes:
            print(f"note: no troef game named {name!r}; skipped")
    troef = {name: Measurement(name, name) for name in wanted if name in classes}

    # peers and floor
    peer_specs = {p.key: p for p in PEERS}
    peers: dict[str, Measurement] = {}
    benches: dict[str, Callable[[Config, int, Measurement], None]] = {}
    skipped: dict[str, str] = {}
    for peer in PEERS:
        if peer.needs is not None and args.no_peers:
            continue
        try:
            benches[peer.key] = peer.make()
        except ImportError as exc:
            skipped[peer.key] = (
                f"{peer.label}: cannot import ({exc}); install the extra: "
                "pip install -e '.[bench]'"
            )
            print(f"note: skipping {skipped[peer.key]}")
            continue
        peers[peer.key] = Measurement(peer.key, peer.label)
    if args.no_peers:
        print("note: --no-peers: OpenSpiel and RLCard not measured")

    def run_all(run: int, c: Config, record: bool) -> None:
        for name, m in troef.items():
            target = m if record else Measurement(name, name)
            bench_troef_game(name, classes[name], c, run, target)
        for key, bench in benches.items():
            target = peers[key] if record else Measurement(key, key)
            bench(c, run, target)

    # Warm-up: imports, caches, the specialising interpreter.
    warm = Config(1, cfg.warmup, 0.0, 5, 1)
    run_all(10_000, warm, record=False)
    for run in range(cfg.runs):
        print(f"run {run + 1}/{cfg.runs} ...", flush=True)
        run_all(run, cfg, record=True)

    print()
    if troef:
        print(
            "troef games: uniform-random playouts of whole matches, "
            "state.view(seat) at every decision"
        )
        _print_table(*troef_table(list(troef.values())))
        for m in troef.values():
            for note in sorted(set(m.notes)):
                print(f"note: {m.key}: {note}")
    else:
        print("troef games: none could be loaded")
    print()
    print(
        "peers and floor: random playouts, "
        "the engine's own observation at every decision"
    )
    _print_table(*peer_table(list(peers.values()), peer_specs))
    for reason in skipped.values():
        print(f"skipped: {reason}")
    print()
    ratios = goal_ratios(troef, peers)
    print("goals")
    _print_table(
        ["ratio", "value", "goal", "status"],
        [[r["ratio"], _fmt(r["value"], 2), r["goal"], r["status"]] for r in ratios],
    )
    total = time.monotonic() - wall
    load_end = _load()
    spreads = [
        sp
        for m in [*troef.values(), *peers.values()]
        if (sp := m.spread("us_per_decision")) is not None
    ]
    worst = max(spreads, default=0.0)
    loads = [x for x in (load_start, load_end) if x is not None]
    if worst > BUSY_SPREAD or max(loads, default=0.0) > (os.cpu_count() or 1):
        print(
            f"\nwarning: the machine was busy (spread up to {worst:.0%}; load average "
            f"{_fmt(load_start, 2)} at the start, {_fmt(load_end, 2)} at the end): "
            "run again on an idle machine before trusting the ratios"
        )
    print(f"\ntotal {total:.0f} s")

    if args.json:
        data = {
            "meta": {
                "python": platform.python_version(),
                "implementation": platform.python_implementation(),
                "machine": platform.machine(),
                "platform": platform.platform(),
                "cpus": os.cpu_count(),
                "open_spiel": _version("open_spiel"),
                "rlcard": _version("rlcard"),
                "troef_commit": _git_commit(),
                "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "total_seconds": total,
                "load_average_start": load_start,
                "load_average_end": load_end,
                "worst_spread": worst,
            },
            "config": vars(cfg),
            "troef": {
                k: {
                    "runs": m.runs,
                    "median": m.medians(),
                    "notes": sorted(set(m.notes)),
                }
                for k, m in troef.items()
            },
            "peers": {
                k: {
                    "label": m.label,
                    "observation": peer_specs[k].observation,
                    "runs": m.runs,
                    "median": m.medians(),
                }
                for k, m in peers.items()
            },
            "skipped": skipped,
            "notes": notes,
            "ratios": ratios,
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n")
        print(f"raw figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
