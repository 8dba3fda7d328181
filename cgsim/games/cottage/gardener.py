"""The gardener and the end of the game (rules.md sections 3, 5 and 6).

The children's nursery corners at setup, the gardener's walk at the end of each turn
(corner cats, the turning space, the start of the final round and its bed discards),
the final-round penalty, and the two other ends: a stalled final round and the turn cap.
"""

from __future__ import annotations

from cgsim.games.cottage.nursery import CORNERS
from cgsim.games.cottage.scoring import release
from cgsim.games.cottage.settings import corner_count
from cgsim.games.cottage.state import (
    BLUE,
    COLOR_NAMES,
    KIND_DISCARD_BED,
    KIND_GAIN_CAT,
    KIND_OTHER,
    KIND_PENALTY,
    ORANGE,
    PHASE_OVER,
    Player,
    Rules,
    State,
    cube_code,
    cubes,
)
from cgsim.games.cottage.work import Work

# --------------------------------------------------------------------------- setup corners


def corner_choices(state: State) -> tuple[int, ...]:
    """Corner sets a child may mark: bit ``i`` stands for ``CORNERS[i]``."""
    age = state.rules.settings.children[state.seat]
    assert age is not None
    count = min(corner_count(age, state.rules.players), len(CORNERS))
    return tuple(m for m in range(1 << len(CORNERS)) if m.bit_count() == count)


def mark_corners(w: Work, chosen: int) -> bool:
    """Put the current child's cats on the chosen corners (as far as the supply lasts).

    Moves on to the next child; True when none is left and seat 0 starts the game.
    """
    corners = tuple(CORNERS[i] for i in range(len(CORNERS)) if chosen >> i & 1)
    placed = min(len(corners), w.supply_cats)
    w.supply_cats -= placed
    w.set_my_corners(corners[:placed])
    later = [seat for seat, age in enumerate(w.rules.children) if age is not None and seat > w.seat]
    if later:
        w.seat = later[0]
        return False
    w.seat = 0
    return True


# --------------------------------------------------------------------------- final-round penalty


def penalty_options(rules: Rules, player: Player) -> list[tuple[int, int]]:
    """The (colour, cube) moves the final-round penalty allows, one per distinct cube.

    Tiers (rules.md section 5): moves losing exactly the penalty; else a cube on a
    target; else any other cube off the start. A penalty of 0 points means none.
    """
    s = rules.settings
    if s.penalty_points <= 0:
        return []
    moves: list[tuple[int, int, int, bool]] = []  # colour, cube, loss, on target
    for color, spaces in ((ORANGE, s.penalty_orange_spaces), (BLUE, s.penalty_blue_spaces)):
        if spaces <= 0:
            continue
        track, target = rules.track(color), rules.target(color)
        seen: set[int] = set()
        for cube, index in enumerate(cubes(player, color)):
            if index == 0 or index in seen:
                continue
            seen.add(index)
            loss = track[index] - track[max(0, index - spaces)]
            moves.append((color, cube, loss, index == target))
    exact = [(c, k) for c, k, loss, _ in moves if loss == s.penalty_points]
    if exact:
        return exact
    on_target = [(c, k) for c, k, _, top in moves if top]
    if on_target:
        return on_target
    return [(c, k) for c, k, _, _ in moves]


def do_penalty(w: Work, color: int, cube: int) -> None:
    """Move a cube back by the colour's penalty spaces (never past the start)."""
    s = w.rules.settings
    spaces = s.penalty_orange_spaces if color == ORANGE else s.penalty_blue_spaces
    positions = list(cubes(w.me, color))
    start = positions[cube]
    positions[cube] = max(0, start - spaces)
    w.set_cubes(color, tuple(positions))
    w.emit(
        cube_code(KIND_PENALTY, color, cube, start, positions[cube]),
        {
            "e": "penalty",
            "color": COLOR_NAMES[color],
            "cube": cube,
            "from": start,
            "to": positions[cube],
        },
    )


# --------------------------------------------------------------------------- gardener and end


def _discard(w: Work, seat: int, b: int) -> None:
    bed = w.players[seat].beds[b]
    assert bed is not None
    release(w, bed)
    w.set_bed_of(seat, b, None)
    w.emit(
        KIND_DISCARD_BED,
        {"e": "discard_bed", "seat": seat, "bed": b, "to_path": [w.tile_id(t) for t in bed.placed]},
    )


def _nobody_has_beds(w: Work) -> bool:
    return all(bed is None for player in w.players for bed in player.beds)


def gardener(w: Work) -> None:
    """End the turn: walk the gardener, then end the game or hand over to the next seat.

    The next turn is not started here but flagged in ``turn_pending`` (see ``run_turns``).
    """
    rules = w.rules
    was_final = w.final_round
    starts_final = False
    corner_gains: list[int] = []
    for step in range(1, rules.gardener_step + 1):
        space = (w.space + step) % rules.track_spaces
        if not w.final_round and not starts_final and space == rules.turning_space:
            w.value += 1
            starts_final = w.value >= rules.final_value
        corner = rules.corner_at[space]
        if corner >= 0:
            corner_gains.extend(seat for seat, p in enumerate(w.players) if corner in p.corners)
    w.space = (w.space + rules.gardener_step) % rules.track_spaces
    w.final_round = w.final_round or starts_final
    w.emit(
        KIND_OTHER,
        {"e": "gardener", "space": w.space, "value": w.value, "final_round": w.final_round},
    )
    for seat in corner_gains:
        if w.supply_cats > 0:
            w.supply_cats -= 1
            w.set_cats(seat, w.players[seat].cats + 1)
            w.emit(KIND_GAIN_CAT, {"e": "gain_cat", "why": "corner", "seat": seat})
    if starts_final:
        for seat, player in enumerate(w.players):
            for b, bed in enumerate(player.beds):
                if bed is not None and len(bed.placed) < rules.discard_below:
                    _discard(w, seat, b)
        if _nobody_has_beds(w):
            w.end = "normal"
    if was_final:
        w.stall = 0 if w.placed else w.stall + 1
        if _nobody_has_beds(w):
            w.end = "normal"
        elif w.stall >= rules.players:
            for seat, player in enumerate(w.players):
                for b, bed in enumerate(player.beds):
                    if bed is not None:
                        _discard(w, seat, b)
            w.end = "stalled"
    if w.end is None and w.turn >= rules.turn_cap:
        w.end = "aborted"
    if w.end is not None:
        w.phase = PHASE_OVER
        return
    w.seat = (w.seat + 1) % rules.players
    w.turn_pending = True
