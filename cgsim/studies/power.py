"""``cgsim power``: how many deals a study needs, from a pilot run.

The pilot is a config (played first, like any run) or a results directory. For each
metric and the effect to detect, the answer is given twice: paired (both setups on
common seeds, the way ``compare`` and ``sweep`` play) and unpaired (independent deals
per side). See :mod:`cgsim.reporting.power` for the method and its assumption.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from cgsim.errors import CgsimError
from cgsim.games.registry import get_game
from cgsim.play.config import load_config
from cgsim.play.results import MANIFEST, load_tables, read_manifest
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for
from cgsim.reporting.metrics import game_metrics, metric_columns, schema_of
from cgsim.reporting.pages import Page, PageSection, PageTable, write_page
from cgsim.reporting.power import MAX_DEALS, more_deals, power_answer
from cgsim.studies.compare import check_side, is_results_dir

Echo = Callable[[str], Any]


class PowerInputError(CgsimError):
    """A pilot or an effect that cannot be used."""


def pilot_tables(
    pilot: Path, *, games: int | None, seed: int | None, workers: int | None, echo: Echo
) -> tuple[dict[str, pl.DataFrame], Path]:
    """The result tables of a pilot: a results directory read as it is, or a config played
    (resuming) into its own results folder."""
    check_side(pilot, "pilot")
    if is_results_dir(pilot):
        return load_tables(pilot), pilot
    config = load_config(pilot, {"games": games, "seed": seed, "workers": workers})
    result = run_games(config, plan_for(config, "run"))
    if result.status != "complete":
        raise PowerInputError(f"pilot {config.name}: run {result.status}; run it again to resume")
    echo(f"pilot {config.name}: {result.games_done} games in {result.results_dir}")
    return load_tables(result.results_dir), result.results_dir


def default_effects(folder: Path) -> list[tuple[str, float]]:
    """One point of score (one lead unit: a plant in Kitchen Garden) on ``mean_score``."""
    game = get_game(str(read_manifest(folder)["game"]))
    return [("mean_score", game.info.score_unit.per_lead)]


def power_table(
    tables: Mapping[str, pl.DataFrame],
    folder: Path,
    effects: Sequence[tuple[str, float]],
    alpha: float,
    power: float,
) -> pl.DataFrame:
    """One row per metric and effect (a metric may be asked at several effects): the
    effect, the pilot's mean and spread, the deals needed paired and unpaired (null when
    out of reach or not estimable)."""
    schema = schema_of(read_manifest(folder), str(folder / MANIFEST))
    metrics = game_metrics(tables["games"], tables["seats"], schema)
    known = metric_columns(metrics)
    rows = []
    for metric, effect in effects:
        if metric not in known:
            raise PowerInputError(
                f"metric {metric!r} is not measured in {folder}; known: {', '.join(known)}"
            )
        answer = power_answer(
            metric, metrics[metric].to_numpy(), metrics["seed"].to_numpy(), effect, alpha, power
        )
        s = answer.spread

        def deals(n: int) -> int | None:
            return None if n >= MAX_DEALS else n

        rows.append(
            {
                "metric": metric,
                "effect": effect,
                "pilot_mean": s.mean,
                "pilot_deals": s.deals,
                "games_per_deal": s.games_per_deal,
                "sd_unpaired": s.unpaired_sd,
                "sd_paired": s.paired_sd,
                "deals_paired": deals(answer.paired),
                "deals_unpaired": deals(answer.unpaired),
                "games_paired": None
                if deals(answer.paired) is None
                else round(answer.paired * s.games_per_deal),
                "games_unpaired": None
                if deals(answer.unpaired) is None
                else round(answer.unpaired * s.games_per_deal),
            }
        )
    return pl.DataFrame(rows).with_columns(pl.col(pl.Float64).fill_nan(None))


def power_sentences(table: pl.DataFrame, alpha: float, power: float) -> list[str]:
    """The table in words, one line per metric."""
    lines = []
    for row in table.iter_rows(named=True):
        paired = (
            f"{row['deals_paired']:,} deals on common seeds ({row['games_paired']:,} games per "
            "setup)"
            if row["deals_paired"] is not None
            else "no paired figure (the pilot's games of a deal do not vary: one game per deal, or "
            "the same games in every seating)"
        )
        unpaired = (
            f"{row['deals_unpaired']:,} independent deals per setup"
            if row["deals_unpaired"] is not None
            else "out of reach unpaired"
        )
        lines.append(
            f"to detect {row['effect']:g} on {row['metric']} at alpha {alpha:g} with power "
            f"{power:g}: {paired}; {unpaired}"
        )
    return lines


def write_power(table: pl.DataFrame, lines: list[str], out_dir: Path) -> dict[str, Path]:
    """power.csv, power.md and a self-contained power.html."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out_dir / "power.csv"}
    table.write_csv(paths["csv"])
    page = Page(
        "How many deals",
        text=lines,
        sections=[PageSection("Deals needed", tables=[PageTable(table, "power.csv")])],
    )
    paths["markdown"], paths["html"] = write_page(page, out_dir, "power")
    return paths


def side_effects(side: Path, tolerances: Mapping[str, float]) -> dict[str, float]:
    """The effects a comparison's hint speaks of: the ``--fail-on`` tolerances above 0,
    else one point of score (one lead unit) on ``mean_score``."""
    effects = {name: value for name, value in tolerances.items() if value > 0}
    if effects:
        return effects
    game_id = str(read_manifest(side)["game"]) if is_results_dir(side) else load_config(side).game
    return {"mean_score": get_game(game_id).info.score_unit.per_lead}


def compare_hints(
    table: pl.DataFrame, effects: Mapping[str, float], alpha: float = 0.05, power: float = 0.8
) -> list[str]:
    """For each metric whose change is not established: the deals a comparison of the same
    kind would need to find ``effect`` ("to detect 1 point you need about N more deals")."""
    lines = []
    for row in table.filter(pl.col("metric").is_in(list(effects))).iter_rows(named=True):
        if row["verdict"] == "changed" or row["low"] is None or row["high"] is None:
            continue
        effect = effects[row["metric"]]
        more = more_deals((row["high"] - row["low"]) / 2, int(row["n"]), effect, alpha, power)
        if more >= MAX_DEALS:
            continue
        lines.append(
            f"{row['metric']}: not established; to detect {effect:g} you need about "
            f"{more:,} more deals (power {power:g}, alpha {alpha:g}, {row['n']} deals so far)"
            if more > 0
            else f"{row['metric']}: not established, though {row['n']} deals would find "
            f"{effect:g} with power {power:g}: the change is likely smaller"
        )
    return lines
