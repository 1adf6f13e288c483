"""A rule-of-thumb bot for the Bezique family (``bezique``).

It keeps meld material (trump cards, the bezique pair, kings and queens, aces
and tens), declares the best combination it may, wins brisques (aces and tens)
cheaply, and in the final phase, where the other hand is exactly the cards not
yet seen (RULES.md R9), leads what cannot be beaten and otherwise beats as
cheaply as it can.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from games.bezique.family import FamilyView
from games.bezique.fildinski import FildinskiView
from games.cards import BEZIQUE, RUBICON
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
    # Rubicon (seed 000 lines 64-77) and Fildinski (lines 28-29).
    "highest": 150,
    "tens": 90,
    "triple-bezique": 1500,
    "quadruple-bezique": 4500,
    "carte-blanche": 50,
    "fildinski": 40,
    "double-fildinski": 500,
}


class BeziqueBot(Bot):
    """Heuristic Bezique: keep meld material, declare the best, count cards."""

    name = "bezique-heuristic"
    games = frozenset({"bezique", "rubicon", "fildinski"})

    def act(self, view: View) -> str:
        """The heuristic's choice among ``view.legal_actions``."""
        if not isinstance(view, FamilyView):
            raise TypeError(f"bezique-heuristic plays bezique, not {view!r}")
        legal = view.legal_actions
        if view.phase == "meld":
            if self.game.name == "rubicon":
                return _rubicon_meld(view, legal)
            return max(legal, key=_meld_value)
        trump = view.trump or ""
        if view.phase == "final":
            return self._final(view, legal, trump)
        if isinstance(view, FildinskiView):
            return _fildinski_stock(view, legal, trump, self.game.options)
        return self._stock(view, legal, trump)

    def _keep(self, card: str, trump: str, view: FamilyView) -> int:
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

    def _stock(self, view: FamilyView, legal: Sequence[str], trump: str) -> str:
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

    def _final(self, view: FamilyView, legal: Sequence[str], trump: str) -> str:
        if view.trick:
            led = view.trick[0][1]
            winners = [c for c in legal if _beats(c, led, trump)]
            if winners:
                return min(winners, key=lambda c: _strength(c, trump))
            return min(legal, key=lambda c: (c[0] in "AT", _strength(c, trump)))
        other = _unseen(view, self.game.name == "rubicon")
        safe = [c for c in legal if not _can_beat(other, c, trump)]
        if safe:
            return max(safe, key=lambda c: (c[0] in "AT", _strength(c, trump)))
        return min(legal, key=lambda c: (c[0] in "AT", _strength(c, trump)))


def _meld_value(action: str) -> int:
    if action == "pass":
        return 0
    if action == "dix":
        return 10
    # "marias:H", "highest:C", the variant's "bezique:S": the kind before ":".
    kind = action.removeprefix("meld:").split(":")[0]
    return _MELD_VALUES.get(kind, 20)


def _rubicon_meld(view: FamilyView, legal: Sequence[str]) -> str:
    """Rubicon: declare everything, cheapest first (the re-use rule lets a card
    climb to a dearer combination, never down: RULES.md RU6); before trump, the
    first marias (it sets trump, RU3) in the suit the hand is longest in."""
    melds = [a for a in legal if a != "pass"]
    if not melds:
        return "pass"
    if view.trump is None:
        setting = [a for a in melds if a.startswith(("meld:marias:", "meld:bezique:"))]
        if setting:
            return max(setting, key=lambda a: _suit_strength(view.hand, a[-1]))
    return min(melds, key=_meld_value)


def _suit_strength(hand: Sequence[str], suit: str) -> int:
    """How good ``suit`` would be as trump for ``hand``: its cards, high ones more."""
    return sum(1 + _RANKS.index(c[0]) // 4 for c in hand if c[1] == suit)


def _fildinski_stock(
    view: FildinskiView, legal: Sequence[str], trump: str, options: Mapping[str, object]
) -> str:
    """Fildinski's stock phase: the cards a seat wins are its meld material
    (RULES.md FI2), so take tricks whose cards complete a combination with the
    won cards (or are brisques), and give away cards that complete nothing of
    the other's won cards."""
    me = view.seat
    mine = _pile(view.won[me])
    theirs = _pile(view.won[1 - me])
    variant = options.get("variant")
    pair = _bezique_pair(variant, trump)

    def gain(card: str, pile: Counter[str]) -> int:
        return _completes(card, pile, trump, pair) + (10 if card[0] in "AT" else 0)

    def give(card: str) -> int:
        """What losing ``card`` to the other seat costs."""
        return gain(card, theirs) + _strength(card, trump)

    if view.trick:
        led = view.trick[0][1]
        winners = [c for c in legal if _beats(c, led, trump)]
        if winners:
            best = max(winners, key=lambda c: gain(c, mine) - _strength(c, trump))
            value = gain(led, mine) + gain(best, mine) + gain(led, theirs)
            if value > 0:
                return best
        return min(legal, key=give)
    return min(legal, key=lambda c: give(c) - gain(c, mine) // 2)


def _pile(won: Sequence[str]) -> Counter[str]:
    """A seat's won cards by name."""
    return Counter(won)


def _completes(card: str, pile: Counter[str], trump: str, pair: tuple[str, str]) -> int:
    """The best combination ``card`` would make with the won cards ``pile``."""
    rank, suit = card[0], card[1]
    best = 0
    if rank in "KQ":
        other = ("Q" if rank == "K" else "K") + suit
        if pile[other]:
            best = 40 if suit == trump else 20
    if card in pair:
        other = pair[1] if card == pair[0] else pair[0]
        if pile[other]:
            best = max(best, 500 if pile[other] > 1 and pile[card] else 40)
    if rank in "AKQJ" and all(pile[rank + s] for s in "CDHS" if s != suit):
        best = max(best, {"A": 100, "K": 80, "Q": 60, "J": 40}[rank])
    if suit == trump and rank in "ATKQJ":
        if all(pile[r + suit] for r in "ATKQJ" if r != rank):
            best = max(best, 250)
    return best


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


def _unseen(view: FamilyView, rubicon: bool = False) -> list[str]:
    """The cards this seat has not seen: in the final phase, the other hand."""
    left = Counter(RUBICON.cards if rubicon else BEZIQUE.cards)
    left.subtract(view.hand)
    for record in view.tricks:
        left.subtract(record[1])
    left.subtract(card for _, card in view.trick)
    return [card for card, n in left.items() for _ in range(max(n, 0))]


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the bezique heuristic bot."""
    return [BeziqueBot]
