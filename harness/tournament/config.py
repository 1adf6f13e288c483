"""Tournament configs: a TOML file validated into a frozen :class:`TournamentConfig`.

Every error names the file, the line where the key stands, the key, what is
wrong and what would be accepted; an unknown key is an error listing the close
names, so a typo never passes silently. Paths are relative to the config file.

A config looks like this (``tournaments/`` holds runnable ones)::

    game = "klaverjassen"
    format = "round-robin"
    matches = 4            # match seeds per table composition
    seed = 1
    [options]              # the game's options
    target = 500
    [entrants.alice]
    bot = "random"
    [entrants.bob]
    bot = "random"
"""

from __future__ import annotations

import dataclasses
import json
import os
import pwd
import re
import tomllib
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.contracts.errors import (
    ConfigError,
    OptionError,
    TroefError,
    UnknownNameError,
    close_names,
)
from harness.contracts.game import Game
from harness.contracts.options import OptionRenamedWarning, resolve_options
from harness.contracts.teams import describe_teams, team_count, team_layout
from harness.isolation.botprocess import ProcessSettings
from harness.match.referee import MAX_SECONDS, TimeControl
from harness.plugins import PluginSource, Registry
from harness.tournament.botuser import ENV_USER, default_user
from harness.tournament.executor_plugins import executor_plugin, load_registry

#: Most worker processes a config may ask for (a run also uses no more than
#: it has jobs).
MAX_WORKERS = 256
_SECONDS = f"seconds > 0, at most {MAX_SECONDS:g}"

__all__ = [
    "FORMATS",
    "Entrant",
    "TournamentConfig",
    "check_executor",
    "config_error",
    "describe_executor",
    "load_config",
    "make_entrant",
    "resolve_command",
]

#: The tournament formats and what each needs.
FORMATS = ("round-robin", "gauntlet", "sprt", "ladder")
#: The built-in executors (plugins may register more: ``troef_executors``).
EXECUTORS = ("process", "inline", "dask")
#: How ``troef report`` rates (harness.stats.ratings.MODELS; not imported: numpy).
RATING_MODELS = ("pairwise", "plackett-luce")

_TOP_KEYS = {
    "name": "a label for the tournament (default: the file's name)",
    "game": "registry name of the game (see 'troef games')",
    "options": "a table of the game's options",
    "seats": "number of seats at each table (default: the game's smallest)",
    "format": f"one of {', '.join(FORMATS)}",
    "matches": "match seeds per table composition (an integer >= 1)",
    "max_actions": (
        "most actions a match may take before the referee stops it as a draw "
        "(an integer from 1 to the game's own cap; default: the game's cap)"
    ),
    "seed": (
        "the master seed (an integer; default: a random 63-bit seed drawn when "
        "the database is created, and kept in it)"
    ),
    "duplicate": "play each seed once per seat rotation (true/false)",
    "database": "path of the results database (SQLite)",
    "keep_logs": "store every match's action log (true/false)",
    "plugins": "plugin files (.py) or module names to load",
    "workers": '"auto" or a number of worker processes',
    "executor": (
        f"an executor name ({', '.join(EXECUTORS)}, or a plugin's), or a table "
        "[executor] with its name and settings"
    ),
    "chunk": "jobs per chunk sent to a worker (an integer >= 1)",
    "candidates": "gauntlet: the entrants that play against the pool",
    "entrants": "one table per entrant: [entrants.LABEL]",
    "sprt": "the [sprt] table of an SPRT head-to-head (elo0, elo1, alpha, beta)",
    "time_control": (
        "the default [time_control] of every entrant (move, match, increment)"
    ),
    "in_flight": "matches a worker keeps in flight when bots run in processes (>= 1)",
    "ladder": "the [ladder] table of an Elo-rated ladder (k, initial, explore, ...)",
    "rating_model": (
        'how "troef report" rates: "pairwise" (default) or "plackett-luce"'
    ),
    "user": (
        "the user every bot in its own process runs as, unless its entrant names "
        'one (a root harness; default: $TROEF_BOT_USER, else "nobody")'
    ),
}
_SPRT_KEYS = {
    "elo0": "Elo difference of H0 (e.g. 0)",
    "elo1": "Elo difference of H1 (e.g. 10); elo1 > elo0",
    "alpha": "false positive rate, 0 < alpha < 0.5",
    "beta": "false negative rate, 0 < beta < 0.5",
    "candidate": "label of the entrant under test (default: the first entrant)",
    "elo_model": (
        'what elo0/elo1 mean: "normalized" (default, as fishtest/fastchess) '
        'or "logistic"'
    ),
}
_LADDER_KEYS = {
    "k": "K factor of the online Elo update (> 0)",
    "initial": "rating of a new entrant",
    "explore": "share of pairings drawn at random instead of by rating, 0..1",
    "sets": "duplicate sets each pairing plays per round (>= 1)",
}


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses and error rates of an SPRT head-to-head."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    #: The entrant under test; its opponent is the other entrant.
    candidate: str = ""
    #: "normalized" or "logistic": the Elo scale of elo0 and elo1.
    elo_model: str = "normalized"


