"""A rule-of-thumb bot for the tarot family (Maison Tarot, La Rigueur, Maison
Troggen, Triomphe Forcée).

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

In Maison Troggen the dealer discards his cheapest blanks, from his shortest
suits first (a void lets him trump). In Triomphe Forcée only tricks count
(:func:`_trick_card`): it takes a trick it is sure of, or as last to play,
with its weakest winning card, and otherwise throws its weakest card (the
excuse instead of a trump); Death and the declarations need no choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cards import TAROT, CardMask
from games.tarot.common import EXCUSE, POINTS, TRUMPS, TarotView, tables_of
from harness import Bot, View, hookimpl

__all__ = ["TarotBot"]

_INDEX = TAROT.index
_EX = EXCUSE.bit_length() - 1


class TarotBot(Bot):
    """Counts cards, saves high trumps, keeps the excuse for a lost trick."""

    name = "tarot"
    description = (
        "Rules of thumb: counts cards, saves its high trumps, keeps the excuse for a "
        "trick it would lose"
    )
    games = frozenset(
        {"maison-tarot", "la-rigueur", "maison-troggen", "triomphe-forcee"}
    )

    def act(self, view: View) -> str:
        """The heuristic's card (see the module docstring)."""
        legal = view.legal_actions
        if len(legal) == 1 or not isinstance(view, TarotView):
            return legal[0]
        if legal[0].startswith("discard "):
            return "discard " + TAROT.cards[_discard(view.hand, legal)]
        game = self.game
        tiers: tuple[int, ...] = getattr(game, "tiers", (TRUMPS,))
        beats = tables_of(tiers, getattr(game, "red_reversed", False)).beats
        seen = TAROT.mask(view.hand) | TAROT.mask(getattr(view, "discard", ()))
        for record in view.tricks:
            seen |= TAROT.mask(record[1])
        trick = [_INDEX[c] for _, c in view.trick]
        for c in trick:
            seen |= 1 << c
        out = TAROT.full & ~seen  # held by others or undealt
        cards = [_INDEX[c] for c in legal]
        if hasattr(view, "pot"):  # Triomphe Forcée: tricks only
            return TAROT.cards[_trick_card(cards, trick, beats, out, len(view.scores))]
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


def _discard(hand: Sequence[str], legal: Sequence[str]) -> int:
    """Maison Troggen's discard: the cheapest card, from the shortest suit (a
    void lets the dealer trump), the weakest of that suit."""
    length = [0] * 5
    for name in hand:
        suit = TAROT.suit_of(_INDEX[name])
        if suit >= 0:  # not the excuse
            length[suit] += 1
    cards = [_INDEX[a[8:]] for a in legal]
    return min(cards, key=lambda c: (POINTS[c], length[TAROT.suit_of(c)], c))


def _best(trick: Sequence[int], beats: Sequence[CardMask]) -> int:
    best = trick[0]
    for c in trick[1:]:
        if beats[best] >> c & 1:
            best = c
    return best


def _trick_card(
    cards: Sequence[int],
    trick: Sequence[int],
    beats: Sequence[CardMask],
    out: CardMask,
    n_seats: int,
) -> int:
    """Triomphe Forcée: every trick counts one, cards count nothing."""
    trumps = TAROT.suit_masks[TRUMPS]

    def weakness(c: int) -> tuple[bool, int]:
        # Trumps last; within a class, the card more cards can beat is weaker.
        return (bool(trumps >> c & 1), -beats[c].bit_count())

    plain = [c for c in cards if c != _EX]
    if not plain:
        return _EX
    masters = [c for c in plain if not beats[c] & out]
    if not trick:
        return min(masters, key=weakness) if masters else min(plain, key=weakness)
    top = beats[_best(trick, beats)]
    last = len(trick) == n_seats - 1
    winners = [c for c in plain if top >> c & 1]
    sure = winners if last else [c for c in winners if not beats[c] & out]
    if sure:
        return min(sure, key=weakness)
    if winners and len(trick) >= n_seats - 2:
        return max(winners, key=weakness)
    losers = [c for c in plain if not top >> c & 1] or plain
    cheapest = min(losers, key=weakness)
    if _EX in cards and trumps >> cheapest & 1:
        return _EX  # keep the trump for a trick it can win
    return cheapest


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the tarot bot."""
    return [TarotBot]
