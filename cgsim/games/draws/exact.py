"""``random.Random``'s ``randrange``, ``shuffle`` and weighted ``choices`` rebuilt on its
``getrandbits`` and ``random``: the same draws in the same order (CPython's algorithms),
without a trip through ``random``'s Python code for every card dealt."""

from __future__ import annotations

import random
from collections.abc import Sequence


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


def weighted_index(rng: random.Random, weights: Sequence[float]) -> int:
    """``rng.choices(range(len(weights)), weights=weights)[0]``: one ``random()`` scaled by
    the running total, then the first cumulative weight above it (``bisect_right``)."""
    cumulative: list[float] = []
    total = 0.0
    for weight in weights:
        total += weight
        cumulative.append(total)
    point = rng.random() * (total + 0.0)
    low, high = 0, len(cumulative) - 1
    while low < high:
        middle = (low + high) // 2
        if point < cumulative[middle]:
            high = middle
        else:
            low = middle + 1
    return low
