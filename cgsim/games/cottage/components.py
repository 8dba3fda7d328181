"""The tiles and flowerbed boards of Cottage Garden, as bitboards built once per catalogue.

The catalogue is data, not code: the default lives in ``cgsim/games/cottage/components.toml`` and a
balance study may load any file of the same form. Loading validates everything a user can
get wrong, then precomputes every distinct placement of every tile kind on an empty bed, so
the engine's hot loop only filters integer masks (``mask & blocked == 0``).

A flowerbed cell ``(r, c)`` has index ``r * 5 + c`` and bit ``1 << index``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from cgsim.errors import ConfigError, RecordError
from cgsim.games.datafile import parse_toml, read_toml_file

SIZE = 5
"""Rows and columns of a flowerbed."""
CELLS = SIZE * SIZE
"""Cells of a flowerbed."""
Mask = int
"""A 25-bit set of bed cells: bit ``r * 5 + c`` stands for cell ``(r, c)``."""
FULL: Mask = (1 << CELLS) - 1
"""Mask of a completely covered flowerbed."""
ORIENTATIONS = 8
"""Four rotations of the reference shape, then four rotations of its mirror image."""
MIN_TILES = 16
"""The nursery holds 16 tiles at setup, so a catalogue needs at least that many."""
MIN_BOARDS = 3
"""The solo game uses 3 boards; the engine checks the per-player-count minimum itself."""
MAX_TILES = 500
"""Tiles of a catalogue in all (the game has 36): bounds setup and the garden path."""
MAX_BOARDS = 100
"""Boards of a catalogue (the game has 9; 4 players use 9)."""

TILE_FEATURE_CHARS: Mapping[str, str] = {"P": "pot", "C": "cloche"}
"""Shape characters that show a printed feature, and the feature's name."""
TILE_CHARS = "#PC."
BOARD_CHARS = ".PC"
FEATURES = ("pot", "cloche")

_KIND_NAME = re.compile(r"[A-Za-z0-9]+")
_TILE_ALLOWED = "'#', 'P', 'C', '.'"
_BOARD_ALLOWED = "'.', 'P', 'C'"

Cell = tuple[int, int]


def cell_index(r: int, c: int) -> int:
    """Index of flowerbed cell ``(r, c)``; its bit is ``1 << index``."""
    return r * SIZE + c


def cell_rc(index: int) -> tuple[int, int]:
    """``(row, col)`` of a flowerbed cell index."""
    return divmod(index, SIZE)


def mask_cells(mask: Mask) -> list[int]:
    """Indexes of the set bits of ``mask``, ascending."""
    cells: list[int] = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def cells_mask(cells: Iterable[int]) -> Mask:
    """Mask with the bits of the given cell indexes set."""
    mask = 0
    for index in cells:
        mask |= 1 << index
    return mask


Printed = dict[tuple[str, str], int]
"""Cells showing a printed pot or cloche, per (board id, side), as a mask."""


def printed_cells(boards: Mapping[str, Mapping[str, Sequence[str]]]) -> Printed:
    """The printed cells of boards given as a record's ``components.boards``."""
    return {
        (str(board), side): cells_mask(
            cell_index(r, c)
            for r, row in enumerate(rows)
            for c, char in enumerate(row)
            if char != "."
        )
        for board, sides in boards.items()
        for side, rows in sides.items()
    }


@dataclass(frozen=True, slots=True)
class Placement:
    """One distinct way to put a tile kind on an empty 5x5 bed."""

    mask: Mask
    """Bed cells covered."""
    pots: Mask
    """Covered cells showing a pot printed on the tile."""
    cloches: Mask
    """Covered cells showing a cloche printed on the tile."""
    cells: tuple[int, ...]
    """Bed cell indexes, in the order of the kind's reference cells (what a record stores)."""
    orientation: int
    """0..7: see :func:`orient_cells`."""
    row: int
    """Bed row of the transformed, normalised shape's top-left corner."""
    col: int
    """Bed column of that corner."""


