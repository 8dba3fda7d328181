"""Drama and Ludii's outcome metrics of a run, with intervals over deal blocks.

Each game's summary already holds its drama columns (``cgsim.games.drama``: lead changes,
the leader at 25/50/75% of the game, comebacks, the winner's lead, the final round, the
last-placed seat, Ludii's per-game LeadChange, Stability and Drama). Here they become
per-player-count means with block intervals, and Ludii's run-level outcome metrics
(Balance, AdvantageP1, Completion, Drawishness, DurationTurns) are computed under their
names and definitions so the numbers compare across tools. Definitions: ``docs/drama.md``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from cgsim.games.drama import DRAMA_COLUMNS
from cgsim.reporting.intervals import CONFIDENCE, interval_table
from cgsim.reporting.stats import block_bootstrap_weights, percentile_interval

Frame = pl.DataFrame | pl.LazyFrame

DRAMA_RATES = (
    "leader_25_won",
    "leader_50_won",
    "leader_75_won",
    "winner_led",
    "decided_final_round",
    "kingmaker",
)
"""Drama columns that are proportions (intervals clipped to [0, 1])."""
LUDII_PER_GAME = {"LeadChange": "lead_change", "Stability": "stability", "Drama": "drama"}
"""Ludii's per-game metrics and the drama column holding each."""
LUDII_TEXT = {
    "Balance": "1 - the largest difference between two seats' win rates",
    "AdvantageP1": "share of games the first seat (seat 0) wins",
    "Completion": "share of games with a sole winner (no draw, no timeout)",
    "Drawishness": "share of games ending normally without a sole winner",
    "DurationTurns": "turns per game",
    "LeadChange": "changes of the leading set of seats per turn",
    "Stability": "summed variance of each seat's evaluation over the game",
    "Drama": "mean gap from the best evaluation to the eventual winner's",
}
DECIDED_EARLY = 0.9
"""The leader at half-time wins more often than this (established): no drama."""
_SCHEMA = {
    "players": pl.Int64(),
    "metric": pl.String(),
    "games": pl.Int64(),
    "blocks": pl.Int64(),
    "estimate": pl.Float64(),
    "low": pl.Float64(),
    "high": pl.Float64(),
    "meaning": pl.String(),
}


def drama_table(games: Frame) -> pl.DataFrame:
    """Per player count (two or more) and drama measure the run holds: the mean per game
    with its 95% block interval (rows ``players``, ``metric``, ``games``, ``blocks``,
    ``estimate``, ``low``, ``high``, ``meaning``); empty for a run without the columns."""
    lazy = games.lazy().filter(pl.col("players") > 1)
    names = set(lazy.collect_schema().names())
    parts = []
    for column in DRAMA_COLUMNS:
        if column.name not in names or column.name in LUDII_PER_GAME.values():
            continue
        table = interval_table(
            lazy, ["players"], column.name, "estimate", rate=column.name in DRAMA_RATES
        )
        parts.append(
            table.with_columns(
                pl.lit(column.name).alias("metric"), pl.lit(column.text).alias("meaning")
            ).select(*_SCHEMA)
        )
    return pl.concat(parts) if parts else pl.DataFrame(schema=_SCHEMA)


def decided_early(table: pl.DataFrame) -> list[int]:
    """Player counts whose leader at half-time wins more than :data:`DECIDED_EARLY` of
    games, established (the interval lies above it)."""
    if table.is_empty():
        return []
    hits = table.filter((pl.col("metric") == "leader_50_won") & (pl.col("low") > DECIDED_EARLY))
    return sorted(int(p) for p in hits["players"])


