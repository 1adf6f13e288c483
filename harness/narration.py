"""A match told as it is played or replayed: what ``troef play`` and ``replay`` print.

The :class:`Narrator` keeps its own State of the match and advances it with
``State.narrate`` as each action comes, so ``troef play`` can print every move
the moment it is made (the referee calls it back), and ``troef replay`` tells a
stored log the same way. Seats are called by the labels of their bots.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from harness.game import Game
from harness.result import Forfeit

__all__ = ["Narrator", "seat_labels"]

_SEAT = re.compile(r"\bseat (\d+)\b")


def seat_labels(names: Sequence[str]) -> list[str]:
    """Bot names as seat labels: a name twice at the table gets its seat added."""
    return [
        name if names.count(name) == 1 else f"{name}#{seat}"
        for seat, name in enumerate(names)
    ]


class Narrator:
    """Tells one match move by move, from its seed, as a person would follow it."""

    def __init__(
        self,
        game: Game,
        seed: int,
        labels: Sequence[str],
        *,
        show_hands: bool = False,
    ) -> None:
        self.game = game
        self.seed = seed
        self.labels = list(labels)
        self.show_hands = show_hands
        self.state = game.new_match(len(labels), seed)
        self._deal = -1

    def start(self) -> list[str]:
        """The opening lines: the game, the seed, who sits where; the first deal."""
        seats = ", ".join(
            f"{label} (seat {seat})" for seat, label in enumerate(self.labels)
        )
        lines = [f"{self.game.title}, seed {self.seed}, {len(self.labels)} seats"]
        lines.append(f"seats: {seats}")
        return lines + self._new_deal()

    def tell(self, action: str) -> list[str]:
        """Apply ``action`` to the told match; the lines that say what happened."""
        lines = [self._named(line) for line in self.state.narrate(action)]
        if not self.state.is_over():
            lines += self._new_deal()
        return lines

    def forfeit(self, forfeit: Forfeit) -> str:
        """The line that says who forfeited and why."""
        who = self.labels[forfeit.seat]
        return f"{who} forfeits ({forfeit.reason.value}): {forfeit.detail.strip()}"

    def _named(self, line: str) -> str:
        return _SEAT.sub(lambda m: self._label(int(m.group(1))), line)

    def _label(self, seat: int) -> str:
        return self.labels[seat] if 0 <= seat < len(self.labels) else f"seat {seat}"

    def _new_deal(self) -> list[str]:
        """A header when a new deal has begun; with the hands when asked."""
        deal = self.state.deal
        if deal == self._deal:
            return []
        self._deal = deal
        lines = [f"-- deal {deal} --"]  # counted from 0, as the games narrate
        if self.show_hands:
            places = self.state.card_locations()
            for seat, label in enumerate(self.labels):
                cards = places.get(f"hand:{seat}", ())
                lines.append(f"  {label}: {' '.join(cards) if cards else '-'}")
        return lines
