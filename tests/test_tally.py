"""A run that keeps no record summarizes its games from a tally: the same tables as from
the records, game by game and for a whole run."""

from __future__ import annotations

import random
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgsim.api import simulate
from cgsim.games.cottage.components import Printed
from cgsim.games.cottage.record import TURN_MARKER
from cgsim.games.cottage.settings import LIST_RANGES, SETTING_RANGES
from cgsim.games.cottage.state import (
    EVENT_KINDS,
    KIND_BITS,
    KIND_MASK,
    KIND_MOVE,
    KIND_OTHER,
    KIND_PENALTY,
    KIND_REFILL,
    KIND_TURN,
    cleanup_code,
    cleanup_fields,
    cube_code,
    cube_fields,
    refill_code,
    refill_ramble,
    tile_code,
    tile_fields,
    turn_final,
    turn_kind,
    turn_seat,
)
from cgsim.games.cottage.summary import event_code
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.match import GameOutcome, play_game

CASES = [
    ("cottage-garden", 1, {}, ["random"], range(1, 9)),
    ("cottage-garden", 2, {}, ["random", "random"], range(1, 13)),
    ("cottage-garden", 3, {}, ["random"] * 3, range(1, 7)),
    ("cottage-garden", 4, {}, ["random"] * 4, range(1, 7)),
    ("cottage-garden", 2, {"children": [5, None]}, ["random", "random"], range(1, 7)),
    ("cottage-garden", 2, {}, ["greedy", "random"], range(1, 3)),
    # Greedy solo games complete beds, some with the tile that scores and clears them.
    ("cottage-garden", 1, {"solo": True}, ["greedy"], range(1, 9)),
    ("kitchen-garden", 2, {}, ["random", "random"], range(1, 9)),
    ("kitchen-garden", 3, {}, ["random"] * 3, range(1, 7)),
    ("kitchen-garden", 4, {}, ["random"] * 4, range(1, 7)),
    ("kitchen-garden", 3, {}, ["kitchen-greedy", "random", "kitchen-greedy"], range(1, 5)),
    # Greedy games some seat wins, with a late attack on the runner-up (seeds 1, 2).
    ("kitchen-garden", 4, {}, ["kitchen-greedy"] * 4, range(1, 4)),
]


def _rows(outcome: GameOutcome) -> tuple[Any, ...]:
    assert outcome.error is None
    game = {key: value for key, value in outcome.game.items() if key != "wall_time"}
    return game, outcome.seats, outcome.tables


@pytest.mark.parametrize(("name", "players", "variant", "seats", "seeds"), CASES)
def test_a_game_summarized_from_its_tally_equals_its_record_summary(
    name: str, players: int, variant: dict[str, Any], seats: list[str], seeds: range
) -> None:
    game = get_game(name)
    rules = game.make_rules(players, {}, None, variant)
    bots = [resolve_bot(seat, name) for seat in seats]
    for seed in seeds:
        kept = play_game(game, rules, seed, bots, record=True)
        tallied = play_game(game, rules, seed, bots, record=False)
        assert kept.record is not None and tallied.record is None
        assert _rows(tallied) == _rows(kept), f"{name}, {players} players, seed {seed}"


@pytest.mark.parametrize(
    "config",
    [
        {"game": "cottage-garden", "players": 2, "seats": ["random", "greedy"], "games": 12},
        {"game": "kitchen-garden", "players": 3, "seats": ["random"] * 3, "games": 6},
    ],
)
def test_a_run_without_records_has_the_same_tables(config: dict[str, Any]) -> None:
    tables = {
        records: simulate({"name": "tally", "seed": 3, "workers": 1, "records": records, **config})
        for records in (True, False)
    }
    assert tables[True].keys() == tables[False].keys()
    for name, kept in tables[True].items():
        tallied = tables[False][name]
        if "wall_time" in kept.columns:
            kept, tallied = kept.drop("wall_time"), tallied.drop("wall_time")
        assert kept.height > 0
        assert kept.equals(tallied), name
    assert isinstance(tables[True]["games"], pl.DataFrame)


def _expected_code(event: dict[str, Any], printed: Printed) -> int:
    if event["e"] == TURN_MARKER:
        return turn_kind(event["seat"], event["final_round"])
    return event_code(event, printed)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4), children=st.booleans())
