"""The flow of a turn (rules.md section 5), from its start to the gardener.

Each step either stops at a decision point (it sets ``Work.phase``) or runs straight on
into the next automatic step: the final-round penalty, the refill (or a ramble choice),
planting or a pass, the after-action steps (mouse hunt, scoring order), the cat limit,
and the gardener. ``run_turns`` starts each next turn iteratively, so long runs of
automatic turns never recurse.
"""

from __future__ import annotations

from cgsim.games.cottage.gardener import do_penalty, gardener, penalty_options
from cgsim.games.cottage.nursery import NURSERY_RC
from cgsim.games.cottage.planting import can_place_cat, place_cat, pot_fits, tile_fits
from cgsim.games.cottage.scoring import complete_beds, score_start
from cgsim.games.cottage.state import (
    KIND_OTHER,
    KIND_PASS,
    PHASE_AFTER,
    PHASE_LIMIT,
    PHASE_PENALTY,
    PHASE_PLANT,
    PHASE_RAMBLE,
    Phase,
    bed_empty,
    refill_code,
    turn_kind,
)
from cgsim.games.cottage.work import Work


def start_turn(w: Work) -> None:
    """Begin the current seat's turn and run it to its first decision (or its end)."""
    w.turn += 1
    w.start_my_turn()
    w.placed = False
    w.emit(
        turn_kind(w.seat, w.final_round),
        {"e": "_turn", "n": w.turn, "seat": w.seat, "final_round": w.final_round},
    )
    beds = w.me.beds
    w.had_bed = beds[0] is not None or beds[1] is not None
    if w.final_round and not w.had_bed:
        gardener(w)
        return
    if w.final_round:
        options = penalty_options(w.rules, w.me)
        if len(options) > 1:
            w.phase = PHASE_PENALTY
            return
        if options:
            do_penalty(w, *options[0])
    refill_step(w)


def _row_empty_cells(w: Work) -> list[int]:
    return [cell for cell in w.rules.rows[w.space] if w.nursery[cell] < 0]


def refill_step(w: Work) -> None:
    rules = w.rules
    empty = len(_row_empty_cells(w))
    if empty >= rules.refill_mandatory:
        refill(w, ramble=False)
    elif empty and rules.ramble and w.path and w.me.cats >= rules.ramble_cost:
        w.phase = PHASE_RAMBLE
        return
    plant_step(w)


def refill(w: Work, ramble: bool) -> None:
    """Fill the empty Gardener Row cells from the front of the path."""
    cells = _row_empty_cells(w)[: len(w.path)]
    if not cells:
        return
    tiles = list(w.path[: len(cells)])
    w.fill_nursery(cells, tiles)
    w.emit(
        refill_code(ramble),
        {
            "e": "refill",
            "cells": [list(NURSERY_RC[cell]) for cell in cells],
            "tiles": [w.tile_id(tile) for tile in tiles],
            "ramble": ramble,
        },
    )


def plant_step(w: Work) -> None:
    if can_place_cat(w.me) or tile_fits(w) or pot_fits(w):
        w.phase = PHASE_PLANT
        return
    pass_turn(w)


def pass_turn(w: Work) -> None:
    """Nothing can be planted: record why and go on after the main action."""
    if all(w.nursery[cell] < 0 for cell in w.rules.rows[w.space]):
        tiles = "no tile in the Gardener Row"
    else:
        tiles = "no Gardener Row tile fits a bed"
    pots = "no pot left in the supply" if w.supply_pots == 0 else "no empty cell for a pot"
    w.emit(KIND_PASS, {"e": "pass", "reason": f"{tiles} and {pots}"})
    after_step(w)


def after_step(w: Work) -> None:
    complete = complete_beds(w.me)
    if can_place_cat(w.me) or len(complete) > 1:
        w.phase = PHASE_AFTER
    elif complete:
        score_bed(w, complete[0], PHASE_AFTER)
    else:
        limit_step(w)


def limit_step(w: Work) -> None:
    rules = w.rules
    complete = complete_beds(w.me)
    if complete:
        score_bed(w, complete[0], PHASE_LIMIT)
        return
    child = rules.children[w.seat] is not None
    if not rules.bonus_cat_limit or child or not w.had_bed or w.me.cats <= rules.cat_limit:
        gardener(w)
        return
    cells = [
        (b, bed_empty(bed)) for b, bed in enumerate(w.me.beds) if bed is not None and bed_empty(bed)
    ]
    if not cells:
        extra = w.me.cats - rules.cat_limit
        w.set_cats(w.seat, rules.cat_limit)
        w.supply_cats += extra
        w.emit(KIND_OTHER, {"e": "return_cats", "count": extra})
        gardener(w)
        return
    if len(cells) == 1 and cells[0][1].bit_count() == 1:
        b, mask = cells[0]
        place_cat(w, b, mask.bit_length() - 1, "limit")
        limit_step(w)
        return
    w.phase = PHASE_LIMIT


def score_bed(w: Work, b: int, resume: Phase) -> None:
    """Score bed ``b``, then go on from ``resume`` unless a choice is pending."""
    done = score_start(w, b, resume)
    if done is not None:
        resume_turn(w, done)


def resume_turn(w: Work, resume: Phase) -> None:
    """Go on with the turn where a finished bed scoring interrupted it."""
    if resume == PHASE_AFTER:
        after_step(w)
    else:
        limit_step(w)


def run_turns(w: Work) -> None:
    """Start each next turn iteratively, so long runs of automatic turns never recurse."""
    while w.turn_pending:
        w.turn_pending = False
        start_turn(w)
