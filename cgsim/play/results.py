"""Reading a results directory: the one place that knows how tables are laid out on disk.

A table is a folder of Parquet chunk files (``games.parquet/chunk-000000.parquet``);
chunks are written atomically by the runner, so a reader only ever sees whole chunks.
A results directory is recognised by its ``manifest.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl

from cgsim.errors import CgsimError

TABLE_SUFFIX = ".parquet"
CHUNK_GLOB = "chunk-*.parquet"
MANIFEST = "manifest.json"

GAMES_SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.Int64(),
    "block": pl.Int64(),
    "seed": pl.Int64(),
    "game": pl.String(),
    "engine_version": pl.String(),
    "players": pl.Int64(),
    "seats": pl.List(pl.String()),
    "matchup": pl.String(),
    "turns": pl.Int64(),
    "end": pl.String(),
    "winners": pl.List(pl.Int64()),
    "wall_time": pl.Float64(),
    "error": pl.String(),
    "error_seat": pl.Int64(),
}
"""Columns every game row has (games add their own after these)."""

SEATS_SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.Int64(),
    "block": pl.Int64(),
    "seat": pl.Int64(),
    "bot": pl.String(),
    "players": pl.Int64(),
    "score": pl.Float64(),
    "rank": pl.Float64(),
    "win_share": pl.Float64(),
    "end": pl.String(),
}
"""Columns every seat row has (games add their own after these)."""

CORE_SCHEMAS: dict[str, dict[str, pl.DataType]] = {"games": GAMES_SCHEMA, "seats": SEATS_SCHEMA}


class ResultsError(CgsimError):
    """A path that is not a readable results directory (missing, no manifest, bad manifest)."""


def table_dir(results: Path, table: str) -> Path:
    """The folder holding the chunks of ``table`` (e.g. ``games``)."""
    return Path(results) / f"{table}{TABLE_SUFFIX}"


def chunk_files(results: Path, table: str) -> list[Path]:
    """The chunk files of a table, in name order (empty when the table has none)."""
    folder = table_dir(results, table)
    return sorted(folder.glob(CHUNK_GLOB)) if folder.is_dir() else []


def scan(results: Path, table: str) -> pl.LazyFrame:
    """All chunks of a table as one lazy frame.

    A table with no chunk yet is an empty frame: with the core columns for ``games`` and
    ``seats`` (so aggregations still run and give empty answers), without columns otherwise.
    """
    files = chunk_files(results, table)
    if not files:
        return pl.LazyFrame(schema=CORE_SCHEMAS.get(table, {}))
    return pl.scan_parquet([str(f) for f in files])


def table_names(results: Path) -> list[str]:
    """Names of the tables that have at least one chunk, core tables first, then by name."""
    folders = sorted(Path(results).glob(f"*{TABLE_SUFFIX}"))
    names = [f.name.removesuffix(TABLE_SUFFIX) for f in folders if f.is_dir()]
    present = [name for name in names if chunk_files(results, name)]
    core = [name for name in CORE_SCHEMAS if name in present]
    return core + [name for name in present if name not in CORE_SCHEMAS]


def require_results_dir(results: Path) -> Path:
    """``results`` as a Path, or a ResultsError saying why it is not a results directory."""
    path = Path(results)
    if not path.exists():
        raise ResultsError(f"results directory {str(path)!r} does not exist")
    if not path.is_dir():
        raise ResultsError(f"results directory {str(path)!r} is not a directory")
    if not (path / MANIFEST).is_file():
        raise ResultsError(
            f"{str(path)!r} is not a results directory: it has no {MANIFEST} "
            "(expected the output folder of 'cgsim run' or 'cgsim tournament')"
        )
    return path


def read_manifest(results: Path) -> dict[str, Any]:
    """The run's manifest (config, versions, seeds, counts, timings) as data."""
    path = require_results_dir(results) / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ResultsError(f"cannot read {str(path)!r}: {error}") from None
    if not isinstance(data, dict):
        raise ResultsError(f"{str(path)!r} must hold a JSON object, not {type(data).__name__}")
    return data


def load_tables(results: Path) -> dict[str, pl.DataFrame]:
    """Every table of a results directory, collected into memory (``games`` and ``seats``
    always present, possibly empty; game-specific tables such as ``beds`` when written)."""
    path = require_results_dir(results)
    names = list(CORE_SCHEMAS) + [n for n in table_names(path) if n not in CORE_SCHEMAS]
    return {name: scan(path, name).collect() for name in names}
