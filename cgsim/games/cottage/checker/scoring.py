"""A scored bed, in full: score, cube moves with their bonuses, clean-up (rules.md 4.3)."""

from __future__ import annotations

from cgsim.games.cottage.checker.context import TurnContext
from cgsim.games.cottage.checker.fields import get, get_int, get_list, get_str
from cgsim.games.cottage.checker.state import Bed

BONUS_EVENTS = ("gain_cat", "beehive", "bonus_pot")


def score_bed(ctx: TurnContext) -> None:
    """Consume one ``score`` event and everything it sets off, up to its ``cleanup``."""
    event = ctx.take("score")
    index, bed = ctx.bed_of(event, "score")
    if not bed.is_complete():
        raise ctx.fail(f"bed {index} is not complete ({len(bed.empty_cells())} empty cells)")
    board, side = get_str(event, "board", "score"), get_str(event, "side", "score")
    if (board, side) != (bed.board, bed.side):
        ctx.note(f"score: bed {index} is board {bed.board} {bed.side}, record says {board} {side}")
    pots, cloches = bed.count("pot"), bed.count("cloche")
    said = (get_int(event, "pots", "score"), get_int(event, "cloches", "score"))
    if said != (pots, cloches):
        raise ctx.fail(
            f"bed {index} holds {pots} pots and {cloches} cloches, record says "
            f"{said[0]} and {said[1]}"
        )
    _move(ctx, "orange", pots, index)
    _move(ctx, "blue", cloches, index)
    _cleanup(ctx, index, bed)


def _move(ctx: TurnContext, colour: str, count: int, scored: int) -> None:
    track = ctx.rules.track(colour)
    target = len(track) - 1
    cubes = ctx.player.cubes[colour]
    movable = [i for i, index in enumerate(cubes) if index < target]
    if count == 0 or not movable:
        event = ctx.peek()
        if event is not None and event["e"] == "move" and event.get("color") == colour:
            ctx.current = ctx.position
            why = "nothing to move" if count == 0 else "every cube is on the target"
            raise ctx.fail(f"no {colour} move is due ({why})")
        return
    event = ctx.take("move", f"{colour} cube by {count}")
    if get_str(event, "color", "move") != colour:
        raise ctx.fail(f"color is {event['color']!r}, expected {colour!r}")
    cube = get_int(event, "cube", "move")
    if cube not in movable:
        raise ctx.fail(f"{colour} cube {cube} cannot move (movable: {movable})")
    start, end = get_int(event, "from", "move"), get_int(event, "to", "move")
    expected = min(cubes[cube] + count, target)
    if (start, end) != (cubes[cube], expected):
        raise ctx.fail(
            f"{colour} cube {cube} moves from {cubes[cube]} by {count}: expected "
            f"from {cubes[cube]} to {expected}, record says {start} to {end}"
        )
    cubes[cube] = end
    _bonuses(ctx, colour, start, end, scored)


def _bonuses(ctx: TurnContext, colour: str, start: int, end: int, scored: int) -> None:
    """Red-line cat, beehive, start-space pot: each exactly when earned, in that order."""
    rules, state, player = ctx.rules, ctx.state, ctx.player
    track = rules.track(colour)
    crossed = track[start] <= rules.red_line < track[end]
    if rules.bonus_red_line_cat and crossed and state.supply_cats > 0:
        event = ctx.take("gain_cat", f"red line crossed by {colour} {track[start]}->{track[end]}")
        if get_str(event, "why", "gain_cat") != "red_line":
            raise ctx.fail(f"why is {event['why']!r}, expected 'red_line'")
        state.supply_cats -= 1
        player.reserve += 1
    on_target = end == len(track) - 1
    if on_target and player.beehive is None and state.beehives_taken < len(rules.beehives):
        value = rules.beehives[state.beehives_taken]
        event = ctx.take("beehive", f"first {colour} cube of seat {ctx.seat} on a target")
        if get(event, "value", "beehive") != value:
            raise ctx.fail(f"value is {event['value']!r}, the next beehive is worth {value}")
        player.beehive = value
        state.beehives_taken += 1
    if rules.bonus_start_pot and start == 0 and 0 not in player.cubes[colour]:
        other = player.beds[1 - scored]
        if state.supply_pots > 0 and other is not None and other.empty_cells():
            event = ctx.take("bonus_pot", f"no {colour} cube left on the start")
            index, _ = ctx.bed_of(event, "bonus_pot")
            if index == scored:
                raise ctx.fail(f"the start-space pot goes on the other bed, not bed {index}")
            ctx.put_token(event, "bonus_pot", "pot")
            state.supply_pots -= 1
    extra = ctx.peek()
    if extra is not None and extra["e"] in BONUS_EVENTS:
        ctx.current = ctx.position
        raise ctx.fail(f"not earned by the {colour} move {start}->{end}")


def _cleanup(ctx: TurnContext, index: int, bed: Bed) -> None:
    state = ctx.state
    event = ctx.take("cleanup", f"after scoring bed {index}")
    if get_int(event, "bed", "cleanup") != index:
        raise ctx.fail(f"bed is {event['bed']!r}, bed {index} was scored")
    to_path = get_list(event, "to_path", "cleanup")
    if to_path != bed.tile_order:
        raise ctx.fail(f"to_path is {to_path}, tiles placed on the bed were {bed.tile_order}")
    new_board = get(event, "new_board", "cleanup")
    state.release_bed(ctx.seat, index, bed)
    if state.final_round:
        if new_board is not None:
            raise ctx.fail(f"new_board is {new_board!r}; no new bed in the final round")
        return
    board, side = state.supply_board
    if not (
        isinstance(new_board, dict)
        and new_board.get("board") == board
        and new_board.get("side") == side
    ):
        raise ctx.fail(f"new_board is {new_board!r}, the supply board is {board} {side}")
    ctx.player.beds[index] = state.new_bed(board, side)
    state.supply_board = (bed.board, "dark" if bed.side == "light" else "light")
