"""The rules of Cottage Garden (rules.md): setup, legal actions and ``apply``.

``apply(state, action)`` copies the state into a private working object, performs the
action, then runs every automatic step (refills, scoring moves, bonuses, clean-up, the
gardener, the final round) until the next decision point, and freezes the result. The
input state is never mutated. Decision points with a single meaningful choice (one
distinct cube to move, one cell for a forced token) are resolved automatically.
"""

from __future__ import annotations

import random
from typing import Any

from cgsim.errors import IllegalActionError
from cgsim.games.cottage import actions as act
from cgsim.games.cottage.actions import LegalActions
from cgsim.games.cottage.components import Catalogue, cell_rc, mask_cells
from cgsim.games.cottage.nursery import CORNERS, NURSERY_CELLS, nursery_rc
from cgsim.games.cottage.settings import Settings, corner_count
from cgsim.games.cottage.state import (
    BLUE,
    COLOR_NAMES,
    ORANGE,
    PH_AFTER,
    PH_BONUS,
    PH_CORNERS,
    PH_CUBE,
    PH_LIMIT,
    PH_OVER,
    PH_PENALTY,
    PH_PLANT,
    PH_RAMBLE,
    Bed,
    Event,
    Player,
    Rules,
    Scoring,
    State,
    cubes,
)

SIDE_NAMES = ("light", "dark")


def make_rules(players: int, settings: Settings, catalogue: Catalogue) -> Rules:
    return Rules(players=players, settings=settings, catalogue=catalogue)


# --------------------------------------------------------------------------- setup


def board_json(catalogue: Catalogue, board: int, dark: bool) -> dict[str, str]:
    """A board side as records name it."""
    return {"board": catalogue.boards[board].id, "side": SIDE_NAMES[dark]}


def _new_bed(catalogue: Catalogue, board: int, dark: bool, born: int) -> Bed:
    side = catalogue.boards[board].side(dark)
    return Bed(board, dark, side.pots, side.cloches, 0, 0, 0, 0, 0, (), (), born)


def new_game(rules: Rules, seed: int) -> State:
    """The initial state: the seed alone decides the deal (rules.md section 3)."""
    s = rules.settings
    catalogue = rules.catalogue
    rng = random.Random(seed)
    tiles = list(range(len(catalogue.tiles)))
    rng.shuffle(tiles)
    boards = list(range(len(catalogue.boards)))
    rng.shuffle(boards)
    players = []
    for seat in range(rules.players):
        first, second = boards[2 * seat], boards[2 * seat + 1]
        beds = (_new_bed(catalogue, first, False, 0), _new_bed(catalogue, second, True, 0))
        players.append(Player(beds, (0,) * s.cubes, (0,) * s.cubes, s.start_cats, 0, False, 0, ()))
    w = _Work.fresh(
        rules=rules,
        seed=seed,
        nursery=tuple(tiles[:NURSERY_CELLS]),
        path=tuple(tiles[NURSERY_CELLS:]),
        players=players,
        supply_board=(boards[2 * rules.players], False),
        supply_cats=s.cats_total - rules.players * s.start_cats,
        supply_pots=s.pots_total,
        space=0,
        value=s.gardener_value,
    )
    children = [seat for seat, age in enumerate(s.children) if age is not None]
    if children:
        w.seat = children[0]
        w.phase = PH_CORNERS
    else:
        _start_turn(w)
        _run_turns(w)
    return w.freeze()


# --------------------------------------------------------------------------- working copy


