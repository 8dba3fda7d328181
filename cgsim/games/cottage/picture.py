"""A state as plain data for the browser viewer: what each cell, track and pile shows.

The page draws only what this module says, so the viewer and the terminal rendering read
the same engine state and cannot disagree about the game.
"""

from __future__ import annotations

from typing import Any

from cgsim.games.cottage.components import Catalogue, mask_cells
from cgsim.games.cottage.nursery import NURSERY_CELLS, nursery_rc
from cgsim.games.cottage.scoring import player_score
from cgsim.games.cottage.state import PHASE_NAMES, SIDE_NAMES, Bed, Player, State


def _tile(catalogue: Catalogue, tile: int) -> dict[str, Any]:
    """A tile as its id, kind and shape (cells and printed features, reference orientation)."""
    kind = catalogue.kinds[catalogue.tile_kind[tile]]
    features = {cell: feature for cell, feature in kind.features}
    return {
        "id": catalogue.tiles[tile].id,
        "kind": kind.kind,
        "cells": [[r, c, features.get((r, c), "")] for r, c in kind.cells],
    }


def _bed(catalogue: Catalogue, bed: Bed | None) -> dict[str, Any] | None:
    """A bed as 25 cells, row-major: ``[what, tile order or -1]``.

    ``what`` is ``soil``, ``pot``/``cloche`` (printed on the board), ``tile``, ``tile-pot``,
    ``tile-cloche`` (printed on the tile), ``token`` (a flowerpot token) or ``cat``.
    """
    if bed is None:
        return None
    order = {cell: n for n, shape in enumerate(bed.shapes) for cell in mask_cells(shape)}
    cells: list[list[Any]] = []
    for i in range(25):
        bit = 1 << i
        if bed.tiles & bit:
            what = (
                "tile-pot"
                if bed.tile_pots & bit
                else "tile-cloche"
                if bed.tile_cloches & bit
                else "tile"
            )
        elif bed.pots & bit:
            what = "token"
        elif bed.cats & bit:
            what = "cat"
        elif bed.printed_pots & bit:
            what = "pot"
        elif bed.printed_cloches & bit:
            what = "cloche"
        else:
            what = "soil"
        cells.append([what, order.get(i, -1)])
    return {
        "board": catalogue.boards[bed.board].id,
        "side": SIDE_NAMES[bed.dark],
        "cells": cells,
        "tiles": [catalogue.tiles[t].id for t in bed.placed],
        "pots": bed.count_pots(),
        "cloches": bed.count_cloches(),
    }


def _player(state: State, seat: int, player: Player) -> dict[str, Any]:
    s = state.rules.settings
    return {
        "seat": seat,
        "child": s.children[seat],
        "score": player_score(state.rules, player),
        "cats": player.cats,
        "beehive": player.beehive if player.has_beehive else None,
        "orange": list(player.orange),
        "blue": list(player.blue),
        "beds": [_bed(state.rules.catalogue, bed) for bed in player.beds],
    }


def _gardener_cell(state: State) -> list[int]:
    """Where the gardener stands, on a 6x6 grid around the nursery (the nursery is rows
    and columns 1..4): one step outside the closest cell of the Gardener Row."""
    row = state.rules.rows[state.space]
    (r0, c0), (r1, c1) = nursery_rc(row[0]), nursery_rc(row[1])
    return [r0 + (r0 - r1) + 1, c0 + (c0 - c1) + 1]


def picture(state: State) -> dict[str, Any]:
    """Everything the viewer draws of one state, as JSON-ready data."""
    rules = state.rules
    s = rules.settings
    catalogue = rules.catalogue
    return {
        "turn": state.turn,
        "seat": state.seat,
        "phase": PHASE_NAMES[state.phase],
        "final_round": state.final_round,
        "end": state.end,
        "gardener": {
            "space": state.space,
            "spaces": s.track_spaces,
            "value": state.value,
            "final_value": s.final_value,
            "row": [list(nursery_rc(i)) for i in rules.rows[state.space]],
            "at": _gardener_cell(state),
        },
        "nursery": [
            _tile(catalogue, t) if t >= 0 else None
            for t in (state.nursery[i] for i in range(NURSERY_CELLS))
        ],
        "path": [catalogue.tiles[t].id for t in state.path],
        "supply": {"cats": state.supply_cats, "pots": state.supply_pots},
        "tracks": {"orange": list(s.orange_track), "blue": list(s.blue_track)},
        "red_line": s.red_line,
        "players": [_player(state, seat, p) for seat, p in enumerate(state.players)],
        "scores": [player_score(rules, p) for p in state.players],
    }
