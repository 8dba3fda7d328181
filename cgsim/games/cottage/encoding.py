"""Cottage Garden as fixed-size arrays: the observation layout and the action index range.

Read by the learning environments (``cgsim.env``) and their bot wrapper. Every seat
block is ordered from the observer: block 0 is the observer, block 1 the next player, and
so on, so one policy can sit in any seat. The layout and the action encoding are printed
by ``encoding(rules).describe()`` (docs/env.md shows them for the default rules).
"""

from __future__ import annotations

import numpy as np

from cgsim.games.contract import Action
from cgsim.games.cottage.actions import (
    BONUS_POT,
    CAT,
    CORNERS,
    CUBE,
    DONE,
    PASS,
    PENALTY,
    POT,
    RAMBLE,
    SCORE,
    TILE,
    cube_code,
    cube_of,
    decode,
    encode,
)
from cgsim.games.cottage.components import CELLS
from cgsim.games.cottage.nursery import CORNERS as CORNER_CELLS
from cgsim.games.cottage.nursery import NURSERY_CELLS
from cgsim.games.cottage.scoring import player_score
from cgsim.games.cottage.state import PHASE_NAMES, Bed, Phase, Rules, State
from cgsim.games.encoding import (
    ActionSpace,
    Args,
    Array,
    CachedEncoder,
    Encoding,
    Field,
    ObservationLayout,
    Segment,
    one_hot,
    relative,
)

PATH_SHOWN = 4
"""Path tiles shown one by one, front first (a refill takes at most a Gardener Row's 4)."""
BED_PLANES = (
    "empty soil",
    "tile",
    "pot printed on a tile",
    "cloche printed on a tile",
    "printed pot not covered",
    "printed cloche not covered",
    "pot token",
    "cat",
)
"""The 25-cell planes of every bed, in order."""
MAX_CHILD_AGE = 7
_SHIFTS = np.arange(CELLS, dtype=np.int64)


def _layout(rules: Rules) -> ObservationLayout:
    s = rules.settings
    catalogue = rules.catalogue
    players, kinds, tiles, cubes = (
        rules.players,
        len(catalogue.kinds),
        len(catalogue.tiles),
        s.cubes,
    )
    beehive = max(s.beehives, default=0)
    best = cubes * (s.orange_track[-1] + s.blue_track[-1]) + beehive
    phases = ", ".join(PHASE_NAMES)
    return ObservationLayout(
        [
            Field("phase", (len(Phase),), 1, f"the decision point, one-hot: {phases}"),
            Field("to_move", (players,), 1, "the seat to move, one-hot, counted from the observer"),
            Field("turn", (1,), s.turn_cap, "the turn number (0 during the children's setup)"),
            Field("final_round", (1,), 1, "1 once the final round has begun"),
            Field("gardener", (s.track_spaces,), 1, "the gardener's track space, one-hot"),
            Field(
                "gardener_value", (1,), max(s.final_value, s.gardener_value), "the gardener's value"
            ),
            Field("stall", (1,), players, "final-round turns in a row without a placement"),
            Field("supply_pots", (1,), s.pots_total, "pot tokens in the supply"),
            Field("supply_cats", (1,), s.cats_total, "cats in the supply"),
            Field("beehives_taken", (1,), max(1, len(s.beehives)), "beehive tiles taken"),
            Field("supply_board", (1,), 1, "1 when a board lies in the supply"),
            Field(
                "supply_board_cells",
                (2, CELLS),
                1,
                "the supply board's side up: printed pots (row 0) and cloches (row 1), by cell",
            ),
            Field("nursery", (NURSERY_CELLS, kinds), 1, "each nursery cell's tile kind, one-hot"),
            Field("gardener_row", (NURSERY_CELLS,), 1, "the nursery cells of the Gardener Row"),
            Field("path_next", (PATH_SHOWN, kinds), 1, "the path's front tiles' kinds, one-hot"),
            Field("path_kinds", (kinds,), tiles, "tiles of each kind on the path"),
            Field("path_length", (1,), tiles, "tiles on the path"),
            Field("scoring_bed", (2,), 1, "the bed being scored, one-hot (none: zeros)"),
            Field("scoring_step", (3,), 1, "scoring's pending step: orange, blue, clean-up"),
            Field("scoring_features", (2,), CELLS, "pots and cloches of the bed being scored"),
            Field("cats", (players,), s.cats_total, "cats in reserve, per seat"),
            Field("orange", (players, cubes), len(s.orange_track) - 1, "orange cubes' spaces"),
            Field("blue", (players, cubes), len(s.blue_track) - 1, "blue cubes' spaces"),
            Field("beehive", (players,), max(1, beehive), "beehive points held, per seat"),
            Field("score", (players,), best, "the score so far: cube values and beehives"),
            Field("turns", (players,), s.turn_cap, "turns started, per seat"),
            Field("child_age", (players,), MAX_CHILD_AGE, "a child's age (0: an adult)"),
            Field("corner_cats", (players, len(CORNER_CELLS)), 1, "a child's cats on corners"),
            Field("bed_present", (players, 2), 1, "1 when the bed is in play"),
            Field("bed_dark", (players, 2), 1, "1 when the bed's board shows its dark side"),
            Field("bed_tiles", (players, 2), CELLS, "tiles placed on the bed"),
            Field(
                "bed_cells",
                (players, 2, len(BED_PLANES), CELLS),
                1,
                "per seat, bed and plane, the cells (r * 5 + c) showing: " + ", ".join(BED_PLANES),
            ),
        ]
    )


