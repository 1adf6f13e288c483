"""An example bot for Klaverjassen, written from its reference page alone.

``docs/games/klaverjassen.md`` says what the view holds and what a move looks
like; this bot reads nothing else. It bids when it holds strong trumps, takes a
trick when it can do so cheaply, and otherwise throws its lowest card. Copy it
and make it better:

    troef --plugin examples/bots/klaverjassen_bot.py play klaverjassen \\
        --bots example-klaverjassen,random,example-klaverjassen,random

It runs unchanged in its own process (``isolation = "process"``) or as a
config's plugin (``examples/klaverjassen.toml``): it sees only its view.
"""

from __future__ import annotations

from games.jass.klaverjassen import KlaverjassenView
from harness import Bot, View, hookimpl

#: Low to high: the trump suit (J 9 A 10 K Q 8 7, high first) and the others.
TRUMP_ORDER = "78QKTA9J"
PLAIN_ORDER = "789JQKTA"
SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}


def strength(card: str, trump: str | None, led: str) -> int:
    """How strongly ``card`` holds a trick whose first card was of suit ``led``:
    a trump beats every other suit, a card not of the led suit never wins."""
    rank, suit = card[:-1], card[-1]
    if suit == trump:
        return 100 + TRUMP_ORDER.index(rank)
    if suit == led:
        return 10 + PLAIN_ORDER.index(rank)
    return 0


def cheapest(cards: list[str], trump: str | None) -> str:
    """The card it costs least to give away: a low plain card before a trump."""
    return min(cards, key=lambda c: (c[-1] == trump, strength(c, trump, c[-1])))


class KlaverjassenExample(Bot):
    """Example: bids on strong trumps, wins tricks cheaply, else throws low."""

    name = "example-klaverjassen"
    games = frozenset({"klaverjassen"})

    def act(self, view: View) -> str:
        assert isinstance(view, KlaverjassenView)  # what this game's seats see
        legal = list(view.legal_actions)
        cards = [a for a in legal if len(a) == 2 and a[-1] in "CDHS"]
        if not cards:
            return self.speak(view, legal)
        trump = view.trump
        trick = view.trick
        if not trick:
            return max(cards, key=lambda c: strength(c, trump, c[-1]))
        led = trick[0][1][-1]
        best_seat, best = max(trick, key=lambda play: strength(play[1], trump, led))
        if (best_seat - view.seat) % 4 == 2:  # the partner holds the trick
            return cheapest(cards, trump)
        to_beat = strength(best, trump, led)
        winners = [c for c in cards if strength(c, trump, led) > to_beat]
        if winners:
            return min(winners, key=lambda c: strength(c, trump, led))
        return cheapest(cards, trump)

    def speak(self, view: KlaverjassenView, legal: list[str]) -> str:
        """A bid, a call or a trump to name: never a card."""
        hand = view.hand
        if "roem" in legal:
            return "roem"
        named = [a for a in legal if a in SUIT_WORDS]
        if named:  # name the suit held longest
            return max(named, key=lambda w: sum(c[-1] == SUIT_WORDS[w] for c in hand))
        if "play" in legal:
            turned = view.turned
            suit = turned[-1] if turned else "C"
            trumps = [c[:-1] for c in hand if c[-1] == suit]
            strong = len(trumps) >= 4 or ("J" in trumps and len(trumps) >= 3)
            return "play" if strong or "pass" not in legal else "pass"
        return "pass" if "pass" in legal else legal[0]


@hookimpl
def troef_bots() -> list[type[Bot]]:
    return [KlaverjassenExample]
