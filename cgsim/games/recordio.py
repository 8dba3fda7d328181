"""Reading and writing game records as JSON, JSON Lines, or zstandard-compressed JSON Lines.

Any game's records go through here; which format a record claims is the game's to
check. Unreadable input is a ``RecordError`` naming the file (and line).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import zstandard

from cgsim.errors import RecordError


def _lines(path: Path) -> Iterator[str]:
    if path.name.endswith(".zst"):
        with path.open("rb") as raw:
            reader = zstandard.ZstdDecompressor().stream_reader(raw)
            yield from io.TextIOWrapper(reader, encoding="utf-8")
    else:
        with path.open(encoding="utf-8") as text:
            yield from text


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    """Every record in a ``.json`` file (one record) or ``.jsonl`` / ``.jsonl.zst`` file."""
    path = Path(path)
    if not path.is_file():
        raise RecordError(f"{path}: no such file")
    try:
        if path.name.endswith((".jsonl", ".jsonl.zst")):
            for number, line in enumerate(_lines(path), start=1):
                if line.strip():
                    yield _parse(line, f"{path}:{number}")
        elif path.name.endswith(".json"):
            yield _parse(path.read_text(encoding="utf-8"), str(path))
        else:
            raise RecordError(f"{path}: unknown file type; expected .json, .jsonl or .jsonl.zst")
    except (OSError, UnicodeDecodeError, zstandard.ZstdError) as error:
        raise RecordError(f"{path}: cannot read records: {error}") from None


def _parse(text: str, source: str) -> dict[str, Any]:
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{source}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(record, dict):
        raise RecordError(f"{source}: a record must be a JSON object, not {type(record).__name__}")
    return record


def read_record(path: Path, index: int = 0) -> dict[str, Any]:
    """Record number ``index`` (from 0) of a file."""
    for number, record in enumerate(iter_records(path)):
        if number == index:
            return record
    raise RecordError(f"{path}: has no record number {index}")


def dumps(record: Mapping[str, Any]) -> str:
    """Compact, key-ordered JSON: the same record always gives the same bytes."""
    return json.dumps(record, separators=(",", ":"), sort_keys=False)


def write_record(path: Path, record: Mapping[str, Any]) -> None:
    """Write one record as readable JSON (its folder made when missing)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
