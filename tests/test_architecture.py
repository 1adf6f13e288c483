"""The layout's rules, read from the source (``docs/ARCHITECTURE.md``).

Every import that runs (at module level or inside a function) is an edge;
imports under ``if TYPE_CHECKING:`` name types only, never run, and are left
out. Over ``harness/``, ``games/`` and ``bots/``:

- no module imports itself back through others (no circle);
- a subsystem of ``harness/`` imports only from lower layers and from itself;
- games and bots (plugins) import only the plugin author's part of the engine;
- the engine imports no game and no bot.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PACKAGES = ("harness", "games", "bots")

#: The subsystems of ``harness/``, lowest first; a subsystem may import from
#: those of a lower layer. Subsystems of one layer do not import each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("harness.contracts",),
    ("harness.plugins",),
    ("harness.match",),
    ("harness.isolation", "harness.stats", "harness.interop"),
    ("harness.tournament",),
    ("harness.report",),
    ("harness.serve",),
    ("harness.cli", "harness.api"),
    ("harness.__main__",),
)
#: What a game or bot may import of the engine besides the package ``harness``
#: itself (its facade): the plugin author's part.
PLUGIN_API = (
    "harness.contracts",
    "harness.match",
    "harness.plugins",
    "harness.interop",
)


def modules() -> dict[str, Path]:
    """Every module of the three packages, by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = modules()


def _resolve(name: str) -> str | None:
    """The module ``name`` is or lies in (an attribute's module), if ours."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of every node under an ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for n in ast.walk(node))
    return skipped


def imports(module: str) -> Iterator[tuple[int, str]]:
    """(line, module) of each import of ours that runs in ``module``."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skipped = _type_only(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # ``from pkg import mod`` imports the module mod; ``from mod import
            # name`` the module mod.
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                for a in node.names
            ]
        else:
            continue
        for target in targets:
            resolved = _resolve(target)
            if resolved is not None and resolved != module:
                yield node.lineno, resolved


GRAPH = {m: sorted({t for _, t in imports(m)}) for m in MODULES}


def _subsystem(module: str, names: tuple[str, ...]) -> str | None:
    return next((n for n in names if module == n or module.startswith(n + ".")), None)


def _layer(module: str) -> tuple[int, str] | None:
    for level, names in enumerate(LAYERS):
        found = _subsystem(module, names)
        if found is not None:
            return level, found
    return None


def circles() -> list[list[str]]:
    """Every circle of imports, as the modules it passes (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return found


def test_every_harness_module_has_a_layer() -> None:
    unplaced = [
        m
        for m in MODULES
        if m.startswith("harness.") and _layer(m) is None and m != "harness"
    ]
    assert not unplaced, f"harness modules outside every subsystem: {unplaced}"


def test_no_module_imports_itself_back() -> None:
    found = circles()
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def _wrong_direction(module: str, line: int, target: str) -> str | None:
    """Why ``module`` may not import ``target``, or None when it may."""
    mine = _layer(module)
    if mine is None:
        return None
    if target == "harness":
        return f"{module}:{line} imports the package facade 'harness'"
    theirs = _layer(target)
    if theirs is None:
        return f"{module}:{line} imports {target}, which is a plugin"
    if theirs[1] != mine[1] and theirs[0] >= mine[0]:
        return (
            f"{module}:{line} ({mine[1]}) imports {target} ({theirs[1]}), "
            "which is not below it"
        )
    return None


def test_the_engine_imports_downwards_only() -> None:
    wrong = [
        problem
        for module in MODULES
        for line, target in imports(module)
        if (problem := _wrong_direction(module, line, target)) is not None
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("package", ["games", "bots"])
def test_plugins_import_only_the_plugin_authors_engine(package: str) -> None:
    wrong = [
        f"{module}:{line} imports {target}"
        for module in MODULES
        if module.split(".")[0] == package
        for line, target in imports(module)
        if target.startswith("harness.") and _subsystem(target, PLUGIN_API) is None
    ]
    assert not wrong, "\n".join(wrong)


def test_the_checker_sees_a_circle_and_an_upward_import() -> None:
    """The rules can fail: a function-level import is seen, a TYPE_CHECKING
    one is not, and the engine's real upward edges are named by layer."""
    # Imported inside a function only (start()), and seen:
    lazy = GRAPH["harness.tournament.executor_plugins"]
    assert "harness.tournament.dask_executor" in lazy
    assert "harness.tournament.config" not in GRAPH["harness.tournament.plan"]
    assert _layer("harness.tournament.store") == (4, "harness.tournament")
    assert _layer("harness.contracts.game") == (0, "harness.contracts")
    assert (
        _wrong_direction("harness.tournament.store", 1, "harness.contracts.game")
        is None
    )
    upward = _wrong_direction("harness.contracts.game", 7, "harness.tournament.store")
    assert upward == (
        "harness.contracts.game:7 (harness.contracts) imports "
        "harness.tournament.store (harness.tournament), which is not below it"
    )
    assert _wrong_direction("harness.stats.elo", 3, "harness.isolation.reaper")
    assert _wrong_direction("harness.match.referee", 2, "games.jass")
    real = dict(GRAPH)
    try:
        GRAPH["harness.contracts.game"] = [*real["harness.contracts.game"], "bots.jass"]
        GRAPH["bots.jass"] = [*real["bots.jass"], "harness.contracts.game"]
        assert any({"bots.jass", "harness.contracts.game"} <= set(c) for c in circles())
    finally:
        GRAPH.clear()
        GRAPH.update(real)
