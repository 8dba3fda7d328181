"""The strength bench: is each rung of a game's bot ladder really stronger than the one below?

Each adjacent pair of the ladder plays 2-player games on the same deals with seats
swapped (every deal twice); the deal pair is the unit of the win-rate interval (a t
interval over the per-deal win shares, clipped to [0, 1]), since the two games of a deal
are not independent. A game nobody wins (Kitchen Garden's turn cap) is no win for either
seat, as in a run (``cgsim.games.loop.win_shares``). Each bot also plays the solo game (score mean with a t interval)
when the game has one. The bench times every decision a bot is asked for and reports
the mean cost.

Games are played by the one game loop (``cgsim.games.loop``), so bots are asked, told
and shown exactly what a run shows them: ``game.observation`` of their seat, never more.

Every seed derives from the bench seed, a deal's index and the seats, never from the
scheduling, so the results do not depend on the number of worker processes.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import polars as pl
from multiprocess import Pool

from cgsim.errors import ConfigError
from cgsim.games import loop
from cgsim.games.loop import DecisionTimer, win_shares
from cgsim.games.registry import DEFAULT_GAME, get_game
from cgsim.play.backend import chosen_backend
from cgsim.play.bot_registry import BotSpec, resolve_bot
from cgsim.play.seeds import derive_seed, seat_seed

if TYPE_CHECKING:
    from cgsim.games.bot import Bot
    from cgsim.games.contract import AnyGame
    from cgsim.reporting.stats import Interval

DEFAULT_GAMES = 500
"""Deals per pair: 1,000 games with the seats swapped."""
DEFAULT_SOLO_GAMES = 300


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat of one game: its score, win share and the cost of its decisions."""

    score: float
    win: float
    """1 for the sole winner, 1/k for each of k sharing winners, 0 for the others (and for
    every seat of a game nobody wins)."""
    decisions: int
    seconds: float
    won_by_nobody: bool = False
    """The game ended without a winner (so ``win`` is 0 for both seats)."""


@dataclass(frozen=True, slots=True)
class Task:
    """One unit of bench work: a deal played by a pair (both seatings) or a solo game."""

    labels: tuple[str, ...]
    """Bot specs of the pair (lower rung first), or the one solo bot."""
    deal: int
    seed: int
    """Bench seed."""
    game: str = DEFAULT_GAME
    """Public id of the game (worker processes look it up by name)."""


@dataclass(frozen=True, slots=True)
class TaskResult:
    task: Task
    outcomes: tuple[tuple[SeatOutcome, ...], ...]
    """Per game, per bot of ``task.labels`` (not per seat): what that bot got."""


@dataclass(frozen=True, slots=True)
class PairResult:
    """The upper rung's results against the lower one over paired deals."""

    lower: str
    upper: str
    win_rate: Interval
    score_diff: Interval
    """Upper minus lower score, per deal (mean of the two seatings)."""
    draws: int = 0
    """Games that ended without a winner (no win for either bot)."""


@dataclass(frozen=True, slots=True)
class BenchmarkShare:
    """The share of a bot's solo games scoring at least one of the game's benchmarks."""

    label: str
    score: float
    share: Interval
    """Wilson interval (solo games are independent)."""


@dataclass(frozen=True, slots=True)
class SoloResult:
    bot: str
    score: Interval
    benchmarks: tuple[BenchmarkShare, ...] = ()
    """One per benchmark the game declares for the solo game, lowest score first."""


@dataclass(frozen=True, slots=True)
class CostResult:
    bot: str
    decisions: int
    mean_ms: float


@dataclass(frozen=True, slots=True)
class StrengthReport:
    pairs: tuple[PairResult, ...]
    solo: tuple[SoloResult, ...]
    costs: tuple[CostResult, ...]
    seconds: float
    game: str = DEFAULT_GAME
    has_solo: bool = True
    """False for a game without a solo mode (its minimum is 2 players): no solo games."""


def default_ladder(game: str) -> tuple[str, ...]:
    """The ladder ``game`` declares; a clear error for a game that declares none."""
    ladder = get_game(game).info.ladder
    if not ladder:
        raise ConfigError(f"--game {game!r} declares no bot ladder; name the bots with --bots")
    return ladder


def bot_specs(
    bots: Sequence[str] | None, budget: int | None, game: str = DEFAULT_GAME
) -> tuple[str, ...]:
    """The ladder to bench: ``bots`` (names or specs, weakest first) or the game's own.

    ``budget`` sets the search-size parameters (``Bot.budget_params``) of every entry named
    without parameters. Every spec must play ``game``.
    """
    specs = []
    for text in tuple(bots) if bots else default_ladder(game):
        spec = text.strip()
        resolved = resolve_bot(spec, game)
        names = resolved.cls.budget_params
        if budget is not None and names and spec == resolved.name:
            spec = f"{spec}:" + ",".join(f"{name}={budget}" for name in names)
            resolve_bot(spec, game)
        specs.append(spec)
    return tuple(specs)