@dataclass(frozen=True, slots=True)
class TileKind:
    """A tile shape with its printed features; identical physical tiles share one kind."""

    kind: str
    cells: tuple[Cell, ...]
    """Reference orientation, row-major, normalised so min row = min col = 0."""
    features: tuple[tuple[Cell, str], ...]
    """``((r, c), "pot" | "cloche")`` in reference coordinates, row-major."""
    placements: tuple[Placement, ...]
    size: int
    """Number of cells."""

    def shape_rows(self) -> tuple[str, ...]:
        """The shape strings of the catalogue file, rebuilt from cells and features."""
        return shape_rows(self.cells, self.features)


@dataclass(frozen=True, slots=True)
class Tile:
    """One physical tile."""

    id: str
    """``KIND-COPY``, copies numbered from 1, e.g. ``2C-2``."""
    kind: int
    """Index into :attr:`Catalogue.kinds`."""


@dataclass(frozen=True, slots=True)
class BoardSide:
    """One side of a flowerbed board with its printed pots and cloches."""

    rows: tuple[str, ...]
    """5 strings of 5 characters from ``.PC``."""
    pots: Mask
    cloches: Mask


@dataclass(frozen=True, slots=True)
class Board:
    """A flowerbed board: a light side and a dark side."""

    id: str
    """The catalogue key, e.g. ``"1"``."""
    light: BoardSide
    dark: BoardSide

    def side(self, dark: bool) -> BoardSide:
        """The side facing up."""
        return self.dark if dark else self.light


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Every tile and board a game may use; a tile's int id in the engine is its index here."""

    kinds: tuple[TileKind, ...]
    """In file order."""
    tiles: tuple[Tile, ...]
    """Kinds in file order, copies 1..n."""
    boards: tuple[Board, ...]
    """In file order."""
    source: str
    """File path, or ``"default"`` for the packaged catalogue."""
    tile_kind: tuple[int, ...] = field(init=False)
    """Per tile index, its kind index."""
    kind_placement_masks: tuple[tuple[Mask, ...], ...] = field(init=False)
    """Per kind, the masks of its placements in placement order."""
    _tile_ids: Mapping[str, int] = field(init=False, repr=False, compare=False)
    _board_ids: Mapping[str, int] = field(init=False, repr=False, compare=False)
    printed: Printed = field(init=False, repr=False, compare=False)
    """The boards' printed cells, as the games' statistics read them (computed once)."""

    def __post_init__(self) -> None:
        tile_ids = _unique_ids([tile.id for tile in self.tiles], self.source, "tile")
        board_ids = _unique_ids([board.id for board in self.boards], self.source, "board")
        object.__setattr__(self, "_tile_ids", tile_ids)
        object.__setattr__(self, "_board_ids", board_ids)
        object.__setattr__(self, "tile_kind", tuple(tile.kind for tile in self.tiles))
        masks = tuple(tuple(p.mask for p in kind.placements) for kind in self.kinds)
        object.__setattr__(self, "kind_placement_masks", masks)
        boards = {b.id: {"light": b.light.rows, "dark": b.dark.rows} for b in self.boards}
        object.__setattr__(self, "printed", printed_cells(boards))

    def tile_index(self, tile_id: str) -> int:
        """Index of a tile id (as a record names it); unknown ids are a bad record."""
        try:
            return self._tile_ids[tile_id]
        except KeyError:
            raise RecordError(
                f"unknown tile id {tile_id!r}; allowed: {', '.join(self._tile_ids)}"
            ) from None

    def board_index(self, board_id: str) -> int:
        """Index of a board id (as a record names it); unknown ids are a bad record."""
        try:
            return self._board_ids[board_id]
        except KeyError:
            raise RecordError(
                f"unknown board id {board_id!r}; allowed: {', '.join(self._board_ids)}"
            ) from None

    def to_json(self) -> dict[str, Any]:
        """The game record's ``components`` object, so a record outlives catalogue changes."""
        tiles: dict[str, Any] = {}
        for tile in self.tiles:
            kind = self.kinds[tile.kind]
            tiles[tile.id] = {
                "kind": kind.kind,
                "cells": [[r, c] for r, c in kind.cells],
                "features": {f"{r},{c}": feature for (r, c), feature in kind.features},
            }
        boards = {
            board.id: {"light": list(board.light.rows), "dark": list(board.dark.rows)}
            for board in self.boards
        }
        return {"tiles": tiles, "boards": boards}

    def digest(self) -> str:
        """SHA-256 of the canonical JSON of :meth:`to_json`: names a catalogue in results."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _unique_ids(ids: Sequence[str], source: str, what: str) -> dict[str, int]:
    index: dict[str, int] = {}
    for i, item in enumerate(ids):
        if item in index:
            raise ConfigError(f"{source}: {what} id {item!r} appears twice; allowed: unique ids")
        index[item] = i
    return index


# --- shapes and placements ---------------------------------------------------------------


def shape_rows(cells: Sequence[Cell], features: Sequence[tuple[Cell, str]]) -> tuple[str, ...]:
    """Shape strings (``#``, ``P``, ``C``, ``.``) drawing normalised cells and features."""
    height = 1 + max(r for r, _ in cells)
    width = 1 + max(c for _, c in cells)
    grid = [["."] * width for _ in range(height)]
    for r, c in cells:
        grid[r][c] = "#"
    for (r, c), feature in features:
        grid[r][c] = "P" if feature == "pot" else "C"
    return tuple("".join(row) for row in grid)


def _normalise(cells: Sequence[Cell]) -> tuple[Cell, ...]:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple((r - top, c - left) for r, c in cells)


def orient_cells(cells: Sequence[Cell], orientation: int) -> tuple[Cell, ...]:
    """The cells under one of the 8 orientations, normalised, in the same order.

    Orientation ``o`` in 0..3 turns the shape ``o`` quarter turns clockwise, each turn
    ``(r, c) -> (c, -r)``; ``o`` in 4..7 first mirrors ``(r, c) -> (r, -c)``, then turns
    ``o - 4`` times.
    """
    if not 0 <= orientation < ORIENTATIONS:
        raise ValueError(f"orientation {orientation}; allowed: 0..7")
    moved = [(r, -c) for r, c in cells] if orientation >= 4 else list(cells)
    for _ in range(orientation % 4):
        moved = [(c, -r) for r, c in moved]
    return _normalise(moved)


def placements_of(
    cells: Sequence[Cell], features: Sequence[tuple[Cell, str]]
) -> tuple[Placement, ...]:
    """Every distinct placement on an empty bed: orientations 0..7, then rows, then columns.

    Placements equal in ``(mask, pots, cloches)`` are the same move, so only the first one
    met is kept: symmetric shapes get fewer placements and the engine no duplicate actions.
    """
    feature_at = dict(features)
    seen: set[tuple[int, int, int]] = set()
    placements: list[Placement] = []
    for orientation in range(ORIENTATIONS):
        shape = orient_cells(cells, orientation)
        height = 1 + max(r for r, _ in shape)
        width = 1 + max(c for _, c in shape)
        for row in range(SIZE - height + 1):
            for col in range(SIZE - width + 1):
                indexes = tuple(cell_index(r + row, c + col) for r, c in shape)
                mask = pots = cloches = 0
                for reference, index in zip(cells, indexes, strict=True):
                    bit = 1 << index
                    mask |= bit
                    feature = feature_at.get(reference)
                    if feature == "pot":
                        pots |= bit
                    elif feature == "cloche":
                        cloches |= bit
                key = (mask, pots, cloches)
                if key in seen:
                    continue
                seen.add(key)
                placements.append(Placement(mask, pots, cloches, indexes, orientation, row, col))
    return tuple(placements)


def _disconnected_cell(cells: Sequence[Cell]) -> Cell | None:
    """First cell (row-major) not joined edge to edge to the first cell, or None."""
    remaining = set(cells)
    stack = [cells[0]]
    remaining.discard(cells[0])
    while stack:
        r, c = stack.pop()
        for neighbour in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if neighbour in remaining:
                remaining.remove(neighbour)
                stack.append(neighbour)
    return min(remaining) if remaining else None


def _check_kind_name(kind: object, source: str) -> None:
    if not isinstance(kind, str) or not _KIND_NAME.fullmatch(kind):
        raise ConfigError(
            f"{source}: tile name {kind!r}; allowed: letters and digits only, at least one "
            "(tile ids are KIND-COPY)"
        )


def tile_kind_from_shape(kind: str, shape: Sequence[str], source: str = "shape") -> TileKind:
    """Validate one tile's shape strings and precompute its placements.

    ``source`` names the file in error messages.
    """
    where = f"{source}: tile {kind}"
    _check_kind_name(kind, source)
    raw_cells: list[Cell] = []
    raw_features: list[tuple[Cell, str]] = []
    for r, row in enumerate(shape):
        for c, char in enumerate(row):
            if char not in TILE_CHARS:
                raise ConfigError(
                    f"{where}: shape row {r} has character {char!r}; allowed: {_TILE_ALLOWED}"
                )
            if char == ".":
                continue
            raw_cells.append((r, c))
            if char in TILE_FEATURE_CHARS:
                raw_features.append(((r, c), TILE_FEATURE_CHARS[char]))
    if not raw_cells:
        raise ConfigError(f"{where}: shape has no cells; allowed: at least one '#', 'P' or 'C'")
    cells = _normalise(raw_cells)
    height = 1 + max(r for r, _ in cells)
    width = 1 + max(c for _, c in cells)
    if height > SIZE or width > SIZE:
        raise ConfigError(
            f"{where}: shape spans {height} rows x {width} columns; "
            f"allowed: at most {SIZE} x {SIZE} (the flowerbed)"
        )
    cut_off = _disconnected_cell(raw_cells)
    if cut_off is not None:
        r0, c0 = raw_cells[0]
        raise ConfigError(
            f"{where}: shape is not in one piece: the cell at row {cut_off[0]}, col "
            f"{cut_off[1]} is not joined to the cell at row {r0}, col {c0}; "
            "allowed: cells joined edge to edge (4-connected)"
        )
    top = min(r for r, _ in raw_cells)
    left = min(c for _, c in raw_cells)
    features = tuple(((r - top, c - left), feature) for (r, c), feature in raw_features)
    return TileKind(
        kind=kind,
        cells=cells,
        features=features,
        placements=placements_of(cells, features),
        size=len(cells),
    )


# --- catalogue files -----------------------------------------------------------------------


def _check_keys(table: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
    names = ", ".join(repr(key) for key in allowed)
    for key in table:
        if key not in allowed:
            raise ConfigError(f"{where}: unknown key {key!r}; allowed: {names}")
    for key in allowed:
        if key not in table:
            raise ConfigError(f"{where}: missing key {key!r}; required: {names}")


def _parse_tile_kind(kind: Any, entry: Any, source: str) -> tuple[TileKind, int]:
    _check_kind_name(kind, source)
    where = f"{source}: tile {kind}"
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{where}: must be a table with keys 'copies' and 'shape'")
    _check_keys(entry, ("copies", "shape"), where)
    copies = entry["copies"]
    if not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= MAX_TILES:
        raise ConfigError(
            f"{where}: copies = {copies!r}; allowed: an integer from 1 to {MAX_TILES}"
        )
    shape = entry["shape"]
    if (
        not isinstance(shape, list | tuple)
        or not shape
        or not all(isinstance(row, str) for row in shape)
    ):
        raise ConfigError(
            f"{where}: shape = {shape!r}; allowed: a non-empty list of strings, one per row"
        )
    return tile_kind_from_shape(kind, shape, source), copies


def _parse_board_side(rows: Any, where: str, side: str) -> BoardSide:
    if (
        not isinstance(rows, list | tuple)
        or len(rows) != SIZE
        or not all(isinstance(row, str) for row in rows)
    ):
        raise ConfigError(f"{where}: {side} = {rows!r}; allowed: a list of exactly {SIZE} strings")
    pots = cloches = 0
    for r, row in enumerate(rows):
        if len(row) != SIZE:
            raise ConfigError(
                f"{where}: {side} row {r} is {row!r} ({len(row)} characters); "
                f"allowed: exactly {SIZE} characters from {_BOARD_ALLOWED}"
            )
        for c, char in enumerate(row):
            if char not in BOARD_CHARS:
                raise ConfigError(
                    f"{where}: {side} row {r} has character {char!r}; allowed: {_BOARD_ALLOWED}"
                )
            if char == "P":
                pots |= 1 << cell_index(r, c)
            elif char == "C":
                cloches |= 1 << cell_index(r, c)
    return BoardSide(rows=tuple(rows), pots=pots, cloches=cloches)


def _parse_board(board_id: Any, entry: Any, source: str) -> Board:
    if not isinstance(board_id, str) or not board_id:
        raise ConfigError(f"{source}: board id {board_id!r}; allowed: a non-empty name")
    where = f"{source}: board {board_id}"
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{where}: must be a table with keys 'light' and 'dark'")
    _check_keys(entry, ("light", "dark"), where)
    return Board(
        id=board_id,
        light=_parse_board_side(entry["light"], where, "light"),
        dark=_parse_board_side(entry["dark"], where, "dark"),
    )


def catalogue_from_dict(data: Mapping[str, Any], source: str) -> Catalogue:
    """Validate catalogue data (a parsed components file) and build the catalogue.

    ``source`` names the file in error messages and is kept as :attr:`Catalogue.source`.
    Every problem raises :class:`~cgsim.errors.ConfigError` with one line.
    """
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: must be a table with keys 'tiles' and 'boards'")
    _check_keys(data, ("tiles", "boards"), source)
    tiles_table = data["tiles"]
    if not isinstance(tiles_table, Mapping):
        raise ConfigError(f"{source}: 'tiles' must be a table of tile kinds ([tiles.KIND])")
    boards_table = data["boards"]
    if not isinstance(boards_table, Mapping):
        raise ConfigError(f"{source}: 'boards' must be a table of boards ([boards.ID])")

    kinds: list[TileKind] = []
    tiles: list[Tile] = []
    for kind_name, entry in tiles_table.items():
        kind, copies = _parse_tile_kind(kind_name, entry, source)
        if len(tiles) + copies > MAX_TILES:
            raise ConfigError(
                f"{source}: more than {MAX_TILES} tiles in all (tile {kind.kind} brings "
                f"{len(tiles) + copies}); allowed: {MIN_TILES} to {MAX_TILES}"
            )
        tiles.extend(Tile(id=f"{kind.kind}-{n}", kind=len(kinds)) for n in range(1, copies + 1))
        kinds.append(kind)
    if len(tiles) < MIN_TILES:
        raise ConfigError(
            f"{source}: {len(tiles)} tiles in all; allowed: {MIN_TILES} to {MAX_TILES} "
            "(the nursery holds 16)"
        )

    if not MIN_BOARDS <= len(boards_table) <= MAX_BOARDS:
        raise ConfigError(
            f"{source}: {len(boards_table)} boards; allowed: {MIN_BOARDS} to {MAX_BOARDS}"
        )
    boards = [_parse_board(board_id, entry, source) for board_id, entry in boards_table.items()]
    return Catalogue(kinds=tuple(kinds), tiles=tuple(tiles), boards=tuple(boards), source=source)


@functools.cache
def _default_catalogue() -> Catalogue:
    raw = resources.files("cgsim.games.cottage").joinpath("components.toml").read_text("utf-8")
    return catalogue_from_dict(parse_toml(raw, "default"), "default")


def load_catalogue(path: Path | str | None = None) -> Catalogue:
    """Load a components file; ``None`` is the packaged default, built once per process."""
    if path is None:
        return _default_catalogue()
    path = Path(path)
    return catalogue_from_dict(read_toml_file(path, "components file"), str(path))


# --- records ---------------------------------------------------------------------------------


def _json_cell(value: Any, where: str) -> Cell:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value)
    ):
        raise RecordError(f"{where}: cell {value!r}; allowed: [row, col] with integers >= 0")
    return (value[0], value[1])


