"""Team layouts: Game.teams is the one source; plans, configs, troef games follow it."""

from __future__ import annotations

import hashlib
import json
import re
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from harness.cli import main
from harness.contracts.errors import ConfigError, TeamLayoutError
from harness.contracts.teams import check_teams, describe_teams, team_layout, team_seats
from harness.plugins import load_plugins
from harness.tournament.config import load_config
from harness.tournament.plan import plan, seatings
from tests.conftest import TOY_PLUGIN

RANKING_PLUGIN = Path(__file__).parents[1] / "plugins" / "ranking_games.py"


def write(tmp_path: Path, body: str, name: str = "t.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


def entrants(*labels: str) -> str:
    return "".join(f'[entrants.{e}]\nbot = "random"\n' for e in labels)


# -- layouts ---------------------------------------------------------------------


def test_layouts_of_the_games() -> None:
    registry = load_plugins(files=[TOY_PLUGIN, RANKING_PLUGIN])
    assert team_layout(registry.game("toy"), 3) == (0, 1, 2)
    # Klaverjassen's partnerships = True: the default teams() pairs i and i + 2.
    assert team_layout(registry.game("klaverjassen"), 4) == (0, 1, 0, 1)
    assert team_layout(registry.game("toy-teams"), 6) == (0, 1, 0, 1, 0, 1)
    assert team_seats((0, 1, 0, 1, 0, 1)) == ((0, 2, 4), (1, 3, 5))
    assert describe_teams((0, 1, 2)) == "each for itself"
    assert describe_teams((0, 1, 0, 1)) == "teams 0,1,0,1"


def test_only_the_default_teams_reads_partnerships() -> None:
    """Game.teams is the one source: no other code derives teams from the flag."""
    root = Path(__file__).parents[2]
    readers = [
        str(path.relative_to(root))
        for package in ("harness", "games", "bots")
        for path in sorted((root / package).rglob("*.py"))
        if re.search(r"\.partnerships\b", path.read_text(encoding="utf-8"))
    ]
    assert readers == ["harness/contracts/game.py"]


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ((0, 1, 0), "expected one team index (an int) per seat, 4 in all"),
        ((0, 2, 0, 2), "teams must be numbered 0..m-1 with a seat in each"),
        ((1, 2, 1, 2), "teams must be numbered 0..m-1"),
        ((0, 0, 0, 0), "a single team has no one to play against"),
        ((0, 1, 0, True), "expected one team index (an int) per seat"),
    ],
)
def test_a_bad_layout_is_refused(layout: tuple[int, ...], message: str) -> None:
    with pytest.raises(TeamLayoutError, match=re.escape(message)) as info:
        check_teams(layout, 4, game="broken")
    assert "game 'broken': teams(4)" in str(info.value)


def test_unequal_teams_are_a_valid_layout() -> None:
    assert check_teams([0, 1, 1], 3) == (0, 1, 1)
    assert team_seats((0, 1, 1)) == ((0,), (1, 2))


def test_a_game_with_a_bad_layout_is_a_config_error(tmp_path: Path) -> None:
    plugin = tmp_path / "lonely.py"
    # Only the rules' metadata is read when a config loads; no match is played.
    plugin.write_text(
        textwrap.dedent(
            """
            from harness import Game, hookimpl

            class Lonely(Game):
                name = "lonely"
                title = "everyone in one team"
                seat_counts = frozenset({2})

                def teams(self, n_seats):
                    return (0,) * n_seats

                def new_match(self, n_seats, seed):
                    raise NotImplementedError

                def sample_state(self, view, rng):
                    raise NotImplementedError

            @hookimpl
            def troef_games():
                return [Lonely]
            """
        )
    )
    path = write(
        tmp_path, f'game = "lonely"\nplugins = ["{plugin}"]\n' + entrants("a", "b")
    )
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert "seats: game 'lonely': teams(2) is (0, 0)" in str(info.value)
    assert "expected at least two teams" in str(info.value)


# -- seat rotations -------------------------------------------------------------


def test_rotations_of_two_teams_of_three_sitting_alternately() -> None:
    layout = (0, 1, 0, 1, 0, 1)
    assert seatings(("a", "b"), layout) == [
        ("a", "b", "a", "b", "a", "b"),
        ("b", "a", "b", "a", "b", "a"),
    ]


def test_rotations_give_every_entrant_every_team_seat() -> None:
    layout = (0, 1, 2, 0, 1, 2)  # three pairs, partners opposite
    rotations = seatings(("a", "b", "c"), layout)
    assert rotations[1] == ("b", "c", "a", "b", "c", "a")
    for seat in range(6):
        assert {seating[seat] for seating in rotations} == {"a", "b", "c"}
    # Unequal teams rotate alike: each entrant once alone, once as the pair.
    assert seatings(("a", "b"), (0, 1, 1)) == [("a", "b", "b"), ("b", "a", "a")]
    with pytest.raises(ValueError, match="a composition of 3 entrants for the 2"):
        seatings(("a", "b", "c"), (0, 1, 0, 1))


