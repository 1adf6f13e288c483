"""Klaverjassen's view: what one seat knows (R13), read by bots and samplers.

A module of its own, which a compiled build leaves interpreted
(``bench/README.md``, "Compiled builds"): ``KlaverjassenState.view`` fills a
new instance's ``__dict__``, which a native class has none of, and the
variants subclass it in Python, where compiled code would check a view for
this one class. :mod:`games.jass.klaverjassen` re-exports it.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.tricks import TrickRecord
from harness.contracts.view import View

__all__ = ["KlaverjassenView"]


@dataclass(frozen=True)
class KlaverjassenView(View):
    """What one seat knows: perfect recall of this deal, scores of earlier ones (R13).

    Suits are letters ``C D H S``; cards are rank+suit (``"JC"``, ``"TH"``).
    """

    #: Index of the current deal, from 0.
    deal: int
    #: The dealer's seat; voorhand, who bids first and leads, is the next seat.
    dealer: int
    #: The seat to act, or ``None`` when the match is over.
    to_act: int | None
    #: This seat's cards, in deck order (C D H S, 7 up to A).
    hand: tuple[str, ...]
    #: The suits turned up this deal, in order: one, or two when all passed; empty
    #: when clubs is trump by the first-deal rule (R3).
    turned: tuple[str, ...]
    #: The trump suit, or ``None`` while bidding.
    trump: str | None
    #: This deal's bids in order: ``(seat, "play" | "pass")``.
    bids: tuple[tuple[int, str], ...]
    #: The seat whose side plays (took the contract), or ``None`` while bidding.
    player: int | None
    #: The trick on the table: ``(seat, card)`` in play order.
    trick: tuple[tuple[int, str], ...]
    #: This deal's finished tricks: ``(leader, cards in play order, winner,
    #: points, roem)``; points include the 10 for the last trick.
    tricks: tuple[TrickRecord, ...]
    #: Each finished deal's rounded points: ``(team 0, team 1)``.
    deal_scores: tuple[tuple[int, int], ...]
    #: The match totals: ``(team 0, team 1)``.
    scores: tuple[int, int]
