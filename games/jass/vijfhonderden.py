"""Vijfhonderden for two (seed 000 line 380), the older form of Smousjas.

Only the configuration is here; the game is :mod:`games.jass.stock`'s. What
makes it Vijfhonderden: 9 cards each dealt 3-3-3 (000:389); card points J 20,
9 14, A 11, K 3, Q 2, other J 1, 10 10 (000:393); four jacks 200, four aces,
kings, tens or queens 100, no other fours (000:402-403, V1); stuk 20 and no
other mariage (000:412); the last trick 5 (000:420).
"""

from __future__ import annotations

from typing import ClassVar

from games.jass.stock import STOCK_MOVES, StockConfig, StockGame

__all__ = ["VIJFHONDERDEN", "Vijfhonderden"]

_PLAIN = {"7": 0, "8": 0, "9": 0, "T": 10, "J": 1, "Q": 2, "K": 3, "A": 11}
VIJFHONDERDEN = StockConfig(
    packets=(3, 3, 3),
    plain_points=_PLAIN,
    trump_points={**_PLAIN, "9": 14, "J": 20},
    last_trick=5,
    fours={"J": 200, "A": 100, "K": 100, "T": 100, "Q": 100},
    stuk=20,
)


class Vijfhonderden(StockGame):
    """Vijfhonderden: Smousjas's elder, 9 cards each, only the stuk."""

    name = "vijfhonderden"
    description = (
        "The older Smousjas: 9 cards each, four jacks 200, the stuk the only mariage, 5"
        " for the last trick"
    )
    title = "Vijfhonderden (2 players, stock, declarations)"
    action_kinds = STOCK_MOVES
    config: ClassVar[StockConfig] = VIJFHONDERDEN