class _Work:
    """A mutable copy of a state, alive only inside one ``apply``."""

    __slots__ = (
        "beehives_taken",
        "end",
        "events",
        "final_round",
        "had_bed",
        "nursery",
        "path",
        "phase",
        "placed",
        "players",
        "rules",
        "scoring",
        "seat",
        "seed",
        "space",
        "stall",
        "supply_board",
        "supply_cats",
        "supply_pots",
        "turn",
        "turn_pending",
        "value",
    )

    rules: Rules
    seed: int
    nursery: list[int]
    path: list[int]
    players: list[Player]
    supply_board: tuple[int, bool] | None
    supply_cats: int
    supply_pots: int
    beehives_taken: int
    space: int
    value: int
    final_round: bool
    turn: int
    seat: int
    phase: int
    scoring: Scoring | None
    had_bed: bool
    placed: bool
    stall: int
    end: str | None
    events: list[Event]
    turn_pending: bool
    """Set by the gardener phase: the next turn starts once the current call unwinds."""

    @classmethod
    def fresh(cls, **fields: Any) -> _Work:
        w = cls.__new__(cls)
        defaults: dict[str, Any] = {
            "beehives_taken": 0,
            "final_round": False,
            "turn": 0,
            "seat": 0,
            "phase": PH_PLANT,
            "scoring": None,
            "had_bed": True,
            "placed": False,
            "stall": 0,
            "end": None,
        }
        defaults.update(fields)
        for name, value in defaults.items():
            setattr(w, name, value)
        w.nursery = list(w.nursery)
        w.path = list(w.path)
        w.events = []
        w.turn_pending = False
        return w

    @classmethod
    def thaw(cls, s: State) -> _Work:
        w = cls.__new__(cls)
        w.rules = s.rules
        w.seed = s.seed
        w.nursery = list(s.nursery)
        w.path = list(s.path)
        w.players = list(s.players)
        w.supply_board = s.supply_board
        w.supply_cats = s.supply_cats
        w.supply_pots = s.supply_pots
        w.beehives_taken = s.beehives_taken
        w.space = s.space
        w.value = s.value
        w.final_round = s.final_round
        w.turn = s.turn
        w.seat = s.seat
        w.phase = s.phase
        w.scoring = s.scoring
        w.had_bed = s.had_bed
        w.placed = s.placed
        w.stall = s.stall
        w.end = s.end
        w.events = []
        w.turn_pending = False
        return w

    def freeze(self) -> State:
        return State(
            self.rules,
            self.seed,
            tuple(self.nursery),
            tuple(self.path),
            tuple(self.players),
            self.supply_board,
            self.supply_cats,
            self.supply_pots,
            self.beehives_taken,
            self.space,
            self.value,
            self.final_round,
            self.turn,
            self.seat,
            self.phase,
            self.scoring,
            self.had_bed,
            self.placed,
            self.stall,
            self.end,
            tuple(self.events),
        )

    @property
    def me(self) -> Player:
        return self.players[self.seat]

    def set_me(self, player: Player) -> None:
        self.players[self.seat] = player

    def set_bed(self, b: int, bed: Bed | None) -> None:
        beds = self.me.beds
        self.set_me(self.me._replace(beds=(bed, beds[1]) if b == 0 else (beds[0], bed)))

    def tile_id(self, tile: int) -> str:
        return self.rules.catalogue.tiles[tile].id

    def emit(self, event: Event) -> None:
        self.events.append(event)


def _rc(cell: int) -> list[int]:
    return list(cell_rc(cell))


# --------------------------------------------------------------------------- the turn


def _start_turn(w: _Work) -> None:
    w.turn += 1
    w.set_me(w.me._replace(turns=w.me.turns + 1))
    w.placed = False
    w.emit({"e": "_turn", "n": w.turn, "seat": w.seat, "final_round": w.final_round})
    w.had_bed = any(bed is not None for bed in w.me.beds)
    if w.final_round and not w.had_bed:
        _gardener(w)
        return
    if w.final_round:
        options = penalty_options(w.rules, w.me)
        if len(options) > 1:
            w.phase = PH_PENALTY
            return
        if options:
            _do_penalty(w, *options[0])
    _refill_step(w)


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


def _do_penalty(w: _Work, color: int, cube: int) -> None:
    s = w.rules.settings
    spaces = s.penalty_orange_spaces if color == ORANGE else s.penalty_blue_spaces
    positions = list(cubes(w.me, color))
    start = positions[cube]
    positions[cube] = max(0, start - spaces)
    _set_cubes(w, color, tuple(positions))
    w.emit(
        {
            "e": "penalty",
            "color": COLOR_NAMES[color],
            "cube": cube,
            "from": start,
            "to": positions[cube],
        }
    )


