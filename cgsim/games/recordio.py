"""Reading and writing game records as JSON, JSON Lines, or zstandard-compressed JSON Lines.

Any game's records go through here; which format a record claims is the game's to
check. Records come from users, so reading is bounded (``Limits``): file and record
size, nesting depth, integer digits, string length, and no ``NaN``/``Infinity``; a
compressed file must end with a complete frame. Every failure is a ``RecordError``
naming the file (and the record, counted from 1, in a JSON Lines file).
"""

from __future__ import annotations

import itertools
import json
import math
import operator
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import zstandard

from cgsim.errors import RecordError

BLOCK = 1 << 20
"""Bytes read from a plain file at a time."""
ZSTD_PIECE = 1 << 10
"""Compressed bytes decompressed at a time (zstandard inflates at most ~32,000-fold)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one record file may hold; past any of these it is refused, not read."""

    file_bytes: int = 4 << 30
    """Bytes of one file, counted after decompression."""
    record_bytes: int = 64 << 20
    """Bytes of one record: a ``.json`` file, or one line of a JSON Lines file."""
    depth: int = 64
    """Nesting of objects and lists (real records nest about 6 deep)."""
    int_digits: int = 20
    """Digits of one integer (a 64-bit seed has at most 20)."""
    string_chars: int = 10_000
    """Characters of one string or object key."""


LIMITS = Limits()


class _Refused(Exception):
    """A limit the JSON text breaks, raised from the parser hooks."""


def iter_records(path: Path, limits: Limits = LIMITS) -> Iterator[dict[str, Any]]:
    """Every record in a ``.json`` file (one record) or ``.jsonl`` / ``.jsonl.zst`` file."""
    for source, text in _texts(Path(path), limits):
        yield parse(text, source, limits)


def read_record(path: Path, index: int = 0, limits: Limits = LIMITS) -> dict[str, Any]:
    """Record number ``index`` (from 0) of a file.

    The whole file is read, so a file cut short or corrupt after the record is refused
    too; only the wanted record is parsed. Messages count records from 1, as every
    other message about a record file does.
    """
    found: dict[str, Any] | None = None
    count = 0
    for number, (source, text) in enumerate(_texts(Path(path), limits)):
        count += 1
        if number == index:
            found = parse(text, source, limits)
    if found is None:
        held = f"{count} record{'s' if count != 1 else ''}"
        raise RecordError(f"{path}: has no record {index + 1}; it holds {held} (1 to {count})")
    return found


def _texts(path: Path, limits: Limits) -> Iterator[tuple[str, bytes]]:
    """``(where, JSON text)`` of every record of a file, unparsed."""
    if not path.is_file():
        raise RecordError(f"{path}: no such file")
    name = path.name
    try:
        if name.endswith((".jsonl", ".jsonl.zst")):
            with path.open("rb") as raw:
                blocks = _zstd_blocks(raw) if name.endswith(".zst") else _plain_blocks(raw)
                for number, line in enumerate(_lines(blocks, limits), start=1):
                    yield f"{path}: record {number}", line
        elif name.endswith(".json"):
            size = path.stat().st_size
            if size > limits.record_bytes:
                raise RecordError(f"{path}: {size} bytes; a record may have {limits.record_bytes}")
            yield str(path), path.read_bytes()
        else:
            raise RecordError(f"{path}: unknown file type; expected .json, .jsonl or .jsonl.zst")
    except _Refused as error:
        raise RecordError(f"{path}: {error}") from None
    except (OSError, zstandard.ZstdError) as error:
        raise RecordError(f"{path}: cannot read records: {error}") from None


def _plain_blocks(raw: BinaryIO) -> Iterator[bytes]:
    while block := raw.read(BLOCK):
        yield block


def _zstd_blocks(raw: BinaryIO) -> Iterator[bytes]:
    """Decompressed bytes of every frame; a file that stops inside a frame is refused
    (a stream reader would silently return what it had, which reads as fewer records).

    Compressed input goes in small pieces, so one call never inflates to more than a
    few tens of megabytes, whatever the file claims.
    """
    decompressor = zstandard.ZstdDecompressor()
    frame = decompressor.decompressobj()
    frames = 0
    fed = False
    while piece := raw.read(ZSTD_PIECE):
        while piece:
            fed = True
            yield frame.decompress(piece)
            if not frame.eof:
                break
            frames += 1
            piece = frame.unused_data
            frame, fed = decompressor.decompressobj(), False
    if fed:
        raise _Refused("the compressed data is truncated (it ends inside a zstandard frame)")
    if frames == 0:
        raise _Refused("empty: a compressed record file holds at least one zstandard frame")


