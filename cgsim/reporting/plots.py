"""Report plots: matplotlib figures drawn from aggregate tables, saved as PNG.

Figures are built with ``matplotlib.figure.Figure`` on the Agg canvas, never through
``pyplot``: no global figure state, no display needed, safe in worker processes.
Every function takes an aggregate table (never raw games) and the file to write.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

DPI = 100
BAR_COLOUR = "#4c72b0"
REFERENCE_COLOUR = "#c44e52"
QUANTILE_COLUMNS = ("q05", "q25", "q50", "q75", "q95")


def new_figure(width: float, height: float) -> Figure:
    """A figure on the Agg canvas: no global pyplot state, safe in any process."""
    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def save_png(figure: Figure, path: Path) -> Path:
    """Write a figure as PNG without a timestamp, so the same plot gives the same bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", metadata={"Software": None})
    return path


def _height(rows: int) -> float:
    return max(2.5, 0.45 * rows + 1.5)


def interval_errors(table: pl.DataFrame, estimate: str) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Asymmetric error-bar lengths (2 x n) from ``low``/``high``; 0 where missing."""
    values = table[estimate].cast(pl.Float64).to_numpy()
    low = table["low"].cast(pl.Float64).fill_null(float("nan")).to_numpy()
    high = table["high"].cast(pl.Float64).fill_null(float("nan")).to_numpy()
    below = np.nan_to_num(values - low, nan=0.0)
    above = np.nan_to_num(high - values, nan=0.0)
    return np.vstack([below, above])


def _interval_bars(axes: Axes, labels: Sequence[str], table: pl.DataFrame, estimate: str) -> None:
    positions = np.arange(len(labels))
    axes.barh(
        positions,
        table[estimate].cast(pl.Float64).to_numpy(),
        xerr=interval_errors(table, estimate),
        color=BAR_COLOUR,
        capsize=4,
    )
    axes.set_yticks(positions, labels=list(labels))
    axes.invert_yaxis()


def plot_win_rates(win_rate: pl.DataFrame, path: Path, fair: float | None = None) -> Path:
    """Win rate per bot (``bot``, ``win_rate``, ``low``, ``high``) with 95% intervals;
    ``fair`` draws the share every bot would have if all were equal."""
    figure = new_figure(7.0, _height(win_rate.height))
    axes = figure.add_subplot()
    _interval_bars(axes, win_rate["bot"].to_list(), win_rate, "win_rate")
    if fair is not None:
        axes.axvline(fair, color=REFERENCE_COLOUR, linestyle="--", label=f"fair share {fair:.2f}")
        axes.legend(loc="lower right")
    axes.set_xlabel("win rate (share of wins, ties split)")
    axes.set_title("Win rate per bot (95% block intervals)")
    return save_png(figure, path)


def plot_ratings(ratings: pl.DataFrame, path: Path) -> Path:
    """Ratings per bot (``bot``, ``rating``, ``low``, ``high``) with bootstrap intervals."""
    figure = new_figure(7.0, _height(ratings.height))
    axes = figure.add_subplot()
    positions = np.arange(ratings.height)
    axes.errorbar(
        ratings["rating"].to_numpy(),
        positions,
        xerr=interval_errors(ratings, "rating"),
        fmt="o",
        color=BAR_COLOUR,
        capsize=4,
    )
    axes.axvline(0.0, color="grey", linewidth=0.8)
    axes.set_yticks(positions, labels=ratings["bot"].to_list())
    axes.invert_yaxis()
    axes.set_xlabel("rating (Elo scale)")
    axes.set_title("Ratings (95% block-bootstrap intervals)")
    return save_png(figure, path)


def plot_head_to_head(matrix: pl.DataFrame, path: Path) -> Path:
    """Heatmap of a head-to-head matrix: first column ``bot``, one column per opponent
    holding the row bot's score against it (null on the diagonal)."""
    bots = matrix["bot"].to_list()
    opponents = matrix.columns[1:]
    values = matrix.select(opponents).cast(pl.Float64).fill_null(float("nan")).to_numpy()
    size = max(len(bots), len(opponents))
    figure = new_figure(2.0 + 0.9 * size, 1.5 + 0.7 * size)
    axes = figure.add_subplot()
    image = axes.imshow(values, cmap="RdBu", vmin=0.0, vmax=1.0)
    axes.set_xticks(np.arange(len(opponents)), labels=opponents, rotation=30, ha="right")
    axes.set_yticks(np.arange(len(bots)), labels=bots)
    for row, col in np.ndindex(values.shape):
        if not math.isnan(values[row, col]):
            axes.text(col, row, f"{values[row, col]:.2f}", ha="center", va="center", fontsize=9)
    figure.colorbar(image, ax=axes, label="row bot ahead (ties half)")
    axes.set_title("Head to head")
    return save_png(figure, path)


