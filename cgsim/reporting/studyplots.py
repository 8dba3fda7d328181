"""Plots of the studies (compare, sequential tests, sweeps, tuning).

Like the run report's plots (whose canvas, page width, font sizes and error-bar helpers
they share), figures are built with ``matplotlib.figure.Figure`` on the Agg canvas (no
global state, no display) and saved as PNG; ``cgsim.reporting.pages`` puts them on the
study's page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import polars as pl

from cgsim.reporting.plots import WIDTH, interval_errors, new_figure, save_png, styled

COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860")


@styled
def plot_ecdf(
    samples: Mapping[str, npt.ArrayLike], path: Path, *, title: str, label: str = "score"
) -> Path:
    """Empirical cumulative distributions of several samples on one axis."""
    figure = new_figure(WIDTH, 5.0)
    axes = figure.add_subplot()
    for k, (name, values) in enumerate(samples.items()):
        x = np.sort(np.asarray(values, dtype=np.float64))
        if x.size:
            axes.step(
                x,
                np.arange(1, x.size + 1) / x.size,
                where="post",
                label=name,
                color=COLOURS[k % len(COLOURS)],
            )
    axes.set_xlabel(label)
    axes.set_ylabel("share at or below")
    axes.set_title(title)
    axes.legend()
    return save_png(figure, path)


@styled
def plot_effects(table: pl.DataFrame, path: Path) -> Path:
    """Each metric's difference in units of its standard error (interval half-width /
    1.96), with the +-1.96 band: bars outside the band are significant before Holm."""
    rows = table.filter(pl.col("low").is_not_null() & pl.col("high").is_not_null())
    names = rows["metric"].to_list()
    z = []
    for row in rows.iter_rows(named=True):
        se = (row["high"] - row["low"]) / (2 * 1.96)
        z.append(0.0 if se <= 0 else row["difference"] / se)
    figure = new_figure(WIDTH, max(3.0, 0.4 * len(names) + 1.8))
    axes = figure.add_subplot()
    positions = np.arange(len(names))
    colours = [COLOURS[3] if abs(v) > 1.96 else COLOURS[0] for v in z]
    axes.barh(positions, np.clip(z, -10, 10), color=colours)
    axes.axvspan(-1.96, 1.96, color="#dddddd", zorder=0)
    axes.set_yticks(positions, names)
    axes.invert_yaxis()
    axes.set_xlabel("change B - A in standard errors (clipped at 10)")
    axes.set_title("Which metrics moved")
    return save_png(figure, path)


@styled
def plot_llr(
    history: Sequence[tuple[int, float, float]], bounds: tuple[float, float], path: Path
) -> Path:
    """A sequential test's log-likelihood ratios (upward and downward change) by games."""
    figure = new_figure(WIDTH, 4.8)
    axes = figure.add_subplot()
    games = [h[0] for h in history]
    axes.plot(games, [h[1] for h in history], marker="o", label="LLR increase", color=COLOURS[0])
    axes.plot(games, [h[2] for h in history], marker="o", label="LLR decrease", color=COLOURS[1])
    for bound in bounds:
        axes.axhline(bound, color=COLOURS[3], linestyle="--")
    axes.set_xlabel("games per side")
    axes.set_ylabel("log-likelihood ratio")
    axes.set_title("Sequential test")
    axes.legend()
    return save_png(figure, path)


@styled
def plot_metric_lines(
    series: Mapping[str, pl.DataFrame],
    x: str,
    y: str,
    path: Path,
    *,
    title: str,
    ylabel: str | None = None,
) -> Path:
    """One line per series of ``y`` (with ``low``/``high`` error bars) against ``x``."""
    figure = new_figure(WIDTH, 4.8)
    axes = figure.add_subplot()
    for k, (name, frame) in enumerate(series.items()):
        labels = [str(v) for v in frame[x].to_list()]
        axes.errorbar(
            range(len(labels)),
            frame[y].cast(pl.Float64).to_numpy(),
            yerr=np.clip(interval_errors(frame, y), 0, None),
            marker="o",
            capsize=3,
            label=name,
            color=COLOURS[k % len(COLOURS)],
        )
        axes.set_xticks(range(len(labels)), labels)
    axes.set_xlabel(x)
    axes.set_ylabel(ylabel or y)
    axes.set_title(title)
    if len(series) > 1:
        axes.legend(fontsize="small")
    return save_png(figure, path)


