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
body { font-family: sans-serif; max-width: 70rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: right; }
th { background: #f0f0f0; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; display: block; margin: 0.8rem 0; }
.caption { color: #666; font-size: 0.8rem; }
"""


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


def _decimals(column: pl.Series) -> int:
    """One precision per column: 1 decimal when its values reach 1000, else 3."""
    if not column.dtype.is_float():
        return 3
    largest = column.abs().fill_nan(None).max()
    return 1 if isinstance(largest, float) and largest >= 1000 else 3


def table_cells(table: pl.DataFrame) -> list[list[str]]:
    """Every row of ``table`` as formatted text, with one precision per column."""
    decimals = [_decimals(table[c]) for c in table.columns]
    return [
        [format_value(v, d) for v, d in zip(row, decimals, strict=True)]
        for row in table.iter_rows()
    ]


def markdown_table(table: pl.DataFrame) -> str:
    """A DataFrame as a GitHub-flavoured Markdown table."""

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(c) for c in table.columns) + " |"]
    lines.append("| " + " | ".join("---" for _ in table.columns) + " |")
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table_cells(table)]
    return "\n".join(lines)


def html_table(table: pl.DataFrame) -> str:
    """A DataFrame as an HTML table (every cell escaped)."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in row) + "</tr>"
        for row in table_cells(table)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


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
        out += [markdown_table(table.frame), ""]
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
        for plot in section.plots:
            link = Path(os.path.relpath(plot, folder)).as_posix()
            out += [f"![{plot.stem}]({link})", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _html_tables(tables: Sequence[PageTable]) -> list[str]:
    out: list[str] = []
    for table in tables:
        if table.caption:
            out.append(f'<p class="caption">{html.escape(table.caption)}</p>')
        out.append(html_table(table.frame))
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
