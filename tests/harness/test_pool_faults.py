"""Who is charged when a worker dies: the requeue after a broken pool.

A run stops once one job has broken its worker more than ``2 * MAX_BREAKS``
times. Only the jobs that may have done it count: when the death was pinned on
a bot (it forfeits), the jobs the pool ended with it are innocent. Found on a
loaded machine, where two killer bots' races charged one job seven deaths and
stopped a run with every other match still to play.
"""

from __future__ import annotations

import pytest

from harness.contracts.errors import TroefError
from harness.tournament.plan import Job
from harness.tournament.pool_faults import MAX_BREAKS, _requeue


def job(name: str) -> Job:
    return Job(name, 0, "toy", (), ("a", "b"), (("random", ()),) * 2, 1, name, 0)


def test_jobs_ended_with_a_pinned_death_are_not_charged() -> None:
    lost = [job("innocent"), job("suspect")]
    breaks: dict[str, int] = {}
    for _ in range(3 * MAX_BREAKS):  # far past the limit: never stops the run
        queue = _requeue(lost, [], breaks, {"suspect"} - set(breaks), pinned=True)
    assert "innocent" not in breaks
    assert breaks["suspect"] == 1  # charged once, while it was a suspect
    # Back in one chunk: neither was charged past MAX_BREAKS, nor is a suspect now.
    assert queue == [lost]


def test_an_unexplained_death_charges_every_lost_job_until_the_run_stops() -> None:
    lost = [job("x"), job("y")]
    breaks: dict[str, int] = {}
    for _ in range(2 * MAX_BREAKS):
        queue = _requeue(lost, [], breaks)
    assert breaks == {"x": 2 * MAX_BREAKS, "y": 2 * MAX_BREAKS}
    assert queue == [[lost[0]], [lost[1]]]  # past MAX_BREAKS: each goes alone
    with pytest.raises(TroefError, match="killed its worker process 7 times"):
        _requeue(lost, [], breaks)
