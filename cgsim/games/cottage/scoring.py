"""Scoring (rules.md section 4): a complete bed's cube moves and bonuses, and the final result.

Scoring a bed moves one orange cube by its pots and one blue cube by its cloches, grants
the red-line cat, a beehive and the start-space bonus pot, then cleans the bed up. It
may pause for a cube or bonus-pot choice: ``Work.scoring`` remembers where, and the
functions that run it return the phase the turn resumes from once the bed is done.
``player_score`` and ``result_of`` turn the final cubes and beehives into the result.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from cgsim.games.contract import GameResult
from cgsim.games.cottage.cells import rc
from cgsim.games.cottage.state import (
    BLUE,
    COLOR_NAMES,
    KIND_BEEHIVE,
    KIND_BONUS_POT,
    KIND_GAIN_CAT,
    KIND_MOVE,
    KIND_SCORE,
    ORANGE,
    PHASE_BONUS,
    PHASE_CUBE,
    SIDE_NAMES,
    Bed,
    Phase,
    Player,
    Rules,
    Scoring,
    State,
    bed_cloches,
    bed_empty,
    bed_pots,
    board_json,
    cleanup_code,
    cube_code,
    cubes,
    new_bed,
)
from cgsim.games.cottage.work import Work, bed_with

_new: Final = tuple.__new__


def complete_beds(player: Player) -> list[int]:
    """Indexes of the player's beds with no bare soil left: they must be scored."""
    first, second = player.beds
    complete = []
    if first is not None and not bed_empty(first):
        complete.append(0)
    if second is not None and not bed_empty(second):
        complete.append(1)
    return complete


def score_start(w: Work, b: int, resume: Phase) -> Phase | None:
    """Start scoring bed ``b``; ``resume`` once it is done, None while a choice is pending."""
    bed = w.me.beds[b]
    assert bed is not None and not bed_empty(bed)  # checked by the callers
    pots, cloches = bed_pots(bed), bed_cloches(bed)
    w.emit(
        KIND_SCORE,
        {
            "e": "score",
            "bed": b,
            "board": w.rules.board_ids[bed.board],
            "side": SIDE_NAMES[bed.dark],
            "pots": pots,
            "cloches": cloches,
        },
    )
    w.scoring = Scoring(b, pots, cloches, ORANGE, resume)
    return score_continue(w)


def _next_step(sc: Scoring) -> Scoring:
    """The scoring one step further (orange, blue, clean-up)."""
    return _new(Scoring, (sc.bed, sc.pots, sc.cloches, sc.step + 1, sc.resume))


def cube_options(rules: Rules, positions: tuple[int, ...], color: int) -> list[int]:
    """Cubes of a colour that may move when scoring: one per distinct position off target."""
    target = rules.target(color)
    seen: set[int] = set()
    options = []
    for cube, index in enumerate(positions):
        if index != target and index not in seen:
            seen.add(index)
            options.append(cube)
    return options


def score_continue(w: Work) -> Phase | None:
    """Run the current scoring on; the phase to resume at its end, None while a choice waits."""
    while True:
        sc = w.scoring
        assert sc is not None
        if sc.step <= BLUE:
            amount = sc.pots if sc.step == ORANGE else sc.cloches
            options = cube_options(w.rules, cubes(w.me, sc.step), sc.step) if amount else []
            if len(options) > 1:
                w.phase = PHASE_CUBE
                return None
            if options:
                if move_cube(w, sc.step, options[0]):
                    return None
            else:
                w.scoring = _next_step(sc)
            continue
        _cleanup(w, sc.bed)
        w.scoring = None
        return sc.resume


def move_cube(w: Work, color: int, cube: int) -> bool:
    """Move a cube forward for the current scoring; True when a bonus pot awaits a choice."""
    sc = w.scoring
    assert sc is not None
    rules, s = w.rules, w.rules.settings
    amount = sc.pots if color == ORANGE else sc.cloches
    positions = list(cubes(w.me, color))
    track, target = rules.track(color), rules.target(color)
    start = positions[cube]
    positions[cube] = end = min(start + amount, target)
    w.set_cubes(color, tuple(positions))
    w.scoring = _next_step(sc)
    w.emit(
        cube_code(KIND_MOVE, color, cube, start, end),
        {"e": "move", "color": COLOR_NAMES[color], "cube": cube, "from": start, "to": end},
    )
    if s.bonus_red_line_cat and track[start] <= s.red_line < track[end] and w.supply_cats > 0:
        w.supply_cats -= 1
        w.add_my_cats(1)
        w.emit(KIND_GAIN_CAT, {"e": "gain_cat", "why": "red_line"})
    if end == target and not w.me.has_beehive and w.beehives_taken < len(s.beehives):
        value = s.beehives[w.beehives_taken]
        w.beehives_taken += 1
        w.set_my_beehive(value)
        w.emit(KIND_BEEHIVE, {"e": "beehive", "value": value})
    if s.bonus_start_pot and start == 0 and 0 not in positions and w.supply_pots > 0:
        other = w.me.beds[1 - sc.bed]
        empty = bed_empty(other) if other is not None else 0
        if empty:
            if empty.bit_count() == 1:
                place_bonus_pot(w, empty.bit_length() - 1)
            else:
                w.phase = PHASE_BONUS
                return True
    return False


