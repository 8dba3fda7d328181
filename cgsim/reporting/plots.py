"""Report plots: matplotlib figures drawn from aggregate tables, saved as PNG.

Figures are built with ``matplotlib.figure.Figure`` on the Agg canvas, never through
``pyplot``: no global figure state, no display needed, safe in worker processes.
Every function takes an aggregate table (never raw games) and the file to write.

They are drawn for the page they sit on: :data:`WIDTH` inches at :data:`DPI` is the
width of the report's column in a window about 1,400 pixels wide, so a plot is shown at
its own size with fonts as large as the page's text (:func:`styled` sets them). Axes
show what matters: interval plots zoom to the estimates instead of starting at 0, and a
bot far from the others (a reference bot such as ``random``) is marked at the edge
rather than squashing the rest into a corner.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar, cast

import matplotlib
import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import Colormap, Normalize
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from cgsim.games.contract import ScoreUnit

DPI = 100
WIDTH = 12.0
"""Inches: 1,200 pixels, the width of the report's column."""
BAR_COLOUR = "#4c72b0"
REFERENCE_COLOUR = "#c44e52"
MUTED_COLOUR = "#7f7f7f"
QUANTILE_COLUMNS = ("q05", "q25", "q50", "q75", "q95")
STYLE = {
    "axes.titlesize": 16,
    "axes.labelsize": 14,
    "xtick.labelsize": 13,
    "ytick.labelsize": 13,
    "legend.fontsize": 12,
    "figure.titlesize": 16,
    "axes.grid": True,
    "grid.color": "#e0e0e0",
    "axes.axisbelow": True,
}
"""Font sizes readable at the page's scale (13 pt at 100 dpi is about the page's text)."""
OFF_SCALE_FACTOR = 2.0
"""A bot at either end is off scale when its gap to the next bot is more than this many
times the spread of the others (see :func:`off_scale`)."""
OFF_SCALE_MIN_GAP = 200.0
"""...and more than this many Elo points."""

P = ParamSpec("P")
R = TypeVar("R")


def styled(plot: Callable[P, R]) -> Callable[P, R]:
    """Draw and save ``plot`` with :data:`STYLE` (tick labels are made when the figure
    is drawn, so the whole function runs inside the style, not just the figure's birth)."""

    @functools.wraps(plot)
    def drawn(*args: P.args, **kwargs: P.kwargs) -> R:
        with matplotlib.rc_context(cast(Any, STYLE)):
            return plot(*args, **kwargs)

    return drawn


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


def rows_height(rows: int) -> float:
    """Inches for a plot of ``rows`` horizontal rows (bars, boxes, intervals)."""
    return max(3.0, 0.55 * rows + 1.8)


def interval_errors(table: pl.DataFrame, estimate: str) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Asymmetric error-bar lengths (2 x n) from ``low``/``high``; 0 where missing."""
    values = table[estimate].cast(pl.Float64).to_numpy()
    low = table["low"].cast(pl.Float64).fill_null(float("nan")).to_numpy()
    high = table["high"].cast(pl.Float64).fill_null(float("nan")).to_numpy()
    below = np.nan_to_num(values - low, nan=0.0)
    above = np.nan_to_num(high - values, nan=0.0)
    return np.vstack([below, above])


def _bounds(table: pl.DataFrame, estimate: str) -> tuple[list[float], list[float], list[float]]:
    """Estimates, lows and highs as floats (a missing bound is the estimate)."""
    values = [float(v) for v in table[estimate].cast(pl.Float64).fill_null(float("nan"))]
    lows = [v if x is None else float(x) for v, x in zip(values, table["low"], strict=True)]
    highs = [v if x is None else float(x) for v, x in zip(values, table["high"], strict=True)]
    return values, lows, highs


def _value_labels(
    axes: Axes, rows: Sequence[int], highs: Sequence[float], text: Sequence[str]
) -> None:
    """Each row's value written just right of its interval."""
    for row, high, label in zip(rows, highs, text, strict=True):
        if not math.isnan(high):
            axes.annotate(
                label,
                (high, row),
                xytext=(8, 0),
                textcoords="offset points",
                va="center",
                fontsize=12,
                color="#333333",
            )


