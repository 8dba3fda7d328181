"""Pages and tables: the one place that turns tables and plots into Markdown and HTML.

Every written report (a run's report, its balance report, comparisons, sweeps, tuning)
describes itself as a :class:`Page` of sections holding tables and plot files, and this
module renders it twice: Markdown that links the plots, and a single self-contained HTML
file (inline CSS, plots as base64 data URIs, no scripts) that can be mailed as it is.
Cells are formatted the same way everywhere by :func:`format_value`.
"""

from __future__ import annotations

import base64
import html
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

STYLE = """
body { font-family: sans-serif; max-width: 80rem; margin: 2rem auto; padding: 0 1rem; color: #222;
       line-height: 1.45; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th { background: #f0f0f0; }
tbody tr:nth-child(even) { background: #fafafa; }
img { max-width: 100%; display: block; margin: 0.8rem 0; }
.caption { color: #666; font-size: 0.8rem; }
"""
"""Wide enough for the plots (1,200 pixels) in a window about 1,400 pixels wide; a table
wider than the page scrolls inside its own box instead of running off the page."""


EMPTY = "None (the table has no rows)."
"""What a page shows for a table without rows (e.g. no balance flag raised)."""

# ---------------------------------------------------------------- cells and tables


def format_value(value: Any, decimals: int = 3) -> str:
    """A table cell as text: a dash for missing values, floats to ``decimals`` places."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return "–" if math.isnan(value) else f"{value:.{decimals}f}"
    if isinstance(value, list):
        return ", ".join(format_value(v, decimals) for v in value)
    return str(value)


def decimals_for(value: float) -> int:
    """Decimals that show a number with about four significant digits: 3 below 10
    (shares, means of small counts), 2 below 100 (scores), 1 from 100 on (Elo ratings,
    Kitchen Garden scores)."""
    size = abs(value)
    return 1 if size >= 100 else 2 if size >= 10 else 3


MIXED_SPAN = 100.0
"""A float column whose non-zero values differ by more than this factor holds measures
of different kinds (a margin of 371 points beside a tie rate of 0.025): each of its
cells gets its own precision; any other column one precision, by its largest value."""


def _column_decimals(column: pl.Series) -> int | None:
    """One precision for a float column, or None when each cell needs its own."""
    sizes = [abs(v) for v in column.to_list() if isinstance(v, float) and math.isfinite(v)]
    nonzero = [size for size in sizes if size > 0]
    if not nonzero:
        return 3
    if max(nonzero) > MIXED_SPAN * min(nonzero):
        return None
    return decimals_for(max(nonzero))


def _numeric(column: pl.Series) -> bool:
    return column.dtype.is_numeric()


def table_cells(table: pl.DataFrame) -> list[list[str]]:
    """Every row of ``table`` as formatted text: floats with one precision per column
    (:func:`decimals_for` of its largest value), or per cell in a mixed column."""
    fixed = [_column_decimals(table[c]) if table[c].dtype.is_float() else 3 for c in table.columns]

    def cell(value: Any, decimals: int | None) -> str:
        if isinstance(value, float) and math.isfinite(value):
            return format_value(value, decimals_for(value) if decimals is None else decimals)
        return format_value(value)

    return [[cell(v, d) for v, d in zip(row, fixed, strict=True)] for row in table.iter_rows()]


def markdown_table(table: pl.DataFrame) -> str:
    """A DataFrame as a GitHub-flavoured Markdown table."""

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(c) for c in table.columns) + " |"]
    lines.append("| " + " | ".join("---" for _ in table.columns) + " |")
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table_cells(table)]
    return "\n".join(lines)


def html_table(table: pl.DataFrame) -> str:
    """A DataFrame as an HTML table (every cell escaped; numbers right-aligned, text
    left), in a box that scrolls sideways when the table is wider than the page."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    opens = ['<td class="num">' if _numeric(table[c]) else "<td>" for c in table.columns]
    body = "".join(
        "<tr>"
        + "".join(f"{td}{html.escape(v)}</td>" for td, v in zip(opens, row, strict=True))
        + "</tr>"
        for row in table_cells(table)
    )
    return (
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


# ---------------------------------------------------------------- pages


@dataclass(frozen=True)
class PageTable:
    """A table on a page, with an optional caption above it (e.g. its CSV file) and an
    optional note below it (e.g. that only its first rows are shown)."""

    frame: pl.DataFrame
    caption: str | None = None
    note: str | None = None


def shown_rows(frame: pl.DataFrame, caption: str | None, max_rows: int) -> PageTable:
    """The table cut to its first ``max_rows`` rows for a page, saying so when cut."""
    if frame.height <= max_rows:
        return PageTable(frame, caption)
    note = f"First {max_rows} of {frame.height} rows; all rows in the CSV."
    return PageTable(frame.head(max_rows), caption, note)


@dataclass(frozen=True)
class PageSection:
    """A titled part of a page: a paragraph, tables, then plots (PNG files)."""

    title: str
    text: str = ""
    tables: Sequence[PageTable] = ()
    plots: Sequence[Path] = ()
    links: Sequence[tuple[str, str]] = ()
    """A list of ``(text, relative address)`` links after the tables (viewer pages)."""


@dataclass(frozen=True)
class Page:
    """A whole page: title, opening paragraphs, lead tables, notes (a bullet list), then
    its sections."""

    title: str
    text: Sequence[str] = ()
    tables: Sequence[PageTable] = ()
    notes: Sequence[str] = ()
    sections: Sequence[PageSection] = ()


def _markdown_tables(tables: Sequence[PageTable]) -> list[str]:
    out: list[str] = []
    for table in tables:
        if table.caption:
            out += [f"`{table.caption}`", ""]
        out += [markdown_table(table.frame) if table.frame.height else f"*{EMPTY}*", ""]
        if table.note:
            out += [f"*{table.note}*", ""]
    return out


def render_markdown(page: Page, folder: Path) -> str:
    """The page as Markdown; plots are linked relative to ``folder`` (where it is written)."""
    out = [f"# {page.title}", ""]
    for paragraph in page.text:
        out += [paragraph, ""]
    out += _markdown_tables(page.tables)
    if page.notes:
        out += [*(f"- {note}" for note in page.notes), ""]
    for section in page.sections:
        out += [f"## {section.title}", ""]
        if section.text:
            out += [section.text, ""]
        out += _markdown_tables(section.tables)
        out += [f"- [{text}]({href})" if href else f"- {text}" for text, href in section.links]
        out += [""] if section.links else []
        for plot in section.plots:
            link = Path(os.path.relpath(plot, folder)).as_posix()
            out += [f"![{plot.stem}]({link})", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _html_tables(tables: Sequence[PageTable]) -> list[str]:
    out: list[str] = []
    for table in tables:
        if table.caption:
            out.append(f'<p class="caption">{html.escape(table.caption)}</p>')
        out.append(html_table(table.frame) if table.frame.height else f"<p><em>{EMPTY}</em></p>")
        if table.note:
            out.append(f'<p class="caption">{html.escape(table.note)}</p>')
    return out


def html_image(plot: Path) -> str:
    """A PNG file as an inline image (a data URI: the page needs no other file)."""
    data = base64.b64encode(plot.read_bytes()).decode("ascii")
    return f'<img alt="{html.escape(plot.stem)}" src="data:image/png;base64,{data}">'


def render_html(page: Page) -> str:
    """The page as one self-contained HTML file (inline CSS, plots inlined)."""
    title = html.escape(page.title)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{title}</title><style>{STYLE}</style></head><body>",
        f"<h1>{title}</h1>",
    ]
    out += [f"<p>{html.escape(paragraph)}</p>" for paragraph in page.text]
    out += _html_tables(page.tables)
    if page.notes:
        out.append("<ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in page.notes) + "</ul>")
    for section in page.sections:
        out.append(f"<h2>{html.escape(section.title)}</h2>")
        if section.text:
            out.append(f"<p>{html.escape(section.text)}</p>")
        out += _html_tables(section.tables)
        if section.links:
            items = "".join(
                f'<li><a href="{html.escape(href)}">{html.escape(text)}</a></li>'
                if href
                else f"<li>{html.escape(text)}</li>"
                for text, href in section.links
            )
            out.append(f"<ul>{items}</ul>")
        out += [html_image(plot) for plot in section.plots]
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_page(page: Page, folder: Path, stem: str) -> tuple[Path, Path]:
    """Write ``stem.md`` and ``stem.html`` of the page into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    markdown, page_html = folder / f"{stem}.md", folder / f"{stem}.html"
    markdown.write_text(render_markdown(page, folder), encoding="utf-8")
    page_html.write_text(render_html(page), encoding="utf-8")
    return markdown, page_html
