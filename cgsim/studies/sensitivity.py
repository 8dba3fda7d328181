"""Sensitivity: which rule setting (knob) moves which outcome, one step at a time.

Every numeric rule setting (or those the config's ``[sensitivity] knobs`` lists) is
played one step below and one step above the base, with the base config's run seed
and game count, so every point plays the same deals (common random numbers) and each
change is a paired difference against the base: ``compare`` measures it metric by
metric. Holm's procedure runs over every metric, knob and direction of the study, so
the chance that a study of knobs that do nothing flags anything is at most ``alpha``. The knobs
that move the key metrics most (largest change in standard errors) are then played in
pairs, both stepped up together, and each pair's interaction is the per-deal contrast
``f(both) - f(first) - f(second) + f(base)`` with its t interval: zero when the two
knobs' effects add up.

A config may say::

    [sensitivity]
    knobs = ["cat_limit", "ramble_cost"]   # default: every numeric setting
    steps = { final_value = 2 }            # default 1 (integers), 10% (decimals)
    interactions = 3                       # top knobs played in pairs (0: none)

Points are runs in ``<out>/<name>/<point>/`` (resumable); the report is
``sensitivity.md``, ``.html``, ``sensitivity.csv``, ``interactions.csv`` and one
tornado plot per key metric.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from scipy import stats as sps

from cgsim.errors import CgsimError, ConfigError
from cgsim.games.registry import get_game
from cgsim.play.config import RunConfig, resolve_rules, with_overrides
from cgsim.play.results import MANIFEST, load_tables, read_manifest
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for
from cgsim.reporting.metrics import schema_of
from cgsim.reporting.pages import Page, PageSection, PageTable, write_page
from cgsim.reporting.stats import holm_adjust, mean_interval, pair_by_key
from cgsim.studies.compare import Side, compare_sides
from cgsim.studies.sweep import key_metrics

Echo = Callable[[str], Any]
SETTINGS = frozenset({"knobs", "steps", "interactions"})
DEFAULT_INTERACTIONS = 3
MAX_KNOBS = 60
SKIPPED = frozenset({"players"})
"""Numbers of the resolved rules that are not knobs (the player count is the setup)."""


class SensitivityError(CgsimError):
    """A sensitivity study that cannot be played."""


@dataclass(frozen=True, slots=True)
class Point:
    """One played setting: its folder name, the knobs changed and the config."""

    name: str
    changes: dict[str, Any]
    config: RunConfig


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _settings(config: RunConfig) -> dict[str, Any]:
    settings = dict(config.sensitivity)
    unknown = sorted(set(settings) - SETTINGS)
    if unknown:
        raise ConfigError(
            f"sensitivity.{unknown[0]}: unknown key; allowed: {', '.join(sorted(SETTINGS))}"
        )
    return settings


def knob_steps(config: RunConfig) -> dict[str, tuple[Any, Any]]:
    """Every knob with its base value and step (numeric settings of the resolved rules,
    or the config's list), checked."""
    settings = _settings(config)
    base = get_game(config.game).rules_dict(resolve_rules(config))
    numeric = [k for k, v in base.items() if _numeric(v) and k not in SKIPPED]
    knobs = settings.get("knobs", numeric)
    if not isinstance(knobs, list) or not all(isinstance(k, str) for k in knobs) or not knobs:
        raise ConfigError(f"sensitivity.knobs = {knobs!r}: expected a non-empty list of names")
    if len(knobs) > MAX_KNOBS:
        raise SensitivityError(f"sensitivity: {len(knobs)} knobs; at most {MAX_KNOBS}")
    for knob in knobs:
        if knob not in numeric:
            raise ConfigError(
                f"sensitivity.knobs: {knob!r} is not a numeric rule setting of {config.game}; "
                f"numeric settings: {', '.join(numeric)}"
            )
    steps = settings.get("steps", {})
    if not isinstance(steps, dict) or not all(_numeric(v) and v > 0 for v in steps.values()):
        raise ConfigError(f"sensitivity.steps = {steps!r}: expected a table of positive numbers")
    for knob in steps:
        if knob not in knobs:
            raise ConfigError(f"sensitivity.steps.{knob}: not one of the knobs studied")
    found = {}
    for knob in knobs:
        value = base[knob]
        default = 1 if isinstance(value, int) else (abs(value) * 0.1 or 0.1)
        found[knob] = (value, steps.get(knob, default))
    return found


def _point(config: RunConfig, changes: Mapping[str, Any], name: str) -> Point | None:
    """The config with ``changes``, or None when the game refuses a value (out of range)."""
    point = with_overrides(
        config,
        {
            "name": name,
            "out": config.out / config.name,
            "rules": {**config.rules, **changes},
            "sweep": {},
            "tune": {},
            "sensitivity": {},
        },
    )
    try:
        resolve_rules(point)
    except ConfigError:
        return None
    return Point(name, dict(changes), point)


def _value_name(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def one_step_points(config: RunConfig) -> tuple[Point, list[tuple[str, str, Point | None]]]:
    """The base point and, per knob, the point one step down and one up (None where the
    game's range ends)."""
    base = _point(config, {}, "base")
    if base is None:
        raise SensitivityError(f"{config.name}: the base rules are refused by the game")
    points = []
    for knob, (value, step) in knob_steps(config).items():
        for direction, sign in (("down", -1), ("up", 1)):
            moved = value + sign * step
            if isinstance(value, float):
                moved = round(moved, 12)
            points.append(
                (knob, direction, _point(config, {knob: moved}, f"{knob}-{_value_name(moved)}"))
            )
    return base, points


def play(point: Point, fresh: bool, progress: bool | None) -> Side:
    """Play a point (resuming) and read it as a comparison side."""
    result = run_games(point.config, plan_for(point.config, "run"), fresh=fresh, progress=progress)
    if result.status != "complete":
        raise SensitivityStopped(point.name, result.status)
    folder = result.results_dir
    schema = schema_of(read_manifest(folder), str(folder / MANIFEST))
    return Side.of(point.name, load_tables(folder), schema)


class SensitivityStopped(Exception):
    """A point's run stopped before its last game (interrupted, or a bot error)."""

    def __init__(self, point: str, status: str) -> None:
        super().__init__(f"{point}: {status}")
        self.point = point
        self.status = status


def effects_table(
    base: Side,
    moved: Sequence[tuple[str, str, Any, Side]],
    metrics: Sequence[str],
    alpha: float = 0.05,
) -> pl.DataFrame:
    """Per metric, knob and direction: the base and moved means, the paired difference
    with its 95% interval, the p-value, Holm over the whole study (every metric, knob
    and direction: a null study flags nothing at ``alpha`` family-wise), and the verdict."""
    rows = []
    for knob, direction, value, side in moved:
        table = compare_sides(base, side, alpha=alpha).filter(pl.col("metric").is_in(metrics))
        for row in table.iter_rows(named=True):
            se = (
                (row["high"] - row["low"]) / (2 * 1.96)
                if row["low"] is not None and row["high"] is not None
                else math.nan
            )
            rows.append(
                {
                    "metric": row["metric"],
                    "knob": knob,
                    "direction": direction,
                    "value": str(value),
                    "base": row["a"],
                    "moved": row["b"],
                    "difference": row["difference"],
                    "low": row["low"],
                    "high": row["high"],
                    "z": None if not se > 0 else row["difference"] / se,
                    "n": row["n"],
                    "p_value": row["p_value"],
                }
            )
    table = pl.DataFrame(rows, infer_schema_length=None)
    if table.is_empty():
        return table
    adjusted = holm_adjust(table["p_value"].fill_null(math.nan).to_numpy())
    changed = np.nan_to_num(adjusted, nan=2.0) < alpha
    return table.with_columns(
        pl.Series("p_holm", adjusted).fill_nan(None),
        pl.Series("verdict", np.where(changed, "changed", "no change").tolist()),
    )


def top_knobs(effects: pl.DataFrame, count: int) -> list[str]:
    """The knobs with the largest change (in standard errors) over every metric."""
    if effects.is_empty() or count <= 0:
        return []
    ranked = (
        effects.filter(pl.col("z").is_not_null())
        .group_by("knob", maintain_order=True)
        .agg(pl.col("z").abs().max().alias("largest"))
        .sort("largest", descending=True, maintain_order=True)
    )
    return ranked["knob"].head(count).to_list()


def _per_deal(side: Side, metric: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    part = side.metrics.filter(pl.col(metric).is_not_null())
    return part["seed"].to_numpy(), part[metric].to_numpy()


def interaction_rows(
    first: str,
    second: str,
    sides: tuple[Side, Side, Side, Side],
    metrics: Sequence[str],
) -> list[dict[str, Any]]:
    """Per metric: the per-deal contrast ``both - first - second + base`` (paired on the
    deals all four points played), its mean, 95% t interval and p-value."""
    base, one, two, both = sides
    rows = []
    for metric in metrics:
        if any(metric not in side.metrics.columns for side in sides):
            continue
        seeds_base, values_base = _per_deal(base, metric)
        columns = []
        for side in (one, two, both):
            seeds, values = _per_deal(side, metric)
            mine, theirs = pair_by_key(seeds, values, seeds_base, values_base)
            columns.append((mine, theirs))
        sizes = {c[0].size for c in columns}
        if len(sizes) != 1 or sizes.pop() < 2:
            continue
        contrast = columns[2][0] - columns[0][0] - columns[1][0] + columns[0][1]
        interval = mean_interval(contrast)
        sd = float(np.std(contrast, ddof=1))
        p_value = (
            1.0
            if sd == 0.0
            else float(
                2
                * sps.t.sf(
                    abs(interval.estimate) / (sd / math.sqrt(contrast.size)), contrast.size - 1
                )
            )
        )
        rows.append(
            {
                "metric": metric,
                "first": first,
                "second": second,
                "interaction": interval.estimate,
                "low": interval.low,
                "high": interval.high,
                "n": contrast.size,
                "p_value": p_value,
            }
        )
    return rows


def with_holm(table: pl.DataFrame, alpha: float) -> pl.DataFrame:
    """Holm over each metric's pairs, and the verdict."""
    if table.is_empty():
        return table
    parts = []
    for part in table.partition_by("metric", maintain_order=True):
        adjusted = holm_adjust(part["p_value"].to_numpy())
        verdict = np.where(adjusted < alpha, "interact", "add up").tolist()
        parts.append(
            part.with_columns(pl.Series("p_holm", adjusted), pl.Series("verdict", verdict))
        )
    return pl.concat(parts)


@dataclass(frozen=True, slots=True)
class Sensitivity:
    """A finished study: the effects, the interactions, the knobs out of range."""

    effects: pl.DataFrame
    interactions: pl.DataFrame
    metrics: tuple[str, ...]
    skipped: tuple[str, ...]


def run_sensitivity(
    config: RunConfig,
    *,
    alpha: float = 0.05,
    fresh: bool = False,
    progress: bool | None = None,
    echo: Echo = lambda _: None,
) -> Sensitivity:
    """Play the base, each knob one step down and up, then the top knobs in pairs."""
    base, moves = one_step_points(config)
    settings = _settings(config)
    count = settings.get("interactions", DEFAULT_INTERACTIONS)
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 6:
        raise ConfigError(f"sensitivity.interactions = {count!r}: expected an integer 0 to 6")
    schema = get_game(config.game).schema(resolve_rules(config))
    total = 1 + sum(point is not None for _, _, point in moves)
    echo(f"[1/{total}] base")
    base_side = play(base, fresh, progress)
    metrics = tuple(m for m in key_metrics(schema) if m in base_side.metrics.columns)
    played: list[tuple[str, str, Any, Side]] = []
    skipped = []
    for knob, direction, point in moves:
        if point is None:
            skipped.append(f"{knob} {direction}")
            continue
        echo(f"[{len(played) + 2}/{total}] {point.name}")
        played.append((knob, direction, point.changes[knob], play(point, fresh, progress)))
    effects = effects_table(base_side, played, metrics, alpha)
    by_move = {(knob, direction): side for knob, direction, _, side in played}
    ups = {knob: point for knob, direction, point in moves if direction == "up" and point}
    pairs = itertools.combinations([k for k in top_knobs(effects, count) if k in ups], 2)
    rows: list[dict[str, Any]] = []
    for first, second in pairs:
        changes = {**ups[first].changes, **ups[second].changes}
        name = "__".join(f"{k}-{_value_name(v)}" for k, v in changes.items())
        point = _point(config, changes, name)
        if point is None:
            skipped.append(f"{first} and {second} up together")
            continue
        echo(f"interaction: {point.name}")
        sides = (
            base_side,
            by_move[first, "up"],
            by_move[second, "up"],
            play(point, fresh, progress),
        )
        rows += interaction_rows(first, second, sides, metrics)
    interactions = with_holm(pl.DataFrame(rows, infer_schema_length=None), alpha)
    return Sensitivity(effects, interactions, metrics, tuple(skipped))


def write_sensitivity_report(
    config: RunConfig, study: Sensitivity, out_dir: Path
) -> dict[str, Path]:
    """sensitivity.csv, interactions.csv, sensitivity.md and .html, a tornado per metric."""
    # Deferred: loads matplotlib, which most commands never need.
    from cgsim.reporting.studyplots import plot_tornado

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out_dir / "sensitivity.csv", "interactions": out_dir / "interactions.csv"}
    study.effects.write_csv(paths["csv"])
    study.interactions.write_csv(paths["interactions"])
    sections = []
    for metric in study.metrics:
        rows = study.effects.filter(pl.col("metric") == metric)
        if rows.is_empty():
            continue
        plot = plot_tornado(rows, out_dir / "plots" / f"tornado-{metric}.png", title=metric)
        shown = rows.select(
            "knob", "direction", "value", "difference", "low", "high", "p_holm", "verdict"
        )
        sections.append(PageSection(metric, tables=[PageTable(shown)], plots=[plot]))
    if not study.interactions.is_empty():
        sections.append(
            PageSection(
                "Interactions of the knobs that matter most",
                text="Both knobs one step up together, against the sum of their single "
                "steps: per deal, both - first - second + base. 'interact' when Holm's "
                f"adjusted p (over each metric's pairs) is below {0.05:g}.",
                tables=[PageTable(study.interactions, "interactions.csv")],
            )
        )
    changed = study.effects.filter(pl.col("verdict") == "changed") if study.effects.height else None
    lines = [
        f"Sensitivity of {config.name}: {study.effects['knob'].n_unique() if study.effects.height else 0} "
        f"knobs one step down and up from the base, each point {config.games} games on the "
        f"same deals (run seed {config.seed}). Differences moved - base with 95% paired "
        "intervals; Holm over every test of the study.",
        f"Established changes: {0 if changed is None else changed.height} of "
        f"{study.effects.height} knob-direction-metric tests.",
    ]
    notes = [f"not played (outside the game's range): {s}" for s in study.skipped]
    page = Page(f"Sensitivity: {config.name}", text=lines, notes=notes, sections=sections)
    paths["markdown"], paths["html"] = write_page(page, out_dir, "sensitivity")
    return paths
