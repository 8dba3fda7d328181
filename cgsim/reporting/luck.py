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

import numpy as np
import numpy.typing as npt
import polars as pl

from cgsim.reporting.intervals import interval_table
from cgsim.reporting.stats import percentile_interval

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


def _levels(*factors: npt.NDArray[np.intp]) -> int:
    """Distinct combinations of the factors' codes over the rows."""
    combined = np.zeros_like(factors[0], dtype=np.int64)
    for codes in factors:
        combined = combined * (int(codes.max()) + 1) + codes
    return int(np.unique(combined).size)


def _freedom(codes: npt.NDArray[np.intp], earlier: Sequence[npt.NDArray[np.intp]]) -> int:
    """Degrees of freedom a factor adds after the earlier ones: its levels less those of
    the earlier factors it refines (each of its groups lies within one of their levels),
    less one for the grand mean when it refines none."""
    levels = _levels(codes)
    nested = [e for e in earlier if _levels(codes, e) == levels]
    return levels - (_levels(*nested) if nested else 1)


def variance_shares(
    values: FloatArray,
    factors: Sequence[npt.NDArray[np.intp]],
    freedoms: Sequence[int] | None = None,
) -> FloatArray:
    """Shares of the total variance taken by each factor's main effect and the residual.

    Effects are fitted one after the other on what the previous left (sequential sums of
    squares), in the order given; with the balanced seatings of a duplicate run the order
    hardly matters. A factor's raw share overstates it: pure noise averaged over a group of
    few rows still varies between groups (a deal played twice explains about half of pure
    noise). So each share is corrected by the method of moments: the effect's variance less
    its degrees of freedom times the residual variance per row, which is what noise alone
    would give; the correction goes to the residual. A corrected share is therefore near 0
    (and may dip below it) for a factor that does nothing. Returns ``len(factors) + 1``
    shares summing to 1 (zeros if the values are constant). ``freedoms``: the factors'
    degrees of freedom when already known (a bootstrap sample whose drawn blocks are
    distinct deals keeps those of the whole run), to save finding them again.
    """
    n = values.size
    total = float(np.var(values))
    if total <= 0.0 or n < 2:
        return np.zeros(len(factors) + 1)
    rest = values - values.mean()
    if freedoms is None:
        freedoms = [_freedom(codes, factors[:index]) for index, codes in enumerate(factors)]
    effects: list[float] = []
    for codes in factors:
        effect = _effect(codes, rest)
        effects.append(float(np.var(effect)))
        rest = rest - effect
    residual = float(np.var(rest))
    left = n - sum(freedoms)
    noise = residual * n / left if left > 0 else 0.0  # residual variance of one row
    shares = [
        (effect - df * noise / n) / total for effect, df in zip(effects, freedoms, strict=True)
    ]
    shares.append(noise / total)
    return np.asarray(shares, dtype=np.float64)


def _replicates(
    values: FloatArray,
    blocks: npt.NDArray[np.intp],
    seat: npt.NDArray[np.intp],
    bot: npt.NDArray[np.intp],
    n_resamples: int,
    seed: int,
) -> FloatArray:
    """:func:`variance_shares` of block-bootstrap samples. A block drawn twice is two
    deals (its deal cells get the draw's number), or its repeated rows would pass for
    one deal played twice as often and shift the deal's correction."""
    rng = np.random.default_rng(seed)
    members = [np.flatnonzero(blocks == b) for b in range(int(blocks.max()) + 1)]
    seats = int(seat.max()) + 1
    deal = np.asarray(blocks * seats + seat, dtype=np.intp)
    freedoms = [_freedom(f, [seat, bot][:i]) for i, f in enumerate((seat, bot, deal))]
    replicates = []
    for _ in range(n_resamples):
        drawn = rng.integers(0, len(members), size=len(members))
        rows = np.concatenate([members[d] for d in drawn])
        draw = np.repeat(np.arange(len(drawn)), [members[d].size for d in drawn])
        cells = np.asarray(draw * seats + seat[rows], dtype=np.intp)
        replicates.append(variance_shares(values[rows], [seat[rows], bot[rows], cells], freedoms))
    return np.stack(replicates) if replicates else np.empty((0, len(COMPONENTS)))


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
        blocks, seat, bot = _codes(part["block"]), _codes(part["seat"]), _codes(part["bot"])
        factors = [seat, bot, np.asarray(blocks * (int(seat.max()) + 1) + seat, dtype=np.intp)]
        for value in values:
            if value not in part.columns:
                continue
            y = part[value].cast(pl.Float64).to_numpy()
            estimate = variance_shares(y, factors)
            replicates = _replicates(y, blocks, seat, bot, n_resamples, seed)
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


def _skill_pairs(seats: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame | None:
    """One row per pair of seats of one game where the overall stronger bot (higher mean
    win share) meets a weaker one: ``players``, ``block`` and ``ahead`` (1 when the
    stronger scored more, 0.5 on equal scores, else 0). None without two bots meeting or
    when no bot is stronger."""
    frame = seats.lazy().filter(pl.col("players") > 1).collect()
    if frame.is_empty() or frame["bot"].n_unique() < 2:
        return None
    strength = frame.group_by("bot").agg(pl.col("win_share").mean().alias("strength"))
    if strength["strength"].n_unique() < 2:
        return None
    ranked = frame.join(strength, on="bot").select(
        "game_id", "players", "block", "bot", "score", "strength"
    )
    ahead = (pl.col("score") > pl.col("score_b")).cast(pl.Float64) + 0.5 * (
        pl.col("score") == pl.col("score_b")
    ).cast(pl.Float64)
    pairs = (
        ranked.join(ranked.select("game_id", "score", "strength"), on="game_id", suffix="_b")
        .filter(pl.col("strength") > pl.col("strength_b"))
        .select("players", "block", ahead.alias("ahead"))
    )
    return None if pairs.is_empty() else pairs


def skill_share(seats: pl.LazyFrame | pl.DataFrame) -> float | None:
    """How often, on the same deal and in the same game, the overall stronger bot (higher
    mean win share) scores more than the weaker one; ties count half. None without two
    bots meeting. 0.5 means skill does not show; 1.0 means the better bot always wins."""
    frame = seats.lazy().filter(pl.col("players") > 1).collect()
    if frame.is_empty() or frame["bot"].n_unique() < 2:
        return None
    pairs = _skill_pairs(frame)
    return 0.5 if pairs is None else float(pairs["ahead"].mean())  # type: ignore[arg-type]


def skill_share_table(seats: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """:func:`skill_share` per player count with its 95% block interval (``pairs`` of
    seats compared, ``blocks``, ``skill_share``, ``low``, ``high``); empty without a
    stronger bot."""
    pairs = _skill_pairs(seats)
    if pairs is None:
        return pl.DataFrame()
    table = interval_table(pairs, ["players"], "ahead", "skill_share", rate=True)
    return table.rename({"games": "pairs"})


def deal_decides(table: pl.DataFrame, value: str = "win_share") -> list[int]:
    """Player counts whose deal share of ``value`` is established above :data:`DEAL_DECIDES`."""
    hits = table.filter(
        (pl.col("value") == value)
        & (pl.col("component") == "deal")
        & (pl.col("low") > DEAL_DECIDES)
    )
    return sorted(int(p) for p in hits["players"])
