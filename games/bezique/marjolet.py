"""Marjolet for two (seed 000 line 215): 32 cards, six each, several melds a trick.

The family base (:mod:`games.bezique.family`) with Marjolet's parameters: one
piquet pack, six cards each, a turned trump (a turned 7 scores 10 for the
dealer), brisques and the trump 7, several combinations per trick won (also in
the final phase), only the exact same combination barred (no re-use rule),
10 for drawing the last stock card, 10 for the last trick and 40 more for all
six tricks of the final phase; the first to reach 500 wins. Rulings M1, M2, ...
in ``games/bezique/RULES.md``.
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
from games.bezique.melds import Kind, marjolet_kinds
from games.cards import PIQUET
from harness import Option

__all__ = ["Marjolet", "MarjoletState", "MarjoletView"]

#: What drawing the last card of the stock scores (seed 000 line 249).
LAST_CARD = 10
#: What winning all six tricks of the final phase adds (seed 000 line 251).
ALL_SIX = 40


@dataclass(frozen=True)
class MarjoletView(FamilyView):
    """What one Marjolet seat knows (the family's view)."""


class MarjoletState(FamilyState):
    """The referee's truth of one Marjolet match."""

    RULES = PIQUET_RULES
    HAND = 6
    SEVERAL = True
    REUSE_RULE = False
    MELDS_IN_FINAL = True
    ENDS_AT_ONCE = True
    VIEW = MarjoletView

    game: Marjolet

    def _last_draw(self, winner: int) -> None:
        """Seed 000 line 249 (M6): who draws the last card, the turned trump or
        the 7, scores 10: the loser of the stock's last trick; in the variant of
        line 259, its winner."""
        seat = winner if self.game.options["last_card"] == "winner" else 1 - winner
        self._points[seat] += LAST_CARD
        self._note(f"seat {seat} scores {LAST_CARD} for the last card of the stock")

    def _deal_bonus(self) -> None:
        """Seed 000 line 251 (M7): 40 more for winning all six final tricks."""
        winners = {record[2] for record in self._tricks[-self.HAND :]}
        if len(winners) == 1:
            (seat,) = winners
            self._points[seat] += ALL_SIX
            self._note(f"seat {seat} took all six last tricks: {ALL_SIX} more")

    def _final_line(self) -> str:
        return (
            "the stock is empty: follow suit and beat from now on; combinations "
            "may still be declared"
        )


class Marjolet(FamilyGame):
    """Marjolet for two: 32 cards, six each, several combinations per trick won."""

    name = "marjolet"
    view_class = MarjoletView
    description = (
        "One piquet pack, six cards each: several combinations per trick won; the first"
        " to 500 wins at once"
    )
    title = "Marjolet (2 players, 32 cards)"
    check_options = {"target": 300}  # noqa: RUF012 - two or three deals
    STATE = MarjoletState
    action_kinds = family_moves(
        PIQUET, (marjolet_kinds(t, v) for t in range(4) for v in (False, True))
    )
    option_specs = (
        Option(
            "marias",
            "king-queen",
            doc="which pair is the marias (the variant of seed 000 line 257)",
            choices=("king-queen", "jack-queen"),
            choice_docs={
                "king-queen": "the marias is the king and queen of a plain suit",
                "jack-queen": "the marias is the jack and queen of a plain suit",
            },
        ),
        Option(
            "last_card",
            "loser",
            doc=(
                "who scores 10 at the last draw: 'loser' of the stock's last trick "
                "(who draws the last card, line 249) or its 'winner' (line 259)"
            ),
            choices=("loser", "winner"),
            # Spelled last-card before issue #25; old databases record that.
            aliases=("last-card",),
            recorded_as="last-card",
        ),
        Option(
            "target",
            500,
            doc="the first seat whose total reaches this wins, at once (M1)",
            minimum=1,
        ),
    )

    def combinations(self, trump: int) -> tuple[Kind, ...]:
        """Seed 000 lines 237-244 (and the marias variant of line 257)."""
        return marjolet_kinds(trump, self.options["marias"] == "jack-queen")
