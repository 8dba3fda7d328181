"""Planting (rules.md section 5, phase 2): tiles, flowerpots and cats on the beds.

What may be placed (the legal segments of the planting decision points), whether
anything fits, and the checked placements themselves: a tile from the Gardener Row, a
pot from the supply, a cat from the reserve.
"""

from __future__ import annotations

from cgsim.games.cottage.actions import CAT, POT, TILE, Decoded, encode
from cgsim.games.cottage.components import Mask, cell_rc, mask_cells
from cgsim.games.cottage.describe import illegal
from cgsim.games.cottage.nursery import nursery_rc
from cgsim.games.cottage.state import Bed, Player, State
from cgsim.games.cottage.work import Work, rc

Segment = tuple[int, tuple[int, ...]]
"""A base action and the indexes that complete it (see ``LegalActions``)."""


# --------------------------------------------------------------------------- what fits


def has_empty_cell(player: Player) -> bool:
    return any(bed is not None and bed.empty for bed in player.beds)


def can_place_cat(player: Player) -> bool:
    return player.cats > 0 and has_empty_cell(player)


def tile_fits(w: Work) -> bool:
    """Whether some Gardener Row tile fits one of the current player's beds."""
    rules = w.rules
    kinds = rules.catalogue.tile_kind
    beds = w.me.beds
    for cell in rules.rows[w.space]:
        tile = w.nursery[cell]
        if tile >= 0:
            for bed in beds:
                if bed is not None and rules.fits(kinds[tile], bed.blocked):
                    return True
    return False


def pot_fits(w: Work) -> bool:
    return w.supply_pots > 0 and has_empty_cell(w.me)


# --------------------------------------------------------------------------- legal segments


def _token_segments(kind: int, player: Player) -> list[Segment]:
    """A cat or pot on any empty cell of either bed."""
    return [
        (encode(kind, bed=b), tuple(mask_cells(bed.empty)))
        for b, bed in enumerate(player.beds)
        if bed is not None and bed.empty
    ]


def cat_segments(player: Player) -> list[Segment]:
    return _token_segments(CAT, player) if player.cats > 0 else []


def main_segments(state: State) -> list[Segment]:
    """The main planting actions: every fitting Gardener Row tile, then every pot cell."""
    rules = state.rules
    kinds = rules.catalogue.tile_kind
    player = state.players[state.seat]
    segments: list[Segment] = []
    for cell in rules.rows[state.space]:
        tile = state.nursery[cell]
        if tile >= 0:
            for b, bed in enumerate(player.beds):
                if bed is not None:
                    segments.append(
                        (
                            encode(TILE, bed=b, cell=cell),
                            rules.fits(kinds[tile], bed.blocked),
                        )
                    )
    if state.supply_pots > 0:
        segments += _token_segments(POT, player)
    return segments


# --------------------------------------------------------------------------- placements


def place_cat(w: Work, b: int, cell: int, why: str) -> None:
    bed = w.me.beds[b]
    assert bed is not None  # checked by the callers
    w.set_bed(b, bed._replace(cats=bed.cats | 1 << cell))
    w.set_me(w.me._replace(cats=w.me.cats - 1))
    w.placed = True
    w.emit({"e": "cat", "bed": b, "cell": rc(cell), "why": why})


def bed_of(state: State, w: Work, action: int, d: Decoded) -> tuple[int, Bed]:
    """The bed an action names, which must be in play."""
    bed = w.me.beds[d.bed]
    if bed is None:
        raise illegal(state, action, f"bed {d.bed} is not in play")
    return d.bed, bed


def bed_cell(state: State, action: int, d: Decoded) -> int:
    """The bed cell an action names, which must lie on the 5x5 bed."""
    if d.place >= 25:
        raise illegal(state, action, f"cell index {d.place} is outside the 5x5 bed")
    return d.place


def _check_empty(state: State, action: int, b: int, empty: Mask, cell: int) -> None:
    if not empty >> cell & 1:
        raise illegal(state, action, f"cell {rc(cell)} of bed {b} is not empty soil")


def hunt_cat(state: State, w: Work, action: int, d: Decoded, why: str) -> int:
    """Place a cat from the reserve where the action says; the bed's index."""
    b, bed = bed_of(state, w, action, d)
    cell = bed_cell(state, action, d)
    if w.me.cats <= 0:
        raise illegal(state, action, "no cat in reserve")
    _check_empty(state, action, b, bed.empty, cell)
    place_cat(w, b, cell, why)
    return b


def take_tile(state: State, w: Work, action: int, d: Decoded) -> None:
    """Move a Gardener Row tile onto a bed in one of its placements."""
    rules = state.rules
    cell = d.cell
    if cell not in rules.rows[state.space]:
        raise illegal(
            state, action, f"nursery cell {list(nursery_rc(cell))} is not in the Gardener Row"
        )
    tile = w.nursery[cell]
    if tile < 0:
        raise illegal(state, action, f"nursery cell {list(nursery_rc(cell))} is empty")
    b, bed = bed_of(state, w, action, d)
    kind = rules.catalogue.kinds[rules.catalogue.tile_kind[tile]]
    index = d.place
    if index >= len(kind.placements):
        raise illegal(state, action, f"tile {kind.kind} has no placement {index}")
    place = kind.placements[index]
    if place.mask & bed.blocked:
        raise illegal(state, action, "the tile would overlap a tile or token")
    w.nursery[cell] = -1
    w.set_bed(
        b,
        bed._replace(
            tiles=bed.tiles | place.mask,
            tile_pots=bed.tile_pots | place.pots,
            tile_cloches=bed.tile_cloches | place.cloches,
            placed=(*bed.placed, tile),
            shapes=(*bed.shapes, place.mask),
        ),
    )
    w.placed = True
    features = {}
    for c in mask_cells(place.pots):
        features["{},{}".format(*cell_rc(c))] = "pot"
    for c in mask_cells(place.cloches):
        features["{},{}".format(*cell_rc(c))] = "cloche"
    w.emit(
        {
            "e": "take_tile",
            "from": list(nursery_rc(cell)),
            "tile": w.tile_id(tile),
            "bed": b,
            "cells": [rc(c) for c in place.cells],
            "features": features,
        }
    )


def take_pot(state: State, w: Work, action: int, d: Decoded) -> None:
    """Move a pot from the supply onto an empty bed cell."""
    b, bed = bed_of(state, w, action, d)
    cell = bed_cell(state, action, d)
    if w.supply_pots <= 0:
        raise illegal(state, action, "no pot left in the supply")
    _check_empty(state, action, b, bed.empty, cell)
    w.set_bed(b, bed._replace(pots=bed.pots | 1 << cell))
    w.supply_pots -= 1
    w.placed = True
    w.emit({"e": "take_pot", "bed": b, "cell": rc(cell)})
