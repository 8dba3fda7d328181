"""Bed cells for the engine's hot paths: the cells of a mask, and a cell as events name it.

Tables built once at import, so each answer is a lookup or two.
"""

from __future__ import annotations

from typing import Final

from cgsim.games.cottage.components import Mask, cell_rc, mask_cells


def _chunk_cells(bits: int, shift: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(cell + shift for cell in mask_cells(v)) for v in range(1 << bits))


_CELLS_LOW: Final = _chunk_cells(9, 0)
_CELLS_MID: Final = _chunk_cells(8, 9)
_CELLS_HIGH: Final = _chunk_cells(8, 17)
"""The cells of every 9- and 8-bit piece of a bed mask, shifted to its place: a mask's
cells are three lookups (1,024 small tuples in all)."""

RC: Final[tuple[tuple[int, int], ...]] = tuple(cell_rc(cell) for cell in range(25))
"""``(row, col)`` of every bed cell."""

FEATURE_KEYS: Final[tuple[str, ...]] = tuple(f"{r},{c}" for r, c in RC)
"""A bed cell as the ``features`` of a ``take_tile`` event name it: ``"row,col"``."""


def cells_of(mask: Mask) -> tuple[int, ...]:
    """The cells of a bed mask (25 bits), ascending, by table lookup."""
    return _CELLS_LOW[mask & 511] + _CELLS_MID[mask >> 9 & 255] + _CELLS_HIGH[mask >> 17]


def rc(cell: int) -> list[int]:
    """A bed cell as events write it: ``[row, col]``."""
    r, c = RC[cell]
    return [r, c]
