"""Smoke tests of bench/bench_games.py (a tiny run over troef's games, no
peers) and bench/bench_encoding.py.

Checks only that the scripts run and report a row for every game they
measure (plus the toy plugin game); they assert nothing about speed.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import TOY_PLUGIN

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "bench_games.py"


def _bench_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("troef_bench_games", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_quick_run_reports_every_game(tmp_path: Path) -> None:
    out_json = tmp_path / "bench.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--quick",
            "--no-peers",
            "--runs",
            "1",
            "--seconds",
            "0.02",
            "--plugin",
            str(TOY_PLUGIN),
            "--json",
            str(out_json),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    games, _ = _bench_module().load_troef_games([str(TOY_PLUGIN)])
    assert "toy" in games
    data = json.loads(out_json.read_text())
    assert set(data["troef"]) == set(games)
    table = proc.stdout.split("troef games:", 1)[1].split("peers and floor:", 1)[0]
    rows = {line.split()[0] for line in table.splitlines()[3:] if line.strip()}
    assert rows >= set(games)
    for name in games:
        assert data["troef"][name]["median"]["us_per_decision"] > 0
    assert "floor" in data["peers"]
    assert [r["status"] for r in data["ratios"]]  # the goals table is there


def test_the_encoding_bench_runs_and_reports_the_goal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """bench/bench_encoding.py --quick: a row for klaverjassen and the goal line
    (met or not: no speed is asserted)."""
    path = SCRIPT.parent / "bench_encoding.py"
    spec = importlib.util.spec_from_file_location("troef_bench_encoding", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split()[0] == "klaverjassen"
    assert "goal: klaverjassen encode median <= 20 µs:" in out
