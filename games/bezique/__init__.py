"""The Bezique family (bezique, marjolet, binage, ...), as one troef plugin.

Registered through the entry point ``bezique = "games.bezique"``. The family's
rules and rulings are in ``RULES.md`` beside this file.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.bezique.bezique import Bezique
from games.bezique.binage import Binage
from games.bezique.fildinski import Fildinski
from games.bezique.marjolet import Marjolet
from games.bezique.rubicon import Rubicon
from harness import Game, hookimpl

__all__ = ["Bezique", "Binage", "Fildinski", "Marjolet", "Rubicon", "troef_games"]


@hookimpl
def troef_games() -> Sequence[type[Game]]:
    """Register the bezique family's games."""
    return [
        Bezique,
        Marjolet,
        Binage,
        Rubicon,
        Fildinski,
    ]
