"""troef's build backend: setuptools', plus mypyc's build requirement on request.

``pip install`` builds in an isolated environment holding only what the
backend asks for. With ``TROEF_COMPILE=1`` (``setup.py``) that must include
mypy, whose mypyc compiles the game kit; without it nothing is added, so the
pure-Python build needs exactly what it needed before. This is setuptools'
documented way to add build requirements dynamically (an in-tree backend
wrapping ``setuptools.build_meta``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403

#: The series the tree is type-clean under, as in the ``test`` extra.
MYPYC = ["mypy>=2.4,<2.5"]


def _requires(
    ask: Callable[[dict[str, Any] | None], list[str]], config: Any
) -> list[str]:
    # setuptools runs setup.py to answer, before mypy is installed: setup.py
    # leaves the extensions out while this marker is set.
    os.environ["TROEF_ASKING_REQUIRES"] = "1"
    try:
        found = ask(config)
    finally:
        del os.environ["TROEF_ASKING_REQUIRES"]
    return found + (MYPYC if os.environ.get("TROEF_COMPILE", "").strip() == "1" else [])


def get_requires_for_build_wheel(
    config_settings: dict[str, Any] | None = None,
) -> list[str]:
    """setuptools' requirements, and mypy when ``TROEF_COMPILE=1``."""
    return _requires(build_meta.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(
    config_settings: dict[str, Any] | None = None,
) -> list[str]:
    """setuptools' requirements, and mypy when ``TROEF_COMPILE=1``."""
    return _requires(build_meta.get_requires_for_build_editable, config_settings)