def _balance(shares: pl.DataFrame, n_resamples: int, seed: int) -> tuple[float, float, float]:
    """Ludii's Balance from per-block, per-seat win-share sums, with a block-bootstrap
    interval: 1 - the largest gap between two seats' win rates."""
    seats = sorted(shares["seat"].unique().to_list())
    blocks = sorted(shares["block"].unique().to_list())
    wide = np.zeros((2, len(blocks), len(seats)))
    block_index = {b: i for i, b in enumerate(blocks)}
    seat_index = {s: i for i, s in enumerate(seats)}
    for block, seat, total, count in shares.select("block", "seat", "total", "count").rows():
        wide[0, block_index[block], seat_index[seat]] = total
        wide[1, block_index[block], seat_index[seat]] = count

    def value(weights: np.ndarray) -> float:
        totals, counts = weights @ wide[0], weights @ wide[1]
        rates = np.divide(totals, counts, out=np.zeros_like(totals), where=counts > 0)
        return float(1.0 - (rates.max() - rates.min()))

    estimate = value(np.ones(len(blocks)))
    rng = np.random.default_rng(seed)
    replicates = [value(w) for w in block_bootstrap_weights(len(blocks), n_resamples, rng)]
    low, high = percentile_interval(np.asarray(replicates), CONFIDENCE)
    # A largest gap is never smaller in a resample than its noise makes it, so the
    # resamples sit below an even game's 1: the interval is widened to hold the estimate.
    return estimate, min(float(low), estimate), max(float(high), estimate)


def ludii_table(games: Frame, seats: Frame, n_resamples: int = 200, seed: int = 0) -> pl.DataFrame:
    """Ludii's outcome metrics per player count (two or more), under Ludii's names, with
    95% block intervals: Balance, AdvantageP1, Completion, Drawishness, DurationTurns over
    every game that did not stop on an error (Ludii counts every trial), then the
    per-game LeadChange, Stability and Drama over the games with a winner."""
    played = games.lazy().filter((pl.col("end") != "error") & (pl.col("players") > 1))
    played_seats = (
        seats.lazy()
        .filter(pl.col("players") > 1)
        .join(played.select("game_id"), on="game_id", how="semi")
    )
    sole = pl.col("winners").list.len() == 1
    names = set(played.collect_schema().names())
    parts = [
        _metric(played_seats.filter(pl.col("seat") == 0), "win_share", "AdvantageP1", True),
        _metric(played, sole, "Completion", True),
        _metric(played, (pl.col("end") == "normal") & ~sole, "Drawishness", True),
        _metric(played, "turns", "DurationTurns", False),
        *[
            _metric(played, column, name, False)
            for name, column in LUDII_PER_GAME.items()
            if column in names
        ],
    ]
    shares = (
        played_seats.group_by("players", "block", "seat")
        .agg(
            pl.col("win_share").cast(pl.Float64).sum().alias("total"),
            pl.len().cast(pl.Float64).alias("count"),
        )
        .sort("players", "block", "seat")
        .collect()
    )
    balance_rows = []
    for (players,), part in sorted(shares.partition_by(["players"], as_dict=True).items()):
        estimate, low, high = _balance(part, n_resamples, seed)
        balance_rows.append(
            {
                "players": players,
                "metric": "Balance",
                "games": int(part["count"].sum()) // int(players),
                "blocks": part["block"].n_unique(),
                "estimate": estimate,
                "low": low,
                "high": high,
                "meaning": LUDII_TEXT["Balance"],
            }
        )
    parts.insert(0, pl.DataFrame(balance_rows, schema=_SCHEMA))
    order = {name: i for i, name in enumerate(LUDII_TEXT)}
    table = pl.concat(parts)
    return table.sort(
        pl.col("players"), pl.col("metric").replace_strict(order, return_dtype=pl.Int64)
    )


def _metric(frame: pl.LazyFrame, value: str | pl.Expr, name: str, rate: bool) -> pl.DataFrame:
    table = interval_table(frame, ["players"], value, "estimate", rate=rate)
    return table.with_columns(
        pl.lit(name).alias("metric"), pl.lit(LUDII_TEXT[name]).alias("meaning")
    ).select(*_SCHEMA)
