"""Issue 36, item 2: ``troef --version`` says which build runs, and setup.py's opt-in.

The wording is checked against what a fresh interpreter actually imports, so
the same test holds of the pure-Python build (the suite's usual run) and of a
build made with ``TROEF_COMPILE=1`` (bench/README.md, "Compiled builds").
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from harness.cli.compiled import COMPILED_MODULES, record_sources

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str, cwd: Path = ROOT, **env: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
    ).stdout


def test_version_names_the_build_that_is_imported() -> None:
    probe = (
        "import importlib, sys\n"
        "from harness.cli import main\n"
        "try:\n"
        "    main(['--version'])\n"
        "except SystemExit:\n"
        "    pass\n"
        f"for name in {COMPILED_MODULES!r}:\n"
        "    print('FILE', importlib.import_module(name).__file__)\n"
    )
    out = _python(probe)
    files = [line.split(" ", 1)[1] for line in out.splitlines() if line[:5] == "FILE "]
    assert len(files) == len(COMPILED_MODULES)
    compiled = [f for f in files if f.endswith(tuple(EXTENSION_SUFFIXES))]
    version = out.splitlines()[0]
    assert version.startswith("troef ")
    if not compiled:
        assert version.endswith(", pure Python"), (version, files)
    elif len(compiled) == len(files):
        assert version.endswith(", compiled (mypyc)"), (version, files)
    else:
        assert "partly compiled (mypyc)" in version, (version, files)


def test_a_compiled_file_beside_a_source_is_what_version_reports(
    tmp_path: Path,
) -> None:
    """The look-up follows ``games`` to wherever ``import`` finds it (here: first
    on ``PYTHONPATH``) and counts the modules that have an extension file there."""
    first, *rest = COMPILED_MODULES
    for name in COMPILED_MODULES:
        source = tmp_path.joinpath(*name.split(".")).with_suffix(".py")
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("")
    (tmp_path / "games" / "__init__.py").write_text("")
    stem = tmp_path.joinpath(*first.split("."))
    stem.with_name(stem.name + EXTENSION_SUFFIXES[0]).write_bytes(b"")
    code = "from harness.cli.compiled import build_kind; print(build_kind())"
    path = os.pathsep.join([str(tmp_path), str(ROOT)])
    record_sources(tmp_path / "games")  # as setup.py does when it compiles
    kind = _python(code, tmp_path, PYTHONPATH=path).strip()
    assert kind == f"partly compiled (mypyc): 1 of {len(COMPILED_MODULES)} modules"
    for name in rest:
        stem = tmp_path.joinpath(*name.split("."))
        stem.with_name(stem.name + EXTENSION_SUFFIXES[0]).write_bytes(b"")
    assert _python(code, tmp_path, PYTHONPATH=path).strip() == "compiled (mypyc)"


def test_a_source_edited_since_it_was_compiled_is_named_stale(tmp_path: Path) -> None:
    """``import`` still loads the old compiled code: --version names each
    such module, and says what rebuilds it."""
    for name in COMPILED_MODULES:
        source = tmp_path.joinpath(*name.split(".")).with_suffix(".py")
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"# {name}\n")
        stem = source.with_suffix("")
        stem.with_name(stem.name + EXTENSION_SUFFIXES[0]).write_bytes(b"")
    (tmp_path / "games" / "__init__.py").write_text("")
    code = "from harness.cli.compiled import build_kind; print(build_kind())"
    path = os.pathsep.join([str(tmp_path), str(ROOT)])
    # A build from before the record: nothing says what it was compiled from.
    unknown = _python(code, tmp_path, PYTHONPATH=path).strip()
    assert unknown.startswith("compiled (mypyc); STALE: " + ", ".join(COMPILED_MODULES))
    record_sources(tmp_path / "games")
    assert _python(code, tmp_path, PYTHONPATH=path).strip() == "compiled (mypyc)"
    edited = tmp_path.joinpath(*COMPILED_MODULES[1].split(".")).with_suffix(".py")
    edited.write_text(edited.read_text() + "X = 1\n")
    kind = _python(code, tmp_path, PYTHONPATH=path).strip()
    assert kind == (
        f"compiled (mypyc); STALE: {COMPILED_MODULES[1]} changed since compiled, "
        "and the old code runs (rebuild: TROEF_COMPILE=1 pip install -e ., or "
        "delete the games/*.so files for pure Python)"
    )


def test_setup_py_refuses_an_unknown_compile_flag() -> None:
    run = subprocess.run(
        [sys.executable, "setup.py", "--name"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "TROEF_COMPILE": "yes"},
    )
    assert run.returncode != 0
    assert "TROEF_COMPILE='yes'" in run.stderr
    assert "accepted: 1 (compile with mypyc), 0 or unset (pure Python)" in run.stderr


def test_setup_py_builds_no_extension_by_default() -> None:
    probe = (
        "import sys, runpy, setuptools\n"
        "seen = []\n"
        "setuptools.setup = lambda **kw: seen.append(kw)\n"
        "runpy.run_path('setup.py')\n"
        "print(seen[0]['ext_modules'])\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "TROEF_COMPILE"},
    )
    assert run.stdout.strip() == "[]"


def test_the_build_backend_asks_for_mypy_only_to_compile() -> None:
    """pip's isolated build gets mypyc with TROEF_COMPILE=1, nothing more without."""
    probe = (
        "import build_backend\n"
        "print(build_backend.get_requires_for_build_wheel())\n"
        "print(build_backend.get_requires_for_build_editable())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TROEF_COMPILE"}
    pure = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert pure.returncode == 0, pure.stderr
    assert "mypy" not in pure.stdout
    compiled = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={**env, "TROEF_COMPILE": "1"},
        capture_output=True,
        text=True,
    )
    assert compiled.returncode == 0, compiled.stderr
    assert compiled.stdout.count("'mypy>=2.4,<2.5'") == 2


def test_pure_python_runs_without_mypy_extensions() -> None:
    """mypyc's class marks are imported only where mypy_extensions is there."""
    probe = (
        "import sys\n"
        "sys.modules['mypy_extensions'] = None  # import fails, as where it is absent\n"
        "import games.tricks\n"
        "print(games.tricks.TrickState.__name__)\n"
    )
    assert _python(probe).strip() == "TrickState"
