"""Player counts: the same setup at every player count the game allows.

The config's seats are repeated to fill each count (``["greedy"]`` or ``["greedy",
"greedy"]`` give greedy in every seat), each count played with the config's seed and game
count into ``<out>/<name>/players-<n>/`` (resumable). Per count, with 95% block
intervals: the first seat's edge over the fair share and the seat fairness (largest
distance of a seat's win share from it), the length in turns and in rounds, the margin
(winner minus runner-up), the score spread (best minus worst), the mean score, and the
waiting: turns of the others a player sits through in a game, ``turns x (n - 1) / n``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl

from cgsim.errors import CgsimError
from cgsim.games.registry import get_game
from cgsim.play.config import RunConfig, with_overrides
from cgsim.play.results import MANIFEST, load_tables, read_manifest
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for
from cgsim.reporting.intervals import interval_table
from cgsim.reporting.metrics import game_metrics, schema_of, seat_fairness
from cgsim.reporting.pages import Page, PageSection, PageTable, write_page

Echo = Callable[[str], Any]
MEASURES = (
    "first_seat_edge",
    "turns",
    "rounds",
    "margin",
    "score_range",
    "mean_score",
    "waiting_turns",
)
"""What is charted against the player count (``seat_fairness`` is tabled, without an
interval: a maximum over seats)."""


class ScalingError(CgsimError):
    """A scaling study that cannot be played."""


class ScalingStopped(Exception):
    """A count's run stopped before its last game."""

    def __init__(self, point: str, status: str) -> None:
        super().__init__(f"{point}: {status}")
        self.point = point
        self.status = status


def scaling_points(config: RunConfig) -> list[RunConfig]:
    """The config at every player count the game allows, seats repeated to fill it."""
    if config.variant:
        raise ScalingError(
            "scaling: a variant sets options per seat; remove it to play every player count"
        )
    if not config.seats:
        raise ScalingError("scaling: give seats; they are repeated to fill every player count")
    info = get_game(config.game).info
    entries = [seat.as_spec() for seat in config.seats]
    return [
        with_overrides(
            config,
            {
                "name": f"players-{n}",
                "out": config.out / config.name,
                "players": n,
                "seats": [entries[k % len(entries)] for k in range(n)],
                "sweep": {},
                "tune": {},
            },
        )
        for n in range(info.min_players, info.max_players + 1)
    ]


def count_table(folder: Path) -> pl.DataFrame:
    """One count's measures: players, metric, games, blocks, estimate, low, high."""
    tables = load_tables(folder)
    schema = schema_of(read_manifest(folder), str(folder / MANIFEST))
    metrics = game_metrics(tables["games"], tables["seats"], schema)
    players = pl.col("players").cast(pl.Float64)
    extra = [
        (pl.col("turns") / players).alias("rounds"),
        (pl.col("turns") * (players - 1) / players).alias("waiting_turns"),
    ]
    if "seat0_win_rate" in metrics.columns:
        extra.append((pl.col("seat0_win_rate") - 1.0 / players).alias("first_seat_edge"))
    metrics = metrics.with_columns(extra)
    count = int(metrics["players"][0])
    parts = [
        interval_table(metrics, [], measure, "estimate", rate=False).select(
            pl.lit(count).alias("players"), pl.lit(measure).alias("metric"), pl.all()
        )
        for measure in MEASURES
        if measure in metrics.columns and metrics[measure].drop_nulls().len() > 0
    ]
    fairness = seat_fairness(metrics)
    table = pl.concat(parts)
    if fairness == fairness:
        fair = table.head(1).with_columns(
            pl.lit("seat_fairness").alias("metric"),
            pl.lit(fairness).alias("estimate"),
            pl.lit(None, pl.Float64).alias("low"),
            pl.lit(None, pl.Float64).alias("high"),
        )
        table = pl.concat([table, fair])
    return table


def run_scaling(
    config: RunConfig,
    *,
    fresh: bool = False,
    progress: bool | None = None,
    echo: Echo = lambda _: None,
) -> pl.DataFrame:
    """Play every player count and return the long table of measures by count."""
    points = scaling_points(config)
    parts = []
    for k, point in enumerate(points, start=1):
        echo(f"[{k}/{len(points)}] {point.players} players")
        result = run_games(point, plan_for(point, "run"), fresh=fresh, progress=progress)
        if result.status != "complete":
            raise ScalingStopped(point.name, result.status)
        parts.append(count_table(result.results_dir))
    return pl.concat(parts)


def write_scaling_report(config: RunConfig, table: pl.DataFrame, out_dir: Path) -> dict[str, Path]:
    """scaling.csv, scaling.md, scaling.html and one chart per measure against players."""
    # Deferred: loads matplotlib, which most commands never need.
    from cgsim.reporting.studyplots import plot_metric_lines

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out_dir / "scaling.csv"}
    table.write_csv(paths["csv"])
    sections = []
    for measure in (*MEASURES, "seat_fairness"):
        rows = table.filter(pl.col("metric") == measure)
        if rows.is_empty():
            continue
        shown = rows.select("players", "games", "estimate", "low", "high")
        plots = []
        if rows.height > 1 and measure != "seat_fairness":
            plots.append(
                plot_metric_lines(
                    {measure: shown},
                    "players",
                    "estimate",
                    out_dir / "plots" / f"{measure}-by-players.png",
                    title=f"{measure} by player count",
                    ylabel=measure,
                )
            )
        sections.append(PageSection(measure, tables=[PageTable(shown)], plots=plots))
    intro = (
        f"{config.name} at every player count of {config.game}: the seats "
        f"{', '.join(str(s.as_spec()) for s in config.seats)} repeated to fill each count, "
        f"{config.games} games per count (run seed {config.seed}). Means with 95% block "
        "intervals. first_seat_edge = the first seat's win share minus the fair share; "
        "waiting_turns = the others' turns a player sits through in a game."
    )
    page = Page(f"Player counts: {config.name}", text=[intro], sections=sections)
    paths["markdown"], paths["html"] = write_page(page, out_dir, "scaling")
    return paths
