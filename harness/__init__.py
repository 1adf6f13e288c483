"""troef's engine: the plugin contracts, the referee and the tournament machinery.

The public API a plugin author needs is re-exported here.
"""

from __future__ import annotations

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
    "TimeControl",
    "TroefError",
    "UnknownNameError",
    "View",
    "hookimpl",
]
