"""Options of games and bots: declared once, validated at the boundary.

A game's variant is an option (``Option("variant", "rotterdams", choices=...)``),
and each of its choices may say in one line what it is (``choice_docs``), for
``troef games NAME``.
Validation turns a mapping given by a user into a complete, checked mapping
with every default filled in, or raises :class:`OptionError` naming the option
and what it accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from harness.errors import OptionError, close_names

__all__ = ["Option", "one_line", "resolve_options"]


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
    #: One line per choice saying what it is (``{"leids": "bids of points and
    #: suit"}``), for ``troef games NAME``; choices left out have none. Not part
    #: of the hash, so an Option stays hashable.
    choice_docs: Mapping[Any, str] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        if self.choice_docs is None:
            return
        unknown = [c for c in self.choice_docs if c not in (self.choices or ())]
        if unknown:
            raise ValueError(
                f"option {self.name!r}: choice_docs names {unknown[0]!r}, which is "
                f"not a choice; expected one of {list(self.choices or ())!r}"
            )

    def choice_doc(self, choice: Any) -> str:
        """What ``choice`` means, in one line; empty when the option does not say."""
        return (self.choice_docs or {}).get(choice, "")

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


def one_line(description: str, cls: type) -> str:
    """``description``, else the first line of ``cls``'s own docstring (not a
    base class's: an undocumented plugin class says nothing rather than the
    contract's words)."""
    if description.strip():
        return " ".join(description.split())
    doc = cls.__dict__.get("__doc__") or ""
    return doc.strip().split("\n\n")[0].split("\n")[0].strip()
