"""Plans: every table composition, cyclic rotations, duplicate groups, stable ids."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from harness.config import TournamentConfig, load_config
from harness.plan import compositions, plan
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
