"""Reading a results directory: the one reader every command, study and the API go through.

A table is a folder of Parquet chunk files (``games.parquet/chunk-000000.parquet``); chunk
``k`` holds games ``k * chunk_size`` onwards, and a chunk's ``games`` file is written last,
so a chunk counts only once its ``games`` file exists (other tables' files of a chunk
without one are an interrupted write, ignored here and rewritten on resume). A results
directory is recognised by its ``manifest.json``.

:func:`open_results` checks the directory before anything is read: the manifest (keys,
types, a known game), then every chunk cheaply (its name and number against the plan,
its Parquet footer and schema against the run's, and the game ids, game and engine of
its rows, reading only those columns). Every problem is one ``ResultsError`` line naming
the file and what to do. Tables stay lazy (polars scans); a chunk damaged inside its data
pages, which only a full read reveals, is named by :meth:`Results.reading` when a
collect fails on it.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
from polars.exceptions import PanicException

from cgsim.errors import ResultsError
from cgsim.play.manifest import (
    CORE_SCHEMAS,
    EXTRA_TABLE_CORE,
    GAMES_SCHEMA,
    MANIFEST,
    POLARS_TYPES,
    SEATS_SCHEMA,
    Manifest,
    parse_manifest,
    read_manifest_data,
    table_schemas,
)

__all__ = [
    "CHUNK_GLOB",
    "CORE_SCHEMAS",
    "ERRORS_DIR",
    "EXTRA_TABLE_CORE",
    "GAMES_SCHEMA",
    "MANIFEST",
    "POLARS_TYPES",
    "SEATS_SCHEMA",
    "TABLE_SUFFIX",
    "Results",
    "ResultsError",
    "chunk_files",
    "chunk_index",
    "load_tables",
    "open_results",
    "read_manifest",
    "require_results_dir",
    "scan",
    "table_dir",
    "table_names",
    "table_schemas",
    "trace_path",
]

TABLE_SUFFIX = ".parquet"
ERRORS_DIR = "errors"
"""The full traceback of each game that ended in error: ``errors/GAME_ID.txt``."""
CHUNK_GLOB = "chunk-*.parquet"
CHUNK_NAME = re.compile(r"chunk-(\d{6,})\.parquet")
READ_ERRORS = (pl.exceptions.PolarsError, OSError, PanicException)
"""What polars raises on a file it cannot read (a panic on some damaged pages)."""


def table_dir(results: Path, table: str) -> Path:
    """The folder holding the chunks of ``table`` (e.g. ``games``)."""
    return Path(results) / f"{table}{TABLE_SUFFIX}"


def trace_path(results: Path, game_id: int) -> Path:
    """Where the full traceback of game ``game_id`` of a run is kept (if it ended in error)."""
    return Path(results) / ERRORS_DIR / f"{game_id}.txt"


def chunk_files(results: Path, table: str) -> list[Path]:
    """The chunk files of a table as they lie on disk, in name order (unchecked: for the
    writer; readers use :func:`open_results`)."""
    folder = table_dir(results, table)
    return sorted(folder.glob(CHUNK_GLOB)) if folder.is_dir() else []


def chunk_index(path: Path) -> int | None:
    """The number of a chunk file or folder (``chunk-000007...`` is 7), None if misnamed."""
    match = CHUNK_NAME.fullmatch(path.name) or re.fullmatch(r"chunk-(\d{6,})", path.name)
    return int(match[1]) if match else None


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


def _first_line(error: BaseException, limit: int = 120) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _replay(doomed: str) -> str:
    return (
        f"{doomed}, then run the same command again to play those games again "
        "(or with --fresh to start over)"
    )


def replay_hint(path: Path) -> str:
    """What to do about a damaged or foreign chunk file of a run: replay its games (a
    chunk counts as played while its ``games`` file exists)."""
    if path.parent.name == f"games{TABLE_SUFFIX}":
        return _replay("delete it")
    return _replay(f"delete it and games{TABLE_SUFFIX}/{path.name}")


def _describe_difference(found: Mapping[str, pl.DataType], expected: Mapping[str, Any]) -> str:
    """The first ways a chunk's columns differ from the run's, in words."""
    missing = [name for name in expected if name not in found]
    extra = [name for name in found if name not in expected]
    retyped = [
        f"{name} is {found[name]}, expected {expected[name]}"
        for name in expected
        if name in found and found[name] != expected[name]
    ]
    parts = []
    if missing:
        parts.append(f"missing column{'s' * (len(missing) > 1)} {', '.join(missing[:3])}")
    if extra:
        parts.append(f"unexpected column{'s' * (len(extra) > 1)} {', '.join(extra[:3])}")
    parts += retyped[:2]
    return ", ".join(parts) or "its columns are in another order"


@dataclass(frozen=True)
class Results:
    """A checked results directory: its manifest, and each table's complete chunks."""

    path: Path
    manifest: Manifest
    data: dict[str, Any]
    """The manifest as stored (every key, also those no reader relies on)."""
    schemas: dict[str, dict[str, pl.DataType]]
    """Each table's columns: the declared ones, or those its chunks share."""
    chunks: dict[str, dict[int, Path]]
    """Each table's chunk files by chunk number (only chunks whose games are written)."""

    def done_chunks(self) -> set[int]:
        """Numbers of the complete chunks."""
        return set(self.chunks.get("games", {}))

    def table_names(self) -> list[str]:
        """Names of the tables that have at least one chunk, core tables first, then by name."""
        present = [name for name, files in self.chunks.items() if files]
        core = [name for name in CORE_SCHEMAS if name in present]
        return core + sorted(name for name in present if name not in CORE_SCHEMAS)

    def scan(self, table: str) -> pl.LazyFrame:
        """All chunks of a table as one lazy frame (collect inside :meth:`reading`).

        A table with no chunk is an empty frame with its known columns (the core ones for
        ``games`` and ``seats``), so aggregations still run and give empty answers.
        """
        files = [str(path) for _, path in sorted(self.chunks.get(table, {}).items())]
        if not files:
            return pl.LazyFrame(schema=self.schemas.get(table, CORE_SCHEMAS.get(table, {})))
        return pl.scan_parquet(files, hive_partitioning=False, glob=False)

    def load(self) -> dict[str, pl.DataFrame]:
        """Every table collected into memory (``games`` and ``seats`` always present,
        possibly empty; game-specific tables such as ``beds`` when written)."""
        names = list(CORE_SCHEMAS) + [n for n in self.table_names() if n not in CORE_SCHEMAS]
        with self.reading():
            return {name: self.scan(name).collect() for name in names}

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Collect scans of this directory inside: a read that fails on a chunk damaged
        inside its data pages becomes a ``ResultsError`` naming that chunk. Failures with
        every chunk readable are not the data's fault and propagate unchanged."""
        try:
            yield
        except READ_ERRORS:
            damaged = self.damaged_chunk()
            if damaged is None:
                raise
            path, reason = damaged
            raise ResultsError(
                f"{path}: not a readable Parquet file (damaged: {reason}); {replay_hint(path)}"
            ) from None

    def damaged_chunk(self) -> tuple[Path, str] | None:
        """The first chunk that a full read, or a filtered one, fails on, and why (slow:
        for error paths). A filter takes another decoding path, which reads the page
        headers on its own: a chunk can pass a full read and fail under a filter."""
        for files in self.chunks.values():
            for path in files.values():
                try:
                    first = pl.read_parquet(path, hive_partitioning=False, glob=False).columns[:1]
                    if not first:
                        continue
                    kept = pl.any_horizontal(pl.col(first).is_null() | pl.col(first).is_not_null())
                    scan = pl.scan_parquet(path, hive_partitioning=False, glob=False)
                    scan.filter(kept).collect()
                except READ_ERRORS as error:
                    return path, _first_line(error)
        return None


