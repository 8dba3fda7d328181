"""Planting: the one main action of a turn (take a tile, take a pot, or pass)."""

from __future__ import annotations

from cgsim.games.cottage.checker.context import TurnContext, describe
from cgsim.games.cottage.checker.fields import get, get_cell, get_list, get_str, to_cell
from cgsim.games.cottage.checker.geometry import (
    BED_SIZE,
    gardener_row,
    is_placement,
    placement_masks,
)

MAIN_ACTIONS = ("take_tile", "take_pot", "pass")


def main_action(ctx: TurnContext) -> None:
    """Consume exactly one ``take_tile``, ``take_pot`` or ``pass``."""
    kind = ctx.peek_kind()
    if kind == "take_tile":
        _take_tile(ctx)
    elif kind == "take_pot":
        if ctx.state.supply_pots < 1:
            ctx.current = ctx.position
            raise ctx.fail("no pot left in the supply")
        ctx.place_token("take_pot", "pot")
        ctx.state.supply_pots -= 1
    elif kind == "pass":
        event = ctx.take("pass")
        get_str(event, "reason", "pass")
        reason = _placement_possible(ctx)
        if reason:
            raise ctx.fail(f"passing is not allowed: {reason}")
    else:
        ctx.take("take_tile", "the main action: take_tile, take_pot or pass")


def _take_tile(ctx: TurnContext) -> None:
    state = ctx.state
    event = ctx.take("take_tile")
    origin = get_cell(event, "from", "take_tile", 4)
    row = gardener_row(state.gardener_space, ctx.rules.track_spaces)
    if origin not in row:
        raise ctx.fail(f"from {list(origin)} is not in the Gardener Row {[list(c) for c in row]}")
    tile_id = state.nursery[origin]
    if tile_id is None:
        raise ctx.fail(f"nursery cell {list(origin)} holds no tile")
    if get(event, "tile", "take_tile") != tile_id:
        raise ctx.fail(f"tile is {event['tile']!r}, nursery cell {list(origin)} holds {tile_id}")
    index, bed = ctx.bed_of(event, "take_tile")
    tile = state.tiles[tile_id]
    cells = [to_cell(c, "take_tile.cells", BED_SIZE) for c in get_list(event, "cells", "take_tile")]
    if not is_placement(tile.cells, cells):
        raise ctx.fail(
            f"cells {[list(c) for c in cells]} are not tile {tile_id} {[list(c) for c in tile.cells]} "
            "rotated or flipped, in the order of its reference cells"
        )
    for cell in cells:
        if not bed.is_free(cell):
            raise ctx.fail(f"cell {list(cell)} of bed {index} holds a {describe(bed, cell)}")
    expected = {
        f"{cells[tile.cells.index(ref)][0]},{cells[tile.cells.index(ref)][1]}": kind
        for ref, kind in tile.features.items()
    }
    features = get(event, "features", "take_tile")
    if features != expected:
        raise ctx.fail(f"features are {features!r}, the placed tile shows {expected!r}")
    state.nursery[origin] = None
    for cell in cells:
        bed.tiles[cell] = tile_id
    for ref, kind in tile.features.items():
        bed.tile_features[cells[tile.cells.index(ref)]] = kind
    bed.tile_order.append(tile_id)
    ctx.placed = True


def _placement_possible(ctx: TurnContext) -> str:
    """Why the player could have planted (empty string when a pass is forced)."""
    state = ctx.state
    beds = [(i, bed) for i, bed in enumerate(ctx.player.beds) if bed is not None]
    if state.supply_pots > 0:
        for index, bed in beds:
            empty = bed.empty_cells()
            if empty:
                return f"a pot could go on cell {list(empty[0])} of bed {index}"
    for cell in gardener_row(state.gardener_space, ctx.rules.track_spaces):
        tile_id = state.nursery[cell]
        if tile_id is None:
            continue
        masks = placement_masks(state.tiles[tile_id].cells)
        for index, bed in beds:
            blocked = bed.blocked_mask()
            if any(mask & blocked == 0 for mask in masks):
                return f"tile {tile_id} from {list(cell)} fits on bed {index}"
    return ""
