"""Balance metrics of a run: what a designer asks of a rule set, with intervals and flags.

Two layers. :func:`game_metrics` turns the result tables into one row per game holding
every scalar outcome measure (seat win shares, mean score, length, margin, ties, bonus
counts...), so comparisons, sweeps and tuning all measure the same things the same way,
with the deal block as the independent unit. :func:`balance_tables` builds the balance
tables of one run (seat advantage, decisiveness, drawishness, duration, score spread,
component balance, bonus economy, skill depth, which choices go with winning, and the
game's own measures such as Kitchen Garden's win rate by task) and :func:`balance_flags`
lists every measure that looks unbalanced. Nothing here knows a game beyond optional
column names: measures whose columns a run lacks are simply absent.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from cgsim.reporting.ratings import rate_bots
from cgsim.reporting.stats import (
    Interval,
    block_mean_interval,
    block_proportion_interval,
    holm_adjust,
    welch_difference,
)

DECIDED_ENDS = ("normal", "stalled")
CONFIDENCE = 0.95

GAME_COLUMNS = ("final_round_turns", "attack_on_runner_up")
"""Game-specific per-game columns measured when present (Cottage Garden's final round,
Kitchen Garden's "an attack on the runner-up decided it" flag)."""

SEAT_COLUMNS = (
    "beds_completed",
    "pots_scored",
    "cloches_scored",
    "cats_gained",
    "cats_used",
    "pots_taken",
    "bonus_pots",
    "rambles",
    "beehives",
    "passes",
    "penalty_points",
    "plants_planted",
    "weeds_played",
    "sluggards_played",
    "sluggard_turns_lost",
    "workers_used",
    "specials_used",
    "harvests",
)
"""Game-specific per-seat counts measured (as a mean per seat) when present."""

BONUS_COLUMNS = ("cats_gained", "cats_used", "pots_taken", "bonus_pots", "rambles", "beehives")
"""The bonus economy of Cottage Garden."""

RATE_METRICS = ("tie_rate", "aborted_rate", "attack_on_runner_up")
"""Metrics that are proportions (besides the win rates)."""

TIE_RATE_FLAG = 0.10
ABORTED_FLAG = 0.01
MIN_DEPTH_ELO = 100.0
"""A strongest-minus-weakest rating gap below this suggests skill hardly matters."""

BOT_PREFIX = "win_rate:"


def is_rate(metric: str) -> bool:
    """Whether a metric of :func:`game_metrics` is a proportion (compared as one)."""
    return metric.endswith("_win_rate") or metric.startswith(BOT_PREFIX) or metric in RATE_METRICS


def _lazy(frame: pl.DataFrame | pl.LazyFrame) -> pl.LazyFrame:
    return frame.lazy()


def game_metrics(
    games: pl.DataFrame | pl.LazyFrame, seats: pl.DataFrame | pl.LazyFrame
) -> pl.DataFrame:
    """One row per game (error games left out): ``game_id``, ``block``, ``seed``,
    ``players`` and every measure, Float64, null where it does not apply.

    Outcome measures use the games that ended normal or stalled; ``aborted_rate`` is 1 for
    an aborted game and 0 otherwise. Measures: ``seat{k}_win_rate`` (win share of seat
    ``k``), ``win_rate:<bot>`` (mean win share of the bot's seats, when several bots
    play), ``mean_score``, ``turns``, ``tie_rate``, ``margin`` (winner minus runner-up),
    ``score_range`` (best minus worst), ``aborted_rate``, and the game-specific
    :data:`GAME_COLUMNS` and :data:`SEAT_COLUMNS` (mean per seat) the run has.
    """
    g = _lazy(games).filter(pl.col("end") != "error")
    s = _lazy(seats)
    game_schema = g.collect_schema()
    seat_schema = s.collect_schema()
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
        *[pl.col(c).cast(pl.Float64) for c in GAME_COLUMNS if c in game_schema],
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
    extra = [pl.col(c).cast(pl.Float64).mean() for c in SEAT_COLUMNS if c in seat_schema]
    runner_up = score.sort(descending=True).slice(1, 1).first()
    per_game = s.group_by("game_id").agg(
        *per_seat,
        *per_bot,
        score.mean().alias("mean_score"),
        (score.max() - runner_up).alias("margin"),
        (score.max() - score.min()).alias("score_range"),
        *extra,
    )
    joined = info.join(per_game, on="game_id", how="left")
    outcome = [
        c
        for c in joined.collect_schema().names()
        if c not in ("game_id", "block", "seed", "players", "end", "aborted_rate")
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
    ids = ("game_id", "block", "seed", "players")
    return [c for c in frame.columns if c not in ids and frame[c].drop_nulls().len() > 0]


def summarize_metrics(metrics: pl.DataFrame, confidence: float = CONFIDENCE) -> pl.DataFrame:
    """Per measure: games, blocks, mean and its 95% block interval (rates clipped to [0, 1]).

    Adds ``seat_fairness``: the largest distance of a seat's win share from the fair
    1/players (no interval; the seat rows carry theirs).
    """
    rows = []
    for metric in metric_columns(metrics):
        part = metrics.filter(pl.col(metric).is_not_null())
        interval_of = block_proportion_interval if is_rate(metric) else block_mean_interval
        interval = interval_of(part[metric].to_numpy(), part["block"].to_numpy(), confidence)
        rows.append(_summary_row(metric, part.height, interval))
    fairness = seat_fairness(metrics)
    if not math.isnan(fairness):
        rows.append(
            {
                "metric": "seat_fairness",
                "games": metrics.height,
                "blocks": metrics["block"].n_unique(),
                "estimate": fairness,
                "low": None,
                "high": None,
            }
        )
    schema = {
        "metric": pl.String(),
        "games": pl.Int64(),
        "blocks": pl.Int64(),
        "estimate": pl.Float64(),
        "low": pl.Float64(),
        "high": pl.Float64(),
    }
    return pl.DataFrame(rows, schema=schema)


def _summary_row(metric: str, games: int, interval: Interval) -> dict[str, object]:
    return {
        "metric": metric,
        "games": games,
        "blocks": interval.n,
        "estimate": interval.estimate,
        "low": None if math.isnan(interval.low) else interval.low,
        "high": None if math.isnan(interval.high) else interval.high,
    }


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


# ---------------------------------------------------------------- balance tables of a run


def _interval_rows(
    frame: pl.DataFrame, keys: Sequence[str], value: str, *, rate: bool
) -> pl.DataFrame:
    """Per group of ``keys``: games, blocks, mean of ``value`` with its block interval."""
    rows = []
    groups = (
        frame.partition_by(list(keys), as_dict=True, maintain_order=True) if keys else {(): frame}
    )
    interval_of = block_proportion_interval if rate else block_mean_interval
    for key, part in sorted(groups.items(), key=lambda item: tuple(map(str, item[0]))):
        part = part.filter(pl.col(value).is_not_null())
        if part.is_empty():
            continue
        interval = interval_of(part[value].to_numpy(), part["block"].to_numpy(), CONFIDENCE)
        rows.append(
            {
                **dict(zip(keys, key, strict=True)),
                "games": part.height,
                "blocks": interval.n,
                value: interval.estimate,
                "low": None if math.isnan(interval.low) else interval.low,
                "high": None if math.isnan(interval.high) else interval.high,
            }
        )
    schema: dict[str, pl.DataType] = {k: frame.schema[k] for k in keys}
    schema |= {"games": pl.Int64(), "blocks": pl.Int64(), value: pl.Float64()}
    schema |= {"low": pl.Float64(), "high": pl.Float64()}
    return pl.DataFrame(rows, schema=schema)


def seat_advantage(seats: pl.DataFrame) -> pl.DataFrame:
    """Each seat's win share against the fair 1/players, with block intervals; ``unfair``
    is true when the interval excludes the fair share."""
    table = _interval_rows(
        seats.filter(pl.col("players") > 1), ["players", "seat"], "win_share", rate=True
    )
    return table.with_columns((1.0 / pl.col("players")).alias("fair")).with_columns(
        (pl.col("win_share") - pl.col("fair")).alias("excess"),
        ((pl.col("low") > pl.col("fair")) | (pl.col("high") < pl.col("fair")))
        .fill_null(False)
        .alias("unfair"),
    )


def outcome_shape(metrics: pl.DataFrame) -> pl.DataFrame:
    """Decisiveness, drawishness, duration and spread: each measure's mean with its block
    interval and its quartiles."""
    wanted = [
        "margin",
        "score_range",
        "tie_rate",
        "turns",
        "final_round_turns",
        "mean_score",
        "aborted_rate",
        "attack_on_runner_up",
    ]
    summary = summarize_metrics(
        metrics.select(
            "game_id", "block", "seed", "players", *[c for c in wanted if c in metrics.columns]
        )
    )
    summary = summary.filter(pl.col("metric") != "seat_fairness")
    quartiles = []
    for metric in summary["metric"].to_list():
        values = metrics[metric].drop_nulls()
        quartiles.append(
            {
                "metric": metric,
                "q25": values.quantile(0.25, "linear"),
                "q50": values.quantile(0.5, "linear"),
                "q75": values.quantile(0.75, "linear"),
            }
        )
    schema = {"metric": pl.String(), "q25": pl.Float64(), "q50": pl.Float64(), "q75": pl.Float64()}
    return summary.join(pl.DataFrame(quartiles, schema=schema), on="metric", how="left")


def score_spread(seats: pl.DataFrame) -> pl.DataFrame:
    """Per player count: the standard deviation of final scores and its quartiles."""
    return (
        seats.group_by("players")
        .agg(
            pl.len().cast(pl.Int64).alias("seat_games"),
            pl.col("score").mean().alias("mean"),
            pl.col("score").std().alias("sd"),
            pl.col("score").quantile(0.25, "linear").alias("q25"),
            pl.col("score").quantile(0.75, "linear").alias("q75"),
        )
        .sort("players")
    )


def component_balance(beds: pl.DataFrame) -> pl.DataFrame:
    """Per board and side: beds scored, mean pots, cloches and turns to complete with block
    intervals (Cottage Garden's ``beds`` table)."""
    keys = [k for k in ("board", "side") if k in beds.columns]
    parts = []
    for value in ("pots", "cloches", "turns_to_complete"):
        if value not in beds.columns:
            continue
        frame = beds.with_columns(pl.col(value).cast(pl.Float64))
        table = _interval_rows(frame, keys, value, rate=False)
        parts.append(
            table.rename({value: "mean", "games": "beds"}).select(
                *keys, pl.lit(value).alias("measure"), "beds", "blocks", "mean", "low", "high"
            )
        )
    if not parts:
        return pl.DataFrame()
    return pl.concat(parts).sort([*keys, "measure"])


def tile_kind_balance(tiles: pl.DataFrame, games: int) -> pl.DataFrame:
    """Per tile kind (Cottage Garden's ``tiles`` table): how often it is taken per game, and
    how often it covers a printed pot or cloche; a kind nobody wants, or that cannot be
    placed without covering features, shows here."""
    if tiles.is_empty() or not {"kind", "size", "covered"} <= set(tiles.columns):
        return pl.DataFrame()
    return (
        tiles.group_by("kind")
        .agg(
            pl.col("size").first().alias("size"),
            pl.len().cast(pl.Int64).alias("taken"),
            (pl.len() / max(games, 1)).alias("taken_per_game"),
            (pl.col("covered") > 0).mean().alias("covers_share"),
            pl.col("covered").cast(pl.Float64).mean().alias("mean_covered"),
        )
        .sort("size", "kind")
    )


def side_differences(beds: pl.DataFrame) -> pl.DataFrame:
    """Per board: the two sides' difference in points on the bed (pots + cloches) and in
    turns to complete, with Welch intervals over deal blocks (each side's per-block mean is
    one unit, since beds of one deal are alike) and Holm-adjusted p-values over all boards
    and measures."""
    if not {"board", "side", "pots", "cloches", "block"} <= set(beds.columns):
        return pl.DataFrame()
    per_block = (
        beds.with_columns((pl.col("pots") + pl.col("cloches")).alias("points"))
        .group_by("board", "side", "block")
        .agg(
            pl.col("points").cast(pl.Float64).mean(),
            pl.col("turns_to_complete").cast(pl.Float64).mean(),
        )
        # group_by returns groups in no fixed order, and the Welch sums depend on it.
        .sort("board", "side", "block")
    )
    rows = []
    for (board,), part in sorted(per_block.partition_by("board", as_dict=True).items()):
        sides = sorted(part["side"].unique().to_list())
        if len(sides) != 2:
            continue
        for measure in ("points", "turns_to_complete"):
            a = part.filter(pl.col("side") == sides[0])[measure].to_numpy()
            b = part.filter(pl.col("side") == sides[1])[measure].to_numpy()
            diff = welch_difference(a, b, CONFIDENCE)
            rows.append(
                {
                    "board": board,
                    "measure": measure,
                    "sides": f"{sides[0]} - {sides[1]}",
                    "difference": diff.estimate,
                    "low": diff.low,
                    "high": diff.high,
                    "p_value": diff.p_value,
                }
            )
    if not rows:
        return pl.DataFrame()
    table = pl.DataFrame(rows).fill_nan(None)
    adjusted = holm_adjust(table["p_value"].fill_null(float("nan")).to_numpy())
    return table.with_columns(pl.Series("p_holm", adjusted).fill_nan(None))


def bonus_economy(seats: pl.DataFrame) -> pl.DataFrame:
    """Mean per seat-game of the bonus counts (cats gained and used, pots, rambles,
    beehives), per player count, with block intervals."""
    parts = []
    for column in [c for c in BONUS_COLUMNS if c in seats.columns]:
        frame = seats.with_columns(pl.col(column).cast(pl.Float64))
        table = _interval_rows(frame, ["players"], column, rate=False)
        parts.append(
            table.rename({column: "mean"}).select(
                "players", pl.lit(column).alias("bonus"), "games", "blocks", "mean", "low", "high"
            )
        )
    return pl.concat(parts) if parts else pl.DataFrame()


def skill_depth(seats: pl.DataFrame, seed: int = 0) -> pl.DataFrame:
    """Per bot: win share with its block interval and Elo-scale rating; the spread from the
    strongest to the weakest bot is the skill depth (a steep ladder: skill matters)."""
    contest = seats.filter(pl.col("players") > 1)
    if contest["bot"].n_unique() < 2:
        return pl.DataFrame()
    win = _interval_rows(contest, ["bot"], "win_share", rate=True)
    ratings = rate_bots(contest, n_bootstrap=100, seed=seed).select(
        "bot", "rating", pl.col("low").alias("rating_low"), pl.col("high").alias("rating_high")
    )
    return win.join(ratings, on="bot", how="left").sort("rating", descending=True)


def win_predictors(seats: pl.DataFrame) -> pl.DataFrame:
    """Which per-seat choices go with winning: for each game-specific count, its mean among
    winners and among the others, the difference (Welch interval, seats as units) and its
    correlation with the win share. Descriptive: it shows association, not cause."""
    contest = seats.filter(pl.col("players") > 1)
    rows = []
    for column in [c for c in SEAT_COLUMNS if c in contest.columns]:
        values = contest[column].cast(pl.Float64).to_numpy()
        shares = contest["win_share"].to_numpy()
        won = shares > 0
        if won.all() or not won.any() or np.std(values) == 0.0:
            continue
        diff = welch_difference(values[won], values[~won], CONFIDENCE)
        rows.append(
            {
                "choice": column,
                "winners": float(values[won].mean()),
                "others": float(values[~won].mean()),
                "difference": diff.estimate,
                "low": diff.low,
                "high": diff.high,
                "correlation": float(np.corrcoef(values, shares)[0, 1]),
            }
        )
    if not rows:
        return pl.DataFrame()
    return pl.DataFrame(rows).sort("correlation", descending=True)


def win_rate_by_column(seats: pl.DataFrame, column: str) -> pl.DataFrame:
    """Win share per value of a seat column (Kitchen Garden's ``task``) against the fair
    1/players, with block intervals."""
    contest = seats.filter(pl.col("players") > 1)
    table = _interval_rows(contest, ["players", column], "win_share", rate=True)
    return table.with_columns((1.0 / pl.col("players")).alias("fair")).with_columns(
        ((pl.col("low") > pl.col("fair")) | (pl.col("high") < pl.col("fair")))
        .fill_null(False)
        .alias("unfair")
    )


@dataclass(frozen=True)
class BalanceSection:
    """A titled group of balance tables with a sentence on how to read them."""

    title: str
    text: str
    tables: tuple[str, ...]


SECTIONS = (
    BalanceSection(
        "Balance flags",
        "Every measure that looks unbalanced, with the reason; empty when nothing does.",
        ("balance_flags",),
    ),
    BalanceSection(
        "Seat advantage",
        "Each seat's win share against the fair 1/players with 95% block intervals; "
        "'unfair' marks an interval that excludes the fair share.",
        ("balance_seat_advantage",),
    ),
    BalanceSection(
        "Decisiveness, drawishness, duration",
        "Margin of victory (winner minus runner-up), score range, tie rate (shared wins), "
        "turns and final-round turns: means with 95% block intervals and quartiles.",
        ("balance_outcome", "balance_score_spread"),
    ),
    BalanceSection(
        "Component balance",
        "Per board and side: pots, cloches and turns to complete of the beds scored; then "
        "the two sides of each board compared (Welch intervals over deal blocks, "
        "Holm-adjusted p-values); then per tile kind: how often it is taken per game and "
        "how often it covers a printed pot or cloche.",
        ("balance_components", "balance_side_differences", "balance_tile_kinds"),
    ),
    BalanceSection(
        "Bonus economy",
        "Cats gained and used, pots taken, bonus pots, rambles and beehives per seat-game.",
        ("balance_bonus",),
    ),
    BalanceSection(
        "Skill depth",
        "Win share and rating per bot: the gap from the strongest to the weakest bot shows "
        "how much skill matters.",
        ("balance_skill_depth",),
    ),
    BalanceSection(
        "Choices that go with winning",
        "Per-seat counts among winners and the others (association, not cause).",
        ("balance_win_predictors",),
    ),
    BalanceSection(
        "Win rate by task",
        "Kitchen Garden: win share of each secret task against the fair share.",
        ("balance_task_win_rate",),
    ),
)


def balance_tables(
    tables: Mapping[str, pl.DataFrame | pl.LazyFrame], seed: int = 0
) -> dict[str, pl.DataFrame]:
    """Every balance table a run supports, by name (``balance_*``), from its result tables
    (``games``, ``seats`` and, when present, ``beds``); empty ones are left out."""
    games = _lazy(tables["games"]).collect()
    seats_all = _lazy(tables["seats"]).collect()
    decided_ids = games.filter(pl.col("end").is_in(DECIDED_ENDS)).select("game_id")
    seats = seats_all.join(decided_ids, on="game_id", how="semi")
    out: dict[str, pl.DataFrame] = {}
    if games.is_empty():
        return out
    metrics = game_metrics(games, seats_all)
    out["balance_seat_advantage"] = seat_advantage(seats)
    out["balance_outcome"] = outcome_shape(metrics)
    out["balance_score_spread"] = score_spread(seats)
    if "beds" in tables:
        beds = _lazy(tables["beds"]).collect().join(decided_ids, on="game_id", how="semi")
        out["balance_components"] = component_balance(beds)
        out["balance_side_differences"] = side_differences(beds)
    if "tiles" in tables:
        tiles = _lazy(tables["tiles"]).collect().join(decided_ids, on="game_id", how="semi")
        out["balance_tile_kinds"] = tile_kind_balance(tiles, decided_ids.height)
    out["balance_bonus"] = bonus_economy(seats)
    out["balance_skill_depth"] = skill_depth(seats, seed)
    out["balance_win_predictors"] = win_predictors(seats)
    if "task" in seats.columns:
        out["balance_task_win_rate"] = win_rate_by_column(seats, "task")
    out = {name: table for name, table in out.items() if table.height > 0}
    out["balance_flags"] = balance_flags(out)
    return out


def balance_flags(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """One row per measure that looks unbalanced: ``measure``, ``value`` and ``reason``."""
    flags: list[dict[str, object]] = []
    seats = tables.get("balance_seat_advantage")
    for row in seats.iter_rows(named=True) if seats is not None else []:
        if row["unfair"]:
            flags.append(
                {
                    "measure": f"{row['players']}p seat {row['seat']} win share",
                    "value": row["win_share"],
                    "reason": f"95% interval [{row['low']:.3f}, {row['high']:.3f}] excludes "
                    f"the fair {row['fair']:.3f}",
                }
            )
    outcome = tables.get("balance_outcome")
    limits = {"tie_rate": TIE_RATE_FLAG, "aborted_rate": ABORTED_FLAG}
    for row in outcome.iter_rows(named=True) if outcome is not None else []:
        limit = limits.get(row["metric"])
        if limit is not None and row["low"] is not None and row["low"] > limit:
            flags.append(
                {
                    "measure": row["metric"],
                    "value": row["estimate"],
                    "reason": f"above {limit:.2f} with 95% confidence",
                }
            )
    sides = tables.get("balance_side_differences")
    for row in sides.iter_rows(named=True) if sides is not None else []:
        if row["p_holm"] is not None and row["p_holm"] < 0.05:
            flags.append(
                {
                    "measure": f"board {row['board']} {row['measure']} ({row['sides']})",
                    "value": row["difference"],
                    "reason": "the two sides differ (Holm-adjusted p < 0.05)",
                }
            )
    tasks = tables.get("balance_task_win_rate")
    for row in tasks.iter_rows(named=True) if tasks is not None else []:
        if row["unfair"]:
            flags.append(
                {
                    "measure": f"task {row['task']} win share",
                    "value": row["win_share"],
                    "reason": f"95% interval excludes the fair {row['fair']:.3f}",
                }
            )
    depth = tables.get("balance_skill_depth")
    if depth is not None and depth.height > 1:
        gap = float(depth["rating"].max()) - float(depth["rating"].min())  # type: ignore[arg-type]
        if gap < MIN_DEPTH_ELO:
            flags.append(
                {
                    "measure": "skill depth",
                    "value": gap,
                    "reason": f"strongest and weakest bot within {MIN_DEPTH_ELO:.0f} Elo: "
                    "skill hardly matters",
                }
            )
    schema = {"measure": pl.String(), "value": pl.Float64(), "reason": pl.String()}
    return pl.DataFrame(flags, schema=schema)


def write_balance_report(results_dir: Path, out_dir: Path | None = None) -> dict[str, Path]:
    """balance.md, a self-contained balance.html and ``tables/balance_*.csv`` of a run
    (into ``out_dir``, default the results directory)."""
    from cgsim.play.results import load_tables, read_manifest
    from cgsim.reporting.report import STYLE, html_table, markdown_table
    from cgsim.reporting.studyplots import html_page

    manifest = read_manifest(results_dir)
    tables = balance_tables(load_tables(results_dir))
    folder = Path(results_dir) if out_dir is None else out_dir
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for name, table in tables.items():
        paths[name] = folder / "tables" / f"{name}.csv"
        table.write_csv(paths[name])
    title = f"Balance: {manifest.get('name', Path(results_dir).name)}"
    md = [f"# {title}", ""]
    sections = []
    for section in SECTIONS:
        present = [name for name in section.tables if name in tables]
        if not present:
            continue
        md += [f"## {section.title}", "", section.text, ""]
        body = f"<p>{html.escape(section.text)}</p>"
        for name in present:
            md += [markdown_table(tables[name]), ""]
            body += html_table(tables[name])
        sections.append((section.title, body))
    paths["markdown"] = folder / "balance.md"
    paths["markdown"].write_text("\n".join(md), encoding="utf-8")
    paths["html"] = folder / "balance.html"
    paths["html"].write_text(html_page(title, [], sections, [], style=STYLE), encoding="utf-8")
    return paths
