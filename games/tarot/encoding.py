"""The tarot family's encoding for learning bots (``docs/ENCODING.md``, tarot).

One encoder for Maison Tarot, La Rigueur, Maison Troggen and Triomphe
Forcée: the kit's trick blocks (:func:`games.encoding.trick_blocks`; the
trumps are the fifth suit ``T`` of the pack, so no trump segment) and then
the family's fields, each when the View has it: the dealer's discard
(Troggen), the declarations and the pot (Triomphe Forcée). The game's
``Game.encoding`` hook calls :func:`tarot_encoding`; this module imports no
game module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields

from games.cards import TAROT, Deck
from games.encoding import (
    Block,
    BlockEncoding,
    Cards,
    Number,
    Numbers,
    SeatCards,
    card_game_encoding,
)
from harness.contracts.game import Game
from harness.contracts.view import View

__all__ = ["VERSION", "tarot_encoding"]

#: The layout's version: raise it when an entry's meaning changes.
VERSION = 1


def tarot_encoding(
    game: Game, n_seats: int, words: Iterable[str], view_class: type[View]
) -> BlockEncoding:
    """The encoding of a tarot ``game``: the 78 faces and ``words``.

    :param words: every action that is not a card (``discard 1H``,
        ``declare 13T``).
    """
    return card_game_encoding(
        game,
        n_seats,
        version=VERSION,
        deck=TAROT,
        words=words,
        view_class=view_class,
        family=_family_blocks,
        score_scale=100,
    )


def _family_blocks(view_class: type[View], deck: Deck, n_seats: int) -> list[Block]:
    have = {f.name for f in fields(view_class)}
    faces = len(deck.faces)
    blocks: list[Block] = []
    if "discard" in have:
        blocks.append(Cards("discard", deck, f"the cards this seat discarded: {faces}"))
        blocks.append(Number("discarded", 3, "cards the dealer has discarded / 3"))
    if "declarations" in have:
        blocks.append(
            SeatCards(
                "declarations",
                deck,
                n_seats,
                f"the cards each relative seat declared: {faces} faces",
                _declared_pairs,
            )
        )
    if "pot" in have:
        blocks.append(Number("pot", 100, "chips in the pot / 100"))
    if "deal_chips" in have:
        blocks.append(
            Numbers("deal_chips", n_seats, 100, "this deal's chips per seat / 100")
        )
    return blocks


def _declared_pairs(view: View) -> Iterable[tuple[int, str]]:
    declared: Sequence[tuple[int, str]] = getattr(view, "declarations")  # noqa: B009
    return declared
