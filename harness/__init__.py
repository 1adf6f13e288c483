"""troef's engine: the plugin contracts, the referee and the tournament machinery.

The public API a plugin author needs is re-exported here.
"""

from __future__ import annotations

from harness.bot import Bot
from harness.errors import (
    ConfigError,
    ConformanceError,
    IllegalActionError,
    InvalidActionError,
    OptionError,
    PluginError,
    SeatCountError,
    TroefError,
    UnknownNameError,
)
from harness.game import Action, Game, Sampler, Seat, State
from harness.hookspecs import hookimpl
from harness.options import Option
from harness.referee import TimeControl
from harness.result import Forfeit, ForfeitReason, Result
from harness.view import View

__all__ = [
    "Action",
    "Bot",
    "ConfigError",
    "ConformanceError",
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
