"""The kinds of move the jass games share, for their reference pages.

Each game lists its own in ``action_kinds`` (see
:class:`harness.ActionKind`); the kinds several games use are written here
once. The rulings the meanings cite are in ``games/jass/RULES.md``.
"""

from __future__ import annotations

from games.cards import PIQUET, SUIT_WORDS, Deck
from harness import ActionKind

__all__ = [
    "DECLARE_ROEM",
    "PASS_MOVE",
    "SUITS",
    "TAKE_OR_LEAVE",
    "card_move",
    "suit_move",
]

#: The four suits named in words, as bids name them, as one alternation.
SUITS = "|".join(SUIT_WORDS)


def card_move(
    deck: Deck = PIQUET, meaning: str = "play this card to the trick"
) -> ActionKind:
    """Playing a card, written in the deck's notation."""
    return ActionKind("<card>", deck.pattern(), meaning)


def suit_move(meaning: str) -> ActionKind:
    """Naming a trump suit in words."""
    return ActionKind(" | ".join(SUIT_WORDS), f"(?:{SUITS})", meaning)


PASS_MOVE = ActionKind("pass", "pass", "pass: no bid, no call, no declaration")
DECLARE_ROEM = ActionKind(
    "roem",
    "roem",
    "declare the roem held in hand, in the first trick before playing a card",
)
TAKE_OR_LEAVE = ActionKind(
    "take | leave",
    "(?:take|leave)",
    "the player takes the skart into his hand, or leaves it",
)
