"""Options of games and bots: declared once, validated at the boundary.

A game's variant is an option (``Option("variant", "rotterdams", choices=...)``),
and each of its choices may say in one line what it is (``choice_docs``), for
``troef games NAME``.
Validation turns a mapping given by a user into a complete, checked mapping
with every default filled in, or raises :class:`OptionError` naming the option
and what it accepts.

Option names are ``snake_case`` in every game and bot (issue #25). A renamed
option keeps its old spellings as :attr:`Option.aliases`: given in a config
or with ``-o``, an old spelling is taken as the new one, with an
:class:`OptionRenamedWarning` that names the new spelling; the resolved
mapping holds the new name only. Job ids and config snapshots are digests of
the options, so records keep the name an option had before its rename
(:attr:`Option.recorded_as`, :func:`recorded_options`): a database made
before the rename resumes.
"""

from __future__ import annotations

import sys
import tomllib
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, TextIO

from harness.contracts.errors import ConfigError, OptionError, close_names

__all__ = [
    "Option",
    "OptionRenamedWarning",
    "one_line",
    "parse_options",
    "recorded_options",
    "resolve_options",
    "show_renamed_options",
]


class OptionRenamedWarning(FutureWarning):
    """An option was given by an old spelling; the message names the new one.

    A ``FutureWarning``, not a ``DeprecationWarning``: Python shows it to the
    person running troef by default, and it is theirs to act on.
    """


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

    #: Old spellings of the name, still accepted with an
    #: :class:`OptionRenamedWarning` (``("last-card",)`` for ``last_card``).
    aliases: tuple[str, ...] = ()
    #: The name records (job ids, config snapshots) keep the option under:
    #: its name before a rename, so that older databases resume. None: its name.
    recorded_as: str | None = None
    #: For old spellings that were options of their own, merged into this one
    #: (belote's ``target2`` .. ``target4`` into ``target``): the default each
    #: had. Given at that value, an old spelling sets nothing, so a stored
    #: config that spells out every old option still resolves.
    alias_defaults: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if self.choice_docs is None:
            return
        unknown = [c for c in self.choice_docs if c not in (self.choices or ())]
        if unknown:
            raise ValueError(
                f"option {self.name!r}: choice_docs names {unknown[0]!r}, which is "
                f"not a choice; expected one of {list(self.choices or ())!r}"
            )

    def __repr__(self) -> str:
        # As it would be written in a plugin: the fields given, not every default.
        given = [repr(self.name), repr(self.default)] + [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)[2:]
            if getattr(self, f.name) != f.default
        ]
        return f"Option({', '.join(given)})"

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

    An old spelling (:attr:`Option.aliases`) is taken as its option's name,
    with an :class:`OptionRenamedWarning` (at its value in
    :attr:`Option.alias_defaults` it sets nothing); the same option given
    twice, by two spellings with different values, is an :class:`OptionError`.

    :param owner: names the game or bot in error messages, e.g. ``game 'klaverjassen'``.
    :returns: a read-only mapping with one entry per spec, by the new names.
    """
    by_name = {spec.name: spec for spec in specs}
    by_alias = {alias: spec for spec in specs for alias in spec.aliases}
    values: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for name, value in given.items():
        spec = by_name.get(name) or by_alias.get(name)
        if spec is None:
            raise OptionError(
                f"{owner}: unknown option {name!r}; "
                f"{close_names(name, [*by_name, *by_alias])}"
            )
        if name != spec.name:
            warnings.warn(
                OptionRenamedWarning(
                    f"{owner}: option {name!r} is deprecated; it is now spelled "
                    f"{spec.name!r} ({name!r} still works)"
                ),
                stacklevel=2,
            )
        if name != spec.name and (name, value) in spec.alias_defaults:
            continue  # the old option's own default: it asked for nothing
        if spec.name in values and values[spec.name] != value:
            raise OptionError(
                f"{owner}: option {spec.name!r} is given twice, as "
                f"{spelled[spec.name]} = {values[spec.name]!r} and as "
                f"{name} = {value!r}; give it once, as {spec.name!r}"
            )
        values[spec.name] = value
        spelled[spec.name] = name
    return MappingProxyType(
        {
            spec.name: spec.check(values[spec.name], owner)
            if spec.name in values
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


def recorded_options(
    specs: Sequence[Option], options: Mapping[str, Any]
) -> dict[str, Any]:
    """Resolved ``options`` as records keep them: by :attr:`Option.recorded_as`.

    Job ids and config snapshots are digests of this mapping, so an option
    renamed after a database was made still gives that database's ids.
    """
    names = {spec.name: spec.recorded_as or spec.name for spec in specs}
    return {names.get(name, name): value for name, value in options.items()}


def show_renamed_options(stream: TextIO | None = None) -> None:
    """Print :class:`OptionRenamedWarning` as ``troef: warning: ...`` lines.

    For the ``troef`` command: a person reads the note, not the source line
    Python would print. Other warnings are shown as before; calling this again
    changes nothing.
    """
    shown = warnings.showwarning
    if getattr(shown, "_troef", False):
        return

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        if issubclass(category, OptionRenamedWarning):
            print(f"troef: warning: {message}", file=stream or file or sys.stderr)
        else:
            shown(message, category, filename, lineno, file, line)

    show._troef = True  # type: ignore[attr-defined]
    warnings.showwarning = show


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` strings (``-o target=500``, a ``--bots`` entry's options) as
    options: the value read as TOML, a bare word as a string."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise ConfigError(f"option {pair!r} is not KEY=VALUE (e.g. target=500)")
        try:
            options[key] = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            options[key] = text  # a bare word is a string
    return options