def _actions(rules: Rules) -> ActionSpace:
    cubes = rules.settings.cubes
    placements = max(len(kind.placements) for kind in rules.catalogue.kinds)
    return ActionSpace(
        [
            Segment(
                "corners", CORNERS, ("corners",), (16,), "a child's corner set (bit i: corner i)"
            ),
            Segment("penalty", PENALTY, ("colour", "cube"), (2, cubes), "the cube losing points"),
            Segment("ramble", RAMBLE, ("ramble",), (2,), "0 refill as is, 1 ramble"),
            Segment(
                "tile",
                TILE,
                ("nursery_cell", "bed", "placement"),
                (NURSERY_CELLS, 2, placements),
                "take the tile of a nursery cell (r * 4 + c) and place it on a bed in one of "
                "its kind's placements (numbered as the catalogue numbers them)",
            ),
            Segment("pot", POT, ("bed", "cell"), (2, CELLS), "a pot token on a bed cell"),
            Segment("cat", CAT, ("bed", "cell"), (2, CELLS), "a cat from reserve on a bed cell"),
            Segment("pass", PASS, (), (), "pass: nothing can be planted"),
            Segment("done", DONE, (), (), "end planting"),
            Segment("score", SCORE, ("bed",), (2,), "score a complete bed"),
            Segment("cube", CUBE, ("colour", "cube"), (2, cubes), "the cube that moves"),
            Segment("bonus_pot", BONUS_POT, ("cell",), (CELLS,), "the bonus pot's cell"),
        ],
        _split,
        _join,
    )


def _split(action: Action, seat: int) -> tuple[int, Args]:
    kind, place, bed, cell = decode(action)
    if kind == TILE:
        return kind, (cell, bed, place)
    if kind in (POT, CAT):
        return kind, (bed, place)
    if kind == SCORE:
        return kind, (bed,)
    if kind in (CUBE, PENALTY):
        return kind, cube_of(place)
    if kind in (PASS, DONE):
        return kind, ()
    return kind, (place,)


def _join(kind: int, args: Args, seat: int) -> Action:
    if kind == TILE:
        return encode(TILE, args[2], args[1], args[0])
    if kind in (POT, CAT):
        return encode(kind, args[1], args[0])
    if kind == SCORE:
        return encode(SCORE, bed=args[0])
    if kind in (CUBE, PENALTY):
        return encode(kind, cube_code(args[0], args[1]))
    if kind in (PASS, DONE):
        return encode(kind)
    return encode(kind, args[0])


