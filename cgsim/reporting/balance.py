"""Balance of a run: what a designer asks of a rule set, with intervals and flags.

:func:`balance_tables` builds the balance tables of one run: seat advantage,
decisiveness, drawishness, duration, score spread and skill depth for every game, and
whatever the game's :class:`~cgsim.games.contract.Schema` declares: its per-game
measures and rates beside the length, its economy (``ECONOMY`` seat columns) per player
count, which per-seat counts go with winning (``COUNT`` and ``ECONOMY``), the win share by
each value of a ``CATEGORY`` seat column, and for each of its component tables the means
per component, the declared comparison and the declared frequency.
:func:`balance_flags` lists every measure that looks unbalanced. Nothing here names a
game or a game's column: section titles and texts are filled from the declaration.

Everything runs in polars over the (lazy) result tables; only aggregates, the per-game
measures and the seat columns the predictors need are collected.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from cgsim.games.contract import Breakdown, Comparison, ComponentTable, Frequency, Schema
from cgsim.reporting.drama import DECIDED_EARLY, decided_early, drama_table, ludii_table
from cgsim.reporting.intervals import CONFIDENCE, interval_table
from cgsim.reporting.luck import DEAL_DECIDES, deal_decides, luck_skill, skill_share_table
from cgsim.reporting.metrics import (
    DECIDED_ENDS,
    GAME_MEASURES,
    ID_COLUMNS,
    SEAT_MEASURES,
    game_metrics,
    present,
    summarize_metrics,
)
from cgsim.reporting.ratings import rate_bots
from cgsim.reporting.stats import holm_adjust, welch_difference

Frame = pl.DataFrame | pl.LazyFrame

TIE_RATE_FLAG = 0.10
ABORTED_FLAG = 0.01
MIN_DEPTH_ELO = 100.0
"""A strongest-minus-weakest rating gap below this suggests skill hardly matters."""
HOLM_FLAG = 0.05


# ---------------------------------------------------------------- table names


def means_name(table: ComponentTable) -> str:
    """The balance table of a component table's means per component."""
    return f"balance_{table.name}_means"


def comparison_name(table: ComponentTable) -> str:
    """The balance table of a component table's declared comparison."""
    return f"balance_{table.name}_comparison"


def frequency_name(table: ComponentTable) -> str:
    """The balance table of a component table's declared frequency."""
    return f"balance_{table.name}_frequency"


def category_name(column: str) -> str:
    """The balance table of the win share by a category seat column's values."""
    return f"balance_{column}_win_rate"


# ---------------------------------------------------------------- every game


def _with_fair_share(table: pl.DataFrame) -> pl.DataFrame:
    """Adds ``fair`` (1/players) and ``unfair``: the win-share interval excludes it."""
    return table.with_columns((1.0 / pl.col("players")).alias("fair")).with_columns(
        ((pl.col("low") > pl.col("fair")) | (pl.col("high") < pl.col("fair")))
        .fill_null(False)
        .alias("unfair")
    )


def seat_advantage(seats: Frame) -> pl.DataFrame:
    """Each seat's win share against the fair 1/players, with block intervals; ``unfair``
    is true when the interval excludes the fair share."""
    contest = seats.lazy().filter(pl.col("players") > 1)
    table = _with_fair_share(
        interval_table(contest, ["players", "seat"], "win_share", "win_share", rate=True)
    )
    return table.with_columns((pl.col("win_share") - pl.col("fair")).alias("excess")).select(
        "players", "seat", "games", "blocks", "win_share", "low", "high", "fair", "excess", "unfair"
    )


def outcome_shape(metrics: pl.DataFrame, schema: Schema) -> pl.DataFrame:
    """Decisiveness, drawishness, duration and spread, then the game's declared per-game
    measures and rates: each measure's mean with its block interval and its quartiles."""
    measures = schema.with_breakdown("games", Breakdown.MEASURE)
    rates = schema.with_breakdown("games", Breakdown.RATE)
    wanted = [
        "margin",
        "score_range",
        "tie_rate",
        "turns",
        *measures,
        "mean_score",
        "aborted_rate",
        *rates,
    ]
    columns = [c for c in wanted if c in metrics.columns]
    summary = summarize_metrics(metrics.select(*ID_COLUMNS, *columns), schema)
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
    quartile_schema = {
        "metric": pl.String(),
        "q25": pl.Float64(),
        "q50": pl.Float64(),
        "q75": pl.Float64(),
    }
    return summary.join(pl.DataFrame(quartiles, schema=quartile_schema), on="metric", how="left")


