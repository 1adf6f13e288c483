"""Plugin loading and the registry of games and bots.

:func:`load_plugins` builds a pluggy ``PluginManager`` from the ``troef``
entry-point group plus modules and ``.py`` files named explicitly, and returns a
:class:`Registry` (name -> game class, name -> bot class). The registry is the
only module-level mutable state the design allows, and it lives in the caller.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from harness.contracts import hookspecs
from harness.contracts.bot import Bot
from harness.contracts.errors import PluginError, UnknownNameError, close_names
from harness.contracts.executor import ExecutorPlugin
from harness.contracts.game import Game

__all__ = ["ENTRY_POINT_GROUP", "Registry", "load_plugins"]

ENTRY_POINT_GROUP = "troef"


@dataclass(frozen=True)
class PluginSource:
    """How a registry was built, so a worker process can build it again."""

    entry_points: bool = True
    modules: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    blocked: tuple[str, ...] = ()


@dataclass
class Registry:
    """The games and bots that the loaded plugins provide, by name."""

    source: PluginSource
    games: dict[str, type[Game]] = field(default_factory=dict)
    bots: dict[str, type[Bot]] = field(default_factory=dict)
    executors: dict[str, type[ExecutorPlugin]] = field(default_factory=dict)
    #: Which plugin registered each game or bot name.
    provider: dict[tuple[str, str], str] = field(default_factory=dict)
    #: What the user should hear about but that does not stop loading: a
    #: plugin file that registers nothing, a blocked name that names no plugin.
    warnings: list[str] = field(default_factory=list)

    def game_class(self, name: str) -> type[Game]:
        """The game class registered as ``name``."""
        try:
            return self.games[name]
        except KeyError:
            raise UnknownNameError(
                f"no game named {name!r}; {close_names(name, self.games)}"
            ) from None

    def game(self, name: str, options: Mapping[str, Any] | None = None) -> Game:
        """Build game ``name`` with ``options`` (validated)."""
        return self.game_class(name)(**dict(options or {}))

    def bot_class(self, name: str, game: str | None = None) -> type[Bot]:
        """The bot class registered as ``name``; checks it plays ``game``."""
        try:
            cls = self.bots[name]
        except KeyError:
            raise UnknownNameError(
                f"no bot named {name!r}; {close_names(name, self.bots)}"
            ) from None
        if game is not None and cls.games is not None and game not in cls.games:
            playable = [
                b for b, c in self.bots.items() if c.games is None or game in c.games
            ]
            raise UnknownNameError(
                f"bot {name!r} does not play {game!r} (it plays "
                f"{', '.join(sorted(cls.games))}); bots for {game!r}: "
                f"{', '.join(sorted(playable))}"
            )
        return cls

    def executor_class(self, name: str) -> type[ExecutorPlugin]:
        """The executor class registered as ``name``."""
        try:
            return self.executors[name]
        except KeyError:
            raise UnknownNameError(
                f"unknown executor {name!r}; {close_names(name, self.executors)}"
            ) from None


def load_plugins(
    *,
    entry_points: bool = True,
    modules: Iterable[str] = (),
    files: Iterable[str | Path] = (),
    blocked: Iterable[str] = (),
    builtins: Iterable[tuple[str, ModuleType]] = (),
) -> Registry:
    """Load plugins and return the registry of their games, bots and executors.

    :param entry_points: load the ``troef`` entry-point group (the built-ins too).
    :param modules: importable module names to register as plugins.
    :param files: paths of ``.py`` files to register as plugins, named by path.
    :param blocked: plugin names not to load (entry-point names or module names).
    :param builtins: (name, module) plugins always registered, whatever is
        blocked: a higher layer's own, as the tournaments' built-in executors
        (:func:`harness.tournament.executor_plugins.load_registry`).
    :raises PluginError: a plugin fails to import, or two register one name.
    """
    source = PluginSource(
        entry_points, tuple(modules), tuple(str(f) for f in files), tuple(blocked)
    )
    pm = pluggy.PluginManager("troef")
    pm.add_hookspecs(hookspecs)
    builtins = list(builtins)
    for name, builtin in builtins:
        pm.register(builtin, name=name)
    unblockable = {name for name, _ in builtins}
    for name in source.blocked:
        if name not in unblockable:  # pluggy's block would unregister it
            pm.set_blocked(name)
    if entry_points:
        for ep in sorted(
            importlib.metadata.entry_points(group=ENTRY_POINT_GROUP),
            key=lambda ep: ep.name,
        ):
            if pm.is_blocked(ep.name) or pm.has_plugin(ep.name):
                continue
            _register(pm, ep.name, lambda ep=ep: ep.load(), f"{ep.name} = {ep.value}")
    for module in source.modules:
        if not pm.is_blocked(module):
            _register(pm, module, lambda m=module: importlib.import_module(m), module)
    for path in source.files:
        if not pm.is_blocked(path):
            _register(pm, path, lambda p=path: _import_file(Path(p)), path)
    registry = _collect(pm, source)
    registry.warnings.extend(_warnings(pm, source))
    return registry


_HOOKS = ("troef_games", "troef_bots", "troef_executors")


def _warnings(pm: pluggy.PluginManager, source: PluginSource) -> list[str]:
    """Plugins named explicitly that register nothing; blocks that block nothing."""
    found = []
    for name in (*source.modules, *source.files):
        plugin = pm.get_plugin(name)
        callers = pm.get_hookcallers(plugin) if plugin is not None else None
        # A misspelled @hookimpl still gets a caller, but one without a spec.
        if callers is None or any(c.spec is not None for c in callers):
            continue
        near = sorted(
            {
                hook
                for attr in dir(plugin)
                if attr not in _HOOKS
                for hook in difflib.get_close_matches(attr, _HOOKS, n=1, cutoff=0.75)
            }
        )
        hint = (
            f"; did you mean {' or '.join(repr(h) for h in near)}?"
            if near
            else f"; a plugin defines {' or '.join(_HOOKS)} marked @hookimpl"
        )
        found.append(f"plugin {name!r} registers no game, bot or executor{hint}")
    known = {ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    known |= {*source.modules, *source.files}
    for name in source.blocked:
        if name not in known:
            found.append(
                f"--block {name!r} names no plugin; plugins: "
                + ", ".join(sorted(known))
            )
    return found


def _register(pm: pluggy.PluginManager, name: str, load: Any, shown: str) -> None:
    try:
        plugin = load()
    except Exception as exc:
        raise PluginError(
            f"plugin {shown!r} failed to import: {type(exc).__name__}: {exc}"
        ) from exc
    try:
        pm.register(plugin, name=name)
    except ValueError as exc:  # already registered under another name
        raise PluginError(f"plugin {shown!r} could not be registered: {exc}") from exc


def plugin_module_name(path: Path) -> str:
    """The module name of plugin file ``path``: the same in every process.

    A digest of the resolved path, not ``hash()``, which is salted per
    interpreter: a pickled plugin object must name the same module in a
    worker or a bot host as in the parent.
    """
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    stem = "".join(c if c.isalnum() else "_" for c in path.stem)
    return f"troef_plugin_{digest}_{stem}"


def _import_file(path: Path) -> ModuleType:
    if not path.is_file():
        raise FileNotFoundError(f"no such plugin file: {path}")
    module_name = plugin_module_name(path)
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    # Registered before executing so dataclasses and pickling can find it.
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def _collect(pm: pluggy.PluginManager, source: PluginSource) -> Registry:
    registry = Registry(source)
    for kind, table in (
        ("game", registry.games),
        ("bot", registry.bots),
        ("executor", registry.executors),
    ):
        hook = getattr(pm.hook, _HOOK_OF[kind])
        for impl in hook.get_hookimpls():
            plugin_name = impl.plugin_name
            try:
                classes: object = impl.function()
            except Exception as exc:
                raise PluginError(
                    f"plugin {plugin_name!r} failed in {hook.name}(): "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
            for cls in _classes(kind, impl, hook.name, classes):
                name = cls.name
                if name in table and table[name] is not cls:
                    other = registry.provider[(kind, name)]
                    raise PluginError(
                        f"{kind} name {name!r} is registered twice: by plugin "
                        f"{other!r} and by plugin {plugin_name!r}"
                    )
                table[name] = cls
                registry.provider[(kind, name)] = plugin_name
    for name, bot in registry.bots.items():
        for game in sorted(bot.games or ()):
            if game not in registry.games:
                plugin = registry.provider[("bot", name)]
                raise PluginError(
                    f"plugin {plugin!r}: bot {name!r} names game {game!r}, "
                    f"which no plugin provides; {close_names(game, registry.games)}"
                )
    return registry


# -- what a hook returns ------------------------------------------------------
#
# Issue 25, item 3: a plugin's mistakes (a class returned bare, a class that
# does not subclass Bot, ``games = "belote"``) surfaced as tracebacks or wrong
# messages far from their cause. Each is checked here, when the registry is
# built, and named with its file and line, what was found and what is accepted.

#: The contract class each kind of plugin class subclasses, as a plugin imports it.
_CONTRACTS = {
    "game": "harness.Game",
    "bot": "harness.Bot",
    "executor": "harness.ExecutorPlugin",
}
_HOOK_OF = {"game": "troef_games", "bot": "troef_bots", "executor": "troef_executors"}


_BASES: dict[str, type] = {"game": Game, "bot": Bot, "executor": ExecutorPlugin}


def _classes(
    kind: str, impl: pluggy.HookImpl, hook: str, returned: object
) -> list[Any]:
    """The classes a hook returned, each checked to be a sound ``kind`` class.

    :raises PluginError: naming the file and line, the hook or class, what was
        found and what is accepted.
    """
    base, contract = _BASES[kind], _CONTRACTS[kind]
    short = contract.rsplit(".", 1)[1]
    where = f"{_hook_place(impl)}: {hook}() of plugin {impl.plugin_name!r}"
    if isinstance(returned, type):
        raise PluginError(
            f"{where} returned the class {returned.__qualname__} itself, not a list; "
            f"expected a list of {short} subclasses: return [{returned.__qualname__}]"
        )
    # Any other iterable (a tuple, a set, a generator) goes, as it always has.
    if isinstance(returned, str | bytes | Mapping) or not isinstance(
        returned, Iterable
    ):
        found = "None (no return?)" if returned is None else _found(returned)
        raise PluginError(
            f"{where} returned {found}; expected a list of {short} subclasses, "
            f"e.g. return [My{short}] (or return [] for none)"
        )
    items = list(returned)
    for item in items:
        if not isinstance(item, type):
            hint = ""
            if isinstance(item, base):
                hint = f" (an instance; return the class {type(item).__qualname__})"
            elif isinstance(item, str):
                hint = " (a name; return the class itself)"
            raise PluginError(
                f"{where} returned {_found(item)} in its list{hint}; "
                f"expected {short} subclasses"
            )
        if not issubclass(item, base):
            raise PluginError(_not_a_subclass(kind, item, hook, impl.plugin_name))
        problem = _check_class(kind, item)
        if problem is not None:
            raise PluginError(
                f"{_class_place(item)}: {kind} class {item.__qualname__} "
                f"(from {hook}() of plugin {impl.plugin_name!r}): {problem}"
            )
    return items


def _short(value: object) -> str:
    """``repr(value)``, cut to a line's length (a plugin may return a big object)."""
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _found(value: object) -> str:
    return f"{_short(value)} (a {type(value).__name__})"


