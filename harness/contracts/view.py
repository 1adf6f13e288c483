"""The View: what one seat knows at one moment, as immutable plain data.

Subclasses are frozen dataclasses whose fields hold only ``int``, ``str``,
``bool``, ``None`` and (nested) tuples of those. That makes a View hashable
(which proves it is deeply immutable), comparable, and able to round-trip
through JSON unchanged: JSON arrays come back as tuples.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, Self

__all__ = ["View", "new_view", "pin_fields"]

#: A View with no fields set, for a State's fast ``view()``: it skips the
#: frozen dataclass's ``__init__`` and fills ``__dict__`` in one update. Such a
#: State pins the fields it fills with :func:`pin_fields`.
new_view = object.__new__


@dataclass(frozen=True)
class View:
    """One seat's information set under perfect recall.

    It holds no reference into the State. ``legal_actions`` is empty when the
    seat is not to act.
    """

    #: The seat this view belongs to.
    seat: int
    #: The actions this seat may take now, in a stable order; empty if not to act.
    legal_actions: tuple[str, ...]

    def to_json(self) -> str:
        """Serialise to a compact JSON object, one key per field."""
        return json.dumps(
            {f.name: getattr(self, f.name) for f in fields(self)},
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> Self:
        """Inverse of :meth:`to_json`."""
        return cls(**{k: _tuples(v) for k, v in json.loads(text).items()})


def _tuples(value: Any) -> Any:
    """JSON's lists as tuples, nested ones too (also the bot host's, per view)."""
    if type(value) is not list:
        return value
    if list in map(type, value):  # nested (tricks, melds): convert each item
        return tuple([_tuples(v) for v in value])
    return tuple(value)  # flat, the common case: no Python call per item


def pin_fields(cls: type[View], names: str) -> None:
    """Fail at import unless ``cls``'s fields are ``names`` (space-separated), in order.

    A State that builds views with :data:`new_view` names every field itself;
    this makes a field added to the View (or to :class:`View`) an import error
    instead of a view that silently lacks it.
    """
    found = [f.name for f in fields(cls)]
    if found != names.split():
        raise RuntimeError(
            f"{cls.__name__}'s fields changed to {found}; update the state's view()"
        )
