"""The frozen state of a Cottage Garden game: a few small ints, tuples and bitmasks.

States, players and beds are named tuples: immutable, slotted, cheap to build. A state
also carries the events produced by the ``apply`` that made it (JSON-ready dicts, never
mutated), so records and statistics come from one stream.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Final, NamedTuple

from cgsim.games.cottage.components import CELLS, FULL, Catalogue, Mask
from cgsim.games.cottage.fitting import KindTable, any_fit, fit_tables, fitting
from cgsim.games.cottage.nursery import corner_entries, gardener_rows
from cgsim.games.cottage.settings import Settings

Event = dict[str, Any]

# Each event's kind as a small number, kept beside the events (``State.kinds``): a fold
# over a game's events (its summary, as the game is played) dispatches on these instead of
# reading every event's "e" key, and skips the events it does not count without touching
# them. Kinds the fold does not count are ``KIND_OTHER``.
KIND_OTHER: Final = 0
KIND_TAKE_TILE: Final = 1
KIND_TAKE_POT: Final = 2
KIND_BONUS_POT: Final = 3
KIND_CAT: Final = 4
KIND_GAIN_CAT: Final = 5
KIND_REFILL: Final = 6
KIND_PASS: Final = 7
KIND_MOVE: Final = 8
KIND_PENALTY: Final = 9
KIND_SCORE: Final = 10
KIND_CLEANUP: Final = 11
KIND_DISCARD_BED: Final = 12
KIND_BEEHIVE: Final = 13
KIND_TURN: Final = 16
"""A turn marker: its kind is ``KIND_TURN + 2 * seat + final_round`` (see :func:`turn_kind`),
so the fold learns whose turn starts, and whether it is of the final round, from it alone."""
EVENT_KINDS: Final[dict[str, int]] = {
    "take_tile": KIND_TAKE_TILE,
    "take_pot": KIND_TAKE_POT,
    "bonus_pot": KIND_BONUS_POT,
    "cat": KIND_CAT,
    "gain_cat": KIND_GAIN_CAT,
    "refill": KIND_REFILL,
    "pass": KIND_PASS,
    "move": KIND_MOVE,
    "penalty": KIND_PENALTY,
    "score": KIND_SCORE,
    "cleanup": KIND_CLEANUP,
    "discard_bed": KIND_DISCARD_BED,
    "beehive": KIND_BEEHIVE,
}
"""The kind of every event the fold counts, by its "e" name (the others: ``KIND_OTHER``)."""


KIND_BITS: Final = 5
"""An event's code (``State.kinds``) is its kind in its low ``KIND_BITS`` bits (every kind
above fits) and, for the events whose numbers the fold reads, those numbers above them
(:func:`tile_code`, :func:`cube_code`, :func:`cleanup_code`, :func:`refill_code`): the
fold reads them as native ints, where reading them from the event's dict costs a lookup
each, and a tile's cells a list of lists."""
KIND_MASK: Final = (1 << KIND_BITS) - 1


def tile_code(bed: int, cells: int) -> int:
    """A ``take_tile`` event's code: the bed and the cells the tile covers (a mask)."""
    return KIND_TAKE_TILE | (bed | cells << 1) << KIND_BITS


def tile_fields(data: int) -> tuple[int, int]:
    """The bed and cells of a ``take_tile`` code's numbers (``code >> KIND_BITS``)."""
    return data & 1, data >> 1


def cube_code(kind: int, color: int, cube: int, start: int, end: int) -> int:
    """A ``move`` or ``penalty`` event's code (``kind``): which cube of which colour went
    from which space of its track to which (a cube number has 3 bits, a space 7: the
    settings allow at most 8 cubes and 100 spaces)."""
    return kind | (color | cube << 1 | start << 4 | end << 11) << KIND_BITS


def cube_fields(data: int) -> tuple[int, int, int, int]:
    """The colour, cube, start and end spaces of a cube code's numbers (:func:`cube_code`)."""
    return data & 1, data >> 1 & 7, data >> 4 & 127, data >> 11


def cleanup_code(bed: int, printed: int | None) -> int:
    """A ``cleanup`` event's code: the bed and the printed cells of the board side that
    takes its place (None: no board does)."""
    new = 0 if printed is None else 1 | printed << 1
    return KIND_CLEANUP | (bed | new << 1) << KIND_BITS


def cleanup_fields(data: int) -> tuple[int, int]:
    """The bed and new printed cells (0: no board) of a ``cleanup`` code's numbers."""
    return data & 1, data >> 2


def refill_code(ramble: bool) -> int:
    """A ``refill`` event's code: whether the refill was a ramble."""
    return KIND_REFILL | (1 if ramble else 0) << KIND_BITS


def refill_ramble(data: int) -> bool:
    """Whether a ``refill`` code's numbers say the refill was a ramble."""
    return data & 1 == 1


