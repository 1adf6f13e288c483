"""The tarot family (Maison Tarot, La Rigueur, ...), as one troef plugin.

Registered through the entry point ``tarot = "games.tarot"``. The family's
rules and rulings are in ``RULES.md`` beside this file; what the games share
is in :mod:`games.tarot.common`.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.tarot.maison import LaRigueur, MaisonTarot
from games.tarot.triomphe import TriompheForcee
from games.tarot.troggen import MaisonTroggen
from harness import Game, hookimpl

__all__ = [
    "LaRigueur",
    "MaisonTarot",
    "MaisonTroggen",
    "TriompheForcee",
    "troef_games",
]


@hookimpl
def troef_games() -> Sequence[type[Game]]:
    """Register the tarot family's games."""
    return [
        MaisonTarot,
        LaRigueur,
        MaisonTroggen,
        TriompheForcee,
    ]
