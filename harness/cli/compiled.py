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

A compiled module runs the source as it was when it was compiled, and
``import`` prefers it to a source edited since: ``setup.py`` records each
compiled source's SHA-256 in :data:`SOURCES_RECORD` beside them, and
:func:`stale_modules` names the compiled modules whose source no longer
matches it (``troef --version`` says so, and the test suite refuses to run
on them).
"""

from __future__ import annotations

import hashlib
import json
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec
from pathlib import Path

__all__ = [
    "COMPILED_MODULES",
    "SOURCES_RECORD",
    "build_kind",
    "compiled_modules",
    "record_sources",
    "stale_modules",
]

#: The modules a compiled build compiles: the parts of the game kit that are
#: no slower compiled alone (issue 36; bench/README.md, "Compiled builds",
#: says what else mypyc can take and what it gains). ``games.tricks`` is left
#: out: compiled under interpreted games, it made a klaverjassen decision
#: 1.3x and a clone 3x slower ("The opt-in build").
COMPILED_MODULES: tuple[str, ...] = (
    "games.cards",
    "games.sampling",
)


#: The file, in the ``games`` package's folder, of the compiled sources' digests.
SOURCES_RECORD = "compiled-sources.json"


def _games_roots() -> list[Path]:
    spec = find_spec("games")
    return [Path(r) for r in (spec.submodule_search_locations or ())] if spec else []


def _source(root: Path, name: str) -> Path:
    return root.joinpath(*name.split(".")[1:]).with_suffix(".py")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def record_sources(root: Path) -> Path:
    """Write the digests of the sources about to be compiled, in ``root``
    (the ``games`` folder): ``setup.py`` calls it when ``TROEF_COMPILE=1``."""
    record = root / SOURCES_RECORD
    digests = {name: _digest(_source(root, name)) for name in COMPILED_MODULES}
    record.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    return record


def _compiled_in(roots: list[Path]) -> dict[str, Path]:
    """Each module that ``import`` would load compiled, with its ``games`` folder."""
    found = {}
    for name in COMPILED_MODULES:
        parts = name.split(".")[1:]
        for root in roots:
            stem = root.joinpath(*parts)
            if any(stem.with_name(stem.name + s).is_file() for s in EXTENSION_SUFFIXES):
                found[name] = root
                break
    return found


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` that ``import`` would load compiled."""
    return list(_compiled_in(_games_roots()))


def stale_modules() -> list[str]:
    """The compiled modules whose source changed since they were compiled
    (or whose digest no record holds: a build from before the record)."""
    stale = []
    for name, root in _compiled_in(_games_roots()).items():
        try:
            recorded = json.loads((root / SOURCES_RECORD).read_text()).get(name)
        except (OSError, ValueError):
            recorded = None
        source = _source(root, name)
        if recorded is None or not source.is_file() or _digest(source) != recorded:
            stale.append(name)
    return stale


def build_kind() -> str:
    """``compiled (mypyc)``, ``pure Python``, or ``partly compiled (mypyc): N of
    M``; and which compiled modules are stale, with what rebuilds them."""
    done = len(compiled_modules())
    if done == len(COMPILED_MODULES):
        kind = "compiled (mypyc)"
    elif done == 0:
        return "pure Python"
    else:
        kind = f"partly compiled (mypyc): {done} of {len(COMPILED_MODULES)} modules"
    stale = stale_modules()
    if stale:
        kind += (
            f"; STALE: {', '.join(stale)} changed since compiled, and the old code "
            "runs (rebuild: TROEF_COMPILE=1 pip install -e ., or delete the "
            "games/*.so files for pure Python)"
        )
    return kind
