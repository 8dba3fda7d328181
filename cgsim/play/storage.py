"""Writing a results directory: chunked Parquet tables, records and the manifest.

Layout (read back by ``cgsim.play.results``): a table is a folder of chunk files,
``games.parquet/chunk-000007.parquet`` holding games ``7 * chunk_size`` onwards, rows
sorted by game id; records go to ``records/chunk-000007.jsonl.zst``. Every file is
written to a hidden temporary name and renamed (atomic), and a chunk's ``games`` file is
written last, so its presence marks the chunk complete, and a chunk's content never
depends on worker count or timing. When a run stops (Ctrl-C, ``--fail-fast``) the
finished games of incomplete chunks go to ``partial/chunk-000007/``, which readers never
see; the next run reloads them and plays only the games still missing. The full
traceback of each game that ended in error is kept in ``errors/GAME_ID.txt``.
Each table keeps one schema for the whole run (core columns, then the game's), so all
chunks scan together even when some hold only games that ended in error.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl
import zstandard

from cgsim.games.contract import HeldRows, Row, Schema
from cgsim.games.recordio import iter_records
from cgsim.play.manifest import read_manifest_data
from cgsim.play.results import (
    CHUNK_GLOB,
    CORE_SCHEMAS,
    ERRORS_DIR,
    EXTRA_TABLE_CORE,
    MANIFEST,
    READ_ERRORS,
    TABLE_SUFFIX,
    ResultsError,
    chunk_files,
    chunk_index,
    table_dir,
    table_schemas,
    trace_path,
)

RECORDS_DIR = "records"
PARTIAL_DIR = "partial"
"""Finished games of chunks a stopped run left incomplete, kept for the next run."""

SORT_KEYS: dict[str, list[str]] = {"games": ["game_id"], "seats": ["game_id", "seat"]}
RUN_IDENTITY_IGNORES = (
    "games",
    "workers",
    "out",
    "isolate",
    "backend",
    "scheduler",
    "tune",
    "tune_bot",
    "sweep",
    "sensitivity",
    "mechanics",
)
"""Config fields that may change between a run and its resumption (or that a run made
before they existed lacks): results do not depend on them (isolated bots and any backend
play the same games; the study tables only say which runs a study makes; a run's first
games do not depend on how many follow, so ``games`` may grow, which the runner checks
against the games planned before), and the folder
being resumed is the run's wherever ``out`` named it from (relative or absolute, from any
working directory)."""
RUN_IDENTITY_PATHS = ("components",)
"""Config fields that are paths: the same file named two ways is the same run."""


def chunk_name(index: int, suffix: str = ".parquet") -> str:
    """``chunk-000042.parquet``: zero-padded so name order is game order."""
    return f"chunk-{index:06d}{suffix}"


def _write_atomic(path: Path, write: Callable[[Path], None]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(temporary)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _write_bytes(path: Path, payload: bytes) -> None:
    path.write_bytes(payload)


class Columns:
    """Rows of one table held column by column: cheap to pickle, merge and turn into a frame.

    Workers convert their rows (so the parent, a serial bottleneck, does not); a column a
    row lacks (a game-specific one in an error game) is None there.
    """

    def __init__(self, count: int = 0, data: dict[str, list[Any]] | None = None) -> None:
        self.count = count
        self.data: dict[str, list[Any]] = data if data is not None else {}

    @classmethod
    def from_rows(cls, rows: Sequence[Row]) -> Columns:
        """Columns of some rows, in the order their keys first appear."""
        names: dict[str, None] = {}
        for row in rows:
            names.update(dict.fromkeys(row))
        return cls(len(rows), {name: [row.get(name) for row in rows] for name in names})

    @classmethod
    def from_parts(cls, parts: Sequence[Sequence[Row]]) -> Columns:
        """Columns of several games' rows, in order: each game's a list of dicts, or rows
        held as tuples (:class:`HeldRows`), whose columns are taken whole (no dict built
        for a row)."""
        out = cls()
        for part in parts:
            if isinstance(part, HeldRows):
                out.extend(cls(len(part), part.columns()))
            else:
                out.extend(cls.from_rows(part))
        return out

    @classmethod
    def from_frame(cls, frame: pl.DataFrame) -> Columns:
        """Columns of a stored frame."""
        return cls(frame.height, frame.to_dict(as_series=False))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Columns, (self.count, self.data))

    def extend(self, other: Columns) -> None:
        """Append another batch of rows of the same table (a column new to this one is
        added after the others, in the other's order, and null in this one's rows)."""
        for name in other.data:
            if name not in self.data:
                self.data[name] = [None] * self.count
        for name, column in self.data.items():
            values = other.data.get(name)
            column.extend(values if values is not None else [None] * other.count)
        self.count += other.count

    def row(self, index: int) -> Row:
        """One row back as a dict."""
        return {name: column[index] for name, column in self.data.items()}


class TableSchemas:
    """The column types of every table of a run, so that all its chunks agree.

    Seeded with the core columns and, from a probe game, the game's own; a column first
    seen later is added with the type of its first non-null values.
    """

    def __init__(self, tables: Mapping[str, Mapping[str, pl.DataType]] | None = None) -> None:
        self.tables: dict[str, dict[str, pl.DataType]] = {
            name: dict(columns) for name, columns in CORE_SCHEMAS.items()
        }
        for name, columns in (tables or {}).items():
            known = self.tables.setdefault(name, dict(EXTRA_TABLE_CORE))
            for column, dtype in columns.items():
                known.setdefault(column, dtype)

    @classmethod
    def from_schema(cls, schema: Schema) -> TableSchemas:
        """Every table's column types from the game's declared schema."""
        return cls(table_schemas(schema))

    def frame(self, table: str, rows: Columns) -> pl.DataFrame:
        """The rows as a frame in the table's schema, sorted by game id (then seat)."""
        known = self.tables.setdefault(table, dict(EXTRA_TABLE_CORE))
        columns = []
        for name in {**dict.fromkeys(known), **dict.fromkeys(rows.data)}:
            values = rows.data.get(name)
            dtype = known.get(name)
            if values is None:
                column = pl.Series(name, [None] * rows.count, dtype=dtype)
            elif dtype is None:
                column = pl.Series(name, values)
                if column.dtype == pl.Null:
                    continue
                known[name] = column.dtype
            elif isinstance(dtype, pl.List):
                column = _list_series(name, values, dtype)
            else:
                column = pl.Series(name, values).cast(dtype)
            columns.append(column)
        keys = SORT_KEYS.get(table, ["game_id"])
        return pl.DataFrame(columns).sort(keys, maintain_order=True)


