"""The kit's encoder: a card game's View as a fixed float32 vector.

A family encoder (``games/<family>/encoding.py``) lists :class:`Block` s, each
reading one field of the View by name; :class:`BlockEncoding` lays them end
to end and fills one array per view. Every block writes its entries as
``(index, value)`` pairs into two lists that the encoder stores with one
numpy assignment, so a view costs a few microseconds (``bench/bench_encoding.py``).

Seats are relative: entry k of every per-seat block is seat ``(me + k) % n``
of the viewer ``me`` (0 the viewer, 1 the seat after it in the table's turn
order); teams likewise (0: the viewer's team). Cards are the deck's faces in
its index order (``docs/CARDS.md``), a face's entry the share of its copies
(1 in a single pack, 0.5 for one of the two copies of a bezique card). A
block's value that is None writes nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields

import numpy as np

from games.cards import Deck
from harness.contracts.encoding import (
    ActionRange,
    ActionSpace,
    Encoding,
    Observation,
    Segment,
)
from harness.contracts.errors import EncodingError
from harness.contracts.game import Game
from harness.contracts.view import View

__all__ = [
    "Block",
    "BlockEncoding",
    "Cards",
    "Choice",
    "Number",
    "Numbers",
    "Played",
    "SeatCards",
    "SeatOneHot",
    "SeatWords",
    "TrickCounts",
    "card_game_encoding",
    "card_words",
    "trick_blocks",
]


class Block(ABC):
    """One segment of the observation, filled from one field of the View."""

    #: The View field it reads.
    field: str
    #: The segment's name: the field's, unless one field feeds two blocks.
    name: str = ""
    #: How many entries it spans.
    size: int
    #: What the entries mean, for :class:`~harness.contracts.encoding.Segment`.
    doc: str

    @abstractmethod
    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        """Append this block's entries of ``view`` (viewer ``me``) at ``base``."""


class Cards(Block):
    """A set of cards (a hand, a pile): one entry per face, its share of copies."""

    def __init__(self, field: str, deck: Deck, doc: str) -> None:
        self.field, self.size, self.doc = field, len(deck.faces), doc
        self._face = {f: i for i, f in enumerate(deck.faces)}
        self._share = 1.0 / deck.copies

    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        cards = getattr(view, self.field)
        if cards:
            self.write_cards(cards, base, idx, val)

    def write_cards(
        self, cards: Iterable[str], base: int, idx: list[int], val: list[float]
    ) -> None:
        """Append the entries of ``cards`` (names of this deck) at ``base``."""
        _add_cards(self._face, self._share, base, cards, idx, val, self.field)


class SeatCards(Block):
    """Cards by the relative seat they belong to: one plane of faces per seat.

    ``pairs(view)`` gives ``(seat, card)`` for every card of the field.
    """

    def __init__(
        self,
        field: str,
        deck: Deck,
        n_seats: int,
        doc: str,
        pairs: Callable[[View], Iterable[tuple[int, str]]],
        *,
        name: str = "",
    ) -> None:
        faces = len(deck.faces)
        self.field, self.name, self.size, self.doc = field, name, n_seats * faces, doc
        self._n, self._faces, self._pairs = n_seats, faces, pairs
        self._face = {f: i for i, f in enumerate(deck.faces)}
        self._share = 1.0 / deck.copies

    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        n, faces, face, share = self._n, self._faces, self._face, self._share
        start = len(idx)
        try:
            for seat, card in self._pairs(view):
                idx.append(base + (seat - me) % n * faces + face[card])
                val.append(share)
        except KeyError as missing:
            raise _unknown(self.field, missing.args[0], "a card") from None
        if share != 1.0:
            _merge_copies(idx, val, start)


class SeatOneHot(Block):
    """A seat (the dealer, the maker), one-hot by relative seat; None: all zero."""

    def __init__(self, field: str, n_seats: int, doc: str) -> None:
        self.field, self.size, self.doc = field, n_seats, doc

    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        seat = getattr(view, self.field)
        if seat is not None:
            idx.append(base + (seat - me) % self.size)
            val.append(1.0)


