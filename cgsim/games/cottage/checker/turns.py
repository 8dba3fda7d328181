"""One turn replayed event by event, in the order of game-record.md ("Order of events")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.cottage.checker.context import TurnContext
from cgsim.games.cottage.checker.endings import game_end, gardener
from cgsim.games.cottage.checker.fields import get_bool, get_int, get_list, get_str, is_int, to_cell
from cgsim.games.cottage.checker.geometry import gardener_row
from cgsim.games.cottage.checker.planting import main_action
from cgsim.games.cottage.checker.scoring import score_bed
from cgsim.games.cottage.checker.state import COLOURS, State
from cgsim.games.cottage.checker.violations import Fatal, Violation


def play_turn(state: State, turn: Any, count: int, out: list[Violation]) -> str | None:
    """Replay the ``count``-th turn (1-based); the game's end after it, or None.

    Raises ``Fatal`` (already recorded in ``out``) once the replay cannot go on.
    """
    raw_n = turn.get("n") if isinstance(turn, Mapping) else None
    n = raw_n if isinstance(raw_n, int) and is_int(raw_n) else count
    if not isinstance(turn, Mapping):
        return _stop(out, n, None, f"turn is not an object: {turn!r}")
    if raw_n != count:
        out.append(Violation(n, None, f"turn n is {raw_n!r}, expected {count}"))
    events = turn.get("events")
    if not isinstance(events, list):
        return _stop(out, n, None, "turn.events: expected a list")
    expected_seat = (count - 1) % len(state.players)
    seat = turn.get("seat")
    if seat != expected_seat:
        return _stop(out, n, None, f"turn seat is {seat!r}, seat {expected_seat} plays now")
    if turn.get("final_round") is not state.final_round:
        out.append(
            Violation(
                n,
                None,
                f"turn final_round is {turn.get('final_round')!r}, expected {state.final_round}",
            )
        )
    ctx = TurnContext(state, events, n, expected_seat, out)
    try:
        end = _phases(ctx, count)
        if ctx.position < len(events):
            ctx.peek()
            ctx.current = ctx.position
            raise ctx.fail("unexpected event after the end of the turn")
    except Fatal as fatal:
        event = fatal.event if fatal.event is not None else ctx.current
        return _stop(out, n, event if event < len(events) else None, fatal.message)
    return end


def _stop(out: list[Violation], n: int, event: int | None, message: str) -> str:
    out.append(Violation(n, event, message))
    raise Fatal(message, event)


def _phases(ctx: TurnContext, count: int) -> str | None:
    final_turn = ctx.state.final_round
    if ctx.player.has_beds():
        if final_turn:
            _penalty(ctx)
        _refill(ctx)
        _planting_and_scoring(ctx)
        _cat_limit(ctx)
    gardener(ctx)
    return game_end(ctx, final_turn, count)


def _penalty(ctx: TurnContext) -> None:
    """Final-round penalty with the tiered choice of rules.md section 5."""
    rules, cubes = ctx.rules, ctx.player.cubes
    options = []
    for colour in COLOURS:
        track = rules.track(colour)
        for cube, index in enumerate(cubes[colour]):
            if index > 0:
                back = max(0, index - rules.penalty_spaces(colour))
                options.append((colour, cube, index, back, track[index] - track[back]))
    if not options:
        if ctx.peek_kind() == "penalty":
            ctx.current = ctx.position
            raise ctx.fail("no penalty is due: every cube is on the start")
        return
    exact = [o for o in options if o[4] == rules.penalty_points]
    on_target = [o for o in options if o[2] == len(rules.track(o[0])) - 1]
    if exact:
        allowed, tier = exact, f"a move losing exactly {rules.penalty_points} points"
    elif on_target:
        allowed, tier = on_target, "a cube on a target (no move loses exactly the penalty)"
    else:
        allowed, tier = options, "any cube off the start"
    event = ctx.take("penalty", "final round, first event of the turn")
    colour = get_str(event, "color", "penalty")
    cube = get_int(event, "cube", "penalty")
    if colour not in COLOURS or not 0 <= cube < rules.cubes:
        raise ctx.fail(f"no {colour} cube {cube}")
    chosen = [o for o in options if o[0] == colour and o[1] == cube]
    start, end = get_int(event, "from", "penalty"), get_int(event, "to", "penalty")
    if not chosen:
        raise ctx.fail(f"{colour} cube {cube} is on the start and cannot move back")
    option = chosen[0]
    if (start, end) != (option[2], option[3]):
        raise ctx.fail(
            f"{colour} cube {cube} goes from {option[2]} to {option[3]}, record says "
            f"{start} to {end}"
        )
    if option not in allowed:
        raise ctx.fail(f"{colour} cube {cube} loses {option[4]} points; the rules require {tier}")
    cubes[colour][cube] = end


def _refill(ctx: TurnContext) -> None:
    state, rules = ctx.state, ctx.rules
    row = gardener_row(state.gardener_space, rules.track_spaces)
    empty = [cell for cell in row if state.nursery[cell] is None]
    mandatory = len(empty) >= rules.refill_mandatory
    if ctx.peek_kind() != "refill":
        if mandatory and state.path:
            ctx.take("refill", f"{len(empty)} empty cells in the Gardener Row")
        return
    event = ctx.take("refill")
    if not empty:
        raise ctx.fail("the Gardener Row has no empty cell")
    if not state.path:
        raise ctx.fail("the path is empty")
    ramble = get_bool(event, "ramble", "refill")
    if ramble == mandatory:
        raise ctx.fail(
            f"ramble is {ramble} with {len(empty)} empty cells "
            f"(refill_mandatory {rules.refill_mandatory})"
        )
    if ramble:
        if not rules.ramble or any(age is not None for age in rules.children):
            raise ctx.fail("Ramble is not allowed by the rules of this game")
        if ctx.player.reserve < rules.ramble_cost:
            raise ctx.fail(
                f"Ramble costs {rules.ramble_cost} cats, reserve holds {ctx.player.reserve}"
            )
        ctx.player.reserve -= rules.ramble_cost
        state.supply_cats += rules.ramble_cost
    count = min(len(empty), len(state.path))
    cells = [to_cell(c, "refill.cells", 4) for c in get_list(event, "cells", "refill")]
    tiles = get_list(event, "tiles", "refill")
    front = [state.path[i] for i in range(count)]
    if cells != empty[:count] or tiles != front:
        raise ctx.fail(
            f"cells {[list(c) for c in cells]} tiles {tiles}: expected cells "
            f"{[list(c) for c in empty[:count]]} (closest first) and tiles {front} (path front)"
        )
    for cell, tile_id in zip(cells, front, strict=True):
        state.nursery[cell] = tile_id
        state.path.popleft()


def _planting_and_scoring(ctx: TurnContext) -> None:
    while ctx.peek_kind() == "cat":
        ctx.place_cat("hunt")
    main_action(ctx)
    while True:
        kind = ctx.peek_kind()
        if kind == "cat":
            event = ctx.peek()
            if event is not None and event.get("why") != "hunt":
                break
            ctx.place_cat("hunt")
        elif kind == "score":
            score_bed(ctx)
        else:
            break
    _require_scored(ctx, "at the end of the scoring phase")


def _require_scored(ctx: TurnContext, when: str) -> None:
    complete = ctx.complete_beds()
    if complete:
        ctx.current = ctx.position
        found = ctx.peek_kind() or "the end of the turn"
        raise Fatal(
            f"bed {complete[0]} is complete but not scored {when} (found {found})", ctx.position
        )


def _cat_limit(ctx: TurnContext) -> None:
    """Cats over the limit placed one by one (each completed bed scored at once), or returned."""
    rules, player = ctx.rules, ctx.player
    limited = player.child is None and rules.bonus_cat_limit
    while True:
        kind = ctx.peek_kind()
        if kind not in ("cat", "return_cats"):
            break
        ctx.current = ctx.position
        if not limited:
            raise ctx.fail("no cat limit applies to this player in this game")
        _require_scored(ctx, "before the next cat-limit step")
        if player.reserve <= rules.cat_limit:
            raise ctx.fail(f"reserve holds {player.reserve}, not over the limit {rules.cat_limit}")
        has_room = any(bed is not None and bed.empty_cells() for bed in player.beds)
        if kind == "return_cats":
            event = ctx.take("return_cats")
            if has_room:
                raise ctx.fail("an empty cell is left: cats go on the beds first")
            excess = player.reserve - rules.cat_limit
            if get_int(event, "count", "return_cats") != excess:
                raise ctx.fail(f"count is {event['count']!r}, expected the excess {excess}")
            player.reserve -= excess
            ctx.state.supply_cats += excess
            break
        ctx.place_cat("limit")
        while ctx.complete_beds() and ctx.peek_kind() == "score":
            score_bed(ctx)
    _require_scored(ctx, "during the cat limit")
    if limited and player.reserve > rules.cat_limit:
        ctx.current = ctx.position
        raise Fatal(
            f"seat {ctx.seat} ends the turn with {player.reserve} cats in reserve "
            f"(cat limit {rules.cat_limit})",
            ctx.position,
        )