def score_spread(seats: Frame) -> pl.DataFrame:
    """Per player count: the standard deviation of final scores and its quartiles."""
    return (
        seats.lazy()
        .group_by("players")
        .agg(
            pl.len().cast(pl.Int64).alias("seat_games"),
            pl.col("score").mean().alias("mean"),
            pl.col("score").std().alias("sd"),
            pl.col("score").quantile(0.25, "linear").alias("q25"),
            pl.col("score").quantile(0.75, "linear").alias("q75"),
        )
        .sort("players")
        .collect()
    )


def skill_depth(seats: Frame, seed: int = 0) -> pl.DataFrame:
    """Per bot: win share with its block interval and Elo-scale rating; the spread from the
    strongest to the weakest bot is the skill depth (a steep ladder: skill matters)."""
    contest = seats.lazy().filter(pl.col("players") > 1)
    if contest.select(pl.col("bot").n_unique()).collect().item() < 2:
        return pl.DataFrame()
    win = interval_table(contest, ["bot"], "win_share", "win_share", rate=True)
    ratings = rate_bots(contest, n_bootstrap=100, seed=seed).select(
        "bot", "rating", pl.col("low").alias("rating_low"), pl.col("high").alias("rating_high")
    )
    return win.join(ratings, on="bot", how="left").sort("rating", descending=True)


# ---------------------------------------------------------------- what the game declares


def economy(seats: Frame, columns: Sequence[str]) -> pl.DataFrame:
    """Mean per seat-game of each of the game's economy counts, per player count, with
    block intervals."""
    parts = [
        interval_table(seats, ["players"], column, "mean", rate=False).select(
            "players", pl.lit(column).alias("measure"), "games", "blocks", "mean", "low", "high"
        )
        for column in columns
    ]
    return pl.concat(parts) if parts else pl.DataFrame()


def win_predictors(seats: Frame, columns: Sequence[str]) -> pl.DataFrame:
    """Which per-seat counts go with winning: for each, its mean among winners and among
    the others, the difference (Welch interval, seats as units) and its correlation with
    the win share. Descriptive: it shows association, not cause."""
    contest = seats.lazy().filter(pl.col("players") > 1).select("win_share", *columns).collect()
    shares = contest["win_share"].to_numpy()
    won = shares > 0
    rows = []
    for column in columns:
        values = contest[column].cast(pl.Float64).to_numpy()
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
    return pl.DataFrame(rows).sort(["correlation", "choice"], descending=[True, False])


def win_rate_by_category(seats: Frame, column: str) -> pl.DataFrame:
    """Win share per value of a category seat column against the fair 1/players, with
    block intervals; ``unfair`` when the interval excludes the fair share."""
    contest = seats.lazy().filter(pl.col("players") > 1)
    return _with_fair_share(
        interval_table(contest, ["players", column], "win_share", "win_share", rate=True)
    )


def component_means(rows: Frame, table: ComponentTable) -> pl.DataFrame:
    """Per component (combination of the table's keys): rows, and the mean of each of its
    measures with a block interval."""
    keys = present(table.keys, rows)
    parts = [
        interval_table(rows, keys, measure, "mean", rate=False).select(
            *keys,
            pl.lit(measure).alias("measure"),
            pl.col("games").alias(table.name),
            "blocks",
            "mean",
            "low",
            "high",
        )
        for measure in present(table.measures, rows)
    ]
    if not parts:
        return pl.DataFrame()
    return pl.concat(parts).sort([*keys, "measure"])


def comparison_table(rows: Frame, comparison: Comparison) -> pl.DataFrame:
    """Within each value of ``group``, the two values of ``between`` compared on each
    measure (a sum of columns): difference with a Welch interval over deal blocks (each
    value's per-block mean is one unit, since rows of one deal are alike), and
    Holm-adjusted p-values over every group and measure."""
    group, between = comparison.group, comparison.between
    needed = [group, between, "block", *(c for _, parts in comparison.measures for c in parts)]
    if len(present(needed, rows)) < len(needed):
        return pl.DataFrame()
    per_block = (
        rows.lazy()
        .group_by(group, between, "block")
        .agg(
            [
                functools.reduce(operator.add, [pl.col(c) for c in columns])
                .cast(pl.Float64)
                .mean()
                .alias(name)
                for name, columns in comparison.measures
            ]
        )
        # group_by returns groups in no fixed order, and the Welch sums depend on it.
        .sort(group, between, "block")
        .collect()
    )
    found = []
    for (value,), part in sorted(per_block.partition_by(group, as_dict=True).items()):
        pair = sorted(part[between].unique().to_list())
        if len(pair) != 2:
            continue
        for name, _ in comparison.measures:
            a = part.filter(pl.col(between) == pair[0])[name].to_numpy()
            b = part.filter(pl.col(between) == pair[1])[name].to_numpy()
            diff = welch_difference(a, b, CONFIDENCE)
            found.append(
                {
                    group: value,
                    "measure": name,
                    between: f"{pair[0]} - {pair[1]}",
                    "difference": diff.estimate,
                    "low": diff.low,
                    "high": diff.high,
                    "p_value": diff.p_value,
                }
            )
    if not found:
        return pl.DataFrame()
    table = pl.DataFrame(found).fill_nan(None)
    adjusted = holm_adjust(table["p_value"].fill_null(float("nan")).to_numpy())
    return table.with_columns(pl.Series("p_holm", adjusted).fill_nan(None))