def test_plan_of_the_three_a_side_game(tmp_path: Path) -> None:
    body = (
        f'game = "toy-teams"\nmatches = 2\nplugins = ["{RANKING_PLUGIN}"]\n'
        + entrants("a", "b", "c")
    )
    config = load_config(write(tmp_path, body))
    assert config.seats == 6 and config.teams == (0, 1, 0, 1, 0, 1)
    assert config.sides == 2
    jobs = plan(config)
    # Three pairs of entrants, two rotations each, two seeds.
    assert len(jobs) == 3 * 2 * 2
    for job in jobs:
        # All three seats of a team are one entrant; the two teams differ.
        assert len(set(job.seating[0::2])) == 1 and len(set(job.seating[1::2])) == 1
        assert job.seating[0] != job.seating[1]
    groups = Counter(job.group for job in jobs)
    assert set(groups.values()) == {2}
    for group in groups:
        members = [job for job in jobs if job.group == group]
        assert len({job.seed for job in members}) == 1
        # Each entrant of the group holds every seat once: every hand.
        for seat in range(6):
            assert len({job.seating[seat] for job in members}) == 2


def test_an_sprt_needs_two_teams(tmp_path: Path) -> None:
    sprt = "\n[sprt]\nelo0 = 0\nelo1 = 10\n"
    ok = load_config(
        write(
            tmp_path,
            f'game = "toy-teams"\nformat = "sprt"\nplugins = ["{RANKING_PLUGIN}"]\n'
            + entrants("a", "b")
            + sprt,
        )
    )
    assert ok.sprt is not None and ok.sides == 2
    with pytest.raises(ConfigError) as info:
        load_config(
            write(
                tmp_path,
                f'game = "toy"\nseats = 3\nformat = "sprt"\n'
                f'plugins = ["{TOY_PLUGIN}"]\n' + entrants("a", "b") + sprt,
            )
        )
    assert (
        "an SPRT needs a table of two teams; 3 seats of this game make 3 "
        "(each for itself)" in str(info.value)
    )


def test_troef_games_shows_team_layouts(capsys: pytest.CaptureFixture[str]) -> None:
    """`troef games NAME` gives each seat count's layout, seats by team."""

    def seats(name: str) -> dict[str, str]:
        assert main(["--plugin", str(RANKING_PLUGIN), "games", name]) == 0
        out = capsys.readouterr().out
        lines = out.splitlines()
        start = next(i for i, x in enumerate(lines) if x.startswith("seats")) + 2
        table = {}
        for line in lines[start:]:
            if not line.strip():
                break
            count, _, layout = line.partition(" ")
            table[count] = layout.strip()
        return table

    assert seats("toy-teams") == {"6": "2 teams: 0, 2, 4 against 1, 3, 5"}
    assert seats("klaverjassen") == {"4": "2 teams: 0, 2 against 1, 3"}
    assert seats("toy-low") == {"2": "each for himself", "3": "each for himself"}


# -- existing databases ---------------------------------------------------------


def test_existing_configs_keep_their_snapshot_and_job_ids(tmp_path: Path) -> None:
    """Databases written before teams(n) open and resume: nothing they match changed.

    The snapshot and the plan below were recorded with the code before
    ``Game.teams`` became the one source of teams (commit 23ec574).
    """
    body = (
        f'game = "toy"\nseats = 3\nmatches = 1\nseed = 7\nplugins = ["{TOY_PLUGIN}"]\n'
        + entrants("a", "b", "c", "d")
    )
    config = load_config(write(tmp_path, body))
    snapshot = config.snapshot()
    assert snapshot["plugins"] == [str(TOY_PLUGIN.resolve())]
    snapshot["plugins"] = ["TOY"]
    assert json.dumps(snapshot, sort_keys=True, separators=(",", ":")) == (
        '{"candidates":[],"duplicate":true,"entrants":{"a":{"bot":"random","options":{}},'
        '"b":{"bot":"random","options":{}},"c":{"bot":"random","options":{}},'
        '"d":{"bot":"random","options":{}}},"format":"round-robin","game":"toy",'
        '"keep_logs":true,"matches":1,"options":{"leaky":false},"plugins":["TOY"],'
        '"seats":3,"seed":7}'
    )
    jobs = plan(config)
    digest = hashlib.sha256(
        "".join(j.id + j.group + ",".join(j.seating) for j in jobs).encode()
    ).hexdigest()
    assert (len(jobs), digest) == (
        12,
        "4ebaadc32f57b9af5f42d0d874e5b2bc247df616a2cd1924b20317ea1cbb0db1",
    )
