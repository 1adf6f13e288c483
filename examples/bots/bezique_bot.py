"""An example bot for Bezique, written from its reference page alone.

``docs/games/bezique.md`` says what the view holds and what a move looks like.
While the stock lasts this bot keeps its aces, tens and the cards of
combinations and throws a low card; it declares whatever it may (the dix
too); in the last tricks, where it must follow and beat, it wins as cheaply
as it can. Copy it and make it better:

    troef --plugin examples/bots/bezique_bot.py play bezique \\
        --bots example-bezique,random
"""

from __future__ import annotations

from games.bezique.bezique import BeziqueView
from harness import Bot, View, hookimpl

#: Low to high in every suit (the trick order of the reference page).
ORDER = "789JQKTA"
#: Cards worth keeping for points (brisques) or for a combination.
KEEP = {"A", "T", "K", "Q", "J"}


def rank(card: str) -> int:
    return ORDER.index(card[0])


class BeziqueExample(Bot):
    """Example: declares all it may, keeps brisques and combination cards."""

    name = "example-bezique"
    games = frozenset({"bezique"})

    def act(self, view: View) -> str:
        assert isinstance(view, BeziqueView)  # what this game's seats see
        legal = list(view.legal_actions)
        melds = [a for a in legal if a.startswith("meld:")]
        if melds:
            return melds[0]
        if "dix" in legal:
            return "dix"
        if "pass" in legal:
            return "pass"
        trump = view.trump
        trick = view.trick
        # A copy lying open ("QS*") plays like the card; keep the open one on
        # the table when a hidden copy will do.
        cards = [a for a in legal if not a.endswith("*")] or legal
        plain = [c for c in cards if c[1] != trump and c[0] not in KEEP]
        if view.phase == "final" and trick:
            led = trick[0][1]
            beat = [c for c in cards if c[1] == led[1] and rank(c) > rank(led)]
            return min(beat or cards, key=rank)
        if trick:
            led = trick[0][1]
            if led[0] in "AT":  # a brisque led: take it with a higher card of its suit
                beat = [c for c in cards if c[1] == led[1] and rank(c) > rank(led)]
                if beat:
                    return min(beat, key=rank)
        return min(plain or cards, key=rank)


@hookimpl
def troef_bots() -> list[type[Bot]]:
    return [BeziqueExample]
