"""The shape of a Cottage Garden record (``cgsim.record/1``, game-record.md), checked
before the engine replays it or the independent checker reads it.

Written from the format document alone: it imports nothing of the engine nor of the
checker, so both can rely on it. Its bounds are the format's outer ones (types, lengths,
grid cells, a few hundred of anything): enough that no reader loops or allocates without
bound. The rule settings' own ranges are the game's (``settings.py``), applied on replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.shapes import (
    FAULT,
    Anything,
    Bool,
    Int,
    ListOf,
    MapOf,
    Nullable,
    Obj,
    OneOf,
    Shape,
    Str,
    Tagged,
    cell,
    int_list,
    strings,
    validate,
)

FORMAT = "cgsim.record/1"
GAME = "cottage-garden"

SEED = Int(-(2**63), 2**64 - 1)
COUNT = Int(0, 1000)
"""Cats, pots, track indexes, points: far above any game, far below any cost."""
SEAT = Int(0, 3)
BED = Int(0, 1)
CUBE = Int(0, 15)
NAME = Str(100)
TILE = NAME
COLOR = strings("orange", "blue")
SIDE = strings("light", "dark")
BED_CELL = cell(5)
NURSERY_CELL = cell(4)
TILE_IDS = ListOf(TILE, 0, 200)
BOARD_REF = Obj({"board": NAME, "side": SIDE})
FEATURES = MapOf(Str(10), strings("pot", "cloche"), 25)

RULES = Obj(
    {
        "solo": Bool(),
        "children": ListOf(Nullable(OneOf((5, 6, 7))), 1, 4),
        "ramble": Bool(),
        "start_cats": COUNT,
        "cats_total": COUNT,
        "pots_total": COUNT,
        "cat_limit": COUNT,
        "cubes": Int(1, 15),
        "refill_mandatory": COUNT,
        "ramble_cost": COUNT,
        "orange_track": int_list(0, 1000, 64),
        "blue_track": int_list(0, 1000, 64),
        "red_line": COUNT,
        "gardener_value": COUNT,
        "final_value": COUNT,
        "gardener_step": COUNT,
        "track_spaces": COUNT,
        "turning_space": COUNT,
        "discard_below": COUNT,
        "penalty_points": COUNT,
        "penalty_orange_spaces": COUNT,
        "penalty_blue_spaces": COUNT,
        "beehives": int_list(0, 1000, 16),
        "bonus_red_line_cat": Bool(),
        "bonus_start_pot": Bool(),
        "bonus_cat_limit": Bool(),
        "turn_cap": Int(1, 100_000),
    }
)

COMPONENTS = Obj(
    {
        "tiles": MapOf(
            NAME,
            Obj({"kind": NAME, "cells": ListOf(BED_CELL, 1, 25), "features": FEATURES}),
            200,
        ),
        "boards": MapOf(
            NAME, Obj({"light": ListOf(Str(5), 5, 5), "dark": ListOf(Str(5), 5, 5)}), 100
        ),
    }
)

SETUP = Obj(
    {
        "nursery": ListOf(ListOf(TILE, 4, 4), 4, 4),
        "path": TILE_IDS,
        "beds": ListOf(ListOf(BOARD_REF, 0, 2), 1, 4),
        "supply_board": BOARD_REF,
        "gardener": Obj({"space": COUNT, "value": COUNT}),
        "cats": int_list(0, 1000, 4, 1),
        "supply": Obj({"cats": COUNT, "pots": COUNT}),
        "corner_cats": ListOf(Obj({"seat": SEAT, "corner": NURSERY_CELL}), 0, 16),
    }
)

CUBE_MOVE = Obj({"color": COLOR, "cube": CUBE, "from": COUNT, "to": COUNT})

EVENT = Tagged(
    "e",
    {
        "penalty": CUBE_MOVE,
        "refill": Obj({"cells": ListOf(NURSERY_CELL, 0, 16), "tiles": TILE_IDS, "ramble": Bool()}),
        "take_tile": Obj(
            {
                "from": NURSERY_CELL,
                "tile": TILE,
                "bed": BED,
                "cells": ListOf(BED_CELL, 1, 25),
                "features": FEATURES,
            }
        ),
        "take_pot": Obj({"bed": BED, "cell": BED_CELL}),
        "cat": Obj({"bed": BED, "cell": BED_CELL, "why": strings("hunt", "limit")}),
        "pass": Obj({"reason": Str(200)}),
        "score": Obj(
            {"bed": BED, "board": NAME, "side": SIDE, "pots": Int(0, 25), "cloches": Int(0, 25)}
        ),
        "move": CUBE_MOVE,
        "gain_cat": Obj({"why": strings("red_line", "corner")}, {"seat": SEAT}),
        "bonus_pot": Obj({"bed": BED, "cell": BED_CELL}),
        "beehive": Obj({"value": COUNT}),
        "cleanup": Obj({"bed": BED, "to_path": TILE_IDS, "new_board": Nullable(BOARD_REF)}),
        "discard_bed": Obj({"seat": SEAT, "bed": BED, "to_path": TILE_IDS}),
        "return_cats": Obj({"count": COUNT}),
        "gardener": Obj({"space": COUNT, "value": COUNT, "final_round": Bool()}),
    },
)

TURN = Obj(
    {
        "n": Int(0, 1_000_000),
        "seat": SEAT,
        "final_round": Bool(),
        "events": ListOf(EVENT, 0, 1000),
    }
)

RESULT = Obj(
    {
        "scores": ListOf(Int(-100_000, 100_000), 1, 4),
        "beehives": int_list(0, 1000, 4, 1),
        "winners": ListOf(SEAT, 0, 4),
        "turns": Int(0, 1_000_000),
        "end": strings("normal", "stalled", "aborted"),
    }
)

RECORD: Shape = Obj(
    {
        "format": strings(FORMAT),
        "seed": SEED,
        "players": Int(1, 4),
        "rules": RULES,
        "seats": ListOf(Obj({"bot": NAME, "params": MapOf(NAME, Anything(), 100)}), 1, 4),
        "components": COMPONENTS,
        "setup": SETUP,
        "turns": ListOf(TURN, 0, 100_000),
    },
    {"game": strings(GAME), "engine_version": NAME, "result": RESULT, "error": FAULT},
)
"""A whole record; ``result`` is absent from the record of a game stopped before its end
(a person quit, or a fault: then ``error`` says which)."""


def validate_record(record: Any) -> None:
    """Raise ``RecordError`` (``cottage-garden record: WHERE what``) at the first field of
    the wrong type, range or length."""
    validate(RECORD, record, GAME)


def is_stopped(record: Mapping[str, Any]) -> bool:
    """Whether the record is of a game stopped before its end (a person quit): it has no
    ``result``, and holds the turns played out before the stop."""
    return "result" not in record
