"""The floor: a bare bitmask trick loop, no rules and no views.

Four seats hold 8-card ``int`` masks dealt from a 32-card deck. Each decision
takes one card from the mask of the seat to act, removes it, and every fourth
card a trivial trick winner (the highest card index) leads the next trick.
Nothing is validated, nothing is copied, nothing is shown to anyone: this is
the least a pure-Python random playout of a trick game can cost per decision,
the yardstick for ``klaverjassen`` in ``bench_games.py``.

Two ways of picking the card:

* ``"random"`` (the yardstick): a uniformly random card of the hand, drawn
  from a seeded :class:`random.Random` like the troef playouts draw theirs,
  by clearing a random number of low bits;
* ``"lowest"``: always the lowest card (``mask & -mask``), no random draw at
  all -- the absolute minimum, shown for reference.

Deals are shuffled before the clock starts, so the timed loop is decisions
only.
"""

from __future__ import annotations

import random
from time import perf_counter

__all__ = ["make_deals", "play_floor"]

N_SEATS = 4
HAND = 8
DECISIONS_PER_DEAL = N_SEATS * HAND


def make_deals(rng: random.Random, n: int) -> list[tuple[int, int, int, int]]:
    """``n`` deals of a 32-card deck into four 8-card masks."""
    deals = []
    order = list(range(32))
    for _ in range(n):
        rng.shuffle(order)
        masks = [0, 0, 0, 0]
        for position, card in enumerate(order):
            masks[position // HAND] |= 1 << card
        deals.append((masks[0], masks[1], masks[2], masks[3]))
    return deals


def _play_random(deals: list[tuple[int, int, int, int]], rng: random.Random) -> int:
    """Play every deal out with random cards; return a checksum of tricks."""
    randrange = rng.randrange
    checksum = 0
    for deal in deals:
        hands = list(deal)
        seat = 0
        on_table = 0
        best = -1
        winner = 0
        tricks_even = 0
        for _ in range(DECISIONS_PER_DEAL):
            mask = hands[seat]
            k = randrange(mask.bit_count())
            while k:
                mask &= mask - 1
                k -= 1
            low = mask & -mask
            hands[seat] ^= low
            card = low.bit_length() - 1
            if card > best:
                best = card
                winner = seat
            on_table += 1
            if on_table == N_SEATS:
                if not winner & 1:
                    tricks_even += 1
                seat = winner
                on_table = 0
                best = -1
            else:
                seat = (seat + 1) & 3
        checksum += tricks_even
    return checksum


def _play_lowest(deals: list[tuple[int, int, int, int]], rng: random.Random) -> int:
    """Play every deal out, each seat always playing its lowest card."""
    checksum = 0
    for deal in deals:
        hands = list(deal)
        seat = 0
        on_table = 0
        best = -1
        winner = 0
        tricks_even = 0
        for _ in range(DECISIONS_PER_DEAL):
            mask = hands[seat]
            low = mask & -mask
            hands[seat] = mask ^ low
            card = low.bit_length() - 1
            if card > best:
                best = card
                winner = seat
            on_table += 1
            if on_table == N_SEATS:
                if not winner & 1:
                    tricks_even += 1
                seat = winner
                on_table = 0
                best = -1
            else:
                seat = (seat + 1) & 3
        checksum += tricks_even
    return checksum


def play_floor(
    pick: str, seconds: float, seed: int, n_deals: int = 256
) -> tuple[float, int]:
    """Replay ``n_deals`` pre-shuffled deals until ``seconds`` have passed.

    :param pick: ``"random"`` or ``"lowest"``.
    :returns: (elapsed seconds, decisions made).
    """
    play = {"random": _play_random, "lowest": _play_lowest}[pick]
    rng = random.Random(seed)
    deals = make_deals(rng, n_deals)
    decisions = 0
    start = perf_counter()
    while True:
        play(deals, rng)
        decisions += len(deals) * DECISIONS_PER_DEAL
        elapsed = perf_counter() - start
        if elapsed >= seconds:
            return elapsed, decisions
