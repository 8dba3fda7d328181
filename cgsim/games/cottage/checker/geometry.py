"""Gardener-track geometry and tile orientations, derived from rules.md section 1."""

from __future__ import annotations

from functools import lru_cache

Cell = tuple[int, int]

CORNERS: tuple[Cell, ...] = ((0, 0), (0, 3), (3, 3), (3, 0))
"""The corner before side 0, 1, 2, 3 (clockwise from the starting space)."""

_DIAGONALS: tuple[tuple[Cell, ...], ...] = (
    ((0, 0), (1, 1), (2, 2), (3, 3)),
    ((0, 3), (1, 2), (2, 1), (3, 0)),
    ((3, 3), (2, 2), (1, 1), (0, 0)),
    ((3, 0), (2, 1), (1, 2), (0, 3)),
)

ORIENTATIONS: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1),
    (0, 1, -1, 0),
    (-1, 0, 0, -1),
    (0, -1, 1, 0),
    (1, 0, 0, -1),
    (0, 1, 1, 0),
    (-1, 0, 0, 1),
    (0, -1, -1, 0),
)
"""The 4 rotations and 4 reflections as matrices: (r, c) -> (a*r + b*c, c_*r + d*c)."""

BED_SIZE = 5


def _edge_cells(side: int, j: int) -> tuple[Cell, ...]:
    if side == 0:
        return tuple((r, j) for r in range(4))
    if side == 1:
        return tuple((j, c) for c in (3, 2, 1, 0))
    if side == 2:
        return tuple((r, 3 - j) for r in (3, 2, 1, 0))
    return tuple((3 - j, c) for c in range(4))


def gardener_row(space: int, track_spaces: int) -> tuple[Cell, ...]:
    """Nursery cells faced from ``space``, closest to the gardener first."""
    per_side = track_spaces // 4
    side, k = divmod(space, per_side)
    if per_side == 4:
        return _edge_cells(side, k)
    if k == 0:
        return _DIAGONALS[side]
    return _edge_cells(side, k - 1)


def spaces_walked(start: int, step: int, track_spaces: int) -> list[int]:
    """Every space the gardener enters in one move, the last being where it stops."""
    return [(start + i) % track_spaces for i in range(1, step + 1)]


def corners_passed(start: int, step: int, track_spaces: int) -> list[Cell]:
    """Corners crossed in one move, in the order they are crossed."""
    per_side = track_spaces // 4
    return [
        CORNERS[k // per_side]
        for k in spaces_walked(start, step, track_spaces)
        if k % per_side == 0
    ]


def transform(matrix: tuple[int, int, int, int], cell: Cell) -> Cell:
    """Apply an orientation matrix to a cell."""
    a, b, c, d = matrix
    return a * cell[0] + b * cell[1], c * cell[0] + d * cell[1]


def is_placement(reference: tuple[Cell, ...], cells: list[Cell]) -> bool:
    """True when ``cells`` is ``reference`` under one orientation and a translation, in order."""
    if len(cells) != len(reference) or not reference:
        return False
    for matrix in ORIENTATIONS:
        first = transform(matrix, reference[0])
        dr, dc = cells[0][0] - first[0], cells[0][1] - first[1]
        if all(
            (moved[0] + dr, moved[1] + dc) == cell
            for moved, cell in zip(
                (transform(matrix, ref) for ref in reference), cells, strict=True
            )
        ):
            return True
    return False


def mask_of(cells: list[Cell] | tuple[Cell, ...]) -> int:
    """A 25-bit mask of bed cells."""
    mask = 0
    for row, col in cells:
        mask |= 1 << (row * BED_SIZE + col)
    return mask


@lru_cache(maxsize=256)
def placement_masks(reference: tuple[Cell, ...]) -> frozenset[int]:
    """Every mask a tile of this shape can cover on a bed (any orientation, any offset)."""
    masks = set()
    for matrix in ORIENTATIONS:
        moved = [transform(matrix, cell) for cell in reference]
        top = min(r for r, _ in moved)
        left = min(c for _, c in moved)
        shape = [(r - top, c - left) for r, c in moved]
        height = max(r for r, _ in shape) + 1
        width = max(c for _, c in shape) + 1
        for dr in range(BED_SIZE - height + 1):
            for dc in range(BED_SIZE - width + 1):
                masks.add(mask_of([(r + dr, c + dc) for r, c in shape]))
    return frozenset(masks)