class _Checker:
    """Checks a results directory's chunks against its manifest, one rule at a time."""

    def __init__(self, path: Path, manifest: Manifest) -> None:
        self.path = path
        self.manifest = manifest
        declared = manifest.declared_schema()
        self.declared = table_schemas(declared) if declared is not None else {}
        self.schemas: dict[str, dict[str, pl.DataType]] = {
            name: dict(columns) for name, columns in self.declared.items()
        }

    def listing(self) -> dict[str, dict[int, Path]]:
        """Each table's chunk files by number, checked against the plan."""
        tables: dict[str, dict[int, Path]] = {}
        folders = sorted(p for p in self.path.glob(f"*{TABLE_SUFFIX}") if p.is_dir())
        for folder in folders:
            files: dict[int, Path] = {}
            for path in sorted(folder.glob(CHUNK_GLOB)):
                index = chunk_index(path)
                if index is None:
                    raise ResultsError(
                        f"{path}: not a chunk file name the runner writes (chunk-NNNNNN.parquet); "
                        "it is not part of this run: delete it"
                    )
                if index >= self.manifest.chunk_count():
                    raise ResultsError(
                        f"{path}: chunk {index} is beyond this run's last one "
                        f"({self.manifest.games_planned} planned games in chunks of "
                        f"{self.manifest.chunk_size} make {self.manifest.chunk_count()} chunks); "
                        "it is not part of this run: delete it"
                    )
                if index in files:
                    raise ResultsError(
                        f"{path}: a second file of chunk {index} beside {files[index].name}; "
                        "it is not part of this run: delete it"
                    )
                files[index] = path
            tables[folder.name.removesuffix(TABLE_SUFFIX)] = files
        done = tables.setdefault("games", {})
        tables.setdefault("seats", {})
        for index, games in sorted(done.items()):
            if index not in tables["seats"]:
                raise ResultsError(
                    f"{table_dir(self.path, 'seats') / games.name}: missing although {games} "
                    f"exists; {_replay(f'delete games{TABLE_SUFFIX}/{games.name}')}"
                )
        return {
            name: {index: path for index, path in files.items() if index in done}
            for name, files in tables.items()
        }

    def check_schemas(self, table: str, files: Mapping[int, Path]) -> None:
        """Each chunk's footer is readable and its columns are the run's: the declared
        ones, or (a table the manifest does not declare) the first chunk's, which must
        have the core columns."""
        for path in files.values():
            try:
                found = pl.read_parquet_schema(path)
            except READ_ERRORS as error:
                raise ResultsError(
                    f"{path}: not a readable Parquet file (truncated or corrupt: "
                    f"{_first_line(error)}); {replay_hint(path)}"
                ) from None
            if table not in self.schemas:
                core = CORE_SCHEMAS.get(table, EXTRA_TABLE_CORE)
                found_core = {name: dtype for name, dtype in found.items() if name in core}
                if found_core != core:
                    difference = _describe_difference(found_core, core)
                    raise ResultsError(
                        f"{path}: its columns are not a results table's ({difference}); "
                        f"{replay_hint(path)}"
                    )
                self.schemas[table] = dict(found)
            expected = self.schemas[table]
            if list(found.items()) != list(expected.items()):
                raise ResultsError(
                    f"{path}: its columns are not this run's "
                    f"({_describe_difference(found, expected)}); {replay_hint(path)}"
                )

    def check_rows(self, table: str, files: Mapping[int, Path]) -> None:
        """Each chunk holds the game ids of its number (games: each once, of the
        manifest's game and engine), reading only those columns."""
        if not files:
            return
        games = table == "games"
        facts = {row["file"]: row for row in self._row_facts(files, games).iter_rows(named=True)}
        for index, path in sorted(files.items()):
            found = facts.get(str(path))
            if found is not None:
                self._check_chunk(path, index, found, games)
            elif games:
                raise ResultsError(f"{path}: holds no games; {replay_hint(path)}")

    def _row_facts(self, files: Mapping[int, Path], games: bool) -> pl.DataFrame:
        ids = pl.col("game_id")
        facts = [
            pl.len().alias("rows"),
            ids.min().alias("low"),
            ids.max().alias("high"),
            ids.null_count().alias("nulls"),
        ]
        if games:
            for column, wanted in (
                ("game", self.manifest.game),
                ("engine_version", self.manifest.engine_version),
            ):
                other = pl.col(column).ne_missing(wanted)
                facts.append(pl.col(column).filter(other).first().alias(f"other_{column}"))
                facts.append(other.any().alias(f"has_other_{column}"))
            facts.append(ids.n_unique().alias("distinct"))
        ordered = [files[index] for index in sorted(files)]
        try:
            return (
                pl.scan_parquet(
                    [str(p) for p in ordered],
                    hive_partitioning=False,
                    glob=False,
                    include_file_paths="file",
                )
                .group_by("file")
                .agg(facts)
                .sort("file")
                .collect()
            )
        except READ_ERRORS:
            for path in ordered:
                try:
                    pl.read_parquet(path, hive_partitioning=False, glob=False)
                except READ_ERRORS as error:
                    raise ResultsError(
                        f"{path}: not a readable Parquet file (damaged: {_first_line(error)}); "
                        f"{replay_hint(path)}"
                    ) from None
            raise

    def _check_chunk(self, path: Path, index: int, facts: Mapping[str, Any], games: bool) -> None:
        span = self.manifest.chunk_games(index)
        first, last = span.start, span.stop - 1
        if facts["nulls"]:
            problem = f"{facts['nulls']} rows without a game id"
        elif not (first <= facts["low"] and facts["high"] <= last):
            problem = (
                f"holds game ids {facts['low']}..{facts['high']}, but chunk {index} holds "
                f"games {first}..{last} (a copy of another chunk, or another run's)"
            )
        elif games and (facts["rows"] != len(span) or facts["distinct"] != facts["rows"]):
            problem = (
                f"holds {facts['rows']} rows of {facts['distinct']} distinct game ids, "
                f"expected each of games {first}..{last} once"
            )
        else:
            problem = ""
        if problem:
            raise ResultsError(f"{path}: {problem}; {replay_hint(path)}")
        if not games:
            return
        for column in ("game", "engine_version"):
            if facts[f"has_other_{column}"]:
                stated = getattr(self.manifest, column)
                raise ResultsError(
                    f"{path}: holds games with {column} {facts[f'other_{column}']!r}, but "
                    f"{MANIFEST} says {stated!r}: one of them was changed; restore {MANIFEST}, "
                    "or run the same command with --fresh to start over"
                )


