"""Sweeps: play a config at every point of a grid of rule settings and components.

A config declares its grid in a ``[sweep]`` table, each key a rule setting (or
``components``, a list of component files) with the list of values to try::

    [sweep]
    cat_limit = [1, 2, 3]
    components = ["default.toml", "variant.toml"]

Every grid point is the config with those values, played with the config's own run
seed and game count, so all points are dealt the same games (common random numbers)
and their differences are the settings', not the deals'. Point ``p`` is written to
``<out>/<name>/<p>/`` like any run (resumable), and the sweep report
(``sweep.md``, ``sweep.html``, ``sweep.csv``, ``plots/``) to ``<out>/<name>/``.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from cgsim.errors import CgsimError, ConfigError
from cgsim.games.contract import Breakdown, Schema
from cgsim.games.registry import get_game
from cgsim.play.config import RunConfig, resolve_rules, with_overrides
from cgsim.play.results import MANIFEST, load_tables, read_manifest
from cgsim.play.runner import RunResult, run_games
from cgsim.play.schedules import plan_for
from cgsim.reporting.metrics import GAME_MEASURES, game_metrics, schema_of, summarize_metrics
from cgsim.reporting.pages import Page, PageSection, PageTable, write_page

COMPONENTS_KEY = "components"
MAX_POINTS = 500
KEY_METRICS = ("seat_fairness", "seat0_win_rate", "mean_score", "margin", "tie_rate", "turns")
"""Metrics of every game plotted against every parameter (all metrics are in the tables)."""
_SAFE = re.compile(r"^[A-Za-z0-9._-]+$")


class SweepError(CgsimError):
    """A sweep that cannot be played (no grid, or a bad grid)."""


@dataclass(frozen=True)
class SweepPoint:
    """One grid point: its folder name, its values and the config that plays it."""

    name: str
    values: dict[str, Any]
    config: RunConfig


def _value_text(key: str, value: Any) -> str:
    if key == COMPONENTS_KEY:
        return Path(str(value)).stem
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return text if _SAFE.match(text) else ""


def sweep_dir(config: RunConfig) -> Path:
    """Where a sweep writes: ``<out>/<name>``."""
    return config.out / config.name


def expand_sweep(
    config: RunConfig, grid: Mapping[str, Sequence[Any]] | None = None
) -> list[SweepPoint]:
    """Every point of the grid (``config.sweep`` by default), in row-major order of the
    keys as declared, each checked by the game's rules (``ConfigError`` naming it)."""
    grid = dict(config.sweep if grid is None else grid)
    if not grid:
        raise SweepError(f"{config.name}: no [sweep] table; add e.g. [sweep] cat_limit = [1, 2, 3]")
    for key, choices in grid.items():
        if not isinstance(choices, list | tuple) or not choices:
            raise ConfigError(f"sweep.{key} = {choices!r}: expected a non-empty list of values")
    size = math.prod(len(v) for v in grid.values())
    if size > MAX_POINTS:
        raise SweepError(f"sweep: {size} grid points; at most {MAX_POINTS} are allowed")
    keys = list(grid)
    points = []
    for combination in itertools.product(*(range(len(grid[k])) for k in keys)):
        values: dict[str, Any] = {k: grid[k][i] for k, i in zip(keys, combination, strict=True)}
        parts = []
        for k, i in zip(keys, combination, strict=True):
            text = _value_text(k, values[k])
            parts.append(f"{k}-{text}" if text else f"{k}-{i}")
        name = "__".join(parts)
        rules = {**config.rules, **{k: v for k, v in values.items() if k != COMPONENTS_KEY}}
        overrides: dict[str, Any] = {
            "name": name,
            "out": sweep_dir(config),
            "rules": rules,
            "sweep": {},
            "tune": {},
        }
        if COMPONENTS_KEY in values:
            overrides[COMPONENTS_KEY] = Path(str(values[COMPONENTS_KEY]))
        point = with_overrides(config, overrides)
        if point.components is not None and not point.components.is_file():
            raise ConfigError(f"sweep.components: {str(point.components)!r}: file not found")
        try:
            resolve_rules(point)
        except ConfigError as error:
            raise ConfigError(f"sweep point {name}: {error}") from None
        points.append(SweepPoint(name, values, point))
    return points


