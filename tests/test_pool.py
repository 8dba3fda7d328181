"""Batches, their sizing and retries, and the worker pool on its own."""

from __future__ import annotations

import pickle

import toygame

from cgsim.play.bot_registry import resolve_bot
from cgsim.play.match import GameSpec, play_game
from cgsim.play.pool import Batch, Task, TaskSource, WorkerContext, WorkerPool
from cgsim.play.schedules import DealSchedule

toygame.register()


def test_task_source_sizes_batches_and_retries_first() -> None:
    schedule = DealSchedule(run_seed=1, seatings=((0, 1), (1, 0)), games=100)
    source = TaskSource(schedule, [range(0, 50), range(50, 100)], workers=2)
    first = source.next_task()
    assert first is not None and [s.game_id for s in first.specs] == [0]
    batch = Batch()
    batch.games.count, batch.seconds = 10, 0.01  # 1 ms a game: about 250 a batch
    source.measured(batch)
    second = source.next_task()
    assert second is not None and [s.game_id for s in second.specs] == list(range(1, 26))
    lost = GameSpec(game_id=0, block=0, seed=1, bot_seed=2, seats=(0, 1))
    source.retry_first([Task((lost,))])
    retried = source.next_task()
    assert retried is not None and retried.specs == (lost,)
    ids: list[int] = []
    while (task := source.next_task()) is not None:
        ids.extend(spec.game_id for spec in task.specs)
        assert len({spec.game_id // 50 for spec in task.specs}) == 1
    assert ids == list(range(26, 100))


def test_batches_carry_columns_and_records() -> None:
    bots = [resolve_bot(toygame.target(toygame.Greedy), "toy")] * 2
    rules = toygame.GAME.make_rules(2, {})
    outcomes = [play_game(toygame.GAME, rules, s, bots, record=True, game_id=s) for s in (4, 5)]
    batch = pickle.loads(pickle.dumps(Batch.of(outcomes, 0.5)))
    assert batch.games.data["game_id"] == [4, 5] and batch.seats.count == 4
    assert [game_id for game_id, _ in batch.records] == [4, 5]
    assert batch.error_rows() == []
    batch.extend(Batch.of(outcomes[:1]))
    assert batch.games.count == 3 and len(batch.records) == 3


def test_pool_plays_every_task_once() -> None:
    bots = (resolve_bot(toygame.target(toygame.Greedy), "toy"),)
    rules = toygame.GAME.make_rules(2, {})
    schedule = DealSchedule(run_seed=2, seatings=((0, 0),), games=30)
    source = TaskSource(schedule, [range(0, 30)], workers=2)
    with WorkerPool(2, WorkerContext("toy", rules, bots, False, 0.0)) as pool:
        ids = [i for batch in pool.results(source) for i in batch.games.data["game_id"]]
    assert sorted(ids) == list(range(30))
