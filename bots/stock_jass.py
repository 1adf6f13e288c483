"""A rule-of-thumb bot for the jass family's stock games: Smousjas, Vijfhonderden.

It reads only its view. Extra moves: it exchanges the trump 7 whenever it may,
declares every mariage, declares the best run of each suit and every carré
(points now beat hiding them), and challenges whenever the rules let it (the
challenge scores its own declaration and cancels the leader's). Phase 1: it
keeps the cards of the runs, carrés and mariages it can still declare (S8,
S10: not a carré or mariage it declared, a run only above the best it scored
in that suit, a run at most one card short whose card is still to come) and
its high trumps; it wins a trick when the trick is worth it or when it holds
something to declare (only the leader declares), as cheaply as it can; else
it throws its least useful card. At the last draw it takes the open trump
when it is a jack, nine or ace.
Phase 2: it counts cards (the other hand is every card not seen) and plays
the card whose trick, against the other's best legal answer, gains most.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from games.jass.stock import StockConfig, StockGame
from harness import Bot, View, hookimpl

__all__ = ["StockJassBot"]

PLAIN = "789TJQKA"
TRUMP = "78TQKA9J"
_POINTS = {
    "smousjas": ({"T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}, {"9": 14, "J": 20}),
    "vijfhonderden": ({"T": 10, "J": 1, "Q": 2, "K": 3, "A": 11}, {"9": 14, "J": 20}),
}
_ALL = tuple(r + s for s in "CDHS" for r in PLAIN)
_RED = "DH"


@dataclass(frozen=True)
class _Still:
    """What a seat may still declare this hand, read from its view (S8, S10)."""

    #: Per suit, ``(length, top)`` of the best run it scored there (or
    #: announced for the trick on the table): a run counts only above it.
    floor: dict[str, tuple[int, int]]
    #: Ranks whose carré scores in this game and is not declared yet.
    fours: frozenset[str]
    #: The mariages it may still declare (``stuk``, ``dubbel``, ``brok``).
    mariages: frozenset[str]
    #: Cards of the broks it declared: each card serves in one brok only.
    brok_used: frozenset[str]
    #: Cards it will not get: played, on the table, known in the other hand.
    gone: frozenset[str]


def _still(view: View, config: StockConfig) -> _Still:
    """The declarations and mariages ``view.seat`` has not used up, from the
    events (the ones that counted) and its own announcements for this trick,
    which score when the trick is complete."""
    me = view.seat
    done = [what for seat, what, _, _ in view.events if seat == me]  # type: ignore[attr-defined]
    done += view.own_pending  # type: ignore[attr-defined]
    floor: dict[str, tuple[int, int]] = {}
    fours = {r for r, points in config.fours.items() if points}
    mariages = {m for m, points in (("stuk", config.stuk), ("dubbel", config.dubbel),
                                    ("brok", config.brok)) if points}  # fmt: skip
    used: set[str] = set()
    for what in done:
        tail = what.split(":")[-1]
        if what.startswith(("roem:", "afkeuren:")):
            if tail[0] * 4 == tail:
                fours.discard(tail[0])
            else:
                key = (int(tail[2:]), PLAIN.index(tail[0]))
                floor[tail[1]] = max(floor.get(tail[1], (0, -1)), key)
        elif what.startswith("brok:"):
            used.update((tail[:2], tail[2:]))
        else:
            mariages.discard(what)
    gone = {c for record in view.tricks for c in record[1]}  # type: ignore[attr-defined]
    gone.update(c for _, c in view.trick)  # type: ignore[attr-defined]
    gone.update(view.known[1 - me])  # type: ignore[attr-defined]
    return _Still(floor, frozenset(fours), frozenset(mariages), frozenset(used),
                  frozenset(gone))  # fmt: skip


def _run_within_reach(
    suit: str, low: int, high: int, hand: Collection[str], still: _Still
) -> bool:
    """Whether a run of ``suit`` holding ranks ``low`` to ``high`` (indices in
    ``PLAIN``) and ranking above the suit's floor is at most one card short of
    the hand, that card still to come."""
    floor = still.floor.get(suit, (0, -1))
    for length in range(max(3, high - low + 1), 9):
        for start in range(max(0, high - length + 1), min(low, 8 - length) + 1):
            top = start + length - 1
            if (length, top) <= floor:
                continue
            missing = [PLAIN[i] + suit for i in range(start, top + 1)
                       if PLAIN[i] + suit not in hand]  # fmt: skip
            if not missing or (len(missing) == 1 and missing[0] not in still.gone):
                return True
    return False


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

    def _keep(self, card: str, hand: Sequence[str], still: _Still) -> float:
        """How much ``card`` is worth keeping: points, trump strength, and the
        runs, carrés and mariages it helps make that can still be declared."""
        value = self._points(card) / 2
        if card[1] == self._trump:
            value += 4 + TRUMP.index(card[0])
        rank, suit = card[0], card[1]
        i = PLAIN.index(rank)
        value += 3 * sum(
            1
            for d in (-2, -1, 1, 2)
            if 0 <= i + d < 8
            and PLAIN[i + d] + suit in hand
            and _run_within_reach(suit, min(i, i + d), max(i, i + d), hand, still)
        )
        if rank in still.fours and not any(rank + s in still.gone for s in "CDHS"):
            value += 2 * sum(1 for s in "CDHS" if rank + s in hand and s != suit)
        if rank in "KQ":
            value += 8 * len(self._mariages_with(card, hand, still))
        return value

    def _mariages_with(
        self, card: str, hand: Collection[str], still: _Still
    ) -> list[str]:
        """The mariages still to declare that ``card`` makes with a card of
        ``hand`` (S10): the trump king and queen, the Q♦ with the Q♠, a king
        and a queen of different colours not used in a brok."""
        out = []
        rank, suit = card[0], card[1]
        partner = ("Q" if rank == "K" else "K") + suit
        if "stuk" in still.mariages and suit == self._trump and partner in hand:
            out.append("stuk")
        if "dubbel" in still.mariages and card in ("QD", "QS"):
            if ("QS" if card == "QD" else "QD") in hand:
                out.append("dubbel")
        if "brok" in still.mariages and card not in still.brok_used:
            other = "Q" if rank == "K" else "K"
            if any(
                other + s in hand
                and other + s not in still.brok_used
                and (s in _RED) != (suit in _RED)
                for s in "CDHS"
            ):
                out.append("brok")
        return out

    # -- phase 1 ----------------------------------------------------------------

    def _stock(self, view: View, cards: list[str]) -> str:
        hand: tuple[str, ...] = view.hand  # type: ignore[attr-defined]
        trick: tuple[tuple[int, str], ...] = view.trick  # type: ignore[attr-defined]
        assert isinstance(self.game, StockGame)  # the bot's games are both one
        still = _still(view, self.game.config)
        keep = {c: self._keep(c, hand, still) for c in cards}
        if not trick:
            return min(cards, key=lambda c: (keep[c], self._points(c)))
        led = trick[0][1]
        worth = self._points(led)
        winners = [c for c in cards if self._beats(c, led)]
        want = worth >= 10 or self._has_roem(hand, still)
        if winners and want:
            cheapest = min(winners, key=lambda c: keep[c] + self._points(c) / 4)
            if keep[cheapest] < 12 + worth:
                return cheapest
        losers = [c for c in cards if not self._beats(c, led)] or cards
        return min(losers, key=lambda c: (keep[c] + self._points(c), c))

    def _has_roem(self, hand: Sequence[str], still: _Still) -> bool:
        """Whether ``hand`` holds a run or carré it may still declare (S8)."""
        for suit in "CDHS":
            run = 0
            for i, rank in enumerate(PLAIN):
                run = run + 1 if rank + suit in hand else 0
                # The held run ending here, or a part of it above the floor.
                if run >= 3 and (run, i) > still.floor.get(suit, (0, -1)):
                    return True
        return any(
            all(r + s in hand for s in "CDHS") for r in PLAIN if r in still.fours
        )

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