def frequency_table(rows: Frame, frequency: Frequency, games: int) -> pl.DataFrame:
    """Per value of the key: its attributes, how many rows (``count``) and how many per game
    (``per_game``), and for the feature the share of rows where it is above zero and its
    mean. A component nobody takes, or one that always costs the feature, shows here."""
    if not present([frequency.key], rows):
        return pl.DataFrame()
    attributes = present(frequency.attributes, rows)
    feature = (
        frequency.feature if frequency.feature and present([frequency.feature], rows) else None
    )
    aggregates = [
        *[pl.col(a).first() for a in attributes],
        pl.len().cast(pl.Int64).alias("count"),
        (pl.len() / max(games, 1)).alias("per_game"),
    ]
    if feature is not None:
        aggregates += [
            (pl.col(feature) > 0).mean().alias(f"{feature}_share"),
            pl.col(feature).cast(pl.Float64).mean().alias(f"mean_{feature}"),
        ]
    return (
        rows.lazy()
        .group_by(frequency.key)
        .agg(aggregates)
        .sort([*attributes, frequency.key])
        .collect()
    )


# ---------------------------------------------------------------- sections and tables


@dataclass(frozen=True)
class BalanceSection:
    """A titled group of balance tables with a sentence on how to read them."""

    title: str
    text: str
    tables: tuple[str, ...]


def _listed(schema: Schema, table: str, names: Sequence[str]) -> str:
    texts = {c.name: c.text for c in schema.columns(table)}
    return "; ".join(f"{name}: {texts[name]}" for name in names)


def _component_text(table: ComponentTable) -> str:
    parts = [f"{table.text[:1].upper()}{table.text[1:]}." if table.text else ""]
    if table.measures:
        per = f" per {', '.join(table.keys)}" if table.keys else ""
        parts.append(f"Mean {', '.join(table.measures)}{per} with 95% block intervals.")
    if table.comparison is not None:
        c = table.comparison
        measures = ", ".join(
            name if list(columns) == [name] else f"{name} = {' + '.join(columns)}"
            for name, columns in c.measures
        )
        parts.append(
            f"Within each {c.group}, its two values of {c.between} compared on {measures} "
            "(Welch intervals over deal blocks, Holm-adjusted p-values)."
        )
    if table.frequency is not None:
        f = table.frequency
        beside = f" (with its {', '.join(f.attributes)})" if f.attributes else ""
        text = f"Per {f.key}{beside}: how many rows (count) and how many per game (per_game)"
        if f.feature:
            text += (
                f"; the share of rows with {f.feature} above zero ({f.feature}_share) and its "
                f"mean (mean_{f.feature})"
            )
        parts.append(text + ".")
    return " ".join(p for p in parts if p)


