"""Per-game measures: what every study compares, measured the same way everywhere.

:func:`game_metrics` turns the result tables into one row per game holding every scalar
outcome measure (seat win shares, mean score, length, margin, ties) and the measures the
game declares in its :class:`~cgsim.games.contract.Schema` (its ``MEASURE`` and ``RATE``
game columns, and its ``COUNT`` and ``ECONOMY`` seat columns as a mean per seat), so
comparisons, sweeps, tuning, sequential tests and balance all measure the same things,
with the deal block as the independent unit. Nothing here names a game's column: the
schema says which columns are measured and which are proportions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import polars as pl

from cgsim.games.contract import Breakdown, Schema
from cgsim.play.results import ResultsError
from cgsim.reporting.intervals import CONFIDENCE, interval_table

DECIDED_ENDS = ("normal", "stalled")
"""Endings whose games count in outcome statistics."""
ID_COLUMNS = ("game_id", "block", "seed", "players")
"""The columns of a :func:`game_metrics` frame that identify a game, not measure it."""
BOT_PREFIX = "win_rate:"
CORE_RATES = ("tie_rate", "aborted_rate")
"""Measures of every game that are proportions (besides the win rates)."""
SEAT_MEASURES = (Breakdown.COUNT, Breakdown.ECONOMY)
"""Seat columns measured as a mean per seat."""
GAME_MEASURES = (Breakdown.MEASURE, Breakdown.RATE)
"""Game columns measured per game."""


def schema_of(manifest: Mapping[str, Any], source: str = "manifest.json") -> Schema:
    """The game's declared columns as the runner stamped them into a run's manifest.

    A run made before manifests carried a schema gives an empty one: its game-specific
    measures are simply absent. A malformed schema is a ``ResultsError`` naming ``source``.
    """
    data = manifest.get("schema")
    if data is None:
        return Schema()
    try:
        if not isinstance(data, Mapping):
            raise TypeError(f"expected an object, not {type(data).__name__}")
        return Schema.from_json(data)
    except (KeyError, ValueError, TypeError, IndexError) as error:
        raise ResultsError(f"{source}: malformed 'schema': {error}") from None


def is_rate(metric: str, schema: Schema) -> bool:
    """Whether a measure of :func:`game_metrics` is a proportion (its interval is clipped
    to [0, 1] and it is compared as one)."""
    return (
        metric.endswith("_win_rate")
        or metric.startswith(BOT_PREFIX)
        or metric in CORE_RATES
        or metric in schema.with_breakdown("games", Breakdown.RATE)
    )


def present(columns: Iterable[str], frame: pl.LazyFrame | pl.DataFrame) -> list[str]:
    """The declared ``columns`` a table actually has, in declared order (a run made before
    a column was declared lacks it)."""
    names = set(frame.lazy().collect_schema().names())
    return [c for c in columns if c in names]


def game_metrics(
    games: pl.DataFrame | pl.LazyFrame, seats: pl.DataFrame | pl.LazyFrame, schema: Schema
) -> pl.DataFrame:
    """One row per game (error games left out): ``game_id``, ``block``, ``seed``,
    ``players`` and every measure, Float64, null where it does not apply.

    Outcome measures use the games that ended normal or stalled; ``aborted_rate`` is 1 for
    an aborted game and 0 otherwise. Measures: ``seat{k}_win_rate`` (win share of seat
    ``k``), ``win_rate:<bot>`` (mean win share of the bot's seats, when several bots
    play), ``mean_score``, ``turns``, ``tie_rate``, ``margin`` (winner minus runner-up),
    ``score_range`` (best minus worst), ``aborted_rate``, then the game's declared
    ``MEASURE``/``RATE`` game columns and ``COUNT``/``ECONOMY`` seat columns (mean per seat).
    """
    g = games.lazy().filter(pl.col("end") != "error")
    s = seats.lazy()
    decided = pl.col("end").is_in(DECIDED_ENDS)
    info = g.select(
        "game_id",
        "block",
        "seed",
        "players",
        "end",
        pl.col("turns").cast(pl.Float64),
        (pl.col("winners").list.len() > 1).cast(pl.Float64).alias("tie_rate"),
        (pl.col("end") == "aborted").cast(pl.Float64).alias("aborted_rate"),
        *[
            pl.col(c).cast(pl.Float64)
            for c in present(schema.with_breakdown("games", *GAME_MEASURES), g)
        ],
    )
    max_players = int(g.select(pl.col("players").max()).collect().item() or 0)
    bots = sorted(s.select(pl.col("bot").unique()).collect()["bot"].to_list())
    score = pl.col("score").cast(pl.Float64)
    per_seat = [
        pl.col("win_share").filter(pl.col("seat") == k).first().alias(f"seat{k}_win_rate")
        for k in range(max_players if max_players > 1 else 0)
    ]
    per_bot = (
        [
            pl.col("win_share").filter(pl.col("bot") == bot).mean().alias(f"{BOT_PREFIX}{bot}")
            for bot in bots
        ]
        if len(bots) > 1 and max_players > 1
        else []
    )
    counts = [
        pl.col(c).cast(pl.Float64).mean()
        for c in present(schema.with_breakdown("seats", *SEAT_MEASURES), s)
    ]
    runner_up = score.sort(descending=True).slice(1, 1).first()
    per_game = s.group_by("game_id").agg(
        *per_seat,
        *per_bot,
        score.mean().alias("mean_score"),
        (score.max() - runner_up).alias("margin"),
        (score.max() - score.min()).alias("score_range"),
        *counts,
    )
    joined = info.join(per_game, on="game_id", how="left")
    outcome = [
        c for c in joined.collect_schema().names() if c not in (*ID_COLUMNS, "end", "aborted_rate")
    ]
    solo_blank = ("tie_rate", "margin", "score_range")
    table = joined.with_columns(
        [
            pl.when(decided & ((pl.col("players") > 1) | pl.lit(c not in solo_blank)))
            .then(pl.col(c))
            .otherwise(None)
            .cast(pl.Float64)
            .alias(c)
            for c in outcome
        ]
    )
    return table.drop("end").sort("game_id").collect()


def metric_columns(frame: pl.DataFrame) -> list[str]:
    """The measure columns of a :func:`game_metrics` frame that have any value."""
    return [c for c in frame.columns if c not in ID_COLUMNS and frame[c].drop_nulls().len() > 0]


SUMMARY_SCHEMA: dict[str, pl.DataType] = {
    "metric": pl.String(),
    "games": pl.Int64(),
    "blocks": pl.Int64(),
    "estimate": pl.Float64(),
    "low": pl.Float64(),
    "high": pl.Float64(),
}


def summarize_metrics(
    metrics: pl.DataFrame, schema: Schema, confidence: float = CONFIDENCE
) -> pl.DataFrame:
    """Per measure: games, blocks, mean and its 95% block interval (rates clipped to [0, 1]).

    Adds ``seat_fairness``: the largest distance of a seat's win share from the fair
    1/players (no interval; the seat rows carry theirs).
    """
    parts = [
        interval_table(
            metrics, [], metric, "estimate", rate=is_rate(metric, schema), confidence=confidence
        ).select(pl.lit(metric).alias("metric"), pl.all())
        for metric in metric_columns(metrics)
    ]
    fairness = seat_fairness(metrics)
    if not math.isnan(fairness):
        blocks = metrics["block"].n_unique()
        fair_row = [["seat_fairness", metrics.height, blocks, fairness, None, None]]
        parts.append(pl.DataFrame(fair_row, schema=SUMMARY_SCHEMA, orient="row"))
    if not parts:
        return pl.DataFrame(schema=SUMMARY_SCHEMA)
    return pl.concat(parts).cast(SUMMARY_SCHEMA)  # type: ignore[arg-type]


def seat_fairness(metrics: pl.DataFrame) -> float:
    """The largest ``|win share - 1/players|`` over the seats (nan for solo runs)."""
    seat_columns = [c for c in metrics.columns if c.startswith("seat") and c.endswith("_win_rate")]
    worst = math.nan
    for column in seat_columns:
        part = metrics.filter(pl.col(column).is_not_null())
        if part.is_empty():
            continue
        fair = 1.0 / float(part["players"][0])
        distance = abs(float(part[column].mean()) - fair)  # type: ignore[arg-type]
        worst = distance if math.isnan(worst) else max(worst, distance)
    return worst


def metric_values(summary: pl.DataFrame) -> dict[str, float]:
    """A :func:`summarize_metrics` table as ``metric -> estimate``."""
    return dict(zip(summary["metric"].to_list(), summary["estimate"].to_list(), strict=True))
