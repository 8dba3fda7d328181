"""The checker's own model of a game in progress, rebuilt from the record alone.

Mutable on purpose: it lives for one replay and is never shared.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from cgsim.games.cottage.checker.geometry import BED_SIZE, Cell, mask_of

COLOURS = ("orange", "blue")
ALL_BED_CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(BED_SIZE) for c in range(BED_SIZE))


@dataclass(frozen=True, slots=True)
class Rules:
    """The record's ``rules`` object, typed."""

    solo: bool
    children: tuple[int | None, ...]
    ramble: bool
    start_cats: int
    cats_total: int
    pots_total: int
    cat_limit: int
    cubes: int
    refill_mandatory: int
    ramble_cost: int
    orange_track: tuple[int, ...]
    blue_track: tuple[int, ...]
    red_line: int
    gardener_value: int
    final_value: int
    gardener_step: int
    track_spaces: int
    turning_space: int
    discard_below: int
    penalty_points: int
    penalty_orange_spaces: int
    penalty_blue_spaces: int
    beehives: tuple[int, ...]
    bonus_red_line_cat: bool
    bonus_start_pot: bool
    bonus_cat_limit: bool
    turn_cap: int

    def track(self, colour: str) -> tuple[int, ...]:
        """Values of a colour's track indexes."""
        return self.orange_track if colour == "orange" else self.blue_track

    def penalty_spaces(self, colour: str) -> int:
        """How far the penalty moves a cube of this colour back."""
        return self.penalty_orange_spaces if colour == "orange" else self.penalty_blue_spaces


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile in its reference orientation."""

    cells: tuple[Cell, ...]
    features: dict[Cell, str]


@dataclass(slots=True)
class Bed:
    """A flowerbed in front of a player: the printed board plus what lies on it."""

    board: str
    side: str
    printed: dict[Cell, str]
    tiles: dict[Cell, str] = field(default_factory=dict)
    tile_order: list[str] = field(default_factory=list)
    tile_features: dict[Cell, str] = field(default_factory=dict)
    tokens: dict[Cell, str] = field(default_factory=dict)

    def is_empty(self, cell: Cell) -> bool:
        """Bare soil: no printed feature and nothing placed."""
        return cell not in self.printed and cell not in self.tiles and cell not in self.tokens

    def is_free(self, cell: Cell) -> bool:
        """No tile and no token (printed features may be covered by a tile)."""
        return cell not in self.tiles and cell not in self.tokens

    def empty_cells(self) -> list[Cell]:
        """Every empty cell, row by row."""
        return [cell for cell in ALL_BED_CELLS if self.is_empty(cell)]

    def is_complete(self) -> bool:
        """No empty cell left."""
        return not self.empty_cells()

    def blocked_mask(self) -> int:
        """Cells a tile may not cover."""
        return mask_of(list(self.tiles) + list(self.tokens))

    def count(self, kind: str) -> int:
        """Scored pots or cloches: printed uncovered + tokens + printed on tiles."""
        printed = sum(1 for c, k in self.printed.items() if k == kind and c not in self.tiles)
        tokens = sum(1 for k in self.tokens.values() if k == kind)
        on_tiles = sum(1 for k in self.tile_features.values() if k == kind)
        return printed + tokens + on_tiles


@dataclass(slots=True)
class Player:
    """One seat's beds, reserve, cubes and beehive."""

    beds: list[Bed | None]
    reserve: int
    cubes: dict[str, list[int]]
    child: int | None
    beehive: int | None = None

    def has_beds(self) -> bool:
        """True while at least one bed is in front of the player."""
        return any(bed is not None for bed in self.beds)


@dataclass(slots=True)
class State:
    """Everything the record's events change."""

    rules: Rules
    tiles: dict[str, Tile]
    boards: dict[str, dict[str, tuple[str, ...]]]
    nursery: dict[Cell, str | None]
    path: deque[str]
    players: list[Player]
    supply_board: tuple[str, str]
    supply_cats: int
    supply_pots: int
    corner_cats: list[tuple[int, Cell]]
    gardener_space: int
    gardener_value: int
    beehives_taken: int = 0
    final_round: bool = False
    stall: int = 0

    def new_bed(self, board: str, side: str) -> Bed:
        """A fresh bed showing ``side`` of ``board``."""
        rows = self.boards[board][side]
        printed = {
            (r, c): "pot" if ch == "P" else "cloche"
            for r, row in enumerate(rows)
            for c, ch in enumerate(row)
            if ch in "PC"
        }
        return Bed(board=board, side=side, printed=printed)

    def release_bed(self, seat: int, index: int, bed: Bed) -> None:
        """Take ``bed`` off the table: tokens to the supply, tiles (returned) to the path."""
        self.supply_pots += sum(1 for k in bed.tokens.values() if k == "pot")
        self.supply_cats += sum(1 for k in bed.tokens.values() if k == "cat")
        self.path.extend(bed.tile_order)
        self.players[seat].beds[index] = None
