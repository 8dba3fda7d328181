"""Tuning rule settings toward a designer's targets by a noise-aware search.

A config marks settings as free and names targets::

    [tune]
    games = 40          # games per candidate in the first round (doubled every round)
    rounds = 4
    candidates = 16     # candidates drawn from the grid when it is larger
    seed = 1            # draws the candidates

    [tune.free]
    cat_limit = {min = 1, max = 3}      # integer range (optional step)
    start_cats = [0, 1, 2, 3]           # or a list of choices

    [tune.targets]
    seat_fairness = {target = 0.0, tolerance = 0.02}   # every seat within 2 points of fair
    turns = 60                                         # a bare number: target, no tolerance
    margin = {target = 5, tolerance = 1, weight = 2}

The search is successive halving (a racing bandit): every surviving candidate plays the
same next games (common random numbers, so candidates are compared on equal deals),
losses are computed on all games each has played, the better half survives, and the
games per candidate double each round, so noise shrinks where it matters. The loss is
``sum(weight * (max(0, |value - target| - tolerance) / scale) ** 2)`` with ``scale`` the
tolerance (1 when it is 0) unless given. Metric names are those of
:func:`cgsim.reporting.metrics.game_metrics` plus ``seat_fairness``. Same seed, same search.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from cgsim.errors import CgsimError, ConfigError
from cgsim.games.contract import Schema
from cgsim.games.registry import get_game
from cgsim.play.config import RunConfig, config_error, resolve_rules, with_overrides
from cgsim.play.limits import MAX_GAMES, MAX_SEED
from cgsim.reporting.metrics import metric_values, summarize_metrics
from cgsim.reporting.pages import Page, PageSection, PageTable, write_page
from cgsim.studies.sequential import GameBatches

MAX_GRID = 100_000
"""Points of the grid of free values (candidates are drawn from it)."""

Candidate = dict[str, Any]
Evaluate = Callable[[Candidate, int, int], pl.DataFrame]
"""Plays games ``start..stop-1`` of a candidate and returns their per-game measures."""


class TuneError(CgsimError):
    """A tuning declaration that cannot be searched."""


class FreeRange(BaseModel):
    """An integer range ``min..max`` by ``step``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    min: int
    max: int
    step: int = Field(default=1, ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> FreeRange:
        if self.max < self.min:
            raise ValueError(f"max ({self.max}) is below min ({self.min})")
        count = (self.max - self.min) // self.step + 1
        if count > MAX_GRID:
            raise ValueError(f"{count:,} values; allowed at most {MAX_GRID:,}: raise step")
        return self

    def values(self) -> list[int]:
        return list(range(self.min, self.max + 1, self.step))


class Target(BaseModel):
    """What a metric should be, how far off is fine, and how much it counts."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    target: float
    tolerance: float = Field(default=0.0, ge=0)
    weight: float = Field(default=1.0, gt=0)
    scale: float | None = Field(default=None, gt=0)

    def loss(self, value: float) -> float:
        """The squared scaled excess over the tolerance (inf when the value is missing)."""
        if value is None or math.isnan(value):
            return math.inf
        scale = self.scale or (self.tolerance if self.tolerance > 0 else 1.0)
        excess = max(0.0, abs(value - self.target) - self.tolerance) / scale
        return self.weight * excess * excess


def _target(value: Any) -> Any:
    return (
        {"target": value}
        if isinstance(value, int | float) and not isinstance(value, bool)
        else value
    )


class TuneSpec(BaseModel):
    """The ``[tune]`` table of a config, validated."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    games: int = Field(default=40, ge=1, le=MAX_GAMES // 2**12)
    rounds: int = Field(default=4, ge=1, le=12)
    candidates: int = Field(default=16, ge=1, le=1000)
    seed: int = Field(default=1, ge=0, le=MAX_SEED)
    free: dict[str, FreeRange | list[Any]]
    targets: dict[str, Target]

    @model_validator(mode="before")
    @classmethod
    def _bare_targets(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("targets"), dict):
            data = {**data, "targets": {k: _target(v) for k, v in data["targets"].items()}}
        return data

    @model_validator(mode="after")
    def _not_empty(self) -> TuneSpec:
        if not self.free:
            raise ValueError("tune.free: name at least one rule setting to search")
        if not self.targets:
            raise ValueError("tune.targets: name at least one metric target")
        for key, choices in self.free.items():
            if isinstance(choices, list) and not choices:
                raise ValueError(f"tune.free.{key}: an empty list of choices")
        size = math.prod(len(values) for values in self.grid().values())
        if size > MAX_GRID:
            raise ValueError(f"tune.free: {size:,} grid points; allowed at most {MAX_GRID:,}")
        return self

    def grid(self) -> dict[str, list[Any]]:
        """Every free setting's values."""
        return {
            k: v.values() if isinstance(v, FreeRange) else list(v) for k, v in self.free.items()
        }


def tune_spec(config: RunConfig) -> TuneSpec:
    """The config's ``[tune]`` table validated (``ConfigError`` naming the bad field)."""
    if not config.tune:
        raise TuneError(f"{config.name}: no [tune] table; add [tune.free] and [tune.targets]")
    try:
        return TuneSpec.model_validate(config.tune)
    except ValidationError as error:
        raise config_error(error, f"{config.name}: tune", TuneSpec) from None


def candidates_of(spec: TuneSpec) -> list[Candidate]:
    """The grid of free values, or ``spec.candidates`` of its points drawn with the seed."""
    grid = spec.grid()
    points = [dict(zip(grid, combo, strict=True)) for combo in itertools.product(*grid.values())]
    if len(points) <= spec.candidates:
        return points
    chosen = sorted(random.Random(spec.seed).sample(range(len(points)), spec.candidates))
    return [points[i] for i in chosen]


def candidate_label(candidate: Mapping[str, Any]) -> str:
    """``cat_limit=2, start_cats=1``."""
    return ", ".join(f"{k}={v}" for k, v in candidate.items())


def total_loss(values: Mapping[str, float], targets: Mapping[str, Target]) -> float:
    """The loss of measured values against every target (see the module docstring)."""
    return sum(target.loss(values.get(name, math.nan)) for name, target in targets.items())


@dataclass
class TuneResult:
    """The best candidate, its measures on all its games, and the path of the search."""

    best: Candidate
    best_summary: pl.DataFrame
    path: pl.DataFrame
    """round, candidate, games, loss, kept (one row per candidate per round)."""
    observations: dict[str, pl.DataFrame] = field(default_factory=dict)


def successive_halving(
    candidates: Sequence[Candidate],
    evaluate: Evaluate,
    targets: Mapping[str, Target],
    *,
    games: int,
    rounds: int,
    schema: Schema,
    echo: Callable[[str], object] = lambda _: None,
) -> TuneResult:
    """Race the candidates: each round every survivor plays the next games (the same ids
    for all), the better half by loss on all games so far survives, games double.
    ``schema`` is the game's: it says which measures are proportions."""
    if not candidates:
        raise TuneError("tune: no candidates to search")
    alive = list(range(len(candidates)))
    seen: dict[int, list[pl.DataFrame]] = {i: [] for i in alive}
    path_rows: list[dict[str, Any]] = []
    played = 0
    losses: dict[int, float] = {}
    for round_index in range(rounds):
        batch = games * 2**round_index
        for i in alive:
            seen[i].append(evaluate(candidates[i], played, played + batch))
            frame = pl.concat(seen[i], how="diagonal_relaxed")
            values = metric_values(summarize_metrics(frame, schema))
            losses[i] = total_loss(values, targets)
        played += batch
        ranked = sorted(alive, key=lambda i: (losses[i], i))
        keep = ranked if round_index == rounds - 1 else ranked[: max(1, math.ceil(len(ranked) / 2))]
        for i in alive:
            path_rows.append(
                {
                    "round": round_index + 1,
                    "candidate": candidate_label(candidates[i]),
                    "games": played,
                    "loss": losses[i],
                    "kept": i in keep,
                }
            )
        echo(
            f"round {round_index + 1}: {len(alive)} candidates x {played} games; best "
            f"{candidate_label(candidates[ranked[0]])} (loss {losses[ranked[0]]:.4g})"
        )
        alive = keep
        if len(alive) == 1:
            break
    best = min(alive, key=lambda i: (losses[i], i))
    frame = pl.concat(seen[best], how="diagonal_relaxed")
    return TuneResult(
        best=dict(candidates[best]),
        best_summary=summarize_metrics(frame, schema),
        path=pl.DataFrame(path_rows),
        observations={candidate_label(candidates[best]): frame},
    )


def candidate_config(config: RunConfig, candidate: Mapping[str, Any]) -> RunConfig:
    """The config with a candidate's rule values (checked by the game's rules)."""
    point = with_overrides(
        config, {"rules": {**config.rules, **candidate}, "sweep": {}, "tune": {}}
    )
    try:
        resolve_rules(point)
    except ConfigError as error:
        raise ConfigError(f"tune candidate {candidate_label(candidate)}: {error}") from None
    return point


def tune_config(
    config: RunConfig,
    *,
    workers: int | None = None,
    echo: Callable[[str], object] = lambda _: None,
) -> TuneResult:
    """Search the config's free settings toward its targets by playing games."""
    spec = tune_spec(config)
    candidates = candidates_of(spec)
    total = spec.games * (2**spec.rounds - 1)
    configs = [candidate_config(with_overrides(config, {"games": total}), c) for c in candidates]
    unknown = _unknown_targets(configs[0], spec)
    if unknown:
        raise TuneError(unknown)

    def evaluate(candidate: Candidate, start: int, stop: int) -> pl.DataFrame:
        point = configs[candidates.index(candidate)]
        with GameBatches(point, workers) as batches:
            return batches.metrics(batches.play(start, stop))

    echo(f"tune {config.name}: {len(candidates)} candidates, up to {spec.rounds} rounds")
    schema = get_game(config.game).schema(resolve_rules(configs[0]))
    return successive_halving(
        candidates,
        evaluate,
        spec.targets,
        games=spec.games,
        rounds=spec.rounds,
        schema=schema,
        echo=echo,
    )


def _unknown_targets(config: RunConfig, spec: TuneSpec) -> str:
    """A message naming targets no game of this config can measure ('' when all fine)."""
    with GameBatches(with_overrides(config, {"games": 1}), 1) as batches:
        metrics = batches.metrics(batches.play(0, 1))
        known = set(summarize_metrics(metrics, batches.schema)["metric"])
    known.add("seat_fairness")
    bad = sorted(set(spec.targets) - known)
    if not bad:
        return ""
    return f"tune.targets.{bad[0]}: unknown metric; available: {', '.join(sorted(known))}"


def write_tune_report(
    config: RunConfig, spec: TuneSpec, result: TuneResult, out_dir: Path
) -> dict[str, Path]:
    """tune.md, tune.html, tune_path.csv, tune_best.csv and the search-path plot."""
    # Deferred: loads matplotlib, which most commands never need.
    from cgsim.reporting.studyplots import plot_search_path

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"path_csv": out_dir / "tune_path.csv", "best_csv": out_dir / "tune_best.csv"}
    result.path.write_csv(paths["path_csv"])
    result.best_summary.write_csv(paths["best_csv"])
    paths["plot"] = plot_search_path(result.path, out_dir / "tune_path.png")
    targets = pl.DataFrame(
        [
            {"metric": name, "target": t.target, "tolerance": t.tolerance, "weight": t.weight}
            for name, t in spec.targets.items()
        ]
    )
    best_targets = targets.join(result.best_summary, on="metric", how="left").select(
        "metric", "target", "tolerance", "estimate", "low", "high", "games"
    )
    intro = (
        f"Successive halving over {result.path.filter(pl.col('round') == 1).height} candidates "
        f"of {', '.join(spec.free)} (run seed {config.seed}, candidate seed {spec.seed}); "
        f"best: {candidate_label(result.best)}."
    )
    sections = [
        PageSection("Best settings against the targets", tables=[PageTable(best_targets)]),
        PageSection(
            "Search path",
            tables=[PageTable(result.path, "tune_path.csv")],
            plots=[paths["plot"]],
        ),
        PageSection(
            "Every metric of the best settings",
            tables=[PageTable(result.best_summary, "tune_best.csv")],
        ),
    ]
    page = Page(f"Tuning: {config.name}", text=[intro], sections=sections)
    paths["markdown"], paths["html"] = write_page(page, out_dir, "tune")
    return paths
