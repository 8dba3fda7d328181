"""Plain-text pictures of a game state, for ``play --show`` and ``replay``.

Bed cells are two characters: what lies on the cell, then a mark. ``.`` bare soil;
``P``/``C`` a printed pot or cloche still visible; ``a``-``z`` the tiles in the order
they were placed, marked ``p``/``c`` where the tile shows a pot or cloche and ``x``
where it covers a printed feature; ``O`` a pot token; ``M`` a cat.
"""

from __future__ import annotations

import string

from cgsim.games.cottage.components import mask_cells
from cgsim.games.cottage.scoring import player_score
from cgsim.games.cottage.state import COLOR_NAMES, PHASE_NAMES, Bed, Player, State

LEGEND = (
    "beds: . soil  P/C printed pot/cloche  a-z tiles in placement order "
    "(p/c pot/cloche on the tile, x covers a printed feature)  O pot token  M cat"
)


def bed_lines(state: State, bed: Bed | None, title: str) -> list[str]:
    if bed is None:
        return [f"{title}: (none)"] + [" " * 14] * 5
    catalogue = state.rules.catalogue
    cell_letter: dict[int, str] = {}
    for letter, shape in zip(string.ascii_lowercase * 3, bed.shapes, strict=False):
        for cell in mask_cells(shape):
            cell_letter[cell] = letter
    side = catalogue.boards[bed.board].id + ("d" if bed.dark else "l")
    lines = [f"{title} board {side}:"]
    for r in range(5):
        cells = []
        for c in range(5):
            i, bit = r * 5 + c, 1 << (r * 5 + c)
            if bed.tiles & bit:
                mark = "p" if bed.tile_pots & bit else "c" if bed.tile_cloches & bit else ""
                if not mark and (bed.printed_pots | bed.printed_cloches) & bit:
                    mark = "x"
                cells.append(cell_letter.get(i, "#") + (mark or " "))
            elif bed.pots & bit:
                cells.append("O ")
            elif bed.cats & bit:
                cells.append("M ")
            elif bed.printed_pots & bit:
                cells.append("P ")
            elif bed.printed_cloches & bit:
                cells.append("C ")
            else:
                cells.append(". ")
        lines.append(" ".join(cells))
    return lines


def _cubes(state: State, player: Player) -> str:
    parts = []
    for color, positions in enumerate((player.orange, player.blue)):
        track = state.rules.track(color)
        values = ", ".join("T20" if i == len(track) - 1 else str(track[i]) for i in positions)
        parts.append(f"{COLOR_NAMES[color]} {values}")
    return " | ".join(parts)


def render_nursery(state: State) -> list[str]:
    """The 4x4 nursery; ``[..]`` marks the cells of the current Gardener Row."""
    tiles = state.rules.catalogue.tiles
    row = set(state.rules.rows[state.space])
    lines = []
    for r in range(4):
        cells = []
        for c in range(4):
            i = r * 4 + c
            name = tiles[state.nursery[i]].id.split("-")[0] if state.nursery[i] >= 0 else ".."
            cells.append(f"[{name:>2}]" if i in row else f" {name:>2} ")
        lines.append(" ".join(cells))
    return lines


def render(state: State) -> str:
    """The whole table: gardener, nursery, path, then each player's beds, cubes and score."""
    s = state.rules.settings
    head = f"turn {state.turn}" + (" (final round)" if state.final_round else "")
    if state.end:
        head += f" - game over ({state.end})"
    else:
        head += f" - seat {state.seat} to play ({PHASE_NAMES[state.phase]})"
    lines = [
        head,
        f"gardener: space {state.space} of {s.track_spaces}, value {state.value}/{s.final_value}; "
        f"path: {len(state.path)} tiles; supply: {state.supply_cats} cats, {state.supply_pots} pots",
    ]
    lines += render_nursery(state)
    for seat, player in enumerate(state.players):
        child = s.children[seat]
        who = f"seat {seat}" + (f" (child {child})" if child else "")
        hive = f", beehive {player.beehive}" if player.has_beehive else ""
        lines.append("")
        lines.append(
            f"{who}: score {player_score(state.rules, player)}{hive}, cats {player.cats}; {_cubes(state, player)}"
        )
        left = bed_lines(state, player.beds[0], "bed 0")
        right = bed_lines(state, player.beds[1], "bed 1")
        for a, b in zip(left, right, strict=True):
            lines.append(f"  {a:<18}    {b}")
    lines.append("")
    lines.append(LEGEND)
    return "\n".join(lines)
