"""The strength bench: is each rung of the bot ladder really stronger than the one below?

Each adjacent pair of the ladder plays 2-player games on the same deals with seats
swapped (every deal twice); the deal pair is the unit of the win-rate interval (a t
interval over the per-deal win shares, clipped to [0, 1]), since the two games of a deal
are not independent. Each bot also plays the solo game (score mean with a t interval).
The bench times every decision a bot is asked for and reports the mean cost.

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

from cgsim.cottage.game import GAME
from cgsim.errors import ConfigError
from cgsim.registry import BotSpec, resolve_bot
from cgsim.seeds import derive_seed

if TYPE_CHECKING:
    from cgsim.stats import Interval

GAME_NAME = "cottage-garden"
LADDER: tuple[str, ...] = ("random", "greedy", "planner", "beam")
"""The built-in ladder, weakest first."""
DEFAULT_GAMES = 500
"""Deals per pair: 1,000 games with the seats swapped."""
DEFAULT_SOLO_GAMES = 300


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat of one game: its score, win share and the cost of its decisions."""

    score: float
    win: float
    decisions: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Task:
    """One unit of bench work: a deal played by a pair (both seatings) or a solo game."""

    labels: tuple[str, ...]
    """Bot specs of the pair (lower rung first), or the one solo bot."""
    deal: int
    seed: int
    """Bench seed."""


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


@dataclass(frozen=True, slots=True)
class SoloResult:
    bot: str
    score: Interval


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


def bot_specs(bots: Sequence[str] | None, budget: int | None) -> tuple[str, ...]:
    """The ladder to bench: ``bots`` (names or specs, weakest first) or the built-in one.

    ``budget`` sets the playouts of a plain ``mcts`` entry and the width (positions
    kept per searched turn) of a plain ``beam`` entry.
    """
    chosen = tuple(bots) if bots else LADDER
    if not chosen:
        raise ConfigError("--bots must name at least one bot")
    specs = []
    for text in chosen:
        spec = text.strip()
        if spec == "mcts" and budget is not None:
            spec = f"mcts:playouts={budget}"
        elif spec == "beam" and budget is not None:
            spec = f"beam:width={budget},solo_width={budget}"
        resolve_bot(spec, GAME_NAME)
        specs.append(spec)
    return tuple(specs)


@cache
def _spec(label: str) -> BotSpec:
    return resolve_bot(label, GAME_NAME)


@cache
def _rules(players: int) -> Any:
    return GAME.make_rules(players, {}, None, {})


def play(specs: Sequence[BotSpec], deal_seed: int, bot_seed: int) -> tuple[SeatOutcome, ...]:
    """One game with ``specs`` in seat order: a minimal loop that times each decision."""
    players = len(specs)
    rules = _rules(players)
    state = GAME.new_game(rules, deal_seed)
    bots = [spec.create() for spec in specs]
    for seat, bot in enumerate(bots):
        bot.new_game(GAME, seat, state)
    rngs = [random.Random(derive_seed("seat", bot_seed, seat)) for seat in range(players)]
    decisions = [0] * players
    seconds = [0.0] * players
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        if len(legal) == 1:
            action = legal[0]
        else:
            seat = GAME.current_player(state)
            start = time.perf_counter()
            action = bots[seat].choose(state, legal, rngs[seat])
            seconds[seat] += time.perf_counter() - start
            decisions[seat] += 1
            if action not in legal:
                raise RuntimeError(f"bot {specs[seat].label} chose an illegal action {action}")
        state = GAME.apply(state, action)
    result = GAME.result(state)
    share = 1.0 / len(result.winners) if result.winners else 0.0
    return tuple(
        SeatOutcome(
            result.scores[seat],
            share if seat in result.winners else 0.0,
            decisions[seat],
            seconds[seat],
        )
        for seat in range(players)
    )


def run_task(task: Task) -> TaskResult:
    """Play one task (in a worker process or inline)."""
    specs = [_spec(label) for label in task.labels]
    if len(specs) == 1:
        deal_seed = derive_seed("strength-solo", task.seed, task.deal)
        game = play(specs, deal_seed, derive_seed("strength-solo-bot", task.seed, task.deal))
        return TaskResult(task, (game,))
    deal_seed = derive_seed("strength-deal", task.seed, task.deal)
    games = []
    for swapped in (False, True):
        seats = specs[::-1] if swapped else specs
        bot_seed = derive_seed("strength-bot", task.seed, task.deal, *task.labels, int(swapped))
        outcome = play(seats, deal_seed, bot_seed)
        games.append(outcome[::-1] if swapped else outcome)
    return TaskResult(task, tuple(games))


