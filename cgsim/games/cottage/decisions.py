"""One handler per decision point: check the chosen action, perform it, run the turn on.

A handler gets the state the action was chosen in (for error messages), its working
copy and the action (its fields read with ``kind_of`` and friends). It raises ``IllegalActionError`` naming why an
action is not allowed, else changes the working copy up to the next decision point.
"""

from __future__ import annotations

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
    cube_of,
    index_of,
    kind_of,
)
from cgsim.games.cottage.cells import rc
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
from cgsim.games.cottage.state import (
    COLOR_NAMES,
    PHASE_AFTER,
    PHASE_BONUS,
    PHASE_CORNERS,
    PHASE_CUBE,
    PHASE_LIMIT,
    PHASE_PENALTY,
    PHASE_PLANT,
    PHASE_RAMBLE,
    State,
    bed_empty,
    cubes,
)
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
from cgsim.games.cottage.work import Work


def _plant(state: State, w: Work, action: int) -> None:
    kind = kind_of(action)
    if kind == CAT:
        hunt_cat(state, w, action, "hunt")
        plant_step(w)
    elif kind == TILE:
        take_tile(state, w, action)
        after_step(w)
    elif kind == POT:
        take_pot(state, w, action)
        after_step(w)
    elif kind == PASS:
        if tile_fits(w) or pot_fits(w):
            raise illegal(state, action, "a tile or a pot can still be placed")
        pass_turn(w)
    else:
        raise illegal(state, action, "expected a cat, a tile, a pot or a pass")


def _after(state: State, w: Work, action: int) -> None:
    kind = kind_of(action)
    if kind == CAT:
        hunt_cat(state, w, action, "hunt")
        after_step(w)
    elif kind == SCORE:
        b, bed = bed_of(state, w, action)
        if bed_empty(bed):
            raise illegal(state, action, f"bed {b} is not complete")
        score_bed(w, b, PHASE_AFTER)
    elif kind == DONE:
        if complete_beds(w.me):
            raise illegal(state, action, "a complete bed must be scored first")
        limit_step(w)
    else:
        raise illegal(state, action, "expected a cat, a bed to score, or done")


def _limit(state: State, w: Work, action: int) -> None:
    if kind_of(action) != CAT:
        raise illegal(state, action, "the cat limit requires placing a cat")
    b = hunt_cat(state, w, action, "limit")
    bed = w.me.beds[b]
    if bed is not None and not bed_empty(bed):
        score_bed(w, b, PHASE_LIMIT)
    else:
        limit_step(w)


def _continue_scoring(w: Work) -> None:
    done = score_continue(w)
    if done is not None:
        resume_turn(w, done)


def _cube(state: State, w: Work, action: int) -> None:
    sc = state.scoring
    assert sc is not None
    color, cube = cube_of(index_of(action))
    if kind_of(action) != CUBE or color != sc.step:
        raise illegal(state, action, f"expected an {COLOR_NAMES[sc.step]} cube to move")
    if cube not in cube_options(state.rules, cubes(w.me, color), color):
        raise illegal(
            state,
            action,
            f"{COLOR_NAMES[color]} cube {cube} may not move (on target or a duplicate)",
        )
    if not move_cube(w, color, cube):
        _continue_scoring(w)


def _bonus(state: State, w: Work, action: int) -> None:
    sc = state.scoring
    assert sc is not None
    if kind_of(action) != BONUS_POT:
        raise illegal(state, action, "expected a cell for the bonus pot")
    cell = bed_cell(state, action)
    other = w.me.beds[1 - sc.bed]
    if other is None or not bed_empty(other) >> cell & 1:
        raise illegal(state, action, f"cell {rc(cell)} of the other bed is not empty soil")
    place_bonus_pot(w, cell)
    _continue_scoring(w)


def _ramble(state: State, w: Work, action: int) -> None:
    if kind_of(action) != RAMBLE or index_of(action) > 1:
        raise illegal(state, action, "expected ramble or no ramble")
    if index_of(action):
        cost = state.rules.ramble_cost
        w.add_my_cats(-cost)
        w.supply_cats += cost
        refill(w, ramble=True)
    plant_step(w)


def _penalty(state: State, w: Work, action: int) -> None:
    move = cube_of(index_of(action))
    if kind_of(action) != PENALTY or move not in penalty_options(state.rules, w.me):
        raise illegal(state, action, "not one of the allowed penalty moves")
    do_penalty(w, *move)
    refill_step(w)


def _corners(state: State, w: Work, action: int) -> None:
    if kind_of(action) != CORNERS or index_of(action) not in corner_choices(state):
        raise illegal(state, action, "not an allowed set of nursery corners")
    if mark_corners(w, index_of(action)):
        start_turn(w)
        run_turns(w)


def handle(state: State, w: Work, action: int) -> None:
    """Hand the action to the handler of the state's decision point (any but ``OVER``).

    A chain of comparisons, not a table of functions: compiled, each handler is then a
    direct call.
    """
    phase = state.phase
    if phase == PHASE_PLANT:
        _plant(state, w, action)
    elif phase == PHASE_AFTER:
        _after(state, w, action)
    elif phase == PHASE_CUBE:
        _cube(state, w, action)
    elif phase == PHASE_LIMIT:
        _limit(state, w, action)
    elif phase == PHASE_BONUS:
        _bonus(state, w, action)
    elif phase == PHASE_RAMBLE:
        _ramble(state, w, action)
    elif phase == PHASE_PENALTY:
        _penalty(state, w, action)
    elif phase == PHASE_CORNERS:
        _corners(state, w, action)
    else:
        raise illegal(state, action, "the game is over")
