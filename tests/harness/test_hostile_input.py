"""Hostile configs and arguments give clean errors, at once (issue 13, item 9).

Sizes are counted, not built; every time limit, path and worker count is
checked before a run starts; a hypothesis fuzz of configs asserts a clean
error or a valid, countable plan within a time bound.
"""

from __future__ import annotations

import json
import math
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.contracts.errors import TroefError
from harness.tournament.config import load_config
from harness.tournament.executor_config import MAX_WORKERS
from harness.tournament.plan import MAX_PLANNED, planned_count
from harness.tournament.scheduler import _workers
from tests.conftest import TOY_PLUGIN
from tests.harness.test_scheduler import _cli


def _troef(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_cli(*args), capture_output=True, text=True, timeout=60)


def _config(tmp_path: Path, top: str = "", entrant: str = "") -> Path:
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nseats = 3\nplugins = ["{TOY_PLUGIN}"]\nexecutor = "inline"\n'
        f"{top}\n"
        f'[entrants.a]\nbot = "random"\n{entrant}\n'
        '[entrants.b]\nbot = "random"\n[entrants.c]\nbot = "random"\n'
    )
    return path


def test_validate_counts_a_huge_plan_at_once_and_refuses_it(tmp_path: Path) -> None:
    path = _config(tmp_path, "matches = 2147483648")
    started = time.monotonic()
    done = _troef("validate", str(path))
    assert time.monotonic() - started < 10
    assert done.returncode == 2
    assert (
        f"matches = 2147483648 plans {2147483648 * 3:,} matches; a tournament may "
        f"plan at most {MAX_PLANNED:,} (lower 'matches')"
    ) in done.stderr


def test_validate_counts_a_large_plan_it_accepts_without_building_it(
    tmp_path: Path,
) -> None:
    path = _config(tmp_path, "matches = 300000")
    started = time.monotonic()
    done = _troef("validate", str(path))
    assert time.monotonic() - started < 10
    assert done.returncode == 0, done.stderr
    assert "plan       900000 matches in 300000 groups" in done.stdout


@pytest.mark.parametrize(
    ("top", "entrant", "message"),
    [
        ("[time_control]\nmove = 3e6", "", "up to 1e+06"),
        ("[time_control]\nmatch = inf", "", "'match' is inf"),
        ("", 'isolation = "process"\nhang_timeout = inf', "hang_timeout: inf is"),
        ("", 'isolation = "process"\nstartup_timeout = 2.2e6', "at most 1e+06"),
        ('database = "a\\u0000b.sqlite"', "", "database: 'a\\x00b.sqlite' is not"),
        ("workers = 100000", "", "workers: 100000 is not allowed"),
        ("workers = -1", "", "workers: -1 is not allowed"),
    ],
)
def test_out_of_range_limits_and_paths_are_clean_errors_before_a_run(
    tmp_path: Path, top: str, entrant: str, message: str
) -> None:
    path = _config(tmp_path, "matches = 1\n" + top, entrant)
    for command in ("validate", "run"):
        done = _troef(command, str(path))
        assert done.returncode == 2, (command, done.stdout)
        assert message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("workers", ["-1", "0", "many", "100000"])
def test_bad_workers_on_the_command_line_are_refused(
    tmp_path: Path, workers: str
) -> None:
    path = _config(tmp_path, "matches = 1")
    done = _troef("run", str(path), "--workers", workers)
    assert done.returncode == 2
    assert (
        f"argument --workers: {workers!r} is not allowed; expected an integer "
        f"from 1 to {MAX_WORKERS}"
    ) in done.stderr
    assert not (tmp_path / "t.sqlite").exists()


def test_workers_are_capped_at_the_jobs_and_the_maximum() -> None:
    assert _workers(64, 2) == 2
    assert _workers(None, 1) == 1
    assert _workers(MAX_WORKERS, 10**6) == MAX_WORKERS
    with pytest.raises(TroefError, match="workers is 0"):
        _workers(0, 5)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)  # a TOML basic string (\\uXXXX escapes included)


_VALUES = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 2, 3, 2**31, 2**63, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.booleans(),
    st.lists(st.integers(min_value=-5, max_value=5), max_size=3),
)
_TOP_KEYS = [
    "matches",
    "seed",
    "workers",
    "chunk",
    "in_flight",
    "seats",
    "database",
    "duplicate",
    "format",
    "executor",
    "keep_logs",
    "rating_model",
]
_ENTRANT_KEYS = ["startup_timeout", "hang_timeout", "memory_mb", "options"]


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    top=st.dictionaries(st.sampled_from(_TOP_KEYS), _VALUES, max_size=4),
    clock=st.dictionaries(
        st.sampled_from(["move", "match", "increment"]), _VALUES, max_size=2
    ),
    entrant=st.dictionaries(st.sampled_from(_ENTRANT_KEYS), _VALUES, max_size=2),
)
def test_fuzzed_configs_give_a_clean_error_or_a_countable_plan_at_once(
    tmp_path: Path,
    top: dict[str, Any],
    clock: dict[str, Any],
    entrant: dict[str, Any],
) -> None:
    base = {"matches": 1, "seats": 3, **top}
    lines = ['game = "toy"', f'plugins = ["{TOY_PLUGIN}"]']
    lines += [f"{k} = {_toml(v)}" for k, v in base.items()]
    if clock:
        lines.append("[time_control]")
        lines += [f"{k} = {_toml(v)}" for k, v in clock.items()]
    lines.append('[entrants.a]\nbot = "random"\nisolation = "process"')
    lines += [f"{k} = {_toml(v)}" for k, v in entrant.items()]
    lines.append('[entrants.b]\nbot = "random"\n[entrants.c]\nbot = "random"')
    path = tmp_path / "fuzz.toml"
    path.write_text("\n".join(lines) + "\n")
    started = time.monotonic()
    try:
        config = load_config(path)
        count = planned_count(config)
    except TroefError as error:
        assert str(error)
    else:
        assert count >= 1
        assert config.workers is None or 1 <= config.workers <= MAX_WORKERS
        assert "\0" not in str(config.database)
        for e in config.entrants:
            if e.process is not None:
                assert e.process.hang_timeout is None or e.process.hang_timeout <= 1e6
                assert e.process.startup_timeout <= 1e6
    assert time.monotonic() - started < 5
