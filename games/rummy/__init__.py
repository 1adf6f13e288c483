"""The rummy family: Gin Rummy (Oklahoma), registered as a troef game plugin."""

from __future__ import annotations

from collections.abc import Sequence

from games.rummy.gin import GinRummy
from harness import Game, hookimpl

__all__ = ["GinRummy", "troef_games"]


@hookimpl
def troef_games() -> Sequence[type[Game]]:
    """Register the rummy family's games."""
    return [GinRummy]