@styled
def plot_search_path(path_table: pl.DataFrame, path: Path) -> Path:
    """Tuning: every candidate's loss per round (log scale), survivors joined by lines."""
    figure = new_figure(WIDTH, 5.0)
    axes = figure.add_subplot()
    for k, (name,) in enumerate(
        path_table.select("candidate").unique(maintain_order=True).iter_rows()
    ):
        part = path_table.filter(pl.col("candidate") == name).sort("round")
        axes.plot(
            part["round"].to_list(),
            part["loss"].to_list(),
            marker="o",
            color=COLOURS[k % len(COLOURS)],
            alpha=0.7,
        )
    axes.set_yscale("symlog", linthresh=0.01)
    axes.set_xlabel("round (games per candidate grow each round)")
    axes.set_ylabel("loss (distance to targets)")
    axes.set_title("Search path")
    return save_png(figure, path)


@styled
def plot_tornado(effects: pl.DataFrame, path: Path, *, title: str) -> Path:
    """Sensitivity: per knob, the change one step down and one step up (with 95%
    intervals), knobs ranked by their largest change, the largest on top."""
    order = (
        effects.group_by("knob", maintain_order=True)
        .agg(pl.col("difference").abs().max().alias("largest"))
        .sort("largest", descending=True, nulls_last=True, maintain_order=True)["knob"]
        .to_list()
    )
    figure = new_figure(WIDTH, max(3.0, 0.45 * len(order) + 1.8))
    axes = figure.add_subplot()
    positions = {knob: k for k, knob in enumerate(order)}
    for offset, (direction, colour) in enumerate((("down", COLOURS[0]), ("up", COLOURS[1]))):
        part = effects.filter(pl.col("direction") == direction)
        if part.is_empty():
            continue
        y = np.array([positions[k] for k in part["knob"].to_list()]) + (offset - 0.5) * 0.4
        values = part["difference"].cast(pl.Float64).fill_null(0.0).to_numpy()
        axes.barh(y, values, height=0.38, color=colour, label=f"one step {direction}")
        axes.errorbar(
            values,
            y,
            xerr=interval_errors(
                part.with_columns(pl.col("difference").fill_null(0.0)), "difference"
            ),
            fmt="none",
            ecolor="#333333",
            capsize=2,
        )
    axes.axvline(0.0, color="#333333", linewidth=0.8)
    axes.set_yticks(range(len(order)), order)
    axes.invert_yaxis()
    axes.set_xlabel(f"change of {title} against the base")
    axes.set_title(f"Which knob moves {title}")
    axes.legend(fontsize="small")
    return save_png(figure, path)


@styled
def plot_worth(table: pl.DataFrame, path: Path, *, label: str) -> Path:
    """Restricted play: each restriction's change of the bot's ``label`` (restricted -
    unrestricted) with its 95% interval; the most costly on top."""
    rows = table.sort("change", nulls_last=True)
    names = rows["restriction"].to_list()
    figure = new_figure(WIDTH, max(3.0, 0.45 * len(names) + 1.8))
    axes = figure.add_subplot()
    values = rows["change"].cast(pl.Float64).fill_null(0.0).to_numpy()
    positions = np.arange(len(names))
    axes.barh(positions, values, color=COLOURS[3])
    errors = interval_errors(rows.with_columns(pl.col("change").fill_null(0.0)), "change")
    axes.errorbar(values, positions, xerr=np.clip(errors, 0, None), fmt="none", ecolor="#333333")
    axes.axvline(0.0, color="#333333", linewidth=0.8)
    axes.set_yticks(positions, names)
    axes.invert_yaxis()
    axes.set_xlabel(f"change of {label} when the bot may not use it")
    axes.set_title(f"What each mechanic is worth ({label})")
    return save_png(figure, path)
