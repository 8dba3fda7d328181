"""Comparing two setups metric by metric: did a change to rules, components or bots alter
outcomes, really?

Both sides are measured by :func:`cgsim.reporting.metrics.game_metrics`. When the two runs share
deal seeds (common random numbers: same run seed and schedule) every measure is paired
by deal, which cancels deal luck and makes the intervals much narrower; otherwise the
deal blocks of each side are independent units. Means and rates: paired t (Welch t
without pairing); score quantiles: block bootstrap (paired blocks when shared); score
distribution shift: Mann-Whitney U and Kolmogorov-Smirnov. Holm's procedure controls the
family-wise error over all measures, and a measure is "changed" when its adjusted
p-value is below alpha.

:func:`run_compare` is the whole study behind ``cgsim compare``: it plays each side that
is a config (or reads each results directory), or runs the sequential test, and writes
the comparison; the command only parses, prints and chooses the exit code.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from cgsim.errors import CgsimError
from cgsim.games.contract import Schema
from cgsim.games.registry import get_game
from cgsim.play.config import load_config, resolve_rules
from cgsim.play.limits import MAX_GAMES, check_float, check_int, check_seed, check_workers
from cgsim.play.paths import require_output_dir
from cgsim.play.results import MANIFEST, load_tables, read_manifest
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for
from cgsim.play.shipped import shipped_config
from cgsim.play.storage import Columns, TableSchemas
from cgsim.reporting.metrics import (
    BOT_PREFIX,
    DECIDED_ENDS,
    game_metrics,
    is_rate,
    metric_columns,
    schema_of,
)
from cgsim.reporting.pages import Page, PageSection, PageTable, write_page
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
from cgsim.studies.sequential import DECISION_TEXT, SprtSettings, sprt_compare

Echo = Callable[[str], Any]

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


class CompareInputError(CgsimError):
    """A side that is neither a TOML config nor a results directory (or the wrong one)."""


class SideStopped(Exception):
    """A side's run stopped before every game was played (Ctrl-C); its games are kept."""

    def __init__(self, label: str, status: str) -> None:
        super().__init__(label, status)
        self.label = label
        self.status = status


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a comparison: per-game measures, the decided seat rows and the game's
    declared schema (which says which measures are proportions)."""

    label: str
    metrics: pl.DataFrame
    seats: pl.DataFrame
    schema: Schema

    @classmethod
    def of(cls, label: str, tables: Mapping[str, pl.DataFrame], schema: Schema) -> Side:
        """A side from result tables (``games`` and ``seats``) and the schema of the game
        that played them (the run's manifest or ``game.schema(rules)``)."""
        games, seats = tables["games"], tables["seats"]
        decided = games.filter(pl.col("end").is_in(DECIDED_ENDS)).select("game_id", "seed")
        metrics = game_metrics(games, seats, schema)
        return cls(label, metrics, seats.join(decided, on="game_id"), schema)


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
    kind = "rate" if is_rate(metric, a.schema) or is_rate(metric, b.schema) else "mean"
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
    schema: Schema,
    *,
    labels: tuple[str, str] = ("A", "B"),
    alpha: float = ALPHA,
    seed: int = 0,
) -> pl.DataFrame:
    """:func:`compare_sides` on two sets of result tables (``games``, ``seats``) of a game
    with this schema."""
    sides = Side.of(labels[0], a, schema), Side.of(labels[1], b, schema)
    return compare_sides(*sides, alpha=alpha, seed=seed)


# ---------------------------------------------------------------- tolerances (--fail-on)


def parse_metric_values(text: str, option: str, what: str = "tolerance") -> list[tuple[str, float]]:
    """``"mean_score:1.0,turns:2,mean_score:0.5"`` as ``[(metric, value), ...]`` in the
    order given (values >= 0; a metric may come back with other values; an exact repeat
    is dropped). ``what`` names the value in errors."""
    pairs: list[tuple[str, float]] = []
    for item in [part.strip() for part in text.split(",") if part.strip()]:
        name, sep, given = item.partition(":")
        try:
            value = float(given)
        except ValueError:
            value = math.nan
        if not sep or not name.strip() or not value >= 0.0:
            raise FailOnError(
                f"{option} {item!r}: expected metric:{what} with a {what} >= 0, e.g. mean_score:1.0"
            )
        if (name.strip(), value) not in pairs:
            pairs.append((name.strip(), value))
    if not pairs:
        raise FailOnError(f"{option}: no metric:{what} given, e.g. mean_score:1.0")
    return pairs


def parse_tolerances(text: str, option: str = "--fail-on") -> dict[str, float]:
    """``"mean_score:1.0,seat0_win_rate:0.02"`` as ``{metric: tolerance}`` (tolerance >= 0;
    a metric has one tolerance: given twice, it is an error)."""
    tolerances: dict[str, float] = {}
    for name, tolerance in parse_metric_values(text, option):
        if name in tolerances:
            raise FailOnError(
                f"{option}: {name} is given tolerances {tolerances[name]:g} and {tolerance:g}; "
                "give it one"
            )
        tolerances[name] = tolerance
    return tolerances


