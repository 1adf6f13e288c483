"""Build hook: pure Python by default, the game kit compiled by mypyc on request.

Everything else about the package is in ``pyproject.toml``. Without
``TROEF_COMPILE`` (or with ``TROEF_COMPILE=0``) this adds nothing, so
``pip install -e .`` needs no compiler and installs the ``.py`` sources as
they are. With ``TROEF_COMPILE=1`` the modules of
``harness/cli/compiled.py:COMPILED_MODULES`` are compiled by mypyc (part of
mypy) into extension modules that ``import`` prefers to their sources; the
``.py`` files stay the reference implementation and are installed too.
``bench/README.md`` ("Compiled builds") has the commands and the figures.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

from setuptools import setup

ROOT = Path(__file__).resolve().parent
ACCEPTED = "1 (compile with mypyc), 0 or unset (pure Python)"


def _compiled() -> Any:
    """``harness/cli/compiled.py``, read by path: nothing is installed yet."""
    path = ROOT / "harness" / "cli" / "compiled.py"
    spec = importlib.util.spec_from_file_location("_troef_compiled", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ext_modules() -> list[Any]:
    """mypyc's extensions when ``TROEF_COMPILE=1``, else none."""
    flag = os.environ.get("TROEF_COMPILE", "").strip()
    if flag in ("", "0") or os.environ.get("TROEF_ASKING_REQUIRES"):
        return []  # pure Python, or build_backend.py asking what to install
    if flag != "1":
        raise SystemExit(f"setup.py: TROEF_COMPILE={flag!r}; accepted: {ACCEPTED}")
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        raise SystemExit(
            "setup.py: TROEF_COMPILE=1 needs mypyc (pip install 'mypy>=2.4,<2.5') "
            f"in the build environment, and a C compiler; found: {exc}"
        ) from exc
    compiled = _compiled()
    paths = [m.replace(".", "/") + ".py" for m in compiled.COMPILED_MODULES]
    # What is compiled is what runs, whatever the sources become: the digests
    # let troef --version and the tests tell a stale build (compiled.py).
    compiled.record_sources(ROOT / "games")
    # One group, named inside the games package: its shared library
    # (games/kit__mypyc.*.so) then sits where an editable install finds it.
    # Only the compiled modules are checked: the harness they import is read
    # for its types (--follow-imports=silent), so pip's isolated build needs
    # none of its run-time packages (numpy, pluggy, dask) to compile the kit.
    options = ["--follow-imports=silent"]
    return list(mypycify([*options, *paths], opt_level="3", group_name="games.kit"))


setup(ext_modules=ext_modules())
