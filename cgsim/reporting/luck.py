"""Luck versus skill: how much of a game's outcome the deal decides.

A duplicate-format run plays every deal (block) with several seatings, so each seat row's
value (score or win share) can be split into additive parts: the deal's, the seat's, the
bot's and what is left (the residual: in-game chance and interaction). The share of the
variance each part explains answers "is my game too random?"; a block bootstrap gives the
intervals, since games on one deal are not independent. The skill share is the direct
question: on the same deal, how often does the stronger bot finish ahead of the weaker?
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np
import numpy.typing as npt
import polars as pl

from cgsim.reporting.stats import block_bootstrap, percentile_interval

FloatArray = npt.NDArray[np.float64]
COMPONENTS = ("seat", "bot", "deal", "residual")
"""Fitted in this order; the deal is a deal-and-seat cell (what the deal hands each seat:
in a zero-sum outcome a deal only matters through whom it favours)."""
DEAL_DECIDES = 0.5
"""A deal share whose interval lies above this: the game's outcomes are mostly the deal."""


def _effect(codes: npt.NDArray[np.intp], values: FloatArray) -> FloatArray:
    """Each row's group mean (by integer ``codes``) minus the grand mean."""
    sums = np.bincount(codes, weights=values)
    counts = np.bincount(codes)
    means = np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)
    return np.asarray(means[codes] - values.mean(), dtype=np.float64)


def variance_shares(values: FloatArray, factors: Sequence[npt.NDArray[np.intp]]) -> FloatArray:
    """Shares of the total variance taken by each factor's main effect and the residual.

    Effects are fitted one after the other on what the previous left (sequential sums of
    squares), in the order given; with the balanced seatings of a duplicate run the order
    hardly matters. Returns ``len(factors) + 1`` shares summing to 1 (zeros if constant).
    """
    total = float(np.var(values))
    if total <= 0.0:
        return np.zeros(len(factors) + 1)
    rest = values - values.mean()
    shares = []
    for codes in factors:
        effect = _effect(codes, rest)
        shares.append(float(np.var(effect)) / total)
        rest = rest - effect
    shares.append(float(np.var(rest)) / total)
    return np.asarray(shares, dtype=np.float64)


def _resampled(
    values: FloatArray, factors: Sequence[npt.NDArray[np.intp]], rows: npt.NDArray[np.intp]
) -> FloatArray:
    """:func:`variance_shares` on the rows of one bootstrap sample."""
    return variance_shares(values[rows], [f[rows] for f in factors])


def _codes(column: pl.Series) -> npt.NDArray[np.intp]:
    """Integer group codes for any column (structs included)."""
    _, codes = np.unique(column.hash().to_numpy(), return_inverse=True)
    return np.asarray(codes, dtype=np.intp)


def luck_skill(
    seats: pl.LazyFrame | pl.DataFrame,
    values: Sequence[str] = ("score", "win_share"),
    n_resamples: int = 200,
    seed: int = 0,
) -> pl.DataFrame:
    """Per player count and value: each component's variance share with a block-bootstrap
    95% interval (rows ``value``, ``component``, ``share``, ``low``, ``high``)."""
    frame = seats.lazy().filter(pl.col("players") > 1).collect()
    rows: list[dict[str, object]] = []
    for (players,), part in sorted(frame.partition_by(["players"], as_dict=True).items()):
        blocks = part["block"].to_numpy()
        deal = part.select(pl.struct("block", "seat").alias("cell"))["cell"]
        factors = [_codes(part["seat"]), _codes(part["bot"]), _codes(deal)]
        for value in values:
            if value not in part.columns:
                continue
            y = part[value].cast(pl.Float64).to_numpy()
            estimate = variance_shares(y, factors)
            replicates = block_bootstrap(
                blocks,
                partial(_resampled, y, factors),
                n_resamples,
                seed,
            )
            low, high = percentile_interval(replicates)
            for i, component in enumerate(COMPONENTS):
                rows.append(
                    {
                        "players": players,
                        "value": value,
                        "component": component,
                        "share": float(estimate[i]),
                        "low": float(low[i]),
                        "high": float(high[i]),
                    }
                )
    return pl.DataFrame(
        rows,
        schema={
            "players": pl.Int64,
            "value": pl.String,
            "component": pl.String,
            "share": pl.Float64,
            "low": pl.Float64,
            "high": pl.Float64,
        },
    )


def skill_share(seats: pl.LazyFrame | pl.DataFrame) -> float | None:
    """How often, on the same deal and in the same game, the overall stronger bot (higher
    mean win share) scores more than the weaker one; ties count half. None without two
    bots meeting. 0.5 means skill does not show; 1.0 means the better bot always wins."""
    frame = seats.lazy().filter(pl.col("players") > 1).collect()
    if frame.is_empty() or frame["bot"].n_unique() < 2:
        return None
    strength = frame.group_by("bot").agg(pl.col("win_share").mean().alias("strength"))
    if strength["strength"].n_unique() < 2:
        return 0.5  # no bot is stronger: skill does not show
    ranked = frame.join(strength, on="bot").select("game_id", "bot", "score", "strength")
    pairs = ranked.join(ranked, on="game_id", suffix="_b").filter(
        pl.col("strength") > pl.col("strength_b")
    )
    if pairs.is_empty():
        return None
    ahead = (pl.col("score") > pl.col("score_b")).cast(pl.Float64) + 0.5 * (
        pl.col("score") == pl.col("score_b")
    ).cast(pl.Float64)
    return float(pairs.select(ahead.mean()).item())


def deal_decides(table: pl.DataFrame, value: str = "win_share") -> list[int]:
    """Player counts whose deal share of ``value`` is established above :data:`DEAL_DECIDES`."""
    hits = table.filter(
        (pl.col("value") == value)
        & (pl.col("component") == "deal")
        & (pl.col("low") > DEAL_DECIDES)
    )
    return sorted(int(p) for p in hits["players"])