def test_every_state_gives_the_code_of_each_of_its_events(
    seed: int, players: int, children: bool
) -> None:
    # The Cottage tally reads the codes and never an event's name, nor the numbers a code
    # holds from the event: a code that disagreed with its event would count the wrong
    # thing silently. A record's events are coded from their dicts (``event_code``).
    game = get_game("cottage-garden")
    variant = {"children": [5] + [None] * (players - 1)} if children else {}
    rules = game.make_rules(players, {}, None, variant)
    state = game.new_game(rules, seed)
    rng = random.Random(seed)
    while True:
        expected = tuple(_expected_code(event, rules.catalogue.printed) for event in state.events)
        assert state.kinds == expected
        if game.is_terminal(state):
            break
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])


def test_a_turn_markers_kind_gives_back_its_seat_and_final_round() -> None:
    for seat in range(4):
        for final_round in (False, True):
            kind = turn_kind(seat, final_round)
            assert kind >= KIND_TURN and kind not in EVENT_KINDS.values()
            assert kind == kind & KIND_MASK  # fits below a code's numbers
            assert (turn_seat(kind), turn_final(kind)) == (seat, final_round)


def test_every_kind_fits_below_the_numbers_of_a_code() -> None:
    assert all(kind == kind & KIND_MASK for kind in EVENT_KINDS.values())
    assert len({*EVENT_KINDS.values(), KIND_OTHER}) == len(EVENT_KINDS) + 1


# The largest numbers the settings allow: a code must hold them whatever a config says.
_MOST_CUBES = SETTING_RANGES["cubes"][1]
_MOST_SPACES = max(LIST_RANGES["orange_track"][1], LIST_RANGES["blue_track"][1])


@given(
    kind=st.sampled_from([KIND_MOVE, KIND_PENALTY]),
    color=st.integers(0, 1),
    cube=st.integers(0, _MOST_CUBES - 1),
    start=st.integers(0, _MOST_SPACES - 1),
    end=st.integers(0, _MOST_SPACES - 1),
    bed=st.integers(0, 1),
    cells=st.integers(0, (1 << 25) - 1),
    ramble=st.booleans(),
)
def test_a_code_keeps_each_of_its_numbers_apart(
    kind: int, color: int, cube: int, start: int, end: int, bed: int, cells: int, ramble: bool
) -> None:
    # The settings' largest numbers (8 cubes, 100 spaces, 25 cells) each fit their bits:
    # no number of a code spills into another.
    data = cube_code(kind, color, cube, start, end) >> KIND_BITS
    assert (data & 1, data >> 1 & 7, data >> 4 & 127, data >> 11) == (color, cube, start, end)
    assert cube_code(kind, color, cube, start, end) & KIND_MASK == kind
    data = tile_code(bed, cells) >> KIND_BITS
    assert (data & 1, data >> 1) == (bed, cells)
    data = cleanup_code(bed, cells) >> KIND_BITS
    assert (data & 1, data >> 1 & 1, data >> 2) == (bed, 1, cells)
    assert cleanup_code(bed, None) >> KIND_BITS == bed
    # The tally reads them back with the functions beside the ones that write them.
    assert cube_fields(cube_code(kind, color, cube, start, end) >> KIND_BITS) == (
        color,
        cube,
        start,
        end,
    )
    assert tile_fields(tile_code(bed, cells) >> KIND_BITS) == (bed, cells)
    assert cleanup_fields(cleanup_code(bed, cells) >> KIND_BITS) == (bed, cells)
    assert cleanup_fields(cleanup_code(bed, None) >> KIND_BITS) == (bed, 0)
    assert refill_ramble(refill_code(ramble) >> KIND_BITS) is ramble
    assert refill_code(ramble) & KIND_MASK == KIND_REFILL


def test_the_games_of_one_rules_object_share_their_summary_start() -> None:
    # A run's worker plays its games with one rules object: their summaries start from
    # one start, built once and kept with the rules; other rules get their own, and a
    # pickled copy (a worker's) builds its own again.
    import pickle

    from cgsim.games.cottage.summary import _tally_start

    game = get_game("cottage-garden")
    rules = game.make_rules(2, {}, None, {})
    first = _tally_start(rules)
    assert _tally_start(rules) is first
    assert first.totals == [0.0, 0.0] and first.players == 2
    other = _tally_start(game.make_rules(3, {}, None, {}))
    assert other is not first and other.players == 3
    copied = pickle.loads(pickle.dumps(rules))
    assert copied.derived_cache == {}
    assert _tally_start(copied).totals == first.totals
