"""A rule-of-thumb bot for the jass family's stock games: Smousjas, Vijfhonderden.

It reads only its view. Extra moves: it exchanges the trump 7 whenever it may,
declares every mariage, declares the best run of each suit and every carré
(points now beat hiding them), and challenges whenever the rules let it (the
challenge scores its own declaration and cancels the leader's). Phase 1: it
keeps the cards of its runs, carrés and mariages and its high trumps; it wins
a trick when the trick is worth it or when it has something to declare (only
the leader declares), as cheaply as it can; else it throws its least useful
card. At the last draw it takes the open trump when it is a jack, nine or ace.
Phase 2: it counts cards (the other hand is every card not seen) and plays
the card whose trick, against the other's best legal answer, gains most.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness import Bot, View, hookimpl

__all__ = ["StockJassBot"]

PLAIN = "789TJQKA"
TRUMP = "78TQKA9J"
_POINTS = {
    "smousjas": ({"T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}, {"9": 14, "J": 20}),
    "vijfhonderden": ({"T": 10, "J": 1, "Q": 2, "K": 3, "A": 11}, {"9": 14, "J": 20}),
}
_ALL = tuple(r + s for s in "CDHS" for r in PLAIN)


class StockJassBot(Bot):
    """Heuristic player of Smousjas and Vijfhonderden (see the module docstring)."""

    name = "stock-jass"
    description = (
        "Rules of thumb: declares all it may, keeps its melds and high trumps, counts "
        "cards once the stock is gone"
    )
    games = frozenset({"smousjas", "vijfhonderden"})

    def act(self, view: View) -> str:
        """The action the rules of thumb pick among ``view.legal_actions``."""
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        trump: str = view.trump  # type: ignore[attr-defined]
        plain, trumps = _POINTS.get(self.game.name, _POINTS["smousjas"])
        self._trump = trump
        self._plain, self._trumps = plain, trumps
        if "draw:open" in legal:
            open_card: str = view.open_card  # type: ignore[attr-defined]
            return "draw:open" if open_card[0] in "J9A" else "draw:stock"
        if "exchange" in legal:
            return "exchange"
        extras = [a for a in legal if ":" in a or a in ("stuk", "dubbel")]
        for prefix in ("stuk", "dubbel", "brok:", "afkeuren:", "roem:"):
            picks = [a for a in extras if a.startswith(prefix)]
            if picks:
                return max(picks, key=_decl_value)
        cards = [a for a in legal if a not in extras and a != "exchange"]
        phase: str = view.phase  # type: ignore[attr-defined]
        if phase == "final":
            return self._final(view, cards)
        return self._stock(view, cards)

    # -- card values ----------------------------------------------------------

    def _points(self, card: str) -> int:
        if card[1] == self._trump:
            return self._trumps.get(card[0], self._plain.get(card[0], 0))
        return self._plain.get(card[0], 0)

    def _strength(self, card: str) -> int:
        if card[1] == self._trump:
            return 10 + TRUMP.index(card[0])
        return PLAIN.index(card[0])

    def _beats(self, card: str, best: str) -> bool:
        """Whether ``card`` takes the trick from ``best`` (the led card)."""
        if card[1] == best[1]:
            return self._strength(card) > self._strength(best)
        return card[1] == self._trump

    def _keep(self, card: str, hand: Sequence[str]) -> float:
        """How much ``card`` is worth keeping: points, trump strength, and the
        runs, carrés and mariages it helps make."""
        value = self._points(card) / 2
        if card[1] == self._trump:
            value += 4 + TRUMP.index(card[0])
        rank, suit = card[0], card[1]
        i = PLAIN.index(rank)
        neighbours = sum(
            1 for d in (-2, -1, 1, 2) if 0 <= i + d < 8 and PLAIN[i + d] + suit in hand
        )
        value += 3 * neighbours
        value += 2 * sum(1 for s in "CDHS" if rank + s in hand and s != suit)
        if rank in "KQ":
            partner = ("Q" if rank == "K" else "K") + suit
            if partner in hand:
                value += 8
        return value

    # -- phase 1 ----------------------------------------------------------------

    def _stock(self, view: View, cards: list[str]) -> str:
        hand: tuple[str, ...] = view.hand  # type: ignore[attr-defined]
        trick: tuple[tuple[int, str], ...] = view.trick  # type: ignore[attr-defined]
        keep = {c: self._keep(c, hand) for c in cards}
        if not trick:
            return min(cards, key=lambda c: (keep[c], self._points(c)))
        led = trick[0][1]
        worth = self._points(led)
        winners = [c for c in cards if self._beats(c, led)]
        want = worth >= 10 or self._has_roem(hand)
        if winners and want:
            cheapest = min(winners, key=lambda c: keep[c] + self._points(c) / 4)
            if keep[cheapest] < 12 + worth:
                return cheapest
        losers = [c for c in cards if not self._beats(c, led)] or cards
        return min(losers, key=lambda c: (keep[c] + self._points(c), c))

    def _has_roem(self, hand: Sequence[str]) -> bool:
        for suit in "CDHS":
            run = 0
            for rank in PLAIN:
                run = run + 1 if rank + suit in hand else 0
                if run >= 3:
                    return True
        return any(sum(1 for s in "CDHS" if r + s in hand) == 4 for r in PLAIN)

    # -- phase 2: every card is known ----------------------------------------------

    def _final(self, view: View, cards: list[str]) -> str:
        hand: tuple[str, ...] = view.hand  # type: ignore[attr-defined]
        trick: tuple[tuple[int, str], ...] = view.trick  # type: ignore[attr-defined]
        tricks = view.tricks  # type: ignore[attr-defined]
        seen = set(hand) | {c for _, c in trick}
        for record in tricks:
            seen.update(record[1])
        theirs = [c for c in _ALL if c not in seen]
        if trick:
            led = trick[0][1]
            worth = self._points(led)
            winners = [c for c in cards if self._beats(c, led)]
            if winners and (worth >= 10 or len(hand) == 1 or len(cards) > 1):
                return min(winners, key=lambda c: (self._points(c), self._strength(c)))
            return min(cards, key=lambda c: (self._points(c), self._strength(c)))

        def gain(card: str) -> int:
            answers = self._answers(card, theirs)
            worst = None
            for a in answers:
                pts = self._points(card) + self._points(a)
                g = -pts if self._beats(a, card) else pts
                worst = g if worst is None else min(worst, g)
            return worst if worst is not None else self._points(card)

        return max(cards, key=lambda c: (gain(c), -self._strength(c)))

    def _answers(self, led: str, hand: list[str]) -> list[str]:
        """The other hand's legal answers to ``led`` under the phase-2 duties."""
        follow = [c for c in hand if c[1] == led[1]]
        if follow:
            if led[1] == self._trump:
                over = [c for c in follow if self._beats(c, led)]
                return over or follow
            return follow
        trumps = [c for c in hand if c[1] == self._trump]
        return trumps or hand


def _decl_value(action: str) -> tuple[int, str]:
    """Longer runs and carrés first (``roem:QS4`` before ``roem:QS3``)."""
    tail = action.split(":")[-1]
    if len(tail) == 4 and tail[0] == tail[1]:
        return 45, action
    if tail[-1].isdigit():
        return int(tail[-1]) * 10 + PLAIN.index(tail[0]), action
    return 0, action


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the stock-jass bot."""
    return [StockJassBot]