@cache
def _spec(label: str, game: str) -> BotSpec:
    return resolve_bot(label, game)


@cache
def _rules(game: str, players: int) -> Any:
    return get_game(game).make_rules(players, {}, None, {})


def play(
    game: AnyGame, bots: Sequence[Bot], deal_seed: int, bot_seed: int
) -> tuple[SeatOutcome, ...]:
    """One game with ``bots`` in seat order, played by the one game loop with each
    decision timed; a bot's failure (an illegal action, say) raises ``BotFault``."""
    players = len(bots)
    state = game.new_game(_rules(game.info.id, players), deal_seed)
    rngs = [random.Random(seat_seed(bot_seed, seat)) for seat in range(players)]
    timer = DecisionTimer(players)
    result = game.result(loop.play(game, state, bots, rngs, decide=timer))
    shares = win_shares(result)
    return tuple(
        SeatOutcome(
            result.scores[seat],
            shares[seat],
            timer.decisions[seat],
            timer.seconds[seat],
            not result.winners,
        )
        for seat in range(players)
    )


def run_task(task: Task) -> TaskResult:
    """Play one task (in a worker process or inline)."""
    game = get_game(task.game)
    specs = [_spec(label, task.game) for label in task.labels]
    if len(specs) == 1:
        deal_seed = derive_seed("strength-solo", task.seed, task.deal)
        bot_seed = derive_seed("strength-solo-bot", task.seed, task.deal)
        return TaskResult(task, (play(game, [specs[0].create()], deal_seed, bot_seed),))
    deal_seed = derive_seed("strength-deal", task.seed, task.deal)
    games = []
    for swapped in (False, True):
        seats = specs[::-1] if swapped else specs
        bot_seed = derive_seed("strength-bot", task.seed, task.deal, *task.labels, int(swapped))
        outcome = play(game, [spec.create() for spec in seats], deal_seed, bot_seed)
        games.append(outcome[::-1] if swapped else outcome)
    return TaskResult(task, tuple(games))


def tasks_for(
    ladder: Sequence[str], games: int, solo_games: int, seed: int, game: str = DEFAULT_GAME
) -> list[Task]:
    """Every task of a bench, pairs first: deals of adjacent rungs, then solo games."""
    tasks = [
        Task((lower, upper), deal, seed, game)
        for lower, upper in itertools.pairwise(ladder)
        for deal in range(games)
    ]
    tasks += [Task((bot,), deal, seed, game) for bot in ladder for deal in range(solo_games)]
    return tasks


def execute(
    tasks: Sequence[Task],
    workers: int,
    progress: Callable[[int, int], None] | None = None,
) -> list[TaskResult]:
    """Run the tasks, in order, on ``workers`` processes (inline for 1), or on the Dask
    cluster a command chose (a local one of ``workers`` processes without a scheduler)."""
    results: list[TaskResult] = []
    backend = chosen_backend()
    if backend is not None and backend.kind == "dask":
        # Deferred: loads dask and distributed, which most commands never need.
        from cgsim.play.dask_pool import dask_map

        return dask_map(backend.scheduler, workers, run_task, tasks, progress)
    if workers <= 1:
        for task in tasks:
            results.append(run_task(task))
            if progress:
                progress(len(results), len(tasks))
        return results
    with Pool(workers) as pool:
        for result in pool.imap(run_task, tasks, chunksize=1):
            results.append(result)
            if progress:
                progress(len(results), len(tasks))
    return results


def summarize(
    ladder: Sequence[str],
    results: Sequence[TaskResult],
    seconds: float,
    game: str = DEFAULT_GAME,
    has_solo: bool = True,
) -> StrengthReport:
    """Intervals and costs from the task results."""
    # Deferred: loads numpy and scipy, which most commands never need.
    from cgsim.reporting.stats import clip_unit, mean_interval

    pairs = []
    for lower, upper in itertools.pairwise(ladder):
        wins, diffs, draws = [], [], 0
        for r in results:
            if r.task.labels == (lower, upper):
                wins.append(sum(g[1].win for g in r.outcomes) / len(r.outcomes))
                diffs.append(sum(g[1].score - g[0].score for g in r.outcomes) / len(r.outcomes))
                draws += sum(g[1].won_by_nobody for g in r.outcomes)
        win_rate = clip_unit(mean_interval(wins))
        pairs.append(PairResult(lower, upper, win_rate, mean_interval(diffs), draws))
    solo = []
    benchmarks = get_game(game).info.benchmarks_for(1)
    for bot in ladder:
        scores = [r.outcomes[0][0].score for r in results if r.task.labels == (bot,)]
        if scores:
            solo.append(SoloResult(bot, mean_interval(scores), _shares(scores, benchmarks)))
    costs = []
    for bot in ladder:
        decisions, spent = 0, 0.0
        for r in results:
            for played in r.outcomes:
                for label, outcome in zip(r.task.labels, played, strict=True):
                    if label == bot:
                        decisions += outcome.decisions
                        spent += outcome.seconds
        if decisions:
            costs.append(CostResult(bot, decisions, 1000.0 * spent / decisions))
    return StrengthReport(tuple(pairs), tuple(solo), tuple(costs), seconds, game, has_solo)