class Choice(Block):
    """One of a fixed list of values (a phase, a trump suit), one-hot; None: zero.

    A value outside the list raises :class:`EncodingError` naming it: a new
    value needs a new layout version, never a silent zero.
    """

    def __init__(self, field: str, choices: Sequence[object], doc: str) -> None:
        self.field, self.size, self.doc = field, len(choices), doc
        self._at = {c: i for i, c in enumerate(choices)}
        self._choices = tuple(choices)

    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        value = getattr(view, self.field)
        if value is not None:
            self.write_value(value, base, idx, val)

    def write_value(
        self, value: object, base: int, idx: list[int], val: list[float]
    ) -> None:
        """Append the entry of ``value``, one of the choices, at ``base``."""
        at = self._at.get(value)
        if at is None:
            raise _unknown(self.field, value, ", ".join(map(repr, self._choices)))
        idx.append(base + at)
        val.append(1.0)


class Number(Block):
    """One number (a count, a bool) divided by ``scale``; None: 0."""

    def __init__(self, field: str, scale: float, doc: str) -> None:
        self.field, self.size, self.doc = field, 1, doc
        self._scale = float(scale)

    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        value = getattr(view, self.field)
        if value:
            idx.append(base)
            val.append(value / self._scale)


class Numbers(Block):
    """Numbers per seat or per team (scores, lives), rotated to the viewer, / ``scale``.

    ``teams`` is the game's team layout for per-team numbers (None: per seat);
    entry 0 is the viewer's. A field of ``deal_scores`` shape (one row per
    deal) is read by ``row=-1``: the last row, zeros before the first.
    """

    def __init__(
        self,
        field: str,
        size: int,
        scale: float,
        doc: str,
        *,
        teams: Sequence[int] | None = None,
        row: int | None = None,
    ) -> None:
        self.field, self.size, self.doc = field, size, doc
        self._scale, self._teams, self._row = float(scale), teams, row

    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        values = getattr(view, self.field)
        if self._row is not None:
            if not values:
                return
            values = values[self._row]
        n = len(values)
        if n == 0:
            return
        own = me if self._teams is None else self._teams[me]
        if n != self.size:
            raise EncodingError(
                f"view field {self.field!r} holds {n} numbers, the layout {self.size}"
            )
        scale = self._scale
        for k, value in enumerate(values):
            if value:
                idx.append(base + (k - own) % n)
                val.append(value / scale)


class SeatWords(Block):
    """Words said per relative seat (bids): one plane of the words per seat.

    ``pairs(view)`` gives ``(seat, word)``; a word outside ``words`` raises.
    """

    def __init__(
        self,
        field: str,
        words: Sequence[str],
        n_seats: int,
        doc: str,
        pairs: Callable[[View], Iterable[tuple[int, str]]] | None = None,
    ) -> None:
        self.field, self.size, self.doc = field, n_seats * len(words), doc
        self._n, self._width = n_seats, len(words)
        self._at = {w: i for i, w in enumerate(words)}
        self._pairs = pairs or (lambda view: getattr(view, field))

    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        n, width, at = self._n, self._width, self._at
        for seat, word in self._pairs(view):
            k = at.get(word)
            if k is None:
                raise _unknown(self.field, word, f"one of {len(at)} words")
            idx.append(base + (seat - me) % n * width + k)
            val.append(1.0)