@styled
def plot_win_rates(win_rate: pl.DataFrame, path: Path, fair: float | None = None) -> Path:
    """Win rate per bot (``bot``, ``win_rate``, ``low``, ``high``) with 95% intervals;
    ``fair`` draws the share every bot would have if all were equal."""
    figure = new_figure(WIDTH, rows_height(win_rate.height))
    axes = figure.add_subplot()
    positions = np.arange(win_rate.height)
    values, lows, highs = _bounds(win_rate, "win_rate")
    axes.barh(
        positions,
        values,
        xerr=interval_errors(win_rate, "win_rate"),
        color=BAR_COLOUR,
        capsize=5,
        height=0.6,
    )
    axes.set_yticks(positions, labels=win_rate["bot"].to_list())
    axes.invert_yaxis()
    _value_labels(
        axes,
        range(len(values)),
        highs,
        [f"{v:.1%} [{lo:.1%}, {hi:.1%}]" for v, lo, hi in zip(values, lows, highs, strict=True)],
    )
    if fair is not None:
        axes.axvline(fair, color=REFERENCE_COLOUR, linestyle="--", label=f"fair share {fair:.0%}")
        axes.legend(loc="lower right")
    axes.set_xlim(0.0, 1.25)
    axes.set_xticks(np.linspace(0.0, 1.0, 6))
    axes.xaxis.set_major_formatter(PercentFormatter(1.0))
    axes.set_xlabel("win rate (share of games won, a shared win split)")
    axes.set_title("Win rate per bot, with 95% intervals")
    return save_png(figure, path)


def off_scale(ratings: Mapping[str, float]) -> set[str]:
    """Bots so far from the others that an axis fitted to all of them would squash the
    rest into a corner: the lowest (or highest) bot when its gap to the next one is more
    than :data:`OFF_SCALE_FACTOR` times the spread of the others (the bots between the
    two ends, when there are 2 or more) and more than :data:`OFF_SCALE_MIN_GAP` points.
    Needs 3 bots or more; the middle is never off."""
    ranked = sorted(ratings.items(), key=lambda kv: kv[1])
    if len(ranked) < 3:
        return set()
    middle = ranked[1:-1] if len(ranked) >= 4 else None
    found = set()
    for end, next_one, rest in ((0, 1, ranked[1:]), (-1, -2, ranked[:-1])):
        gap = abs(ranked[end][1] - ranked[next_one][1])
        others = rest if middle is None else middle
        spread = others[-1][1] - others[0][1]
        if gap > max(OFF_SCALE_FACTOR * spread, OFF_SCALE_MIN_GAP):
            found.add(ranked[end][0])
    return found if len(found) < len(ranked) - 1 else set()