def possible_metrics(side: Path) -> set[str]:
    """The metrics with an interval a comparison can give for one side (a config or a
    results directory), known before any game is played: from the game's declared schema,
    the seats and the bots. Lets ``--fail-on`` refuse a misspelt metric before both sides
    are played."""
    ids = {"game_id", "block", "seed", "players"}
    quantiles = {f"score_q{round(q * 100):02d}" for q in QUANTILES}
    if is_results_dir(side):
        schema = schema_of(read_manifest(side), str(side / MANIFEST))
        tables = load_tables(side)
        return set(game_metrics(tables["games"], tables["seats"], schema).columns) - ids | quantiles
    config = load_config(side)
    plan = plan_for(config, "run" if config.seats else "tournament")
    schema = get_game(config.game).schema(resolve_rules(config))
    schemas = TableSchemas.from_schema(schema)
    empty = game_metrics(
        schemas.frame("games", Columns()), schemas.frame("seats", Columns()), schema
    )
    names = set(empty.columns) - ids | quantiles
    if config.players > 1:
        names |= {f"seat{k}_win_rate" for k in range(config.players)}
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


# ---------------------------------------------------------------- playing or reading the sides


@dataclass(frozen=True, slots=True)
class Comparison:
    """A finished comparison: the table, both sides, the notes and the files written."""

    table: pl.DataFrame
    sides: tuple[Side, Side]
    labels: tuple[str, str]
    notes: list[str]
    folder: Path
    paths: dict[str, Path]


def is_results_dir(path: Path) -> bool:
    """Whether ``path`` is a results directory (it has a manifest)."""
    return path.is_dir() and (path / MANIFEST).is_file()


def check_side(path: Path, what: str) -> None:
    """A side must be a results directory, a config file or a shipped config's name: else
    one clear error."""
    if is_results_dir(path) or path.is_file() or shipped_config(str(path)) is not None:
        return
    if path.is_dir():
        raise CompareInputError(
            f"{what} {str(path)!r}: a folder without manifest.json; expected a results "
            "directory or a TOML config"
        )
    raise CompareInputError(f"{what} {str(path)!r}: no such file or results directory")


def side_labels(a: Path, b: Path) -> tuple[str, str]:
    """Each side's name (a results directory's, a config's file stem), made distinct."""
    labels = tuple(path.name if is_results_dir(path) else path.stem for path in (a, b))
    return (
        (f"{labels[0]}-a", f"{labels[1]}-b") if labels[0] == labels[1] else (labels[0], labels[1])
    )


def _tables_of(
    path: Path,
    label: str,
    folder: Path,
    seed: int | None,
    games: int | None,
    workers: int | None,
    progress: Echo,
) -> tuple[dict[str, pl.DataFrame], Path]:
    """Play a config (into ``folder/label``) or read a results directory."""
    if is_results_dir(path):
        return load_tables(path), path
    config = load_config(
        path,
        {"name": label, "out": folder, "seed": seed, "games": games, "workers": workers},
    )
    result = run_games(config, plan_for(config, "run"), fresh=True)
    if result.status != "complete":
        raise SideStopped(label, result.status)
    progress(f"{label}: {result.games_done} games in {result.wall_seconds:.1f} s")
    return load_tables(result.results_dir), result.results_dir


def _compare_runs(
    a: Path,
    b: Path,
    folder: Path,
    labels: tuple[str, str],
    games: int | None,
    seed: int | None,
    workers: int | None,
    alpha: float,
    progress: Echo,
) -> tuple[pl.DataFrame, tuple[Side, Side], list[str]]:
    # The side that is a results directory fixes the seed and game count of the other.
    stored = a if is_results_dir(a) else b if is_results_dir(b) else None
    if stored is not None:
        manifest = read_manifest(stored)
        seed = seed if seed is not None else int(manifest["run_seed"])
        games = games if games is not None else int(manifest["games_done"])
    elif seed is None or games is None:
        config_a = load_config(a)
        seed = config_a.seed if seed is None else seed
        games = config_a.games if games is None else games
    tables_a, dir_a = _tables_of(a, labels[0], folder, seed, games, workers, progress)
    tables_b, dir_b = _tables_of(b, labels[1], folder, seed, games, workers, progress)
    schema_a = schema_of(read_manifest(dir_a), str(dir_a / MANIFEST))
    schema_b = schema_of(read_manifest(dir_b), str(dir_b / MANIFEST))
    sa, sb = Side.of(labels[0], tables_a, schema_a), Side.of(labels[1], tables_b, schema_b)
    pairs = shared_seeds(sa, sb)
    notes = [
        f"A: {dir_a}; B: {dir_b}",
        f"paired on {pairs} shared deals" if pairs >= 2 else "no shared deals: unpaired tests",
    ]
    return compare_sides(sa, sb, alpha=alpha), (sa, sb), notes


