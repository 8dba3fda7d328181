"""Planting (rules.md section 5, phase 2): tiles, flowerpots and cats on the beds.

What may be placed (the legal segments of the planting decision points), whether
anything fits, and the checked placements themselves: a tile from the Gardener Row, a
pot from the supply, a cat from the reserve.
"""

from __future__ import annotations

from cgsim.games.cottage.actions import (
    CAT,
    POT,
    TILE,
    bed_index,
    cell_of,
    encode,
    index_of,
)
from cgsim.games.cottage.cells import FEATURE_KEYS, cells_of, rc
from cgsim.games.cottage.components import Mask
from cgsim.games.cottage.describe import illegal
from cgsim.games.cottage.nursery import NURSERY_RC, nursery_rc
from cgsim.games.cottage.state import (
    KIND_CAT,
    KIND_TAKE_POT,
    Bed,
    Player,
    State,
    bed_blocked,
    bed_empty,
    tile_code,
)
from cgsim.games.cottage.work import Work, bed_with

Segment = tuple[int, tuple[int, ...]]
"""A base action and the indexes that complete it (see ``LegalActions``)."""


# --------------------------------------------------------------------------- what fits


def has_empty_cell(player: Player) -> bool:
    first, second = player.beds
    return bool(
        (first is not None and bed_empty(first)) or (second is not None and bed_empty(second))
    )


def can_place_cat(player: Player) -> bool:
    return player.cats > 0 and has_empty_cell(player)


def tile_fits(w: Work) -> bool:
    """Whether some Gardener Row tile fits one of the current player's beds."""
    rules = w.rules
    kinds = rules.tile_kind
    nursery = w.nursery
    blocked = [bed_blocked(bed) for bed in w.me.beds if bed is not None]
    for cell in rules.rows[w.space]:
        tile = nursery[cell]
        if tile >= 0:
            kind = kinds[tile]
            for mask in blocked:
                if rules.any_fits(kind, mask):
                    return True
    return False


def pot_fits(w: Work) -> bool:
    return w.supply_pots > 0 and has_empty_cell(w.me)


# --------------------------------------------------------------------------- legal segments


def _token_segments(kind: int, player: Player) -> list[Segment]:
    """A cat or pot on any empty cell of either bed."""
    segments: list[Segment] = []
    for b, bed in enumerate(player.beds):
        if bed is not None:
            empty = bed_empty(bed)
            if empty:
                segments.append((encode(kind, bed=b), cells_of(empty)))
    return segments


def cat_segments(player: Player) -> list[Segment]:
    return _token_segments(CAT, player) if player.cats > 0 else []


def main_segments(state: State) -> list[Segment]:
    """The main planting actions: every fitting Gardener Row tile, then every pot cell."""
    rules = state.rules
    kinds = rules.tile_kind
    nursery = state.nursery
    player = state.players[state.seat]
    beds = [(b, bed_blocked(bed)) for b, bed in enumerate(player.beds) if bed is not None]
    segments: list[Segment] = []
    for cell in rules.rows[state.space]:
        tile = nursery[cell]
        if tile >= 0:
            kind = kinds[tile]
            for b, blocked in beds:
                segments.append((encode(TILE, bed=b, cell=cell), rules.fits(kind, blocked)))
    if state.supply_pots > 0:
        segments += _token_segments(POT, player)
    return segments


# --------------------------------------------------------------------------- placements


def place_cat(w: Work, b: int, cell: int, why: str) -> None:
    me = w.me
    bed = me.beds[b]
    assert bed is not None  # checked by the callers
    bed = bed_with(
        bed,
        bed.tiles,
        bed.tile_pots,
        bed.tile_cloches,
        bed.pots,
        bed.cats | 1 << cell,
        bed.placed,
        bed.shapes,
    )
    beds = (bed, me.beds[1]) if b == 0 else (me.beds[0], bed)
    w.set_player(
        w.seat,
        beds,
        me.orange,
        me.blue,
        me.cats - 1,
        me.beehive,
        me.has_beehive,
        me.turns,
        me.corners,
    )
    w.placed = True
    w.emit(KIND_CAT, {"e": "cat", "bed": b, "cell": rc(cell), "why": why})


