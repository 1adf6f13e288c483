"""Roem: the bonus points for combinations of cards inside one trick (jass family).

Rule text: seeds/004, "Roem zijn bonuspunten ..." (lines 109-117). For roem the
order is always A-K-Q-J-10-9-8-7, whatever the trick ranks. That is exactly the
index order of :data:`games.cards.PIQUET` (``"789TJQKA"``), so a run is a string
of consecutive set bits inside one suit's byte of a card mask, and the roem of a
trick is a few table look-ups on the mask of its cards.

=========================  ======
run of 3 in one suit         20
run of 4 in one suit         50
four cards of one rank      100
four jacks                  200
stuk (K and Q of trump)      20, also when the K and Q are part of a run
=========================  ======
"""

from __future__ import annotations

from games.cards import PIQUET, CardMask

__all__ = [
    "RUN_3",
    "RUN_4",
    "STUK",
    "roem_parts",
    "roem_parts_three",
    "trick_roem",
    "trick_roem_three",
]

RUN_3 = 20
RUN_4 = 50
FOUR_OF_A_KIND = 100
FOUR_JACKS = 200
STUK = 20

_N = PIQUET.n_ranks  # 8 cards per suit: one byte of the mask per suit
_BYTE = (1 << _N) - 1


def _runs(byte: int) -> tuple[int, ...]:
    """The lengths of the maximal runs of set bits in ``byte``."""
    runs, length = [], 0
    for bit in range(_N + 1):
        if bit < _N and byte >> bit & 1:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return tuple(runs)


def _run_value(length: int) -> int:
    # The text scores runs of 3 and 4 only; a trick holds at most 4 cards.
    return RUN_4 if length >= 4 else RUN_3 if length == 3 else 0


#: Roem of the runs in one suit, by the suit's byte of the mask.
_RUN_ROEM: tuple[int, ...] = tuple(
    sum(_run_value(n) for n in _runs(b)) for b in range(1 << _N)
)
#: Mask of the four cards of each rank -> (name, points).
_FOURS: dict[CardMask, tuple[str, int]] = {
    sum(1 << (s * _N + r) for s in range(4)): (
        ("four jacks", FOUR_JACKS)
        if PIQUET.ranks[r] == "J"
        else (f"four {PIQUET.ranks[r]}s", FOUR_OF_A_KIND)
    )
    for r in range(_N)
}
#: Mask of the king and queen of each suit (the stuk when that suit is trump).
_STUK_MASK: tuple[CardMask, ...] = tuple(
    (1 << PIQUET.index["K" + s]) | (1 << PIQUET.index["Q" + s]) for s in "CDHS"
)


#: Points of the four of a kind in a trick's mask, by mask.
_FOUR_POINTS: dict[CardMask, int] = {m: points for m, (_, points) in _FOURS.items()}
# trick_roem runs once per trick, so it spells the suit bytes out (8 bits each).
assert _N == 8


def trick_roem(mask: CardMask, trump: int) -> int:
    """The roem in the cards of ``mask`` (one trick) when suit ``trump`` is trump."""
    run = _RUN_ROEM
    roem = (
        run[mask & 255]
        + run[mask >> 8 & 255]
        + run[mask >> 16 & 255]
        + run[mask >> 24]
        + _FOUR_POINTS.get(mask, 0)
    )
    stuk = _STUK_MASK[trump]
    if mask & stuk == stuk:
        roem += STUK
    return roem


def roem_parts(mask: CardMask, trump: int) -> tuple[tuple[str, int], ...]:
    """The combinations making up :func:`trick_roem`, e.g. ``(("run of 3", 20),)``."""
    parts: list[tuple[str, int]] = []
    for s in range(4):
        for n in _runs(mask >> s * _N & _BYTE):
            if n >= 3:
                parts.append((f"run of {min(n, 4)}", _run_value(n)))
    four = _FOURS.get(mask)
    if four is not None:
        parts.append(four)
    stuk = _STUK_MASK[trump]
    if mask & stuk == stuk:
        parts.append(("stuk", STUK))
    return tuple(parts)


# -- tricks of three cards (Klaverjassen for 3, seed 004 lines 62-68) -----------

#: Roem in a trick of three: a run of three 40, three of a kind 80, three
#: jacks 120; the stuk 20 as above, also inside a run.
THREE_RUN = 40
THREE_OF_A_KIND = 80
THREE_JACKS = 120
#: Mask of three cards of one rank -> (name, points): 4 masks per rank.
_THREES: dict[CardMask, tuple[str, int]] = {
    sum(1 << (s * _N + r) for s in range(4) if s != missing): (
        ("three jacks", THREE_JACKS)
        if PIQUET.ranks[r] == "J"
        else (f"three {PIQUET.ranks[r]}s", THREE_OF_A_KIND)
    )
    for r in range(_N)
    for missing in range(4)
}
_THREE_POINTS: dict[CardMask, int] = {m: p for m, (_, p) in _THREES.items()}
#: A run of three in one suit's byte: three consecutive bits.
_IS_RUN3: tuple[bool, ...] = tuple(3 in _runs(b) for b in range(1 << _N))


def trick_roem_three(mask: CardMask, trump: int) -> int:
    """The roem in a trick of three cards (``mask``) when ``trump`` is trump."""
    run = _IS_RUN3
    roem = _THREE_POINTS.get(mask, 0)
    if (
        run[mask & 255]
        or run[mask >> 8 & 255]
        or run[mask >> 16 & 255]
        or run[mask >> 24]
    ):
        roem += THREE_RUN
    stuk = _STUK_MASK[trump]
    if mask & stuk == stuk:
        roem += STUK
    return roem


def roem_parts_three(mask: CardMask, trump: int) -> tuple[tuple[str, int], ...]:
    """The combinations making up :func:`trick_roem_three`."""
    parts: list[tuple[str, int]] = []
    if any(_IS_RUN3[mask >> s * _N & _BYTE] for s in range(4)):
        parts.append(("run of 3", THREE_RUN))
    three = _THREES.get(mask)
    if three is not None:
        parts.append(three)
    stuk = _STUK_MASK[trump]
    if mask & stuk == stuk:
        parts.append(("stuk", STUK))
    return tuple(parts)
