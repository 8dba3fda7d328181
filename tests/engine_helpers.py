"""Builders for hand-made Cottage Garden states, so each rule can be tested in isolation.

A test starts from a real ``new_game`` state, replaces what the rule under test needs
(beds, cubes, cats, nursery, path, gardener, phase) with ``_replace``, and then lets the
engine run from there through the public ``legal_actions`` / ``apply`` only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cgsim.games.cottage import actions as act
from cgsim.games.cottage.components import cell_index, load_catalogue
from cgsim.games.cottage.rules import apply, legal_actions, make_rules, new_game
from cgsim.games.cottage.settings import make_settings
from cgsim.games.cottage.state import Bed, Event, Phase, State

Cell = tuple[int, int]


def game(
    players: int = 2,
    seed: int = 1,
    overrides: dict[str, Any] | None = None,
    children: Sequence[int | None] | None = None,
) -> State:
    """A fresh game with the default catalogue."""
    settings = make_settings(
        players, overrides or {}, children=list(children) if children is not None else None
    )
    return new_game(make_rules(players, settings, load_catalogue()), seed)


def mask(cells: Iterable[Cell]) -> int:
    """Bed mask of ``(row, col)`` cells."""
    out = 0
    for r, c in cells:
        out |= 1 << cell_index(r, c)
    return out


def tile_of(state: State, tile_id: str) -> int:
    """Engine index of a tile id such as ``"4B-1"``."""
    return state.rules.catalogue.tile_index(tile_id)


def grid_bed(rows: Sequence[str], board: int = 0, dark: bool = False, placed: int = 1) -> Bed:
    """A bed drawn as 5 strings of 5 characters.

    ``.`` soil, ``P``/``C`` printed pot/cloche, ``#`` tile, ``p``/``c`` tile showing a
    pot/cloche, ``X``/``Y`` tile covering a printed pot/cloche, ``o`` pot token, ``m`` cat.
    Tile cells are split into ``placed`` shapes (tile ids 0..placed-1 stand in for them;
    use :func:`with_player` to take real ids off the path).
    """
    assert len(rows) == 5 and all(len(row) == 5 for row in rows)
    fields = dict.fromkeys(("pp", "pc", "t", "tp", "tc", "o", "m"), 0)
    codes = {
        "P": ("pp",),
        "C": ("pc",),
        "#": ("t",),
        "p": ("t", "tp"),
        "c": ("t", "tc"),
        "X": ("t", "pp"),
        "Y": ("t", "pc"),
        "o": ("o",),
        "m": ("m",),
        ".": (),
    }
    tile_cells: list[int] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            bit = 1 << cell_index(r, c)
            for name in codes[ch]:
                fields[name] |= bit
            if "t" in codes[ch]:
                tile_cells.append(cell_index(r, c))
    count = min(placed, len(tile_cells)) if tile_cells else 0
    shapes = [0] * count
    for i, cell in enumerate(tile_cells):
        shapes[min(i, count - 1)] |= 1 << cell
    return Bed(
        board=board,
        dark=dark,
        printed_pots=fields["pp"],
        printed_cloches=fields["pc"],
        tiles=fields["t"],
        tile_pots=fields["tp"],
        tile_cloches=fields["tc"],
        pots=fields["o"],
        cats=fields["m"],
        placed=tuple(range(count)),
        shapes=tuple(shapes),
        born=0,
    )


EMPTY = ["....."] * 5


def bed_missing(cells: Iterable[Cell], board: int = 0, placed: int = 3) -> Bed:
    """A bed covered by tiles except the given cells (bare soil)."""
    holes = set(cells)
    rows = ["".join("." if (r, c) in holes else "#" for c in range(5)) for r in range(5)]
    return grid_bed(rows, board=board, placed=placed)


def with_player(state: State, seat: int, **changes: Any) -> State:
    """Replace fields of one player; beds' stand-in tile ids are swapped for real path tiles.

    The tiles on the new beds are taken from the back of the path, so every tile stays in
    exactly one place.
    """
    player = state.players[seat]
    path = list(state.path)
    if "beds" in changes:
        beds: list[Bed | None] = []
        for bed in changes["beds"]:
            if bed is not None and bed.placed and bed.placed == tuple(range(len(bed.placed))):
                ids = tuple(path.pop() for _ in bed.placed)
                bed = bed._replace(placed=ids)
            beds.append(bed)
        changes["beds"] = (beds[0], beds[1])
    players = list(state.players)
    players[seat] = player._replace(**changes)
    return state._replace(players=tuple(players), path=tuple(path))


def set_row(state: State, cells_tiles: dict[int, int]) -> State:
    """Put tile ids on nursery cells (``-1`` empties a cell); a tile moved here leaves its old
    place (nursery or path)."""
    nursery = list(state.nursery)
    path = list(state.path)
    for cell, tile in cells_tiles.items():
        old = nursery[cell]
        if tile >= 0:
            if tile in nursery:
                nursery[nursery.index(tile)] = -1
            if tile in path:
                path.remove(tile)
        nursery[cell] = tile
        if old >= 0 and old != tile and old not in nursery:
            path.append(old)
    return state._replace(nursery=tuple(nursery), path=tuple(path))


def clear_nursery(state: State, keep: Iterable[int] = ()) -> State:
    """Empty every nursery cell except ``keep``; removed tiles go to the back of the path."""
    keep = set(keep)
    nursery = list(state.nursery)
    path = list(state.path)
    for cell, tile in enumerate(nursery):
        if cell not in keep and tile >= 0:
            path.append(tile)
            nursery[cell] = -1
    return state._replace(nursery=tuple(nursery), path=tuple(path))


def at_plant(state: State, seat: int = 0, space: int | None = None) -> State:
    """The state at the planting decision of ``seat`` (no events, turn counters kept)."""
    return state._replace(
        seat=seat,
        phase=Phase.PLANT,
        scoring=None,
        space=state.space if space is None else space,
        had_bed=True,
        events=(),
    )


def end_previous_turn(state: State, seat: int, space: int) -> State:
    """Start ``seat``'s turn with the gardener on ``space`` by finishing the turn before.

    The previous seat is put at its after-planting decision with the gardener one move
    before ``space``; ``done`` then runs the cat limit, the gardener and the start of
    ``seat``'s turn. The previous player must have no complete bed and at most the cat
    limit in reserve.
    """
    s = state.rules.settings
    prev = (seat - 1) % state.rules.players
    before = state._replace(
        seat=prev,
        phase=Phase.AFTER,
        scoring=None,
        space=(space - s.gardener_step) % s.track_spaces,
        had_bed=True,
        events=(),
    )
    done = act.encode(act.DONE)
    assert done in legal_actions(before), "the previous turn cannot end with done"
    return apply(before, done)


def kinds(events: Sequence[Event]) -> list[str]:
    """Event types, without turn markers."""
    return [e["e"] for e in events if e["e"] != "_turn"]


def of_kind(events: Sequence[Event], name: str) -> list[Event]:
    return [e for e in events if e["e"] == name]


def cat(bed: int, r: int, c: int) -> int:
    return act.encode(act.CAT, cell_index(r, c), bed=bed)


def pot(bed: int, r: int, c: int) -> int:
    return act.encode(act.POT, cell_index(r, c), bed=bed)


def bonus(r: int, c: int) -> int:
    return act.encode(act.BONUS_POT, cell_index(r, c))


def cube(color: int, k: int) -> int:
    return act.encode(act.CUBE, act.cube_code(color, k))


def penalty(color: int, k: int) -> int:
    return act.encode(act.PENALTY, act.cube_code(color, k))


def score(bed: int) -> int:
    return act.encode(act.SCORE, bed=bed)


DONE = act.encode(act.DONE)
PASS = act.encode(act.PASS)
NO_RAMBLE = act.encode(act.RAMBLE, 0)
RAMBLE = act.encode(act.RAMBLE, 1)


def tile_actions(state: State, cell: int, bed: int | None = None) -> list[int]:
    """Legal tile actions taking the tile at nursery ``cell`` (optionally onto ``bed``)."""
    out = []
    for a in legal_actions(state):
        d = act.decode(a)
        if d.kind == act.TILE and d.cell == cell and (bed is None or d.bed == bed):
            out.append(a)
    return out


def tile_action(state: State, cell: int, bed: int, cells: Iterable[Cell]) -> int:
    """The action placing the tile at nursery ``cell`` on ``bed`` covering exactly ``cells``."""
    catalogue = state.rules.catalogue
    tile = state.nursery[cell]
    kind = catalogue.kinds[catalogue.tile_kind[tile]]
    want = mask(cells)
    for i, place in enumerate(kind.placements):
        if place.mask == want:
            return act.encode(act.TILE, i, bed=bed, cell=cell)
    raise AssertionError(f"no placement of {kind.kind} covers {sorted(cells)}")


def play_out(state: State, choose: int = 0, limit: int = 100_000) -> State:
    """Play on with the ``choose``-th legal action (modulo) until the game ends."""
    for _ in range(limit):
        legal = legal_actions(state)
        if not len(legal):
            return state
        state = apply(state, legal[choose % len(legal)])
    raise AssertionError("game did not end")