def _not_a_subclass(kind: str, cls: type, hook: str, plugin: str) -> str:
    contract = _CONTRACTS[kind]
    short = contract.rsplit(".", 1)[1]
    head = (
        f"{_class_place(cls)}: class {cls.__qualname__}, returned by {hook}() of "
        f"plugin {plugin!r}, does not subclass {contract}"
    )
    for other in _CONTRACTS:  # a game returned as a bot, or the other way round
        if other != kind and issubclass(cls, _BASES[other]):
            return (
                f"{head}: it is a {other} class; return it from {_HOOK_OF[other]}(), "
                f"or give {hook}() {short} subclasses"
            )
    return (
        f"{head}; expected {short} subclasses: "
        f"from {contract.rsplit('.', 1)[0]} import {short}, "
        f"then class {cls.__qualname__}({short}): ..."
    )


def _check_class(kind: str, cls: Any) -> str | None:
    """What is wrong with the metadata of a ``kind`` class, or None."""
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        return (
            f"name = {name!r} is not allowed; expected a non-empty string, its "
            f'registry name (e.g. name = "my-{kind}")'
        )
    abstract = sorted(getattr(cls, "__abstractmethods__", ()))
    if abstract:
        return (
            f"it does not define {', '.join(abstract)}; expected every abstract "
            f"method of {_CONTRACTS[kind]} to be implemented"
        )
    checks = {"game": _game_problem, "bot": _bot_problem}.get(kind)
    return None if checks is None else checks(cls)


