"""A rule-of-thumb bot for the tarot family (Maison Tarot, La Rigueur).

It counts the cards: every card seen in this deal's tricks and its own hand
tell it which cards are still out, so it knows when a trump (or any card) can
no longer be beaten. Its rules, in order:

- following, it takes a trick that holds points, or that it can take for sure,
  with the cheapest card that wins it (saving its high trumps), and it takes
  any trick with its last-seat card when that costs nothing;
- otherwise it throws its cheapest card; the excuse goes instead when the
  cheapest card would give away points (the excuse is never lost, R3);
- leading, it plays a card that nothing still out can beat (counting the
  trumps), else its cheapest, lowest card.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cards import TAROT, CardMask
from games.tarot.common import EXCUSE, POINTS, RULES, TarotView
from games.tarot.maison import MaisonTarot
from harness import Bot, View, hookimpl

__all__ = ["TarotBot"]

_INDEX = TAROT.index
_EX = EXCUSE.bit_length() - 1


class TarotBot(Bot):
    """Counts cards, saves high trumps, keeps the excuse for a lost trick."""

    name = "tarot"
    games = frozenset({"maison-tarot", "la-rigueur"})

    def act(self, view: View) -> str:
        """The heuristic's card (see the module docstring)."""
        legal = view.legal_actions
        if len(legal) == 1 or not isinstance(view, TarotView):
            return legal[0]
        game = self.game
        assert isinstance(game, MaisonTarot)
        beats = RULES.tables(*game.tiers).beats
        seen = TAROT.mask(view.hand)
        for record in view.tricks:
            seen |= TAROT.mask(record[1])
        trick = [_INDEX[c] for _, c in view.trick]
        for c in trick:
            seen |= 1 << c
        out = TAROT.full & ~seen  # held by others or undealt
        cards = [_INDEX[c] for c in legal]
        if not trick:
            return TAROT.cards[_lead(cards, beats, out)]
        return TAROT.cards[_follow(cards, trick, beats, out, len(view.scores))]


def _cost(card: int) -> tuple[int, int]:
    """Cheapest first: fewest points, then the weakest card (deck order)."""
    return (POINTS[card], card)


def _lead(cards: Sequence[int], beats: Sequence[CardMask], out: CardMask) -> int:
    plain = [c for c in cards if c != _EX]
    if not plain:
        return _EX
    masters = [c for c in plain if not beats[c] & out]
    if masters:
        # A sure winner: the one worth most (it is safe) draws the others' cards.
        return max(masters, key=lambda c: (POINTS[c], -c))
    return min(plain, key=_cost)


def _follow(
    cards: Sequence[int],
    trick: Sequence[int],
    beats: Sequence[CardMask],
    out: CardMask,
    n_seats: int,
) -> int:
    best = 0
    for i in range(1, len(trick)):
        if beats[trick[best]] >> trick[i] & 1:
            best = i
    top = beats[trick[best]]
    on_table = sum(POINTS[c] for c in trick if c != _EX)
    last = len(trick) == n_seats - 1
    winners = [c for c in cards if c != _EX and top >> c & 1]
    sure = winners if last else [c for c in winners if not beats[c] & out]
    if sure and (on_table or last or min(POINTS[c] for c in sure) > 0):
        return min(sure, key=_cost)
    if winners and on_table >= 3:
        return max(winners, key=lambda c: (c, -POINTS[c]))
    losers = [c for c in cards if c != _EX and not top >> c & 1] or [
        c for c in cards if c != _EX
    ]
    cheapest = min(losers, key=_cost) if losers else _EX
    if _EX in cards and (not losers or POINTS[cheapest] >= 2 or len(cards) <= 2):
        return _EX
    return cheapest


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the tarot bot."""
    return [TarotBot]
