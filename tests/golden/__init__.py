"""Golden playthroughs: one readable text file per registered game.

Each file ``tests/golden/<game>.txt`` tells one seeded match between seeded
random bots (:class:`GoldenBot`) on the game's check options
(``Game.for_checks()``, the short match of the conformance suite) at its
smallest seat count: move by move as ``troef play`` tells it
(``State.narrate_start``, then ``State.narrate``), every seat's view as the
JSON a bot receives (``View.to_json``) at the first and at the middle decision
of each deal, and the Result. ``tests/games/test_golden.py`` compares a fresh
playthrough with the file as text, so any change in dealing, legal actions,
narration, views or scoring shows as a unified diff.

To make or refresh the files after a deliberate change (then read the diff)::

    python -m tests.golden --write            # every registered game
    python -m tests.golden --write klaverjassen
    python -m tests.golden klaverjassen       # print it, write nothing

The text depends on the game's rules and notation, its check options, its
narration and views, and the seed derivations of ``harness.contracts.seeding``: not on
the order in which a game lists its legal actions (the bots choose among them
sorted; the views show the order, so a new order is a small diff), nor on the
random bot of ``bots/``, paths, timings or table layouts.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from pathlib import Path

from harness.contracts.bot import Bot
from harness.contracts.result import Result
from harness.contracts.view import View
from harness.match.referee import make_bots, play_match
from harness.plugins import Registry, load_plugins

__all__ = [
    "DEFAULT_SEED",
    "SEEDS",
    "GoldenBot",
    "golden_path",
    "main",
    "max_lines",
    "playthrough",
]

GOLDEN_DIR = Path(__file__).parent
#: The match seed of a game's playthrough unless :data:`SEEDS` names another.
DEFAULT_SEED = 1
#: Seeds picked for a short file. Random gin rummy hands mostly run the stock
#: out (void, ~115 actions each), so most matches take dozens of hands; seed
#: 346 is the first whose match takes two or three and whose player going out
#: chooses his layout (RULES.md ruling 8).
SEEDS: dict[str, int] = {
    "gin-rummy": 346,
    "bezique": 14,
    "rubicon": 170,
    "maison-tarot": 2,
    "la-rigueur": 2,
}
#: Files longer than this are hard to read; ``--write`` says so.
MAX_LINES = 400
#: Games none of whose matches of two deals fits :data:`MAX_LINES`: Rubicon's
#: deal is 64 tricks, each won in the stock phase followed by its winner's
#: decision (RULES.md F3), so two deals take about 410 lines (seed 170: 416,
#: the shortest of seeds 0-199 at its check target of 700).
LONGER: dict[str, int] = {"rubicon": 420}


def max_lines(name: str) -> int:
    """How many lines game ``name``'s golden file may hold."""
    return LONGER.get(name, MAX_LINES)


class GoldenBot(Bot):
    """Uniformly random among the legal actions sorted as strings.

    Sorted, so that a game that lists the same legal actions in another order
    plays the same match. Seeded by the referee from the match seed and seat.
    """

    name = "golden-random"

    def act(self, view: View) -> str:
        """A random legal action."""
        return self.rng.choice(sorted(view.legal_actions))


def golden_path(name: str) -> Path:
    """Where the golden playthrough of game ``name`` lives."""
    return GOLDEN_DIR / f"{name}.txt"


def write_command(name: str) -> str:
    """The command that (re)makes the golden file of game ``name``."""
    return f"python -m tests.golden --write {name}"


def playthrough(registry: Registry, name: str) -> str:
    """The golden text of game ``name``: a short seeded match, told."""
    game = registry.game_class(name).for_checks()
    n = min(game.seat_counts)
    seed = SEEDS.get(name, DEFAULT_SEED)
    bots = make_bots(game, [GoldenBot] * n, seed)
    result = play_match(game, bots, seed, keep_log=True)
    assert result.log is not None
    if result.forfeit is not None:
        raise AssertionError(f"a random bot forfeited the golden match: {result}")
    log = result.log

    # Where the views are shown: the first and the middle decision of each deal.
    state = game.new_match(n, seed)
    deal_of: list[int] = []
    for action in log:
        deal_of.append(state.deal)
        state.apply(action)
    shown: dict[int, str] = {}
    for deal in sorted(set(deal_of)):
        first = deal_of.index(deal)
        count = deal_of.count(deal)
        shown[first] = "first decision"
        shown.setdefault(first + count // 2, "middle decision")

    options = ", ".join(f"{k}={v!r}" for k, v in game.options.items())
    lines = [
        f"# Golden playthrough of {name}; remake it with `{write_command(name)}`",
        "# (tests/golden/__init__.py says how it is made; tests/README.md when).",
        f"game {name}, options {options}",
        f"{n} seats, match seed {seed}; every seat a GoldenBot (random among the "
        "sorted legal actions, seeded from the match seed and the seat)",
        "",
    ]
    state = game.new_match(n, seed)
    lines += state.narrate_start()
    for index, action in enumerate(log):
        if index in shown:
            lines.append(
                f"-- views at decision {index} ({shown[index]} of deal {state.deal})"
            )
            lines += [f"view {p}: {state.view(p).to_json()}" for p in range(n)]
        lines += state.narrate(action)
    told = state.result()
    if not state.is_over() or told != dataclasses.replace(result, log=None):
        raise AssertionError(
            f"replaying the log with narrate gave {told}, the referee {result}"
        )
    lines += ["", *_result_lines(result, len(log))]
    return "\n".join(lines) + "\n"


def _result_lines(result: Result, actions: int) -> list[str]:
    def row(values: Sequence[int]) -> str:
        return " ".join(str(v) for v in values)

    lines = [
        f"result after {actions} actions (per seat 0..{len(result.scores) - 1})",
        f"scores {row(result.scores)}",
        f"ranks {row(result.ranks)}",
        f"teams {row(result.teams)}",
        "deal points",
    ]
    lines += [
        f"  deal {k}: {row(points)}" for k, points in enumerate(result.deal_points)
    ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tests.golden [--write] [GAME ...]``."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.golden",
        description="Print or write the golden playthroughs of registered games.",
    )
    parser.add_argument("games", nargs="*", help="registry names (default: all)")
    parser.add_argument(
        "--write", action="store_true", help="write tests/golden/GAME.txt"
    )
    args = parser.parse_args(argv)
    registry = load_plugins()
    for name in args.games or sorted(registry.games):
        text = playthrough(registry, name)
        if not args.write:
            print(text, end="")
            continue
        path = golden_path(name)
        path.write_text(text)
        count = text.count("\n")
        print(f"wrote {path.relative_to(GOLDEN_DIR.parent.parent)} ({count} lines)")
        if count > max_lines(name):
            print(
                f"  longer than {max_lines(name)} lines: pick a seed for {name!r} in "
                "tests/golden/__init__.py SEEDS that plays a shorter match"
            )
    return 0
