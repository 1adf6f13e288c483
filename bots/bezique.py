"""A rule-of-thumb bot for the Bezique family (``bezique``).

It keeps meld material (trump cards, the bezique pair, kings and queens, aces
and tens), declares the best combination it may, wins brisques (aces and tens)
cheaply, and in the final phase, where the other hand is exactly the cards not
yet seen (RULES.md R9), leads what cannot be beaten and otherwise beats as
cheaply as it can.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.bezique.bezique import BeziqueView
from games.cards import BEZIQUE
from harness import Bot, View, hookimpl

__all__ = ["BeziqueBot"]

_RANKS = "789JQKTA"
_MELD_VALUES = {
    "trumps": 250,
    "aces": 100,
    "kings": 80,
    "queens": 60,
    "jacks": 40,
    "stuk": 40,
    "bezique": 40,
    "double-bezique": 500,
}


class BeziqueBot(Bot):
    """Heuristic Bezique: keep meld material, declare the best, count cards."""

    name = "bezique-heuristic"
    games = frozenset({"bezique"})

    def act(self, view: View) -> str:
        """The heuristic's choice among ``view.legal_actions``."""
        if not isinstance(view, BeziqueView):
            raise TypeError(f"bezique-heuristic plays bezique, not {view!r}")
        legal = view.legal_actions
        if view.phase == "meld":
            return max(legal, key=_meld_value)
        trump = view.trump or ""
        if view.phase == "final":
            return self._final(view, legal, trump)
        return self._stock(view, legal, trump)

    def _keep(self, card: str, trump: str, view: BeziqueView) -> int:
        """How much a card is worth keeping in the stock phase."""
        rank, suit = card[0], card[1]
        value = _RANKS.index(rank)
        if rank in "AT":
            value += 10
        if suit == trump:
            value += 6
            if rank == "7" and view.turned is not None and view.turned[0] != "7":
                value += 8  # keep it for the dix
        if card in _bezique_pair(self.game.options.get("variant"), trump):
            value += 8
        if rank in "KQ":
            value += 3
        return value

    def _stock(self, view: BeziqueView, legal: Sequence[str], trump: str) -> str:
        def keep(card: str) -> int:
            return self._keep(card, trump, view)

        if not view.trick:
            return min(legal, key=keep)
        led = view.trick[0][1]
        winners = [c for c in legal if _beats(c, led, trump)]
        if winners:
            best = min(winners, key=keep)
            if led[0] in "AT" or keep(best) < 8:
                return best
        return min(legal, key=keep)

    def _final(self, view: BeziqueView, legal: Sequence[str], trump: str) -> str:
        if view.trick:
            led = view.trick[0][1]
            winners = [c for c in legal if _beats(c, led, trump)]
            if winners:
                return min(winners, key=lambda c: _strength(c, trump))
            return min(legal, key=lambda c: (c[0] in "AT", _strength(c, trump)))
        other = _unseen(view)
        safe = [c for c in legal if not _can_beat(other, c, trump)]
        if safe:
            return max(safe, key=lambda c: (c[0] in "AT", _strength(c, trump)))
        return min(legal, key=lambda c: (c[0] in "AT", _strength(c, trump)))


def _meld_value(action: str) -> int:
    if action == "pass":
        return 0
    if action == "dix":
        return 10
    kind = action.removeprefix("meld:")
    return _MELD_VALUES.get(kind, 20)


def _bezique_pair(variant: object, trump: str) -> tuple[str, str]:
    if variant == "klaverjas-hartendame" and trump in "DS":
        return ("JC", "QH")
    return ("JD", "QS")


def _strength(card: str, trump: str) -> int:
    return _RANKS.index(card[0]) + (8 if card[1] == trump else 0)


def _beats(card: str, led: str, trump: str) -> bool:
    """Whether ``card`` played second takes the trick ``led`` opened."""
    if card[1] == led[1]:
        return _RANKS.index(card[0]) > _RANKS.index(led[0])
    return card[1] == trump


def _can_beat(hand: Sequence[str], led: str, trump: str) -> bool:
    """Whether ``hand`` answering ``led`` under follow-and-beat takes the trick:
    it must follow suit when it can (then only a higher card wins), else trump."""
    follow = [c for c in hand if c[1] == led[1]]
    return any(_beats(c, led, trump) for c in (follow or hand))


def _unseen(view: BeziqueView) -> list[str]:
    """The cards this seat has not seen: in the final phase, the other hand."""
    left = Counter(BEZIQUE.cards)
    left.subtract(view.hand)
    for record in view.tricks:
        left.subtract(record[1])
    left.subtract(card for _, card in view.trick)
    return [card for card, n in left.items() for _ in range(max(n, 0))]


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the bezique heuristic bot."""
    return [BeziqueBot]
