"""The exception hierarchy of troef: one root, one class per audience.

Every message says where (file, key, game, seat), what is wrong, the offending
value, and what would be accepted.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from harness.contracts.result import ForfeitReason, Result

__all__ = [
    "BotFault",
    "ConfigError",
    "ConformanceError",
    "EncodingError",
    "GameFault",
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


class EncodingError(TroefError, ValueError):
    """An action, id or view value that a game's encoding has no place for."""


class ConformanceError(TroefError, AssertionError):
    """A game breaks one of the contracts the conformance suite checks."""


def close_names(name: str, known: Iterable[str]) -> str:
    """Return ``did you mean ...? known: ...`` for an error message."""
    known = sorted(known)
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(repr(c) for c in close)}? " if close else ""
    return f"{hint}known: {', '.join(known) if known else '(none)'}"


class BotFault(TroefError):
    """A bot broke its side of the boundary; the referee turns it into a forfeit.

    Raised by harness-side bots that run elsewhere
    (:class:`~harness.isolation.botprocess.ProcessBot`) from ``prepare`` and
    ``act_within``: it carries the
    :class:`~harness.contracts.result.ForfeitReason` and the detail (what the
    bot sent, its exit status, its stderr tail), where a plain exception would
    be recorded as the bot's own ``EXCEPTION``.
    """

    def __init__(self, reason: ForfeitReason, detail: str) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason
        self.detail = detail


class GameFault(TroefError):
    """A game plugin raised while the referee played a match: the game's fault,
    not a bot's.

    Raised by :func:`harness.match.referee.play_match` (``troef play`` shows
    its message, no traceback); ``result`` is the match's void
    :class:`~harness.contracts.result.Result` (``Result.void`` set), which a
    tournament records instead, so that the run goes on.
    """

    def __init__(self, message: str, result: Result) -> None:
        super().__init__(message)
        self.result = result
