"""Binage / Cinq Cents for two (seed 000 line 261): 32 cards, eight each.

The family base (:mod:`games.bezique.family`) with Binage's parameters: one
piquet pack, eight cards each, a turned trump (a turned 7 scores 10 for the
dealer), brisques and the trump 7, one combination per trick won and no fours,
only the exact same combination barred (no re-use rule), no melds after the
last draw, 10 for the last trick; the first to reach 500 wins. Rulings BI1,
BI2, ... in ``games/bezique/RULES.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.bezique.family import (
    PIQUET_RULES,
    FamilyGame,
    FamilyState,
    FamilyView,
    family_moves,
)
from games.bezique.melds import Kind, binage_kinds
from games.cards import PIQUET
from harness import Option

__all__ = ["Binage", "BinageState", "BinageView"]


@dataclass(frozen=True)
class BinageView(FamilyView):
    """What one Binage seat knows (the family's view)."""


class BinageState(FamilyState):
    """The referee's truth of one Binage match."""

    RULES = PIQUET_RULES
    HAND = 8
    REUSE_RULE = False
    ENDS_AT_ONCE = True
    VIEW = BinageView

    game: Binage


class Binage(FamilyGame):
    """Binage for two: 32 cards, eight each, one combination per trick won."""

    name = "binage"
    view_class = BinageView
    description = (
        "One piquet pack, eight cards each: one combination per trick won, no fours; "
        "the first to 500 wins at once"
    )
    title = "Binage / Cinq Cents (2 players, 32 cards)"
    check_options = {"target": 250}  # noqa: RUF012 - two or three deals
    STATE = BinageState
    action_kinds = family_moves(PIQUET, (binage_kinds(t) for t in range(4)))
    option_specs = (
        Option(
            "target",
            500,
            doc="the first seat whose total reaches this wins, at once (BI1)",
            minimum=1,
        ),
    )

    def combinations(self, trump: int) -> tuple[Kind, ...]:
        """Seed 000 lines 281-285."""
        return binage_kinds(trump)
