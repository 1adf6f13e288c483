#!/usr/bin/env python
"""IS-MCTS iterations per second: troef's bot beside OpenSpiel's, one core.

Run from the repository root with the project's venv::

    python bench/bench_search.py            # every registered game, ~2 min
    python bench/bench_search.py --quick    # fewer deals and iterations
    python bench/bench_search.py --games klaverjassen bezique

For each troef game (every registered one by default: a row per game, issue 35)
it times the ``ismcts`` bot with random rollouts on the first decision of
several deals (each iteration: sample a world from the view, descend the tree,
roll out to the end of the deal) and reports the median iterations per second.
The goal of issues 18 and 35, >= 10,000 per second per core on a klaverjassen
deal, is shown beside klaverjassen's row; the other games have no goal (their
deals are longer or shorter), their rows say what a second of search buys.
Seconds are this process's CPU seconds (``time.process_time``), so that a
machine shared with other work still measures the rate per core.

The peer is OpenSpiel's Python IS-MCTS (``open_spiel.python.algorithms.ismcts``
with a random-rollout evaluator) on its hearts and bridge, from the first
decision of a deal; it needs the optional ``bench`` extra and is skipped with
a message without it. (OpenSpiel's rollouts run the whole game: hearts from
the pass, bridge from the auction; troef's run to the end of the deal.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.ismcts import ISMCTSBot
from harness.plugins import load_plugins

GOAL = 10_000.0


def troef_rate(name: str, deals: int, iterations: int) -> float:
    """Median IS-MCTS iterations per second on the first decision of ``deals`` deals."""
    registry = load_plugins()
    game = registry.game_class(name).for_checks()
    n = min(game.seat_counts)
    rates = []
    for seed in range(deals):
        state = game.new_match(n, seed)
        seat = state.to_act
        assert seat is not None
        bot = ISMCTSBot(game, seat, seed, {"iterations": iterations})
        view = state.view(seat)
        if len(view.legal_actions) < 2:
            state.apply(view.legal_actions[0])
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            bot = ISMCTSBot(game, seat, seed, {"iterations": iterations})
        start = time.process_time()
        bot.act(view)
        rates.append(bot.last_iterations / max(time.process_time() - start, 1e-9))
    return statistics.median(rates)


def openspiel_rate(name: str, deals: int, iterations: int) -> float | None:
    """OpenSpiel's Python IS-MCTS on ``name``; None without open_spiel."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    rates = []
    for seed in range(deals):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        evaluator = mcts.RandomRolloutEvaluator(1, rng)
        bot = ismcts.ISMCTSBot(
            game, evaluator, 1.5, max_simulations=iterations, random_state=rng
        )
        start = time.process_time()
        bot.step(state)
        rates.append(iterations / max(time.process_time() - start, 1e-9))
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> int:
    """Print the table; exit 0 (the goal is reported, not enforced)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer deals")
    parser.add_argument(
        "--games", nargs="+", default=["all"], help="troef games, or all (default)"
    )
    parser.add_argument("--no-peers", action="store_true", help="skip OpenSpiel")
    parser.add_argument("--deals", type=int, help="deals per game (default 7, quick 3)")
    parser.add_argument(
        "--iterations",
        type=int,
        help="iterations per decision (default 3000, quick 1000)",
    )
    args = parser.parse_args(argv)
    deals, iterations = (3, 1000) if args.quick else (7, 3000)
    deals = args.deals or deals
    iterations = args.iterations or iterations
    games = sorted(load_plugins().games) if args.games == ["all"] else args.games
    rows = []
    for name in games:
        rows.append((f"troef {name}", troef_rate(name, deals, iterations)))
    if args.no_peers:
        print("OpenSpiel peers skipped (--no-peers)")
    else:
        for peer in ("hearts", "bridge(use_double_dummy_result=false)"):
            rate = openspiel_rate(peer, deals, max(100, iterations // 10))
            if rate is None:
                print(
                    "OpenSpiel not installed (pip install -e '.[bench]'): peers skipped"
                )
                break
            rows.append((f"OpenSpiel {peer.split('(')[0]} (Python IS-MCTS)", rate))
    width = max(len(label) for label, _ in rows)
    print(f"{'IS-MCTS, random rollouts'.ljust(width)}  iterations/s (median)  goal")
    for label, rate in rows:
        goal = ""
        if label == "troef klaverjassen":
            verdict = "meets" if rate >= GOAL else "misses"
            goal = f"  >= {GOAL:,.0f}: {verdict}"
        print(f"{label.ljust(width)}  {rate:21,.0f}{goal}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