def _json_kind_shape(tile_id: str, entry: Any, source: str) -> tuple[str, tuple[str, ...]]:
    where = f"{source}: components tile {tile_id}"
    if not isinstance(entry, Mapping) or not {"kind", "cells", "features"} <= entry.keys():
        raise RecordError(f"{where}: must be an object with 'kind', 'cells' and 'features'")
    kind, raw_cells, raw_features = entry["kind"], entry["cells"], entry["features"]
    if not isinstance(kind, str):
        raise RecordError(f"{where}: kind {kind!r}; allowed: a string")
    if not isinstance(raw_cells, list | tuple) or not raw_cells:
        raise RecordError(f"{where}: cells {raw_cells!r}; allowed: a non-empty list")
    cells = [_json_cell(value, where) for value in raw_cells]
    if cells != sorted(set(cells)) or _normalise(cells) != tuple(cells):
        raise RecordError(
            f"{where}: cells {raw_cells!r}; allowed: distinct cells in row-major order "
            "with min row = min col = 0"
        )
    if not isinstance(raw_features, Mapping):
        raise RecordError(f"{where}: features {raw_features!r}; allowed: an object")
    features: list[tuple[Cell, str]] = []
    for key, feature in raw_features.items():
        match = re.fullmatch(r"(\d+),(\d+)", key) if isinstance(key, str) else None
        cell = (int(match[1]), int(match[2])) if match else None
        if cell is None or cell not in cells or feature not in FEATURES:
            raise RecordError(
                f'{where}: feature {key!r}: {feature!r}; allowed: "r,c" of a tile cell '
                "mapped to 'pot' or 'cloche'"
            )
        features.append((cell, feature))
    return kind, shape_rows(cells, features)