class Played(Block):
    """The cards each relative seat played in the deal's finished tricks.

    Reads ``tricks`` rows ``(leader, cards, ...)``, the cards in playing
    order from the leader; with ``active``, the View's ``active`` seats are
    the playing order (some seats sit the deal out). One plane of faces per
    relative seat, as :class:`SeatCards`.
    """

    def __init__(self, deck: Deck, n_seats: int, doc: str, *, active: bool) -> None:
        faces = len(deck.faces)
        self.field, self.name, self.size, self.doc = (
            "tricks",
            "played",
            n_seats * faces,
            doc,
        )
        self._n, self._faces, self._active = n_seats, faces, active
        self._face = {f: i for i, f in enumerate(deck.faces)}
        self._share = 1.0 / deck.copies

    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        tricks = getattr(view, "tricks")  # noqa: B009 - every block reads by name
        if not tricks:
            return
        n, faces, face, share = self._n, self._faces, self._face, self._share
        start = len(idx)
        try:
            if self._active:
                seats = getattr(view, "active")  # noqa: B009
                m = len(seats)
                at = {s: i for i, s in enumerate(seats)}
                for trick in tricks:
                    first = at[trick[0]]
                    for k, card in enumerate(trick[1]):
                        rel = (seats[(first + k) % m] - me) % n
                        idx.append(base + rel * faces + face[card])
            else:
                for trick in tricks:
                    rel = trick[0] - me
                    for card in trick[1]:
                        idx.append(base + rel % n * faces + face[card])
                        rel += 1
        except KeyError as missing:
            raise _unknown("tricks", missing.args[0], "a card of the deck") from None
        val += [share] * (len(idx) - len(val))
        if share != 1.0:
            _merge_copies(idx, val, start)


class TrickCounts(Block):
    """Per relative seat: tricks won this deal / ``per``, their points / ``scale``.

    Reads ``tricks`` rows ``(leader, cards, winner, points, roem, ...)``: two
    entries per seat, tricks then points (roem included).
    """

    def __init__(self, n_seats: int, per: int, scale: float, doc: str) -> None:
        self.field, self.name, self.size = "tricks", "tricks_won", 2 * n_seats
        self.doc = doc
        self._n, self._per, self._scale = n_seats, float(per), float(scale)

    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        tricks = getattr(view, "tricks")  # noqa: B009 - every block reads by name
        if not tricks:
            return
        n = self._n
        won = [0] * n
        points = [0] * n
        for trick in tricks:
            rel = (trick[2] - me) % n
            won[rel] += 1
            points[rel] += trick[3] + trick[4]
        for rel in range(n):
            if won[rel]:
                idx += (base + 2 * rel, base + 2 * rel + 1)
                val += (won[rel] / self._per, points[rel] / self._scale)


def card_words(deck: Deck, words: Iterable[str]) -> tuple[str, ...]:
    """Every face of ``deck`` and ``words``: the usual vocabulary of a card game."""
    return (*deck.faces, *words)


class BlockEncoding(Encoding):
    """An encoding made of :class:`Block` s laid end to end, in the given order."""

    def __init__(
        self, game: str, version: int, actions: ActionSpace, blocks: Sequence[Block]
    ) -> None:
        segments, start = [], 0
        for block in blocks:
            name = block.name or block.field
            segments.append(Segment(name, start, block.size, block.doc))
            start += block.size
        super().__init__(game, version, actions, segments)
        self._plan = tuple(
            (block.write, segment.start)
            for block, segment in zip(blocks, segments, strict=True)
        )

    def encode(self, view: View) -> Observation:
        idx: list[int] = []
        val: list[float] = []
        me = view.seat
        for write, base in self._plan:
            write(view, base, me, idx, val)
        out = np.zeros(self.shape, dtype=np.float32)
        out[idx] = val
        return out


def _add_cards(
    face: dict[str, int],
    share: float,
    base: int,
    cards: Iterable[str],
    idx: list[int],
    val: list[float],
    field: str,
) -> None:
    start = len(idx)
    try:
        for card in cards:
            idx.append(base + face[card])
            val.append(share)
    except KeyError as missing:
        raise _unknown(field, missing.args[0], "a card of the deck") from None
    if share != 1.0:
        _merge_copies(idx, val, start)


def _merge_copies(idx: list[int], val: list[float], start: int) -> None:
    """Sum the shares of repeated indices from ``start`` on (copies of one face)."""
    total: dict[int, float] = {}
    for i in range(start, len(idx)):
        total[idx[i]] = total.get(idx[i], 0.0) + val[i]
    del idx[start:], val[start:]
    idx += total.keys()
    val += total.values()


def _unknown(field: str, value: object, accepted: str) -> EncodingError:
    return EncodingError(
        f"view field {field!r} holds {value!r}, which the encoding has no place "
        f"for; it accepts {accepted} (a new value needs a new encoding version)"
    )


