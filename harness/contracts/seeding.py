"""Named derivations of every random stream from the one seed a record keeps.

Deal ``k`` of a match depends on (match seed, k) alone, so the same seed deals
the same cards whoever sits where: this is what makes duplicate deals work.
"""

from __future__ import annotations

import hashlib
import random
import secrets

__all__ = ["bot_seed", "deal_rng", "derive_seed", "new_master_seed", "new_secret"]


def derive_seed(*parts: int | str) -> int:
    """Return a 63-bit seed that depends on ``parts`` only (stable across runs).

    63 bits, so that a seed fits SQLite's signed 64-bit integers.
    """
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def deal_rng(match_seed: int, deal: int) -> random.Random:
    """The random stream that shuffles deal ``deal`` of a match."""
    return random.Random(derive_seed("deal", match_seed, deal))


def bot_seed(match_seed: int, seat: int, secret: bytes = b"") -> int:
    """The seed handed to the bot in ``seat`` of a match.

    With a ``secret`` (a tournament's, kept in its store and never sent to a
    bot) the seed is a keyed hash: it tells a bot nothing about the match seed,
    so no search over master seeds and match indexes can lead it to the deals.
    Without one (``troef play``, trusted in-process runs) it is the public
    recipe, reproducible from the match seed alone.
    """
    if not secret:
        return derive_seed("bot", match_seed, seat)
    text = f"bot\x1f{match_seed}\x1f{seat}".encode()
    digest = hashlib.blake2b(text, digest_size=8, key=secret[:64]).digest()
    return int.from_bytes(digest, "big") >> 1


def new_secret() -> bytes:
    """A fresh per-tournament secret for :func:`bot_seed` (32 random bytes)."""
    return secrets.token_bytes(32)


def new_master_seed() -> int:
    """A random 63-bit master seed, for a tournament whose config gives none."""
    return secrets.randbits(63)
