"""Which placements of a tile kind fit a bed, from tables rather than a scan of them all.

For each kind, its placements are split into words of ``WORD`` bits (placement ``i`` is
bit ``i % WORD`` of word ``i // WORD``: small ints, which compiled code handles
unboxed). For each word and each bed row, a table gives, for the 32 ways that row's
cells can be blocked, the placements covering any blocked cell. The placements that fit
a bed are then the word minus five looked-up covers: a handful of operations whatever
the number of placements, where a scan tests every placement's mask.
"""

from __future__ import annotations

from typing import Final

from cgsim.games.cottage.components import SIZE, Mask, mask_cells

WORD: Final = 60
"""Placements per word (below the 62 bits compiled code keeps unboxed)."""
_ROW_VALUES: Final = 1 << SIZE
SPAN: Final = 1 + SIZE * _ROW_VALUES
"""Entries of one word in a kind's table: the word's placements, then each row's covers."""

KindTable = tuple[int, ...]
"""One kind's table: per word, ``SPAN`` entries (see the module docstring)."""


def _kind_table(masks: tuple[Mask, ...]) -> KindTable:
    table: list[int] = []
    for start in range(0, len(masks), WORD):
        chunk = masks[start : start + WORD]
        cover = [0] * (SIZE * SIZE)
        for i, mask in enumerate(chunk):
            for cell in mask_cells(mask):
                cover[cell] |= 1 << i
        table.append((1 << len(chunk)) - 1)
        for row in range(SIZE):
            covers = [0] * _ROW_VALUES
            for value in range(1, _ROW_VALUES):
                low = (value & -value).bit_length() - 1
                covers[value] = covers[value & (value - 1)] | cover[row * SIZE + low]
            table.extend(covers)
    return tuple(table)


_TABLES: Final[dict[tuple[tuple[Mask, ...], ...], tuple[KindTable, ...]]] = {}


def fit_tables(kind_masks: tuple[tuple[Mask, ...], ...]) -> tuple[KindTable, ...]:
    """Every kind's table, built once per distinct catalogue geometry (a replay's own
    catalogue object with the default tiles reuses the default's tables)."""
    found = _TABLES.get(kind_masks)
    if found is None:
        if len(_TABLES) >= 8:
            _TABLES.clear()
        found = tuple(_kind_table(masks) for masks in kind_masks)
        _TABLES[kind_masks] = found
    return found


def _fit_word(table: KindTable, at: int, blocked: Mask) -> int:
    """The placements of the word at ``at`` that avoid ``blocked``."""
    return table[at] & ~(
        table[at + 1 + (blocked & 31)]
        | table[at + 33 + (blocked >> 5 & 31)]
        | table[at + 65 + (blocked >> 10 & 31)]
        | table[at + 97 + (blocked >> 15 & 31)]
        | table[at + 129 + (blocked >> 20 & 31)]
    )


def any_fit(table: KindTable, blocked: Mask) -> bool:
    """Whether some placement avoids ``blocked``."""
    at = 0
    end = len(table)
    while at < end:
        if _fit_word(table, at, blocked):
            return True
        at += SPAN
    return False


def fitting(table: KindTable, blocked: Mask) -> tuple[int, ...]:
    """Indexes of the placements that avoid ``blocked``, ascending."""
    found: list[int] = []
    base = 0
    at = 0
    end = len(table)
    while at < end:
        bits = _fit_word(table, at, blocked)
        while bits:
            low = bits & -bits
            found.append(base + low.bit_length() - 1)
            bits ^= low
        base += WORD
        at += SPAN
    return tuple(found)