def place_bonus_pot(w: Work, cell: int) -> None:
    """The start-space bonus: a pot from the supply on the other bed."""
    sc = w.scoring
    assert sc is not None
    b = 1 - sc.bed
    bed = w.me.beds[b]
    assert bed is not None
    w.set_bed(
        b,
        bed_with(
            bed,
            bed.tiles,
            bed.tile_pots,
            bed.tile_cloches,
            bed.pots | 1 << cell,
            bed.cats,
            bed.placed,
            bed.shapes,
        ),
    )
    w.supply_pots -= 1
    w.placed = True
    w.emit(KIND_BONUS_POT, {"e": "bonus_pot", "bed": b, "cell": rc(cell)})


def release(w: Work, bed: Bed) -> None:
    """Tiles back to the path in placement order, tokens back to the supply."""
    w.extend_path(bed.placed)
    w.supply_pots += bed.pots.bit_count()
    w.supply_cats += bed.cats.bit_count()


def _cleanup(w: Work, b: int) -> None:
    bed = w.me.beds[b]
    assert bed is not None
    release(w, bed)
    new_board: dict[str, str] | None = None
    printed: int | None = None
    if w.final_round or w.supply_board is None:
        w.set_bed(b, None)
    else:
        board, dark = w.supply_board
        fresh = new_bed(w.rules, board, dark, w.me.turns)
        w.set_bed(b, fresh)
        w.supply_board = (bed.board, not bed.dark)
        new_board = board_json(w.rules, board, dark)
        printed = fresh.printed_pots | fresh.printed_cloches
    w.emit(
        cleanup_code(b, printed),
        {
            "e": "cleanup",
            "bed": b,
            "to_path": [w.tile_id(t) for t in bed.placed],
            "new_board": new_board,
        },
    )


# --------------------------------------------------------------------------- final result


def player_score(rules: Rules, player: Player) -> int:
    """Sum of the cube values plus beehive points."""
    orange, blue = rules.orange_track, rules.blue_track
    return (
        sum(orange[i] for i in player.orange) + sum(blue[i] for i in player.blue) + player.beehive
    )


def _ahead(points: vec[i64], hives: vec[i64], seat: i64, other: i64) -> bool:
    """Whether ``seat`` finishes ahead of ``other``: more points, or as many and a larger
    beehive."""
    return points[seat] > points[other] or (
        points[seat] == points[other] and hives[seat] > hives[other]
    )


def _level(points: vec[i64], hives: vec[i64], seat: i64, other: i64) -> bool:
    """Whether ``seat`` and ``other`` finish level: as many points and as large a beehive."""
    return points[seat] == points[other] and hives[seat] == hives[other]


def result_of(state: State) -> GameResult:
    """Scores (cubes + beehives), winners (beehive tie-break, shared wins) and ranks."""
    rules = state.rules
    # Each seat's key is its score, then its beehive (the tie-break): compared by plain
    # loops over native ints (compiled, tuples of keys are compared as objects, and a
    # list's ints are unboxed at every read).
    seats: i64 = len(state.players)
    points = vec[i64](capacity=seats)
    hives = vec[i64](capacity=seats)
    for player in state.players:
        points = append(points, player_score(rules, player))
        hives = append(hives, player.beehive)
    best: i64 = 0
    for seat in range(1, seats):
        if _ahead(points, hives, seat, best):
            best = seat
    winners = tuple([seat for seat in range(seats) if _level(points, hives, seat, best)])
    ranks: list[float] = []
    for seat in range(seats):
        ahead = tied = 0
        for other in range(seats):
            if _ahead(points, hives, other, seat):
                ahead += 1
            elif _level(points, hives, other, seat):
                tied += 1
        ranks.append(ahead + (tied + 1) / 2)
    scores = tuple([float(point) for point in points])
    # Built as the engine builds its tuples: a named tuple's own constructor runs as a
    # Python function, and every game of a run ends here.
    return _new(GameResult, (scores, winners, state.end or "running", state.turn, tuple(ranks)))