def turn_kind(seat: int, final_round: bool) -> int:
    """The kind of the marker of a turn of ``seat`` (``final_round``: of the final round)."""
    return KIND_TURN + 2 * seat + (1 if final_round else 0)


def turn_seat(kind: int) -> int:
    """The seat whose turn a turn marker's kind (``kind >= KIND_TURN``) starts."""
    return (kind - KIND_TURN) >> 1


def turn_final(kind: int) -> bool:
    """Whether a turn marker's kind (``kind >= KIND_TURN``) starts a final-round turn."""
    return (kind - KIND_TURN) & 1 == 1


ORANGE: Final = 0
BLUE: Final = 1
COLOR_NAMES: Final = ("orange", "blue")

SIDE_NAMES: Final = ("light", "dark")
"""A board side as records name it, indexed by ``dark``."""

_new: Final = tuple.__new__

FIT_CACHE_LIMIT: Final = 200_000
"""Entries of a rules object's placement memo before it is cleared."""


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


PHASE_NAMES: Final = tuple(phase.name.lower() for phase in Phase)
"""Readable phase names, indexed by phase."""

# Every member bound once to a final name: the engine compares phases at every step,
# and on Python 3.11 reading a member off its enum class goes through the metaclass
# (compiled code reads a final name directly).
PHASE_CORNERS: Final = Phase.CORNERS
PHASE_PENALTY: Final = Phase.PENALTY
PHASE_RAMBLE: Final = Phase.RAMBLE
PHASE_PLANT: Final = Phase.PLANT
PHASE_AFTER: Final = Phase.AFTER
PHASE_CUBE: Final = Phase.CUBE
PHASE_BONUS: Final = Phase.BONUS
PHASE_LIMIT: Final = Phase.LIMIT
PHASE_OVER: Final = Phase.OVER


