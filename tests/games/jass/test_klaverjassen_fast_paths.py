"""The fast paths of klaverjassen.py against the plain definitions they replace.

The state writes out, for speed, a few things that exist elsewhere in plain
form: the shuffle (``Random.shuffle`` on ``PIQUET``), the legal cards
(:func:`games.tricks.legal_cards`) and the view (the dataclass constructor).
These tests hold them equal; the readable golden playthrough
``tests/golden/klaverjassen.txt`` holds the game's behaviour (moves, views,
results). The opaque digest that did this before stayed equal through the port
onto the trick engine (games/tricks.py) and was then retired for the golden file.
"""

from __future__ import annotations

import random

import pytest

from games.cards import PIQUET
from games.jass import Klaverjassen
from games.jass.klaverjassen import (
    _INDEX,
    _TABLES,
    KlaverjassenView,
    _deal_hands,
    _randbelow,
)
from games.tricks import ROTTERDAM, legal_cards
from harness.contracts.seeding import deal_rng

GAME = Klaverjassen()


@pytest.mark.parametrize("seed", range(40))
def test_deal_draws_like_random_shuffle(seed: int) -> None:
    """_deal_hands and _randbelow draw what PIQUET.shuffled and randrange draw."""
    for deal in range(3):
        fast, slow = deal_rng(seed, deal), deal_rng(seed, deal)
        order = PIQUET.shuffled(slow)
        hands = [sum(1 << c for c in order[8 * s : 8 * s + 8]) for s in range(4)]
        assert _deal_hands(fast) == hands
        for n in (4, 3, 1, 32, 5):
            assert _randbelow(fast.getrandbits, n) == slow.randrange(n)
        assert fast.getstate() == slow.getstate()


def test_legal_moves_are_legal_plays() -> None:
    """The state's legal cards are tricks.legal_cards with Rotterdam's duties."""
    rng = random.Random(3)
    checked = 0
    for seed in range(30):
        state = GAME.new_match(4, seed)
        while not state.is_over():
            legal = state.legal_actions()
            if state._playing and state.to_act is not None:
                hand = state.hands[state.to_act]
                trick = state._trick
                if trick:
                    tables = _TABLES[state.trump]
                    beats = tables.beats
                    best = trick[0]
                    for card in trick[1:]:
                        if beats[best] >> card & 1:
                            best = card
                    led = trick[0] >> 3
                    expected = legal_cards(
                        hand,
                        PIQUET.suit_masks[led],
                        beats[best],
                        tables.above[led],
                        ROTTERDAM,
                        trump_led=led == state.trump,
                    )
                else:
                    expected = hand
                assert PIQUET.mask(legal) == expected
                assert legal == tuple(sorted(legal, key=_INDEX.__getitem__))
                checked += 1
            state.apply(rng.choice(legal))
    assert checked > 10_000


def test_view_equals_the_dataclass_built_one() -> None:
    """A view is what the dataclass constructor would build, in field order."""
    state = GAME.new_match(4, 8)
    rng = random.Random(8)
    while not state.is_over():
        for seat in range(4):
            view = state.view(seat)
            fields = vars(view)
            again = KlaverjassenView(**fields)
            assert view == again and list(fields) == list(vars(again))
            assert KlaverjassenView.from_json(view.to_json()) == view
            hash(view)
        state.apply(rng.choice(state.legal_actions()))
