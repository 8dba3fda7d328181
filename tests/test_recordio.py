"""Record files: JSON, JSON Lines and compressed JSON Lines, and their errors."""

from __future__ import annotations

from pathlib import Path

import pytest
import zstandard

from cgsim.errors import RecordError
from cgsim.games.recordio import dumps, iter_records, read_record, write_record


def test_every_file_kind_reads_back(tmp_path: Path) -> None:
    records = [{"format": "x", "seed": 1}, {"format": "x", "seed": 2}]
    single = tmp_path / "one.json"
    write_record(single, records[0])
    assert list(iter_records(single)) == records[:1]
    lines = "\n".join(dumps(r) for r in records) + "\n"
    (tmp_path / "many.jsonl").write_text(lines)
    (tmp_path / "many.jsonl.zst").write_bytes(zstandard.ZstdCompressor().compress(lines.encode()))
    assert list(iter_records(tmp_path / "many.jsonl")) == records
    assert read_record(tmp_path / "many.jsonl.zst", 1) == records[1]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("a.json", "{", "not JSON"),
        ("a.json", "[1]", "must be a JSON object"),
        ("a.txt", "{}", "unknown file type"),
        ("a.jsonl.zst", "not zstd", "cannot read records"),
    ],
)
def test_unreadable_files_are_record_errors(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(RecordError, match=message):
        list(iter_records(path))


def test_missing_file_and_missing_record_number(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no such file"):
        list(iter_records(tmp_path / "gone.json"))
    path = tmp_path / "one.json"
    write_record(path, {"format": "x"})
    with pytest.raises(RecordError, match="has no record number 3"):
        read_record(path, 3)
