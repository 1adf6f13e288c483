"""Plans: every table composition, cyclic rotations, duplicate groups, stable ids."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from harness.tournament.config import TournamentConfig, load_config
from harness.tournament.plan import compositions, plan
from tests.conftest import TOY_PLUGIN


def config(tmp_path: Path, body: str, entrants: str = "abcd") -> TournamentConfig:
    table = "".join(f'[entrants.{e}]\nbot = "random"\n' for e in entrants)
    path = tmp_path / "t.toml"
    path.write_text(body + table)
    return load_config(path)


def test_compositions_of_two_and_three() -> None:
    assert compositions("abc", 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert len(compositions("abcde", 3)) == 10
    # Fewer entrants than seats: entrants repeat, each appearing at least once.
    assert compositions("ab", 3) == [("a", "a", "b"), ("a", "b", "b")]


def test_round_robin_three_seats_duplicate(tmp_path: Path) -> None:
    cfg = config(
        tmp_path, f'game = "toy"\nseats = 3\nmatches = 2\nplugins = ["{TOY_PLUGIN}"]\n'
    )
    jobs = plan(cfg)
    # 4 compositions of 3 out of 4, 3 rotations each, 2 seeds.
    assert len(jobs) == 4 * 3 * 2
    groups = Counter(job.group for job in jobs)
    assert len(groups) == 8 and set(groups.values()) == {3}
    for group in groups:
        members = [job for job in jobs if job.group == group]
        assert len({job.seed for job in members}) == 1
        # Every entrant of the group holds every seat once: it holds every hand.
        for seat in range(3):
            assert len({job.seating[seat] for job in members}) == 3
    # All compositions of one match index share the seed: everyone plays the same deals.
    assert len({job.seed for job in jobs}) == 2


def test_partnership_rotation_swaps_the_teams(tmp_path: Path) -> None:
    cfg = config(tmp_path, 'game = "klaverjassen"\nmatches = 1\n', entrants="ab")
    jobs = plan(cfg)
    assert [job.seating for job in jobs] == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert jobs[0].seed == jobs[1].seed and jobs[0].group == jobs[1].group


def test_independent_seeds_without_duplicate(tmp_path: Path) -> None:
    cfg = config(
        tmp_path,
        f'game = "toy"\nmatches = 3\nduplicate = false\nplugins = ["{TOY_PLUGIN}"]\n',
        "ab",
    )
    jobs = plan(cfg)
    assert len(jobs) == 6
    assert len({job.seed for job in jobs}) == 6
    assert len({job.group for job in jobs}) == 6


def test_gauntlet_plays_candidates_against_the_pool_only(tmp_path: Path) -> None:
    body = (
        'game = "toy"\nformat = "gauntlet"\ncandidates = ["a"]\n'
        f'plugins = ["{TOY_PLUGIN}"]\n'
    )
    jobs = plan(config(tmp_path, body))
    pairs = {frozenset(job.seating) for job in jobs}
    assert pairs == {frozenset("ab"), frozenset("ac"), frozenset("ad")}


def test_the_plan_is_deterministic_and_ids_are_content_derived(tmp_path: Path) -> None:
    body = f'game = "toy"\nmatches = 2\nplugins = ["{TOY_PLUGIN}"]\n'
    first = plan(config(tmp_path, body))
    again = plan(config(tmp_path, body))
    assert first == again
    more = plan(config(tmp_path, body.replace("matches = 2", "matches = 3")))
    # Growing the tournament keeps the ids of the jobs it had.
    assert {j.id for j in first} <= {j.id for j in more}
    other_seed = plan(config(tmp_path, body + "seed = 9\n"))
    assert not {j.id for j in first} & {j.id for j in other_seed}


#: Job ids and groups as troef has always made them: a database written by an
#: earlier troef resumes only if the plan gives its jobs the same ids.
KNOWN_IDS = {
    "duplicate": (
        'game = "toy"\nmatches = 2\nseed = 5\n',
        [
            ("3b4382cc95652676", "898af68fb3eef7f5"),
            ("7258efb00e4a1fae", "898af68fb3eef7f5"),
            ("edc39819b8d45d5b", "be9755edcf378f60"),
            ("1db44d771834fda6", "be9755edcf378f60"),
        ],
    ),
    "independent": (
        'game = "toy"\nmatches = 2\nseed = 5\nduplicate = false\n',
        [
            ("f368a319c7963683", "c44f4c5aad641d14"),
            ("5017dd2288912f80", "0fcf4801cc4cba11"),
            ("f3e12779dbe4b40b", "4413776a86a4de95"),
            ("6e1d1bd65c6ce872", "3e0a2d26ecc61082"),
        ],
    ),
    "capped": (
        'game = "toy"\nmatches = 1\nseed = 5\nmax_actions = 500\n',
        [
            ("c834bf884a7992f0", "898af68fb3eef7f5"),
            ("77974f4d140ffc26", "898af68fb3eef7f5"),
        ],
    ),
    "teams": (
        'game = "klaverjassen"\nmatches = 1\nseed = 5\n[options]\ntarget = 300\n',
        [
            ("bb4758bd870c0d9b", "898af68fb3eef7f5"),
            ("85f913108c2de94b", "898af68fb3eef7f5"),
        ],
    ),
    "program": (
        'game = "klaverjassen"\nmatches = 1\nseed = 5\n'
        "[time_control]\nmove = 2.0\n[options]\ntarget = 300\n",
        [
            ("336577a786471e27", "898af68fb3eef7f5"),
            ("53b27bb6132a9c13", "898af68fb3eef7f5"),
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(KNOWN_IDS))
def test_job_ids_and_groups_stay_what_earlier_versions_made(
    tmp_path: Path, case: str
) -> None:
    body, known = KNOWN_IDS[case]
    head, bracket, tables = body.partition("[")
    plugins = f'plugins = ["{TOY_PLUGIN}"]\n' if '"toy"' in body else ""
    second = (
        'command = ["node", "bot.js"]\n'
        if case == "program"
        else 'bot = "random"\noptions = { }\n'
    )
    path = tmp_path / "t.toml"
    path.write_text(
        f"{head}{plugins}{bracket}{tables}"
        f'[entrants.a]\nbot = "random"\n[entrants.b]\n{second}'
    )
    assert [(job.id, job.group) for job in plan(load_config(path))] == known
