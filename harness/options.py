"""Options of games and bots: declared once, validated at the boundary.

A game's variant is an option (``Option("variant", "rotterdams", choices=...)``).
Validation turns a mapping given by a user into a complete, checked mapping
with every default filled in, or raises :class:`OptionError` naming the option
and what it accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from harness.errors import OptionError, close_names

__all__ = ["Option", "resolve_options"]


@dataclass(frozen=True)
class Option:
    """One option of a game or a bot."""

    name: str
    #: The value used when the option is not given; its type is the option's type.
    default: Any
    #: What the option does, in one line, for ``troef games`` and ``--help``.
    doc: str = ""
    #: The allowed values, or ``None`` when any value of the default's type goes.
    choices: tuple[Any, ...] | None = None
    #: Inclusive bounds for numeric options.
    minimum: float | None = None
    maximum: float | None = None

    def allowed(self) -> str:
        """Describe the accepted values, for error messages and listings."""
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        kind = type(self.default).__name__
        if self.minimum is not None and self.maximum is not None:
            return f"{kind} from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"{kind} >= {self.minimum}"
        if self.maximum is not None:
            return f"{kind} <= {self.maximum}"
        return f"a {kind}"

    def check(self, value: Any, owner: str) -> Any:
        """Return ``value`` if it is acceptable, else raise :class:`OptionError`."""
        expected = type(self.default)
        ok_type = isinstance(value, expected) and not (
            expected is not bool and isinstance(value, bool)
        )
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok_type = float(value), True
        bad = not ok_type
        if not bad and self.choices is not None:
            bad = value not in self.choices
        if not bad and self.minimum is not None:
            bad = value < self.minimum
        if not bad and self.maximum is not None:
            bad = value > self.maximum
        if bad:
            raise OptionError(
                f"{owner}: option {self.name!r} = {value!r} is not allowed; "
                f"expected {self.allowed()}"
            )
        return value


def resolve_options(
    specs: Sequence[Option], given: Mapping[str, Any], owner: str
) -> Mapping[str, Any]:
    """Check ``given`` against ``specs`` and fill in the defaults.

    :param owner: names the game or bot in error messages, e.g. ``game 'klaverjassen'``.
    :returns: a read-only mapping with one entry per spec.
    """
    by_name = {spec.name: spec for spec in specs}
    for name in given:
        if name not in by_name:
            raise OptionError(
                f"{owner}: unknown option {name!r}; {close_names(name, by_name)}"
            )
    return MappingProxyType(
        {
            spec.name: spec.check(given[spec.name], owner)
            if spec.name in given
            else spec.default
            for spec in specs
        }
    )
