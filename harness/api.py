"""The Python API for notebooks and scripts: a game, a match, a tournament in a line.

``docs/API.md`` shows it at work and runs as doctests. Every function here is
a short way into parts of the engine that exist already, and repeats none of
them: :func:`load_game` is the registry's ``game()`` (the game's own
:class:`~harness.contracts.options.Option` specs validate the keywords, with
the errors a config gets), :func:`play_match` is the referee's, and
:func:`run_tournament` is the scheduler's on a config validated as ``troef
run`` validates a file. :func:`results` and :func:`report_data` read a database as
``troef matches --format json`` and ``troef report --format json`` do, as
plain lists and dicts.

``from harness import load_game`` works: the package imports this module on
first use, so a plugin's ``from harness import Bot`` stays as light as it was.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

from harness.contracts.bot import Bot
from harness.contracts.errors import ConfigError, OptionError, close_names
from harness.contracts.game import Game, State
from harness.contracts.result import Result
from harness.match.referee import make_bot
from harness.match.referee import play_match as referee_play_match
from harness.plugins import Registry
from harness.report.model import report_model, stored_report
from harness.report.tables import match_record
from harness.tournament.config import config_from_data, load_config
from harness.tournament.executor_plugins import load_registry
from harness.tournament.scheduler import run_tournament as scheduler_run
from harness.tournament.store import Store

__all__ = [
    "BotSpec",
    "Table",
    "load_game",
    "play_match",
    "ratings",
    "report_data",
    "results",
    "run_tournament",
]

#: A seat's bot in :func:`play_match`: a registered name (``"random"``), a name
#: with options (``("search", {"samples": 8})``), or a Bot class of your own.
BotSpec: TypeAlias = "str | tuple[str, Mapping[str, Any]] | type[Bot]"

#: What errors call a config given as a dict (Python's ``<string>`` style).
DICT_CONFIG = Path("<config dict>")


@dataclass(frozen=True)
class Table:
    """A game with its options, for a table of :attr:`seats` (:func:`load_game`)."""

    #: The rules with the options chosen, as the referee gets them.
    game: Game
    #: How many seats a match of :meth:`new_match` has.
    seats: int
    #: The plugins it was loaded from: the bots :func:`play_match` may name.
    registry: Registry = field(repr=False, compare=False)

    @property
    def teams(self) -> tuple[int, ...]:
        """The team of each seat (``Game.teams``): ``(0, 1, 0, 1)`` for pairs."""
        return self.game.teams(self.seats)

    def new_match(self, seed: int = 0) -> State:
        """The referee's State of a new match dealt from ``seed``.

        Step it with ``state.apply(action)``; ``state.view(seat)`` is what a
        bot at ``seat`` would receive, ``state.result()`` the outcome.
        """
        return self.game.new_match(self.seats, seed)


def load_game(
    name: str,
    /,
    *,
    seats: int | None = None,
    plugins: Sequence[str | Path] = (),
    **options: Any,
) -> Table:
    """Game ``name`` with keyword ``options``, for a table of ``seats``.

    :param seats: default: the game's smallest seat count.
    :param plugins: plugin files (``.py``) or module names to load besides the
        installed ones, as a config's ``plugins``.
    :raises UnknownNameError: no game of that name (the close names said).
    :raises OptionError: an option the game does not have, or a value it does
        not allow (the option and the accepted values named).
    :raises SeatCountError: the game does not take ``seats``.
    """
    registry = _registry(plugins)
    game = registry.game(name, options)
    count = min(game.seat_counts) if seats is None else seats
    game.check_seats(count)
    return Table(game, count, registry)


def play_match(
    game: str | Table,
    bots: Sequence[BotSpec],
    *,
    seed: int = 0,
    keep_log: bool = True,
    plugins: Sequence[str | Path] = (),
    **options: Any,
) -> Result:
    """Play one match of ``bots``, seated in order, from ``seed``.

    :param game: a game's name (then ``options`` are its options and the
        table has one seat per bot), or a :class:`Table` from :func:`load_game`.
    :param bots: one :data:`BotSpec` per seat.
    :param keep_log: put the actions into ``Result.log``.
    :returns: the referee's Result (``result.to_dict()`` as plain data). A bot
        that raises or answers an illegal action forfeits, as in a tournament.
    """
    if isinstance(game, Table):
        if options or plugins:
            given = ", ".join([*options, *(["plugins"] if plugins else [])])
            raise OptionError(
                f"play_match: {given} given with a Table; a Table has its options "
                "and plugins already (give them to load_game)"
            )
        table = game
        if len(bots) != table.seats:
            raise OptionError(
                f"play_match: {len(bots)} bots for a Table of {table.seats} seats; "
                f"give one bot per seat, or load_game({table.game.name!r}, "
                f"seats={len(bots)})"
            )
    else:
        table = load_game(game, seats=len(bots), plugins=plugins, **options)
    built = [_bot(table, spec, seat, seed) for seat, spec in enumerate(bots)]
    return referee_play_match(table.game, built, seed, keep_log=keep_log)


def _bot(table: Table, spec: BotSpec, seat: int, seed: int) -> Bot:
    """The bot of ``seat`` that ``spec`` names, built as the referee builds one."""
    options: Mapping[str, Any] | None = None
    if isinstance(spec, tuple):
        spec, options = spec
    if isinstance(spec, str):
        cls = table.registry.bot_class(spec, table.game.name)
    elif isinstance(spec, type) and issubclass(spec, Bot):
        cls = spec
    else:
        raise OptionError(
            f"play_match: seat {seat}'s bot is {spec!r}; expected a bot's name, "
            "(name, options) or a Bot class"
        )
    return make_bot(table.game, cls, seat, seed, options)


def run_tournament(
    config: str | Path | Mapping[str, Any],
    *,
    database: str | Path | None = None,
    workers: int | None = None,
    fresh: bool = False,
    plugins: Sequence[str] = (),
) -> Path:
    """Play a tournament into its SQLite database and return the database's path.

    Run again, it resumes: only matches the database lacks are played.

    :param config: a TOML file's path, or the same keys as a dict (as
        ``tomllib`` would read the file). A dict's relative paths are taken
        from the working directory, and its errors name ``<config dict>``.
    :param database: the database file; overrides the config's ``database``
        (which a dict must give when this is None).
    :param workers: overrides the config's ``workers``.
    :param fresh: delete the database first and start afresh.
    :param plugins: more plugin files or modules (``troef --plugin``).
    :raises ConfigError: the config is wrong (file, key, value and what is accepted).
    """
    if isinstance(config, Mapping):
        data = dict(config)
        if database is not None:
            data["database"] = str(database)
        if "database" not in data:
            raise ConfigError(
                f"{DICT_CONFIG}: database: a config given as a dict has no file to "
                "keep its results beside; give 'database' in it or database=PATH"
            )
        data.setdefault("name", Path(str(data["database"])).stem)
        loaded = config_from_data(data, path=DICT_CONFIG, plugins=plugins)
    else:
        loaded = load_config(config, plugins=plugins)
        if database is not None:
            loaded = dataclasses.replace(loaded, database=Path(database))
    scheduler_run(loaded, workers=workers, fresh=fresh)
    return loaded.database


def results(database: str | Path) -> list[dict[str, Any]]:
    """Every recorded match in plan order, as ``troef matches --format json``
    gives it: index, job id, seating, scores, ranks and the forfeit (or None),
    and ``void`` (what the game raised) for a match a game fault made void."""
    with Store.existing(database) as store:
        return [match_record(m.job, m.result) for m in store.matches(void=True)]


def report_data(
    database: str | Path, *, anchor: str | None = None, model: str | None = None
) -> dict[str, Any]:
    """The report of a database as ``troef report --format json`` gives it:
    ``standings`` (ratings with intervals), ``pairs``, ``crosstable``, ``tiers``...

    :param anchor: the entrant whose rating is fixed (default: pool mean 0).
    :param model: ``"pairwise"`` or ``"plackett-luce"`` (default: the config's).
    :raises TroefError: no database there, or it holds no result yet.
    :raises ConfigError: ``anchor`` is no entrant of the tournament.
    """
    with Store.existing(database) as store:
        entrants = list(store.config_snapshot().get("entrants", {}))
        if anchor is not None and anchor not in entrants:
            raise ConfigError(
                f"report_data: anchor={anchor!r} is no entrant of {database}; "
                f"{close_names(anchor, entrants)}"
            )
        built = stored_report(store, anchor=anchor, model=model)
    return report_model(built).as_json()


def ratings(database: str | Path, *, anchor: str | None = None) -> list[dict[str, Any]]:
    """The standings of :func:`report_data`: per entrant, best first, its rank,
    tier, rating with ``lower`` and ``upper`` bounds, games and score."""
    standings: list[dict[str, Any]] = report_data(database, anchor=anchor)["standings"]
    return standings


def _registry(plugins: Sequence[str | Path]) -> Registry:
    """The installed plugins and ``plugins`` (files end in ``.py``)."""
    named = [str(p) for p in plugins]
    return load_registry(
        files=[p for p in named if p.endswith(".py")],
        modules=[p for p in named if not p.endswith(".py")],
    )