Fingerprint = tuple[tuple[str, int, int, int, int], ...]
_OPENED: dict[tuple[str, str], tuple[Fingerprint, Results]] = {}
_OPENED_KEPT = 8


def _fingerprint(path: Path) -> Fingerprint | None:
    """Name, size, modification and change times and inode of the manifest and every chunk
    file: any write, replacement, copy or deletion changes it (None if a file vanished
    meanwhile)."""
    files = [path / MANIFEST, *sorted(path.glob(f"*{TABLE_SUFFIX}/{CHUNK_GLOB}"))]
    try:
        stats = [(file, file.stat()) for file in files]
    except OSError:
        return None
    return tuple(
        (str(file.relative_to(path)), stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)
        for file, stat in stats
    )


def open_results(results: Path | str) -> Results:
    """The results directory at ``results``, checked (``ResultsError``: one line naming
    the file at fault and what to do).

    A report reads a directory through many calls; the check of an unchanged directory
    (same files, sizes, times) is remembered within the process, so each costs a ``stat``
    per chunk instead of a footer read.
    """
    path = require_results_dir(Path(results))
    key = (os.getcwd(), str(path))
    fingerprint = _fingerprint(path)
    cached = _OPENED.get(key)
    if cached is not None and fingerprint is not None and cached[0] == fingerprint:
        return cached[1]
    data = read_manifest_data(path / MANIFEST)
    manifest = parse_manifest(data, path / MANIFEST)
    checker = _Checker(path, manifest)
    chunks = checker.listing()
    for table, files in chunks.items():
        checker.check_schemas(table, files)
    for table, files in chunks.items():
        checker.check_rows(table, files)
    opened = Results(path, manifest, data, checker.schemas, chunks)
    if fingerprint is not None and fingerprint == _fingerprint(path):
        _OPENED.pop(key, None)
        _OPENED[key] = (fingerprint, opened)
        while len(_OPENED) > _OPENED_KEPT:
            del _OPENED[next(iter(_OPENED))]
    return opened


def read_manifest(results: Path) -> dict[str, Any]:
    """The run's manifest (config, versions, seeds, counts, timings) as stored, once the
    directory is checked (a copy: the caller may change it)."""
    return copy.deepcopy(open_results(results).data)


def scan(results: Path, table: str) -> pl.LazyFrame:
    """All chunks of a table of a checked directory as one lazy frame."""
    return open_results(results).scan(table)


def table_names(results: Path) -> list[str]:
    """Names of the tables of a checked directory that have at least one chunk."""
    return open_results(results).table_names()


def load_tables(results: Path) -> dict[str, pl.DataFrame]:
    """Every table of a checked results directory, collected into memory."""
    return open_results(results).load()