def _planes(bed: Bed) -> tuple[int, ...]:
    visible = ~bed.tiles
    return (
        bed.empty,
        bed.tiles,
        bed.tile_pots,
        bed.tile_cloches,
        bed.printed_pots & visible,
        bed.printed_cloches & visible,
        bed.pots,
        bed.cats,
    )


class CottageEncoding(Encoding):
    """The encoding under one set of rules (see the module docstring)."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(_layout(rules), _actions(rules))
        self.rules = rules

    def fill(self, array: Array, observation: State, seat: int) -> None:
        state = observation
        rules = state.rules
        s = rules.settings
        catalogue = rules.catalogue
        kind_of = catalogue.tile_kind
        players = rules.players

        def field(name: str) -> Array:
            return self.layout.view(array, name)

        one_hot(field("phase"), int(state.phase))
        one_hot(field("to_move"), relative(state.seat, seat, players))
        field("turn")[0] = state.turn
        field("final_round")[0] = state.final_round
        one_hot(field("gardener"), state.space)
        field("gardener_value")[0] = state.value
        field("stall")[0] = state.stall
        field("supply_pots")[0] = state.supply_pots
        field("supply_cats")[0] = state.supply_cats
        field("beehives_taken")[0] = state.beehives_taken
        if state.supply_board is not None:
            board, dark = state.supply_board
            side = catalogue.boards[board].side(dark)
            field("supply_board")[0] = 1
            field("supply_board_cells")[:] = (
                np.array([side.pots, side.cloches])[:, None] >> _SHIFTS
            ) & 1
        nursery = field("nursery")
        for cell, tile in enumerate(state.nursery):
            if tile >= 0:
                nursery[cell, kind_of[tile]] = 1
        field("gardener_row")[list(rules.rows[state.space])] = 1
        path_next = field("path_next")
        for position, tile in enumerate(state.path[:PATH_SHOWN]):
            path_next[position, kind_of[tile]] = 1
        kinds = len(catalogue.kinds)
        if state.path:
            on_path = np.bincount([kind_of[tile] for tile in state.path], minlength=kinds)
            field("path_kinds")[:] = on_path
        field("path_length")[0] = len(state.path)
        if state.scoring is not None:
            one_hot(field("scoring_bed"), state.scoring.bed)
            one_hot(field("scoring_step"), state.scoring.step)
            field("scoring_features")[:] = (state.scoring.pots, state.scoring.cloches)
        order = [(seat + offset) % players for offset in range(players)]
        seated = [state.players[other] for other in order]
        field("cats")[:] = [p.cats for p in seated]
        field("orange")[:] = [p.orange for p in seated]
        field("blue")[:] = [p.blue for p in seated]
        field("beehive")[:] = [p.beehive for p in seated]
        field("score")[:] = [player_score(rules, p) for p in seated]
        field("turns")[:] = [p.turns for p in seated]
        field("child_age")[:] = [s.children[other] or 0 for other in order]
        corners = field("corner_cats")
        present, darks, placed = field("bed_present"), field("bed_dark"), field("bed_tiles")
        masks = np.zeros((players, 2, len(BED_PLANES)), dtype=np.int64)
        for block, player in enumerate(seated):
            for corner in player.corners:
                corners[block, CORNER_CELLS.index(corner)] = 1
            for b, bed in enumerate(player.beds):
                if bed is not None:
                    present[block, b] = 1
                    darks[block, b] = bed.dark
                    placed[block, b] = len(bed.placed)
                    masks[block, b] = _planes(bed)
        field("bed_cells")[:] = (masks[..., None] >> _SHIFTS) & 1


ENCODER = CachedEncoder(CottageEncoding)
"""Cottage Garden's encoder: one encoding per rules object, made once."""
