"""The exception hierarchy of troef: one root, one class per audience.

Every message says where (file, key, game, seat), what is wrong, the offending
value, and what would be accepted.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = [
    "ConfigError",
    "ConformanceError",
    "IllegalActionError",
    "InvalidActionError",
    "OptionError",
    "PluginError",
    "SeatCountError",
    "TeamLayoutError",
    "TroefError",
    "UnknownNameError",
    "close_names",
]


class TroefError(Exception):
    """Root of every error troef raises on purpose."""


class ConfigError(TroefError, ValueError):
    """A tournament config or a command line asks for something that cannot be."""


class UnknownNameError(ConfigError, LookupError):
    """An unknown game, bot or option name; the message lists the close names."""


class OptionError(TroefError, ValueError):
    """A game or bot option is invalid; the message names it and what is allowed."""


class SeatCountError(TroefError, ValueError):
    """A game was asked to seat a number of players it does not take."""


class TeamLayoutError(TroefError, ValueError):
    """A game's ``teams(n)`` is not a team layout: the game plugin has a bug."""


class PluginError(TroefError):
    """A plugin failed to import, or two plugins register the same name."""


class InvalidActionError(TroefError, ValueError):
    """An action string that is not notation this game understands at all."""


class IllegalActionError(TroefError, ValueError):
    """An action in valid notation that is not legal in the current state."""


class ConformanceError(TroefError, AssertionError):
    """A game breaks one of the contracts the conformance suite checks."""


def close_names(name: str, known: Iterable[str]) -> str:
    """Return ``did you mean ...? known: ...`` for an error message."""
    known = sorted(known)
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(repr(c) for c in close)}? " if close else ""
    return f"{hint}known: {', '.join(known) if known else '(none)'}"
