"""games.sampling: uniform constrained deals of hidden hands.

The sampler must draw every consistent deal equally often (a chi-square test
against brute-force enumeration, which the old greedy dealer fails), keep hand
sizes and forbidden cards, count the deals exactly, refuse impossible
constraints, and stay tractable with nine hidden hands.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from games.sampling import ConstrainedDealer, deal_uniform

#: (cards, forbidden masks, hand sizes)
Position = tuple[list[int], list[int], list[int]]


def bits(*cards: int) -> int:
    return sum(1 << c for c in cards)


def consistent_deals(
    cards: Sequence[int], forbidden: Sequence[int], sizes: Sequence[int]
) -> list[tuple[int, ...]]:
    """Every consistent deal, by trying every hand for every card."""
    deals = []
    k = len(sizes)
    for owners in itertools.product(range(k), repeat=len(cards)):
        hands = [0] * k
        for card, owner in zip(cards, owners, strict=True):
            hands[owner] |= 1 << card
        if all(
            hands[j].bit_count() == sizes[j] and not hands[j] & forbidden[j]
            for j in range(k)
        ):
            deals.append(tuple(hands))
    return deals


# Seven cards, three hands of 3, 2 and 2; hand 0 may not hold cards 0 and 1,
# hand 1 not cards 2 and 3 (say, voids shown in two suits). 37 deals.
CARDS = list(range(7))
FORBIDDEN = [bits(0, 1), bits(2, 3), 0]
SIZES = [3, 2, 2]


def chi_square_p(
    draw: Callable[[], Sequence[int]], deals: list[tuple[int, ...]], per_deal: int
) -> float:
    """p-value of "uniform over ``deals``" for ``per_deal * len(deals)`` draws."""
    index = {deal: i for i, deal in enumerate(deals)}
    counts = Counter(index[tuple(draw())] for _ in range(per_deal * len(deals)))
    return float(chisquare([counts[i] for i in range(len(deals))]).pvalue)


def test_the_position_has_the_deals_we_count() -> None:
    deals = consistent_deals(CARDS, FORBIDDEN, SIZES)
    assert len(deals) == 37
    assert ConstrainedDealer(CARDS, FORBIDDEN, SIZES).count == 37


@pytest.mark.parametrize("budget", [10_000, 0], ids=["counted", "rejection"])
def test_every_consistent_deal_is_equally_likely(budget: int) -> None:
    """Chi-square over the 37 deals; budget 0 forces the merge-and-reject path."""
    dealer = ConstrainedDealer(CARDS, FORBIDDEN, SIZES, budget=budget)
    assert dealer.rejection is (budget == 0)
    rng = random.Random(20260101)
    deals = consistent_deals(CARDS, FORBIDDEN, SIZES)
    assert chi_square_p(lambda: dealer.sample(rng), deals, 200) > 0.001


def greedy_deal(
    cards: list[int], forbidden: list[int], sizes: list[int], rng: random.Random
) -> list[int]:
    """The dealer ConstrainedDealer replaced: each card in random order to a
    random hand that may take it and leaves the rest dealable (Hall's
    condition). It never gets stuck, and it is not uniform."""
    k = len(sizes)
    order = list(cards)
    rng.shuffle(order)
    room, hands = list(sizes), [0] * k

    def dealable(rest: list[int]) -> bool:
        return all(
            sum(
                1
                for c in rest
                if all(forbidden[j] >> c & 1 for j in range(k) if not group >> j & 1)
            )
            <= sum(room[j] for j in range(k) if group >> j & 1)
            for group in range(1 << k)
        )

    for i, card in enumerate(order):
        fits = [j for j in range(k) if room[j] and not forbidden[j] >> card & 1]
        rng.shuffle(fits)
        for j in fits:
            room[j] -= 1
            if dealable(order[i + 1 :]):
                hands[j] |= 1 << card
                break
            room[j] += 1
    return hands


def test_a_greedy_dealer_is_not_uniform() -> None:
    """Gives the test above its teeth: the same test rejects a greedy dealer."""
    rng = random.Random(20260101)
    deals = consistent_deals(CARDS, FORBIDDEN, SIZES)
    p = chi_square_p(lambda: greedy_deal(CARDS, FORBIDDEN, SIZES, rng), deals, 200)
    assert p < 1e-6


def test_hands_alike_are_merged_exactly() -> None:
    """Hands 1-3 share their constraint: with no budget they are one group,
    split by shuffle and cut, and the deal is still uniform and counted."""
    cards, forbidden, sizes = list(range(7)), [bits(0, 1, 2), 0, 0, 0], [2, 2, 2, 1]
    dealer = ConstrainedDealer(cards, forbidden, sizes, budget=0)
    deals = consistent_deals(cards, forbidden, sizes)
    assert not dealer.rejection and dealer.count == len(deals)
    rng = random.Random(7)
    assert chi_square_p(lambda: dealer.sample(rng), deals, 100) > 0.001


# -- properties over random positions ------------------------------------------


@st.composite
def positions(draw: st.DrawFn, max_cards: int = 8, max_hands: int = 4) -> Position:
    n = draw(st.integers(0, max_cards))
    k = draw(st.integers(1, max_hands))
    cards = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n, unique=True))
    owners = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    sizes = [owners.count(j) for j in range(k)]
    forbidden = [draw(st.integers(0, (1 << 41) - 1)) for _ in range(k)]
    return cards, forbidden, sizes


@settings(max_examples=150, deadline=None)
@given(position=positions(), budget=st.sampled_from([10_000, 3, 0]))
def test_counts_and_samples_match_brute_force(position: Position, budget: int) -> None:
    """Whatever the budget: no deal exactly when brute force finds none; the
    count is exact (when reported); every sample is a consistent deal."""
    cards, forbidden, sizes = position
    deals = set(consistent_deals(cards, forbidden, sizes))
    if not deals:
        with pytest.raises(ValueError, match="no deal of"):
            ConstrainedDealer(cards, forbidden, sizes, budget=budget)
        return
    dealer = ConstrainedDealer(cards, forbidden, sizes, budget=budget)
    assert dealer.count in (None, len(deals))
    assert (dealer.count is None) is dealer.rejection
    rng = random.Random(len(deals))
    for _ in range(20):
        assert tuple(dealer.sample(rng)) in deals


# A tarot-like pack: four suits of 14 (cards 0-55), trumps 1-21 (56-76), the
# excuse (77). Suit 4 is trumps, 5 the excuse.
SUITS = [bits(*range(14 * s, 14 * s + 14)) for s in range(4)] + [bits(*range(56, 77))]


def suit(card: int) -> int:
    return 5 if card == 77 else 4 if card >= 56 else card // 14


def play_tricks(
    players: int, tricks: int, rng: random.Random
) -> tuple[list[int], list[int], int]:
    """Hands, the voids each seat showed, and the talon after random play.

    Deals ``(78 - 6) // players`` cards each (at most 18), the rest is a
    hidden talon; each trick the seats must follow suit, else trump, and may
    always play the excuse, as in Triomphe Forcée. Not following shows a void
    in the suit led; not trumping either shows a void in trumps.
    """
    per = min(18, (78 - 6) // players)
    deck = list(range(78))
    rng.shuffle(deck)
    hands = [bits(*deck[i * per : (i + 1) * per]) for i in range(players)]
    talon = bits(*deck[players * per :])
    voids = [0] * players
    leader = 0
    for _ in range(tricks):
        led = -1
        for i in range(players):
            seat = (leader + i) % players
            hand = hands[seat]
            cards = [c for c in range(78) if hand >> c & 1]
            legal = cards
            if led >= 0:
                follow = [c for c in cards if suit(c) in (led, 5)]
                trump = [c for c in cards if suit(c) in (4, 5)]
                legal = follow if hand & SUITS[led] else trump or cards
            card = rng.choice(legal)
            if led < 0 and card != 77:
                led = suit(card)
            elif led >= 0 and suit(card) not in (led, 5):
                voids[seat] |= SUITS[led] | (SUITS[4] if suit(card) != 4 else 0)
            hands[seat] ^= 1 << card
        leader = rng.randrange(players)
    return hands, voids, talon


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(3, 10),
    tricks=st.integers(0, 6),
    seed=st.integers(0, 2**32 - 1),
)
def test_play_like_positions_with_up_to_nine_hidden_hands(
    players: int, tricks: int, seed: int
) -> None:
    """Seat 0's view after some tricks of a 3-10 player trick game: the other
    hands and the talon hold the unseen cards; sizes and shown voids hold in
    every sample, every card is dealt once. Many hands stay tractable (this
    test would hang otherwise)."""
    rng = random.Random(seed)
    hands, voids, talon = play_tricks(players, tricks, rng)
    places = [*hands[1:], talon]
    forbidden = [*voids[1:], 0]
    assert all(not h & f for h, f in zip(places, forbidden, strict=True))
    unseen = [c for c in range(78) if sum(places) >> c & 1]
    sizes = [h.bit_count() for h in places]
    dealer = ConstrainedDealer(unseen, forbidden, sizes)
    for _ in range(5):
        dealt = dealer.sample(rng)
        assert [h.bit_count() for h in dealt] == sizes
        assert all(not h & f for h, f in zip(dealt, forbidden, strict=True))
        assert sum(dealt) == sum(places) == bits(*unseen)


def test_many_hands_without_constraints_is_one_shuffle() -> None:
    """Nine hands and a talon, no voids: one kind, no counting table at all."""
    cards = list(range(78))
    dealer = ConstrainedDealer(cards, [0] * 10, [7] * 9 + [15])
    assert not dealer.rejection and dealer.count is not None
    hands = dealer.sample(random.Random(1))
    assert [h.bit_count() for h in hands] == [7] * 9 + [15]


# -- refusals and determinism ---------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "forbidden", "sizes", "message"),
    [
        # Three hands void in all of cards 0-2 but only one hand may take them.
        ([0, 1, 2, 3], [bits(0, 1, 2), bits(0, 1, 2), 0], [1, 1, 2], "no deal of"),
        # Card 0 is ruled out everywhere.
        ([0, 1], [bits(0), bits(0)], [1, 1], "a card no hand may hold"),
        ([0, 1, 2], [0, 0], [1, 1], "add up to 2, not to the 3 cards"),
        ([0, 1], [0], [1, 1], "1 forbidden masks for 2 hands"),
        ([0, 0], [0, 0], [1, 1], "distinct"),
        ([0, 1], [0, 0], [3, -1], "must not be negative"),
    ],
)
def test_impossible_or_malformed_deals_raise(
    cards: list[int], forbidden: list[int], sizes: list[int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        ConstrainedDealer(cards, forbidden, sizes)


def test_a_seeded_rng_gives_the_same_deals() -> None:
    dealer = ConstrainedDealer(CARDS, FORBIDDEN, SIZES)
    one = [dealer.sample(random.Random(s)) for s in range(20)]
    two = [
        ConstrainedDealer(CARDS, FORBIDDEN, SIZES).sample(random.Random(s))
        for s in range(20)
    ]
    assert one == two
    assert one == [
        deal_uniform(CARDS, FORBIDDEN, SIZES, random.Random(s)) for s in range(20)
    ]
    assert len(set(map(tuple, one))) > 5


def test_known_cards_and_empty_hands() -> None:
    """A hand whose cards are all known takes size 0; no cards at all is a deal."""
    assert ConstrainedDealer([], [0, 0], [0, 0]).sample(random.Random(1)) == [0, 0]
    dealer = ConstrainedDealer([3, 5], [0, bits(3), 0], [1, 0, 1])
    assert dealer.count == 2
    hands = dealer.sample(random.Random(2))
    assert hands[1] == 0 and hands[0] | hands[2] == bits(3, 5)