def balance_sections(schema: Schema) -> list[BalanceSection]:
    """The sections of a balance report in reading order, the game's own filled from its
    declaration (a section whose tables a run lacks is left out when shown)."""
    measures = schema.with_breakdown("games", *GAME_MEASURES)
    own = f" (then the game's own: {_listed(schema, 'games', measures)})" if measures else ""
    sections = [
        BalanceSection(
            "Balance flags",
            "Every measure that looks unbalanced, with the reason; none when nothing does.",
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
            "Margin of victory (winner minus runner-up), score range, tie rate (shared "
            f"wins), turns, mean score and aborted games{own}: means with 95% block "
            "intervals and quartiles; then the score spread per player count.",
            ("balance_outcome", "balance_score_spread"),
        ),
    ]
    for table in schema.tables:
        sections.append(
            BalanceSection(
                f"Components: {table.name}",
                _component_text(table),
                (means_name(table), comparison_name(table), frequency_name(table)),
            )
        )
    economy_columns = schema.with_breakdown("seats", Breakdown.ECONOMY)
    if economy_columns:
        sections.append(
            BalanceSection(
                "Economy",
                "Mean per seat-game, per player count, with 95% block intervals: "
                f"{_listed(schema, 'seats', economy_columns)}.",
                ("balance_economy",),
            )
        )
    sections += [
        BalanceSection(
            "Luck versus skill",
            "How much of the outcome each part explains, per player count, for the score and "
            "the win share: the seat, the bot, the deal (what one deal hands each seat) and the "
            "residual (in-game chance and interaction): variance shares corrected for what "
            "noise alone gives (a share near 0, even below it, means none), with 95% "
            "block-bootstrap intervals. A deal share of the win share established above "
            f"{DEAL_DECIDES:.0%} means the outcomes are mostly the deal. Then the skill share: "
            "how often the overall stronger bot finishes ahead of a weaker one in the same "
            "game on the same deal (0.5: skill does not show; 1: the better bot always "
            "wins), with 95% block intervals.",
            ("balance_luck_skill", "balance_skill_share"),
        ),
        BalanceSection(
            "Drama, lead changes, comebacks",
            "From each seat's running score after every turn, per player count, means per "
            "game with 95% block intervals: how often the sole leader changed, whether the "
            "leader after 25/50/75% of the turns won (a shared lead counts as the share of "
            "leaders who won), the winner's largest deficit (comeback), the share of turns "
            "the winner led, games no winner led when the final round began, and (three "
            "or more seats) games where a final-round turn of the last-placed seat changed "
            "who led among the others. The half-time leader winning more than "
            f"{DECIDED_EARLY:.0%} of games, established, is flagged: no drama. "
            "Definitions: docs/drama.md.",
            ("balance_drama",),
        ),
        BalanceSection(
            "Ludii outcome metrics",
            "Ludii's outcome metrics under Ludii's names and definitions, per player count, "
            "with 95% block intervals (Balance: block bootstrap), so the numbers compare "
            "with Ludii's; a seat's evaluation is its running score scaled to -1..1, where "
            "Ludii uses a search's value. Definitions: docs/drama.md.",
            ("balance_ludii",),
        ),
        BalanceSection(
            "Skill depth",
            "Win share and rating per bot: the gap from the strongest to the weakest bot "
            "shows how much skill matters.",
            ("balance_skill_depth",),
        ),
        BalanceSection(
            "Choices that go with winning",
            "Per-seat counts among winners and the others (association, not cause).",
            ("balance_win_predictors",),
        ),
    ]
    for column in schema.seats:
        if column.breakdown == Breakdown.CATEGORY:
            sections.append(
                BalanceSection(
                    f"Win rate by {column.name}",
                    f"Win share of each {column.name} ({column.text}) against the fair "
                    "1/players with 95% block intervals; 'unfair' marks an interval that "
                    "excludes it.",
                    (category_name(column.name),),
                )
            )
    return sections


def balance_tables(
    tables: Mapping[str, Frame], schema: Schema, seed: int = 0
) -> dict[str, pl.DataFrame]:
    """Every balance table a run supports, by name (``balance_*``), from its result tables
    (``games``, ``seats`` and the game's component tables, lazy or not) and the game's
    declared schema; empty ones are left out."""
    games = tables["games"].lazy()
    seats_all = tables["seats"].lazy()
    out: dict[str, pl.DataFrame] = {}
    decided_ids = games.filter(pl.col("end").is_in(DECIDED_ENDS)).select("game_id")
    decided_games = decided_ids.select(pl.len()).collect().item()
    if games.select(pl.len()).collect().item() == 0:
        return out
    seats = seats_all.join(decided_ids, on="game_id", how="semi")
    metrics = game_metrics(games, seats_all, schema)
    out["balance_seat_advantage"] = seat_advantage(seats)
    out["balance_outcome"] = outcome_shape(metrics, schema)
    out["balance_score_spread"] = score_spread(seats)
    for table in schema.tables:
        if table.name not in tables:
            continue
        rows = tables[table.name].lazy().join(decided_ids, on="game_id", how="semi")
        out[means_name(table)] = component_means(rows, table)
        if table.comparison is not None:
            out[comparison_name(table)] = comparison_table(rows, table.comparison)
        if table.frequency is not None:
            out[frequency_name(table)] = frequency_table(rows, table.frequency, decided_games)
    out["balance_economy"] = economy(
        seats, present(schema.with_breakdown("seats", Breakdown.ECONOMY), seats)
    )
    out["balance_skill_depth"] = skill_depth(seats, seed)
    out["balance_luck_skill"] = luck_skill(seats, seed=seed)
    out["balance_drama"] = drama_table(games.filter(pl.col("end").is_in(DECIDED_ENDS)))
    out["balance_ludii"] = ludii_table(games, seats_all, seed=seed)
    out["balance_skill_share"] = skill_share_table(seats)
    out["balance_win_predictors"] = win_predictors(
        seats, present(schema.with_breakdown("seats", *SEAT_MEASURES), seats)
    )
    for column in present(schema.with_breakdown("seats", Breakdown.CATEGORY), seats):
        out[category_name(column)] = win_rate_by_category(seats, column)
    out = {name: table for name, table in out.items() if table.height > 0}
    out["balance_flags"] = balance_flags(out, schema)
    return out


