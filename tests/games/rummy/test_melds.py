"""Melds, deadwood and layoffs (games/rummy/melds.py) on hands a player reads.

Hands are written in card notation (rank+suit, aces low, ``T`` for ten); the
rule text is seeds/000_f1f8b277f898f51f.txt, Gin Rummy (Oklahoma), lines
484-551; rulings are numbered in games/rummy/RULES.md.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import FULL52
from games.rummy import melds


def cards(text: str) -> int:
    """The mask of space-separated cards, e.g. ``cards("7H 8H 9H")``."""
    return FULL52.mask(text.split())


def shown(masks: tuple[int, ...] | list[int]) -> list[str]:
    """Melds as strings like ``"7H 8H 9H"``, for readable comparisons."""
    return [" ".join(FULL52.names(m)) for m in masks]


def brute_deadwood(mask: int) -> int:
    """Reference: try every set of disjoint melds contained in the hand."""
    candidates = melds.melds_in(mask)
    best = melds.value(mask)

    def search(start: int, used: int, dw: int) -> None:
        nonlocal best
        best = min(best, dw)
        for j in range(start, len(candidates)):
            m = candidates[j]
            if not m & used:
                search(j + 1, used | m, dw - melds.value(m))

    search(0, 0, melds.value(mask))
    return best


# -- values and melds --------------------------------------------------------


def test_card_values_ace_one_faces_ten() -> None:
    """Line 524: aces count 1, face cards 10 each; pip cards their number."""
    assert melds.value(cards("AC")) == 1
    assert melds.value(cards("7D")) == 7
    assert melds.value(cards("TH JH QS KC")) == 40


def test_sets_and_runs_are_melds() -> None:
    """Line 504: three or four of a rank, or three or more in suit sequence."""
    assert melds.is_meld(cards("QC QD QS"))
    assert melds.is_meld(cards("5C 5D 5H 5S"))
    assert melds.is_meld(cards("TH JH QH"))
    assert melds.is_meld(cards("3S 4S 5S 6S 7S"))
    assert not melds.is_meld(cards("QC QD"))
    assert not melds.is_meld(cards("TH JH QS"))
    assert not melds.is_meld(cards("TH JH KH"))


def test_aces_are_low_no_wrap_around() -> None:
    """Line 504: aces are low, below the two and not above the king."""
    assert melds.is_meld(cards("AH 2H 3H"))
    assert not melds.is_meld(cards("QH KH AH"))
    assert not melds.is_meld(cards("KH AH 2H"))
    # Q-K-A of hearts is no run: 10 + 10 + 1 deadwood.
    assert melds.deadwood(cards("QH KH AH")) == 21
    assert melds.deadwood(cards("AH 2H 3H")) == 0


def test_overlapping_set_and_run_takes_the_better_split() -> None:
    """Line 504 and the least-deadwood arrangement: the 6H is shared.

    ``3H 4H 5H 6H`` and ``6C 6D``: run 3-4-5 plus the set of sixes melds all.
    """
    hand = cards("3H 4H 5H 6H 6C 6D KS")
    assert melds.deadwood(hand) == 10
    (arrangement,) = list(melds.arrangements(hand))
    assert sorted(shown(arrangement)) == ["3H 4H 5H", "6C 6D 6H"]


def test_card_in_a_set_and_a_run_goes_where_it_saves_most() -> None:
    """The 7H can join 7C-7D or 8H-9H, not both; a player counts the best way.

    clubs 7, diamonds 7, hearts 7 8 9: one meld only; the other two cards stay
    deadwood. Set 7C 7D 7H leaves 8H 9H (17); run 7-8-9H leaves 7C 7D (14).
    """
    hand = cards("7C 7D 7H 8H 9H")
    assert melds.deadwood(hand) == 14
    assert shown(next(melds.arrangements(hand))) == ["7H 8H 9H"]


def test_four_of_a_kind_or_three_plus_run_both_meld_everything() -> None:
    """Two arrangements with no deadwood are both found (ruling 8 chooses).

    7C 7D 7H 7S 8S 9S TS: four sevens + 8-9-T, or three sevens + 7-8-9-T.
    """
    hand = cards("7C 7D 7H 7S 8S 9S TS")
    found = sorted(sorted(shown(a)) for a in melds.arrangements(hand))
    assert found == [
        ["7C 7D 7H", "7S 8S 9S TS"],
        ["7C 7D 7H 7S", "8S 9S TS"],
    ]


def test_typical_ten_card_hands() -> None:
    """Worked counts: two melds and loose cards; gin; nothing at all."""
    assert melds.deadwood(cards("AC 2C 3C 9D 9H 9S 4H 5S JD KC")) == 4 + 5 + 10 + 10
    assert melds.deadwood(cards("AC 2C 3C 4C 9D 9H 9S JS QS KS")) == 0
    assert melds.deadwood(cards("AC 3D 5H 7S 9C JD KH 2S 4C 6D")) == 57


# -- layoffs -------------------------------------------------------------------


def test_layoff_fourth_card_onto_a_set() -> None:
    """Ruling 9: onto a set of three only its fourth card can be laid off."""
    assert melds.layoff_options(cards("8C 8D 8H"), cards("8S 2C")) == [0, cards("8S")]
    assert melds.layoff_options(cards("8C 8D 8H 8S"), cards("2C")) == [0]


def test_layoff_chain_onto_a_run() -> None:
    """Ruling 9: 9 then T onto 6-7-8; and 5 then 4 below it, both ends."""
    options = melds.layoff_options(cards("6H 7H 8H"), cards("9H TH 5H 4H 2H"))
    assert sorted(options) == sorted(
        [
            0,
            cards("9H"),
            cards("9H TH"),
            cards("5H"),
            cards("5H 4H"),
            cards("5H 9H"),
            cards("5H 9H TH"),
            cards("5H 4H 9H"),
            cards("5H 4H 9H TH"),
        ]
    )
    # A gap stops the chain: TH alone cannot go onto 6-7-8.
    assert melds.layoff_options(cards("6H 7H 8H"), cards("TH")) == [0]


def test_defender_lays_off_a_chain() -> None:
    """Ruling 9: against 6-7-8 of hearts the defender sheds 9H and TH."""
    answer = melds.respond(cards("9H TH 2C 2D 2S KC"), [cards("6H 7H 8H")])
    assert answer.layoffs == cards("9H TH")
    assert answer.deadwood == 10
    assert shown(answer.melds) == ["2C 2D 2S"]


def test_defender_keeps_his_own_run_rather_than_break_it() -> None:
    """Ruling 9: laying off 9H alone would break 9-T-J; he keeps the run.

    Knocker 6H 7H 8H; defender 9H TH JH 5C: laying off the whole chain
    9-T-J (nothing left but 5C) or keeping the run both leave 5.
    """
    answer = melds.respond(cards("9H TH JH 5C"), [cards("6H 7H 8H")])
    assert answer.deadwood == 5


def test_layoff_onto_a_set_of_the_right_rank_only() -> None:
    """Ruling 9: the 4S goes onto 4C-4D-4H; the 5S has nowhere to go."""
    answer = melds.respond(cards("4S 5S"), [cards("4C 4D 4H")])
    assert answer.layoffs == cards("4S")
    assert answer.deadwood == 5


def test_showdown_picks_the_arrangement_that_blocks_layoffs() -> None:
    """Ruling 8: four sevens + 8-9-T of spades leaves the defender's 6S dead.

    With three sevens + 7-8-9-T of spades the 6S would lay off.
    """
    out = cards("7C 7D 7H 7S 8S 9S TS AC 2D 3C")
    show = melds.showdown(out, cards("6S KD KH"))
    assert sorted(shown(show.out_melds)) == ["7C 7D 7H 7S", "8S 9S TS"]
    assert show.out_deadwood == 6
    assert show.defence.deadwood == 26
    assert show.defence.layoffs == 0


# -- the search against brute force -------------------------------------------


def test_going_out_agrees_with_removing_each_card() -> None:
    """going_out(hand, limit) lists exactly the discards leaving <= limit."""
    rng = random.Random(5)
    for _ in range(400):
        hand = sum(1 << c for c in rng.sample(range(52), 11))
        limit = rng.randint(0, 10)
        expected = [
            (c, melds.deadwood(hand ^ (1 << c)))
            for c in range(52)
            if hand >> c & 1 and melds.deadwood(hand ^ (1 << c)) <= limit
        ]
        assert melds.going_out(hand, limit) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True))
def test_deadwood_equals_brute_force(picked: list[int]) -> None:
    """The memoised search equals trying every set of disjoint melds."""
    hand = sum(1 << c for c in picked)
    assert melds.deadwood(hand) == brute_deadwood(hand)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 15), min_size=10, max_size=11, unique=True),
    st.integers(0, 3),
)
def test_deadwood_equals_brute_force_on_meld_rich_hands(
    picked: list[int], shift: int
) -> None:
    """Hands drawn from 16 neighbouring cards (many overlapping melds)."""
    hand = sum(1 << (c + 9 * shift) for c in picked)
    assert melds.deadwood(hand) == brute_deadwood(hand)
    for arrangement in melds.arrangements(hand):
        used = 0
        for meld in arrangement:
            assert melds.is_meld(meld)
            assert not used & meld
            used |= meld
        assert melds.value(hand ^ used) == melds.deadwood(hand)
