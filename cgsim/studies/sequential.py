"""Sequential probability ratio tests on paired games: stop as soon as the evidence decides.

As in chess-engine testing, games are played in batches on paired deals for both
setups, and after each batch the generalised SPRT (normal approximation on the per-deal
differences of one metric, B minus A) is updated. The question is two-sided — did the
metric move up or down by a meaningful amount — so two one-sided tests run side by side,
each at ``alpha / 2``: "up" tests ``delta = +h0`` against ``delta = +h1`` and "down"
tests ``delta = -h0`` against ``delta = -h1``. A change is declared as soon as either
accepts its H1; "no meaningful change" once both have accepted H0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import polars as pl

from cgsim.errors import CgsimError
from cgsim.games.contract import Schema
from cgsim.games.registry import get_game
from cgsim.play.backend import prepare
from cgsim.play.config import RunConfig, with_overrides
from cgsim.play.pool import Batch, TaskSource, WorkerContext
from cgsim.play.schedules import plan_for
from cgsim.play.storage import TableSchemas
from cgsim.reporting.metrics import game_metrics
from cgsim.reporting.stats import FloatArray, gsprt_llr, pair_by_key, sprt_bounds

Decision = Literal["H0", "H1", "undecided"]
DECISION_TEXT = {
    "H0": "no meaningful change",
    "H1": "changed",
    "undecided": "undecided (game limit reached)",
}


class SprtSettingsError(CgsimError):
    """Sequential-test settings outside their allowed ranges."""


@dataclass(frozen=True, slots=True)
class SprtSettings:
    """What the test decides between, at which error rates, in which steps.

    ``h0``: the largest change that does not matter (``|delta| <= h0``); ``h1``: the
    smallest change that does (``|delta| >= h1``), both in the metric's units.
    ``alpha``: chance of declaring a change when there is none; ``beta``: chance of
    missing a change of ``h1``. ``batch``: games per side between looks;
    ``max_games``: games per side before giving up undecided.
    """

    metric: str = "mean_score"
    h0: float = 0.0
    h1: float = 1.0
    alpha: float = 0.05
    beta: float = 0.05
    batch: int = 100
    max_games: int = 10_000

    def __post_init__(self) -> None:
        if not (0.0 < self.alpha < 1.0 and 0.0 < self.beta < 1.0):
            raise SprtSettingsError(
                f"alpha = {self.alpha}, beta = {self.beta}: both must lie strictly between 0 and 1"
            )
        if not 0.0 <= self.h0 < self.h1 < math.inf:
            raise SprtSettingsError(
                f"h0 = {self.h0}, h1 = {self.h1}: need 0 <= h0 < h1 (tolerated change below "
                "the meaningful one)"
            )
        if self.batch < 1 or self.max_games < self.batch:
            raise SprtSettingsError(
                f"batch = {self.batch}, max games = {self.max_games}: need 1 <= batch <= max games"
            )


@dataclass(frozen=True, slots=True)
class SprtStep:
    """The state of a sequential test after a look."""

    games: int
    """Games per side so far."""
    pairs: int
    mean: float
    """Mean per-pair difference (B - A)."""
    llr_up: float
    llr_down: float
    decision: Decision | Literal["continue"]


class TwoSidedSprt:
    """Two one-sided GSPRTs on paired differences (see the module docstring)."""

    def __init__(self, settings: SprtSettings) -> None:
        self.settings = settings
        self.lower, self.upper = sprt_bounds(settings.alpha / 2.0, settings.beta)
        self.differences: list[float] = []
        self.accepted_h0 = {"up": False, "down": False}

    @property
    def bounds(self) -> tuple[float, float]:
        """The log-likelihood-ratio bounds ``(accept H0, accept H1)`` of each side."""
        return self.lower, self.upper

    def update(self, differences: Sequence[float] | FloatArray, games: int) -> SprtStep:
        """Add new per-pair differences and look again."""
        self.differences.extend(float(d) for d in np.asarray(differences, dtype=np.float64))
        x = np.asarray(self.differences, dtype=np.float64)
        s = self.settings
        llr_up = gsprt_llr(x, s.h0, s.h1)
        llr_down = gsprt_llr(x, -s.h0, -s.h1)
        decision: Decision | Literal["continue"] = "continue"
        if x.size >= 2:
            for side, llr in (("up", llr_up), ("down", llr_down)):
                if llr >= self.upper and not self.accepted_h0[side]:
                    decision = "H1"
                if llr <= self.lower:
                    self.accepted_h0[side] = True
            if decision != "H1" and all(self.accepted_h0.values()):
                decision = "H0"
        mean = float(x.mean()) if x.size else math.nan
        return SprtStep(games, int(x.size), mean, llr_up, llr_down, decision)


@dataclass
class SprtOutcome:
    """How a sequential test ended and the looks it took."""

    decision: Decision
    steps: list[SprtStep] = field(default_factory=list)
    bounds: tuple[float, float] = (0.0, 0.0)

    @property
    def games(self) -> int:
        """Games per side played."""
        return self.steps[-1].games if self.steps else 0

    def history(self) -> list[tuple[int, float, float]]:
        """``(games, llr_up, llr_down)`` per look, for plots."""
        return [(s.games, s.llr_up, s.llr_down) for s in self.steps]


def run_sequential(
    next_differences: Callable[[int, int], FloatArray],
    settings: SprtSettings,
    echo: Callable[[str], object] = lambda _: None,
) -> SprtOutcome:
    """Look after every batch until a decision or ``max_games``.

    ``next_differences(start, stop)`` plays (or reads) games ``start..stop-1`` of both
    setups and returns their new per-pair differences.
    """
    test = TwoSidedSprt(settings)
    outcome = SprtOutcome("undecided", bounds=test.bounds)
    done = 0
    while done < settings.max_games:
        stop = min(done + settings.batch, settings.max_games)
        step = test.update(next_differences(done, stop), stop)
        done = stop
        outcome.steps.append(step)
        echo(
            f"games {step.games:>6}  pairs {step.pairs:>6}  mean diff {step.mean:+.4g}  "
            f"LLR up {step.llr_up:+.3f}  down {step.llr_down:+.3f}  "
            f"bounds [{test.lower:.3f}, {test.upper:.3f}]"
        )
        if step.decision != "continue":
            outcome.decision = step.decision
            break
    return outcome


class GameBatches:
    """Plays chosen games of a config's plan in worker processes and returns their tables
    (nothing is written to disk): the engine of sequential tests and tuning."""

    def __init__(self, config: RunConfig, workers: int | None = None) -> None:
        self.config = config
        self.plan = plan_for(config, "run" if config.seats else "tournament")
        self.game = get_game(config.game)
        self.schemas = TableSchemas.from_schema(self.game.schema(self.plan.rules))
        context = WorkerContext(
            config.game, self.plan.rules, self.plan.bots, False, config.time_limit
        )
        place = prepare(with_overrides(config, {"workers": workers or config.workers}), context)
        games = len(self.plan.schedule)
        self.workers = place.workers(games)
        self.pool = place.pool(context, games)

    def __enter__(self) -> GameBatches:
        self.pool.__enter__()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.pool.__exit__(None, None, None)

    @property
    def block_size(self) -> int:
        """Games per deal block: batches of whole blocks keep the pairs complete."""
        schedule = self.plan.schedule
        seatings = getattr(schedule, "seatings", None)
        return len(seatings) if seatings is not None else 1

    @property
    def schema(self) -> Schema:
        """The game's declared columns under this config's rules."""
        return self.game.schema(self.plan.rules)

    def metrics(self, tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
        """The per-game measures of tables this config played (see ``game_metrics``)."""
        return game_metrics(tables["games"], tables["seats"], self.schema)

    def play(self, start: int, stop: int) -> dict[str, pl.DataFrame]:
        """Games ``start..stop-1`` of the plan as tables (``games``, ``seats``, ...)."""
        stop = min(stop, len(self.plan.schedule))
        batch = Batch()
        source = TaskSource(self.plan.schedule, [range(start, stop)], self.workers)
        for part in self.pool.results(source):
            batch.extend(part)
        frames = {"games": self.schemas.frame("games", batch.games)}
        frames["seats"] = self.schemas.frame("seats", batch.seats)
        for name, rows in batch.tables.items():
            if rows.count:
                frames[name] = self.schemas.frame(name, rows)
        return frames


def metric_differences(ma: pl.DataFrame, mb: pl.DataFrame, metric: str) -> FloatArray:
    """Per shared deal: B's mean of ``metric`` minus A's, from each side's per-game
    measures (``cgsim.reporting.metrics.game_metrics``)."""
    if metric not in ma.columns or metric not in mb.columns:
        known = sorted(set(ma.columns) & set(mb.columns) - {"game_id", "block", "seed", "players"})
        raise SprtSettingsError(f"--metric {metric!r}: unknown; available: {', '.join(known)}")
    ma, mb = ma.filter(pl.col(metric).is_not_null()), mb.filter(pl.col(metric).is_not_null())
    x, y = pair_by_key(
        mb["seed"].to_numpy(), mb[metric].to_numpy(), ma["seed"].to_numpy(), ma[metric].to_numpy()
    )
    differences: FloatArray = x - y
    return differences


@dataclass
class PairedRun:
    """A finished sequential comparison: the outcome and every game played, per side."""

    outcome: SprtOutcome
    tables_a: dict[str, pl.DataFrame]
    tables_b: dict[str, pl.DataFrame]


def _concat(parts: list[dict[str, pl.DataFrame]]) -> dict[str, pl.DataFrame]:
    names = dict.fromkeys(name for part in parts for name in part)
    return {
        name: pl.concat([p[name] for p in parts if name in p], how="diagonal_relaxed")
        for name in names
    }


def whole_blocks(games: int, block: int) -> int:
    """``games`` rounded down to whole deal blocks (at least one block), so every look
    sees complete pairs."""
    return max(block, games - games % block)


def _rounded(settings: SprtSettings, block: int) -> SprtSettings:
    batch = whole_blocks(settings.batch, block)
    top = max(batch, whole_blocks(settings.max_games, block))
    return SprtSettings(
        settings.metric, settings.h0, settings.h1, settings.alpha, settings.beta, batch, top
    )


def sprt_compare(
    config_a: RunConfig,
    config_b: RunConfig,
    settings: SprtSettings,
    *,
    workers: int | None = None,
    echo: Callable[[str], object] = lambda _: None,
) -> PairedRun:
    """Play both configs on the same seeds, batch by batch, until the test decides.

    Both sides use A's run seed, so game ``i`` of each is dealt alike (common random
    numbers). Batches are rounded to whole deal blocks.
    """
    a = with_overrides(config_a, {"games": settings.max_games})
    b = with_overrides(config_b, {"games": settings.max_games, "seed": config_a.seed})
    parts_a: list[dict[str, pl.DataFrame]] = []
    parts_b: list[dict[str, pl.DataFrame]] = []
    with GameBatches(a, workers) as side_a, GameBatches(b, workers) as side_b:
        settings = _rounded(settings, max(side_a.block_size, side_b.block_size))

        def differences(start: int, stop: int) -> FloatArray:
            parts_a.append(side_a.play(start, stop))
            parts_b.append(side_b.play(start, stop))
            return metric_differences(
                side_a.metrics(parts_a[-1]), side_b.metrics(parts_b[-1]), settings.metric
            )

        outcome = run_sequential(differences, settings, echo)
    return PairedRun(outcome, _concat(parts_a), _concat(parts_b))
