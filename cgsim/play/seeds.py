"""Seeds derived by a stable hash, so a run's games never depend on scheduling.

Every seed is computed in the parent process from the run seed and an index with
BLAKE2b (never Python's ``hash``, which is salted per process): the same run seed gives
the same deals and the same bot generators on any machine and with any worker count.
"""

from __future__ import annotations

import hashlib

SEED_BITS = 63
"""Seeds are non-negative and fit a signed 64-bit column."""


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from an ordered tuple of ints and strings (the namespace first)."""
    text = "\x1f".join(f"{type(part).__name__}:{part}" for part in parts)
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def deal_seed(run_seed: int, block: int) -> int:
    """The seed handed to ``game.new_game`` for every game of deal block ``block``."""
    return derive_seed("deal", run_seed, block)


def game_seed(run_seed: int, game_id: int) -> int:
    """The per-game seed the bots' generators derive from (distinct within a deal block)."""
    return derive_seed("game", run_seed, game_id)


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of the ``random.Random`` handed to the bot in ``seat``."""
    return derive_seed("seat", game_seed, seat)