def _bot_problem(cls: type[Bot]) -> str | None:
    games: object = cls.games
    if isinstance(games, str):
        return (
            f"games = {games!r} is a string, which would be read letter by letter; "
            f"expected None (any game) or a frozenset of game names: "
            f"games = frozenset({{{games!r}}})"
        )
    if games is not None and not _names(games):
        return (
            f"games = {_short(games)} is not allowed; expected None (any "
            'game) or a frozenset of game names, e.g. frozenset({"klaverjassen"})'
        )
    return _options_problem(cls.option_specs)


def _game_problem(cls: type[Game]) -> str | None:
    from harness.contracts.view import View

    title: object = getattr(cls, "title", None)
    if not isinstance(title, str) or not title:
        return (
            f"title = {title!r} is not allowed; expected a non-empty string, e.g. "
            'title = "Klaverjassen (4 players, fixed partnerships)"'
        )
    counts: object = getattr(cls, "seat_counts", None)
    if not (
        isinstance(counts, frozenset | set)
        and counts
        and all(type(n) is int and n >= 1 for n in counts)
    ):
        example = f"{{{counts}}}" if type(counts) is int else "{2, 3}"
        return (
            f"seat_counts = {_short(counts)} is not allowed; expected a "
            f"frozenset of seat counts (integers >= 1): seat_counts = "
            f"frozenset({example})"
        )
    for flag in ("partnerships", "points_higher_is_better", "ranks_follow_scores"):
        value: object = getattr(cls, flag)
        if not isinstance(value, bool):
            return f"{flag} = {value!r} is not allowed; expected True or False"
    cap: object = cls.max_actions
    if type(cap) is not int or cap < 1:
        return f"max_actions = {cap!r} is not allowed; expected an integer >= 1"
    check: object = cls.check_options
    if not isinstance(check, Mapping) or not all(isinstance(k, str) for k in check):
        return (
            f"check_options = {_short(check)} is not allowed; expected a "
            'dict of option names to values, e.g. {"target": 100}'
        )
    view: object = cls.view_class
    if view is not None and not (isinstance(view, type) and issubclass(view, View)):
        return (
            f"view_class = {view!r} is not allowed; expected None or a subclass "
            "of harness.View"
        )
    sampler: object = cls.sampler_class
    if sampler is not None and not isinstance(sampler, type):
        return f"sampler_class = {sampler!r} is not allowed; expected None or a class"
    if (
        cls.sample_state is Game.sample_state
        and cls.sampler is Game.sampler
        and sampler is None
    ):
        return (
            "it implements neither sample_state nor sampler; expected one of them, "
            "or sampler_class (with view_class) naming a harness.Sampler subclass"
        )
    return _options_problem(cls.option_specs)