def trick_blocks(
    view_class: type[View],
    deck: Deck,
    n_seats: int,
    teams: Sequence[int],
    *,
    words: Sequence[str] = (),
    phases: Sequence[str] = (),
    score_scale: float,
) -> list[Block]:
    """The blocks every trick game's view shares, for the fields ``view_class`` has.

    In this order, each only when the View has the field: ``hand``,
    ``trick`` (the cards on the table by seat), ``played`` (the cards each
    seat played in the deal's finished tricks), ``tricks_won`` (tricks and points
    per seat), ``trump``, ``dealer``, ``to_act``, ``player`` (the maker),
    ``phase`` (one of ``phases``), ``bids`` (``words`` per seat) and
    ``scores`` (per team, / ``score_scale``). ``docs/ENCODING.md`` tells
    each segment's layout.
    """
    have = {f.name for f in fields(view_class)}
    faces = len(deck.faces)
    n_teams = max(teams) + 1
    blocks: list[Block] = []
    if "hand" in have:
        blocks.append(Cards("hand", deck, f"own hand: {faces} faces"))
    if "trick" in have:
        blocks.append(
            SeatCards(
                "trick",
                deck,
                n_seats,
                f"the trick on the table: {faces} faces per relative seat",
                _trick_pairs,
            )
        )
    if "tricks" in have:
        blocks.append(
            Played(
                deck,
                n_seats,
                f"cards seen: played in this deal's finished tricks, {faces} "
                "faces per relative seat",
                active="active" in have,
            )
        )
        blocks.append(
            TrickCounts(
                n_seats,
                max(1, len(deck.cards) // n_seats),
                100,
                "per relative seat: tricks won / cards per seat, their points / 100",
            )
        )
    if "trump" in have:
        blocks.append(Choice("trump", deck.suits, f"the trump suit: {deck.suits}"))
    for seat_field, doc in (
        ("dealer", "the dealer"),
        ("to_act", "the seat to act"),
        ("player", "the maker (the seat that took the game), if any"),
    ):
        if seat_field in have:
            blocks.append(SeatOneHot(seat_field, n_seats, f"{doc}, by relative seat"))
    if "phase" in have and phases:
        blocks.append(Choice("phase", phases, f"the phase: {tuple(phases)}"))
    if "bids" in have and words:
        blocks.append(
            SeatWords("bids", words, n_seats, f"bids said: {len(words)} words per seat")
        )
    if "scores" in have:
        blocks.append(
            Numbers(
                "scores",
                n_teams,
                score_scale,
                f"match scores per relative team / {score_scale:g}",
                teams=teams,
            )
        )
    return blocks


def _trick_pairs(view: View) -> Iterable[tuple[int, str]]:
    trick: Iterable[tuple[int, str]] = getattr(view, "trick")  # noqa: B009
    return trick


def card_game_encoding(
    game: Game,
    n_seats: int,
    *,
    version: int,
    deck: Deck,
    words: Iterable[str],
    view_class: type[View] | None,
    family: Callable[[type[View], Deck, int], list[Block]],
    phases: Sequence[str] = (),
    score_scale: float,
    ranges: Sequence[ActionRange] = (),
) -> BlockEncoding:
    """A family's encoding of ``game`` at ``n_seats``: what every family encoder does.

    The actions are ``deck``'s faces, ``words`` (every other action the game
    can produce, under every option) and ``ranges``; the observation is
    :func:`trick_blocks` and then ``family(view_class, deck, n_seats)``.

    :raises SeatCountError: the game does not take ``n_seats``.
    """
    game.check_seats(n_seats)
    view = view_class or game.view_class
    if view is None:
        raise TypeError(f"game {game.name!r} names no view_class to encode")
    listed = tuple(sorted(set(words)))
    actions = ActionSpace(
        card_words(deck, listed), ranges, owner=f"game {game.name!r} at {n_seats} seats"
    )
    blocks = trick_blocks(
        view,
        deck,
        n_seats,
        game.teams(n_seats),
        words=listed,
        phases=phases,
        score_scale=score_scale,
    )
    blocks += family(view, deck, n_seats)
    return BlockEncoding(game.name, version, actions, blocks)