def _set_cubes(w: _Work, color: int, positions: tuple[int, ...]) -> None:
    w.set_me(w.me._replace(orange=positions) if color == ORANGE else w.me._replace(blue=positions))


def _row_empty_cells(w: _Work) -> list[int]:
    return [cell for cell in w.rules.rows[w.space] if w.nursery[cell] < 0]


def _refill_step(w: _Work) -> None:
    s = w.rules.settings
    empty = len(_row_empty_cells(w))
    if empty >= s.refill_mandatory:
        _refill(w, ramble=False)
    elif empty and s.ramble and w.path and w.me.cats >= s.ramble_cost:
        w.phase = PH_RAMBLE
        return
    _plant_step(w)


def _refill(w: _Work, ramble: bool) -> None:
    cells, tiles = [], []
    for cell in _row_empty_cells(w):
        if not w.path:
            break
        tile = w.path.pop(0)
        w.nursery[cell] = tile
        cells.append(list(nursery_rc(cell)))
        tiles.append(w.tile_id(tile))
    if cells:
        w.emit({"e": "refill", "cells": cells, "tiles": tiles, "ramble": ramble})


def _has_empty_cell(player: Player) -> bool:
    return any(bed is not None and bed.empty for bed in player.beds)


def _can_place_cat(player: Player) -> bool:
    return player.cats > 0 and _has_empty_cell(player)


def _tile_fits(w: _Work) -> bool:
    kinds = w.rules.catalogue.tile_kind
    for cell in w.rules.rows[w.space]:
        tile = w.nursery[cell]
        if tile >= 0:
            for bed in w.me.beds:
                if bed is not None and w.rules.fits(kinds[tile], bed.blocked):
                    return True
    return False


def _pot_fits(w: _Work) -> bool:
    return w.supply_pots > 0 and _has_empty_cell(w.me)


def _plant_step(w: _Work) -> None:
    if _can_place_cat(w.me) or _tile_fits(w) or _pot_fits(w):
        w.phase = PH_PLANT
        return
    _pass(w)


def _pass(w: _Work) -> None:
    if all(w.nursery[cell] < 0 for cell in w.rules.rows[w.space]):
        tiles = "no tile in the Gardener Row"
    else:
        tiles = "no Gardener Row tile fits a bed"
    pots = "no pot left in the supply" if w.supply_pots == 0 else "no empty cell for a pot"
    w.emit({"e": "pass", "reason": f"{tiles} and {pots}"})
    _after_step(w)


def _complete_beds(player: Player) -> list[int]:
    return [b for b, bed in enumerate(player.beds) if bed is not None and not bed.empty]


def _after_step(w: _Work) -> None:
    complete = _complete_beds(w.me)
    if _can_place_cat(w.me) or len(complete) > 1:
        w.phase = PH_AFTER
    elif complete:
        _score_start(w, complete[0], PH_AFTER)
    else:
        _limit_step(w)


def _limit_step(w: _Work) -> None:
    s = w.rules.settings
    complete = _complete_beds(w.me)
    if complete:
        _score_start(w, complete[0], PH_LIMIT)
        return
    child = s.children[w.seat] is not None
    if not s.bonus_cat_limit or child or not w.had_bed or w.me.cats <= s.cat_limit:
        _gardener(w)
        return
    cells = [(b, bed.empty) for b, bed in enumerate(w.me.beds) if bed is not None and bed.empty]
    if not cells:
        extra = w.me.cats - s.cat_limit
        w.set_me(w.me._replace(cats=s.cat_limit))
        w.supply_cats += extra
        w.emit({"e": "return_cats", "count": extra})
        _gardener(w)
        return
    if len(cells) == 1 and cells[0][1].bit_count() == 1:
        b, mask = cells[0]
        _place_cat(w, b, mask.bit_length() - 1, "limit")
        _limit_step(w)
        return
    w.phase = PH_LIMIT