def _lines(blocks: Iterator[bytes], limits: Limits) -> Iterator[bytes]:
    """The non-blank lines, each at most ``record_bytes``, the whole at most ``file_bytes``."""
    parts: list[bytes] = []
    pending = 0
    total = 0
    count = 0
    for block in blocks:
        total += len(block)
        if total > limits.file_bytes:
            raise _Refused(f"more than {limits.file_bytes} bytes; a record file may have that many")
        if b"\n" not in block:
            parts.append(block)
            pending += len(block)
        else:
            *complete, tail = b"".join([*parts, block]).split(b"\n")
            for line in complete:
                if line.strip():
                    count += 1
                    yield line
            parts, pending = [tail], len(tail)
        if pending > limits.record_bytes:
            raise _Refused(
                f"record {count + 1}: longer than {limits.record_bytes} bytes (the limit)"
            )
    tail = b"".join(parts)
    if tail.strip():
        yield tail


def parse(text: str | bytes, source: str, limits: Limits = LIMITS) -> dict[str, Any]:
    """One record from JSON text, within ``limits``; ``source`` starts every error.

    Most records take the fast way: C-speed scans of the text show no escape, long
    digit run, large exponent or long string, so plain ``json.loads`` reads it and only
    the nesting is measured on the text. Anything else is read with a check of every
    number and string (several times slower, and exact).
    """
    if len(text) > limits.record_bytes:
        raise RecordError(f"{source}: longer than {limits.record_bytes} bytes (the limit)")
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    outside = _fast_reading(data, limits)
    try:
        if outside is None:
            record = json.loads(
                data,
                parse_int=lambda digits: _integer(digits, limits),
                parse_float=_finite,
                parse_constant=_constant,
            )
        else:
            record = json.loads(data, parse_constant=_constant)
    except _Refused as error:
        raise RecordError(f"{source}: {error}") from None
    except RecursionError:
        raise RecordError(f"{source}: nested deeper than {limits.depth} levels") from None
    except UnicodeDecodeError as error:
        raise RecordError(f"{source}: not UTF-8 text ({error.reason})") from None
    except json.JSONDecodeError as error:
        raise RecordError(f"{source}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(record, dict):
        raise RecordError(f"{source}: a record must be a JSON object, not {type(record).__name__}")
    problem = _shape_problem(record, limits) if outside is None else _depth_problem(outside, limits)
    if problem:
        raise RecordError(f"{source}: {problem}")
    return record


_DIGITS = bytes.maketrans(b"123456789E", b"000000000e")
_OPEN, _CLOSE = b"[{", b"]}"
_BRACKET_STEPS = bytes.maketrans(_OPEN + _CLOSE, b"\x02\x02\x00\x00")
_NOT_BRACKETS = bytes(set(range(256)) - set(_OPEN + _CLOSE))


def _fast_reading(data: bytes, limits: Limits) -> bytes | None:
    """The text outside strings, when C-speed scans show that plain ``json.loads`` may
    read ``data``: no escape (so every ``"`` bounds a string), no digit run longer than
    an integer may be, no exponent of 3 digits, no string too long. None otherwise."""
    if b"\\" in data:
        return None
    numbers = data.translate(_DIGITS)
    if b"0" * (limits.int_digits + 1) in numbers or any(
        marker in numbers for marker in (b"e000", b"e+000", b"e-000")
    ):
        return None
    pieces = data.split(b'"')
    if max(map(len, pieces[1::2]), default=0) > limits.string_chars:
        return None
    return b"".join(pieces[0::2])


def _depth_problem(outside: bytes, limits: Limits) -> str | None:
    """Nesting measured on the text outside strings."""
    steps = outside.translate(None, _NOT_BRACKETS).translate(_BRACKET_STEPS)
    # An opening bracket adds 2 and a closing one 0: the depth after k brackets is the
    # running sum minus k.
    depth = max(map(operator.sub, itertools.accumulate(steps), itertools.count(1)), default=0)
    return f"nested deeper than {limits.depth} levels" if depth > limits.depth else None


def _integer(digits: str, limits: Limits) -> int:
    if len(digits.lstrip("-")) > limits.int_digits:
        raise _Refused(
            f"an integer of {len(digits.lstrip('-'))} digits; at most {limits.int_digits} are read"
        )
    return int(digits)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {text[:30]} is too large to be finite")
    return value


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number; a record holds finite numbers only")


def _shape_problem(record: dict[str, Any], limits: Limits) -> str | None:
    """Too deep or too long a string anywhere in the record (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(record, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if len(value) > limits.string_chars:
                return f"a string of {len(value)} characters; at most {limits.string_chars}"
        elif isinstance(value, dict | list):
            if depth > limits.depth:
                return f"nested deeper than {limits.depth} levels"
            items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
            for key, item in items:
                if key is not None and len(key) > limits.string_chars:
                    return f"a key of {len(key)} characters; at most {limits.string_chars}"
                stack.append((item, depth + 1))
    return None


def dumps(record: Mapping[str, Any]) -> str:
    """Compact, key-ordered JSON: the same record always gives the same bytes."""
    return json.dumps(record, separators=(",", ":"), sort_keys=False)


def write_record(path: Path, record: Mapping[str, Any]) -> None:
    """Write one record as readable JSON (its folder made when missing)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
