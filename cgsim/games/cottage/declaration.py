"""What Cottage Garden declares about itself: setups, variant options, ladder, benchmarks
and the columns it adds to the result tables (see ``cgsim.games.contract.GameInfo``)."""

from __future__ import annotations

from functools import partial

from pydantic import BaseModel, ConfigDict, Field

from cgsim.games.contract import (
    Benchmark,
    Breakdown,
    Column,
    ColumnType,
    Comparison,
    ComponentTable,
    Frequency,
    GameInfo,
    Restriction,
    Schema,
    ScoreUnit,
    Setup,
)
from cgsim.games.cottage import actions
from cgsim.games.cottage.describe import ENDS, NOTATION
from cgsim.games.cottage.state import Rules
from cgsim.games.drama import DRAMA_COLUMNS

ENGINE_VERSION = "cottage-1.0"
"""Bumped whenever a change alters any outcome; stamped into records and results."""
RECORD_FORMAT = "cgsim.record/1"


class CottageVariant(BaseModel):
    """Cottage Garden's seat options (the settings check them against the player count)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    solo: bool | None = Field(
        None, description="the solo game: exactly the 1-player game (default: players == 1)"
    )
    children: tuple[int | str | None, ...] | None = Field(
        None,
        description="children's variant: each seat's age 5, 6 or 7, or none for an adult, "
        "e.g. children=5,none",
    )


INT, BOOL, STR = ColumnType.INT, ColumnType.BOOL, ColumnType.STR
COUNT, ECONOMY = Breakdown.COUNT, Breakdown.ECONOMY

GAME_COLUMNS = (
    Column("final_round_turns", INT, "turns played in the final round", Breakdown.MEASURE),
    Column("refills", INT, "times the path was refilled from the nursery"),
    Column("beds_scored", INT, "beds completed and scored, all seats"),
    Column("solo", BOOL, "the solo game"),
    *DRAMA_COLUMNS,
)
SEAT_COUNTERS = (
    Column("beds_completed", INT, "beds completed and scored", COUNT),
    Column("pots_scored", INT, "flowerpots counted when scoring beds (points)", COUNT),
    Column("cloches_scored", INT, "cloches counted when scoring beds (points)", COUNT),
    Column("cats_gained", INT, "cats received", ECONOMY),
    Column("cats_used", INT, "cats placed on beds", ECONOMY),
    Column("pots_taken", INT, "flowerpots taken as the main action", ECONOMY),
    Column("bonus_pots", INT, "bonus flowerpots placed", ECONOMY),
    Column("tiles_taken", INT, "flower tiles taken"),
    Column("tile_cells", INT, "cells covered by flower tiles"),
    Column("rambles", INT, "paid rambles (the gardener moved on)", ECONOMY),
    Column("passes", INT, "turns passed without planting", COUNT),
    Column("penalty_points", INT, "points lost to end-of-game penalties", COUNT),
    Column("turns_taken", INT, "turns played"),
    Column("beds_discarded", INT, "beds discarded unfinished at the end"),
    Column(
        "features_covered",
        INT,
        "printed pots and cloches covered by tiles (points given up)",
        COUNT,
    ),
)
BEEHIVES = Column("beehives", INT, "beehive points", ECONOMY)

BEDS = ComponentTable(
    "beds",
    "one row per bed scored: its board and side, what it scored, how long it took",
    (
        Column("seat", INT, "the seat that scored it"),
        Column("board", STR, "flowerbed board"),
        Column("side", STR, "board side"),
        Column("pots", INT, "flowerpots on the bed when scored (points)"),
        Column("cloches", INT, "cloches on the bed when scored (points)"),
        Column("turns_to_complete", INT, "the owner's turns from the bed's arrival to scoring"),
        Column("tiles", INT, "flower tiles placed on it"),
        Column("final_round", BOOL, "scored in the final round"),
    ),
    keys=("board", "side"),
    measures=("pots", "cloches", "turns_to_complete"),
    comparison=Comparison(
        group="board",
        between="side",
        measures=(("points", ("pots", "cloches")), ("turns_to_complete", ("turns_to_complete",))),
    ),
)
TILES = ComponentTable(
    "tiles",
    "one row per flower tile taken: its kind and size, the printed features it covered",
    (
        Column("seat", INT, "the seat that took it"),
        Column("kind", STR, "tile kind (shape name)"),
        Column("size", INT, "cells"),
        Column("covered", INT, "printed pots and cloches it covered"),
        Column("turn", INT, "the turn it was taken"),
        Column("final_round", BOOL, "taken in the final round"),
    ),
    frequency=Frequency(key="kind", attributes=("size",), feature="covered"),
)


def schema(rules: Rules) -> Schema:
    """The columns of a game under ``rules``: one per cube of each colour (its value)."""
    cubes = tuple(
        Column(f"{color}_{cube}", INT, f"points of {color} cube {cube + 1}")
        for color in ("orange", "blue")
        for cube in range(rules.settings.cubes)
    )
    return Schema(GAME_COLUMNS, (*SEAT_COUNTERS, *cubes, BEEHIVES), (BEDS, TILES))


def _kind_in(kinds: frozenset[int], action: int) -> bool:
    return actions.kind_of(action) in kinds


def _never(name: str, text: str, *kinds: int) -> Restriction:
    return Restriction(name, text, partial(_kind_in, frozenset(kinds)))


RESTRICTIONS = (
    _never("ramble", "never rambles (returns a cat to refill the path early)", actions.RAMBLE),
    _never("cats", "never places a cat on a bed", actions.CAT),
    _never("pots", "never takes a flowerpot as the main action", actions.POT),
    _never("bonus-pots", "never places a bonus flowerpot", actions.BONUS_POT),
)
"""What restricted play measures in Cottage Garden (by the action's kind; ignoring the
beehives would need the scoring choices, not a kind, and is not declared)."""


INFO = GameInfo(
    id="cottage-garden",
    title="Cottage Garden",
    version=ENGINE_VERSION,
    min_players=1,
    max_players=4,
    record_format=RECORD_FORMAT,
    setups=(
        Setup("solo", 1, {"solo": True}, playthrough=True),
        Setup("2 players", 2, playthrough=True),
        Setup("3 players", 3),
        Setup("4 players", 4),
        Setup("2 players, a child of 5", 2, {"children": (5, None)}, playthrough=True),
        Setup("3 players, children of 7 and 6", 3, {"children": (None, 7, 6)}),
    ),
    ladder=("random", "greedy", "study"),
    variant=CottageVariant,
    benchmarks=(Benchmark("very good", 70.0, 1), Benchmark("exceptional", 80.0, 1)),
    score_unit=ScoreUnit("points", "cube values plus beehives"),
    notation=NOTATION,
    ends=ENDS,
    restrictions=RESTRICTIONS,
)
