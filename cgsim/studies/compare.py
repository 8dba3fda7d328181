"""Comparing two setups metric by metric: did a change to rules, components or bots alter
outcomes, really?

Both sides are measured by :func:`cgsim.reporting.balance.game_metrics`. When the two runs share
deal seeds (common random numbers: same run seed and schedule) every measure is paired
by deal, which cancels deal luck and makes the intervals much narrower; otherwise the
deal blocks of each side are independent units. Means and rates: paired t (Welch t
without pairing); score quantiles: block bootstrap (paired blocks when shared); score
distribution shift: Mann-Whitney U and Kolmogorov-Smirnov. Holm's procedure controls the
family-wise error over all measures, and a measure is "changed" when its adjusted
p-value is below alpha.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from cgsim.errors import CgsimError
from cgsim.games.registry import get_game
from cgsim.play.config import RunConfig
from cgsim.play.schedules import plan_for
from cgsim.play.storage import Columns, TableSchemas
from cgsim.reporting.balance import (
    BOT_PREFIX,
    DECIDED_ENDS,
    game_metrics,
    is_rate,
    metric_columns,
)
from cgsim.reporting.stats import (
    Difference,
    FloatArray,
    block_bootstrap_weights,
    block_sums,
    holm_adjust,
    ks_two_sample,
    mann_whitney,
    pair_by_key,
    paired_difference,
    percentile_interval,
    welch_difference,
)

CONFIDENCE = 0.95
ALPHA = 0.05
QUANTILES = (0.25, 0.5, 0.75)
N_BOOTSTRAP = 1000
MIN_PAIRS = 2

RESULT_SCHEMA: dict[str, pl.DataType] = {
    "metric": pl.String(),
    "a": pl.Float64(),
    "b": pl.Float64(),
    "difference": pl.Float64(),
    "low": pl.Float64(),
    "high": pl.Float64(),
    "n": pl.Int64(),
    "test": pl.String(),
    "p_value": pl.Float64(),
    "p_holm": pl.Float64(),
    "verdict": pl.String(),
}
"""Columns of a comparison: ``difference`` is B minus A; ``n`` counts its units (deal
pairs, or deals of both sides); ``verdict`` is ``changed`` or ``no change``."""


class FailOnError(CgsimError):
    """A ``--fail-on`` entry that is not ``metric:tolerance`` for a compared metric."""


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a comparison: per-game measures and the decided seat rows."""

    label: str
    metrics: pl.DataFrame
    seats: pl.DataFrame

    @classmethod
    def of(cls, label: str, tables: Mapping[str, pl.DataFrame]) -> Side:
        """A side from result tables (``games`` and ``seats``)."""
        games, seats = tables["games"], tables["seats"]
        decided = games.filter(pl.col("end").is_in(DECIDED_ENDS)).select("game_id", "seed")
        return cls(label, game_metrics(games, seats), seats.join(decided, on="game_id"))


def shared_seeds(a: Side, b: Side) -> int:
    """How many deal seeds both sides played (pairs available)."""
    seeds_a = set(a.metrics["seed"].to_list())
    return len(seeds_a.intersection(b.metrics["seed"].to_list()))


def _row(
    metric: str,
    a: float,
    b: float,
    estimate: float,
    low: float,
    high: float,
    n: int,
    test: str,
    p_value: float,
) -> dict[str, object]:
    def clean(x: float) -> float | None:
        return None if x is None or math.isnan(x) else float(x)

    return {
        "metric": metric,
        "a": clean(a),
        "b": clean(b),
        "difference": clean(estimate),
        "low": clean(low),
        "high": clean(high),
        "n": n,
        "test": test,
        "p_value": clean(p_value),
    }


def _block_means(frame: pl.DataFrame, metric: str) -> FloatArray:
    """Per deal seed: the mean of ``metric`` (the unit of the unpaired tests)."""
    part = frame.filter(pl.col(metric).is_not_null())
    totals, counts = block_sums(part[metric].to_numpy(), part["seed"].to_numpy())
    return totals / counts


