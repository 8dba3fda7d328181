"""Reading a results directory: the one place that knows how tables are laid out on disk.

A table is a folder of Parquet chunk files (``games.parquet/chunk-000000.parquet``);
chunks are written atomically by the runner, so a reader only ever sees whole chunks.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

TABLE_SUFFIX = ".parquet"
CHUNK_GLOB = "chunk-*.parquet"


def table_dir(results: Path, table: str) -> Path:
    """The folder holding the chunks of ``table`` (e.g. ``games``)."""
    return Path(results) / f"{table}{TABLE_SUFFIX}"


def chunk_files(results: Path, table: str) -> list[Path]:
    """The chunk files of a table, in name order (empty when the table has none)."""
    folder = table_dir(results, table)
    return sorted(folder.glob(CHUNK_GLOB)) if folder.is_dir() else []


def scan(results: Path, table: str) -> pl.LazyFrame:
    """All chunks of a table as one lazy frame (an empty frame when none is written)."""
    files = chunk_files(results, table)
    if not files:
        return pl.LazyFrame()
    return pl.scan_parquet([str(f) for f in files])
