"""Tournament configs: a TOML file validated into a frozen :class:`TournamentConfig`.

Every error names the file, the line where the key stands, the key, what is
wrong and what would be accepted; an unknown key is an error listing the close
names, so a typo never passes silently. Paths are relative to the config file.
This module holds the config's type and reads its top-level keys; reading a
key and wording its error is :mod:`harness.tournament.config_reader`'s, the
entrants are :mod:`harness.tournament.entrants`', the settings of a gauntlet,
an SPRT and a ladder :mod:`harness.tournament.format_settings`' and where the
matches run :mod:`harness.tournament.executor_config`'s.

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
from harness.contracts.options import OptionRenamedWarning
from harness.contracts.teams import team_count, team_layout
from harness.isolation.sandbox import unavailable as sandbox_unavailable
from harness.match.referee import TimeControl
from harness.plugins import PluginSource, Registry
from harness.tournament.botuser import ENV_USER
from harness.tournament.entrants import Entrant, EntrantReader
from harness.tournament.executor_config import EXECUTORS, ExecutorReader
from harness.tournament.executor_plugins import load_registry
from harness.tournament.format_settings import (
    FormatReader,
    LadderSettings,
    SprtSettings,
)

__all__ = [
    "FORMATS",
    "TournamentConfig",
    "config_from_data",
    "load_config",
]

#: The tournament formats and what each needs.
FORMATS = ("round-robin", "gauntlet", "sprt", "ladder")
#: What a run does with an entrant whose bot fails the start-up probe: record
#: its matches as its forfeits and play the others (the default), or refuse
#: the whole run (:mod:`harness.tournament.probe`).
PROBE_POLICIES = ("forfeit", "refuse")
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
        "the database is created, and kept in it); with a process-isolated "
        "entrant, bot seeds also follow from a secret kept in the database "
        "(troef run --secret-from OLD.sqlite replays one exactly)"
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
    "probe": (
        'what a process bot that fails the start-up probe does: "forfeit" its '
        'matches while the others play (default), or "refuse" the whole run'
    ),
    "user": (
        "the user every bot in its own process runs as, unless its entrant names "
        "one (a root harness; default in the sandbox: a uid of its own per "
        'process; without: $TROEF_BOT_USER, else "nobody")'
    ),
    "sandbox": (
        'the sandbox of every bot in its own process: "bwrap" (the default where '
        'bubblewrap runs) or "none"'
    ),
}


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
    #: An entrant failing the start-up probe: "forfeit" its matches or
    #: "refuse" the run (:data:`PROBE_POLICIES`). Not in the snapshot: with
    #: bots that start, both play the same matches.
    probe: str = "forfeit"
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
    return config_from_data(
        data, path=path, text=text, registry=registry, plugins=plugins, blocked=blocked
    )


def config_from_data(
    data: Mapping[str, Any],
    *,
    path: Path,
    text: str = "",
    registry: Registry | None = None,
    plugins: Sequence[str] = (),
    blocked: Sequence[str] = (),
) -> TournamentConfig:
    """Validate a config already read into ``data`` (a dict as TOML gives it).

    :func:`load_config` reads a file into this; ``harness.api.run_tournament``
    gives a dict. Errors name ``path`` (with lines found in ``text``, if any),
    and relative paths in the config are taken from ``path``'s folder.
    The other parameters are :func:`load_config`'s.
    :raises ConfigError: with file, line, key, problem and what is accepted.
    """
    validator = _Validator(path, text, dict(data), registry)
    validator.extra_plugins = tuple(
        str(Path(p).resolve()) if p.endswith(".py") or os.sep in p else p
        for p in plugins
    )
    validator.blocked = tuple(blocked)
    return validator.config()


class _Validator(EntrantReader, FormatReader, ExecutorReader):
    """A whole config: its top-level keys, its entrants, its format, its executor."""

    def __init__(
        self, path: Path, text: str, data: dict[str, Any], registry: Registry | None
    ) -> None:
        super().__init__(path, text, data)
        self.registry = registry
        self.extra_plugins: tuple[str, ...] = ()

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
        if "sandbox" in d:
            self.sandbox_value("", d["sandbox"])
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
        probe = self.get("probe", str, "forfeit", f"one of {', '.join(PROBE_POLICIES)}")
        if probe not in PROBE_POLICIES:
            raise self.error(
                "",
                "probe",
                f"{probe!r} is not allowed; expected one of "
                + ", ".join(repr(p) for p in PROBE_POLICIES),
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
            probe=probe,
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
        fallen = self.sandbox_fallbacks(entrants)
        if fallen:
            warnings.append(
                f"{self.path}: bots are not sandboxed: {sandbox_unavailable()}. "
                f"{', '.join(fallen)} run with the process boundary alone "
                "(own process, scrubbed environment, rlimits; under root as "
                f"${ENV_USER} or nobody), which does not hide the file system, "
                "/proc or the network from them (docs/THREAT_MODEL.md); "
                'sandbox = "none" in the config says it is meant'
            )
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
