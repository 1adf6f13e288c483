"""Executors as plugins: the config's [executor] table, a plugin's own executor,
and the Worker object that owns its state and checks the runner's code."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from harness.contracts.errors import ConfigError
from harness.plugins import PluginSource, load_plugins
from harness.tournament.config import load_config
from harness.tournament.executor_plugins import BUILTIN_PLUGIN, load_registry
from harness.tournament.plan import plan
from harness.tournament.scheduler import run_tournament
from harness.tournament.workers import Worker, WorkerMismatch, fingerprint
from tests.conftest import TOY_PLUGIN
from tests.harness.test_scheduler import stored

EXECUTOR_PLUGIN = Path(__file__).parents[1] / "plugins" / "executor_plugin.py"


def write(tmp_path: Path, executor: str, name: str = "t") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'game = "toy"\nseats = 2\nmatches = 3\nseed = 4\n'
        f'plugins = ["{TOY_PLUGIN}", "{EXECUTOR_PLUGIN}"]\n'
        f'database = "{name}.sqlite"\n{executor}'
        '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
    )
    return path


def test_the_built_in_executors_are_registered_like_any_plugin() -> None:
    registry = load_registry(entry_points=False, files=[TOY_PLUGIN])
    assert {"inline", "process", "dask"} <= set(registry.executors)
    assert registry.provider[("executor", "dask")] == BUILTIN_PLUGIN
    # Not blockable: every config needs one.
    blocked = load_registry(files=[TOY_PLUGIN], blocked=[BUILTIN_PLUGIN])
    assert {"inline", "process", "dask"} <= set(blocked.executors)
    # The plugin layer knows nothing of tournaments: its registry has none.
    assert not load_plugins(entry_points=False, files=[TOY_PLUGIN]).executors


def test_a_plugins_executor_runs_with_its_settings(tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    table = f'[executor]\nname = "noting"\nnote = "{note}"\n'
    run_tournament(load_config(write(tmp_path, table)))
    assert note.read_text().splitlines()[0] == "started"
    run_tournament(load_config(write(tmp_path, 'executor = "inline"\n', "ref")))
    assert stored(tmp_path / "t.sqlite") == stored(tmp_path / "ref.sqlite")


def _chunks_noted(tmp_path: Path, top: str, tables: str = "") -> list[int]:
    """The chunk sizes the ``noting`` executor was given for a toy tournament
    of the config's ``top`` lines and ``tables``."""
    tmp_path.mkdir()
    note = tmp_path / "note.txt"
    path = tmp_path / "chunks.toml"
    path.write_text(
        f'game = "toy"\nseats = 2\nseed = 4\n{top}'
        f'plugins = ["{TOY_PLUGIN}", "{EXECUTOR_PLUGIN}"]\n'
        f'[executor]\nname = "noting"\nnote = "{note}"\n{tables}'
        '[entrants.a]\nbot = "random"\n[entrants.b]\nbot = "random"\n'
    )
    run_tournament(load_config(path))
    return [int(size) for size in note.read_text().splitlines()[1:]]


def test_chunks_take_their_default_sizes_from_the_executor(tmp_path: Path) -> None:
    # A round robin: guided chunks of at most the executor's max_chunk (7).
    chunks = _chunks_noted(tmp_path / "rr", "matches = 40\n")
    assert sum(chunks) == 80 and chunks[0] == max(chunks) == 7
    # An SPRT: chunks of the executor's sprt_chunk (5) while the test runs
    # (between two random bots it does not decide within 40 pairs).
    sprt = "[sprt]\nelo0 = 0\nelo1 = 5\n"
    chunks = _chunks_noted(tmp_path / "sprt", 'format = "sprt"\nmatches = 40\n', sprt)
    assert sum(chunks) == 80 and set(chunks) == {5}
    # The config's chunk wins over both.
    chunks = _chunks_noted(tmp_path / "set", "matches = 40\nchunk = 3\n")
    assert set(chunks[:-1]) == {3} and chunks[-1] <= 3


@pytest.mark.parametrize(
    ("executor", "line", "message"),
    [
        (
            'executor = "dusk"\n',
            7,
            "executor: unknown executor 'dusk'; did you mean 'dask'?",
        ),
        ('[executor]\nname = "dusk"\n', 8, "executor.name: unknown executor 'dusk'"),
        ("executor = 3\n", 7, "executor: 3 is not allowed; expected an executor"),
        ("[executor]\nworkers = 2\n", 7, 'executor: missing or bad "name"'),
        (
            '[executor]\nname = "dask"\nadress = "tcp://h:8786"\n',
            9,
            "executor.adress: unknown key; did you mean 'address'",
        ),
        (
            '[executor]\nname = "dask"\naddress = "h:8786"\n',
            9,
            "executor.address: 'h:8786' is not allowed; expected a scheduler",
        ),
        (
            '[executor]\nname = "dask"\nworkers = "two"\n',
            9,
            "executor.workers: 'two' is not allowed; expected worker processes",
        ),
        (
            '[executor]\nname = "dask"\nworkers = 0\n',
            9,
            "executor.workers: 0 is not allowed",
        ),
        ('[executor]\nname = "noting"\n', 7, "executor.note: missing"),
        (
            '[executor]\nname = "inline"\nworkers = 2\n',
            9,
            "executor.workers: unknown key",
        ),
    ],
)
def test_a_bad_executor_is_named_with_file_line_and_key(
    tmp_path: Path, executor: str, line: int, message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, executor))
    assert message in str(caught.value)
    assert f"t.toml:{line}:" in str(caught.value)


def test_workers_given_twice_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'workers = 3\n[executor]\nname = "dask"\nworkers = 2\n')
    with pytest.raises(ConfigError, match="workers is given twice"):
        load_config(path)


def test_the_executor_table_sets_name_settings_and_workers(tmp_path: Path) -> None:
    table = '[executor]\nname = "dask"\naddress = "tcp://127.0.0.1:8786"\nworkers = 3\n'
    config = load_config(write(tmp_path, table))
    assert config.executor == "dask" and config.workers == 3
    assert config.executor_settings == (
        ("address", "tcp://127.0.0.1:8786"),
        ("workers", 3),
    )
    # Where the matches run is not part of what decides the results.
    plain = load_config(write(tmp_path, 'executor = "process"\n', "plain"))
    assert config.snapshot() == plain.snapshot()


def test_a_worker_pickles_as_how_to_build_it_and_plays_plain_data(
    tmp_path: Path,
) -> None:
    config = load_config(write(tmp_path, 'executor = "inline"\n'))
    source = config.plugin_source
    worker = Worker(source, fingerprint(load_plugins(**vars(source))))
    worker.load()
    copy = pickle.loads(pickle.dumps(worker))
    assert copy._registry is None and copy.expected == worker.expected
    jobs = plan(config)
    results = copy.play(jobs, keep_logs=False)
    assert [job_id for job_id, _ in results] == [job.id for job in jobs]
    assert results == worker.play(jobs, keep_logs=False)


def test_a_worker_with_other_code_refuses_the_work(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, 'executor = "inline"\n'))
    source: PluginSource = config.plugin_source
    expected = fingerprint(load_plugins(**vars(source)))
    for key, other in (
        ("troef", "0.0.1 (0123456789abcdef)"),
        (f"plugin {TOY_PLUGIN}", "fedcba9876543210"),
    ):
        assert key in expected
        worker = Worker(source, {**expected, key: other}, where="worker w1")
        with pytest.raises(WorkerMismatch, match=f"worker w1 refuses the work.*{key}"):
            worker.play(plan(config), keep_logs=False)
