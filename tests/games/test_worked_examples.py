"""Every worked-example constructor refuses a deal the pack cannot make.

``from_cards``, ``from_hands`` and ``from_deal`` build a position from card
names for the rules tests. A name given more often than the pack holds the
card (the same card in two hands, a hand holding the turned card) would put
one physical card in two places, and the won piles and ``card_locations``
would then disagree (issue 28 item 7). Each constructor calls
:meth:`games.cards.Deck.check_deal`, which names the card, how often it was
asked for and where, and how many copies the pack holds.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.bezique import Bezique, Fildinski, Rubicon
from games.bezique.bezique import BeziqueState
from games.bezique.fildinski import FildinskiState
from games.bezique.rubicon import RubiconState
from games.cards import BEZIQUE, PIQUET
from games.jass import (
    Belote,
    Klapper,
    Klaverjassen,
    Klaverjassen3,
    Kleintje,
    Smousjas,
    Vijfhonderden,
)
from games.jass.belote import BeloteState
from games.jass.klapper import KlapperState
from games.jass.klaverjassen3 import Klaverjassen3State
from games.jass.kleintje import KleintjeState
from games.jass.stock import StockState
from games.tarot import MaisonTarot, MaisonTroggen, TriompheForcee
from games.tarot.maison import MaisonTarotState
from games.tarot.triomphe import TriompheState
from games.tarot.troggen import TroggenState

#: The 32 cards of the piquet pack in four hands of eight, KH in hand 0.
PACK4 = [" ".join(PIQUET.faces[i : i + 8]) for i in range(0, 32, 8)]
ONE_COPY = r"'KH' is named 2 times \(seat 0: 1, seat 1: 1\); the .* holds 1 copy of it"

CASES: dict[str, tuple[Callable[[], object], str]] = {
    "bezique, three KH in a 2-copy pack (the issue's example)": (
        lambda: BeziqueState.from_cards(
            Bezique(), ["KH 7C 8C", "KH KH 9C"], ["9H", "7S"]
        ),
        r"'KH' is named 3 times \(seat 0: 1, seat 1: 2\); the bezique pack holds "
        r"2 copies of it",
    ),
    "bezique, a hand's card in the stock too": (
        lambda: BeziqueState.from_cards(Bezique(), ["KH KH 8C", "9C"], ["KH", "7S"]),
        r"'KH' is named 3 times \(seat 0: 2, the stock: 1\)",
    ),
    "fildinski": (
        lambda: FildinskiState.from_cards(
            Fildinski(), ["QS QS 8C", "QS 9C"], ["9H", "7S"]
        ),
        r"'QS' is named 3 times .* holds 2 copies",
    ),
    "rubicon, five KH in a 4-copy pack": (
        lambda: RubiconState.from_cards(
            Rubicon(), ["KH KH KH 8C", "KH KH 9C"], ["9H", "7S"]
        ),
        r"'KH' is named 5 times \(seat 0: 3, seat 1: 2\); the rubicon pack holds "
        r"4 copies of it",
    ),
    "smousjas, the open card in a hand": (
        lambda: StockState.from_cards(Smousjas(), ["8H 7C", "9C 7D"], "8H"),
        r"'8H' is named 2 times \(seat 0: 1, the open card: 1\)",
    ),
    "vijfhonderden, KH in both hands": (
        lambda: StockState.from_cards(Vijfhonderden(), ["KH 7C", "KH 7D"], "8H"),
        ONE_COPY,
    ),
    "klaverjassen": (
        lambda: Klaverjassen().state_class.from_hands(
            Klaverjassen(), [PACK4[0], PACK4[0], PACK4[2], PACK4[3]], trump="C"
        ),
        r"'7C' is named 2 times \(seat 0: 1, seat 1: 1\); the piquet pack holds 1",
    ),
    "klaverjassen for 3, a hand's card in the skart": (
        lambda: Klaverjassen3State.from_hands(
            Klaverjassen3(), ["KH 7C", "9C", "8C"], "KH 7D"
        ),
        r"'KH' is named 2 times \(seat 0: 1, the skart: 1\)",
    ),
    "kleintje klaverjas": (
        lambda: KleintjeState.from_hands(Kleintje(), ["KH 7C", "KH 7D"]),
        ONE_COPY,
    ),
    "klapper": (
        lambda: KlapperState.from_hands(Klapper(), ["KH 9C", "KH 9D"], trump="C"),
        ONE_COPY,
    ),
    "belote, the turned card in the stock": (
        lambda: BeloteState.from_deal(Belote(), ["KH 7C", "8C 7D"], "TH", "TH 9S"),
        r"'TH' is named 2 times \(the turned card: 1, the stock: 1\)",
    ),
    "maison tarot": (
        lambda: MaisonTarotState.from_hands(MaisonTarot(), ["KH 1T", "KH 2T"]),
        ONE_COPY,
    ),
    "triomphe forcee": (
        lambda: TriompheState.from_hands(TriompheForcee(), ["KH 1T", "KH 2T"]),
        ONE_COPY,
    ),
    "maison troggen, a hand's card in the discard": (
        lambda: TroggenState.from_hands(
            MaisonTroggen(), ["KH 1T", "2T", "3T"], discard="KH"
        ),
        r"'KH' is named 2 times \(seat 0: 1, the discard: 1\)",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_impossible_deal_is_refused_naming_the_card(case: str) -> None:
    build, message = CASES[case]
    with pytest.raises(ValueError, match=message):
        build()


def test_two_copies_named_in_two_hands_are_two_cards() -> None:
    """R10's position: AH in each hand of the 2-copy pack are the two copies,
    so after the trick the won pile holds both (before issue 28 both hands got
    the same copy and the won pile one)."""
    state = BeziqueState.from_cards(
        Bezique(), ["AH 7C 8C", "AH 9S JS"], ["9H", "8H", "TS"]
    )
    assert state.hands[0] & state.hands[1] == 0
    state.apply("AH")
    state.apply("AH")
    assert state.card_locations()["won:0"] == ("AH", "AH")


def test_check_deal_accepts_what_the_pack_holds() -> None:
    """The check refuses only what the pack cannot make: every copy named once
    is a deal, and an unknown name is still the deck's own error."""
    BEZIQUE.check_deal(["KH KH", ""], {"the stock": ["QH", "QH"]})
    PIQUET.check_deal(PACK4)
    with pytest.raises(ValueError, match="not a card of the piquet pack"):
        PIQUET.check_deal(["KX"])