def _place_cat(w: _Work, b: int, cell: int, why: str) -> None:
    bed = w.me.beds[b]
    assert bed is not None  # checked by the callers
    w.set_bed(b, bed._replace(cats=bed.cats | 1 << cell))
    w.set_me(w.me._replace(cats=w.me.cats - 1))
    w.placed = True
    w.emit({"e": "cat", "bed": b, "cell": _rc(cell), "why": why})


# --------------------------------------------------------------------------- scoring


def _score_start(w: _Work, b: int, resume: int) -> None:
    bed = w.me.beds[b]
    assert bed is not None and not bed.empty  # checked by the callers
    pots, cloches = bed.count_pots(), bed.count_cloches()
    board = w.rules.catalogue.boards[bed.board]
    w.emit(
        {
            "e": "score",
            "bed": b,
            "board": board.id,
            "side": SIDE_NAMES[bed.dark],
            "pots": pots,
            "cloches": cloches,
        }
    )
    w.scoring = Scoring(b, pots, cloches, ORANGE, resume)
    _score_continue(w)


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


def _score_continue(w: _Work) -> None:
    while True:
        sc = w.scoring
        assert sc is not None
        if sc.step <= BLUE:
            amount = sc.pots if sc.step == ORANGE else sc.cloches
            options = cube_options(w.rules, cubes(w.me, sc.step), sc.step) if amount else []
            if len(options) > 1:
                w.phase = PH_CUBE
                return
            if options:
                if _move(w, sc.step, options[0]):
                    return
            else:
                w.scoring = sc._replace(step=sc.step + 1)
            continue
        _cleanup(w, sc.bed)
        w.scoring = None
        if sc.resume == PH_AFTER:
            _after_step(w)
        else:
            _limit_step(w)
        return


def _move(w: _Work, color: int, cube: int) -> bool:
    """Move a cube forward for the current scoring; True when a bonus pot awaits a choice."""
    sc = w.scoring
    assert sc is not None
    rules, s = w.rules, w.rules.settings
    amount = sc.pots if color == ORANGE else sc.cloches
    positions = list(cubes(w.me, color))
    track, target = rules.track(color), rules.target(color)
    start = positions[cube]
    positions[cube] = end = min(start + amount, target)
    _set_cubes(w, color, tuple(positions))
    w.scoring = sc._replace(step=sc.step + 1)
    w.emit({"e": "move", "color": COLOR_NAMES[color], "cube": cube, "from": start, "to": end})
    if s.bonus_red_line_cat and track[start] <= s.red_line < track[end] and w.supply_cats > 0:
        w.supply_cats -= 1
        w.set_me(w.me._replace(cats=w.me.cats + 1))
        w.emit({"e": "gain_cat", "why": "red_line"})
    if end == target and not w.me.has_beehive and w.beehives_taken < len(s.beehives):
        value = s.beehives[w.beehives_taken]
        w.beehives_taken += 1
        w.set_me(w.me._replace(beehive=value, has_beehive=True))
        w.emit({"e": "beehive", "value": value})
    if s.bonus_start_pot and start == 0 and 0 not in positions and w.supply_pots > 0:
        other = w.me.beds[1 - sc.bed]
        if other is not None and other.empty:
            if other.empty.bit_count() == 1:
                _place_bonus_pot(w, other.empty.bit_length() - 1)
            else:
                w.phase = PH_BONUS
                return True
    return False


def _place_bonus_pot(w: _Work, cell: int) -> None:
    sc = w.scoring
    assert sc is not None
    b = 1 - sc.bed
    bed = w.me.beds[b]
    assert bed is not None
    w.set_bed(b, bed._replace(pots=bed.pots | 1 << cell))
    w.supply_pots -= 1
    w.placed = True
    w.emit({"e": "bonus_pot", "bed": b, "cell": _rc(cell)})


def _release(w: _Work, bed: Bed) -> None:
    """Tiles back to the path in placement order, tokens back to the supply."""
    w.path.extend(bed.placed)
    w.supply_pots += bed.pots.bit_count()
    w.supply_cats += bed.cats.bit_count()