def _list_series(name: str, values: Sequence[Any], dtype: pl.DataType) -> pl.Series:
    """A list column built from its few distinct values (seatings, winner sets): polars
    builds nested values slowly one by one, while a gather of indexes is vectorised."""
    index: dict[tuple[Any, ...] | None, int] = {}
    positions = [
        index.setdefault(None if value is None else tuple(value), len(index)) for value in values
    ]
    distinct = [None if key is None else list(key) for key in index]
    return pl.Series(name, distinct, dtype=dtype).gather(positions)


class ResultsStore:
    """One results directory (``<out>/<name>``) as the runner writes it."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    def read_manifest(self) -> dict[str, Any] | None:
        """The manifest as stored, unchecked, or None when there is none yet
        (``ResultsError`` when it is no JSON object); readers use ``open_results``."""
        return read_manifest_data(self.manifest_path) if self.manifest_path.is_file() else None

    def write_manifest(self, manifest: Mapping[str, Any]) -> None:
        """Replace the manifest atomically."""
        text = json.dumps(manifest, indent=2) + "\n"
        _write_atomic(self.manifest_path, lambda path: _write_text(path, text))

    def table_folders(self) -> list[Path]:
        """Every table folder present."""
        return sorted(p for p in self.path.glob(f"*{TABLE_SUFFIX}") if p.is_dir())

    def has_data(self) -> bool:
        """Whether any chunk of any table, record or partial chunk has been written."""
        folders = [self.path / RECORDS_DIR, self.path / PARTIAL_DIR, self.path / ERRORS_DIR]
        return any(any(folder.glob(CHUNK_GLOB)) for folder in self.table_folders()) or any(
            folder.is_dir() and any(folder.iterdir()) for folder in folders
        )

    def done_chunks(self) -> set[int]:
        """Indexes of complete chunks (those whose ``games`` file exists)."""
        indexes = (chunk_index(path) for path in chunk_files(self.path, "games"))
        return {index for index in indexes if index is not None}

    def clear(self) -> None:
        """Remove everything a run wrote here (tables, records, manifest), nothing else."""
        for folder in self.table_folders():
            shutil.rmtree(folder)
        shutil.rmtree(self.path / RECORDS_DIR, ignore_errors=True)
        shutil.rmtree(self.path / PARTIAL_DIR, ignore_errors=True)
        shutil.rmtree(self.path / ERRORS_DIR, ignore_errors=True)
        self.manifest_path.unlink(missing_ok=True)

    def remove_temporary_files(self) -> None:
        """Delete temporary files a killed process left behind (never complete chunks)."""
        folders = [*self.table_folders(), self.path / RECORDS_DIR, self.path / PARTIAL_DIR]
        for folder in [*folders, self.path / ERRORS_DIR, self.path]:
            if folder.is_dir():
                for leftover in folder.glob(".*.tmp"):
                    if leftover.is_dir():
                        shutil.rmtree(leftover, ignore_errors=True)
                    else:
                        leftover.unlink(missing_ok=True)

    def write_traces(self, traces: Sequence[tuple[int, str]]) -> None:
        """Keep the full traceback of each game that ended in error, as soon as it is in
        (a game played again writes the same text over it)."""
        for game_id, text in traces:
            path = trace_path(self.path, game_id)
            _write_atomic(path, functools.partial(_write_text, text=text))

    def write_partial(
        self,
        index: int,
        frames: Mapping[str, pl.DataFrame],
        records: Sequence[tuple[int, str]] = (),
    ) -> None:
        """Keep the finished games of incomplete chunk ``index`` (replacing older ones)."""
        final = self.path / PARTIAL_DIR / chunk_name(index, "")
        staging = final.with_name(f".{final.name}.{os.getpid()}.tmp")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        for table, frame in frames.items():
            frame.write_parquet(staging / f"{table}.parquet", compression="zstd")
        lines = "".join(f"{game_id}\t{line}\n" for game_id, line in records)
        (staging / "records.jsonl").write_text(lines, encoding="utf-8")
        # The runner rewrites partial chunks while it plays: the old copy is renamed
        # away whole, never deleted file by file in place, so a kill leaves the old or
        # the new copy (or, between the two renames, none), never a damaged one.
        old = final.with_name(f".{final.name}.{os.getpid()}.old.tmp")
        shutil.rmtree(old, ignore_errors=True)
        if final.exists():
            os.replace(final, old)
        os.replace(staging, final)
        shutil.rmtree(old, ignore_errors=True)

    def read_partials(
        self, expected: Mapping[str, Mapping[str, pl.DataType]], chunk_size: int, total: int
    ) -> dict[int, tuple[dict[str, pl.DataFrame], list[tuple[int, str]]]]:
        """Every partial chunk: ``{index: ({table: frame}, [(game_id, record line)])}``.

        Each is checked first (its tables readable with the ``expected`` columns, its game
        ids those of its chunk): a damaged one is a ``ResultsError`` naming its folder.
        """
        found: dict[int, tuple[dict[str, pl.DataFrame], list[tuple[int, str]]]] = {}
        root = self.path / PARTIAL_DIR
        for folder in sorted(root.glob("chunk-*")) if root.is_dir() else []:
            index = chunk_index(folder)
            if index is None or index * chunk_size >= total or not folder.is_dir():
                raise ResultsError(
                    f"{folder}: not a partial chunk of this run; delete it, then run the same "
                    "command again"
                )
            span = range(index * chunk_size, min((index + 1) * chunk_size, total))
            try:
                found[index] = _read_partial(folder, expected, span)
            except (*READ_ERRORS, ValueError, UnicodeDecodeError) as error:
                raise ResultsError(
                    f"{folder}: a damaged partial chunk ({_first_line(error)}); delete it, then "
                    "run the same command again to play its games again"
                ) from None
        return found

    def reopen_chunk(self, index: int) -> None:
        """Move complete chunk ``index`` back to ``partial/``, so more games can join it.

        The partial copy is kept before anything is deleted, and the ``games`` file is
        deleted first (so the chunk stops counting as complete before it loses a table):
        a kill at any point leaves every game in the chunk or in ``partial/``.
        """
        name = chunk_name(index)
        frames = {
            folder.name.removesuffix(TABLE_SUFFIX): pl.read_parquet(
                folder / name, hive_partitioning=False, glob=False
            )
            for folder in self.table_folders()
            if (folder / name).is_file()
        }
        records_path = self.path / RECORDS_DIR / chunk_name(index, ".jsonl.zst")
        lines: list[tuple[int, str]] = []
        if records_path.is_file():
            text = (
                zstandard.ZstdDecompressor().decompressobj().decompress(records_path.read_bytes())
            )
            for line in text.decode("utf-8").splitlines():
                lines.append((int(json.loads(line)["game_id"]), line))
        self.write_partial(index, frames, lines)
        (table_dir(self.path, "games") / name).unlink()
        for folder in self.table_folders():
            (folder / name).unlink(missing_ok=True)
        records_path.unlink(missing_ok=True)

    def drop_partial(self, index: int) -> None:
        """Forget the partial chunk ``index`` (its complete chunk is written)."""
        shutil.rmtree(self.path / PARTIAL_DIR / chunk_name(index, ""), ignore_errors=True)

    def write_chunk(
        self,
        index: int,
        frames: Mapping[str, pl.DataFrame],
        records: Sequence[str] | None = None,
    ) -> None:
        """Write chunk ``index`` of every table (``games`` last) and of the records."""
        for table, frame in frames.items():
            if table != "games":
                self._write_frame(table, index, frame)
        if records:
            payload = zstandard.ZstdCompressor(level=3).compress(
                ("\n".join(records) + "\n").encode("utf-8")
            )
            path = self.path / RECORDS_DIR / chunk_name(index, ".jsonl.zst")
            _write_atomic(path, lambda target: _write_bytes(target, payload))
        self._write_frame("games", index, frames["games"])

    def _write_frame(self, table: str, index: int, frame: pl.DataFrame) -> None:
        path = table_dir(self.path, table) / chunk_name(index)
        _write_atomic(path, lambda target: frame.write_parquet(target, compression="zstd"))


def _identity(key: str, value: Any) -> Any:
    """A config value as it bears on the results: a path resolved."""
    if key in RUN_IDENTITY_PATHS and isinstance(value, str):
        return str(Path(value).resolve())
    return value


def resume_conflicts(previous: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """How a stored manifest's run differs from the one about to run (empty: resumable).

    Compares the command, game, engine version and the config except fields results do
    not depend on (``workers``, ``out``), paths by the file they name. Keys the stored
    manifest lacks are not compared: checking the manifest itself is the reader's job.
    """
    conflicts = [
        f"{key}: {previous[key]!r} then, {current.get(key)!r} now"
        for key in ("command", "game", "engine_version")
        if key in previous and previous[key] != current.get(key)
    ]
    old = previous.get("config")
    new: Mapping[str, Any] = current.get("config") or {}
    if not isinstance(old, Mapping):
        return conflicts
    for key in sorted(set(old) | set(new)):
        if key in RUN_IDENTITY_IGNORES:
            continue
        if _identity(key, old.get(key)) != _identity(key, new.get(key)):
            conflicts.append(f"{key}: {old.get(key)!r} then, {new.get(key)!r} now")
    return conflicts


def _first_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def _read_partial(
    folder: Path, expected: Mapping[str, Mapping[str, pl.DataType]], span: range
) -> tuple[dict[str, pl.DataFrame], list[tuple[int, str]]]:
    """One partial chunk's tables and records, checked (``ValueError`` saying what is wrong)."""
    frames = {}
    for path in sorted(folder.glob("*.parquet")):
        frame = pl.read_parquet(path, hive_partitioning=False, glob=False)
        columns = expected.get(path.stem)
        if columns is not None and dict(frame.schema) != dict(columns):
            raise ValueError(f"{path.name} does not have this run's columns")
        ids = frame["game_id"] if "game_id" in frame.columns else None
        if ids is None or ids.null_count() or not all(game_id in span for game_id in ids):
            raise ValueError(f"{path.name} holds games of another chunk")
        frames[path.stem] = frame
    if "games" not in frames or frames["games"]["game_id"].n_unique() != frames["games"].height:
        raise ValueError("its games table is missing or repeats a game")
    records = []
    for line in (folder / "records.jsonl").read_text(encoding="utf-8").splitlines():
        game_id, _, text = line.partition("\t")
        records.append((int(game_id), text))
    return frames, records


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every game record of a results directory, in game order (for tests and tools)."""
    chunks = sorted((Path(path) / RECORDS_DIR).glob("chunk-*.jsonl.zst"))
    return [record for chunk in chunks for record in iter_records(chunk)]
