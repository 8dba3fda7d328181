"""Bot ratings from finishing orders: a Bradley-Terry fit on an Elo-like scale.

Every game is broken into all its seat pairs ("full rank breaking"): the better-placed
seat beats the other, and seats that share a place (equal ``rank``) each take half a win.
Pairs of seats played by the same bot say nothing about its strength and are skipped.
Full rank breaking makes the Bradley-Terry maximum-likelihood fit a consistent estimate of
Plackett-Luce strengths for multi-player finishing orders, and for two players it is the
Plackett-Luce fit itself. The fit is ``choix.ilsr_pairwise_dense`` with a small
regularisation, so a bot that never lost still gets a finite rating.

Ratings are ``400 * log10`` of the strength odds (the Elo scale: +400 means 10:1 odds),
centred on the mean bot or anchored to a named bot at 0. Intervals are percentile
bootstrap intervals that resample whole deal blocks, so the duplicate pairing is kept.
"""

from __future__ import annotations

import math

import choix
import numpy as np
import polars as pl

from cgsim.errors import CgsimError
from cgsim.reporting.stats import FloatArray, block_bootstrap_weights, percentile_interval

ELO_PER_LOG_STRENGTH = 400.0 / math.log(10.0)
"""Elo points per natural-log unit of Bradley-Terry strength."""

REGULARISATION = 0.01
"""choix's ``alpha``: small enough to leave real data alone, large enough to keep an
unbeaten bot finite (10 wins from 10 games gives about +540 on each side)."""

RATINGS_SCHEMA: dict[str, pl.DataType] = {
    "bot": pl.String(),
    "games": pl.Int64(),
    "rating": pl.Float64(),
    "low": pl.Float64(),
    "high": pl.Float64(),
}


class UnknownAnchorError(CgsimError):
    """The bot named as the ratings anchor did not play in the results."""


def pairwise_outcomes(seats: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """Per block and ordered bot pair: wins of ``bot`` over ``opponent`` and comparisons.

    ``seats`` needs ``game_id``, ``block``, ``bot`` and ``rank``. Only the aggregate is
    collected. Ties count half a win each way, so ``wins(a, b) + wins(b, a)`` equals the
    number of comparisons between them.
    """
    rows = seats.lazy().select("game_id", "block", "bot", "rank")
    pairs = rows.join(rows.drop("block"), on="game_id", suffix="_opponent").filter(
        pl.col("bot") != pl.col("bot_opponent")
    )
    win = (
        pl.when(pl.col("rank") < pl.col("rank_opponent"))
        .then(1.0)
        .when(pl.col("rank") == pl.col("rank_opponent"))
        .then(0.5)
        .otherwise(0.0)
    )
    return (
        pairs.group_by("block", "bot", pl.col("bot_opponent").alias("opponent"))
        .agg(win.sum().alias("wins"), pl.len().cast(pl.Int64).alias("comparisons"))
        .sort("block", "bot", "opponent")
        .collect()
    )


def fit_log_strengths(wins: FloatArray, regularisation: float = REGULARISATION) -> FloatArray:
    """Bradley-Terry log-strengths (mean 0) from a matrix ``wins[i, j]`` of i's wins over j."""
    size = wins.shape[0]
    if size < 2:
        return np.zeros(size, dtype=np.float64)
    params = choix.ilsr_pairwise_dense(wins, alpha=regularisation, max_iter=1000)
    strengths: FloatArray = np.asarray(params, dtype=np.float64)
    centred: FloatArray = strengths - strengths.mean()
    return centred


def _to_scale(log_strengths: FloatArray, anchor_index: int | None) -> FloatArray:
    elo: FloatArray = log_strengths * ELO_PER_LOG_STRENGTH
    shifted: FloatArray = elo - (elo[anchor_index] if anchor_index is not None else elo.mean())
    return shifted


def rate_bots(
    seats: pl.LazyFrame | pl.DataFrame,
    *,
    anchor: str | None = None,
    n_bootstrap: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
    regularisation: float = REGULARISATION,
) -> pl.DataFrame:
    """Ratings per bot with block-bootstrap intervals, best first.

    ``seats``: the seat rows to rate (``game_id``, ``block``, ``bot``, ``rank``); the caller
    chooses which games count. Columns of the answer: ``bot``, ``games`` (seats played),
    ``rating``, ``low``, ``high``. Centred on the mean bot, or 0 for ``anchor``. With one
    bot the rating is 0; with one block, or ``n_bootstrap == 0``, and for the anchor
    itself, ``low`` and ``high`` are null. Same seed, same intervals.
    """
    seat_counts = (
        seats.lazy()
        .group_by("bot")
        .agg(pl.len().cast(pl.Int64).alias("games"))
        .sort("bot")
        .collect()
    )
    bots: list[str] = seat_counts["bot"].to_list()
    if not bots:
        return pl.DataFrame(schema=RATINGS_SCHEMA)
    anchor_index = _anchor_index(bots, anchor)
    outcomes = pairwise_outcomes(seats)
    bot_index = {bot: i for i, bot in enumerate(bots)}
    size = len(bots)
    pair = (
        outcomes["bot"].replace_strict(bot_index, return_dtype=pl.Int64).to_numpy() * size
        + outcomes["opponent"].replace_strict(bot_index, return_dtype=pl.Int64).to_numpy()
    ).astype(np.intp)
    wins = outcomes["wins"].to_numpy().astype(np.float64)
    block_labels = outcomes["block"].to_numpy()
    _, block_codes = np.unique(block_labels, return_inverse=True)
    n_blocks = int(block_codes.max()) + 1 if block_codes.size else 0

    def ratings_for(weights: FloatArray | None) -> FloatArray:
        weighted = wins if weights is None else wins * weights[block_codes]
        matrix = np.bincount(pair, weights=weighted, minlength=size * size).astype(np.float64)
        strengths = fit_log_strengths(matrix.reshape(size, size), regularisation)
        return _to_scale(strengths, anchor_index)

    rating = ratings_for(None)
    low = np.full(size, np.nan)
    high = np.full(size, np.nan)
    if size > 1 and n_blocks > 1 and n_bootstrap > 0:
        rng = np.random.default_rng(seed)
        replicates = np.stack(
            [ratings_for(w) for w in block_bootstrap_weights(n_blocks, n_bootstrap, rng)]
        )
        low, high = percentile_interval(replicates, confidence)
        if anchor_index is not None:
            low[anchor_index] = high[anchor_index] = np.nan
    return (
        pl.DataFrame(
            {
                "bot": bots,
                "games": seat_counts["games"],
                "rating": rating,
                "low": low,
                "high": high,
            },
            schema=RATINGS_SCHEMA,
        )
        .with_columns(pl.col("low", "high").fill_nan(None))
        .sort(["rating", "bot"], descending=[True, False])
    )


def _anchor_index(bots: list[str], anchor: str | None) -> int | None:
    if anchor is None:
        return None
    if anchor not in bots:
        raise UnknownAnchorError(
            f"ratings anchor {anchor!r} did not play; bots in the results: {', '.join(bots)}"
        )
    return bots.index(anchor)