def _cleanup(w: _Work, b: int) -> None:
    bed = w.me.beds[b]
    assert bed is not None
    _release(w, bed)
    new_board: dict[str, str] | None = None
    if w.final_round or w.supply_board is None:
        w.set_bed(b, None)
    else:
        board, dark = w.supply_board
        w.set_bed(b, _new_bed(w.rules.catalogue, board, dark, w.me.turns))
        w.supply_board = (bed.board, not bed.dark)
        new_board = board_json(w.rules.catalogue, board, dark)
    w.emit(
        {
            "e": "cleanup",
            "bed": b,
            "to_path": [w.tile_id(t) for t in bed.placed],
            "new_board": new_board,
        }
    )


# --------------------------------------------------------------------------- gardener and end


def _discard(w: _Work, seat: int, b: int) -> None:
    player = w.players[seat]
    bed = player.beds[b]
    assert bed is not None
    _release(w, bed)
    beds = (None, player.beds[1]) if b == 0 else (player.beds[0], None)
    w.players[seat] = player._replace(beds=beds)
    w.emit(
        {"e": "discard_bed", "seat": seat, "bed": b, "to_path": [w.tile_id(t) for t in bed.placed]}
    )


def _nobody_has_beds(w: _Work) -> bool:
    return all(bed is None for player in w.players for bed in player.beds)


def _gardener(w: _Work) -> None:
    rules, s = w.rules, w.rules.settings
    was_final = w.final_round
    starts_final = False
    corner_gains: list[int] = []
    for step in range(1, s.gardener_step + 1):
        space = (w.space + step) % s.track_spaces
        if not w.final_round and not starts_final and space == s.turning_space:
            w.value += 1
            starts_final = w.value >= s.final_value
        corner = rules.corner_at[space]
        if corner >= 0:
            corner_gains.extend(seat for seat, p in enumerate(w.players) if corner in p.corners)
    w.space = (w.space + s.gardener_step) % s.track_spaces
    w.final_round = w.final_round or starts_final
    w.emit({"e": "gardener", "space": w.space, "value": w.value, "final_round": w.final_round})
    for seat in corner_gains:
        if w.supply_cats > 0:
            w.supply_cats -= 1
            player = w.players[seat]
            w.players[seat] = player._replace(cats=player.cats + 1)
            w.emit({"e": "gain_cat", "why": "corner", "seat": seat})
    if starts_final:
        for seat, player in enumerate(w.players):
            for b, bed in enumerate(player.beds):
                if bed is not None and len(bed.placed) < s.discard_below:
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
    if w.end is None and w.turn >= s.turn_cap:
        w.end = "aborted"
    if w.end is not None:
        w.phase = PH_OVER
        return
    w.seat = (w.seat + 1) % rules.players
    w.turn_pending = True


def _run_turns(w: _Work) -> None:
    """Start each next turn iteratively, so long runs of automatic turns never recurse."""
    while w.turn_pending:
        w.turn_pending = False
        _start_turn(w)


# --------------------------------------------------------------------------- legal actions


def _token_segments(kind: int, player: Player) -> list[tuple[int, tuple[int, ...]]]:
    """A cat or pot on any empty cell of either bed."""
    return [
        (act.encode(kind, bed=b), tuple(mask_cells(bed.empty)))
        for b, bed in enumerate(player.beds)
        if bed is not None and bed.empty
    ]


def _cat_segments(player: Player) -> list[tuple[int, tuple[int, ...]]]:
    return _token_segments(act.CAT, player) if player.cats > 0 else []


def _main_segments(state: State) -> list[tuple[int, tuple[int, ...]]]:
    rules = state.rules
    kinds = rules.catalogue.tile_kind
    player = state.players[state.seat]
    segments: list[tuple[int, tuple[int, ...]]] = []
    for cell in rules.rows[state.space]:
        tile = state.nursery[cell]
        if tile >= 0:
            for b, bed in enumerate(player.beds):
                if bed is not None:
                    segments.append(
                        (
                            act.encode(act.TILE, bed=b, cell=cell),
                            rules.fits(kinds[tile], bed.blocked),
                        )
                    )
    if state.supply_pots > 0:
        segments += _token_segments(act.POT, player)
    return segments


