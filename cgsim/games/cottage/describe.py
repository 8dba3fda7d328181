"""Readable text of actions, for logs, and the error raised for an illegal one."""

from __future__ import annotations

from cgsim.errors import IllegalActionError
from cgsim.games.cottage import actions as act
from cgsim.games.cottage.components import cell_rc
from cgsim.games.cottage.nursery import CORNERS, NURSERY_CELLS, nursery_rc
from cgsim.games.cottage.state import COLOR_NAMES, State


def describe(state: State, action: int) -> str:
    """A short readable text for an action in a state (for logs and errors)."""
    d = act.decode(action)
    catalogue = state.rules.catalogue
    if d.kind == act.TILE:
        tile = state.nursery[d.cell] if d.cell < NURSERY_CELLS else -1
        name = catalogue.tiles[tile].id if tile >= 0 else "?"
        r, c = nursery_rc(d.cell)
        if tile >= 0 and d.place < len(catalogue.kinds[catalogue.tile_kind[tile]].placements):
            place = catalogue.kinds[catalogue.tile_kind[tile]].placements[d.place]
            return (
                f"take {name} from nursery [{r},{c}] to bed {d.bed}, orientation {place.orientation} "
                f"at [{place.row},{place.col}]"
            )
        return f"take tile from nursery [{r},{c}] to bed {d.bed}, placement {d.place}"
    if d.kind in (act.POT, act.CAT):
        r, c = cell_rc(d.place)
        return f"{d.name} on bed {d.bed} [{r},{c}]"
    if d.kind == act.BONUS_POT:
        r, c = cell_rc(d.place)
        return f"bonus pot on the other bed [{r},{c}]"
    if d.kind in (act.CUBE, act.PENALTY):
        color_index, cube = act.cube_of(d.place)
        color = COLOR_NAMES[color_index] if color_index < 2 else "?"
        verb = "move" if d.kind == act.CUBE else "penalty on"
        return f"{verb} {color} cube {cube}"
    if d.kind == act.SCORE:
        return f"score bed {d.bed}"
    if d.kind == act.RAMBLE:
        return "ramble" if d.place else "no ramble"
    if d.kind == act.CORNERS:
        return "corners " + " ".join(
            str(list(nursery_rc(CORNERS[i]))) for i in range(len(CORNERS)) if d.place >> i & 1
        )
    return d.name


def illegal(state: State, action: int, why: str) -> IllegalActionError:
    """The error for an illegal action: turn, seat, the action in words and why."""
    return IllegalActionError(
        f"turn {state.turn}, seat {state.seat}: action {describe(state, action)}: {why}"
    )
