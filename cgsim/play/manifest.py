"""The manifest of a results directory, validated before anything is read from it.

Every reader relies on a few facts of the manifest (the game, its engine version, the
run seed, chunking and game counts, the declared schema); a hand-edited or truncated
manifest must stop the read with one line naming the problem, not a ``KeyError`` deep in
a report. Keys a reader never needs (``plan``, ``seeds``, ``rules`` ...) are kept as they
are, so older and newer manifests stay readable.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import polars as pl
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import ErrorDetails

from cgsim.errors import ResultsError
from cgsim.games.contract import ColumnType, Schema
from cgsim.games.registry import game_names

MANIFEST = "manifest.json"
FRESH_HINT = "restore it, or run the same command with --fresh to start over"
"""What to do about a manifest that cannot be trusted: its run cannot be read or resumed."""

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

EXTRA_TABLE_CORE: dict[str, pl.DataType] = {
    "game_id": pl.Int64(),
    "block": pl.Int64(),
    "seat": pl.Int64(),
    "bot": pl.String(),
}
"""Columns the runner puts first in every game-specific table (the seat's bot label
when a row names a seat)."""

POLARS_TYPES: dict[ColumnType, pl.DataType] = {
    ColumnType.INT: pl.Int64(),
    ColumnType.FLOAT: pl.Float64(),
    ColumnType.BOOL: pl.Boolean(),
    ColumnType.STR: pl.String(),
    ColumnType.INT_LIST: pl.List(pl.Int64()),
}
"""How each declared column type is stored."""


def table_schemas(schema: Schema) -> dict[str, dict[str, pl.DataType]]:
    """Every table's columns in stored order: the machinery's core columns, then the
    game's declared ones (what the runner writes and what a reader expects)."""
    tables = {name: dict(core) for name, core in CORE_SCHEMAS.items()}
    for table in schema.tables:
        tables.setdefault(table.name, dict(EXTRA_TABLE_CORE))
    for name, columns in tables.items():
        for column in schema.columns(name):
            columns.setdefault(column.name, POLARS_TYPES[column.type])
    return tables


class Timings(BaseModel):
    """How long the run's games took to play, over every session that played some."""

    model_config = ConfigDict(extra="allow", strict=True)

    wall_seconds: float = Field(ge=0)
    games_per_second: float = Field(ge=0)
    games_played: int = Field(default=0, ge=0)


class Manifest(BaseModel):
    """The keys a reader relies on, with their types; other keys are kept untouched."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    name: str = Field(min_length=1)
    command: str = Field(min_length=1)
    game: str
    engine_version: str = Field(min_length=1)
    config: dict[str, Any]
    run_seed: int = Field(ge=0)
    chunk_size: int = Field(gt=0)
    games_planned: int = Field(ge=0)
    games_done: int = Field(ge=0)
    status: Literal["running", "complete", "interrupted", "stopped", "lost"] = "complete"
    started: str | None = None
    finished: str | None = None
    timings: Timings | None = None
    schema_: dict[str, Any] | None = Field(default=None, alias="schema")

    @model_validator(mode="after")
    def _consistent(self) -> Manifest:
        if self.game not in game_names():
            raise ValueError(
                f"game {self.game!r} is not a known game (known: {', '.join(game_names())})"
            )
        if self.games_done > self.games_planned:
            raise ValueError(
                f"games_done {self.games_done} exceeds games_planned {self.games_planned}"
            )
        configured = self.config.get("game", self.game)
        if configured != self.game:
            raise ValueError(f"game {self.game!r} but its config says {configured!r}")
        return self

    def declared_schema(self) -> Schema | None:
        """The game's declared schema stamped by the runner (None in older manifests)."""
        return None if self.schema_ is None else Schema.from_json(self.schema_)

    def chunk_count(self) -> int:
        """How many chunks the planned games fill (the last one may be short)."""
        return -(-self.games_planned // self.chunk_size)

    def chunk_games(self, index: int) -> range:
        """The game ids chunk ``index`` holds."""
        start = index * self.chunk_size
        return range(start, min(start + self.chunk_size, self.games_planned))


def _where(error: ErrorDetails) -> str:
    where = ".".join(str(part) for part in error["loc"])
    return "schema" if where == "schema_" else where


def _problems(error: ValidationError) -> str:
    """Every problem of a manifest on one line: the missing keys together, then the rest."""
    missing = [_where(item) for item in error.errors() if item["type"] == "missing"]
    parts = [f"missing key{'s' * (len(missing) > 1)} {', '.join(missing)}"] if missing else []
    for item in error.errors():
        if item["type"] == "missing":
            continue
        where, message = _where(item), item["msg"].removeprefix("Value error, ")
        parts.append(_one_line(f"{where} = {item.get('input')!r}: {message}" if where else message))
    shown = "; ".join(parts[:4])
    return shown + (f"; and {len(parts) - 4} more" if len(parts) > 4 else "")


def _one_line(text: str, limit: int = 160) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def parse_manifest(data: Any, path: Path) -> Manifest:
    """A manifest's data validated (``ResultsError`` naming ``path`` and every problem)."""
    if not isinstance(data, Mapping):
        raise ResultsError(
            f"{path}: must hold a JSON object, not {type(data).__name__}; {FRESH_HINT}"
        )
    try:
        manifest = Manifest.model_validate(dict(data))
    except ValidationError as error:
        raise ResultsError(f"{path}: {_problems(error)}; {FRESH_HINT}") from None
    try:
        manifest.declared_schema()
    except (KeyError, ValueError, TypeError, AttributeError, IndexError) as error:
        raise ResultsError(
            f"{path}: schema is malformed ({_one_line(repr(error), 80)}); {FRESH_HINT}"
        ) from None
    return manifest


def read_manifest_data(path: Path) -> dict[str, Any]:
    """The JSON object of a manifest file, or a ``ResultsError`` saying why it is unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ResultsError(f"cannot read {str(path)!r}: {_one_line(str(error))}") from None
    if not isinstance(data, dict):
        raise ResultsError(
            f"{str(path)!r} must hold a JSON object, not {type(data).__name__}; {FRESH_HINT}"
        )
    return data