def legal_actions(state: State) -> LegalActions:
    """Every legal action at the current decision point, in a fixed order."""
    phase = state.phase
    player = state.players[state.seat]
    if phase == PH_PLANT:
        main = _main_segments(state)
        if not any(lows for _, lows in main):
            main = [(act.encode(act.PASS), (0,))]
        return LegalActions(_cat_segments(player) + main)
    if phase == PH_AFTER:
        segments = _cat_segments(player)
        complete = _complete_beds(player)
        segments += [(act.encode(act.SCORE, bed=b), (0,)) for b in complete]
        if not complete:
            segments.append((act.encode(act.DONE), (0,)))
        return LegalActions(segments)
    if phase == PH_LIMIT:
        return LegalActions(_cat_segments(player))
    if phase == PH_CUBE:
        sc = state.scoring
        assert sc is not None
        options = cube_options(state.rules, cubes(player, sc.step), sc.step)
        return LegalActions(
            [(act.encode(act.CUBE), tuple(act.cube_code(sc.step, k) for k in options))]
        )
    if phase == PH_BONUS:
        sc = state.scoring
        assert sc is not None
        other = player.beds[1 - sc.bed]
        assert other is not None
        return LegalActions([(act.encode(act.BONUS_POT), tuple(mask_cells(other.empty)))])
    if phase == PH_RAMBLE:
        return LegalActions([(act.encode(act.RAMBLE), (0, 1))])
    if phase == PH_PENALTY:
        moves = penalty_options(state.rules, player)
        return LegalActions(
            [(act.encode(act.PENALTY), tuple(act.cube_code(c, k) for c, k in moves))]
        )
    if phase == PH_CORNERS:
        return LegalActions([(act.encode(act.CORNERS), corner_choices(state))])
    return LegalActions([])


def corner_choices(state: State) -> tuple[int, ...]:
    """Corner sets a child may mark: bit ``i`` stands for ``CORNERS[i]``."""
    age = state.rules.settings.children[state.seat]
    assert age is not None
    count = min(corner_count(age, state.rules.players), len(CORNERS))
    return tuple(m for m in range(1 << len(CORNERS)) if m.bit_count() == count)


# --------------------------------------------------------------------------- apply


def _illegal(state: State, action: int, why: str) -> IllegalActionError:
    return IllegalActionError(
        f"turn {state.turn}, seat {state.seat}: action {describe(state, action)}: {why}"
    )


def _bed_of(state: State, w: _Work, action: int) -> tuple[int, Bed]:
    b = action >> 11 & 1
    bed = w.me.beds[b]
    if bed is None:
        raise _illegal(state, action, f"bed {b} is not in play")
    return b, bed


def _cell_index(state: State, action: int) -> int:
    cell = action & act.INDEX_MASK
    if cell >= 25:
        raise _illegal(state, action, f"cell index {cell} is outside the 5x5 bed")
    return cell


def _hunt_cat(state: State, w: _Work, action: int, why: str) -> int:
    b, bed = _bed_of(state, w, action)
    cell = _cell_index(state, action)
    if w.me.cats <= 0:
        raise _illegal(state, action, "no cat in reserve")
    if not bed.empty >> cell & 1:
        raise _illegal(state, action, f"cell {_rc(cell)} of bed {b} is not empty soil")
    _place_cat(w, b, cell, why)
    return b