@styled
def plot_ratings(ratings: pl.DataFrame, path: Path, leave_out: Sequence[str] = ()) -> Path:
    """Ratings per bot (``bot``, ``rating``, ``low``, ``high``) with bootstrap intervals.

    ``leave_out`` bots are not drawn; a bot :func:`off_scale` is marked at the edge with
    its value instead of stretching the axis. The plot says which bots either is.
    """
    shown = ratings.filter(~pl.col("bot").is_in(list(leave_out)))
    bots = shown["bot"].to_list()
    values, lows, highs = _bounds(shown, "rating")
    far = off_scale(dict(zip(bots, values, strict=True)))
    near = [i for i, bot in enumerate(bots) if bot not in far] or list(range(len(bots)))
    low_edge = min([*(lows[i] for i in near), 0.0])
    high_edge = max([*(highs[i] for i in near), 0.0])
    pad = max(20.0, 0.06 * (high_edge - low_edge))
    low_edge, high_edge = low_edge - pad, high_edge + 6 * pad  # room for the value labels
    figure = new_figure(WIDTH, rows_height(len(bots)))
    axes = figure.add_subplot()
    for row, bot in enumerate(bots):
        text = f"{values[row]:+.0f} [{lows[row]:+.0f}, {highs[row]:+.0f}]"
        if bot in far:
            left = values[row] < low_edge
            edge = low_edge + pad / 2 if left else high_edge - pad / 2
            axes.plot([edge], [row], marker="<" if left else ">", color=MUTED_COLOUR, markersize=12)
            axes.annotate(
                f"{text}: off the scale",
                (edge, row),
                xytext=(14 if left else -14, 0),
                textcoords="offset points",
                ha="left" if left else "right",
                va="center",
                fontsize=12,
                color=MUTED_COLOUR,
            )
            continue
        axes.errorbar(
            [values[row]],
            [row],
            xerr=[[values[row] - lows[row]], [highs[row] - values[row]]],
            fmt="o",
            color=BAR_COLOUR,
            capsize=5,
            markersize=8,
        )
        _value_labels(axes, [row], [highs[row]], [text])
    axes.axvline(0.0, color="grey", linewidth=0.8)
    axes.set_xlim(low_edge, high_edge)
    axes.set_ylim(len(bots) - 0.5, -0.5)
    axes.set_yticks(np.arange(len(bots)), labels=bots)
    notes = []
    if far:
        notes.append(f"axis zoomed to the other bots; off the scale: {', '.join(sorted(far))}")
    if leave_out:
        notes.append(f"left out: {', '.join(leave_out)}")
    axes.set_xlabel("rating, Elo points (+400 = 10:1 odds; 0 = the mean bot)")
    title = "Ratings, with 95% block-bootstrap intervals"
    axes.set_title(title + (f"\n({'; '.join(notes)})" if notes else ""))
    return save_png(figure, path)


def _readable_on(colour: tuple[float, float, float, float]) -> str:
    """Black or white text, whichever contrasts more with a background colour (WCAG
    relative luminance: white on anything darker than about 18%)."""

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in colour[:3])
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "white" if luminance < 0.179 else "black"


@styled
def plot_head_to_head(matrix: pl.DataFrame, path: Path) -> Path:
    """Heatmap of a head-to-head matrix: first column ``bot``, one column per opponent
    holding the row bot's score against it (null on the diagonal). Each number is
    written in black or white, whichever reads on its cell."""
    bots = matrix["bot"].to_list()
    opponents = matrix.columns[1:]
    values = matrix.select(opponents).cast(pl.Float64).fill_null(float("nan")).to_numpy()
    size = max(len(bots), len(opponents))
    label = 0.11 * max(len(str(name)) for name in [*bots, *opponents])  # inches of a name
    side = min(WIDTH - 3.0 - label, 1.1 * size)
    figure = new_figure(side + 3.2 + label, side + 1.8 + 0.7 * label)
    axes = figure.add_subplot()
    colours: Colormap = matplotlib.colormaps["RdBu"]
    norm = Normalize(vmin=0.0, vmax=1.0)
    image = axes.imshow(values, cmap=colours, norm=norm)
    axes.grid(False)
    axes.set_xticks(np.arange(len(opponents)), labels=opponents, rotation=30, ha="right")
    axes.set_yticks(np.arange(len(bots)), labels=bots)
    axes.set_xlabel("opponent")
    for row, col in np.ndindex(values.shape):
        value = values[row, col]
        if not math.isnan(value):
            axes.text(
                col,
                row,
                f"{value:.0%}",
                ha="center",
                va="center",
                fontsize=14 if size <= 6 else 11,
                color=_readable_on(colours(norm(value))),
            )
    bar = figure.colorbar(image, ax=axes, format=PercentFormatter(1.0))
    bar.set_label("row bot ahead (ties count half)")
    axes.set_title("Head to head: row bot vs column")
    return save_png(figure, path)


