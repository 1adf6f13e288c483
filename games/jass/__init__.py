"""The jass family of trick-taking games (klaverjassen, ...), as one troef plugin.

Registered through the entry point ``jass = "games.jass"``. The family's rules
and rulings are in ``RULES.md`` beside this file.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.jass.belote import Belote
from games.jass.klapper import Klapper
from games.jass.klaverjassen3 import Klaverjassen3
from games.jass.kleintje import Kleintje
from games.jass.smousjas import Smousjas
from games.jass.variants import Klaverjassen
from games.jass.vijfhonderden import Vijfhonderden
from harness import Game, hookimpl

__all__ = [
    "Belote",
    "Klapper",
    "Klaverjassen",
    "Klaverjassen3",
    "Kleintje",
    "Smousjas",
    "Vijfhonderden",
    "troef_games",
]


@hookimpl
def troef_games() -> Sequence[type[Game]]:
    """Register the jass family's games."""
    return [
        Klaverjassen,
        Klapper,
        Belote,
        Klaverjassen3,
        Kleintje,
        Smousjas,
        Vijfhonderden,
    ]
