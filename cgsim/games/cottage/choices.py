"""The legal actions as a menu for a person at the terminal: pick a tile, then a bed, then
one of its placements, each drawn on the bed (never a list of hundreds of numbers)."""

from __future__ import annotations

from collections.abc import Sequence

from cgsim.games.contract import Choice
from cgsim.games.cottage import actions as act
from cgsim.games.cottage.components import Placement, mask_cells
from cgsim.games.cottage.describe import describe
from cgsim.games.cottage.nursery import nursery_rc
from cgsim.games.cottage.render import bed_lines
from cgsim.games.cottage.state import State


def _placement_drawing(state: State, bed_index: int, place: Placement) -> str:
    """The bed as rendered, with the new tile's cells shown as ``##`` (``#p``/``#c``
    where the tile shows a pot or a cloche)."""
    bed = state.players[state.seat].beds[bed_index]
    lines = bed_lines(state, bed, f"bed {bed_index}")[1:]
    cells = [[line[3 * c : 3 * c + 2] for c in range(5)] for line in lines]
    for cell in mask_cells(place.mask):
        bit = 1 << cell
        mark = "p" if place.pots & bit else "c" if place.cloches & bit else "#"
        cells[cell // 5][cell % 5] = "#" + mark
    return "\n".join(" ".join(row).rstrip() for row in cells)


def _tile_drawing(state: State, tile: int) -> str:
    """The tile's shape as the catalogue draws it (``#`` a flower, ``P``/``C`` features)."""
    catalogue = state.rules.catalogue
    kind = catalogue.kinds[catalogue.tile_kind[tile]]
    return "\n".join(row.replace(".", " ").rstrip() for row in kind.shape_rows())


def _tiles(state: State, tiles: Sequence[int]) -> tuple[Choice, ...]:
    """Tile actions grouped by nursery cell, then bed, then placement."""
    catalogue = state.rules.catalogue
    by_cell: dict[int, dict[int, list[int]]] = {}
    for action in tiles:
        d = act.decode(action)
        by_cell.setdefault(d.cell, {}).setdefault(d.bed, []).append(action)
    menu = []
    for cell, beds in by_cell.items():
        tile = state.nursery[cell]
        kind = catalogue.kinds[catalogue.tile_kind[tile]]
        bed_choices = []
        for bed, actions in beds.items():
            placements = tuple(
                Choice(
                    f"orientation {kind.placements[p].orientation} at "
                    f"[{kind.placements[p].row},{kind.placements[p].col}]",
                    action,
                    _placement_drawing(state, bed, kind.placements[p]),
                )
                for action in actions
                for p in (act.decode(action).place,)
            )
            bed_choices.append(Choice(f"bed {bed} ({len(actions)} placements)", options=placements))
        r, c = nursery_rc(cell)
        label = f"tile {catalogue.tiles[tile].id} from nursery [{r},{c}]"
        menu.append(Choice(label, drawing=_tile_drawing(state, tile), options=tuple(bed_choices)))
    return tuple(menu)


def choices(state: State, legal: Sequence[int]) -> tuple[Choice, ...]:
    """The menu of a decision: tiles grouped, every other action by its description."""
    tiles = [a for a in legal if act.kind_of(a) == act.TILE]
    others = tuple(Choice(describe(state, a), a) for a in legal if act.kind_of(a) != act.TILE)
    return _tiles(state, tiles) + others