def balance_flags(tables: Mapping[str, pl.DataFrame], schema: Schema) -> pl.DataFrame:
    """One row per measure that looks unbalanced: ``measure``, ``value`` and ``reason``."""
    flags: list[dict[str, object]] = []

    def rows(name: str) -> list[dict[str, object]]:
        table = tables.get(name)
        return [] if table is None else list(table.iter_rows(named=True))

    for row in rows("balance_seat_advantage"):
        if row["unfair"]:
            flags.append(
                {
                    "measure": f"{row['players']}p seat {row['seat']} win share",
                    "value": row["win_share"],
                    "reason": f"95% interval [{row['low']:.3f}, {row['high']:.3f}] excludes "
                    f"the fair {row['fair']:.3f}",
                }
            )
    limits = {"tie_rate": TIE_RATE_FLAG, "aborted_rate": ABORTED_FLAG}
    for row in rows("balance_outcome"):
        limit = limits.get(str(row["metric"]))
        low = row["low"]
        if limit is not None and isinstance(low, float) and low > limit:
            flags.append(
                {
                    "measure": row["metric"],
                    "value": row["estimate"],
                    "reason": f"above {limit:.2f} with 95% confidence",
                }
            )
    for table, c in [(t, t.comparison) for t in schema.tables if t.comparison is not None]:
        for row in rows(comparison_name(table)):
            p_holm = row["p_holm"]
            if isinstance(p_holm, float) and p_holm < HOLM_FLAG:
                flags.append(
                    {
                        "measure": f"{c.group} {row[c.group]} {row['measure']} ({row[c.between]})",
                        "value": row["difference"],
                        "reason": f"the two values of {c.between} differ (Holm-adjusted p < 0.05)",
                    }
                )
    for column in schema.with_breakdown("seats", Breakdown.CATEGORY):
        for row in rows(category_name(column)):
            if row["unfair"]:
                flags.append(
                    {
                        "measure": f"{column} {row[column]} win share",
                        "value": row["win_share"],
                        "reason": f"95% interval excludes the fair {row['fair']:.3f}",
                    }
                )
    luck = tables.get("balance_luck_skill", pl.DataFrame())
    for players in deal_decides(luck) if luck.height else []:
        row = luck.filter(
            (pl.col("players") == players)
            & (pl.col("value") == "win_share")
            & (pl.col("component") == "deal")
        ).row(0, named=True)
        flags.append(
            {
                "measure": f"{players}p deal share of the win share",
                "value": row["share"],
                "reason": f"95% interval [{row['low']:.3f}, {row['high']:.3f}] above "
                f"{DEAL_DECIDES:.2f}: the outcome is mostly the deal",
            }
        )
    drama = tables.get("balance_drama", pl.DataFrame())
    for players in decided_early(drama):
        row = drama.filter(
            (pl.col("players") == players) & (pl.col("metric") == "leader_50_won")
        ).row(0, named=True)
        flags.append(
            {
                "measure": f"{players}p half-time leader wins",
                "value": row["estimate"],
                "reason": f"95% interval [{row['low']:.3f}, {row['high']:.3f}] above "
                f"{DECIDED_EARLY:.2f}: decided by half-time, no drama",
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
    flag_schema = {"measure": pl.String(), "value": pl.Float64(), "reason": pl.String()}
    return pl.DataFrame(flags, schema=flag_schema)


def shown_sections(
    tables: Mapping[str, pl.DataFrame], schema: Schema
) -> list[tuple[BalanceSection, tuple[str, ...]]]:
    """Each section of :func:`balance_sections` with the tables of it the run has (sections
    with none left out)."""
    found = []
    for section in balance_sections(schema):
        names = tuple(name for name in section.tables if name in tables)
        if names:
            found.append((section, names))
    return found


NO_SCHEMA_NOTE = (
    "The run's manifest declares no column schema (an older run): the game's own measures, "
    "economy, categories and components are left out."
)