@styled
def plot_seat_win_rates(seat_win_rate: pl.DataFrame, path: Path) -> Path:
    """Win rate per seat (``players``, ``seat``, ``win_rate``, ``low``, ``high``, ``fair``):
    each an interval around its estimate on an axis zoomed to the intervals and the fair
    shares (dashed), so an advantage of a point or two shows."""
    labels = [
        f"{players}p seat {seat}"
        for players, seat in zip(seat_win_rate["players"], seat_win_rate["seat"], strict=True)
    ]
    values, lows, highs = _bounds(seat_win_rate, "win_rate")
    fairs = [float(f) for f in seat_win_rate["fair"]]
    figure = new_figure(WIDTH, rows_height(len(labels)))
    axes = figure.add_subplot()
    for fair in sorted(set(fairs)):
        axes.axvline(fair, color=REFERENCE_COLOUR, linestyle="--", linewidth=1.5)
    positions = np.arange(len(labels))
    axes.errorbar(
        values,
        positions,
        xerr=interval_errors(seat_win_rate, "win_rate"),
        fmt="o",
        color=BAR_COLOUR,
        capsize=6,
        markersize=9,
        elinewidth=2,
    )
    for row, fair in enumerate(fairs):
        axes.plot([fair], [row], marker="|", color=REFERENCE_COLOUR, markersize=18)
    _value_labels(
        axes,
        range(len(values)),
        highs,
        [
            f"{v:.1%} [{lo:.1%}, {hi:.1%}], fair {f:.1%}"
            for v, lo, hi, f in zip(values, lows, highs, fairs, strict=True)
        ],
    )
    everything = [x for x in (*lows, *highs, *fairs) if not math.isnan(x)]
    low_edge, high_edge = min(everything), max(everything)
    span = max(high_edge - low_edge, 0.02)
    axes.set_xlim(max(0.0, low_edge - 0.08 * span), min(1.0, high_edge + 0.75 * span))
    axes.set_yticks(positions, labels=labels)
    axes.set_ylim(len(labels) - 0.5, -0.5)
    axes.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    axes.set_xlabel("win rate (dashed: the fair share, 1 / players; the axis is zoomed)")
    axes.set_title("Win rate by seat, with 95% intervals (seat 0 plays first)")
    return save_png(figure, path)


@styled
def plot_distribution(
    distribution: pl.DataFrame,
    label_column: str,
    path: Path,
    *,
    title: str,
    value_label: str,
    references: Mapping[str, float] | None = None,
    unit: ScoreUnit | None = None,
) -> Path:
    """Box plot drawn from quantiles (box 25-75%, median, whiskers 5-95%, mean marked).

    ``distribution`` has ``label_column`` plus ``mean`` and ``q05`` .. ``q95``;
    ``references`` draws labelled vertical lines (e.g. score benchmarks); a score ``unit``
    with a coarser lead unit (Kitchen Garden's plants) adds that scale along the top.
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
    figure = new_figure(WIDTH, rows_height(len(boxes)))
    axes = figure.add_subplot()
    axes.bxp(
        boxes,
        orientation="horizontal",
        showmeans=True,
        patch_artist=True,
        boxprops={"facecolor": "#dbe4f0", "edgecolor": BAR_COLOUR},
        medianprops={"color": BAR_COLOUR, "linewidth": 2.5},
        meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "#333333"},
    )
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
    if unit is not None and unit.per_lead != 1.0:
        per = unit.per_lead

        def to_lead(x: Any) -> Any:
            return np.asarray(x, dtype=np.float64) / per

        def from_lead(x: Any) -> Any:
            return np.asarray(x, dtype=np.float64) * per

        top = axes.secondary_xaxis("top", functions=(to_lead, from_lead))
        top.set_xlabel(unit.lead)
    axes.set_title(f"{title} (box: middle half, line: median, diamond: mean, whiskers: 5-95%)")
    return save_png(figure, path)


@styled
def plot_histograms(
    histograms: Mapping[str, pl.DataFrame],
    path: Path,
    *,
    title: str,
    labels: Mapping[str, str] | None = None,
) -> Path:
    """One bar histogram per metric; each table has ``value`` and ``count`` columns.
    ``labels`` names a metric's axis (default: the metric's name)."""
    figure = new_figure(WIDTH, 3.2 * max(1, len(histograms)))
    for index, (metric, table) in enumerate(histograms.items(), start=1):
        axes = figure.add_subplot(len(histograms), 1, index)
        axes.bar(table["value"].to_numpy(), table["count"].to_numpy(), width=0.9, color=BAR_COLOUR)
        axes.set_xlabel((labels or {}).get(metric, metric))
        axes.set_ylabel("games")
    figure.suptitle(title)
    return save_png(figure, path)