@dataclass(frozen=True, slots=True, eq=False)
class Rules:
    """Everything a game is played with: player count, settings and the catalogue.

    Defined before the states that name it: compiled modules resolve annotations in order.
    """

    players: int
    settings: Settings
    catalogue: Catalogue
    rows: tuple[tuple[int, ...], ...] = field(init=False)
    corner_at: tuple[int, ...] = field(init=False)
    orange_target: int = field(init=False)
    blue_target: int = field(init=False)
    tile_kind: tuple[int, ...] = field(init=False)
    """Per tile id, its kind (the catalogue's, bound here for the hot paths)."""
    kind_masks: tuple[tuple[Mask, ...], ...] = field(init=False)
    """Per kind, the masks of its placements in placement order."""
    fit_tables: tuple[KindTable, ...] = field(init=False, repr=False)
    """Per kind, the tables that tell which placements fit (``fitting``)."""
    # Settings and catalogue values read every turn, bound once: compiled, the engine
    # reads a field of its own class directly, another object's through Python's lookup.
    tile_ids: tuple[str, ...] = field(init=False, repr=False)
    board_ids: tuple[str, ...] = field(init=False, repr=False)
    board_features: tuple[tuple[Mask, Mask, Mask, Mask], ...] = field(init=False, repr=False)
    """Per board: light pots, light cloches, dark pots, dark cloches."""
    children: tuple[int | None, ...] = field(init=False, repr=False)
    refill_mandatory: int = field(init=False, repr=False)
    ramble: bool = field(init=False, repr=False)
    ramble_cost: int = field(init=False, repr=False)
    cat_limit: int = field(init=False, repr=False)
    bonus_cat_limit: bool = field(init=False, repr=False)
    gardener_step: int = field(init=False, repr=False)
    track_spaces: int = field(init=False, repr=False)
    turning_space: int = field(init=False, repr=False)
    final_value: int = field(init=False, repr=False)
    discard_below: int = field(init=False, repr=False)
    turn_cap: int = field(init=False, repr=False)
    orange_track: tuple[int, ...] = field(init=False, repr=False)
    blue_track: tuple[int, ...] = field(init=False, repr=False)
    fit_cache: dict[int, tuple[int, ...]] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )
    derived_cache: dict[str, Any] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )
    """What other modules work out from the rules once and keep with them (the tally's
    summary start), by name: found by one lookup, where a table keyed by the settings
    hashes their tracks at every game. Never pickled, and sealed like ``fit_cache`` (a
    memo: entries are added, never changed)."""

    def __post_init__(self) -> None:
        s = self.settings
        object.__setattr__(self, "rows", gardener_rows(s.track_spaces))
        object.__setattr__(self, "corner_at", corner_entries(s.track_spaces))
        object.__setattr__(self, "orange_target", len(s.orange_track) - 1)
        object.__setattr__(self, "blue_target", len(s.blue_track) - 1)
        object.__setattr__(self, "tile_kind", self.catalogue.tile_kind)
        object.__setattr__(self, "kind_masks", self.catalogue.kind_placement_masks)
        object.__setattr__(self, "fit_tables", fit_tables(self.kind_masks))
        catalogue = self.catalogue
        object.__setattr__(self, "tile_ids", tuple(tile.id for tile in catalogue.tiles))
        object.__setattr__(self, "board_ids", tuple(board.id for board in catalogue.boards))
        features = tuple(
            (b.light.pots, b.light.cloches, b.dark.pots, b.dark.cloches) for b in catalogue.boards
        )
        object.__setattr__(self, "board_features", features)
        for name in (
            "children",
            "refill_mandatory",
            "ramble",
            "ramble_cost",
            "cat_limit",
            "bonus_cat_limit",
            "gardener_step",
            "track_spaces",
            "turning_space",
            "final_value",
            "discard_below",
            "turn_cap",
            "orange_track",
            "blue_track",
        ):
            object.__setattr__(self, name, getattr(s, name))

    def __getstate__(self) -> tuple[int, Settings, Catalogue]:
        return (self.players, self.settings, self.catalogue)

    def __setstate__(self, data: tuple[int, Settings, Catalogue]) -> None:
        object.__setattr__(self, "players", data[0])
        object.__setattr__(self, "settings", data[1])
        object.__setattr__(self, "catalogue", data[2])
        object.__setattr__(self, "fit_cache", {})
        object.__setattr__(self, "derived_cache", {})
        self.__post_init__()

    def fits(self, kind: int, blocked: Mask) -> tuple[int, ...]:
        """Indexes of the placements of a tile kind that avoid ``blocked`` (memoised).

        The key is one int (``blocked`` has 25 bits): no tuple is built per lookup.
        """
        key = kind << CELLS | blocked
        cache = self.fit_cache
        found = cache.get(key)
        if found is None:
            found = fitting(self.fit_tables[kind], blocked)
            if len(cache) > FIT_CACHE_LIMIT:
                cache.clear()
            cache[key] = found
        return found

    def any_fits(self, kind: int, blocked: Mask) -> bool:
        """Whether some placement of a tile kind avoids ``blocked``."""
        return any_fit(self.fit_tables[kind], blocked)

    def track(self, color: int) -> tuple[int, ...]:
        return self.orange_track if color == ORANGE else self.blue_track

    def target(self, color: int) -> int:
        return self.orange_target if color == ORANGE else self.blue_target


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
        return bed_empty(self)

    @property
    def blocked(self) -> Mask:
        """Cells a tile may not cover (tiles and tokens; printed features may be covered)."""
        return self.tiles | self.pots | self.cats

    def count_pots(self) -> int:
        return bed_pots(self)

    def count_cloches(self) -> int:
        return bed_cloches(self)


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
    kinds: tuple[int, ...] = ()
    """Each event's code (its kind, ``KIND_*`` or :func:`turn_kind`, and the numbers the
    fold reads: ``KIND_BITS``), in the order of ``events``."""


# The engine reads beds through these functions rather than the properties above (kept
# for bots and tests): a compiled caller calls a function directly, a property through
# the class.


def bed_empty(bed: Bed) -> Mask:
    """Cells of a bed showing bare soil (``Bed.empty``)."""
    return FULL & ~(bed.tiles | bed.pots | bed.cats | bed.printed_pots | bed.printed_cloches)


def bed_blocked(bed: Bed) -> Mask:
    """Cells of a bed a tile may not cover (``Bed.blocked``)."""
    return bed.tiles | bed.pots | bed.cats


def bed_pots(bed: Bed) -> int:
    """Pots a bed shows: printed ones not covered, tokens, and those printed on tiles."""
    return (
        (bed.printed_pots & ~bed.tiles).bit_count()
        + bed.pots.bit_count()
        + bed.tile_pots.bit_count()
    )


def bed_cloches(bed: Bed) -> int:
    """Cloches a bed shows: printed ones not covered and those printed on tiles."""
    return (bed.printed_cloches & ~bed.tiles).bit_count() + bed.tile_cloches.bit_count()


def cubes(player: Player, color: int) -> tuple[int, ...]:
    return player.orange if color == ORANGE else player.blue


def new_bed(rules: Rules, board: int, dark: bool, born: int) -> Bed:
    """An empty bed on a board side, arriving at its owner's turn count ``born``."""
    features = rules.board_features[board]
    pots, cloches = (features[2], features[3]) if dark else (features[0], features[1])
    return _new(Bed, (board, dark, pots, cloches, 0, 0, 0, 0, 0, (), (), born))


def board_json(rules: Rules, board: int, dark: bool) -> dict[str, str]:
    """A board side as records name it."""
    return {"board": rules.board_ids[board], "side": SIDE_NAMES[dark]}