@dataclass(frozen=True)
class LadderSettings:
    """How a ladder pairs entrants and updates their online Elo."""

    k: float = 16.0
    initial: float = 1500.0
    explore: float = 0.2
    sets: int = 1


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
    "memory_mb": "address-space limit of the bot process in MiB",
    "reuse": (
        '"fresh-deals" (default: a bot process never sees one deal twice) or '
        '"free" (any reuse; for trusted bots)'
    ),
    "user": (
        "run the bot process as this user (a root harness runs it as "
        '"nobody" by default; "root" runs it as root)'
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
_TIME_KEYS = {
    "move": "most seconds for any one decision",
    "match": "seconds for all of a bot's decisions in a match",
    "increment": "seconds added to the match budget after each decision",
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

    @property
    def isolation(self) -> str:
        """``"process"`` or ``"in-process"``."""
        return "in-process" if self.process is None else "process"

    def options_dict(self) -> dict[str, Any]:
        """The options as a mapping."""
        return dict(self.options)


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament config."""

    path: Path
    name: str
    game: str
    options: tuple[tuple[str, Any], ...]
    seats: int
    #: The team of each seat (``Game.teams(seats)``); not in the snapshot,
    #: which has the game, its options and the seats it follows from.
    teams: tuple[int, ...]
    format: str
    matches: int
    seed: int
    duplicate: bool
    database: Path
    keep_logs: bool
    plugins: tuple[str, ...]
    workers: int | None
    executor: str
    chunk: int | None
    entrants: tuple[Entrant, ...]
    #: Matches a worker interleaves when bots run in processes.
    in_flight: int = 4
    #: The settings of the ``[executor]`` table besides its name (sorted).
    executor_settings: tuple[tuple[str, Any], ...] = ()
    #: The default time control of every entrant (None: no limit).
    time_control: TimeControl | None = None
    #: A lower match cap than the game's ``max_actions`` (None: the game's).
    max_actions: int | None = None
    candidates: tuple[str, ...] = ()
    sprt: SprtSettings | None = None
    ladder: LadderSettings | None = None
    #: The report's rating model: "pairwise" or "plackett-luce".
    rating_model: str = "pairwise"
    #: False when the config gives no ``seed``: the store then draws a random
    #: master seed once and keeps it (``Store.master_seed``); ``seed`` is 0
    #: until :func:`harness.tournament.store.Store.resolve` sets it.
    seed_given: bool = True
    #: Plugin names not to load (``troef --block``); never part of the snapshot,
    #: since a run that succeeds with them blocked plays the same games and bots.
    blocked: tuple[str, ...] = ()
    #: What loading the plugins warned about (see ``Registry.warnings``).
    warnings: tuple[str, ...] = field(default=(), compare=False)
    #: The options as records keep them (``Game.recorded_options``), when
    #: that differs from :attr:`options`: an option renamed since databases
    #: were made keeps its old name in job ids and snapshots. None: the same.
    recorded_options: tuple[tuple[str, Any], ...] | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def plugin_source(self) -> PluginSource:
        """How a worker or bot host loads this tournament's plugins."""
        return PluginSource(
            modules=tuple(p for p in self.plugins if not p.endswith(".py")),
            files=tuple(p for p in self.plugins if p.endswith(".py")),
            blocked=self.blocked,
        )

    @property
    def untrusted(self) -> bool:
        """True when any entrant runs in its own process (code not trusted)."""
        return any(e.process is not None for e in self.entrants)

    @property
    def sides(self) -> int:
        """Teams at a table: the entrants of one table composition."""
        return team_count(self.teams)

    def record_options(self) -> dict[str, Any]:
        """The options by the names job ids and snapshots use."""
        if self.recorded_options is None:
            return dict(self.options)
        return dict(self.recorded_options)

    def snapshot(self) -> dict[str, Any]:
        """What decides the results: stored with them, compared on resume.

        Where and how the matches run (workers, executor, chunk, database path)
        is not part of it: changing those never changes a result. Settings of
        formats a config does not use are left out, so that a new optional
        setting never makes an existing database look like another config's.
        """
        snapshot = {
            "game": self.game,
            "options": self.record_options(),
            "seats": self.seats,
            "format": self.format,
            "matches": self.matches,
            "seed": self.seed if self.seed_given else None,
            "duplicate": self.duplicate,
            "keep_logs": self.keep_logs,
            "plugins": list(self.plugins),
            "entrants": {e.label: _entrant_snapshot(e) for e in self.entrants},
            "candidates": list(self.candidates),
        }
        if self.sprt is not None:
            snapshot["sprt"] = dataclasses.asdict(self.sprt)
        if self.ladder is not None:
            snapshot["ladder"] = dataclasses.asdict(self.ladder)
        if self.max_actions is not None:
            snapshot["max_actions"] = self.max_actions
        if self.rating_model != "pairwise":  # older databases stay equal
            snapshot["rating_model"] = self.rating_model
        return snapshot

    def snapshot_json(self) -> str:
        """:meth:`snapshot` as canonical JSON."""
        return json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))

    def entrant(self, label: str) -> Entrant:
        """The entrant with ``label``."""
        for e in self.entrants:
            if e.label == label:
                return e
        raise KeyError(label)


