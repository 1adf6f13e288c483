"""Named derivations of every random stream from the one seed a record keeps.

Deal ``k`` of a match depends on (match seed, k) alone, so the same seed deals
the same cards whoever sits where: this is what makes duplicate deals work.
"""

from __future__ import annotations

import hashlib
import random

__all__ = ["bot_seed", "deal_rng", "derive_seed"]


def derive_seed(*parts: int | str) -> int:
    """Return a 63-bit seed that depends on ``parts`` only (stable across runs).

    63 bits, so that a seed fits SQLite's signed 64-bit integers.
    """
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def deal_rng(match_seed: int, deal: int) -> random.Random:
    """The random stream that shuffles deal ``deal`` of a match."""
    return random.Random(derive_seed("deal", match_seed, deal))


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed handed to the bot in ``seat`` of a match."""
    return derive_seed("bot", match_seed, seat)