def bed_of(state: State, w: Work, action: int) -> tuple[int, Bed]:
    """The bed an action names, which must be in play."""
    bed = w.me.beds[bed_index(action)]
    if bed is None:
        raise illegal(state, action, f"bed {bed_index(action)} is not in play")
    return bed_index(action), bed


def bed_cell(state: State, action: int) -> int:
    """The bed cell an action names, which must lie on the 5x5 bed."""
    if index_of(action) >= 25:
        raise illegal(state, action, f"cell index {index_of(action)} is outside the 5x5 bed")
    return index_of(action)


def _check_empty(state: State, action: int, b: int, empty: Mask, cell: int) -> None:
    if not empty >> cell & 1:
        raise illegal(state, action, f"cell {rc(cell)} of bed {b} is not empty soil")


def hunt_cat(state: State, w: Work, action: int, why: str) -> int:
    """Place a cat from the reserve where the action says; the bed's index."""
    b, bed = bed_of(state, w, action)
    cell = bed_cell(state, action)
    if w.me.cats <= 0:
        raise illegal(state, action, "no cat in reserve")
    _check_empty(state, action, b, bed_empty(bed), cell)
    place_cat(w, b, cell, why)
    return b


def take_tile(state: State, w: Work, action: int) -> None:
    """Move a Gardener Row tile onto a bed in one of its placements."""
    rules = state.rules
    cell = cell_of(action)
    if cell not in rules.rows[state.space]:
        raise illegal(
            state, action, f"nursery cell {list(nursery_rc(cell))} is not in the Gardener Row"
        )
    tile = w.nursery[cell]
    if tile < 0:
        raise illegal(state, action, f"nursery cell {list(nursery_rc(cell))} is empty")
    b, bed = bed_of(state, w, action)
    kind = rules.catalogue.kinds[rules.tile_kind[tile]]
    index = index_of(action)
    if index >= len(kind.placements):
        raise illegal(state, action, f"tile {kind.kind} has no placement {index}")
    place = kind.placements[index]
    mask = place.mask
    if mask & bed_blocked(bed):
        raise illegal(state, action, "the tile would overlap a tile or token")
    w.clear_nursery_cell(cell)
    w.set_bed(
        b,
        bed_with(
            bed,
            bed.tiles | mask,
            bed.tile_pots | place.pots,
            bed.tile_cloches | place.cloches,
            bed.pots,
            bed.cats,
            (*bed.placed, tile),
            (*bed.shapes, mask),
        ),
    )
    w.placed = True
    features: dict[str, str] = {}
    for c in cells_of(place.pots):
        features[FEATURE_KEYS[c]] = "pot"
    for c in cells_of(place.cloches):
        features[FEATURE_KEYS[c]] = "cloche"
    w.emit(
        tile_code(b, mask),
        {
            "e": "take_tile",
            "from": list(NURSERY_RC[cell]),
            "tile": w.tile_id(tile),
            "bed": b,
            "cells": [rc(c) for c in place.cells],
            "features": features,
        },
    )


def take_pot(state: State, w: Work, action: int) -> None:
    """Move a pot from the supply onto an empty bed cell."""
    b, bed = bed_of(state, w, action)
    cell = bed_cell(state, action)
    if w.supply_pots <= 0:
        raise illegal(state, action, "no pot left in the supply")
    _check_empty(state, action, b, bed_empty(bed), cell)
    w.set_bed(
        b,
        bed_with(
            bed,
            bed.tiles,
            bed.tile_pots,
            bed.tile_cloches,
            bed.pots | 1 << cell,
            bed.cats,
            bed.placed,
            bed.shapes,
        ),
    )
    w.supply_pots -= 1
    w.placed = True
    w.emit(KIND_TAKE_POT, {"e": "take_pot", "bed": b, "cell": rc(cell)})