def _compare_sequential(
    a: Path,
    b: Path,
    folder: Path,
    labels: tuple[str, str],
    settings: SprtSettings,
    workers: int | None,
    echo: Echo,
) -> tuple[pl.DataFrame, tuple[Side, Side], list[str]]:
    # Deferred: loads matplotlib, which most commands never need.
    from cgsim.reporting.studyplots import plot_llr

    if is_results_dir(a) or is_results_dir(b):
        raise CompareInputError("--sprt plays games as it goes: give two TOML configs")
    config_a, config_b = load_config(a), load_config(b)
    run = sprt_compare(config_a, config_b, settings, workers=workers, echo=echo)
    outcome = run.outcome
    metric = settings.metric
    verdict = DECISION_TEXT[outcome.decision]
    echo(f"SPRT on {metric}: {verdict} after {outcome.games} games per side")
    folder.mkdir(parents=True, exist_ok=True)
    plot_llr(outcome.history(), outcome.bounds, folder / "sprt_llr.png")
    schema_a = get_game(config_a.game).schema(resolve_rules(config_a))
    schema_b = get_game(config_b.game).schema(resolve_rules(config_b))
    sa, sb = Side.of(labels[0], run.tables_a, schema_a), Side.of(labels[1], run.tables_b, schema_b)
    notes = [
        f"SPRT on {metric}: H0 |B - A| <= {settings.h0:g} against H1 |B - A| >= "
        f"{settings.h1:g}, alpha {settings.alpha:g}, beta {settings.beta:g}: {verdict} after "
        f"{outcome.games} games per side (plot sprt_llr.png)",
    ]
    return compare_sides(sa, sb, alpha=settings.alpha), (sa, sb), notes


def run_compare(
    a: Path,
    b: Path,
    *,
    out: Path | None = None,
    games: int | None = None,
    seed: int | None = None,
    workers: int | None = None,
    alpha: float = ALPHA,
    sprt: SprtSettings | None = None,
    echo: Echo = lambda _: None,
    progress: Echo = lambda _: None,
) -> Comparison:
    """Compare setups ``a`` and ``b`` (each a TOML config or a results directory) and
    write the comparison into ``out`` (default ``results/compare-A-vs-B``).

    Configs are played into ``out`` on shared seeds (a results directory side fixes the
    other side's seed and game count); with ``sprt``, both configs are played in batches
    until the sequential test decides. ``echo`` hears the test's progress, ``progress``
    each side's run. Raises ``CompareInputError`` for a bad side and ``SideStopped``
    when a side's run is interrupted.
    """
    check_side(a, "A")
    check_side(b, "B")
    check_float("--alpha", alpha, 0.0, 1.0, open_ends=True)
    if sprt is not None:
        check_float("--beta", sprt.beta, 0.0, 1.0, open_ends=True)
        check_int("--batch", sprt.batch, 1, MAX_GAMES)
        check_int("--max-games", sprt.max_games, 1, MAX_GAMES)
    if seed is not None:
        check_seed("--seed", seed)
    check_workers("--workers", workers)
    labels = side_labels(a, b)
    folder = require_output_dir(
        out or Path("results") / f"compare-{labels[0]}-vs-{labels[1]}", "--out"
    )
    if sprt is not None:
        table, sides, notes = _compare_sequential(a, b, folder, labels, sprt, workers, echo)
    else:
        table, sides, notes = _compare_runs(
            a, b, folder, labels, games, seed, workers, alpha, progress
        )
    paths = write_comparison(
        table,
        folder,
        sides,
        title=f"Compare {labels[0]} (A) with {labels[1]} (B)",
        notes=notes,
    )
    return Comparison(table, sides, labels, notes, folder, paths)


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
    # Deferred: loads matplotlib, which most commands never need.
    from cgsim.reporting.studyplots import plot_ecdf, plot_effects

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out_dir / "compare.csv"}
    table.write_csv(paths["csv"])
    paths["scores_plot"] = plot_ecdf(
        {side.label: side.seats["score"].to_numpy() for side in sides},
        out_dir / "compare_scores.png",
        title="Score distributions",
    )
    paths["effects_plot"] = plot_effects(table, out_dir / "compare_effects.png")
    legend = (
        f"A = {sides[0].label}, B = {sides[1].label}. Difference B - A with its 95% interval; "
        "p-values adjusted by Holm across all metrics; 'changed' when the adjusted p < 0.05."
    )
    metrics = PageSection(
        "Metrics",
        tables=[PageTable(table, "compare.csv")],
        plots=[paths["scores_plot"], paths["effects_plot"]],
    )
    page = Page(title, text=[legend], notes=notes, sections=[metrics])
    paths["markdown"], paths["html"] = write_page(page, out_dir, "compare")
    return paths
