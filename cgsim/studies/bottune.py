"""Tuning a bot's parameters by playing: NTBEA search, a final race, a confirmation run.

A config's ``[tune_bot]`` table (:mod:`cgsim.studies.bottune_spec`) names the bot, its
fixed opponent and the parameters left free. The objective is the bot's win share against
the opponent (ties shared, seats rotated over each deal), or its mean score in the solo
game. Three stages, each on deals no other stage plays:

1. **Search** (:mod:`cgsim.studies.ntbea`): rounds of ``batch`` candidates, every
   candidate of a round on the same deals (common random numbers). Round one is the
   start point (``tune_bot.start``, else the bot's current values, snapped to the grid)
   and random points. Pin ``start`` and the opponent's parameters to keep a tuning
   reproducible after the bot's defaults change.
2. **Final race**: the ``finalists`` best by the search's model each play
   ``final_deals`` fresh shared deals; the best mean wins (ties: the search's order).
3. **Confirmation**: the winner plays ``confirm_deals`` fresh deals against the opponent,
   exactly the games ``cgsim run`` plays for the written ``tuned.toml``. Its interval is
   the reported strength: the search and the race chose the winner on other deals, so
   their figures carry the winner's curse and are not reported as its strength.

Each round, the race and the confirmation play on a pool of worker processes of their
own: one pool per batch of candidates, not per candidate, and fresh workers each round,
so memoising bots (one table per weight set) cannot grow without bound over a long search.
Same config, same seeds: the same search, whatever the number of workers.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl
from tqdm import tqdm  # type: ignore[import-untyped]

from cgsim.play.bot_registry import BotSpec
from cgsim.play.config import MAX_NAME, RunConfig, resolve_rules, with_overrides
from cgsim.play.limits import workers_used
from cgsim.play.pool import Batch, Schedule, TaskSource, WorkerContext, WorkerPool
from cgsim.play.schedules import DealSchedule, plan_run, rotations
from cgsim.play.seeds import derive_seed
from cgsim.reporting.stats import Interval, clip_unit, mean_interval
from cgsim.studies.bottune_spec import BotSearch, bot_search, planned_games
from cgsim.studies.ntbea import NtbeaResult, NtbeaSettings, Point, ntbea
from cgsim.studies.tune import TuneError, candidate_label

# ----------------------------------------------------------------------------- playing


@dataclass(frozen=True, slots=True)
class SeatValue:
    """What one seat of a played game gave its bot."""

    game_id: int
    block: int
    win: float
    score: float


@dataclass
class Played:
    """Per bot index of a played schedule, its seats' values in game-id order."""

    seats: dict[int, list[SeatValue]]

    def per_deal(self, index: int, measure: str) -> list[float]:
        """Per deal block (in block order), the mean ``win`` or ``score`` of the bot there."""
        by_block: dict[int, list[float]] = {}
        for seat in self.seats[index]:
            by_block.setdefault(seat.block, []).append(getattr(seat, measure))
        return [math.fsum(v) / len(v) for _, v in sorted(by_block.items())]

    def mean(self, index: int, measure: str) -> float:
        """The bot's mean ``win`` or ``score`` over its seats."""
        values = [getattr(seat, measure) for seat in self.seats[index]]
        return math.fsum(values) / len(values)


