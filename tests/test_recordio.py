"""Record files: JSON, JSON Lines and compressed JSON Lines, and their errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import zstandard

from cgsim.errors import RecordError
from cgsim.games.recordio import Limits, dumps, iter_records, read_record, write_record


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
    with pytest.raises(RecordError, match=r"has no record 4; it holds 1 record \(1 to 1\)"):
        read_record(path, 3)


# ---------------------------------------------------------------- limits of what is read


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": ' + "[" * 5000 + "]" * 5000 + "}", "nested deeper than 64 levels"),
        ('{"a": ' + "[" * 65 + "]" * 65 + "}", "nested deeper than 64 levels"),
        ('{"seed": ' + "7" * 5000 + "}", "an integer of 5000 digits; at most 20 are read"),
        ('{"seed": -' + "7" * 21 + "}", "an integer of 21 digits"),
        ('{"seed": NaN}', "NaN is not a JSON number"),
        ('{"seed": Infinity}', "Infinity is not a JSON number"),
        ('{"seed": -Infinity}', "-Infinity is not a JSON number"),
        ('{"seed": 1e400}', "the number 1e400 is too large to be finite"),
        ('{"name": "' + "x" * 10_001 + '"}', "a string of 10001 characters; at most 10000"),
        ('{"' + "k" * 10_001 + '": 1}', "a key of 10001 characters"),
        (b'{"a": "\xff"}', "not UTF-8 text"),
    ],
)
def test_what_no_record_may_hold(tmp_path: Path, text: str | bytes, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(RecordError, match=re.escape(f"{path}: {message}")):
        read_record(path)


def test_what_a_record_may_hold_at_the_limits(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(
        '{"a": '
        + "[" * 63
        + "]" * 63
        + ', "seed": 18446744073709551615, "x": 1.5, "s": "'
        + "x" * 10_000
        + '"}'
    )
    assert read_record(path)["seed"] == 2**64 - 1


def test_size_limits_name_the_file_and_record(tmp_path: Path) -> None:
    small = Limits(record_bytes=100, file_bytes=1000)
    one = tmp_path / "big.json"
    one.write_text('{"a": "' + "x" * 200 + '"}')
    with pytest.raises(RecordError, match=re.escape(f"{one}: 209 bytes; a record may have 100")):
        read_record(one, limits=small)
    lines = tmp_path / "many.jsonl"
    lines.write_text('{"a": 1}\n\n{"b": "' + "x" * 200 + '"}\n')
    with pytest.raises(RecordError, match=re.escape(f"{lines}: record 2: longer than 100 bytes")):
        list(iter_records(lines, small))
    many = tmp_path / "long.jsonl.zst"
    many.write_bytes(zstandard.ZstdCompressor().compress(b'{"a": 1}\n' * 200))
    with pytest.raises(RecordError, match=re.escape(f"{many}: more than 1000 bytes")):
        list(iter_records(many, small))


def test_records_are_numbered_from_one_in_messages(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"a": 1}\n\n{"a": NaN}\n')
    with pytest.raises(RecordError, match=re.escape(f"{path}: record 2: NaN")):
        list(iter_records(path))


def _compressed(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "r.jsonl.zst"
    path.write_bytes(data)
    return path


def test_a_compressed_file_cut_anywhere_is_refused(tmp_path: Path) -> None:
    lines = b"".join(dumps({"format": "x", "seed": n}).encode() + b"\n" for n in range(500))
    whole = zstandard.ZstdCompressor().compress(lines)
    assert len(list(iter_records(_compressed(tmp_path, whole)))) == 500
    for cut in (1, 5, 20, len(whole) // 2, len(whole) - 1):
        path = _compressed(tmp_path, whole[:cut])
        with pytest.raises(RecordError, match=re.escape(f"{path}: the compressed data is")):
            list(iter_records(path))
        with pytest.raises(RecordError, match=f"{re.escape(str(path))}: "):
            read_record(path, 0)


def test_several_frames_read_as_one_file_and_an_empty_one_is_refused(tmp_path: Path) -> None:
    frame = zstandard.ZstdCompressor().compress(b'{"a": 1}\n')
    assert len(list(iter_records(_compressed(tmp_path, frame * 3)))) == 3
    with pytest.raises(RecordError, match="empty: a compressed record file"):
        list(iter_records(_compressed(tmp_path, b"")))
    with pytest.raises(RecordError, match="truncated"):
        list(iter_records(_compressed(tmp_path, frame + frame[:7])))


def test_a_decompression_bomb_stops_at_the_file_limit(tmp_path: Path) -> None:
    bomb = zstandard.ZstdCompressor(level=19).compress(b"\n" * (64 << 20))
    assert len(bomb) < 10_000
    with pytest.raises(RecordError, match="more than 1048576 bytes"):
        list(iter_records(_compressed(tmp_path, bomb), Limits(file_bytes=1 << 20)))


def test_brackets_and_escapes_inside_strings_are_not_nesting(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    for text in ('{"a": "' + "[" * 100 + '"}', '{"a": "\\"' + "{" * 100 + '"}'):
        path.write_text(text)
        assert len(read_record(path)["a"]) >= 100
    path.write_text('{"a": "' + "]" * 100 + '", "b": ' + "[" * 65 + "]" * 65 + "}")
    with pytest.raises(RecordError, match="nested deeper than 64"):
        read_record(path)