def _mean_row(a: Side, b: Side, metric: str, paired: bool) -> dict[str, object] | None:
    if metric not in a.metrics.columns or metric not in b.metrics.columns:
        return None
    part_a = a.metrics.filter(pl.col(metric).is_not_null())
    part_b = b.metrics.filter(pl.col(metric).is_not_null())
    if part_a.is_empty() or part_b.is_empty():
        return None
    mean_a, mean_b = float(part_a[metric].mean()), float(part_b[metric].mean())  # type: ignore[arg-type]
    kind = "rate" if is_rate(metric) else "mean"
    if paired:
        x, y = pair_by_key(
            part_b["seed"].to_numpy(),
            part_b[metric].to_numpy(),
            part_a["seed"].to_numpy(),
            part_a[metric].to_numpy(),
        )
        if x.size >= MIN_PAIRS:
            diff = paired_difference(x, y, CONFIDENCE)
            test = f"paired t on deal {kind}s"
            return _row(metric, mean_a, mean_b, *_diff_parts(diff), diff.n, test, diff.p_value)
    diff = welch_difference(_block_means(part_b, metric), _block_means(part_a, metric), CONFIDENCE)
    test = f"Welch t on deal {kind}s"
    return _row(metric, mean_a, mean_b, *_diff_parts(diff), diff.n, test, diff.p_value)


def _diff_parts(diff: Difference) -> tuple[float, float, float]:
    return diff.estimate, diff.low, diff.high


def weighted_quantile(values: FloatArray, weights: FloatArray, q: float) -> float:
    """The ``q`` quantile of ``values`` where each value counts ``weights`` times (the
    inverse of the weighted empirical distribution; weights of 0 drop a value)."""
    keep = weights > 0
    if not keep.any():
        return math.nan
    order = np.argsort(values[keep], kind="stable")
    sorted_values = values[keep][order]
    cumulative = np.cumsum(weights[keep][order])
    position = q * cumulative[-1]
    index = int(np.searchsorted(cumulative, position, side="left"))
    return float(sorted_values[min(index, sorted_values.size - 1)])


def _quantile_rows(a: Side, b: Side, paired: bool, seed: int) -> list[dict[str, object]]:
    """Score quantiles of B minus A with percentile block-bootstrap intervals."""
    scores_a = a.seats["score"].to_numpy().astype(np.float64)
    scores_b = b.seats["score"].to_numpy().astype(np.float64)
    if scores_a.size == 0 or scores_b.size == 0:
        return []
    seeds_a, seeds_b = a.seats["seed"].to_numpy(), b.seats["seed"].to_numpy()
    if paired:
        common = np.intersect1d(seeds_a, seeds_b)
        in_a, in_b = np.isin(seeds_a, common), np.isin(seeds_b, common)
        scores_a, scores_b = scores_a[in_a], scores_b[in_b]
        codes_a = np.searchsorted(common, seeds_a[in_a])
        codes_b = np.searchsorted(common, seeds_b[in_b])
        blocks_a = blocks_b = common.size
    else:
        _, codes_a = np.unique(seeds_a, return_inverse=True)
        _, codes_b = np.unique(seeds_b, return_inverse=True)
        blocks_a, blocks_b = int(codes_a.max()) + 1, int(codes_b.max()) + 1
    rng = np.random.default_rng(seed)
    rows = []
    quantiles_a = [weighted_quantile(scores_a, np.ones(scores_a.size), q) for q in QUANTILES]
    quantiles_b = [weighted_quantile(scores_b, np.ones(scores_b.size), q) for q in QUANTILES]
    points = [qb - qa for qa, qb in zip(quantiles_a, quantiles_b, strict=True)]
    replicates = np.empty((N_BOOTSTRAP, len(QUANTILES)))
    weights_a = block_bootstrap_weights(blocks_a, N_BOOTSTRAP, rng)
    weights_b = (
        None
        if paired
        else block_bootstrap_weights(blocks_b, N_BOOTSTRAP, np.random.default_rng(seed + 1))
    )
    for r, wa in enumerate(weights_a):
        wb = wa if weights_b is None else next(weights_b)
        for k, q in enumerate(QUANTILES):
            replicates[r, k] = weighted_quantile(scores_b, wb[codes_b], q) - weighted_quantile(
                scores_a, wa[codes_a], q
            )
    low, high = percentile_interval(replicates, CONFIDENCE)
    test = "paired block bootstrap" if paired else "block bootstrap"
    for k, q in enumerate(QUANTILES):
        column = replicates[:, k]
        tail = min(float(np.mean(column <= 0.0)), float(np.mean(column >= 0.0)))
        p_value = min(1.0, max(2.0 * tail, 1.0 / N_BOOTSTRAP)) if points[k] != 0.0 else 1.0
        name = f"score_q{round(q * 100):02d}"
        n = blocks_a if paired else blocks_a + blocks_b
        rows.append(
            _row(name, quantiles_a[k], quantiles_b[k], points[k], low[k], high[k], n, test, p_value)
        )
    return rows