class Player:
    """Plays schedules on worker pools, counting games on one progress bar."""

    def __init__(self, config: RunConfig, workers: int | None, bar: Any) -> None:
        self.config = config
        self.rules = resolve_rules(config)
        self.workers = workers
        self.bar = bar
        self.played = 0

    def play(self, schedule: Schedule, bots: Sequence[BotSpec], focus: Sequence[int]) -> Played:
        """Every game of ``schedule`` (seats index ``bots``), on a pool of its own; the
        seats held by the bots of ``focus``. A game that ends in error stops the tuning."""
        total = len(schedule)
        used = workers_used(self.workers or self.config.workers, total)
        context = WorkerContext(
            self.config.game, self.rules, tuple(bots), False, self.config.time_limit
        )
        batch = Batch()
        with WorkerPool(used, context) as pool:
            for part in pool.results(TaskSource(schedule, [range(total)], used)):
                batch.extend(part)
                self.played += part.games.count
                self.bar.update(part.games.count)
        errors = batch.error_rows()
        if errors:
            first = min(errors, key=lambda row: row["game_id"])
            raise TuneError(
                f"tune_bot: a game of {', '.join(first['seats'])} (seed {first['seed']}) "
                f"ended in error: {first['error']}"
            )
        data = batch.seats.data
        seats: dict[int, list[SeatValue]] = {index: [] for index in focus}
        for game_id, block, seat, win, score in zip(
            data["game_id"],
            data["block"],
            data["seat"],
            data["win_share"],
            data["score"],
            strict=True,
        ):
            holder = schedule.spec(game_id).seats[seat]
            if holder in seats:
                seats[holder].append(SeatValue(game_id, block, float(win), float(score)))
        for rows in seats.values():
            rows.sort(key=lambda seat: seat.game_id)
        return Played(seats)


# ----------------------------------------------------------------------------- the tuning


@dataclass
class BotTuneResult:
    """The winner, its confirmed strength, and how the search and race got there."""

    search: BotSearch
    best: dict[str, Any]
    label: str
    """The winner as a bot spec string (``greedy:cats=0.6,pots=1.1``)."""
    strength: Interval
    """The confirmation: win rate (share) against the opponent, or mean solo score, with
    its 95% t interval over deals."""
    score: Interval
    """The winner's mean score in the confirmation."""
    confirm_config: RunConfig
    """``cgsim run`` of this config plays the confirmation's games."""
    path: pl.DataFrame
    """round, candidate, value (on that round's deals), estimate (the final model's)."""
    finalists: pl.DataFrame
    games: int
    seconds: float


def confirm_config(search: BotSearch, point: Point) -> RunConfig:
    """The run config of the confirmation: the tuned bot in seat 0, the opponent elsewhere,
    the config's seed, rules and variant, ``confirm_deals`` deals."""
    config = search.config
    seats = [search.entry(point)]
    if search.spec.opponent is not None:
        seats += [search.spec.opponent] * (config.players - 1)
    return with_overrides(
        config,
        {
            "name": f"{config.name}-tuned"[:MAX_NAME],
            "seats": [seat.model_dump() for seat in seats],
            "games": search.spec.confirm_deals * config.players,
            "tune": {},
            "tune_bot": {},
            "sweep": {},
        },
    )


class _Tuning:
    """One tuning's stages, sharing the search, the player and the output."""

    def __init__(self, search: BotSearch, player: Player, say: Callable[[str], None]) -> None:
        self.search = search
        self.spec = search.spec
        self.player = player
        self.say = say
        self.head: list[BotSpec] = [] if search.opponent is None else [search.opponent]
        self.measure = "score" if search.config.players == 1 else "win"

    def play(self, namespace: str, index: int, points: Sequence[Point], deals: int) -> Played:
        """The points on the same ``deals`` deals (seeds of their own namespace), each in
        every seating; bot ``len(head) + k`` is point ``k``."""
        specs = [self.search.candidate(point) for point in points]
        first = len(self.head)
        seatings = tuple(
            seating
            for k in range(len(specs))
            for seating in rotations(self.search.seats(first + k))
        )
        config = self.search.config
        schedule = DealSchedule(
            derive_seed(namespace, config.seed, index), seatings, deals * len(seatings)
        )
        return self.player.play(schedule, [*self.head, *specs], range(first, first + len(specs)))

    def evaluate(self, round_index: int, points: Sequence[Point]) -> list[float]:
        played = self.play("tune-bot-search", round_index, points, self.spec.deals)
        return [played.mean(len(self.head) + k, self.measure) for k in range(len(points))]

    def report_round(self, round_index: int, state: NtbeaResult) -> None:
        point, estimate = state.ranked[0]
        self.say(
            f"round {round_index + 1}/{self.spec.rounds}: {state.model.count} candidates "
            f"played; best so far {candidate_label(self.search.values(point))} "
            f"({self.search.objective} estimate {estimate:.4g})"
        )

    def race(self, ranked: Sequence[tuple[Point, float]]) -> tuple[Point, pl.DataFrame]:
        """The finalists on fresh shared deals; the best mean wins (ties: search order)."""
        finalists = [point for point, _ in ranked[: self.spec.finalists]]
        played = self.play("tune-bot-final", 0, finalists, self.spec.final_deals)
        rows = []
        for k, point in enumerate(finalists):
            interval = _interval(played.per_deal(len(self.head) + k, self.measure), self.measure)
            rows.append(
                {
                    "rank": k + 1,
                    "candidate": candidate_label(self.search.values(point)),
                    "search_estimate": ranked[k][1],
                    "final": interval.estimate,
                    "low": interval.low,
                    "high": interval.high,
                    "deals": interval.n,
                }
            )
        best = max(range(len(finalists)), key=lambda k: (rows[k]["final"], -k))
        self.say(
            f"final race: {len(finalists)} finalists x {self.spec.final_deals} fresh deals; "
            f"winner {candidate_label(self.search.values(finalists[best]))}"
        )
        return finalists[best], pl.DataFrame(rows)

    def confirm(self, point: Point) -> tuple[RunConfig, Interval, Interval]:
        """The winner against the opponent on the confirmation run's deals."""
        config = confirm_config(self.search, point)
        plan = plan_run(config)
        played = self.player.play(plan.schedule, plan.bots, [0])
        strength = _interval(played.per_deal(0, self.measure), self.measure)
        return config, strength, mean_interval(played.per_deal(0, "score"))


