"""Per-group means with block intervals: the one helper behind every interval table.

The run report (win rates, positions) and the balance tables (seat advantage,
components, economy, win rates by category) all ask the same question of a result table:
per group, the mean of a value with a 95% interval that treats each deal block as one
unit. Polars sums each block lazily (only per-block totals are collected), then
:func:`cgsim.reporting.stats.cluster_mean_interval` turns the totals into the interval.
Shares of solo games reaching a score benchmark, whose games are independent, take a
Wilson interval instead (:func:`benchmark_shares`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import polars as pl

from cgsim.reporting.stats import clip_unit, cluster_mean_interval, wilson_interval

CONFIDENCE = 0.95


def interval_table(
    frame: pl.LazyFrame | pl.DataFrame,
    keys: Sequence[str],
    value: str | pl.Expr,
    name: str,
    *,
    rate: bool,
    confidence: float = CONFIDENCE,
) -> pl.DataFrame:
    """Per group of ``keys`` (sorted by them): ``games`` (non-null values), ``blocks``, the
    mean of ``value`` as ``name`` and its cluster-robust block interval ``low``/``high``
    (clipped to [0, 1] for a ``rate``; null with a single block). Groups without a value
    are left out."""
    lazy = frame.lazy()
    expr = (pl.col(value) if isinstance(value, str) else value).cast(pl.Float64)
    # Blocks sorted within each group, so the interval's sums never depend on row order.
    per_block = (
        lazy.group_by([*keys, "block"])
        .agg(expr.sum().alias("total"), expr.count().alias("count"))
        .filter(pl.col("count") > 0)
        .sort([*keys, "block"])
        .collect()
    )
    schema = lazy.collect_schema()
    out_schema: dict[str, pl.DataType] = {k: schema[k] for k in keys}
    out_schema |= {"games": pl.Int64(), "blocks": pl.Int64(), name: pl.Float64()}
    out_schema |= {"low": pl.Float64(), "high": pl.Float64()}
    if per_block.is_empty():
        return pl.DataFrame(schema=out_schema)
    groups = (
        per_block.partition_by(list(keys), as_dict=True, maintain_order=True)
        if keys
        else {(): per_block}
    )
    rows = []
    for key, part in groups.items():
        interval = cluster_mean_interval(
            part["total"].to_numpy(), part["count"].to_numpy(), confidence
        )
        if rate:
            interval = clip_unit(interval)
        rows.append(
            {
                **dict(zip(keys, key, strict=True)),
                "games": int(part["count"].sum()),
                "blocks": part.height,
                name: interval.estimate,
                "low": None if math.isnan(interval.low) else interval.low,
                "high": None if math.isnan(interval.high) else interval.high,
            }
        )
    return pl.DataFrame(rows, schema=out_schema)


def benchmark_shares(
    frame: pl.LazyFrame | pl.DataFrame,
    keys: Sequence[str],
    benchmarks: Mapping[str, float],
    confidence: float = CONFIDENCE,
) -> pl.DataFrame:
    """Per group of ``keys`` and per benchmark (lowest score first): ``games``, the ``share``
    of them scoring at least the benchmark and its Wilson interval ``low``/``high``.

    Games declare benchmarks for the solo game only, where every game is its own deal, so
    the games are independent: Wilson rather than a block interval, since it keeps its
    coverage near 0 and 1, where a rare mark like Cottage Garden's 80 lives. The run report
    and the strength bench both read their benchmark shares here.
    """
    counted = (
        frame.lazy()
        .group_by(list(keys))
        .agg(
            pl.len().alias("games"),
            *(
                (pl.col("score") >= threshold).sum().alias(f"reached_{index}")
                for index, threshold in enumerate(benchmarks.values())
            ),
        )
        .sort(list(keys))
        .collect()
    )
    schema = frame.lazy().collect_schema()
    out_schema: dict[str, pl.DataType] = {k: schema[k] for k in keys}
    out_schema |= {"benchmark": pl.String(), "score": pl.Float64(), "games": pl.Int64()}
    out_schema |= {"share": pl.Float64(), "low": pl.Float64(), "high": pl.Float64()}
    rows = []
    ordered = sorted(enumerate(benchmarks.items()), key=lambda item: item[1][1])
    for index, (label, threshold) in ordered:
        for row in counted.iter_rows(named=True):
            interval = wilson_interval(row[f"reached_{index}"], row["games"], confidence)
            rows.append(
                {k: row[k] for k in keys}
                | {"benchmark": label, "score": float(threshold), "games": row["games"]}
                | {"share": interval.estimate, "low": interval.low, "high": interval.high}
            )
    return pl.DataFrame(rows, schema=out_schema)
