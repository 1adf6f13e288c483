"""A bot that fails the start-up probe forfeits its matches; the others play
(issue 29, item 3), unless the organiser asks for ``probe = "refuse"``.

Real runs of ``troef run`` with real workers: one entrant's program does not
exist, another answers ``ready`` with a reply nested 30,000 deep. The old
refusal, asked for, is pinned in ``tests/harness/test_run_control.py``
(``test_an_entrant_that_cannot_start_is_named_before_any_match``) and
``tests/harness/test_run_setup.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.contracts.errors import ConfigError
from harness.contracts.result import ForfeitReason
from harness.tournament.config import load_config
from harness.tournament.plan import plan
from harness.tournament.probe import ProbeFailure, probe_forfeits
from harness.tournament.store import Store
from tests.conftest import TOY_PLUGIN

BROKEN = Path(__file__).parents[1] / "plugins" / "broken_bots.py"
FAILING = {"ghost", "nested"}


def _config(tmp_path: Path, top: str = "") -> Path:
    """Five entrants at tables of three: three random bots, two that cannot play."""
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "toy"\nseats = 3\nplugins = ["{TOY_PLUGIN}"]\nmatches = 1\n'
        f'workers = 2\nexecutor = "process"\n{top}'
        '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
        '[entrants.c]\nbot = "random"\n'
        '[entrants.ghost]\ncommand = ["definitely-not-a-program"]\n'
        f'[entrants.nested]\ncommand = ["{sys.executable}", "-I", "{BROKEN}", '
        '"nested-ready"]\n'
    )
    path.chmod(0o600)
    return path


def _troef(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "80"},
    )


def test_the_probe_key_takes_forfeit_or_refuse(tmp_path: Path) -> None:
    assert load_config(_config(tmp_path)).probe == "forfeit"
    assert load_config(_config(tmp_path, 'probe = "refuse"\n')).probe == "refuse"
    with pytest.raises(ConfigError) as caught:
        load_config(_config(tmp_path, 'probe = "skip"\n'))
    assert str(caught.value) == (
        f"{tmp_path / 't.toml'}:7: probe: 'skip' is not allowed; expected one of "
        "'forfeit', 'refuse'"
    )
    # Not part of what decides results: a database of either resumes with the other.
    assert (
        load_config(_config(tmp_path)).snapshot()
        == load_config(_config(tmp_path, 'probe = "refuse"\n')).snapshot()
    )


def test_entrants_that_fail_the_probe_forfeit_their_matches_and_the_others_play(
    tmp_path: Path,
) -> None:
    path = _config(tmp_path)
    done = _troef("run", str(path))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert (
        "entrant 'ghost' failed the start-up probe (crash: cannot start "
        "['definitely-not-a-program']"
    ) in done.stderr + done.stdout
    assert (
        "entrant 'nested' failed the start-up probe (protocol: protocol error: reply "
        "nests arrays and objects 30001 deep"
    ) in done.stderr + done.stdout
    with Store.existing(tmp_path / "t.sqlite") as store:
        matches = list(store.matches())
    # Ten compositions of three of the five, each in three rotations.
    assert len(matches) == 30
    played = [m for m in matches if not FAILING & set(m.job["seating"])]
    assert len(played) == 3
    assert all(m.result.forfeit is None for m in played)
    reasons = {"ghost": ForfeitReason.CRASH, "nested": ForfeitReason.PROTOCOL}
    for m in matches:
        if m in played:
            continue
        seating = m.job["seating"]
        forfeit = m.result.forfeit
        assert forfeit is not None
        # The lowest seat of an entrant that cannot play forfeits.
        assert forfeit.seat == min(s for s, e in enumerate(seating) if e in FAILING)
        assert forfeit.reason is reasons[seating[forfeit.seat]]
        assert forfeit.detail.startswith("start-up probe: ")
        assert m.result.ranks[forfeit.seat] == max(m.result.ranks)
    for label in FAILING:
        mine = sum(
            m.result.forfeit is not None
            and m.job["seating"][m.result.forfeit.seat] == label
            for m in matches
        )
        assert (
            f"its {mine} matches left are recorded as its forfeits"
            in (done.stderr.split(f"entrant {label!r} failed", 1)[1])
        )
    # The forfeits are results: a rerun finds nothing left to play.
    again = _troef("run", str(path))
    assert again.returncode == 0, again.stderr
    assert "nothing left to play: 30 matches are recorded" in again.stdout


def test_validate_probe_names_the_entrant_and_what_the_run_will_do(
    tmp_path: Path,
) -> None:
    path = _config(tmp_path)
    plain = _troef("validate", str(path))
    assert plain.returncode == 0, plain.stderr
    assert (
        "  probe      every process bot starts once before the first match; one that "
        'fails forfeits its matches and the others play (probe = "forfeit")'
    ) in plain.stdout
    probed = _troef("validate", str(path), "--probe")
    assert probed.returncode == 1, probed.stderr
    assert "  probe      0 of 2 process bots started and answered 'ready'" in (
        probed.stdout
    )
    for label, reason in (("ghost", "crash"), ("nested", "protocol")):
        assert f"  probe      entrant {label!r} failed ({reason}): " in probed.stdout
    will = "'troef run' will record each of its matches as its forfeit and play"
    assert probed.stdout.count(will) == 2
    # Refused, validate says so as the run would, and nothing is made.
    path.write_text('probe = "refuse"\n' + path.read_text())
    refused = _troef("validate", str(path), "--probe")
    assert refused.returncode == 2
    assert f"troef: error: {path}: entrant 'ghost' cannot play: " in refused.stderr
    assert f"{path}: entrant 'nested' cannot play: protocol error" in refused.stderr
    assert 'probe = "refuse": nothing is played' in refused.stderr
    assert not (tmp_path / "t.sqlite").exists()


def test_a_game_that_cannot_begin_the_forfeited_match_makes_it_void(
    tmp_path: Path,
) -> None:
    """The probe's forfeits are built by the referee too: a game whose
    new_match raises makes them void, named, not a crash of the run."""
    faulty = Path(__file__).parents[1] / "plugins" / "faulty_game.py"
    path = tmp_path / "v.toml"
    path.write_text(
        f'game = "faulty"\nplugins = ["{faulty}"]\nmatches = 2\nseed = 1\n'
        '[options]\nfault = "new_match"\n'
        '[entrants.a]\nbot = "random"\n'
        '[entrants.ghost]\ncommand = ["definitely-not-a-program"]\n'
    )
    config = load_config(path)
    jobs = plan(config)
    failure = ProbeFailure("ghost", ForfeitReason.CRASH, "cannot start")
    results = probe_forfeits(config, jobs, [failure])
    assert [job.id for job, _ in results] == [job.id for job in jobs]
    for job, result in results:
        assert result.forfeit is None and result.void is not None
        assert result.void.startswith(
            f"game fault in match {job.index} ({job.id}), plugin '{faulty}': "
            "game 'faulty' raised in FaultyGame.new_match (faulty_game.py:"
        )
