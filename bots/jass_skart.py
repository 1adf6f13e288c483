"""The jass bot's own decisions in the games with a skart: Klaverjassen for 3
and Kleintje Klaverjas (the card play is :class:`bots.jass.JassBot`'s).

Rules of thumb: say ``play`` / bid with a hand that is strong in its best
suit (:func:`bots.jass_hands.hand_strength`); always take the skart (it can only
show more) and lay back the cheapest side cards; name the suit the hand is
strongest in; always claim roem and declare the stuk (both only add to the
seat's side); as Kleintje's dealer, deal the most cards (skill counts more)
and a small closed skart.
"""

from __future__ import annotations

from collections.abc import Sequence

from bots.jass_hands import SUIT_WORDS, hand_strength
from games.cards import PIQUET, SUITS
from games.jass.klaverjassen import TRUMP_TABLES
from games.jass.klaverjassen3 import Klaverjassen3View
from games.jass.kleintje import KleintjeView
from harness import View

__all__ = ["SKART_VIEWS", "decide", "estimate_points", "sides"]

#: The views of the games whose decisions are here.
SKART_VIEWS = (Klaverjassen3View, KleintjeView)
#: Klaverjassen for 3: say "play" from this hand value per card held (the
#: player needs 82 of 162 alone against two).
K3_PLAY_PER_CARD = 1.3
#: Kleintje: the dealer's choices (most cards; a small closed skart).
KLEINTJE_CARDS, KLEINTJE_SKART = 5, 2


def sides(view: View) -> tuple[int, ...]:
    """The player against the rest, as teams (for following and leading)."""
    if isinstance(view, Klaverjassen3View):
        player, n = view.player, len(view.scores)
    else:
        assert isinstance(view, KleintjeView)
        player, n = view.player, len(view.lives)
    return tuple(0 if s == player else 1 for s in range(n))


def decide(view: View) -> str | None:
    """The decision of ``view``'s seat outside card play, or ``None`` when it
    is to play a card (then the shared card play answers)."""
    legal = view.legal_actions
    if "roem" in legal:
        return "roem"  # a claim only adds to the seat's points
    if "stuk" in legal:
        return "stuk"  # 20 off the bid
    phase: str = view.phase  # type: ignore[attr-defined]
    hand: tuple[str, ...] = view.hand  # type: ignore[attr-defined]
    if phase == "play":
        return None
    if phase == "skart":
        return "take"
    if phase == "trump":
        return SUIT_WORDS[_best_suit(hand)]
    if phase == "discard":
        trump = SUITS.index(view.trump)  # type: ignore[attr-defined]
        return _cheapest(hand, trump)
    if isinstance(view, Klaverjassen3View):
        best = _best_suit(hand)
        strong = hand_strength(hand, best) >= K3_PLAY_PER_CARD * len(hand)
        return "play" if strong else "pass"
    assert isinstance(view, KleintjeView)
    return _kleintje(view, legal, hand)


def _kleintje(view: KleintjeView, legal: Sequence[str], hand: tuple[str, ...]) -> str:
    if view.phase == "cards":
        return f"deal:{KLEINTJE_CARDS}"
    if view.phase == "skart-size":
        return min(legal, key=lambda a: abs(int(a[6:]) - KLEINTJE_SKART))
    if view.phase == "openness":
        return "closed"
    # Bidding: the lowest bid the hand is worth, else pass.
    reach = estimate_points(hand, _best_suit(hand))
    bids = [a for a in legal if a.startswith("bid:")]
    if "pass" not in legal:
        return bids[0]  # voorhand opens at the lowest
    return bids[0] if int(bids[0][4:]) <= reach else "pass"


def estimate_points(hand: Sequence[str], trump: int) -> int:
    """The points ``hand`` can count on with ``trump`` (Kleintje's bids): the
    cards sure to take a trick (jack and nine of trump, aces) bring their own
    points and about 10 more each; other cards bring nothing."""
    t = SUITS[trump]
    points = TRUMP_TABLES[trump].points
    sure = 0
    for card in hand:
        rank, suit = card[0], card[1]
        if (suit == t and rank in "J9") or (suit != t and rank == "A"):
            sure += points[PIQUET.index[card]] + 10
    return sure


def _best_suit(hand: Sequence[str]) -> int:
    return max(range(4), key=lambda s: hand_strength(hand, s))


def _cheapest(hand: Sequence[str], trump: int) -> str:
    """The card to lay in the skart: a side card, fewest points, weakest."""
    tables = TRUMP_TABLES[trump]
    index = PIQUET.index
    return min(
        hand,
        key=lambda c: (
            c[1] == SUITS[trump],
            tables.points[index[c]],
            tables.beats[index[c]].bit_count() * -1,
        ),
    )
