"""Checks of the record's top level, components and setup, and the initial state they give."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Mapping
from typing import Any

from cgsim.games.cottage.checker.fields import get, is_int, to_cell
from cgsim.games.cottage.checker.geometry import CORNERS, Cell
from cgsim.games.cottage.checker.rules import read_rules
from cgsim.games.cottage.checker.state import COLOURS, Player, Rules, State, Tile
from cgsim.games.cottage.checker.violations import Fatal, Violation

FORMAT = "cgsim.record/1"
CORNER_CATS_BY_AGE = {5: 3, 6: 2, 7: 1}
FEATURE_KINDS = ("pot", "cloche")

Report = Callable[[str], None]


def read_setup(record: Mapping[str, Any], out: list[Violation]) -> State | None:
    """Check everything before the first turn; the initial state, or None if unusable."""

    def bad(message: str) -> None:
        out.append(Violation(None, None, message))

    if record.get("format") != FORMAT:
        bad(f"format is {record.get('format')!r}, expected {FORMAT!r}")
    raw_players = record.get("players")
    players = raw_players if isinstance(raw_players, int) and is_int(raw_players) else 0
    if not 1 <= players <= 4:
        bad(f"players is {raw_players!r}, expected 1 to 4")
        return None
    rules = read_rules(record.get("rules"), players, out)
    _check_seats(record.get("seats"), players, bad)
    try:
        tiles, boards = _read_components(get(record, "components", "record"), bad)
        if rules is None or tiles is None or boards is None:
            return None
        # A game stopped before its first turn may have stopped while the children chose.
        choosing = "result" not in record and not record.get("turns")
        setup = get(record, "setup", "record")
        return _read_deal(setup, players, rules, tiles, boards, bad, choosing)
    except Fatal as fatal:
        bad(fatal.message)
        return None


def _check_seats(seats: Any, players: int, bad: Report) -> None:
    if not (isinstance(seats, list) and len(seats) == players):
        bad(f"seats: expected a list of {players} seats, got {seats!r}")
        return
    for index, seat in enumerate(seats):
        if not (
            isinstance(seat, Mapping)
            and isinstance(seat.get("bot"), str)
            and isinstance(seat.get("params"), Mapping)
        ):
            bad(f"seats[{index}]: expected {{'bot': name, 'params': {{...}}}}, got {seat!r}")


def _read_components(
    raw: Any, bad: Report
) -> tuple[dict[str, Tile] | None, dict[str, dict[str, tuple[str, ...]]] | None]:
    raw_tiles = get(raw, "tiles", "components")
    raw_boards = get(raw, "boards", "components")
    tiles: dict[str, Tile] | None = {}
    if not isinstance(raw_tiles, Mapping) or not raw_tiles:
        bad("components.tiles: expected a non-empty object")
        tiles = None
    else:
        for tile_id, spec in raw_tiles.items():
            tile = _read_tile(tile_id, spec, bad)
            if tile is None or tiles is None:
                tiles = None
            else:
                tiles[tile_id] = tile
    boards: dict[str, dict[str, tuple[str, ...]]] | None = {}
    if not isinstance(raw_boards, Mapping) or not raw_boards:
        bad("components.boards: expected a non-empty object")
        return tiles, None
    for board_id, spec in raw_boards.items():
        sides = {side: _board_side(spec, side) for side in ("light", "dark")}
        light, dark = sides["light"], sides["dark"]
        if light is None or dark is None:
            bad(f"components.boards.{board_id}: light and dark must be 5 rows of 5 '.', 'P', 'C'")
            boards = None
        elif boards is not None:
            boards[board_id] = {"light": light, "dark": dark}
    return tiles, boards


def _read_tile(tile_id: str, spec: Any, bad: Report) -> Tile | None:
    where = f"components.tiles.{tile_id}"
    cells_raw = spec.get("cells") if isinstance(spec, Mapping) else None
    features_raw = spec.get("features") if isinstance(spec, Mapping) else None
    if not isinstance(spec, Mapping) or not isinstance(spec.get("kind"), str):
        bad(f"{where}: expected an object with kind, cells and features")
        return None
    if not (
        isinstance(cells_raw, list)
        and cells_raw
        and all(
            isinstance(c, list) and len(c) == 2 and all(is_int(v) for v in c) for c in cells_raw
        )
    ):
        bad(f"{where}.cells: expected a non-empty list of [row, col]")
        return None
    cells = tuple((int(r), int(c)) for r, c in cells_raw)
    if len(set(cells)) != len(cells):
        bad(f"{where}.cells: a cell is listed twice")
        return None
    features: dict[Cell, str] = {}
    if not isinstance(features_raw, Mapping):
        bad(f"{where}.features: expected an object")
        return None
    for key, kind in features_raw.items():
        cell = _parse_key(key)
        if cell is None or cell not in cells or kind not in FEATURE_KINDS:
            bad(f"{where}.features: {key!r}: {kind!r} is not a pot or cloche on a tile cell")
            return None
        features[cell] = kind
    return Tile(cells=cells, features=features)


def _parse_key(key: Any) -> Cell | None:
    """A ``"r,c"`` feature key, or None."""
    parts = key.split(",") if isinstance(key, str) else []
    if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def _board_side(spec: Any, side: str) -> tuple[str, ...] | None:
    rows = spec.get(side) if isinstance(spec, Mapping) else None
    if not (
        isinstance(rows, list)
        and len(rows) == 5
        and all(isinstance(r, str) and len(r) == 5 and set(r) <= set(".PC") for r in rows)
    ):
        return None
    return tuple(rows)


def _read_deal(
    setup: Any,
    players: int,
    rules: Rules,
    tiles: dict[str, Tile],
    boards: dict[str, dict[str, tuple[str, ...]]],
    bad: Report,
    choosing: bool,
) -> State | None:
    nursery = _read_nursery(get(setup, "nursery", "setup"))
    path = get(setup, "path", "setup")
    if nursery is None or not (isinstance(path, list) and all(isinstance(t, str) for t in path)):
        raise Fatal("setup: nursery must be 4 rows of 4 tile ids and path a list of tile ids")
    dealt = Counter([*nursery.values(), *path])
    for tile_id, copies in sorted(dealt.items()):
        if tile_id not in tiles:
            bad(f"setup: tile {tile_id!r} is not in components.tiles")
        elif copies > 1:
            bad(f"setup: tile {tile_id!r} is dealt {copies} times")
    for tile_id in sorted(set(tiles) - set(dealt)):
        bad(f"setup: tile {tile_id!r} is neither in the nursery nor on the path")
    beds = _read_beds(setup, players, boards, bad)
    supply_board = _board_ref(get(setup, "supply_board", "setup"), "setup.supply_board", boards)
    if supply_board[1] != "light":
        bad("setup.supply_board: the supply board starts light side up")
    used = [board for seat in beds for board, _ in seat] + [supply_board[0]]
    if len(set(used)) != len(used):
        bad(f"setup: boards {used} are not all different")
    gardener = get(setup, "gardener", "setup")
    if get(gardener, "space", "setup.gardener") != 0:
        bad(f"setup.gardener.space is {gardener['space']!r}, expected 0")
    if get(gardener, "value", "setup.gardener") != rules.gardener_value:
        bad(f"setup.gardener.value is {gardener['value']!r}, rules say {rules.gardener_value}")
    raw_corners = get(setup, "corner_cats", "setup")
    corner_cats = _read_corner_cats(raw_corners, players, rules, bad, choosing)
    cats, supply_cats, supply_pots = _read_counts(setup, players)
    for seat, count in enumerate(cats):
        if count != rules.start_cats:
            bad(f"setup.cats[{seat}] is {count}, rules.start_cats is {rules.start_cats}")
    in_play = supply_cats + sum(cats) + len(corner_cats)
    if in_play != rules.cats_total:
        bad(
            f"setup: {supply_cats} supply cats + {sum(cats)} in reserves + {len(corner_cats)} "
            f"on corners = {in_play}, rules.cats_total is {rules.cats_total}"
        )
    if supply_pots != rules.pots_total:
        bad(f"setup.supply.pots is {supply_pots}, rules.pots_total is {rules.pots_total}")
    state = State(
        rules=rules,
        tiles=tiles,
        boards=boards,
        nursery=nursery,
        path=deque(path),
        players=[],
        supply_board=supply_board,
        supply_cats=supply_cats,
        supply_pots=supply_pots,
        corner_cats=corner_cats,
        gardener_space=0,
        gardener_value=rules.gardener_value,
    )
    for seat in range(players):
        state.players.append(
            Player(
                beds=[state.new_bed(board, side) for board, side in beds[seat]],
                reserve=cats[seat],
                cubes={colour: [0] * rules.cubes for colour in COLOURS},
                child=rules.children[seat],
            )
        )
    return state


def _read_nursery(raw: Any) -> dict[Cell, str | None] | None:
    if not (isinstance(raw, list) and len(raw) == 4):
        return None
    nursery: dict[Cell, str | None] = {}
    for r, row in enumerate(raw):
        if not (isinstance(row, list) and len(row) == 4 and all(isinstance(t, str) for t in row)):
            return None
        for c, tile_id in enumerate(row):
            nursery[(r, c)] = tile_id
    return nursery


def _board_ref(
    raw: Any, where: str, boards: dict[str, dict[str, tuple[str, ...]]]
) -> tuple[str, str]:
    board, side = get(raw, "board", where), get(raw, "side", where)
    if board not in boards or side not in ("light", "dark"):
        raise Fatal(f"{where}: {raw!r} is not a board of components.boards with a light/dark side")
    return str(board), str(side)


def _read_beds(
    setup: Any, players: int, boards: dict[str, dict[str, tuple[str, ...]]], bad: Report
) -> list[list[tuple[str, str]]]:
    raw = get(setup, "beds", "setup")
    if not (isinstance(raw, list) and len(raw) == players):
        raise Fatal(f"setup.beds: expected one pair of beds for each of {players} seats")
    beds = []
    for seat, pair in enumerate(raw):
        if not (isinstance(pair, list) and len(pair) == 2):
            raise Fatal(f"setup.beds[{seat}]: expected 2 beds, got {pair!r}")
        refs = [_board_ref(b, f"setup.beds[{seat}][{i}]", boards) for i, b in enumerate(pair)]
        if [side for _, side in refs] != ["light", "dark"]:
            bad(f"setup.beds[{seat}]: the first bed must be light side up, the second dark")
        beds.append(refs)
    return beds


def _read_corner_cats(
    raw: Any, players: int, rules: Rules, bad: Report, choosing: bool
) -> list[tuple[int, Cell]]:
    """The children's corner cats; while ``choosing`` (a game stopped before its first
    turn) the children after the one that was choosing have none yet."""
    if not isinstance(raw, list):
        raise Fatal("setup.corner_cats: expected a list")
    cats: list[tuple[int, Cell]] = []
    for entry in raw:
        seat = get(entry, "seat", "setup.corner_cats[]")
        corner = to_cell(get(entry, "corner", "setup.corner_cats[]"), "setup.corner_cats[]", 4)
        if not (is_int(seat) and 0 <= seat < players) or corner not in CORNERS:
            raise Fatal(f"setup.corner_cats: {entry!r} is not a seat and a nursery corner")
        cats.append((int(seat), corner))
    for seat in range(players):
        corners = [corner for owner, corner in cats if owner == seat]
        age = rules.children[seat]
        wanted = 0 if age is None else CORNER_CATS_BY_AGE[age] + (1 if players == 2 else 0)
        if choosing and not corners:
            continue
        if len(corners) != wanted or len(set(corners)) != len(corners):
            bad(
                f"setup.corner_cats: seat {seat} (age {age}) has cats on {corners}; "
                f"expected {wanted} different corners"
            )
    return cats


def _read_counts(setup: Any, players: int) -> tuple[list[int], int, int]:
    cats = get(setup, "cats", "setup")
    if not (isinstance(cats, list) and len(cats) == players and all(is_int(c) for c in cats)):
        raise Fatal(f"setup.cats: expected {players} integers, got {cats!r}")
    supply = get(setup, "supply", "setup")
    supply_cats, supply_pots = (
        get(supply, "cats", "setup.supply"),
        get(supply, "pots", "setup.supply"),
    )
    if not (is_int(supply_cats) and is_int(supply_pots)):
        raise Fatal(f"setup.supply: expected integer cats and pots, got {supply!r}")
    return [int(c) for c in cats], int(supply_cats), int(supply_pots)
