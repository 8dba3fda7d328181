"""``random.Random``'s ``randrange`` and ``shuffle`` rebuilt on its ``getrandbits``: the
same draws in the same order (CPython's algorithms), without a trip through ``random``'s
Python code for every card dealt."""

from __future__ import annotations

import random


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: ``n``'s bit length drawn until below ``n``."""
    bits = n.bit_length()
    j = rng.getrandbits(bits)
    while j >= n:
        j = rng.getrandbits(bits)
    return j


def shuffle(rng: random.Random, items: list[int]) -> None:
    """``rng.shuffle(items)``: Fisher-Yates from the end, each index from ``randbelow``."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        items[i], items[j] = items[j], items[i]
