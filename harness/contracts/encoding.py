"""Encodings for learning bots: integer actions, a legal mask, a tensor per view.

A bot that learns (the OpenSpiel, RLCard and PettingZoo way) needs three
things a troef game does not give as strings: a fixed integer id for every
action the game can produce (:class:`ActionSpace`), the legal ids of a view as
a boolean mask, and a numeric observation of fixed shape. An
:class:`Encoding` gives all three for one game, its options and a seat count;
:meth:`Game.encoding(n_seats) <harness.contracts.game.Game.encoding>` is the
optional hook that returns it (``docs/ENCODING.md``).

An encoding is a function of the View alone: it holds no State and no memory
of earlier views, so it never tells a bot more than its View does. Arrays are
numpy's (a dependency of troef, as scipy needs it); this module is imported
only where an encoding is asked for, so a bot process that never learns
never loads numpy.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, final

import numpy as np
from numpy.typing import NDArray

from harness.contracts.errors import EncodingError

if TYPE_CHECKING:
    from harness.contracts.view import View

__all__ = ["ActionRange", "ActionSpace", "Encoding", "Mask", "Observation", "Segment"]

#: A boolean vector over the action ids: True where the action is legal.
Mask = NDArray[np.bool_]
#: An observation: float32 of the encoding's fixed shape.
Observation = NDArray[np.float32]


class ActionRange(Protocol):
    """A block of actions too many to list, numbered by a ranking.

    Gin rummy's layouts are the case: every set of disjoint melds a hand may
    lay down. :meth:`rank` and :meth:`unrank` are inverse on ``0..size-1``.
    """

    #: What the block holds, for error messages and the fingerprint.
    name: str
    #: How many actions it numbers.
    size: int

    def rank(self, action: str) -> int | None:
        """The index of ``action`` in this block, or None if it is not one."""

    def unrank(self, index: int) -> str:
        """The action at ``index`` (``0 <= index < size``)."""


@final
class ActionSpace:
    """A fixed integer id for every action a game can produce.

    Ids ``0..len(words)-1`` are ``words`` in sorted order (a sorted finite
    vocabulary: the same words always get the same ids); each
    :class:`ActionRange` follows at its own offset. An action belongs to one
    part only: the words are asked first.

    :param owner: who the space belongs to (``"game 'klaverjassen' at 4
        seats"``), named by every error.
    """

    __slots__ = ("_ids", "_offsets", "_ranges", "owner", "size", "words")

    def __init__(
        self, words: Iterable[str], ranges: Sequence[ActionRange] = (), *, owner: str
    ) -> None:
        #: The listed actions, sorted; an action's id is its position here.
        self.words: tuple[str, ...] = tuple(sorted(set(words)))
        self._ids = {word: i for i, word in enumerate(self.words)}
        self._ranges = tuple(ranges)
        offsets, start = [], len(self.words)
        for part in self._ranges:
            offsets.append(start)
            start += part.size
        self._offsets = tuple(offsets)
        #: The number of ids.
        self.size: int = start
        self.owner = owner

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        parts = "".join(f" + {r.name} ({r.size})" for r in self._ranges)
        return f"<ActionSpace of {self.owner}: {len(self.words)} words{parts}>"

    def action_id(self, action: str) -> int:
        """The id of ``action``.

        :raises EncodingError: the space has no such action.
        """
        found = self._ids.get(action)
        if found is not None:
            return found
        for part, offset in zip(self._ranges, self._offsets, strict=True):
            index = part.rank(action)
            if index is not None:
                return offset + index
        sample = ", ".join(repr(w) for w in self.words[:6])
        raise EncodingError(
            f"{action!r} is not an action of the encoding of {self.owner}; it "
            f"numbers {self.size} actions: {sample}, ..."
            + "".join(f", {r.name}" for r in self._ranges)
        )

    def action(self, action_id: int) -> str:
        """The action whose id is ``action_id``.

        :raises EncodingError: ``action_id`` is not an integer in ``0..size-1``.
        """
        if isinstance(action_id, np.integer):
            action_id = int(action_id)
        if type(action_id) is not int or not 0 <= action_id < self.size:
            raise EncodingError(
                f"action id {action_id!r} is out of range for the encoding of "
                f"{self.owner}; ids are integers from 0 to {self.size - 1}"
            )
        if action_id < len(self.words):
            return self.words[action_id]
        for part, offset in zip(self._ranges, self._offsets, strict=True):
            if action_id < offset + part.size:
                return part.unrank(action_id - offset)
        raise AssertionError("the offsets cover every id")  # pragma: no cover

    def mask(self, actions: Iterable[str]) -> Mask:
        """A boolean vector of :attr:`size`, True at the ids of ``actions``."""
        mask = np.zeros(self.size, dtype=np.bool_)
        ids = self._ids
        mask[[ids[a] if a in ids else self.action_id(a) for a in actions]] = True
        return mask

    def digest_parts(self) -> tuple[str, ...]:
        """What identifies this space: its words and its ranges' names and sizes."""
        return (*self.words, *(f"{r.name}#{r.size}" for r in self._ranges))


@dataclass(frozen=True)
class Segment:
    """One named slice of an observation: where it starts, how long, what it holds."""

    #: The segment's name, e.g. ``"hand"``.
    name: str
    #: Its first index in the observation.
    start: int
    #: How many entries it spans.
    size: int
    #: What the entries mean, in one line.
    doc: str


class Encoding(ABC):
    """Integer actions, legal masks and observations for one game at one table.

    Built by :meth:`Game.encoding(n_seats) <harness.contracts.game.Game.encoding>`
    for the game's options. :meth:`encode` and :meth:`mask` read only the View
    they are given: two equal views give equal arrays.

    A trained bot keeps :attr:`version` and :attr:`fingerprint` beside its
    weights and compares them before it plays: :attr:`version` is the
    family's layout number, raised by hand whenever the meaning of an entry
    changes; :attr:`fingerprint` changes whenever the actions or the segments
    do, even when nobody remembered to raise the version.
    """

    def __init__(
        self,
        game: str,
        version: int,
        actions: ActionSpace,
        segments: Sequence[Segment],
    ) -> None:
        #: The game's registry name.
        self.game = game
        #: The layout's version (``docs/ENCODING.md`` says what each one is).
        self.version = version
        #: The action ids.
        self.actions = actions
        #: The observation's layout, in order and without gaps.
        self.segments: tuple[Segment, ...] = tuple(segments)
        names = [s.name for s in self.segments]
        if len(set(names)) != len(names):
            raise ValueError(
                f"the encoding of {game!r} repeats a segment name: {names}"
            )
        size = 0
        for segment in self.segments:
            if segment.start != size:
                raise ValueError(
                    f"segment {segment.name!r} of the encoding of {game!r} starts "
                    f"at {segment.start}, expected {size} (no gaps, no overlaps)"
                )
            size += segment.size
        self._size = size

    @property
    def shape(self) -> tuple[int]:
        """The shape of every observation :meth:`encode` returns."""
        return (self._size,)

    @property
    def num_actions(self) -> int:
        """The number of action ids (the length of every :meth:`mask`)."""
        return self.actions.size

    @property
    def fingerprint(self) -> str:
        """A short digest of the game, version, segments and actions."""
        text = "\n".join(
            (
                self.game,
                str(self.version),
                *(f"{s.name}:{s.start}:{s.size}" for s in self.segments),
                *self.actions.digest_parts(),
            )
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @final
    def action_id(self, action: str) -> int:
        """The id of ``action`` (:meth:`ActionSpace.action_id`)."""
        return self.actions.action_id(action)

    @final
    def action(self, action_id: int) -> str:
        """The action whose id is ``action_id`` (:meth:`ActionSpace.action`)."""
        return self.actions.action(action_id)

    @final
    def mask(self, view: View) -> Mask:
        """True at the ids of ``view.legal_actions``; all False when not to act."""
        return self.actions.mask(view.legal_actions)

    @abstractmethod
    def encode(self, view: View) -> Observation:
        """The observation of ``view``: float32 of :attr:`shape`, a new array.

        :raises EncodingError: the view holds a value the layout has no place
            for (a phase or a bid it does not know).
        """

    def segment(self, name: str) -> Segment:
        """The segment called ``name``.

        :raises EncodingError: there is none; the message lists them.
        """
        for segment in self.segments:
            if segment.name == name:
                return segment
        known = ", ".join(s.name for s in self.segments)
        raise EncodingError(
            f"the encoding of {self.game!r} has no segment {name!r}; it has: {known}"
        )
