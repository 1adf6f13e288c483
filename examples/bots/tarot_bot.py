"""An example bot for Maison Tarot, written from its reference page alone.

``docs/games/maison-tarot.md`` says what the view holds: the legal moves are
already the cards the rules allow (follow suit, else trump), so a bot only
chooses among them. This one takes a trick that holds points when it can,
with its cheapest winning card, and otherwise throws its least valuable card,
keeping the excuse. Copy it and make it better:

    troef --plugin examples/bots/tarot_bot.py play maison-tarot \\
        --bots example-tarot,random,random
"""

from __future__ import annotations

from games.tarot.common import TarotView
from harness import Bot, View, hookimpl

#: Points of a card (the reference's rules doc): kings 4, queens 3, knights 2,
#: jacks 1, the 1 and 21 of trumps 4, the excuse 5.
POINTS = {"K": 4, "Q": 3, "N": 2, "J": 1}
SUIT_ORDER = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]


def points(card: str) -> int:
    if card == "EX":
        return 5
    if card in ("1T", "21T"):
        return 4
    return POINTS.get(card[:-1], 0) if card[-1] != "T" else 0


def strength(card: str, led: str) -> int:
    """How strongly ``card`` holds a trick led in suit ``led``."""
    if card == "EX":
        return -1  # the excuse never wins
    rank, suit = card[:-1], card[-1]
    if suit == "T":
        return 100 + int(rank)
    return SUIT_ORDER.index(rank) if suit == led else -1


class TarotExample(Bot):
    """Example: wins tricks that hold points cheaply, else throws low."""

    name = "example-tarot"
    games = frozenset({"maison-tarot"})

    def act(self, view: View) -> str:
        assert isinstance(view, TarotView)  # what this game's seats see
        cards = [c for c in view.legal_actions if c != "EX"] or list(view.legal_actions)
        trick = view.trick
        if not trick:
            return min(cards, key=lambda c: (points(c), strength(c, c[-1])))
        led = next((card[-1] for _, card in trick if card != "EX"), None)
        if led is None:  # only the excuse was led: any card leads now
            return min(cards, key=lambda c: (points(c), strength(c, c[-1])))
        best = max(strength(card, led) for _, card in trick)
        on_table = sum(points(card) for _, card in trick)
        winners = [c for c in cards if strength(c, led) > best]
        if winners and on_table + min(map(points, winners)) > 0:
            return min(winners, key=lambda c: strength(c, led))
        return min(cards, key=lambda c: (points(c), strength(c, led)))


@hookimpl
def troef_bots() -> list[type[Bot]]:
    return [TarotExample]