def run_sweep(
    config: RunConfig,
    *,
    fresh: bool = False,
    progress: bool | None = None,
    echo: Callable[[str], object] = lambda _: None,
) -> list[tuple[SweepPoint, RunResult]]:
    """Play every grid point (resuming points already played) and return their results."""
    points = expand_sweep(config)
    done = []
    for index, point in enumerate(points, start=1):
        echo(f"[{index}/{len(points)}] {point.name}")
        result = run_games(
            point.config, plan_for(point.config, "run"), fresh=fresh, progress=progress
        )
        done.append((point, result))
        if result.status != "complete":
            break
    return done


def key_metrics(schema: Schema) -> tuple[str, ...]:
    """The metrics plotted against every parameter: :data:`KEY_METRICS`, the game's declared
    per-game measures and rates, and its economy (what rule changes usually move)."""
    own = schema.with_breakdown("games", *GAME_MEASURES)
    return (*KEY_METRICS, *own, *schema.with_breakdown("seats", Breakdown.ECONOMY))


def sweep_table(points: Sequence[SweepPoint], results_dirs: Sequence[Path]) -> pl.DataFrame:
    """Long table: one row per point and metric with the point's values, the metric's mean
    and its 95% block interval."""
    parts = []
    for point, folder in zip(points, results_dirs, strict=True):
        tables = load_tables(folder)
        schema = schema_of(read_manifest(folder), str(folder / MANIFEST))
        summary = summarize_metrics(game_metrics(tables["games"], tables["seats"], schema), schema)
        values = {k: _value_text(k, v) or str(v) for k, v in point.values.items()}
        parts.append(
            summary.select(
                pl.lit(point.name).alias("point"),
                *[pl.lit(v).alias(k) for k, v in values.items()],
                pl.all(),
            )
        )
    return pl.concat(parts, how="diagonal_relaxed")


def _series(
    table: pl.DataFrame, metric: str, key: str, keys: Sequence[str]
) -> dict[str, pl.DataFrame]:
    """Lines of ``metric`` against ``key``: one per setting of the other keys."""
    rows = table.filter(pl.col("metric") == metric)
    others = [k for k in keys if k != key]
    if not others:
        return {metric: rows.select(key, "estimate", "low", "high")}
    lines = {}
    for group, part in rows.partition_by(others, as_dict=True, maintain_order=True).items():
        label = ", ".join(f"{k}={v}" for k, v in zip(others, group, strict=True))
        lines[label] = part.select(key, "estimate", "low", "high")
    return lines


def write_sweep_report(config: RunConfig, table: pl.DataFrame, out_dir: Path) -> dict[str, Path]:
    """sweep.csv (every metric), sweep.md and a self-contained sweep.html: per metric a
    table of the grid, and plots of the key metrics against each parameter."""
    # Deferred: loads matplotlib, which most commands never need.
    from cgsim.reporting.studyplots import plot_metric_lines

    keys = list(config.sweep)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out_dir / "sweep.csv"}
    table.write_csv(paths["csv"])
    metrics = table["metric"].unique(maintain_order=True).to_list()
    plotted = key_metrics(get_game(config.game).schema(resolve_rules(config)))
    plots = []
    for key in keys:
        for metric in [m for m in plotted if m in metrics]:
            path = out_dir / "plots" / f"{metric}-vs-{key}.png"
            plots.append(
                plot_metric_lines(
                    _series(table, metric, key, keys),
                    key,
                    "estimate",
                    path,
                    title=f"{metric} against {key}",
                    ylabel=metric,
                )
            )
    intro = (
        f"Sweep of {config.name}: {table['point'].n_unique()} grid points over "
        f"{', '.join(keys)}, each {config.games} games on the same seeds (run seed "
        f"{config.seed}). Means with 95% block intervals."
    )
    sections = [
        PageSection(
            metric,
            tables=[
                PageTable(
                    table.filter(pl.col("metric") == metric).select(
                        *keys, "games", "estimate", "low", "high"
                    )
                )
            ],
        )
        for metric in metrics
    ]
    if plots:
        sections.append(PageSection("Key metrics against each parameter", plots=plots))
    page = Page(f"Sweep: {config.name}", text=[intro], sections=sections)
    paths["markdown"], paths["html"] = write_page(page, out_dir, "sweep")
    return paths
