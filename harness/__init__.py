"""troef's engine: the plugin contracts, the referee and the tournament machinery.

The public API a plugin author needs is re-exported here, and the notebook API
of :mod:`harness.api` (``load_game``, ``play_match``, ``run_tournament``,
``results``, ``ratings``, ``report_data``, ``Table``; ``docs/API.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness.contracts.bot import Bot
from harness.contracts.errors import (
    ConfigError,
    ConformanceError,
    EncodingError,
    IllegalActionError,
    InvalidActionError,
    OptionError,
    PluginError,
    SeatCountError,
    TroefError,
    UnknownNameError,
)
from harness.contracts.game import Action, ActionKind, Aside, Game, Sampler, Seat, State
from harness.contracts.hookspecs import hookimpl
from harness.contracts.options import Option
from harness.contracts.result import Forfeit, ForfeitReason, Result
from harness.contracts.view import View
from harness.match.referee import TimeControl

if TYPE_CHECKING:
    from harness.api import (
        Table,
        load_game,
        play_match,
        ratings,
        report_data,
        results,
        run_tournament,
    )

#: The names of harness.api, imported on first use: it brings the tournament
#: machinery and scipy, which a plugin's ``from harness import Bot`` (every
#: bot process's start) must not pay for.
_NOTEBOOK_API = frozenset(
    {
        "Table",
        "load_game",
        "play_match",
        "ratings",
        "report_data",
        "results",
        "run_tournament",
    }
)

__all__ = [
    "Action",
    "ActionKind",
    "Aside",
    "Bot",
    "ConfigError",
    "ConformanceError",
    "EncodingError",
    "Forfeit",
    "ForfeitReason",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Option",
    "OptionError",
    "PluginError",
    "Result",
    "Sampler",
    "Seat",
    "SeatCountError",
    "State",
    "Table",
    "TimeControl",
    "TroefError",
    "UnknownNameError",
    "View",
    "hookimpl",
    "load_game",
    "play_match",
    "ratings",
    "report_data",
    "results",
    "run_tournament",
]


def __getattr__(name: str) -> Any:
    if name in _NOTEBOOK_API:
        from harness import api

        return getattr(api, name)
    raise AttributeError(f"module 'harness' has no attribute {name!r}")