def _names(value: object) -> bool:
    """True if ``value`` is a set of non-empty strings."""
    return isinstance(value, frozenset | set) and all(
        isinstance(v, str) and v for v in value
    )


def _options_problem(specs: object) -> str | None:
    from harness.contracts.options import Option

    if isinstance(specs, tuple | list) and all(isinstance(o, Option) for o in specs):
        return None
    example = "(Option(...),)" if isinstance(specs, Option) else "(Option(...), ...)"
    return (
        f"option_specs = {_short(specs)} is not allowed; expected a tuple of "
        f"harness.Option, e.g. option_specs = {example}"
    )


def _hook_place(impl: pluggy.HookImpl) -> str:
    """``file:line`` of a hook implementation, else the plugin's name."""
    code = getattr(impl.function, "__code__", None)
    if code is None:
        return f"plugin {impl.plugin_name!r}"
    return f"{code.co_filename}:{code.co_firstlineno}"


def _class_place(cls: type) -> str:
    """``file:line`` where ``cls`` is defined, as near as can be told."""
    try:
        path = inspect.getsourcefile(cls)
        line = inspect.getsourcelines(cls)[1]
    except (OSError, TypeError):  # built in C, or defined in exec'd text
        module = sys.modules.get(cls.__module__)
        return str(getattr(module, "__file__", None) or cls.__module__)
    return f"{path}:{line}"
