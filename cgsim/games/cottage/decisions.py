"""One handler per decision point: check the chosen action, perform it, run the turn on.

A handler gets the state the action was chosen in (for error messages), its working
copy, the action and its decoded fields. It raises ``IllegalActionError`` naming why an
action is not allowed, else changes the working copy up to the next decision point.
"""

from __future__ import annotations

from collections.abc import Callable

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
    Decoded,
    cube_of,
)
from cgsim.games.cottage.describe import illegal
from cgsim.games.cottage.gardener import corner_choices, do_penalty, mark_corners, penalty_options
from cgsim.games.cottage.planting import (
    bed_cell,
    bed_of,
    hunt_cat,
    pot_fits,
    take_pot,
    take_tile,
    tile_fits,
)
from cgsim.games.cottage.scoring import (
    complete_beds,
    cube_options,
    move_cube,
    place_bonus_pot,
    score_continue,
)
from cgsim.games.cottage.state import COLOR_NAMES, Phase, State, cubes
from cgsim.games.cottage.turn import (
    after_step,
    limit_step,
    pass_turn,
    plant_step,
    refill,
    refill_step,
    resume_turn,
    run_turns,
    score_bed,
    start_turn,
)
from cgsim.games.cottage.work import Work, rc

Handler = Callable[[State, Work, int, Decoded], None]


def _plant(state: State, w: Work, action: int, d: Decoded) -> None:
    kind = d.kind
    if kind == CAT:
        hunt_cat(state, w, action, d, "hunt")
        plant_step(w)
    elif kind == TILE:
        take_tile(state, w, action, d)
        after_step(w)
    elif kind == POT:
        take_pot(state, w, action, d)
        after_step(w)
    elif kind == PASS:
        if tile_fits(w) or pot_fits(w):
            raise illegal(state, action, "a tile or a pot can still be placed")
        pass_turn(w)
    else:
        raise illegal(state, action, "expected a cat, a tile, a pot or a pass")


def _after(state: State, w: Work, action: int, d: Decoded) -> None:
    kind = d.kind
    if kind == CAT:
        hunt_cat(state, w, action, d, "hunt")
        after_step(w)
    elif kind == SCORE:
        b, bed = bed_of(state, w, action, d)
        if bed.empty:
            raise illegal(state, action, f"bed {b} is not complete")
        score_bed(w, b, Phase.AFTER)
    elif kind == DONE:
        if complete_beds(w.me):
            raise illegal(state, action, "a complete bed must be scored first")
        limit_step(w)
    else:
        raise illegal(state, action, "expected a cat, a bed to score, or done")


def _limit(state: State, w: Work, action: int, d: Decoded) -> None:
    if d.kind != CAT:
        raise illegal(state, action, "the cat limit requires placing a cat")
    b = hunt_cat(state, w, action, d, "limit")
    bed = w.me.beds[b]
    if bed is not None and not bed.empty:
        score_bed(w, b, Phase.LIMIT)
    else:
        limit_step(w)


def _continue_scoring(w: Work) -> None:
    done = score_continue(w)
    if done is not None:
        resume_turn(w, done)


def _cube(state: State, w: Work, action: int, d: Decoded) -> None:
    sc = state.scoring
    assert sc is not None
    color, cube = cube_of(d.place)
    if d.kind != CUBE or color != sc.step:
        raise illegal(state, action, f"expected an {COLOR_NAMES[sc.step]} cube to move")
    if cube not in cube_options(state.rules, cubes(w.me, color), color):
        raise illegal(
            state,
            action,
            f"{COLOR_NAMES[color]} cube {cube} may not move (on target or a duplicate)",
        )
    if not move_cube(w, color, cube):
        _continue_scoring(w)


def _bonus(state: State, w: Work, action: int, d: Decoded) -> None:
    sc = state.scoring
    assert sc is not None
    if d.kind != BONUS_POT:
        raise illegal(state, action, "expected a cell for the bonus pot")
    cell = bed_cell(state, action, d)
    other = w.me.beds[1 - sc.bed]
    if other is None or not other.empty >> cell & 1:
        raise illegal(state, action, f"cell {rc(cell)} of the other bed is not empty soil")
    place_bonus_pot(w, cell)
    _continue_scoring(w)


def _ramble(state: State, w: Work, action: int, d: Decoded) -> None:
    if d.kind != RAMBLE or d.place > 1:
        raise illegal(state, action, "expected ramble or no ramble")
    if d.place:
        cost = state.rules.settings.ramble_cost
        w.set_me(w.me._replace(cats=w.me.cats - cost))
        w.supply_cats += cost
        refill(w, ramble=True)
    plant_step(w)


def _penalty(state: State, w: Work, action: int, d: Decoded) -> None:
    move = cube_of(d.place)
    if d.kind != PENALTY or move not in penalty_options(state.rules, w.me):
        raise illegal(state, action, "not one of the allowed penalty moves")
    do_penalty(w, *move)
    refill_step(w)


def _corners(state: State, w: Work, action: int, d: Decoded) -> None:
    if d.kind != CORNERS or d.place not in corner_choices(state):
        raise illegal(state, action, "not an allowed set of nursery corners")
    if mark_corners(w, d.place):
        start_turn(w)
        run_turns(w)


HANDLERS: dict[Phase, Handler] = {
    Phase.PLANT: _plant,
    Phase.AFTER: _after,
    Phase.LIMIT: _limit,
    Phase.CUBE: _cube,
    Phase.BONUS: _bonus,
    Phase.RAMBLE: _ramble,
    Phase.PENALTY: _penalty,
    Phase.CORNERS: _corners,
}
"""The handler of every decision point; ``Phase.OVER`` has none."""