def catalogue_data_from_json(components: Mapping[str, Any], source: str) -> dict[str, Any]:
    """Turn a record's ``components`` object back into catalogue data (shape strings).

    The result is what :func:`catalogue_from_dict` reads; tile ids must be ``KIND-1``,
    ``KIND-2``, ... with every copy of a kind identical.
    """
    if not isinstance(components, Mapping):
        raise RecordError(f"{source}: components must be an object with 'tiles' and 'boards'")
    tiles, boards = components.get("tiles"), components.get("boards")
    if not isinstance(tiles, Mapping) or not isinstance(boards, Mapping):
        raise RecordError(f"{source}: components must be an object with 'tiles' and 'boards'")
    kinds: dict[str, dict[str, Any]] = {}
    for tile_id, entry in tiles.items():
        kind, shape = _json_kind_shape(str(tile_id), entry, source)
        known = kinds.setdefault(kind, {"copies": 0, "shape": list(shape)})
        known["copies"] += 1
        if tile_id != f"{kind}-{known['copies']}":
            raise RecordError(
                f"{source}: components tile id {tile_id!r}; allowed: "
                f"{kind}-{known['copies']} (copies of a kind numbered from 1 in order)"
            )
        if known["shape"] != list(shape):
            raise RecordError(
                f"{source}: components tile {tile_id}: differs from {kind}-1; "
                "allowed: identical copies of a kind"
            )
    return {"tiles": kinds, "boards": {key: value for key, value in boards.items()}}


def catalogue_from_json(components: Mapping[str, Any], source: str = "record") -> Catalogue:
    """Rebuild the catalogue a record embeds, so the record replays after the file changes.

    Every problem is a bad record: :class:`~cgsim.errors.RecordError`.
    """
    data = catalogue_data_from_json(components, source)
    try:
        return catalogue_from_dict(data, source)
    except ConfigError as exc:
        raise RecordError(str(exc)) from None