def _take_tile(state: State, w: _Work, action: int) -> None:
    rules = state.rules
    cell = action >> 12 & 15
    if cell not in rules.rows[state.space]:
        raise _illegal(
            state, action, f"nursery cell {list(nursery_rc(cell))} is not in the Gardener Row"
        )
    tile = w.nursery[cell]
    if tile < 0:
        raise _illegal(state, action, f"nursery cell {list(nursery_rc(cell))} is empty")
    b, bed = _bed_of(state, w, action)
    kind = rules.catalogue.kinds[rules.catalogue.tile_kind[tile]]
    index = action & act.INDEX_MASK
    if index >= len(kind.placements):
        raise _illegal(state, action, f"tile {kind.kind} has no placement {index}")
    place = kind.placements[index]
    if place.mask & bed.blocked:
        raise _illegal(state, action, "the tile would overlap a tile or token")
    w.nursery[cell] = -1
    w.set_bed(
        b,
        bed._replace(
            tiles=bed.tiles | place.mask,
            tile_pots=bed.tile_pots | place.pots,
            tile_cloches=bed.tile_cloches | place.cloches,
            placed=(*bed.placed, tile),
            shapes=(*bed.shapes, place.mask),
        ),
    )
    w.placed = True
    features = {}
    for c in mask_cells(place.pots):
        features["{},{}".format(*cell_rc(c))] = "pot"
    for c in mask_cells(place.cloches):
        features["{},{}".format(*cell_rc(c))] = "cloche"
    w.emit(
        {
            "e": "take_tile",
            "from": list(nursery_rc(cell)),
            "tile": w.tile_id(tile),
            "bed": b,
            "cells": [_rc(c) for c in place.cells],
            "features": features,
        }
    )


def _take_pot(state: State, w: _Work, action: int) -> None:
    b, bed = _bed_of(state, w, action)
    cell = _cell_index(state, action)
    if w.supply_pots <= 0:
        raise _illegal(state, action, "no pot left in the supply")
    if not bed.empty >> cell & 1:
        raise _illegal(state, action, f"cell {_rc(cell)} of bed {b} is not empty soil")
    w.set_bed(b, bed._replace(pots=bed.pots | 1 << cell))
    w.supply_pots -= 1
    w.placed = True
    w.emit({"e": "take_pot", "bed": b, "cell": _rc(cell)})


def _apply_plant(state: State, w: _Work, action: int) -> None:
    kind = act.kind_of(action)
    if kind == act.CAT:
        _hunt_cat(state, w, action, "hunt")
        _plant_step(w)
    elif kind == act.TILE:
        _take_tile(state, w, action)
        _after_step(w)
    elif kind == act.POT:
        _take_pot(state, w, action)
        _after_step(w)
    elif kind == act.PASS:
        if _tile_fits(w) or _pot_fits(w):
            raise _illegal(state, action, "a tile or a pot can still be placed")
        _pass(w)
    else:
        raise _illegal(state, action, "expected a cat, a tile, a pot or a pass")


def _apply_after(state: State, w: _Work, action: int) -> None:
    kind = act.kind_of(action)
    if kind == act.CAT:
        _hunt_cat(state, w, action, "hunt")
        _after_step(w)
    elif kind == act.SCORE:
        b, bed = _bed_of(state, w, action)
        if bed.empty:
            raise _illegal(state, action, f"bed {b} is not complete")
        _score_start(w, b, PH_AFTER)
    elif kind == act.DONE:
        if _complete_beds(w.me):
            raise _illegal(state, action, "a complete bed must be scored first")
        _limit_step(w)
    else:
        raise _illegal(state, action, "expected a cat, a bed to score, or done")


def _apply_limit(state: State, w: _Work, action: int) -> None:
    if act.kind_of(action) != act.CAT:
        raise _illegal(state, action, "the cat limit requires placing a cat")
    b = _hunt_cat(state, w, action, "limit")
    bed = w.me.beds[b]
    if bed is not None and not bed.empty:
        _score_start(w, b, PH_LIMIT)
    else:
        _limit_step(w)


