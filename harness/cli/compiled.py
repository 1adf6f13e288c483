"""Which build of troef's game kit this is: compiled by mypyc, or pure Python.

:data:`COMPILED_MODULES` is the one list of the modules ``setup.py`` compiles
when ``TROEF_COMPILE=1`` (``setup.py`` reads this file by its path, before
anything is installed, so it imports only the standard library).
:func:`build_kind` tells ``troef --version`` which of them the import system
would load as an extension module. It imports none of them (the engine never
imports ``games``, ``docs/ARCHITECTURE.md``) and costs a few file look-ups: it
finds the ``games`` package the way ``import`` does and checks, module by
module, for a compiled file beside the source, which ``import`` prefers to the
``.py`` (extension suffixes come first in Python's path finder).
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec
from pathlib import Path

__all__ = ["COMPILED_MODULES", "build_kind", "compiled_modules"]

#: The modules a compiled build compiles: for now the game kit (issue 36;
#: bench/README.md, "Compiled builds", says what else mypyc can take and what
#: it gains). A class that Python code subclasses or whose ``__dict__`` is
#: copied (``TrickState``) is marked ``@mypyc_attr(native_class=False)``.
COMPILED_MODULES: tuple[str, ...] = (
    "games.cards",
    "games.tricks",
    "games.sampling",
)


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` that ``import`` would load compiled."""
    spec = find_spec("games")
    roots = list(spec.submodule_search_locations or ()) if spec else []
    found = []
    for name in COMPILED_MODULES:
        parts = name.split(".")[1:]
        for root in roots:
            stem = Path(root, *parts)
            if any(stem.with_name(stem.name + s).is_file() for s in EXTENSION_SUFFIXES):
                found.append(name)
                break
    return found


def build_kind() -> str:
    """``compiled (mypyc)``, ``pure Python``, or ``partly compiled (mypyc): N of M``."""
    done = len(compiled_modules())
    if done == len(COMPILED_MODULES):
        return "compiled (mypyc)"
    if done == 0:
        return "pure Python"
    return f"partly compiled (mypyc): {done} of {len(COMPILED_MODULES)} modules"