def _interval(values: Sequence[float], measure: str) -> Interval:
    """Mean with its t interval over deals, clipped to [0, 1] for win shares."""
    interval = mean_interval(values)
    return clip_unit(interval) if measure == "win" else interval


def tune_bot(
    config: RunConfig,
    *,
    workers: int | None = None,
    echo: Callable[[str], object] = lambda _: None,
    progress: bool | None = None,
) -> BotTuneResult:
    """Search the bot's free parameters, race the finalists, confirm the winner.

    ``echo`` hears a line per stage and round; ``progress`` shows a progress bar on
    stderr (None: only when it is a terminal).
    """
    search = bot_search(config)
    spec = search.spec
    total = planned_games(search)
    bar = tqdm(
        total=total,
        unit="game",
        desc=config.name,
        file=sys.stderr,
        disable=None if progress is None else not progress,
        dynamic_ncols=True,
    )

    def say(line: str) -> None:
        with tqdm.external_write_mode(file=sys.stderr):
            echo(line)

    start = time.perf_counter()
    player = Player(config, workers, bar)
    tuning = _Tuning(search, player, say)
    opponent = search.opponent.label if search.opponent else "no opponent (solo game)"
    try:
        say(
            f"tune {config.name}: {search.bot.label} against {opponent}; "
            f"{len(search.names)} free parameters, {math.prod(search.sizes):,} grid points; "
            f"{total:,} games"
        )
        settings = NtbeaSettings(
            rounds=spec.rounds,
            batch=spec.batch,
            neighbours=spec.neighbours,
            exploration=spec.exploration,
            tuple_sizes=spec.tuples,
            seed=spec.seed,
        )
        found = ntbea(
            search.sizes, tuning.evaluate, settings, start=search.start, echo=tuning.report_round
        )
        best, finalists = tuning.race(found.ranked)
        confirmed, strength, score = tuning.confirm(best)
    finally:
        bar.close()
    estimates = dict(found.ranked)
    path = pl.DataFrame(
        [
            {
                "round": e.round + 1,
                "candidate": candidate_label(search.values(e.point)),
                "value": e.value,
                "estimate": estimates[e.point],
            }
            for e in found.evaluations
        ],
        schema={
            "round": pl.Int64,
            "candidate": pl.String,
            "value": pl.Float64,
            "estimate": pl.Float64,
        },
    )
    return BotTuneResult(
        search=search,
        best=search.values(best),
        label=search.candidate(best).label,
        strength=strength,
        score=score,
        confirm_config=confirmed,
        path=path,
        finalists=finalists,
        games=player.played,
        seconds=time.perf_counter() - start,
    )