def _apply_cube(state: State, w: _Work, action: int) -> None:
    sc = state.scoring
    assert sc is not None
    code = action & act.INDEX_MASK
    color, cube = code >> 3, code & 7
    if act.kind_of(action) != act.CUBE or color != sc.step:
        raise _illegal(state, action, f"expected an {COLOR_NAMES[sc.step]} cube to move")
    if cube not in cube_options(state.rules, cubes(w.me, color), color):
        raise _illegal(
            state,
            action,
            f"{COLOR_NAMES[color]} cube {cube} may not move (on target or a duplicate)",
        )
    if not _move(w, color, cube):
        _score_continue(w)


def _apply_bonus(state: State, w: _Work, action: int) -> None:
    sc = state.scoring
    assert sc is not None
    if act.kind_of(action) != act.BONUS_POT:
        raise _illegal(state, action, "expected a cell for the bonus pot")
    cell = _cell_index(state, action)
    other = w.me.beds[1 - sc.bed]
    if other is None or not other.empty >> cell & 1:
        raise _illegal(state, action, f"cell {_rc(cell)} of the other bed is not empty soil")
    _place_bonus_pot(w, cell)
    _score_continue(w)


def _apply_ramble(state: State, w: _Work, action: int) -> None:
    if act.kind_of(action) != act.RAMBLE or action & act.INDEX_MASK > 1:
        raise _illegal(state, action, "expected ramble or no ramble")
    if action & 1:
        cost = state.rules.settings.ramble_cost
        w.set_me(w.me._replace(cats=w.me.cats - cost))
        w.supply_cats += cost
        _refill(w, ramble=True)
    _plant_step(w)


def _apply_penalty(state: State, w: _Work, action: int) -> None:
    code = action & act.INDEX_MASK
    move = (code >> 3, code & 7)
    if act.kind_of(action) != act.PENALTY or move not in penalty_options(state.rules, w.me):
        raise _illegal(state, action, "not one of the allowed penalty moves")
    _do_penalty(w, *move)
    _refill_step(w)


def _apply_corners(state: State, w: _Work, action: int) -> None:
    chosen = action & act.INDEX_MASK
    if act.kind_of(action) != act.CORNERS or chosen not in corner_choices(state):
        raise _illegal(state, action, "not an allowed set of nursery corners")
    corners = tuple(CORNERS[i] for i in range(len(CORNERS)) if chosen >> i & 1)
    placed = min(len(corners), w.supply_cats)
    w.supply_cats -= placed
    w.set_me(w.me._replace(corners=corners[:placed]))
    later = [
        seat
        for seat, age in enumerate(state.rules.settings.children)
        if age is not None and seat > w.seat
    ]
    if later:
        w.seat = later[0]
        return
    w.seat = 0
    _start_turn(w)
    _run_turns(w)


_HANDLERS = {
    PH_PLANT: _apply_plant,
    PH_AFTER: _apply_after,
    PH_LIMIT: _apply_limit,
    PH_CUBE: _apply_cube,
    PH_BONUS: _apply_bonus,
    PH_RAMBLE: _apply_ramble,
    PH_PENALTY: _apply_penalty,
    PH_CORNERS: _apply_corners,
}


def apply(state: State, action: int) -> State:
    """The state after ``action``; raises ``IllegalActionError`` naming why it is illegal."""
    if state.phase == PH_OVER:
        raise IllegalActionError("the game is over")
    if not isinstance(action, int) or isinstance(action, bool) or action < 0:
        raise IllegalActionError(f"action {action!r} is not an action of this game")
    w = _Work.thaw(state)
    _HANDLERS[state.phase](state, w, action)
    _run_turns(w)
    return w.freeze()


# --------------------------------------------------------------------------- text


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
        color = COLOR_NAMES[d.place >> 3] if d.place >> 3 < 2 else "?"
        verb = "move" if d.kind == act.CUBE else "penalty on"
        return f"{verb} {color} cube {d.place & 7}"
    if d.kind == act.SCORE:
        return f"score bed {d.bed}"
    if d.kind == act.RAMBLE:
        return "ramble" if d.place else "no ramble"
    if d.kind == act.CORNERS:
        return "corners " + " ".join(
            str(list(nursery_rc(CORNERS[i]))) for i in range(len(CORNERS)) if d.place >> i & 1
        )
    return d.name