def tasks_for(ladder: Sequence[str], games: int, solo_games: int, seed: int) -> list[Task]:
    """Every task of a bench, pairs first: deals of adjacent rungs, then solo games."""
    tasks = [
        Task((lower, upper), deal, seed)
        for lower, upper in itertools.pairwise(ladder)
        for deal in range(games)
    ]
    tasks += [Task((bot,), deal, seed) for bot in ladder for deal in range(solo_games)]
    return tasks


def execute(
    tasks: Sequence[Task],
    workers: int,
    progress: Callable[[int, int], None] | None = None,
) -> list[TaskResult]:
    """Run the tasks, in order, on ``workers`` processes (inline for 1)."""
    results: list[TaskResult] = []
    if workers <= 1:
        for task in tasks:
            results.append(run_task(task))
            if progress:
                progress(len(results), len(tasks))
        return results
    from multiprocess import Pool

    with Pool(workers) as pool:
        for result in pool.imap(run_task, tasks, chunksize=1):
            results.append(result)
            if progress:
                progress(len(results), len(tasks))
    return results


def summarize(
    ladder: Sequence[str], results: Sequence[TaskResult], seconds: float
) -> StrengthReport:
    """Intervals and costs from the task results."""
    from cgsim.stats import clip_unit, mean_interval

    pairs = []
    for lower, upper in itertools.pairwise(ladder):
        wins, diffs = [], []
        for r in results:
            if r.task.labels == (lower, upper):
                wins.append(sum(g[1].win for g in r.outcomes) / len(r.outcomes))
                diffs.append(sum(g[1].score - g[0].score for g in r.outcomes) / len(r.outcomes))
        pairs.append(PairResult(lower, upper, clip_unit(mean_interval(wins)), mean_interval(diffs)))
    solo = []
    for bot in ladder:
        scores = [r.outcomes[0][0].score for r in results if r.task.labels == (bot,)]
        if scores:
            solo.append(SoloResult(bot, mean_interval(scores)))
    costs = []
    for bot in ladder:
        decisions, spent = 0, 0.0
        for r in results:
            for game in r.outcomes:
                for label, outcome in zip(r.task.labels, game, strict=True):
                    if label == bot:
                        decisions += outcome.decisions
                        spent += outcome.seconds
        if decisions:
            costs.append(CostResult(bot, decisions, 1000.0 * spent / decisions))
    return StrengthReport(tuple(pairs), tuple(solo), tuple(costs), seconds)


def run_strength(
    bots: Sequence[str] | None = None,
    games: int = DEFAULT_GAMES,
    solo_games: int = DEFAULT_SOLO_GAMES,
    workers: int = 1,
    seed: int = 0,
    budget: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> StrengthReport:
    """Run the whole bench and summarise it."""
    if games < 0 or solo_games < 0:
        raise ConfigError("--games and --solo-games must be 0 or more")
    if workers < 1:
        raise ConfigError(f"--workers {workers} is not allowed; expected 1 or more")
    ladder = bot_specs(bots, budget)
    start = time.perf_counter()
    results = execute(tasks_for(ladder, games, solo_games, seed), workers, progress)
    return summarize(ladder, results, time.perf_counter() - start)


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
    """The bench's plain-text tables."""
    lines = ["2-player, seats swapped on each deal (95% interval over deal pairs):"]
    lines.append(f"  {'upper':<28} {'lower':<28} {'deals':>6}  {'upper win %':<22} score diff")
    for p in report.pairs:
        lines.append(
            f"  {p.upper:<28} {p.lower:<28} {p.win_rate.n:>6}  "
            f"{_fmt(p.win_rate, 100.0):<22} {_fmt(p.score_diff)}"
        )
    lines.append("solo game (mean score, 95% t interval):")
    for s in report.solo:
        lines.append(f"  {s.bot:<28} {s.score.n:>6} games  {_fmt(s.score)}")
    lines.append("cost per decision:")
    for c in report.costs:
        lines.append(f"  {c.bot:<28} {c.decisions:>9} decisions  {c.mean_ms:.3f} ms")
    lines.append(f"wall time: {report.seconds:.1f} s")
    return "\n".join(lines)
