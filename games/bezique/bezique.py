"""Bezique for two (seed 000 line 93): 64 cards, a turned trump, melds, two phases.

The rules as implemented and every ruling are in ``games/bezique/RULES.md``
(cited here as R1, R2, ...). The game is the family base
(:mod:`games.bezique.family`) with Bezique's parameters: two piquet packs
(:data:`games.cards.BEZIQUE`, two copies of each card side by side), eight cards
each, a turned trump, brisques, the trump 7, the dix, one combination per trick
won under the re-use rule (:mod:`games.bezique.melds`), 10 for the last trick.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.bezique.family import FamilyGame, FamilyState, FamilyView, family_moves
from games.bezique.melds import Kind, bezique_kinds
from games.cards import BEZIQUE, CardMask
from games.tricks import TrickRules
from harness import Option

__all__ = ["Bezique", "BeziqueState", "BeziqueView", "bezique_names", "distinct_names"]

#: Brisques: each ace and ten won scores 10 at once (seed 000 line 109).
RULES = TrickRules(
    BEZIQUE,
    plain_order="789JQKTA",
    trump_order="789JQKTA",
    plain_points={"A": 10, "T": 10},
    last_trick=10,
)
_C0, _C1, _C2, _C3, _C4, _C5, _C6, _C7 = BEZIQUE.name_chunks
#: The chunks without repeats: a card's two copies share a chunk of 8 bits.
_D0, _D1, _D2, _D3, _D4, _D5, _D6, _D7 = (
    tuple(tuple(dict.fromkeys(names)) for names in chunk)
    for chunk in BEZIQUE.name_chunks
)


def bezique_names(mask: CardMask) -> tuple[str, ...]:
    """``BEZIQUE.names(mask)`` unrolled over its eight chunks (the hot path of
    the views of the 64-card games, Bezique and Fildinski).

    A mask of 64 bits is a multi-digit int, each shift and ``&`` of which makes
    a new one: its bytes are read once instead (a third fewer instructions),
    and the names are gathered in one tuple instead of seven partial ones.
    """
    b0, b1, b2, b3, b4, b5, b6, b7 = mask.to_bytes(8, "little")
    return (
        *_C0[b0], *_C1[b1], *_C2[b2], *_C3[b3],
        *_C4[b4], *_C5[b5], *_C6[b6], *_C7[b7],
    )  # fmt: skip


def distinct_names(mask: CardMask) -> tuple[str, ...]:
    """The distinct names of ``mask`` in :data:`~games.cards.BEZIQUE` order: the
    legal card actions of the 64-card games (read as :func:`bezique_names`)."""
    b0, b1, b2, b3, b4, b5, b6, b7 = mask.to_bytes(8, "little")
    return (
        *_D0[b0], *_D1[b1], *_D2[b2], *_D3[b3],
        *_D4[b4], *_D5[b5], *_D6[b6], *_D7[b7],
    )  # fmt: skip


@dataclass(frozen=True)
class BeziqueView(FamilyView):
    """What one Bezique seat knows (the family's view, unchanged)."""


class BeziqueState(FamilyState):
    """The referee's truth of one Bezique match (the family's defaults)."""

    RULES = RULES
    VIEW = BeziqueView

    game: Bezique

    def _blank(self, game: FamilyGame, seed: int) -> None:
        super()._blank(game, seed)
        # The engine names a hand's legal cards with this when any card goes.
        self._names = distinct_names
        self._hand_names = bezique_names


# -- the game -------------------------------------------------------------------


class Bezique(FamilyGame):
    """Bezique for two: 64 cards, a turned trump, one combination per trick won."""

    name = "bezique"
    view_class = BeziqueView
    description = (
        "Two piquet packs and a turned trump: brisques and one combination per trick "
        "won, then follow and beat once the stock is gone"
    )
    title = "Bezique (2 players, 64 cards)"
    check_options = {"target": 500}  # noqa: RUF012 - two or three deals
    STATE = BeziqueState
    action_kinds = family_moves(
        BEZIQUE, (bezique_kinds(t, v) for t in range(4) for v in (False, True))
    )
    option_specs = (
        Option(
            "variant",
            "standard",
            doc="which pair is the bezique (seed 000 line 139)",
            choices=("standard", "klaverjas-hartendame"),
            choice_docs={
                "standard": "the bezique is the jack of diamonds and queen of spades",
                "klaverjas-hartendame": "the jack of clubs and queen of hearts when "
                "diamonds or spades is trump",
            },
        ),
        Option(
            "target",
            1000,
            doc="the match ends after the deal in which a seat reaches this total (R1)",
            minimum=1,
        ),
    )

    def combinations(self, trump: int) -> tuple[Kind, ...]:
        """Seed 000 lines 114-122 (and the variant of line 139)."""
        return bezique_kinds(trump, self.options["variant"] == "klaverjas-hartendame")
