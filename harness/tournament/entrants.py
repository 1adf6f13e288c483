"""Entrants: who plays, each built from its ``[entrants.LABEL]`` table.

:class:`Entrant` is one participant (a bot, its options, how it runs, its
clock). :class:`EntrantReader` validates an entrant's table and applies the
isolation rule: code the config brings (plugin files, programs) runs in its own
process, under root as the entrant's or the config's user. :func:`make_entrant`
is that same factory for entrants added after loading (the ladder), and
:func:`resolve_command` the one path rule of every bot program.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import (
    ConfigError,
    OptionError,
    TroefError,
    UnknownNameError,
)
from harness.contracts.options import resolve_options
from harness.isolation.botprocess import ProcessSettings
from harness.isolation.sandbox import SANDBOXES
from harness.isolation.sandbox import unavailable as sandbox_unavailable
from harness.match.referee import MAX_SECONDS, TimeControl
from harness.plugins import Registry
from harness.tournament.botuser import ENV_USER, default_user
from harness.tournament.config_reader import ConfigReader, _user_exists
from harness.tournament.executor_plugins import load_registry

if TYPE_CHECKING:
    from harness.tournament.config import TournamentConfig

__all__ = ["Entrant", "EntrantReader", "make_entrant", "resolve_command"]

_SECONDS = f"seconds > 0, at most {MAX_SECONDS:g}"


_ENTRANT_KEYS = {
    "bot": "registry name of a bot",
    "options": "a table of the bot's options",
    "isolation": (
        '"in-process" (trusted, fastest) '
        'or "process" (its own process, sees only views)'
    ),
    "command": "a bot program speaking the protocol, as a list of arguments",
    "plugin": "a plugin file (.py) with this entrant's bot (runs in its own process)",
    "prefix": "a command put in front of the bot's (e.g. a sandbox program)",
    "sandbox": (
        '"bwrap" (the default where bubblewrap runs: its own namespaces, no '
        'network, only its own files) or "none"'
    ),
    "memory_mb": "address-space limit of the bot process in MiB",
    "reuse": (
        '"fresh-deals" (default: a bot process never sees one deal twice) or '
        '"free" (any reuse; for trusted bots)'
    ),
    "user": (
        "run the bot process as this user (a root harness runs it as a uid of "
        'its own in the sandbox, as "nobody" without; "root" runs it as root)'
    ),
    "pipeline": (
        "true (default: a bot process that declares room for several matches "
        "serves several at once, requests pipelined) or false (one match per "
        "process, one request at a time: for tight time controls)"
    ),
    "startup_timeout": "seconds a bot process may take to start",
    "hang_timeout": "seconds after which a decision without a time control is a hang",
    "time_control": "the entrant's own [time_control] (move, match, increment)",
}


@dataclass(frozen=True)
class Entrant:
    """A tournament participant: a label, a bot and its options."""

    label: str
    #: Registry name of the bot; "" for a program named by ``command`` only.
    bot: str
    #: The bot's options as sorted (key, value) pairs.
    options: tuple[tuple[str, Any], ...] = ()
    #: How the bot runs: None in-process, else in its own process.
    process: ProcessSettings | None = None
    #: Its time control (the tournament's unless the entrant sets its own).
    time_control: TimeControl | None = None
    #: Every option's default, as sorted (key, value) pairs: what a snapshot
    #: recorded before an option existed is taken to have played with it.
    defaults: tuple[tuple[str, Any], ...] = field(default=(), compare=False)

    @property
    def isolation(self) -> str:
        """``"process"`` or ``"in-process"``."""
        return "in-process" if self.process is None else "process"

    def options_dict(self) -> dict[str, Any]:
        """The options as a mapping."""
        return dict(self.options)


def make_entrant(
    config: TournamentConfig,
    label: str,
    spec: Mapping[str, Any],
    *,
    base: Path | None = None,
) -> Entrant:
    """An entrant for ``config`` from a table like ``[entrants.LABEL]``.

    The same validation and isolation rule as a config's own entrants (a bot
    from a plugin file, the config's or the entrant's ``plugin``, or a
    ``command``, runs in its own process): the ladder adds entrants with it.

    :param base: the folder relative paths are taken from (default: the
        config's folder).
    :raises ConfigError: naming the entrant and what is wrong.
    """
    data: dict[str, Any] = {}
    # The config's defaults for every entrant.
    for key in ("time_control", "user", "sandbox"):
        if config.raw.get(key) is not None:
            data[key] = config.raw[key]
    validator = EntrantReader(config.path, "", data)
    if base is not None:
        validator.base = base
    validator.blocked = config.blocked
    source = config.plugin_source
    validator.plugin_files = set(source.files)
    try:
        registry = load_registry(**asdict(source))
    except TroefError as exc:
        raise ConfigError(f"entrant {label!r}: {exc}") from None
    default_tc = validator.time_control("time_control", data.get("time_control"))
    return validator.entrant(label, dict(spec), registry, config.game, default_tc)


def resolve_command(words: Sequence[str], base: Path) -> tuple[str, ...]:
    """``words`` with each one that names an existing file or folder under
    ``base`` made absolute; every other word (``node``, ``-I``, ``--fast``) as
    it is.

    A bot process starts in an empty temporary folder, so a relative path
    would mean nothing there. The one rule for every bot program: a config's
    ``command`` and ``prefix`` (``base`` is the config's folder), ``troef play
    --bots "cmd:..."`` and ``troef ladder add --command`` (``base`` is the
    working directory, where the user stands).
    """
    # abspath, not resolve: a venv's python is a symlink that must stay one.
    return tuple(
        os.path.abspath(base / word) if (base / word).exists() else word
        for word in words
    )


class EntrantReader(ConfigReader):
    """The ``[entrants]`` tables of a config, each made an :class:`Entrant`."""

    def entrants(
        self, registry: Registry, game: str, *, allow_few: bool = False
    ) -> tuple[Entrant, ...]:
        table = self.data.get("entrants", {} if allow_few else None)
        if not isinstance(table, dict) or (not table and not allow_few):
            raise self.error(
                "",
                "entrants",
                "no entrants; expected one table per entrant, "
                'e.g. [entrants.alice] bot = "random"',
            )
        default_tc = self.time_control("time_control", self.data.get("time_control"))
        result = [
            self.entrant(label, spec, registry, game, default_tc)
            for label, spec in table.items()
        ]
        if len(result) < 2 and not allow_few:
            raise self.error(
                "",
                "entrants",
                f"a tournament needs at least 2 entrants, not {len(result)}",
            )
        return tuple(result)

    def entrant(
        self,
        label: str,
        spec: Any,
        registry: Registry,
        game: str,
        default_tc: TimeControl | None,
    ) -> Entrant:
        """One entrant from its table: the one factory of configs and ladders."""
        where = f"entrants.{label}"
        if not isinstance(spec, dict):
            raise self.error(
                "entrants", label, 'expected a table, e.g. { bot = "random" }'
            )
        self.check_keys(where, spec, _ENTRANT_KEYS)
        command = self.command(where, spec, "command")
        plugin = self.entrant_plugin(where, spec)
        if plugin is not None and plugin not in registry.source.files:
            # The entrant's own file: its bots join the names it may choose from.
            source = registry.source
            try:
                registry = load_registry(
                    entry_points=source.entry_points,
                    modules=source.modules,
                    files=[*source.files, plugin],
                    blocked=source.blocked,
                )
            except TroefError as exc:
                raise self.error(where, "plugin", str(exc)) from None
        bot = spec.get("bot", "" if command else None)
        if not isinstance(bot, str):
            raise self.error(
                where,
                "bot",
                "missing or not a string; expected a bot name, known: "
                f"{', '.join(sorted(registry.bots))}, or a command",
            )
        options = spec.get("options", {})
        if not isinstance(options, dict):
            raise self.error(where, "options", "expected a table of bot options")
        defaults: tuple[tuple[str, Any], ...] = ()
        if bot:
            try:
                cls = registry.bot_class(bot, game)
            except UnknownNameError as exc:
                raise self.error(where, "bot", str(exc)) from None
            try:
                options = dict(
                    resolve_options(cls.option_specs, options, f"bot {bot!r}")
                )
            except OptionError as exc:
                raise self.error(where, "options", str(exc)) from None
            defaults = tuple(sorted((o.name, o.default) for o in cls.option_specs))
        process = self.process_settings(where, spec, registry, bot, command, plugin)
        own_tc = self.time_control(f"{where}.time_control", spec.get("time_control"))
        return Entrant(
            label,
            bot,
            tuple(sorted(options.items())),
            process,
            own_tc if own_tc is not None else default_tc,
            defaults,
        )

    def entrant_plugin(self, where: str, spec: Mapping[str, Any]) -> str | None:
        """The entrant's own plugin file (``plugin``), made absolute."""
        raw = spec.get("plugin")
        if raw is None:
            return None
        if not isinstance(raw, str) or not raw.endswith(".py"):
            raise self.error(
                where, "plugin", f"{raw!r} is not allowed; expected a .py file path"
            )
        path = (self.base / raw).resolve()
        if not path.is_file():
            raise self.error(where, "plugin", f"no file {path}")
        return str(path)

    def command(self, where: str, spec: Mapping[str, Any], key: str) -> tuple[str, ...]:
        raw = spec.get(key, [])
        if isinstance(raw, str):
            raw = [raw]
        if not isinstance(raw, list) or not all(isinstance(a, str) for a in raw):
            raise self.error(
                where,
                key,
                f"{raw!r} is not allowed; expected a list of strings, "
                'e.g. ["node", "bot.js"]',
            )
        return resolve_command(raw, self.base)

    def process_settings(
        self,
        where: str,
        spec: Mapping[str, Any],
        registry: Registry,
        bot: str,
        command: tuple[str, ...],
        plugin: str | None = None,
    ) -> ProcessSettings | None:
        isolation = spec.get("isolation")
        if isolation is None:
            # Ruling: code the config brings (plugin files, programs) is untrusted and
            # runs in its own process; the bots installed with troef run in-process.
            provider = registry.provider.get(("bot", bot), "")
            isolation = (
                "process"
                if command or plugin or provider in self.plugin_files
                else "in-process"
            )
        if isolation not in ("in-process", "process"):
            raise self.error(
                where,
                "isolation",
                f'{isolation!r} is not allowed; expected "in-process" or "process"',
            )
        process_keys = (
            "command",
            "prefix",
            "reuse",
            "memory_mb",
            "user",
            "startup_timeout",
            "hang_timeout",
            "pipeline",
            "sandbox",
        )
        if isolation == "in-process":
            used = [k for k in (*process_keys, "plugin") if k in spec]
            if used:
                raise self.error(
                    where,
                    used[0],
                    'only a bot with isolation = "process" takes this key',
                )
            return None
        memory = spec.get("memory_mb")
        if memory is not None and (
            isinstance(memory, bool) or not isinstance(memory, int) or memory < 16
        ):
            raise self.error(
                where,
                "memory_mb",
                f"{memory!r} is not allowed; expected an integer >= 16",
            )
        sandbox = self.sandbox(where, spec)
        # Ruling (docs/THREAT_MODEL.md): under root an untrusted bot runs as
        # the entrant's user, else the config's; in the sandbox, else as a uid
        # of its own per process; without it, else $TROEF_BOT_USER, else nobody.
        user: str | None
        if "user" in spec:
            user = self.user_name(where, spec["user"])
        elif "user" in self.data:
            user = self.user_name("", self.data["user"])
        elif sandbox == "bwrap":
            user = None
        else:
            user = default_user()
            if user is not None and not _user_exists(user):
                origin = f"${ENV_USER}" if os.environ.get(ENV_USER) else "the default"
                raise ConfigError(
                    f"{self.path}: {where}: troef runs as root, so this bot runs as "
                    f"user {user!r} ({origin}), but there is no such user on this "
                    f'machine; expected user = "NAME" naming an existing user, or '
                    f"{ENV_USER}=NAME"
                )
        reuse = spec.get("reuse", "fresh-deals")
        if reuse not in ("fresh-deals", "free"):
            raise self.error(
                where,
                "reuse",
                f'{reuse!r} is not allowed; expected "fresh-deals" or "free"',
            )
        pipeline = spec.get("pipeline", True)
        if not isinstance(pipeline, bool):
            raise self.error(
                where,
                "pipeline",
                f"{pipeline!r} is not allowed; expected true (several matches on "
                "one bot process, requests pipelined) or false (one request at a "
                "time)",
            )
        return ProcessSettings(
            sandbox=sandbox,
            pipeline=pipeline,
            reuse=reuse,
            command=command,
            plugins=() if plugin is None else (plugin,),
            prefix=self.command(where, spec, "prefix"),
            memory_mb=memory,
            user=user,
            startup_timeout=self.number(
                where, spec, "startup_timeout", 30.0, 0.001, MAX_SECONDS, _SECONDS
            ),
            hang_timeout=self.number(
                where, spec, "hang_timeout", 60.0, 0.001, MAX_SECONDS, _SECONDS
            ),
        )

    def sandbox(self, where: str, spec: Mapping[str, Any]) -> str:
        """The sandbox of a process bot: its ``sandbox``, else the config's,
        else ``"bwrap"`` where bwrap runs (``"none"`` for an entrant with a
        ``prefix``: that is its sandbox).

        :raises ConfigError: a value not in :data:`SANDBOXES`, or ``"bwrap"``
            asked for on a machine where it cannot run (the reason named).
        """
        if "sandbox" in spec:
            table, raw = where, spec["sandbox"]
        elif "sandbox" in self.data:
            table, raw = "", self.data["sandbox"]
        else:
            if spec.get("prefix") or sandbox_unavailable() is not None:
                return "none"
            return "bwrap"
        return self.sandbox_value(table, raw)

    def sandbox_value(self, table: str, raw: Any) -> str:
        """A ``sandbox`` key's value, checked (at the top level or in ``table``)."""
        if raw not in SANDBOXES:
            raise self.error(
                table,
                "sandbox",
                f"{raw!r} is not allowed; expected "
                + " or ".join(f'"{name}"' for name in SANDBOXES),
            )
        why = sandbox_unavailable() if raw == "bwrap" else None
        if why is not None:
            raise self.error(
                table,
                "sandbox",
                f'"bwrap" cannot run on this machine: {why}; expected '
                'sandbox = "none" (the process boundary alone) or bwrap working',
            )
        return str(raw)

    def sandbox_fallbacks(self, entrants: Sequence[Entrant]) -> list[str]:
        """The process bots left unsandboxed because bwrap cannot run here
        (none chose ``sandbox`` or a ``prefix``)."""
        if sandbox_unavailable() is None or "sandbox" in self.data:
            return []
        table = self.data.get("entrants", {})
        fallen = []
        for entrant in entrants:
            spec = table.get(entrant.label, {}) if isinstance(table, dict) else {}
            chose = isinstance(spec, dict) and ("sandbox" in spec or "prefix" in spec)
            if entrant.process is not None and not chose:
                fallen.append(entrant.label)
        return fallen