def _shift_rows(a: Side, b: Side) -> list[dict[str, object]]:
    scores_a, scores_b = a.seats["score"].to_numpy(), b.seats["score"].to_numpy()
    if scores_a.size == 0 or scores_b.size == 0:
        return []
    n = int(scores_a.size + scores_b.size)
    nan = math.nan
    ranks = mann_whitney(scores_b, scores_a)
    effect = ranks.statistic / (scores_a.size * scores_b.size) - 0.5
    ks = ks_two_sample(scores_b, scores_a)
    return [
        _row("score_rank_shift", nan, nan, effect, nan, nan, n, ranks.test, ranks.p_value),
        _row("score_distribution", nan, nan, ks.statistic, nan, nan, n, ks.test, ks.p_value),
    ]


def compare_sides(
    a: Side, b: Side, *, alpha: float = ALPHA, seed: int = 0, paired: bool | None = None
) -> pl.DataFrame:
    """Every measure both sides have: A, B, B - A with its 95% interval, the test, raw and
    Holm-adjusted p-values and the verdict (see :data:`RESULT_SCHEMA`).

    ``paired`` defaults to whether the sides share at least two deal seeds. The
    distribution rows give the Mann-Whitney effect ``P(B > A) - 1/2`` and the KS distance.
    """
    paired = shared_seeds(a, b) >= MIN_PAIRS if paired is None else paired
    names = [m for m in metric_columns(a.metrics) if m in metric_columns(b.metrics)]
    rows = [row for m in names if (row := _mean_row(a, b, m, paired)) is not None]
    rows += _quantile_rows(a, b, paired, seed)
    rows += _shift_rows(a, b)
    table = pl.DataFrame(
        rows, schema={k: v for k, v in RESULT_SCHEMA.items() if k not in ("p_holm", "verdict")}
    )
    adjusted = holm_adjust(table["p_value"].fill_null(math.nan).to_numpy())
    changed = np.nan_to_num(adjusted, nan=2.0) < alpha
    return table.with_columns(
        pl.Series("p_holm", adjusted).fill_nan(None),
        pl.Series("verdict", np.where(changed, "changed", "no change").tolist(), dtype=pl.String),
    )


def compare_tables(
    a: Mapping[str, pl.DataFrame],
    b: Mapping[str, pl.DataFrame],
    *,
    labels: tuple[str, str] = ("A", "B"),
    alpha: float = ALPHA,
    seed: int = 0,
) -> pl.DataFrame:
    """:func:`compare_sides` on two sets of result tables (``games``, ``seats``)."""
    return compare_sides(Side.of(labels[0], a), Side.of(labels[1], b), alpha=alpha, seed=seed)


# ---------------------------------------------------------------- tolerances (--fail-on)


def parse_tolerances(text: str, option: str = "--fail-on") -> dict[str, float]:
    """``"mean_score:1.0,seat0_win_rate:0.02"`` as ``{metric: tolerance}`` (tolerance >= 0)."""
    tolerances: dict[str, float] = {}
    for item in [part.strip() for part in text.split(",") if part.strip()]:
        name, sep, value = item.partition(":")
        try:
            tolerance = float(value)
        except ValueError:
            tolerance = math.nan
        if not sep or not name.strip() or not tolerance >= 0.0:
            raise FailOnError(
                f"{option} {item!r}: expected metric:tolerance with a tolerance >= 0, "
                "e.g. mean_score:1.0"
            )
        tolerances[name.strip()] = tolerance
    if not tolerances:
        raise FailOnError(f"{option}: no metric:tolerance given, e.g. mean_score:1.0")
    return tolerances


def possible_metrics(side: RunConfig | Mapping[str, pl.DataFrame]) -> set[str]:
    """The metrics with an interval a comparison can give for one side, known before any
    game is played: from a config's declared columns, seats and bots, or from stored
    tables. Lets ``--fail-on`` refuse a misspelt metric before both sides are played."""
    ids = {"game_id", "block", "seed", "players"}
    quantiles = {f"score_q{round(q * 100):02d}" for q in QUANTILES}
    if not isinstance(side, RunConfig):
        return set(game_metrics(side["games"], side["seats"]).columns) - ids | quantiles
    plan = plan_for(side, "run")
    schemas = TableSchemas.from_schema(get_game(side.game).schema(plan.rules))
    empty = game_metrics(schemas.frame("games", Columns()), schemas.frame("seats", Columns()))
    names = set(empty.columns) - ids | quantiles
    if side.players > 1:
        names |= {f"seat{k}_win_rate" for k in range(side.players)}
        labels = {bot.label for bot in plan.bots}
        names |= {f"{BOT_PREFIX}{label}" for label in labels} if len(labels) > 1 else set()
    return names


