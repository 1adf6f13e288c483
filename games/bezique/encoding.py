"""The Bezique family's encoding for learning bots (``docs/ENCODING.md``, bezique).

One encoder for Bezique, Binage, Marjolet, Rubicon and Fildinski: the kit's
trick blocks (:func:`games.encoding.trick_blocks`) and then the family's
fields: the turned card, the cards each seat has shown on the table, the won
cards (Fildinski), hand sizes, the stock and this deal's points. A card of a
double or quadruple pack counts as the share of its copies. The game's
``Game.encoding`` hook calls :func:`bezique_encoding`; this module imports no
game module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields

from games.cards import Deck
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

__all__ = ["PHASES", "VERSION", "bezique_encoding"]

#: The layout's version: raise it when an entry's meaning changes.
VERSION = 1
#: The View's ``phase`` values (``FamilyView.phase``).
PHASES = ("stock", "meld", "final", "over")


def bezique_encoding(
    game: Game, n_seats: int, deck: Deck, words: Iterable[str], view_class: type[View]
) -> BlockEncoding:
    """The encoding of a Bezique-family ``game``: ``deck``'s faces and ``words``.

    :param words: every other action (``pass``, ``dix``, each ``meld:``, a
        card played from the table, ``7C*``).
    """
    return card_game_encoding(
        game,
        n_seats,
        version=VERSION,
        deck=deck,
        words=words,
        view_class=view_class,
        family=_family_blocks,
        phases=PHASES,
        score_scale=1000,
    )


def _family_blocks(view_class: type[View], deck: Deck, n_seats: int) -> list[Block]:
    have = {f.name for f in fields(view_class)}
    faces = len(deck.faces)
    blocks: list[Block] = [
        _Turned("turned", deck, f"the turned card: {faces} faces"),
        SeatCards(
            "shown",
            deck,
            n_seats,
            f"cards shown on the table per relative seat: {faces} faces",
            _shown_pairs,
        ),
    ]
    if "won" in have:
        blocks.append(
            SeatCards(
                "won",
                deck,
                n_seats,
                f"the cards each relative seat has won: {faces} faces",
                _won_pairs,
            )
        )
    cards = len(deck.cards)
    blocks += [
        Numbers("hand_sizes", n_seats, 16, "cards in each relative seat's hand / 16"),
        Number("stock", cards, f"cards left in the stock / {cards}"),
        Numbers("points", n_seats, 1000, "this deal's points per relative seat / 1000"),
    ]
    return blocks


class _Turned(Cards):
    def write(
        self, view: View, base: int, me: int, idx: list[int], val: list[float]
    ) -> None:
        card = getattr(view, self.field)
        if card is not None:
            self.write_cards((card,), base, idx, val)


def _shown_pairs(view: View) -> Iterable[tuple[int, str]]:
    shown: Sequence[Sequence[tuple[str, object]]] = getattr(view, "shown")  # noqa: B009
    return [(seat, entry[0]) for seat, cards in enumerate(shown) for entry in cards]


def _won_pairs(view: View) -> Iterable[tuple[int, str]]:
    won: Sequence[Sequence[str]] = getattr(view, "won")  # noqa: B009
    return [(seat, card) for seat, cards in enumerate(won) for card in cards]