def _recorded(game: Game, seats: int) -> tuple[tuple[str, Any], ...] | None:
    """``Game.recorded_options`` for the config, None when it is the options."""
    recorded = game.recorded_options(seats)
    return None if recorded == dict(game.options) else tuple(sorted(recorded.items()))


def _entrant_snapshot(entrant: Entrant) -> dict[str, Any]:
    # What can change a result: the bot, its options, its program and its clock.
    # Isolation, sandbox prefix, limits and user are how it runs, not what it plays.
    data: dict[str, Any] = {"bot": entrant.bot, "options": dict(entrant.options)}
    if entrant.process is not None and entrant.process.command:
        data["command"] = list(entrant.process.command)
    if entrant.process is not None and entrant.process.plugins:
        data["plugin"] = list(entrant.process.plugins)
    if entrant.time_control is not None:
        data["time_control"] = dataclasses.asdict(entrant.time_control)
    return data


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
    for key in ("time_control", "user"):  # the config's defaults for every entrant
        if config.raw.get(key) is not None:
            data[key] = config.raw[key]
    validator = _Validator(config.path, "", data, None)
    if base is not None:
        validator.base = base
    validator.blocked = config.blocked
    files = [p for p in config.plugins if p.endswith(".py")]
    validator.plugin_files = set(files)
    try:
        registry = load_registry(
            files=files,
            modules=[p for p in config.plugins if not p.endswith(".py")],
            blocked=config.blocked,
        )
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


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def load_config(
    path: str | Path,
    *,
    registry: Registry | None = None,
    plugins: Sequence[str] = (),
    blocked: Sequence[str] = (),
) -> TournamentConfig:
    """Read and validate the tournament config at ``path``.

    :param registry: the plugins to check names against; by default the
        installed ones plus the plugins the config names.
    :param plugins: more plugin files or modules (``troef --plugin``), after the
        config's own; files are relative to the working directory.
    :param blocked: plugin names not to load (``troef --block``).
    :raises ConfigError: with file, line, key, problem and what is accepted.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config: {exc.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    validator = _Validator(path, text, data, registry)
    validator.extra_plugins = tuple(
        str(Path(p).resolve()) if p.endswith(".py") or os.sep in p else p
        for p in plugins
    )
    validator.blocked = tuple(blocked)
    return validator.config()


def config_error(
    config: TournamentConfig, table: str, key: str | None, message: str
) -> ConfigError:
    """An error found after loading, as loading words it: ``file:line: key: ...``
    (the line looked up again in the config's file; none if it is gone)."""
    try:
        text = config.path.read_text(encoding="utf-8")
    except OSError:
        text = ""
    return _Validator(config.path, text, dict(config.raw), None).error(
        table, key, message
    )


class _Validator:
    def __init__(
        self, path: Path, text: str, data: dict[str, Any], registry: Registry | None
    ) -> None:
        self.path = path
        self.base = path.parent
        self.lines = text.splitlines()
        self.data = data
        self.registry = registry
        self.extra_plugins: tuple[str, ...] = ()
        self.blocked: tuple[str, ...] = ()

    # -- error reporting --------------------------------------------------

    def line_of(self, table: str, key: str | None = None) -> int | None:
        """The line of ``key`` in ``[table]`` ('' = top level), or of the table."""
        current = ""
        header = re.compile(r"^\s*\[+\s*([^\]]+?)\s*\]+")
        table_line = None
        for number, line in enumerate(self.lines, 1):
            m = header.match(line)
            if m:
                current = m.group(1).replace('"', "").replace(" ", "")
                if current == table:
                    table_line = number
                continue
            if current == table and key is not None:
                if re.match(rf'^\s*"?{re.escape(key)}"?\s*=', line):
                    return number
        if key is not None and table:
            # Dotted or inline forms: entrants.alice.bot = ..., alice = { bot = ... }
            parts = table.split(".")
            for number, line in enumerate(self.lines, 1):
                if parts[-1] in line and re.search(rf"\b{re.escape(key)}\b\s*=", line):
                    return number
        return table_line

    def error(self, table: str, key: str | None, message: str) -> ConfigError:
        line = self.line_of(table, key)
        where = f"{self.path}:{line}" if line else str(self.path)
        name = ".".join(p for p in (table, key) if p)
        return ConfigError(
            f"{where}: {name}: {message}" if name else f"{where}: {message}"
        )

    def check_keys(
        self, table: str, data: Mapping[str, Any], known: Mapping[str, str]
    ) -> None:
        for key in data:
            if key not in known:
                raise self.error(table, key, f"unknown key; {close_names(key, known)}")

    def get(
        self, key: str, kind: type | tuple[type, ...], default: Any, accepted: str
    ) -> Any:
        if key not in self.data:
            return default
        value = self.data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.error("", key, f"{value!r} is not allowed; expected {accepted}")
        return value

    # -- the config -------------------------------------------------------

    def config(self) -> TournamentConfig:
        d = self.data
        self.check_keys("", d, _TOP_KEYS)
        if "game" not in d:
            raise self.error(
                "", None, 'missing key "game"; expected e.g. game = "klaverjassen"'
            )
        plugins = tuple(
            self.get("plugins", list, [], "a list of plugin files or modules")
        )
        plugin_paths = tuple(
            dict.fromkeys(
                (*(self.resolve_plugin(p) for p in plugins), *self.extra_plugins)
            )
        )
        self.plugin_files = set(plugin_paths)
        registry = self.registry or self.load_registry(plugin_paths)

        game_name = self.get("game", str, None, "a game name (see 'troef games')")
        try:
            game_cls = registry.game_class(game_name)
        except UnknownNameError as exc:
            raise self.error("", "game", str(exc)) from None
        options = self.get("options", dict, {}, "a table of game options")
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", OptionRenamedWarning)
                game = game_cls(**options)
        except OptionError as exc:
            bad = re.search(r"option '([^']+)'", str(exc))
            raise self.error(
                "options", bad.group(1) if bad else None, str(exc)
            ) from None

        renamed = []
        for caught_warning in caught:
            if issubclass(caught_warning.category, OptionRenamedWarning):
                # The note names the file and line of the old spelling.
                old = re.search(r"option '([^']+)'", str(caught_warning.message))
                renamed.append(
                    str(
                        self.error(
                            "options",
                            old.group(1) if old else None,
                            str(caught_warning.message),
                        )
                    )
                )
            else:
                # Not ours to turn into a note: shown as it would have been.
                warnings.warn_explicit(
                    caught_warning.message,
                    caught_warning.category,
                    caught_warning.filename,
                    caught_warning.lineno,
                )

        default_seats = min(game_cls.seat_counts)
        seats = self.get("seats", int, default_seats, "an integer number of seats")
        try:
            game.check_seats(seats)
            teams = team_layout(game, seats)
        except TroefError as exc:
            raise self.error("", "seats", str(exc)) from None

        fmt = self.get("format", str, "round-robin", f"one of {', '.join(FORMATS)}")
        if fmt not in FORMATS:
            raise self.error(
                "", "format", f"unknown format {fmt!r}; {close_names(fmt, FORMATS)}"
            )
        matches = self.get("matches", int, 1, "an integer >= 1")
        if matches < 1:
            raise self.error(
                "", "matches", f"{matches} is not allowed; expected an integer >= 1"
            )
        seed = self.get("seed", int, None, "an integer")
        max_actions = self.get(
            "max_actions", int, None, f"an integer from 1 to {game.max_actions}"
        )
        if max_actions is not None and not 1 <= max_actions <= game.max_actions:
            # A run may lower the game's cap, never raise it (Game.with_max_actions).
            raise self.error(
                "",
                "max_actions",
                f"{max_actions} is not allowed; expected an integer from 1 to "
                f"{game.max_actions} (game {game_name!r} ends a match at "
                f"{game.max_actions} actions; a run may lower that, not raise it)",
            )
        duplicate = self.get("duplicate", bool, True, "true or false")
        if "user" in d:
            self.user_name("", d["user"])
        keep_logs = self.get("keep_logs", bool, True, "true or false")
        workers = self.workers()
        executor, executor_settings = self.executor(registry)
        if "workers" in executor_settings:
            if "workers" in d:
                raise self.error(
                    "executor",
                    "workers",
                    "workers is given twice (also at the top level); keep one",
                )
            workers = executor_settings["workers"]
        chunk = self.get("chunk", int, None, "an integer >= 1")
        if chunk is not None and chunk < 1:
            raise self.error(
                "", "chunk", f"{chunk} is not allowed; expected an integer >= 1"
            )
        database = self.get("database", str, f"{self.path.stem}.sqlite", "a file path")
        if "\0" in database or not database.strip():
            raise self.error(
                "", "database", f"{database!r} is not allowed; expected a file path"
            )

        rating_model = self.get(
            "rating_model", str, "pairwise", f"one of {', '.join(RATING_MODELS)}"
        )
        if rating_model not in RATING_MODELS:
            raise self.error(
                "",
                "rating_model",
                f"unknown rating model {rating_model!r}; "
                f"{close_names(rating_model, RATING_MODELS)}",
            )
        ladder = self.ladder_settings(fmt)
        entrants = self.entrants(registry, game_name, allow_few=ladder is not None)
        candidates = self.candidates(fmt, entrants)
        sprt = self.sprt_settings(fmt, entrants, teams)
        return TournamentConfig(
            path=self.path,
            name=self.get("name", str, self.path.stem, "a string"),
            game=game_name,
            options=tuple(sorted(game.options.items())),
            recorded_options=_recorded(game, seats),
            seats=seats,
            teams=teams,
            format=fmt,
            matches=matches,
            seed=0 if seed is None else seed,
            seed_given=seed is not None,
            duplicate=duplicate,
            database=(self.base / database),
            keep_logs=keep_logs,
            plugins=plugin_paths,
            workers=workers,
            executor=executor,
            executor_settings=tuple(sorted(executor_settings.items())),
            chunk=chunk,
            entrants=entrants,
            candidates=candidates,
            sprt=sprt,
            ladder=ladder,
            rating_model=rating_model,
            blocked=self.blocked,
            warnings=(
                *registry.warnings,
                *renamed,
                *self.untrusted_warnings(entrants, seed),
            ),
            in_flight=self.in_flight(),
            max_actions=max_actions,
            time_control=self.time_control(
                "time_control", self.data.get("time_control")
            ),
            raw=self.data,
        )

    def untrusted_warnings(
        self, entrants: Sequence[Entrant], seed: int | None
    ) -> list[str]:
        """What lets an untrusted (process-isolated) bot learn the deals."""
        if all(e.process is None for e in entrants):
            return []
        warnings = []
        if seed is not None:
            small = " is small and" if abs(seed) < 2**40 else ""
            warnings.append(
                f"{self.path}: seed = {seed}{small} is written in the config: an "
                "untrusted (process-isolated) bot that knows or guesses the master "
                "seed can compute every deal from the public recipe; leave 'seed' "
                "out for a random one kept in the database, or keep it secret"
            )
        try:
            mode = self.path.stat().st_mode
        except OSError:
            mode = 0
        if mode & 0o044:
            warnings.append(
                f"{self.path}: the config is readable by other users: a bot running "
                "as another user can read it (the seed, the entrants); "
                f"'chmod 600 {self.path}'"
            )
        return warnings

    def resolve_plugin(self, plugin: Any) -> str:
        if not isinstance(plugin, str):
            raise self.error(
                "", "plugins", f"{plugin!r} is not a file path or module name"
            )
        if plugin.endswith(".py") or os.sep in plugin:
            return str((self.base / plugin).resolve())
        return plugin

    def load_registry(self, plugins: tuple[str, ...]) -> Registry:
        files = [p for p in plugins if p.endswith(".py")]
        modules = [p for p in plugins if not p.endswith(".py")]
        try:
            return load_registry(files=files, modules=modules, blocked=self.blocked)
        except TroefError as exc:
            raise self.error("", "plugins", str(exc)) from exc

    def workers(self) -> int | None:
        value = self.data.get("workers", "auto")
        if value == "auto":
            return None
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and 1 <= value <= MAX_WORKERS
        ):
            return value
        raise self.error(
            "",
            "workers",
            f'{value!r} is not allowed; expected "auto" or an integer from 1 to '
            f"{MAX_WORKERS}",
        )

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
        process = self.process_settings(where, spec, registry, bot, command, plugin)
        own_tc = self.time_control(f"{where}.time_control", spec.get("time_control"))
        return Entrant(
            label,
            bot,
            tuple(sorted(options.items())),
            process,
            own_tc if own_tc is not None else default_tc,
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

    def candidates(self, fmt: str, entrants: tuple[Entrant, ...]) -> tuple[str, ...]:
        labels = [e.label for e in entrants]
        raw = self.data.get("candidates")
        if fmt != "gauntlet":
            if raw is not None:
                raise self.error(
                    "",
                    "candidates",
                    'only a gauntlet has candidates; set format = "gauntlet"',
                )
            return ()
        if (
            not isinstance(raw, list)
            or not raw
            or not all(isinstance(c, str) for c in raw)
        ):
            raise self.error(
                "", "candidates", "a gauntlet needs a list of candidate entrant labels"
            )
        for c in raw:
            if c not in labels:
                raise self.error(
                    "", "candidates", f"no entrant {c!r}; {close_names(c, labels)}"
                )
        if len(set(raw)) == len(labels):
            raise self.error(
                "", "candidates", "every entrant is a candidate; the pool is empty"
            )
        return tuple(dict.fromkeys(raw))

    def table(
        self, key: str, fmt: str, known: Mapping[str, str]
    ) -> dict[str, Any] | None:
        raw = self.data.get(key)
        if fmt != key:
            if raw is not None:
                raise self.error(key, None, f'a [{key}] table needs format = "{key}"')
            return None
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise self.error("", key, f"expected a table [{key}]")
        self.check_keys(key, raw, known)
        return raw

    def number(
        self,
        table: str,
        raw: Mapping[str, Any],
        key: str,
        default: float | None,
        low: float,
        high: float,
        accepted: str,
    ) -> float:
        if key not in raw:
            if default is None:
                raise self.error(
                    table, None, f"missing key {key!r}; expected {accepted}"
                )
            return default
        value = raw[key]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            raise self.error(
                table, key, f"{value!r} is not allowed; expected {accepted}"
            )
        return float(value)

    def sprt_settings(
        self, fmt: str, entrants: tuple[Entrant, ...], teams: tuple[int, ...]
    ) -> SprtSettings | None:
        raw = self.table("sprt", fmt, _SPRT_KEYS)
        if raw is None:
            return None
        inf = float("inf")
        elo0 = self.number(
            "sprt", raw, "elo0", None, -inf, inf, "a number, e.g. elo0 = 0"
        )
        elo1 = self.number(
            "sprt", raw, "elo1", None, -inf, inf, "a number above elo0, e.g. elo1 = 10"
        )
        if elo1 <= elo0:
            raise self.error(
                "sprt", "elo1", f"elo1 = {elo1:g} must be above elo0 = {elo0:g}"
            )
        alpha = self.number(
            "sprt", raw, "alpha", 0.05, 1e-6, 0.4999, "a number in (0, 0.5)"
        )
        beta = self.number(
            "sprt", raw, "beta", 0.05, 1e-6, 0.4999, "a number in (0, 0.5)"
        )
        if len(entrants) != 2:
            raise self.error(
                "",
                "entrants",
                f"an SPRT is a head-to-head of exactly 2 entrants, not {len(entrants)}",
            )
        if team_count(teams) != 2:
            raise self.error(
                "",
                "seats",
                f"an SPRT needs a table of two teams; {len(teams)} seats of this game "
                f"make {team_count(teams)} ({describe_teams(teams)})",
            )
        labels = [e.label for e in entrants]
        candidate = raw.get("candidate", labels[0])
        if candidate not in labels:
            raise self.error(
                "sprt",
                "candidate",
                f"no entrant {candidate!r}; {close_names(str(candidate), labels)}",
            )
        elo_model = raw.get("elo_model", "normalized")
        if elo_model not in ("normalized", "logistic"):
            raise self.error(
                "sprt",
                "elo_model",
                f'{elo_model!r} is not allowed; expected "normalized" or "logistic"',
            )
        return SprtSettings(elo0, elo1, alpha, beta, candidate, elo_model)

    def ladder_settings(self, fmt: str) -> LadderSettings | None:
        raw = self.table("ladder", fmt, _LADDER_KEYS)
        if raw is None:
            return None
        inf = float("inf")
        sets = raw.get("sets", 1)
        if isinstance(sets, bool) or not isinstance(sets, int) or sets < 1:
            raise self.error(
                "ladder", "sets", f"{sets!r} is not allowed; expected an integer >= 1"
            )
        return LadderSettings(
            k=self.number("ladder", raw, "k", 16.0, 1e-9, inf, "a number > 0"),
            initial=self.number(
                "ladder", raw, "initial", 1500.0, -inf, inf, "a number"
            ),
            explore=self.number(
                "ladder", raw, "explore", 0.2, 0.0, 1.0, "a number from 0 to 1"
            ),
            sets=sets,
        )

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
        # Ruling (docs/THREAT_MODEL.md): under root an untrusted bot runs as
        # the entrant's user, else the config's, else $TROEF_BOT_USER, else nobody.
        user: str | None
        if "user" in spec:
            user = self.user_name(where, spec["user"])
        elif "user" in self.data:
            user = self.user_name("", self.data["user"])
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

    def user_name(self, where: str, raw: Any) -> str:
        """A ``user`` key: the name of a user of this machine."""
        if not isinstance(raw, str) or not raw:
            raise self.error(
                where, "user", f"{raw!r} is not allowed; expected a user name"
            )
        if not _user_exists(raw):
            raise self.error(
                where,
                "user",
                f"there is no user {raw!r} on this machine; expected a user name "
                'from /etc/passwd (e.g. "nobody"), or "root"',
            )
        return raw

    def time_control(self, where: str, raw: Any) -> TimeControl | None:
        if raw is None:
            return None
        if not isinstance(raw, dict):
            raise self.error(
                "",
                where,
                "expected a table with move, match and/or increment (seconds)",
            )
        self.check_keys(where, raw, _TIME_KEYS)
        try:
            return TimeControl(**raw)
        except (OptionError, TypeError) as exc:
            key = next((k for k in raw if f"{k!r}" in str(exc)), None)
            raise self.error(where, key, str(exc)) from None

    def executor(self, registry: Registry) -> tuple[str, dict[str, Any]]:
        """The executor's name and settings: ``executor = "NAME"`` or a table
        ``[executor]`` with ``name`` and the executor's own keys."""
        value = self.data.get("executor", "process")
        accepted = (
            "an executor name or a table with its name and settings; executors: "
            + ", ".join(sorted(registry.executors))
        )
        settings: dict[str, Any] = {}
        if isinstance(value, str):
            name = value
        elif isinstance(value, dict):
            settings = dict(value)
            name = settings.pop("name", None)
            if not isinstance(name, str):
                raise self.error(
                    "executor",
                    "name" if "name" in value else None,
                    f'missing or bad "name"; expected {accepted}',
                )
        else:
            raise self.error(
                "", "executor", f"{value!r} is not allowed; expected {accepted}"
            )
        table = "executor" if isinstance(value, dict) else ""
        key = "name" if table else "executor"
        try:
            cls = registry.executor_class(name)
        except UnknownNameError as exc:
            raise self.error(table, key, str(exc)) from None
        known = {k: what for k, (_, what) in cls.settings.items()}
        self.check_keys("executor", settings, {"name": "the executor", **known})
        for setting, item in settings.items():
            kind, what = cls.settings[setting]
            if not isinstance(item, kind) or (
                isinstance(item, int)
                and (isinstance(item, bool) or not 1 <= item <= MAX_WORKERS)
            ):
                raise self.error(
                    "executor", setting, f"{item!r} is not allowed; expected {what}"
                )
        problem = cls.check(settings)
        if problem is not None:
            raise self.error("executor", problem[0], problem[1])
        return name, settings

    def in_flight(self) -> int:
        value = self.data.get("in_flight", 4)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise self.error(
                "", "in_flight", f"{value!r} is not allowed; expected an integer >= 1"
            )
        return value


def check_executor(config: TournamentConfig) -> None:
    """Refuse ``config``'s executor if its packages are missing, naming the
    config's file, line and key and the install command (``validate``, and
    ``run`` before it makes a database or lock file).

    :raises ConfigError: the executor cannot start here.
    """
    problem = executor_plugin(config.executor, config.plugin_source).missing()
    if problem is not None:
        table = isinstance(config.raw.get("executor"), dict)
        raise config_error(
            config,
            "executor" if table else "",
            "name" if table else "executor",
            problem,
        )


def describe_executor(config: TournamentConfig) -> str:
    """The executor of ``config`` for ``troef validate``: its kind and where
    its workers are (unset workers: one per core of the machine that runs)."""
    settings = dict(config.executor_settings)
    workers = config.workers
    count = "one worker per core" if workers is None else f"{workers} workers"
    if config.executor == "dask":
        address = settings.get("address")
        if address is None:
            return f"dask, a local cluster on the loopback interface of {count}"
        if workers is None:
            return (
                f"dask, the cluster at {address} (chunks in play at once: one per "
                "core here; set workers to the cluster's worker processes)"
            )
        return f"dask, the cluster at {address} ({workers} chunks in play at once)"
    if config.executor == "process":
        return f"process, a local pool of {count}"
    if config.executor == "inline":
        return "inline, every match in this process"
    extra = "".join(f", {k} = {v!r}" for k, v in settings.items())
    return f"{config.executor} ({count}{extra})"
