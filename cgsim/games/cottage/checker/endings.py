"""The end of a turn: gardener, children's corner cats, final-round discards, game end."""

from __future__ import annotations

from collections.abc import Callable

from cgsim.games.cottage.checker.context import TurnContext
from cgsim.games.cottage.checker.fields import get, get_int, get_list, get_str
from cgsim.games.cottage.checker.geometry import corners_passed, spaces_walked


def gardener(ctx: TurnContext) -> None:
    """The gardener move, its corner cats, and the discards when it starts the final round."""
    state, rules = ctx.state, ctx.rules
    event = ctx.take("gardener")
    start = state.gardener_space
    walked = spaces_walked(start, rules.gardener_step, rules.track_spaces)
    space = walked[-1] if walked else start
    value = state.gardener_value
    for passed in walked:
        if passed == rules.turning_space and value < rules.final_value:
            value += 1
    starts_final = value >= rules.final_value and not state.final_round
    said = (get(event, "space", "gardener"), get(event, "value", "gardener"))
    if said != (space, value):
        raise ctx.fail(
            f"from space {start} value {state.gardener_value}: expected space {space} "
            f"value {value}, record says space {said[0]} value {said[1]}"
        )
    final_flag = get(event, "final_round", "gardener")
    if final_flag is not (state.final_round or starts_final):
        ctx.note(
            f"gardener: final_round is {final_flag!r}, expected {state.final_round or starts_final}"
        )
    state.gardener_space, state.gardener_value = space, value
    for corner in corners_passed(start, rules.gardener_step, rules.track_spaces):
        for seat in sorted(s for s, c in state.corner_cats if c == corner):
            if state.supply_cats < 1:
                continue
            event = ctx.take("gain_cat", f"seat {seat}'s cat on corner {list(corner)}")
            if get_str(event, "why", "gain_cat") != "corner" or get(event, "seat", "") != seat:
                raise ctx.fail(f"expected why 'corner' and seat {seat}, got {dict(event)!r}")
            state.supply_cats -= 1
            state.players[seat].reserve += 1
    if starts_final:
        state.final_round = True
        discard_beds(ctx, lambda tiles: tiles < rules.discard_below)


def discard_beds(ctx: TurnContext, given_up: Callable[[int], bool]) -> None:
    """Consume one ``discard_bed`` per bed that ``given_up(tile_count)`` selects."""
    state = ctx.state
    for seat, player in enumerate(state.players):
        for index, bed in enumerate(player.beds):
            if bed is None or not given_up(len(bed.tile_order)):
                continue
            event = ctx.take("discard_bed", f"seat {seat} bed {index}")
            said = (get_int(event, "seat", "discard_bed"), get_int(event, "bed", "discard_bed"))
            if said != (seat, index):
                raise ctx.fail(f"discards seat {said[0]} bed {said[1]}, expected {seat} {index}")
            to_path = get_list(event, "to_path", "discard_bed")
            if to_path != bed.tile_order:
                raise ctx.fail(f"to_path is {to_path}, tiles placed were {bed.tile_order}")
            state.release_bed(seat, index, bed)


def game_end(ctx: TurnContext, final_turn: bool, turn_count: int) -> str | None:
    """How the game ends after this turn (normal > stalled > aborted), or None."""
    state = ctx.state
    if final_turn:
        state.stall = 0 if ctx.placed else state.stall + 1
    if not any(player.has_beds() for player in state.players):
        return "normal"
    if final_turn and state.stall >= len(state.players):
        discard_beds(ctx, lambda tiles: True)
        return "stalled"
    if turn_count >= ctx.rules.turn_cap:
        return "aborted"
    return None