def _shares(scores: Sequence[float], benchmarks: dict[str, float]) -> tuple[BenchmarkShare, ...]:
    """The benchmark shares of one bot's solo scores, computed as the run report does."""
    if not benchmarks:
        return ()
    # Deferred: loads numpy and scipy, which most commands never need.
    from cgsim.reporting.intervals import benchmark_shares
    from cgsim.reporting.stats import Interval

    table = benchmark_shares(pl.DataFrame({"score": scores}), [], benchmarks)
    return tuple(
        BenchmarkShare(
            row["benchmark"],
            row["score"],
            Interval(row["share"], row["low"], row["high"], row["games"]),
        )
        for row in table.iter_rows(named=True)
    )


def run_strength(
    bots: Sequence[str] | None = None,
    games: int = DEFAULT_GAMES,
    solo_games: int = DEFAULT_SOLO_GAMES,
    workers: int = 1,
    seed: int = 0,
    budget: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    game: str = DEFAULT_GAME,
) -> StrengthReport:
    """Run the whole bench for ``game`` and summarise it.

    A game whose minimum is 2 players has no solo game: ``solo_games`` is then ignored
    and the report says so.
    """
    the_game = get_game(game)
    if games < 0 or solo_games < 0:
        raise ConfigError("--games and --solo-games must be 0 or more")
    if workers < 1:
        raise ConfigError(f"--workers {workers} is not allowed; expected 1 or more")
    ladder = bot_specs(bots, budget, game)
    if len(ladder) > 1 and the_game.info.max_players < 2:
        raise ConfigError(f"--game {game!r} has no 2-player game; name one bot with --bots")
    has_solo = the_game.info.min_players <= 1
    tasks = tasks_for(ladder, games, solo_games if has_solo else 0, seed, game)
    start = time.perf_counter()
    results = execute(tasks, workers, progress)
    return summarize(ladder, results, time.perf_counter() - start, game, has_solo)


def _fmt(interval: Interval, scale: float = 1.0, digits: int = 1) -> str:
    if math.isnan(interval.estimate):
        return "n/a"
    if math.isnan(interval.low):
        return f"{interval.estimate * scale:.{digits}f}"
    return (
        f"{interval.estimate * scale:.{digits}f} "
        f"[{interval.low * scale:.{digits}f}, {interval.high * scale:.{digits}f}]"
    )


def format_report(report: StrengthReport) -> str:
    """The bench's plain-text tables; score differences in the game's lead unit (Kitchen
    Garden's plants ahead, Cottage Garden's points ahead)."""
    unit = get_game(report.game).info.score_unit
    ahead = f"{unit.lead} ahead"
    lines = [f"{report.game}, 2-player, seats swapped on each deal (95% interval over deal pairs):"]
    lines.append(f"  {'upper':<28} {'lower':<28} {'deals':>6}  {'upper win %':<22} {ahead}")
    for p in report.pairs:
        lines.append(
            f"  {p.upper:<28} {p.lower:<28} {p.win_rate.n:>6}  "
            f"{_fmt(p.win_rate, 100.0):<22} {_fmt(p.score_diff, 1.0 / unit.per_lead)}"
        )
    lines.append(f"  {ahead}: the upper bot's final score minus the lower's, per game;")
    lines.append(f"  score: {unit.label()}")
    for p in report.pairs:
        if p.draws:
            lines.append(
                f"  {p.upper} vs {p.lower}: {p.draws} {'game' if p.draws == 1 else 'games'} "
                "without a winner (no win for either)"
            )
    if report.has_solo:
        lines.append(f"solo game (mean score in {unit.lead}, 95% t interval):")
        marks = report.solo[0].benchmarks if report.solo else ()
        if marks:
            listed = ", ".join(f"{m.label} {m.score:g}" for m in marks)
            lines.append(
                f"  then % of games reaching each benchmark ({listed}), 95% Wilson interval"
            )
        for s in report.solo:
            shares = "".join(f"  {_fmt(m.share, 100.0):<20}" for m in s.benchmarks)
            lines.append(
                f"  {s.bot:<28} {s.score.n:>6} games  "
                f"{_fmt(s.score, 1.0 / unit.per_lead):<20}{shares}".rstrip()
            )
    else:
        lines.append(f"no solo game: {report.game} needs at least 2 players")
    lines.append("cost per decision:")
    for c in report.costs:
        lines.append(f"  {c.bot:<28} {c.decisions:>9} decisions  {c.mean_ms:.3f} ms")
    lines.append(f"wall time: {report.seconds:.1f} s")
    return "\n".join(lines)
