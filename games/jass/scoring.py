"""Card values and deal scoring of klaverjassen (Rotterdam), shared by the jass family.

Rule text: seeds/004 lines 104-105 (ranks and points), 117-124 (scoring);
rulings R6 and R8-R10 of ``games/jass/RULES.md``. Points are plain ints; a
team is 0 (seats 0 and 2) or 1 (seats 1 and 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.tricks import TrickRecord

__all__ = [
    "CARD_TOTAL",
    "LAST_TRICK",
    "PIT_BONUS",
    "PLAIN_ORDER",
    "PLAIN_POINTS",
    "TRUMP_ORDER",
    "TRUMP_POINTS",
    "DealSummary",
    "beat_each_or_reserve",
    "beat_every_side",
    "deal_score",
    "round_score",
]

#: Plain suits rank A-10-K-Q-J-9-8-7 (seed line 104), weakest first here.
PLAIN_ORDER = "789JQKTA"
#: Trumps rank J-9-A-10-K-Q-8-7 (seed line 104), weakest first here.
TRUMP_ORDER = "78QKTA9J"
#: Card points (seed line 105): 152 on the cards.
PLAIN_POINTS = {"7": 0, "8": 0, "9": 0, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
TRUMP_POINTS = {**PLAIN_POINTS, "9": 14, "J": 20}
#: The last trick is worth 10 (seed line 105); 162 points in a deal besides roem.
LAST_TRICK = 10
CARD_TOTAL = 162
#: Winning every trick earns 100 more (seed line 122).
PIT_BONUS = 100


def round_score(points: int) -> int:
    """Round to the nearest ten, a five upwards (R9): 85 -> 90, 84 -> 80."""
    return (points + 5) // 10 * 10


class DealSummary(NamedTuple):
    """How one deal was scored; kept by the State that played it."""

    #: Deal index in the match.
    deal: int
    #: Trump suit number (0..3 = C D H S).
    trump: int
    #: The team whose member said "play" (or was made to play).
    playing_team: int
    #: Card points plus the last-trick 10, per team (sum 162).
    points: tuple[int, int]
    #: Roem in the tricks each team won.
    roem: tuple[int, int]
    #: True when the playing team scored more than half (R8); False is nat.
    made: bool
    #: The team that won all eight tricks, or ``None``.
    pit_team: int | None
    #: Each team's points for the deal before rounding.
    raw: tuple[int, int]
    #: Each team's points for the deal after rounding: added to the match.
    scores: tuple[int, int]
    #: The eight tricks as in :attr:`KlaverjassenView.tricks`.
    tricks: tuple[TrickRecord, ...]


def deal_score(
    playing_team: int,
    points: Sequence[int],
    roem: Sequence[int],
    tricks_won: Sequence[int],
    *,
    contract: int = 0,
    multiplier: int = 1,
) -> tuple[bool, int | None, tuple[int, int], tuple[int, int]]:
    """Score a finished deal: ``(made, pit_team, raw, rounded)`` per team.

    :param points: card points plus last trick per team (they sum to 162).
    :param roem: roem in each team's tricks.
    :param tricks_won: tricks per team (they sum to 8).

    The playing team must score more than half of everything in the deal
    (162 + all roem), else it is nat and the defenders get everything (R8).
    The pit bonus goes to a team with all eight tricks (R10). Rounding comes
    last, per team (R9).

    Variants: the playing team must also reach ``contract`` (Leids, R18), and
    both rounded scores are multiplied by ``multiplier`` (Kraken, R21).
    """
    total = CARD_TOTAL + roem[0] + roem[1]
    mine = points[playing_team] + roem[playing_team]
    made = 2 * mine > total and mine >= contract
    if made:
        raw = [points[0] + roem[0], points[1] + roem[1]]
    else:
        raw = [0, 0]
        raw[1 - playing_team] = total
    pit_team = 0 if tricks_won[0] == 8 else 1 if tricks_won[1] == 8 else None
    if pit_team is not None:
        raw[pit_team] += PIT_BONUS
    if multiplier != 1:
        # R21: the raw points stay as played; the rounded scores are multiplied.
        return (
            made,
            pit_team,
            (raw[0], raw[1]),
            (round_score(raw[0]) * multiplier, round_score(raw[1]) * multiplier),
        )
    return (
        made,
        pit_team,
        (raw[0], raw[1]),
        (round_score(raw[0]), round_score(raw[1])),
    )


def beat_every_side(
    playing: int, totals: Sequence[int]
) -> tuple[bool, tuple[int, ...]]:
    """Klapper's deal score (seed 002 lines 147, 151): ``(made, scores)``.

    The playing side (index ``playing`` in ``totals``, each side's points in
    tricks and roem) must have strictly more than every other side. Then each
    side scores its own; else the playing side scores nothing and the others
    still their own.
    """
    mine = totals[playing]
    made = all(mine > t for i, t in enumerate(totals) if i != playing)
    return made, tuple(
        0 if i == playing and not made else t for i, t in enumerate(totals)
    )


def beat_each_or_reserve(
    maker: int, totals: Sequence[int]
) -> tuple[tuple[int, ...], int]:
    """Belote's deal score (seed 002 lines 94-95): ``(scores, reserve)``.

    The maker (index ``maker`` in ``totals``) must have strictly more than
    every other player: then each scores his own. Below one of them he scores
    nothing and his points go to the player with the most. When he ties for
    the most, or two others tie for who gets his points, his points go to the
    reserve (the second value) and no one scores them now.
    """
    mine = totals[maker]
    top = max(t for i, t in enumerate(totals) if i != maker)
    scores = list(totals)
    if mine > top:
        return tuple(scores), 0
    scores[maker] = 0
    leaders = [i for i, t in enumerate(totals) if i != maker and t == top]
    if mine < top and len(leaders) == 1:
        scores[leaders[0]] += mine
        return tuple(scores), 0
    return tuple(scores), mine
