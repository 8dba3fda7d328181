"""The frozen state of a Cottage Garden game: a few small ints, tuples and bitmasks.

States, players and beds are named tuples: immutable, slotted, cheap to build. A state
also carries the events produced by the ``apply`` that made it (JSON-ready dicts, never
mutated), so records and statistics come from one stream.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, NamedTuple

from cgsim.games.cottage.components import FULL, Catalogue, Mask
from cgsim.games.cottage.nursery import corner_entries, gardener_rows
from cgsim.games.cottage.settings import Settings

Event = dict[str, Any]

ORANGE = 0
BLUE = 1
COLOR_NAMES = ("orange", "blue")

SIDE_NAMES = ("light", "dark")
"""A board side as records name it, indexed by ``dark``."""


class Phase(IntEnum):
    """Decision points (``State.phase``): what the player to move decides next.

    An ``IntEnum`` is an int: states compare and hash as before, and JSON writes the number.
    """

    CORNERS = 0
    """Setup: a child marks nursery corners."""
    PENALTY = 1
    """Final round: which cube loses the penalty."""
    RAMBLE = 2
    """Refill with 1 or 2 empty cells: ramble or not."""
    PLANT = 3
    """Mouse hunt and the main planting action (or a forced pass)."""
    AFTER = 4
    """After the main action: mouse hunt, scoring order, done."""
    CUBE = 5
    """Scoring: which cube of a colour moves."""
    BONUS = 6
    """Scoring: where the start-space bonus pot goes."""
    LIMIT = 7
    """Cat limit: where the next cat goes."""
    OVER = 8
    """The game has ended."""


PHASE_NAMES = tuple(phase.name.lower() for phase in Phase)
"""Readable phase names, indexed by phase."""


class Bed(NamedTuple):
    """One flowerbed in front of a player; masks over its 25 cells."""

    board: int
    dark: bool
    printed_pots: Mask
    printed_cloches: Mask
    tiles: Mask
    tile_pots: Mask
    tile_cloches: Mask
    pots: Mask
    cats: Mask
    placed: tuple[int, ...]
    """Tile ids in the order they were placed (clean-up returns them in this order)."""
    shapes: tuple[Mask, ...]
    """The cells each placed tile covers, parallel to ``placed``."""
    born: int
    """The owner's turn count when the bed arrived (for turns-to-complete statistics)."""

    @property
    def empty(self) -> Mask:
        """Cells showing bare soil: the only cells a token may go on."""
        return FULL & ~(
            self.tiles | self.pots | self.cats | self.printed_pots | self.printed_cloches
        )

    @property
    def blocked(self) -> Mask:
        """Cells a tile may not cover (tiles and tokens; printed features may be covered)."""
        return self.tiles | self.pots | self.cats

    def count_pots(self) -> int:
        return (
            (self.printed_pots & ~self.tiles).bit_count()
            + self.pots.bit_count()
            + self.tile_pots.bit_count()
        )

    def count_cloches(self) -> int:
        return (self.printed_cloches & ~self.tiles).bit_count() + self.tile_cloches.bit_count()


class Player(NamedTuple):
    beds: tuple[Bed | None, Bed | None]
    orange: tuple[int, ...]
    """Track index of each orange cube (0 start, len(track)-1 target)."""
    blue: tuple[int, ...]
    cats: int
    """Cats in reserve."""
    beehive: int
    """Points of the beehive tile held (0 for none)."""
    has_beehive: bool
    turns: int
    """Turns this player has started."""
    corners: tuple[int, ...]
    """Nursery corner cells holding this child's cats (empty for adults)."""


class Scoring(NamedTuple):
    """Progress of one bed's scoring, which may pause for a cube or bonus-pot choice."""

    bed: int
    pots: int
    cloches: int
    step: int
    """0 orange move pending, 1 blue move pending, 2 clean-up pending."""
    resume: Phase
    """Phase to return to afterwards (``Phase.AFTER`` or ``Phase.LIMIT``)."""


class State(NamedTuple):
    rules: Rules
    seed: int
    nursery: tuple[int, ...]
    """Tile id on each of the 16 nursery cells, -1 when empty."""
    path: tuple[int, ...]
    """The garden path, front first."""
    players: tuple[Player, ...]
    supply_board: tuple[int, bool] | None
    supply_cats: int
    supply_pots: int
    beehives_taken: int
    space: int
    value: int
    final_round: bool
    turn: int
    """Number of the current turn, from 1 (0 during setup)."""
    seat: int
    """Whose turn it is (during setup: the child choosing corners)."""
    phase: Phase
    scoring: Scoring | None
    had_bed: bool
    """Whether the current player had a bed at the start of the turn (cat-limit rule)."""
    placed: bool
    """Whether anything was placed this turn (stall rule)."""
    stall: int
    """Consecutive final-round turns without any placement."""
    end: str | None
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Rules:
    """Everything a game is played with: player count, settings and the catalogue."""

    players: int
    settings: Settings
    catalogue: Catalogue
    rows: tuple[tuple[int, ...], ...] = field(init=False)
    corner_at: tuple[int, ...] = field(init=False)
    orange_target: int = field(init=False)
    blue_target: int = field(init=False)
    fit_cache: dict[tuple[int, Mask], tuple[int, ...]] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        s = self.settings
        object.__setattr__(self, "rows", gardener_rows(s.track_spaces))
        object.__setattr__(self, "corner_at", corner_entries(s.track_spaces))
        object.__setattr__(self, "orange_target", len(s.orange_track) - 1)
        object.__setattr__(self, "blue_target", len(s.blue_track) - 1)

    def __getstate__(self) -> tuple[int, Settings, Catalogue]:
        return (self.players, self.settings, self.catalogue)

    def __setstate__(self, data: tuple[int, Settings, Catalogue]) -> None:
        object.__setattr__(self, "players", data[0])
        object.__setattr__(self, "settings", data[1])
        object.__setattr__(self, "catalogue", data[2])
        object.__setattr__(self, "fit_cache", {})
        self.__post_init__()

    def fits(self, kind: int, blocked: Mask) -> tuple[int, ...]:
        """Indexes of the placements of a tile kind that avoid ``blocked`` (memoised)."""
        key = (kind, blocked)
        found = self.fit_cache.get(key)
        if found is None:
            masks = self.catalogue.kind_placement_masks[kind]
            found = tuple([i for i, m in enumerate(masks) if not m & blocked])
            if len(self.fit_cache) > 200_000:
                self.fit_cache.clear()
            self.fit_cache[key] = found
        return found

    def track(self, color: int) -> tuple[int, ...]:
        return self.settings.orange_track if color == ORANGE else self.settings.blue_track

    def target(self, color: int) -> int:
        return self.orange_target if color == ORANGE else self.blue_target


def cubes(player: Player, color: int) -> tuple[int, ...]:
    return player.orange if color == ORANGE else player.blue


def new_bed(catalogue: Catalogue, board: int, dark: bool, born: int) -> Bed:
    """An empty bed on a board side, arriving at its owner's turn count ``born``."""
    side = catalogue.boards[board].side(dark)
    return Bed(board, dark, side.pots, side.cloches, 0, 0, 0, 0, 0, (), (), born)


def board_json(catalogue: Catalogue, board: int, dark: bool) -> dict[str, str]:
    """A board side as records name it."""
    return {"board": catalogue.boards[board].id, "side": SIDE_NAMES[dark]}