def plot_seat_win_rates(seat_win_rate: pl.DataFrame, path: Path) -> Path:
    """Win rate per seat (``players``, ``seat``, ``win_rate``, ``low``, ``high``, ``fair``)."""
    figure = new_figure(7.0, _height(seat_win_rate.height))
    axes = figure.add_subplot()
    labels = [
        f"{players}p seat {seat}"
        for players, seat in zip(seat_win_rate["players"], seat_win_rate["seat"], strict=True)
    ]
    _interval_bars(axes, labels, seat_win_rate, "win_rate")
    for fair in sorted(set(seat_win_rate["fair"].to_list())):
        axes.axvline(fair, color=REFERENCE_COLOUR, linestyle="--")
    axes.set_xlabel("win rate (dashed: fair share)")
    axes.set_title("Win rate by seat (seat 0 plays first)")
    return save_png(figure, path)


def plot_distribution(
    distribution: pl.DataFrame,
    label_column: str,
    path: Path,
    *,
    title: str,
    value_label: str,
    references: Mapping[str, float] | None = None,
) -> Path:
    """Box plot drawn from quantiles (box 25-75%, median, whiskers 5-95%, mean marked).

    ``distribution`` has ``label_column`` plus ``mean`` and ``q05`` .. ``q95``;
    ``references`` draws labelled vertical lines (e.g. score benchmarks).
    """
    labels = [str(v) for v in distribution[label_column].to_list()]
    boxes = [
        {
            "label": label,
            "whislo": row["q05"],
            "q1": row["q25"],
            "med": row["q50"],
            "q3": row["q75"],
            "whishi": row["q95"],
            "mean": row["mean"],
            "fliers": [],
        }
        for label, row in zip(labels, distribution.iter_rows(named=True), strict=True)
    ]
    figure = new_figure(7.0, _height(len(boxes)))
    axes = figure.add_subplot()
    axes.bxp(boxes, orientation="horizontal", showmeans=True, patch_artist=False)
    axes.invert_yaxis()
    for index, (name, value) in enumerate(sorted((references or {}).items(), key=lambda kv: kv[1])):
        axes.axvline(
            value,
            color=REFERENCE_COLOUR,
            linestyle=("--", ":", "-.")[index % 3],
            label=f"{name} ({value:g})",
        )
    if references:
        axes.legend(loc="lower right")
    axes.set_xlabel(value_label)
    axes.set_title(title)
    return save_png(figure, path)


def plot_histograms(histograms: Mapping[str, pl.DataFrame], path: Path, *, title: str) -> Path:
    """One bar histogram per metric; each table has ``value`` and ``count`` columns."""
    figure = new_figure(7.0, 2.8 * max(1, len(histograms)))
    for index, (metric, table) in enumerate(histograms.items(), start=1):
        axes = figure.add_subplot(len(histograms), 1, index)
        axes.bar(table["value"].to_numpy(), table["count"].to_numpy(), width=0.9, color=BAR_COLOUR)
        axes.set_xlabel(metric)
        axes.set_ylabel("games")
    figure.suptitle(title)
    return save_png(figure, path)
