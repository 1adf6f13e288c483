"""What a jass hand is worth with a given trump, for the jass bots' bids, and the
suits' words they name trump with.

Shared by :mod:`bots.jass` (bids, the choice of trump, doubling) and
:mod:`bots.jass_skart` (Kleintje's and the skart games' bids).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cards import SUIT_WORDS, SUITS

__all__ = ["SUIT_WORDS", "hand_strength"]

#: What each trump is worth towards taking tricks, by rank (J 9 A 10 K Q 8 7).
_TRUMP_VALUE = {"J": 4.0, "9": 3.0, "A": 2.0, "T": 1.5, "K": 1.0, "Q": 1.0}


def hand_strength(hand: Sequence[str], trump: int) -> float:
    """A rough count of the tricks' worth of ``hand`` with suit ``trump`` trump:
    its trumps by rank (a 7 or 8 of trump counts 0.75), plain aces 1.5, a plain
    ten with its ace 1.0 and without it 0.25."""
    t = SUITS[trump]
    value = 0.0
    for card in hand:
        rank, suit = card[0], card[1]
        if suit == t:
            value += _TRUMP_VALUE.get(rank, 0.75)
        elif rank == "A":
            value += 1.5
        elif rank == "T":
            value += 1.0 if "A" + suit in hand else 0.25
    return value
