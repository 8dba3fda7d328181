"""Tests of the component catalogue: the default data, placements, validation, records."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgsim.errors import ConfigError, RecordError
from cgsim.games.cottage.components import (
    CELLS,
    FULL,
    SIZE,
    Catalogue,
    Tile,
    TileKind,
    catalogue_data_from_json,
    catalogue_from_dict,
    catalogue_from_json,
    cell_index,
    cell_rc,
    cells_mask,
    load_catalogue,
    mask_cells,
    orient_cells,
    tile_kind_from_shape,
)

Cell = tuple[int, int]


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


def kind_named(catalogue: Catalogue, name: str) -> TileKind:
    return next(kind for kind in catalogue.kinds if kind.kind == name)


def minimal_data() -> dict[str, Any]:
    """A small valid catalogue: 16 one-square tiles and 3 blank boards."""
    blank = ["....."] * 5
    return {
        "tiles": {"1A": {"copies": 16, "shape": ["#"]}},
        "boards": {str(n): {"light": list(blank), "dark": list(blank)} for n in (1, 2, 3)},
    }


# --- bitboards ----------------------------------------------------------------------------


def test_cell_helpers_round_trip() -> None:
    assert (SIZE, CELLS, FULL) == (5, 25, (1 << 25) - 1)
    assert cell_index(2, 3) == 13
    assert cell_rc(13) == (2, 3)
    assert all(cell_index(*cell_rc(i)) == i for i in range(CELLS))
    assert mask_cells(0) == []
    assert mask_cells(0b100101) == [0, 2, 5]
    assert mask_cells(FULL) == list(range(CELLS))
    assert cells_mask([0, 2, 5]) == 0b100101


# --- the default catalogue --------------------------------------------------------------------


def test_default_catalogue_counts(catalogue: Catalogue) -> None:
    assert catalogue.source == "default"
    assert len(catalogue.tiles) == 36
    sizes = [catalogue.kinds[tile.kind].size for tile in catalogue.tiles]
    assert sum(1 for s in sizes if s <= 3) == 11
    assert sizes.count(4) == 8
    assert sizes.count(5) == 9
    assert sizes.count(6) == 8
    assert min(sizes) == 1 and max(sizes) == 6
    assert catalogue.tile_kind == tuple(tile.kind for tile in catalogue.tiles)


def test_default_tile_ids_and_features(catalogue: Catalogue) -> None:
    ids = [tile.id for tile in catalogue.tiles]
    assert ids[:4] == ["1A-1", "1A-2", "2A-1", "2B-1"]
    assert len(set(ids)) == 36
    for tile_id in ("1A-1", "1A-2"):
        kind = catalogue.kinds[catalogue.tile_kind[catalogue.tile_index(tile_id)]]
        assert kind.features == (((0, 0), "cloche"),)
    assert kind_named(catalogue, "2A").features == (((0, 0), "pot"),)
    assert kind_named(catalogue, "2B").features == (((0, 1), "pot"),)
    tall_fives = [k for k in catalogue.kinds if k.size == 5 and max(r for r, _ in k.cells) == 4]
    assert [k.kind for k in tall_fives] == ["5F"]
    assert tall_fives[0].features == (((0, 0), "pot"),)
    featured = {k.kind for k in catalogue.kinds if k.features}
    assert featured == {"1A", "2A", "2B", "5F"}


def test_default_boards(catalogue: Catalogue) -> None:
    assert [board.id for board in catalogue.boards] == [str(n) for n in range(1, 10)]
    for board in catalogue.boards:
        for side in (board.light, board.dark):
            assert side.pots & side.cloches == 0
            assert side.pots.bit_count() + side.cloches.bit_count() == 6
            assert "".join(side.rows).count("P") == side.pots.bit_count()
        assert board.light.pots.bit_count() > board.dark.pots.bit_count()
        assert board.light.cloches.bit_count() < board.dark.cloches.bit_count()
        assert board.side(dark=False) is board.light
        assert board.side(dark=True) is board.dark
    first = catalogue.boards[catalogue.board_index("1")]
    assert first.light.rows[0] == "P...P"
    assert first.light.pots == cells_mask([0, 4, 20, 24])
    assert first.light.cloches == cells_mask([cell_index(2, 2), cell_index(4, 2)])


def test_default_is_built_once(catalogue: Catalogue) -> None:
    assert load_catalogue() is catalogue
    assert load_catalogue(None) is catalogue


def test_unknown_ids_are_record_errors(catalogue: Catalogue) -> None:
    with pytest.raises(RecordError, match=r"unknown tile id '9Z-1'; allowed: 1A-1, 1A-2"):
        catalogue.tile_index("9Z-1")
    with pytest.raises(RecordError, match=r"unknown board id '10'; allowed: 1, 2"):
        catalogue.board_index("10")
    assert catalogue.tile_index("6H-1") == 35
    assert catalogue.board_index("9") == 8


def test_catalogue_pickles(catalogue: Catalogue) -> None:
    copy = pickle.loads(pickle.dumps(catalogue))
    assert copy == catalogue
    assert copy.tile_index("2C-2") == catalogue.tile_index("2C-2")
    assert copy.kind_placement_masks == catalogue.kind_placement_masks


# --- placements -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "count"),
    [
        (["#"], 25),
        (["C"], 25),
        (["##"], 40),
        (["P#"], 80),
        (["##", "##"], 16),
        (["#####"], 10),
        (["###", "###"], 24),
        (["#..", "###"], 96),
        (["###", ".#."], 48),
        ([".#.", "###", ".#."], 9),
    ],
)
def test_placement_counts(shape: list[str], count: int) -> None:
    assert len(tile_kind_from_shape("X", shape).placements) == count


def test_placements_inside_the_bed_and_distinct(catalogue: Catalogue) -> None:
    for kind, masks in zip(catalogue.kinds, catalogue.kind_placement_masks, strict=True):
        assert masks == tuple(p.mask for p in kind.placements)
        keys = [(p.mask, p.pots, p.cloches) for p in kind.placements]
        assert len(set(keys)) == len(keys)
        for p in kind.placements:
            assert p.mask & ~FULL == 0
            assert p.mask.bit_count() == kind.size == len(p.cells)
            assert cells_mask(p.cells) == p.mask
            assert p.pots & ~p.mask == 0 and p.cloches & ~p.mask == 0
            assert p.pots & p.cloches == 0
            assert p.pots.bit_count() == sum(1 for _, f in kind.features if f == "pot")
            assert p.cloches.bit_count() == sum(1 for _, f in kind.features if f == "cloche")
            # cells follow the reference cells through the orientation and the offset
            shape = orient_cells(kind.cells, p.orientation)
            assert p.cells == tuple(cell_index(r + p.row, c + p.col) for r, c in shape)


def test_cells_follow_reference_order_by_hand() -> None:
    kind = tile_kind_from_shape("2A", ["P#"])
    by_key = {(p.orientation, p.row, p.col): p for p in kind.placements}
    turned = by_key[(1, 0, 0)]  # a quarter turn clockwise: the pot on top
    assert turned.cells == (0, 5)
    assert turned.mask == 0b100001 and turned.pots == 1
    upside = by_key[(2, 1, 1)]  # half turn: the pot on the right
    assert upside.cells == (7, 6)
    assert upside.pots == 1 << 7
    ell = tile_kind_from_shape("L", ["#..", "###"])
    assert ell.cells == ((0, 0), (1, 0), (1, 1), (1, 2))
    shifted = tile_kind_from_shape("L", ["", "..#...", "..###"])
    assert shifted == ell
    # o = 1: (0,0)->(0,0), (1,0)->(0,-1), (1,1)->(1,-1), (1,2)->(2,-1); normalised +1 col
    assert orient_cells(ell.cells, 1) == ((0, 1), (0, 0), (1, 0), (2, 0))
    # o = 4: mirror (r, c) -> (r, -c), normalised +2 cols
    assert orient_cells(ell.cells, 4) == ((0, 2), (1, 2), (1, 1), (1, 0))
    placed = next(p for p in ell.placements if (p.orientation, p.row, p.col) == (1, 2, 3))
    assert placed.cells == (cell_index(2, 4), cell_index(2, 3), cell_index(3, 3), cell_index(4, 3))


def test_asymmetric_tile_uses_every_orientation(catalogue: Catalogue) -> None:
    kind = kind_named(catalogue, "5H")
    assert {p.orientation for p in kind.placements} == set(range(8))
    images = {orient_cells(kind.cells, o) for o in range(8)}
    assert len({frozenset(image) for image in images}) == 8


def test_symmetric_tile_keeps_first_met() -> None:
    square = tile_kind_from_shape("Q", ["##", "##"])
    assert {p.orientation for p in square.placements} == {0}
    bar = tile_kind_from_shape("I", ["##"])
    assert {p.orientation for p in bar.placements} == {0, 1}


def test_orientation_out_of_range() -> None:
    with pytest.raises(ValueError, match="orientation 8"):
        orient_cells(((0, 0),), 8)


TRANSFORMS: tuple[Callable[[int, int], Cell], ...] = (
    lambda r, c: (r, c),
    lambda r, c: (c, -r),
    lambda r, c: (-r, -c),
    lambda r, c: (-c, r),
    lambda r, c: (r, -c),
    lambda r, c: (-c, -r),
    lambda r, c: (-r, c),
    lambda r, c: (c, r),
)


def fits_the_bed(cells: list[Cell]) -> bool:
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return max(rows) - min(rows) < SIZE and max(cols) - min(cols) < SIZE


@st.composite
def polyominoes(draw: st.DrawFn) -> list[str]:
    """A random 4-connected shape of 1 to 6 cells, some showing a pot or cloche."""
    size = draw(st.integers(1, 6))
    cells = [(0, 0)]
    while len(cells) < size:
        frontier = sorted(
            {
                (r + dr, c + dc)
                for r, c in cells
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if (r + dr, c + dc) not in cells and fits_the_bed([*cells, (r + dr, c + dc)])
            }
        )
        cells.append(draw(st.sampled_from(frontier)))
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    height = 1 + max(r for r, _ in cells) - top
    width = 1 + max(c for _, c in cells) - left
    grid = [["."] * width for _ in range(height)]
    for r, c in cells:
        grid[r - top][c - left] = draw(st.sampled_from("##PC"))
    return ["".join(row) for row in grid]


@settings(max_examples=150, deadline=None)
@given(polyominoes())
def test_placements_are_exactly_the_distinct_images(shape: list[str]) -> None:
    kind = tile_kind_from_shape("R", shape)
    feature_at = dict(kind.features)
    expected: set[tuple[int, int, int]] = set()
    for transform in TRANSFORMS:
        moved = [transform(r, c) for r, c in kind.cells]
        for dr in range(-SIZE - 6, SIZE + 6):
            for dc in range(-SIZE - 6, SIZE + 6):
                placed = [(r + dr, c + dc) for r, c in moved]
                if not all(0 <= r < SIZE and 0 <= c < SIZE for r, c in placed):
                    continue
                mask = pots = cloches = 0
                for reference, (r, c) in zip(kind.cells, placed, strict=True):
                    bit = 1 << cell_index(r, c)
                    mask |= bit
                    pots |= bit if feature_at.get(reference) == "pot" else 0
                    cloches |= bit if feature_at.get(reference) == "cloche" else 0
                expected.add((mask, pots, cloches))
    keys = [(p.mask, p.pots, p.cloches) for p in kind.placements]
    assert len(keys) == len(set(keys))
    assert set(keys) == expected
    order = [(p.orientation, p.row, p.col) for p in kind.placements]
    assert order == sorted(order)
    assert kind.shape_rows() == tuple(shape)


# --- records --------------------------------------------------------------------------------


def test_to_json_matches_the_record_format(catalogue: Catalogue) -> None:
    data = catalogue.to_json()
    assert list(data) == ["tiles", "boards"]
    assert list(data["tiles"]) == [tile.id for tile in catalogue.tiles]
    assert data["tiles"]["4B-1"] == {
        "kind": "4B",
        "cells": [[0, 0], [0, 1], [1, 0], [1, 1]],
        "features": {},
    }
    assert data["tiles"]["2B-1"]["features"] == {"0,1": "pot"}
    assert data["boards"]["1"]["light"] == ["P...P", ".....", "..C..", ".....", "P.C.P"]


def test_to_json_round_trips(catalogue: Catalogue) -> None:
    data = catalogue_data_from_json(catalogue.to_json(), "record")
    assert data["tiles"]["3B"] == {"copies": 3, "shape": ["#.", "##"]}
    assert data["tiles"]["5F"] == {"copies": 1, "shape": ["P", "#", "#", "#", "#"]}
    rebuilt = catalogue_from_dict(data, "record")
    assert rebuilt.kinds == catalogue.kinds
    assert rebuilt.tiles == catalogue.tiles
    assert rebuilt.boards == catalogue.boards
    assert rebuilt.to_json() == catalogue.to_json()
    assert catalogue_from_json(catalogue.to_json()).digest() == catalogue.digest()


def test_digest_is_stable(catalogue: Catalogue, tmp_path: Path) -> None:
    digest = catalogue.digest()
    assert len(digest) == 64 and int(digest, 16) >= 0
    assert digest == catalogue.digest()
    copy = tmp_path / "copy.toml"
    copy.write_bytes(
        Path(__file__).parents[1].joinpath("cgsim/games/cottage/components.toml").read_bytes()
    )
    assert load_catalogue(copy).digest() == digest
    assert load_catalogue(str(copy)).source == str(copy)
    changed = minimal_data()
    other = catalogue_from_dict(changed, "a")
    changed["boards"]["1"]["light"][0] = "P...."
    assert catalogue_from_dict(changed, "b").digest() != other.digest()


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("tiles"), "components must be an object with 'tiles' and 'boards'"),
        (lambda d: d["tiles"]["1A-1"].update(kind=3), "tile 1A-1: kind 3; allowed: a string"),
        (lambda d: d["tiles"]["1A-1"].update(cells=[[0, -1]]), r"cell \[0, -1\]"),
        (lambda d: d["tiles"]["1A-1"].update(cells=[[0, 1]]), "row-major order"),
        (lambda d: d["tiles"]["1A-1"].update(features={"1,1": "pot"}), "feature '1,1'"),
        (lambda d: d["tiles"]["1A-1"].update(features={"0,0": "cat"}), "feature '0,0': 'cat'"),
        (lambda d: d["tiles"]["1A-2"].update(features={}), "tile 1A-2: differs from 1A-1"),
        (lambda d: d["tiles"].pop("1A-1"), "tile id '1A-2'; allowed: 1A-1"),
        (lambda d: d["boards"]["1"].pop("dark"), "board 1: missing key 'dark'"),
        (
            lambda d: d["tiles"]["1A-1"].pop("features"),
            "tile 1A-1: must be an object with 'kind', 'cells' and 'features'",
        ),
        (
            lambda d: d["tiles"]["1A-1"].update(cells=[]),
            r"tile 1A-1: cells \[\]; allowed: a non-empty list",
        ),
        (
            lambda d: d["tiles"]["1A-1"].update(features=[]),
            r"tile 1A-1: features \[\]; allowed: an object",
        ),
    ],
)
def test_bad_record_components(
    catalogue: Catalogue, mutate: Callable[[dict[str, Any]], object], message: str
) -> None:
    data = catalogue.to_json()
    mutate(data)
    with pytest.raises(RecordError, match=message):
        catalogue_from_json(data)


# --- validation -----------------------------------------------------------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "components.toml"
    path.write_text(text, encoding="utf-8")
    return path


def toml_of(data: dict[str, Any]) -> str:
    """Minimal TOML writer for catalogue-like data: scalars and lists first, then tables."""

    def value(item: Any) -> str:
        if isinstance(item, str):
            return '"' + item.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(item, bool):
            return "true" if item else "false"
        if isinstance(item, list):
            return "[" + ", ".join(value(x) for x in item) + "]"
        if isinstance(item, dict):
            return "{ " + ", ".join(f"{value(k)} = {value(v)}" for k, v in item.items()) + " }"
        return str(item)

    lines = [f"{key} = {value(item)}" for key, item in data.items() if not isinstance(item, dict)]
    for section, table in data.items():
        if isinstance(table, dict):
            lines.append(f"[{section}]")
            lines.extend(f"{value(name)} = {value(entry)}" for name, entry in table.items())
    return "\n".join(lines) + "\n"


def test_minimal_catalogue_loads_from_a_file(tmp_path: Path) -> None:
    loaded = load_catalogue(write(tmp_path, toml_of(minimal_data())))
    assert len(loaded.tiles) == 16 and len(loaded.boards) == 3
    assert loaded.tiles[15] == Tile(id="1A-16", kind=0)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nothere.toml"
    with pytest.raises(ConfigError, match=r"components file '.*nothere\.toml' does not exist"):
        load_catalogue(path)


def test_unreadable_path(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot be read: it is a folder"):
        load_catalogue(tmp_path)


def test_not_toml(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"components\.toml: invalid TOML: "):
        load_catalogue(write(tmp_path, "[tiles.1A\ncopies = 1\n"))
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe tiles")
    with pytest.raises(ConfigError, match="not UTF-8 text"):
        load_catalogue(path)


Mutation = Callable[[dict[str, Any]], object]


def set_tile(name: str, **entry: Any) -> Mutation:
    return lambda d: d["tiles"].__setitem__(name, entry)


def set_side(board: str, side: str, rows: Any) -> Mutation:
    return lambda d: d["boards"][board].__setitem__(side, rows)


VALIDATION_CASES: list[tuple[Mutation, str]] = [
    (
        lambda d: d.update(extra=1),
        "components.toml: unknown key 'extra'; allowed: 'tiles', 'boards'",
    ),
    (
        lambda d: d.pop("boards"),
        "components.toml: missing key 'boards'; required: 'tiles', 'boards'",
    ),
    (lambda d: d.pop("tiles"), "components.toml: missing key 'tiles'"),
    (lambda d: d.update(tiles=3), "'tiles' must be a table of tile kinds"),
    (lambda d: d.update(boards=[1]), "'boards' must be a table of boards"),
    (
        set_tile("4C", copies=1, shape=["###", ".#.", "x"]),
        r"components.toml: tile 4C: shape row 2 has character 'x'; allowed: '#', 'P', 'C', '\.'",
    ),
    (
        set_tile("4C", copies=1, shape=["#"], colour="red"),
        "tile 4C: unknown key 'colour'; allowed: 'copies', 'shape'",
    ),
    (set_tile("4C", shape=["#"]), "tile 4C: missing key 'copies'; required: 'copies', 'shape'"),
    (set_tile("4C", copies=1), "tile 4C: missing key 'shape'"),
    (
        set_tile("4C", copies=0, shape=["#"]),
        "tile 4C: copies = 0; allowed: an integer from 1 to 500",
    ),
    (set_tile("4C", copies=True, shape=["#"]), "tile 4C: copies = True; allowed: an integer"),
    (set_tile("4C", copies=1.5, shape=["#"]), "tile 4C: copies = 1.5"),
    (
        set_tile("4C", copies=1, shape=[]),
        "tile 4C: shape = \\[\\]; allowed: a non-empty list of strings",
    ),
    (set_tile("4C", copies=1, shape="##"), "tile 4C: shape = '##'; allowed: a non-empty list"),
    (set_tile("4C", copies=1, shape=["#", 2]), "tile 4C: shape = .*allowed: a non-empty list"),
    (
        set_tile("4C", copies=1, shape=["...", "."]),
        "tile 4C: shape has no cells; allowed: at least one '#', 'P' or 'C'",
    ),
    (
        set_tile("4C", copies=1, shape=["#.#"]),
        "tile 4C: shape is not in one piece: the cell at row 0, col 2 is not joined to the cell "
        "at row 0, col 0; allowed: cells joined edge to edge",
    ),
    (set_tile("4C", copies=1, shape=["#.", ".#"]), "tile 4C: shape is not in one piece"),
    (
        set_tile("4C", copies=1, shape=["######"]),
        "tile 4C: shape spans 1 rows x 6 columns; allowed: at most 5 x 5",
    ),
    (set_tile("4C", copies=1, shape=["#"] * 6), "tile 4C: shape spans 6 rows x 1 columns"),
    (
        set_tile("4-C", copies=1, shape=["#"]),
        "components.toml: tile name '4-C'; allowed: letters and digits only",
    ),
    (set_tile("", copies=1, shape=["#"]), "tile name ''; allowed: letters and digits only"),
    (
        lambda d: d["tiles"].update({"4C": 3}),
        "tile 4C: must be a table with keys 'copies' and 'shape'",
    ),
    (
        lambda d: d["tiles"]["1A"].update(copies=15),
        "components.toml: 15 tiles in all; allowed: 16 to 500 \\(the nursery holds 16\\)",
    ),
    (lambda d: d["boards"].pop("3"), "components.toml: 2 boards; allowed: 3 to 100"),
    (
        lambda d: d["boards"]["2"].update(back=["....."]),
        "board 2: unknown key 'back'; allowed: 'light', 'dark'",
    ),
    (lambda d: d["boards"]["2"].pop("light"), "board 2: missing key 'light'"),
    (lambda d: d["boards"].update({"2": "x"}), "board 2: must be a table with keys 'light'"),
    (
        set_side("2", "dark", ["....."] * 4),
        "board 2: dark = .*allowed: a list of exactly 5 strings",
    ),
    (set_side("2", "dark", "....."), "board 2: dark = '.....'; allowed: a list of exactly 5"),
    (
        set_side("2", "light", [".....", "....", ".....", ".....", "....."]),
        r"board 2: light row 1 is '\.\.\.\.' \(4 characters\); allowed: exactly 5 characters",
    ),
    (
        set_side("2", "light", [".....", ".....", "..X..", ".....", "....."]),
        r"board 2: light row 2 has character 'X'; allowed: '\.', 'P', 'C'",
    ),
    (
        set_side("2", "light", [".....", ".....", "..p..", ".....", "....."]),
        "board 2: light row 2 has character 'p'",
    ),
]


@pytest.mark.parametrize(("mutate", "message"), VALIDATION_CASES)
def test_validation_errors(tmp_path: Path, mutate: Mutation, message: str) -> None:
    data = minimal_data()
    mutate(data)
    with pytest.raises(ConfigError, match=message) as caught:
        load_catalogue(write(tmp_path, toml_of(data)))
    text = str(caught.value)
    assert "\n" not in text
    assert text.startswith(str(tmp_path / "components.toml") + ": ")


def test_errors_from_data_name_the_source() -> None:
    with pytest.raises(ConfigError, match=r"^study\.toml: must be a table"):
        catalogue_from_dict([], "study.toml")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^study\.toml: board id ''; allowed: a non-empty name"):
        data = minimal_data()
        data["boards"][""] = data["boards"].pop("3")
        catalogue_from_dict(data, "study.toml")
    with pytest.raises(ConfigError, match=r"^study\.toml: tile name 7"):
        data = minimal_data()
        data["tiles"][7] = {"copies": 1, "shape": ["#"]}
        catalogue_from_dict(data, "study.toml")


def test_duplicate_ids_are_rejected(catalogue: Catalogue) -> None:
    tiles = (*catalogue.tiles, catalogue.tiles[0])
    with pytest.raises(ConfigError, match="tile id '1A-1' appears twice"):
        Catalogue(kinds=catalogue.kinds, tiles=tiles, boards=catalogue.boards, source="x")
    boards = (*catalogue.boards, catalogue.boards[0])
    with pytest.raises(ConfigError, match="board id '1' appears twice"):
        Catalogue(kinds=catalogue.kinds, tiles=catalogue.tiles, boards=boards, source="x")
