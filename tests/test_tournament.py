"""Schedules: seat rotation balance, duplicate deals, combinations and Latin squares."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
import toygame
from hypothesis import given
from hypothesis import strategies as st

from cgsim.errors import ConfigError
from cgsim.play.config import RunConfig, validate_config
from cgsim.play.schedules import (
    DealSchedule,
    combinations_of,
    plan_for,
    plan_run,
    plan_tournament,
    rotations,
    seatings_of,
)

toygame.register()
GREEDY = toygame.target(toygame.Greedy)
WANDERER = toygame.target(toygame.Wanderer)


def toy_config(**fields: object) -> RunConfig:
    return validate_config({"name": "t", "game": "toy", **fields})


def test_rotations_put_every_bot_in_every_seat_once() -> None:
    table = rotations([0, 1, 2, 3])
    assert table[0] == (0, 1, 2, 3)
    for seat in range(4):
        assert sorted(seating[seat] for seating in table) == [0, 1, 2, 3]


@given(st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=4))
def test_seatings_are_balanced(combination: list[int]) -> None:
    seatings = seatings_of(sorted(combination))
    assert len(seatings) <= max(len(combination), 1) or len(set(combination)) == 1
    assert len(set(seatings)) == len(seatings)
    for seating in seatings:
        assert sorted(seating) == sorted(combination)
    for seat in range(len(combination)):
        counts = Counter(seating[seat] for seating in seatings)
        per_copy = {bot: counts[bot] / combination.count(bot) for bot in set(combination)}
        assert len(set(per_copy.values())) == 1


def test_seatings_use_all_orders_when_few_else_a_latin_square() -> None:
    assert seatings_of((0, 1)) == [(0, 1), (1, 0)]
    assert seatings_of((0, 0, 1)) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    assert seatings_of((0, 1, 2)) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert len(seatings_of((0, 1, 2, 3))) == 4


def test_combinations() -> None:
    assert combinations_of(4, 2) == list(itertools.combinations(range(4), 2))
    assert combinations_of(2, 4) == [(0, 0, 0, 1), (0, 0, 1, 1), (0, 1, 1, 1)]
    assert combinations_of(1, 2) == [(0, 0)]
    assert combinations_of(3, 1) == [(0,), (1,), (2,)]


def test_deal_schedule_blocks_share_a_deal() -> None:
    schedule = DealSchedule(run_seed=5, seatings=((0, 1), (1, 0)), games=5)
    specs = [schedule.spec(i) for i in range(len(schedule))]
    assert [s.block for s in specs] == [0, 0, 1, 1, 2]
    assert specs[0].seed == specs[1].seed != specs[2].seed
    assert len({s.bot_seed for s in specs}) == 5
    assert [s.seats for s in specs] == [(0, 1), (1, 0), (0, 1), (1, 0), (0, 1)]
    with pytest.raises(IndexError):
        schedule.spec(5)


def test_run_rotates_seats_evenly() -> None:
    config = toy_config(players=3, seats=[GREEDY, WANDERER, f"{WANDERER}:bias=1"], games=12)
    plan = plan_run(config)
    assert plan.command == "run" and len(plan.schedule) == 12
    counts = Counter(
        (plan.bots[index].label, seat)
        for game_id in range(12)
        for seat, index in enumerate(plan.schedule.spec(game_id).seats)
    )
    assert set(counts.values()) == {4}
    assert len(counts) == 9


def test_tournament_blocks_hold_every_seating_of_every_combination() -> None:
    pool = [GREEDY, WANDERER, f"{WANDERER}:bias=1"]
    config = toy_config(players=2, bots=pool, games=10)
    plan = plan_tournament(config)
    assert len(plan.schedule) == 12  # 3 pairs x 2 orders = 6 per deal, rounded up to 2 deals
    specs = [plan.schedule.spec(i) for i in range(12)]
    for block in (0, 1):
        games = [s for s in specs if s.block == block]
        assert len({s.seed for s in games}) == 1
        assert sorted(s.seats for s in games) == sorted(
            itertools.chain.from_iterable(seatings_of(c) for c in combinations_of(3, 2))
        )


def test_plan_for_falls_back_to_the_pool_and_explains_missing_bots() -> None:
    pooled = toy_config(players=2, bots=[GREEDY, WANDERER])
    assert plan_for(pooled, "run").command == "tournament"
    with pytest.raises(ConfigError, match="seats: required"):
        plan_for(toy_config(players=2), "run")
    with pytest.raises(ConfigError, match="bots: a tournament needs"):
        plan_for(toy_config(players=2), "tournament")
