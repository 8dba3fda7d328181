"""Gardener-row geometry (rules.md section 1): rows, refill order and corners."""

from __future__ import annotations

import pytest

from cgsim.games.cottage.nursery import (
    CORNERS,
    corner_entries,
    gardener_rows,
    nursery_index,
    nursery_rc,
)


def rc_rows(spaces: int) -> list[list[tuple[int, int]]]:
    return [[nursery_rc(i) for i in row] for row in gardener_rows(spaces)]


@pytest.mark.parametrize(
    ("space", "row"),
    [
        (0, [(0, 0), (1, 0), (2, 0), (3, 0)]),
        (3, [(0, 3), (1, 3), (2, 3), (3, 3)]),
        (4, [(0, 3), (0, 2), (0, 1), (0, 0)]),
        (6, [(2, 3), (2, 2), (2, 1), (2, 0)]),
        (8, [(3, 3), (2, 3), (1, 3), (0, 3)]),
        (11, [(3, 0), (2, 0), (1, 0), (0, 0)]),
        (12, [(3, 0), (3, 1), (3, 2), (3, 3)]),
        (15, [(0, 0), (0, 1), (0, 2), (0, 3)]),
    ],
)
def test_16_space_rows_closest_first(space: int, row: list[tuple[int, int]]) -> None:
    assert rc_rows(16)[space] == row


@pytest.mark.parametrize(
    ("space", "row"),
    [
        (0, [(0, 0), (1, 1), (2, 2), (3, 3)]),
        (1, [(0, 0), (1, 0), (2, 0), (3, 0)]),
        (4, [(0, 3), (1, 3), (2, 3), (3, 3)]),
        (5, [(0, 3), (1, 2), (2, 1), (3, 0)]),
        (6, [(0, 3), (0, 2), (0, 1), (0, 0)]),
        (10, [(3, 3), (2, 2), (1, 1), (0, 0)]),
        (11, [(3, 3), (2, 3), (1, 3), (0, 3)]),
        (15, [(3, 0), (2, 1), (1, 2), (0, 3)]),
        (16, [(3, 0), (3, 1), (3, 2), (3, 3)]),
        (19, [(0, 0), (0, 1), (0, 2), (0, 3)]),
    ],
)
def test_20_space_rows_and_diagonals(space: int, row: list[tuple[int, int]]) -> None:
    assert rc_rows(20)[space] == row


@pytest.mark.parametrize("spaces", [16, 20])
def test_every_row_has_four_distinct_cells(spaces: int) -> None:
    rows = gardener_rows(spaces)
    assert len(rows) == spaces
    for row in rows:
        assert len(set(row)) == 4
        assert all(0 <= cell < 16 for cell in row)


def test_16_space_rows_cover_each_line_once_per_side() -> None:
    rows = [frozenset(row) for row in gardener_rows(16)]
    # Opposite sides face the same lines (column j from the top, again from the bottom).
    assert rows[1] == rows[10] and rows[5] == rows[14]
    assert len(set(rows)) == 8


def test_corner_cells_and_entries() -> None:
    assert [nursery_rc(c) for c in CORNERS] == [(0, 0), (0, 3), (3, 3), (3, 0)]
    entries16 = corner_entries(16)
    assert {k: nursery_rc(c) for k, c in enumerate(entries16) if c >= 0} == {
        0: (0, 0),
        4: (0, 3),
        8: (3, 3),
        12: (3, 0),
    }
    entries20 = corner_entries(20)
    assert {k: nursery_rc(c) for k, c in enumerate(entries20) if c >= 0} == {
        0: (0, 0),
        5: (0, 3),
        10: (3, 3),
        15: (3, 0),
    }


def test_nursery_index_round_trip() -> None:
    for i in range(16):
        assert nursery_index(*nursery_rc(i)) == i
