"""Smousjas for two (seed 000 line 428, the same text as seed 002 line 1).

Only the configuration is here; the game is :mod:`games.jass.stock`'s. What
makes it Smousjas: 8 cards each dealt 3-2-3 (000:440); card points J 20, 9 14,
A 11, K 4, Q 3, other J 2, 10 10 (000:444); four nines 140 and other fours
100 (000:453-455); the mariages stuk 40, dubbel 40, brok 20 (000:464-467); the
last trick 10 (000:476).
"""

from __future__ import annotations

from typing import ClassVar

from games.jass.scoring import PLAIN_POINTS, TRUMP_POINTS
from games.jass.stock import STOCK_MOVES, StockConfig, StockGame
from harness import ActionKind

__all__ = ["SMOUSJAS", "Smousjas"]

SMOUSJAS = StockConfig(
    packets=(3, 2, 3),
    plain_points=PLAIN_POINTS,
    trump_points=TRUMP_POINTS,
    last_trick=10,
    fours={r: 200 if r == "J" else 140 if r == "9" else 100 for r in "789TJQKA"},
    stuk=40,
    dubbel=40,
    brok=20,
)


class Smousjas(StockGame):
    """Smousjas: a stock, declarations with afkeuren, stuk, dubbel and brok."""

    name = "smousjas"
    description = (
        "Stock jass: 8 cards each, declarations that the other may challenge "
        "(afkeuren), the mariages stuk, dubbel and brok"
    )
    title = "Smousjas (2 players, stock, declarations)"
    action_kinds = (
        *STOCK_MOVES,
        ActionKind(
            "dubbel", "dubbel", "declare the queens of diamonds and spades (S10)"
        ),
        ActionKind(
            "brok:<king><queen>",
            "brok:K[CDHS]Q[CDHS]",
            "declare a king and a queen of different colours (S10)",
        ),
    )
    config: ClassVar[StockConfig] = SMOUSJAS
