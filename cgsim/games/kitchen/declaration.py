"""What Kitchen Garden declares about itself: setups, ladder and the columns it adds to
the result tables (see ``cgsim.games.contract.GameInfo``). It has no variant options."""

from __future__ import annotations

from functools import partial

from cgsim.games.contract import (
    Breakdown,
    Column,
    ColumnType,
    GameInfo,
    Restriction,
    Schema,
    ScoreUnit,
    Setup,
)
from cgsim.games.kitchen import actions
from cgsim.games.kitchen.describe import ENDS, NOTATION
from cgsim.games.kitchen.scoring import SCORE_PLANTS
from cgsim.games.kitchen.settings import MAX_PLAYERS, MIN_PLAYERS, KitchenRules

VERSION = "kitchen-garden/1.0"
RECORD_FORMAT = "cgsim.kitchen-record/1"

INT, BOOL, STR = ColumnType.INT, ColumnType.BOOL, ColumnType.STR
COUNT, ECONOMY = Breakdown.COUNT, Breakdown.ECONOMY

SCHEMA = Schema(
    games=(
        Column("sluggards_played", INT, "Sluggard cards played, all seats"),
        Column("sluggards_cancelled", INT, "Sluggards cancelled by a Worker"),
        Column("weeds_played", INT, "Weed cards played, all seats"),
        Column("weedings", INT, "Weeds removed by a Worker"),
        Column("steals", INT, "Steal cards played"),
        Column("crows", INT, "Crow cards played"),
        Column("bazaars", INT, "Bazaar cards played"),
        Column("holidays", INT, "Holiday cards played"),
        Column("reshuffles", INT, "times the discard pile was shuffled into the deck"),
        Column("aborted", BOOL, "stopped at the turn cap"),
        Column(
            "attack_on_runner_up",
            BOOL,
            "a Weed or an accepted Sluggard hit the eventual runner-up in the last rounds",
            Breakdown.RATE,
        ),
        Column("winner_task", STR, "the winner's secret task"),
    ),
    seats=(
        Column("weeds_played", INT, "Weed cards played on others", ECONOMY),
        Column("weeds_received", INT, "Weed cards received"),
        Column("sluggards_played", INT, "Sluggard cards played", ECONOMY),
        Column("sluggard_turns_lost", INT, "turns lost to Sluggards", COUNT),
        Column("workers_used", INT, "Worker cards used", ECONOMY),
        Column("specials_used", INT, "special cards used", ECONOMY),
        Column("harvests", INT, "Harvest actions", COUNT),
        Column("market_swaps", INT, "market swaps"),
        Column("task", STR, "the seat's secret task", Breakdown.CATEGORY),
        Column("plants_planted", INT, "plant cards in the seat's beds at the end", COUNT),
        Column("beds_completed", INT, "full beds at the end", COUNT),
        Column("cards_in_hand_end", INT, "cards left in hand at the end"),
    ),
)


def schema(rules: KitchenRules) -> Schema:
    """The same columns under any rules."""
    return SCHEMA


def _kind_in(kinds: frozenset[int], action: int) -> bool:
    return actions.kind_of(action) in kinds


def _never(name: str, text: str, *kinds: int) -> Restriction:
    return Restriction(name, text, partial(_kind_in, frozenset(kinds)))


RESTRICTIONS = (
    _never("weeds", "never plays a Weed onto an opponent's bed", actions.WEED),
    _never("weeding", "never removes a Weed", actions.WEEDING),
    _never(
        "specials",
        "never uses a special card (Crow, Bazaar, Holiday, nor discards one for an action)",
        actions.CROW,
        actions.BAZAAR,
        actions.HOLIDAY,
        actions.COND_SPECIAL,
    ),
    _never("workers", "never discards a Worker for an extra action", actions.COND_WORKER),
    _never("market", "never swaps a card with the market", actions.MARKET),
)
"""What restricted play measures in Kitchen Garden (by the action's kind)."""


INFO = GameInfo(
    id="kitchen-garden",
    title="Kitchen Garden",
    version=VERSION,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    record_format=RECORD_FORMAT,
    setups=tuple(
        Setup(f"{n} players", n, playthrough=n < MAX_PLAYERS)
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
    ),
    ladder=("random", "kitchen-greedy", "kitchen-search"),
    bench_seats=("kitchen-greedy", "kitchen-greedy"),
    score_unit=ScoreUnit(
        "points", f"{SCORE_PLANTS} per plant, +1 per full bed", "plants", float(SCORE_PLANTS)
    ),
    notation=NOTATION,
    ends=ENDS,
    restrictions=RESTRICTIONS,
)
