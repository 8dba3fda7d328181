"""Geometry of the nursery and the gardener's track (rules.md section 1), built once.

Nursery cells are indexed ``r * 4 + c``. A Gardener Row lists its cells closest to the
gardener first: that is the refill order.
"""

from __future__ import annotations

from functools import cache
from typing import Final

NURSERY_CELLS: Final = 16
CORNERS: Final[tuple[int, ...]] = (0, 3, 15, 12)
"""Nursery corner cells, in the order of the sides they come before: corner before side 0
(between left and top) is (0,0), side 1 (0,3), side 2 (3,3), side 3 (3,0)."""


NURSERY_RC: Final[tuple[tuple[int, int], ...]] = tuple(
    divmod(cell, 4) for cell in range(NURSERY_CELLS)
)
"""``(row, col)`` of every nursery cell."""


def nursery_index(r: int, c: int) -> int:
    return r * 4 + c


def nursery_rc(index: int) -> tuple[int, int]:
    return divmod(index, 4)


def _edge_row(side: int, j: int) -> tuple[tuple[int, int], ...]:
    if side == 0:
        return tuple((i, j) for i in range(4))
    if side == 1:
        return tuple((j, 3 - i) for i in range(4))
    if side == 2:
        return tuple((3 - i, 3 - j) for i in range(4))
    return tuple((3 - j, i) for i in range(4))


_DIAGONALS: Final[tuple[tuple[tuple[int, int], ...], ...]] = (
    ((0, 0), (1, 1), (2, 2), (3, 3)),
    ((0, 3), (1, 2), (2, 1), (3, 0)),
    ((3, 3), (2, 2), (1, 1), (0, 0)),
    ((3, 0), (2, 1), (1, 2), (0, 3)),
)


@cache
def gardener_rows(track_spaces: int) -> tuple[tuple[int, ...], ...]:
    """For each track space, the nursery cells of its Gardener Row, closest first."""
    rows: list[tuple[tuple[int, int], ...]] = []
    for k in range(track_spaces):
        if track_spaces == 16:
            rows.append(_edge_row(k // 4, k % 4))
        elif k % 5 == 0:
            rows.append(_DIAGONALS[k // 5])
        else:
            rows.append(_edge_row(k // 5, k % 5 - 1))
    return tuple(tuple(nursery_index(r, c) for r, c in row) for row in rows)


@cache
def corner_entries(track_spaces: int) -> tuple[int, ...]:
    """For each track space, the corner passed by a move that arrives there, else -1.

    16 spaces: arriving at ``k % 4 == 0`` crosses from one side to the next; 20 spaces:
    arriving on the corner space ``k % 5 == 0`` (moving onto or over it).
    """
    per_side = 4 if track_spaces == 16 else 5
    return tuple(CORNERS[k // per_side] if k % per_side == 0 else -1 for k in range(track_spaces))
