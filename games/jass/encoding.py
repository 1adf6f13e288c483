"""The jass family's encoding for learning bots (``docs/ENCODING.md``, jass).

One encoder for the seven jass games: the kit's trick blocks
(:func:`games.encoding.trick_blocks`) and then the family's own fields, each
when the game's View has it. A game's ``Game.encoding`` hook calls
:func:`jass_encoding` with its deck, its words and its phases; this module
imports no game module (they import it), so the hook's lazy import is one way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields

from games.cards import Deck
from games.encoding import (
    Block,
    BlockEncoding,
    Cards,
    Choice,
    Number,
    Numbers,
    SeatCards,
    SeatOneHot,
    card_game_encoding,
)
from harness.contracts.game import Game
from harness.contracts.view import View

__all__ = ["VERSION", "jass_encoding"]

#: The layout's version: raise it when an entry's meaning changes.
VERSION = 1


def jass_encoding(
    game: Game,
    n_seats: int,
    deck: Deck,
    words: Iterable[str],
    phases: Sequence[str] = (),
    *,
    view_class: type[View] | None = None,
) -> BlockEncoding:
    """The encoding of a jass ``game`` at ``n_seats``: ``deck``'s faces and ``words``.

    :param words: every action that is not a card, under every option
        (bids, suits, declarations); the bids segment is laid out over them.
    :param phases: the values of the View's ``phase`` field, when it has one.
    :param view_class: the View class the game's States make at these options
        (default: ``game.view_class``).
    :raises SeatCountError: the game does not take ``n_seats``.
    """
    return card_game_encoding(
        game,
        n_seats,
        version=VERSION,
        deck=deck,
        words=words,
        view_class=view_class,
        family=_family_blocks,
        phases=phases,
        score_scale=1000,
    )


def _family_blocks(view_class: type[View], deck: Deck, n_seats: int) -> list[Block]:
    """The jass fields beyond the kit's, in a fixed order, each when present."""
    have = {f.name: str(f.type) for f in fields(view_class)}
    faces = len(deck.faces)
    blocks: list[Block] = []
    for name, doc in (
        ("table", "face-up cards on the table (belote's turned card, the Fille)"),
        ("open_card", "the face-up card (klapper's proposal, the stock's open trump)"),
        ("skart", "the skart as this seat knows it"),
        ("open_skart", "the skart laid open"),
    ):
        if name in have:
            blocks.append(_cards(name, deck, f"{doc}: {faces} faces"))
    if "turned" in have:
        if have["turned"] == "str":  # belote: the turned card
            blocks.append(_cards("turned", deck, f"the turned card: {faces} faces"))
        else:  # klaverjassen, klapper: the suits turned so far
            blocks.append(
                _Suits("turned", deck.suits, f"suits turned so far: {deck.suits}")
            )
    if "known" in have:
        blocks.append(
            SeatCards(
                "known",
                deck,
                n_seats,
                f"cards known in each relative seat's hand: {faces} faces per seat",
                _known_pairs,
            )
        )
    for name, doc in (("roem_seat", "the seat whose declarations score"),):
        if name in have:
            blocks.append(SeatOneHot(name, n_seats, f"{doc}, by relative seat"))
    if "stuk" in have and have["stuk"] == "int | None":
        blocks.append(SeatOneHot("stuk", n_seats, "the seat that said stuk"))
    per_seat = (
        ("lives", 10, "lives left per relative seat / 10"),
        ("hand_sizes", faces, f"cards in each relative seat's hand / {faces}"),
        ("roem", 100, "roem this hand per relative seat / 100"),
        ("totals", 1000, "round scores per relative seat / 1000"),
    )
    for name, scale, doc in per_seat:
        if name in have:
            blocks.append(Numbers(name, n_seats, scale, doc))
    numbers = (
        ("stock", faces, f"hidden cards left in the stock / {faces}"),
        ("skart_count", 8, "cards in the skart / 8"),
        ("cards_each", 8, "cards dealt to each seat this deal / 8"),
        ("skart_size", 8, "the skart's size this deal / 8 (-1: not chosen)"),
        ("bid", 100, "the winning bid in points / 100"),
        ("took", 1, "1 when the player took the skart"),
        ("contract", 100, "the points the playing side bid / 100 (Leids)"),
        ("multiplier", 4, "what the deal's scores are multiplied by / 4"),
        ("reserve", 100, "belote's reserve / 100"),
    )
    for name, scale, doc in numbers:
        if name in have:
            blocks.append(Number(name, scale, doc))
    return blocks


def _cards(field: str, deck: Deck, doc: str) -> Block:
    """A card field that holds a tuple of cards, or one card, or None."""
    return _OneOrMany(field, deck, doc)


class _OneOrMany(Cards):
    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        value = getattr(view, self.field)
        if isinstance(value, str):
            value = (value,)
        if value:
            super().write_cards(value, base, idx, val)


class _Suits(Choice):
    """Several of the suits (a tuple of letters), each marked."""

    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        for suit in getattr(view, self.field):
            self.write_value(suit, base, idx, val)


def _known_pairs(view: View) -> Iterable[tuple[int, str]]:
    known: Sequence[Sequence[str]] = getattr(view, "known")  # noqa: B009
    return [(seat, card) for seat, cards in enumerate(known) for card in cards]
