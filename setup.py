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


def _compiled_modules() -> tuple[str, ...]:
    """``harness/cli/compiled.py``'s list, read by path: nothing is installed yet."""
    path = ROOT / "harness" / "cli" / "compiled.py"
    spec = importlib.util.spec_from_file_location("_troef_compiled", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(module.COMPILED_MODULES)


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
    paths = [m.replace(".", "/") + ".py" for m in _compiled_modules()]
    # One group, named inside the games package: its shared library
    # (games/kit__mypyc.*.so) then sits where an editable install finds it.
    return list(mypycify(paths, opt_level="3", group_name="games.kit"))


setup(ext_modules=ext_modules())
