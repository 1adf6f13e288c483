"""A game plugin that raises makes its match void, not the run abort (issue 29,
item 2).

``tests/plugins/faulty_game.py`` is an outside plugin file whose State raises
in ``view``, ``legal_actions``, ``apply``, ``result`` or ``new_match`` in the
matches of even seeds. Real runs of ``troef run`` with real worker processes
(and bot processes, on the interleaved path) record every planned match: the
faulty ones void (the fault of no bot, counted for nobody, naming the game,
the plugin, the match and the call), the others as played; a rerun has
nothing left to play. ``troef play`` says the fault in one line, exit 2.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bots.random_bot import RandomBot
from harness.contracts.errors import GameFault
from harness.contracts.seeding import bot_seed
from harness.match.referee import play_match
from harness.plugins import load_plugins
from harness.tournament.config import load_config
from harness.tournament.plan import plan
from harness.tournament.scheduler import run_tournament
from harness.tournament.sprt import SprtMonitor
from harness.tournament.store import Store

FAULTY = Path(__file__).parents[1] / "plugins" / "faulty_game.py"
CALLS = {
    "view": "FaultyState.view",
    "legal_actions": "FaultyState.view",  # the view asks for the legal actions
    "apply": "FaultyState.apply",
    "result": "FaultyState.result",
}


def _troef(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "80"},
    )


@pytest.mark.parametrize("fault", [*CALLS, "new_match"])
def test_play_match_raises_a_game_fault_with_the_void_result(fault: str) -> None:
    registry = load_plugins(
        entry_points=False, modules=["bots.random_bot"], files=[FAULTY]
    )
    game = registry.game("faulty", {"fault": fault, "after": 1})
    bots = [RandomBot(game, s, bot_seed(4, s)) for s in range(2)]
    with pytest.raises(GameFault) as caught:
        play_match(game, bots, 4, keep_log=True)
    message = str(caught.value)
    assert message.startswith("game fault: game 'faulty' raised in ")
    assert f"RuntimeError: faulty {fault}: a bug in the game plugin" in message
    void = caught.value.result
    assert void.void is not None and void.void.startswith(message)
    assert "Traceback (most recent call last)" in void.void
    # Nobody's fault: no forfeit, every seat level.
    assert void.forfeit is None
    assert void.ranks == (1, 1) and void.scores == (0, 0)
    if fault != "new_match":
        assert f"raised in {CALLS[fault]} (faulty_game.py:" in message
        # The actions played before the fault are its log.
        assert void.log is not None and len(void.log) >= (0 if fault == "view" else 1)


def _config(tmp_path: Path, fault: str, process: bool) -> Path:
    path = tmp_path / "t.toml"
    isolation = 'isolation = "process"\n' if process else ""
    path.write_text(
        f'game = "faulty"\nplugins = ["{FAULTY}"]\nmatches = 4\nseed = 10\n'
        f'workers = 2\nexecutor = "process"\n[options]\nfault = "{fault}"\n'
        "every = 2\nafter = 1\n"
        f'[entrants.a]\nbot = "random"\n{isolation}'
        '[entrants.b]\nbot = "random"\n[entrants.c]\nbot = "random"\n'
    )
    path.chmod(0o600)
    return path


@pytest.mark.slow
@pytest.mark.parametrize(("fault", "process"), [("result", False), ("apply", True)])
def test_a_run_records_the_faulty_matches_void_and_plays_the_others(
    tmp_path: Path, fault: str, process: bool
) -> None:
    path = _config(tmp_path, fault, process)
    done = _troef("run", str(path))
    assert "Traceback" not in done.stderr + done.stdout
    # The run went on, and ends saying so with status 1.
    assert done.returncode == 1, done.stderr
    assert "of the matches played are void: the game plugin raised" in done.stderr
    with Store.existing(tmp_path / "t.sqlite") as store:
        everything = list(store.matches(void=True))
        counted = list(store.matches())
        planned = store.counts()[1]
    assert len(everything) == planned == 24  # 3 pairs x 4 seeds x 2 rotations
    void = [m for m in everything if m.result.void is not None]
    assert {m.job["id"] for m in void} == {
        m.job["id"] for m in everything if m.job["seed"] % 2 == 0
    }
    assert 0 < len(void) < len(everything)
    for m in void:
        text = m.result.void
        assert text is not None
        assert text.startswith(
            f"game fault in match {m.job['index']} ({m.job['id']}), plugin "
            f"'{FAULTY}': game 'faulty' raised in "
        )
        if fault in CALLS:
            assert f"raised in {CALLS[fault]} (faulty_game.py:" in text
        assert m.result.forfeit is None
    # Standings and ratings see the played matches only.
    assert {m.job["id"] for m in counted} == {
        m.job["id"] for m in everything if m.result.void is None
    }
    assert all(m.result.void is None and m.result.forfeit is None for m in counted)
    status = _troef("status", str(tmp_path / "t.sqlite"))
    assert status.returncode == 0, status.stderr
    assert (
        f"24 of 24 matches recorded, 0 forfeits, {len(void)} void (the game raised)"
    ) in status.stdout
    listed = json.loads(
        _troef("matches", str(tmp_path / "t.sqlite"), "--format", "json").stdout
    )
    assert sum("void" in row for row in listed) == len(void)
    report = _troef("report", str(tmp_path / "t.sqlite"), "--format", "json")
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout)["matches"] == len(counted)
    assert f"troef: note: {len(void)} recorded matches are void" in report.stderr
    # The void matches are results: a rerun does not play them again.
    again = _troef("run", str(path))
    assert again.returncode == 0, again.stderr
    assert "nothing left to play: 24 matches are recorded" in again.stdout


@pytest.mark.parametrize("fault", [*CALLS, "new_match"])
def test_troef_play_says_the_game_fault_in_one_line(fault: str) -> None:
    done = _troef(
        "--plugin",
        str(FAULTY),
        "play",
        "faulty",
        "--bots",
        "random,random",
        "-o",
        f"fault={fault}",
        "-o",
        "after=1",
        "--seed",
        "4",
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    error = done.stderr.strip().splitlines()[-1]
    assert error.startswith(
        f"troef: error: game fault of plugin '{FAULTY}': game 'faulty' raised "
    )
    assert error.endswith(f"RuntimeError: faulty {fault}: a bug in the game plugin")


def test_an_sprt_passes_over_a_pair_with_a_void_match(tmp_path: Path) -> None:
    """Half a duplicate pair is no pentanomial sample: the live test and the
    one replayed from the database both pass the pair over, and agree."""
    path = tmp_path / "sprt.toml"
    path.write_text(
        f'game = "faulty"\nformat = "sprt"\nmatches = 8\nseed = 3\n'
        f'plugins = ["{FAULTY}"]\nexecutor = "inline"\n'
        '[options]\nfault = "result"\nevery = 2\n'
        "[sprt]\nelo0 = 0\nelo1 = 50\n"
        '[entrants.one]\nbot = "random"\n[entrants.two]\nbot = "random"\n'
    )
    config = load_config(path)
    jobs = plan(config)
    live = SprtMonitor(config, jobs)
    summary = run_tournament(config, monitor=live)
    assert summary.played == len(jobs) == 16  # random play decides nothing in 8
    pairs = {job.seed for job in jobs}
    assert 0 < len(summary.void) < len(jobs)
    assert {job.seed for job, _ in summary.void} == {s for s in pairs if s % 2 == 0}
    verdict = live.verdict()
    assert verdict.samples == sum(1 for s in pairs if s % 2) == sum(verdict.counts)
    with Store.existing(config.database) as store:
        again = SprtMonitor.from_store(store)
    assert again is not None and again.verdict() == verdict