def check_metric_names(
    tolerances: Mapping[str, float], available: set[str], option: str = "--fail-on"
) -> None:
    """A ``FailOnError`` for the first metric that no side can measure."""
    for metric in tolerances:
        if metric not in available:
            raise FailOnError(
                f"{option} {metric!r}: not a metric of this comparison; "
                f"available: {', '.join(sorted(available))}"
            )


def beyond_tolerance(table: pl.DataFrame, tolerances: Mapping[str, float]) -> list[str]:
    """Metrics whose whole interval lies beyond their tolerance (a change established
    larger than allowed), as one line each. Raises ``FailOnError`` for a metric the table
    does not have or that has no interval."""
    with_interval = table.filter(pl.col("low").is_not_null() & pl.col("high").is_not_null())
    known = with_interval["metric"].to_list()
    breaches = []
    for metric, tolerance in tolerances.items():
        if metric not in known:
            raise FailOnError(
                f"--fail-on {metric!r}: not a compared metric with an interval; "
                f"available: {', '.join(known)}"
            )
        row = with_interval.filter(pl.col("metric") == metric).row(0, named=True)
        if row["low"] > tolerance or row["high"] < -tolerance:
            breaches.append(
                f"{metric}: difference {row['difference']:+.4g} "
                f"[{row['low']:+.4g}, {row['high']:+.4g}] beyond tolerance {tolerance:g}"
            )
    return breaches


# ---------------------------------------------------------------- output


def format_table(table: pl.DataFrame, labels: Sequence[str] = ("A", "B")) -> str:
    """The comparison as fixed-width text for the terminal."""
    header = [
        "metric",
        labels[0],
        labels[1],
        "B - A",
        "95% interval",
        "test",
        "p (Holm)",
        "verdict",
    ]
    lines = [header]
    for row in table.iter_rows(named=True):
        interval = (
            f"[{row['low']:+.3g}, {row['high']:+.3g}]"
            if row["low"] is not None and row["high"] is not None
            else "-"
        )
        lines.append(
            [
                row["metric"],
                _num(row["a"]),
                _num(row["b"]),
                _num(row["difference"], signed=True),
                interval,
                row["test"],
                _num(row["p_holm"]),
                row["verdict"],
            ]
        )
    widths = [max(len(line[k]) for line in lines) for k in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(widths[k]) for k, cell in enumerate(line)).rstrip() for line in lines
    )


def _num(value: float | None, signed: bool = False) -> str:
    if value is None or math.isnan(value):
        return "-"
    return f"{value:+.4g}" if signed else f"{value:.4g}"


def write_comparison(
    table: pl.DataFrame,
    out_dir: Path,
    sides: tuple[Side, Side],
    *,
    title: str,
    notes: Sequence[str] = (),
) -> dict[str, Path]:
    """compare.csv, compare.md, compare.html (self-contained) and two plots in ``out_dir``:
    the score distributions (ECDF of each side) and each measure's standardised change."""
    from cgsim.reporting.report import STYLE, html_table, markdown_table
    from cgsim.reporting.studyplots import html_page, plot_ecdf, plot_effects

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out_dir / "compare.csv"}
    table.write_csv(paths["csv"])
    paths["scores_plot"] = plot_ecdf(
        {side.label: side.seats["score"].to_numpy() for side in sides},
        out_dir / "compare_scores.png",
        title="Score distributions",
    )
    paths["effects_plot"] = plot_effects(table, out_dir / "compare_effects.png")
    shown = table
    legend = (
        f"A = {sides[0].label}, B = {sides[1].label}. Difference B - A with its 95% interval; "
        "p-values adjusted by Holm across all metrics; 'changed' when the adjusted p < 0.05."
    )
    markdown = [f"# {title}", "", legend, ""]
    markdown += [f"- {note}" for note in notes]
    markdown += ["", markdown_table(shown), "", "![scores](compare_scores.png)"]
    markdown += ["", "![changes](compare_effects.png)", ""]
    paths["markdown"] = out_dir / "compare.md"
    paths["markdown"].write_text("\n".join(markdown), encoding="utf-8")
    paths["html"] = out_dir / "compare.html"
    paths["html"].write_text(
        html_page(
            title,
            [legend, *notes],
            [("Metrics", html_table(shown))],
            [paths["scores_plot"], paths["effects_plot"]],
            style=STYLE,
        ),
        encoding="utf-8",
    )
    return paths
