"""Malformed records of both games fed to ``cgsim check`` and ``cgsim replay``.

Valid records are mutated (a key deleted, a value retyped, a number enlarged, a value
nested deeply, NaN or infinity, an integer of thousands of digits, a huge string), then
written as a file that may itself be cut short or corrupted (``.json``, ``.jsonl``,
``.jsonl.zst``). Property: the command ends within a time bound with exit code 0 (still
valid), 1 (``check``: a rule broken) or 2 (exactly one line on stderr, naming the file),
and never a traceback.

Examples per property come from the hypothesis profile named by ``HYPOTHESIS_PROFILE``:
``records`` (the default, a few seconds per property) or ``fuzz`` (``make fuzz``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import zstandard
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.errors import CgsimError
from cgsim.games import recordio

ROOT = Path(__file__).resolve().parents[1]
settings.register_profile(
    "records",
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "fuzz",
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "3000")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "records")
FUZZ = settings(settings.get_profile(PROFILE if PROFILE in ("records", "fuzz") else "records"))
TIME_BOUND = 60.0
"""Seconds one command may take on one file (real ones take well under one)."""

HUGE_INT = "__huge_int__"
DEEP = "__deep__"
NAN = "__nan__"
INFINITY = "__infinity__"
LONG = "__long__"
SENTINELS = {
    f'"{HUGE_INT}"': "9" * 5000,
    f'"{DEEP}"': "[" * 5000 + "]" * 5000,
    f'"{NAN}"': "NaN",
    f'"{INFINITY}"': "-Infinity",
    f'"{LONG}"': '"' + "x" * 20_000 + '"',
}
"""Values ``json.dumps`` cannot write: placed as strings, replaced in the text."""


def _bases() -> list[dict[str, Any]]:
    cottage = list(recordio.iter_records(ROOT / "tests/golden/records.jsonl.zst"))
    kitchen = list(recordio.iter_records(ROOT / "tests/golden-kitchen/records.jsonl.zst"))
    # Short games of every kind: solo, 2-4 players, children; each Kitchen player count.
    return [cottage[1], cottage[4], cottage[13], cottage[17], kitchen[1], kitchen[2], kitchen[5]]


BASES = _bases()
runner = CliRunner()


# ------------------------------------------------------------------ strategies


def _children(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return list(node)
    if isinstance(node, list):
        return list(range(len(node)))
    return []


@st.composite
def paths(draw: st.DrawFn, record: dict[str, Any]) -> list[Any]:
    """A path to a value inside ``record``, biased towards deep ones (turns and events)."""
    path: list[Any] = []
    node: Any = record
    while _children(node) and (not path or draw(st.integers(0, 9)) < 8):
        keys = _children(node)
        if not path and "turns" in keys:
            keys = [*keys, *["turns"] * len(keys)]  # half the mutations are in the turns
        key = draw(st.sampled_from(keys))
        path.append(key)
        node = node[key]
    return path


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from([HUGE_INT, DEEP, NAN, INFINITY, LONG]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


SHAPE_KEEPING = ("nudge", "nudge", "swap", "drop", "twice")
KINDS = (*SHAPE_KEEPING * 3, "delete", "retype", "enlarge", "negate", "nest", "special", "empty")
"""Mutations: the first mostly keep a record's shape (the engine and checker see them),
the others mostly break it (the reader or the schema must refuse them)."""


def _at(record: Any, path: list[Any]) -> Any:
    for step in path:
        record = record[step]
    return record


def _nudge(value: Any, step: int) -> Any:
    """A value of the same type moved a little: numbers shifted, a boolean flipped."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + step
    return value


def _enlarge(value: Any, factor: int) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return value * factor + factor


@st.composite
def mutated(draw: st.DrawFn, kinds: tuple[str, ...] = KINDS) -> dict[str, Any]:
    """A valid record with one to three mutations (``drop`` moves a list item elsewhere,
    ``twice`` repeats one, ``swap`` copies another value of the record here)."""
    record: dict[str, Any] = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(paths(record))
        if not path:
            continue
        *parent_path, key = path
        parent: Any = _at(record, parent_path)
        kind = draw(st.sampled_from(kinds))
        if kind == "nudge":
            parent[key] = _nudge(parent[key], draw(st.sampled_from([-2, -1, 1, 2, 5])))
        elif kind == "swap":
            other = draw(paths(record))
            if other:
                parent[key] = json.loads(json.dumps(_at(record, other)))
        elif kind == "drop" and isinstance(parent, list):
            parent.insert(draw(st.integers(0, len(parent))), parent.pop(key))
        elif kind == "twice" and isinstance(parent, list):
            parent.insert(key, parent[key])
        elif kind == "delete":
            del parent[key]
        elif kind == "retype":
            parent[key] = draw(json_values)
        elif kind == "enlarge":
            factor = draw(st.sampled_from([2, 10, 1000, 10**6, 10**12, 10**19, 10**30]))
            parent[key] = _enlarge(parent[key], factor)
        elif kind == "negate":
            parent[key] = _enlarge(parent[key], -1)
        elif kind == "nest":
            parent[key] = [[[[parent[key]]]]] if draw(st.booleans()) else DEEP
        elif kind == "special":
            parent[key] = draw(st.sampled_from([HUGE_INT, NAN, INFINITY, None, LONG]))
        else:
            parent[key] = draw(st.sampled_from([[], {}, ""]))
    return record


def _text(record: dict[str, Any]) -> str:
    text = json.dumps(record, separators=(",", ":"))
    for sentinel, raw in SENTINELS.items():
        text = text.replace(sentinel, raw)
    return text


@st.composite
def record_files(
    draw: st.DrawFn, records: st.SearchStrategy[dict[str, Any]], intact: int
) -> tuple[str, bytes]:
    """A file name and its bytes: one or a few records, maybe cut short or corrupted
    (``intact`` in ``intact + 2`` files are not)."""
    suffix = draw(st.sampled_from([".json", ".jsonl", ".jsonl.zst"]))
    count = 1 if suffix == ".json" else draw(st.integers(1, 2))
    texts = [_text(draw(records)) for _ in range(count)]
    data = ("\n".join(texts) + "\n").encode()
    if suffix.endswith(".zst"):
        data = zstandard.ZstdCompressor().compress(data)
    damage = draw(st.sampled_from(["none"] * intact + ["cut", "flip"]))
    if damage == "cut":
        data = data[: draw(st.integers(0, max(0, len(data) - 1)))]
    elif damage == "flip":
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]
    return f"fuzz{suffix}", data


# ------------------------------------------------------------------ the property


class TooSlow(Exception):
    """A command ran past the time bound."""


@contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise TooSlow(f"the command ran longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def invoke(*args: str) -> tuple[int, str, list[str]]:
    """Run a command in-process as ``cgsim.cli.main`` would: exit code, stdout, and the
    stderr lines (a ``CgsimError`` is the one line main prints)."""
    with time_bound(TIME_BOUND):
        result = runner.invoke(app, list(args))
    error = result.exception
    stderr = result.stderr.splitlines()
    if isinstance(error, CgsimError):
        return error.exit_code, result.stdout, [*stderr, f"error: {error}"]
    if error is not None and not isinstance(error, SystemExit):
        raise error
    return result.exit_code, result.stdout, stderr


def assert_clean(command: str, path: Path, allowed: set[int]) -> None:
    code, stdout, stderr = invoke(command, str(path))
    event(f"{command} exit {code}")
    if code == 2:
        event(f"{command} refused by {_stage(stderr[-1] if stderr else '')}")
    assert code in allowed, (code, stdout[-500:], stderr)
    if code == 2:
        assert len(stderr) == 1, stderr
        assert stderr[0].startswith(f"error: {path}"), stderr
    else:
        assert stderr == [], stderr
    assert "Traceback" not in stdout


def _stage(message: str) -> str:
    """Which step refused a file: reading, the schema, the rules, or replay/check."""
    if "record: rules: " in message or "is not allowed" in message:
        return "the rule settings"
    if "-garden record: " in message:
        return "the schema"
    if "turn " in message or "setup" in message or "result" in message:
        return "the replay"
    return "the reader"


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@FUZZ
@given(file=record_files(mutated(), intact=10))
def test_check_refuses_malformed_records_in_one_line(tmp_path_factory: Any, file: Any) -> None:
    path = _write(tmp_path_factory.mktemp("check"), *file)
    assert_clean("check", path, {0, 1, 2})


@FUZZ
@given(file=record_files(mutated(), intact=10))
def test_replay_refuses_malformed_records_in_one_line(tmp_path_factory: Any, file: Any) -> None:
    path = _write(tmp_path_factory.mktemp("replay"), *file)
    assert_clean("replay", path, {0, 2})


@FUZZ
@given(file=record_files(mutated(SHAPE_KEEPING), intact=100))
def test_nudged_records_are_checked_and_replayed_or_refused(
    tmp_path_factory: Any, file: Any
) -> None:
    path = _write(tmp_path_factory.mktemp("nudged"), *file)
    assert_clean("check", path, {0, 1, 2})
    assert_clean("replay", path, {0, 2})


@FUZZ
@given(file=record_files(st.sampled_from(BASES), intact=0))
def test_damaged_files_of_valid_records_are_read_or_refused(
    tmp_path_factory: Any, file: Any
) -> None:
    path = _write(tmp_path_factory.mktemp("files"), *file)
    assert_clean("check", path, {0, 1, 2})
    assert_clean("replay", path, {0, 2})


def test_the_bases_are_valid(tmp_path: Path) -> None:
    for index, record in enumerate(BASES):
        path = _write(tmp_path, f"base{index}.json", _text(record).encode())
        assert invoke("check", str(path))[0] == 0
        assert invoke("replay", str(path))[0] == 0


# ------------------------------------------------------------------ the real entry point


def _main(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from cgsim.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("command", "name", "text", "message"),
    [
        (
            "check",
            "deep.json",
            '{"a":' + "[" * 5000 + "]" * 5000 + "}",
            "nested deeper than 64 levels",
        ),
        (
            "replay",
            "deep.json",
            '{"a":' + "[" * 5000 + "]" * 5000 + "}",
            "nested deeper than 64 levels",
        ),
        (
            "check",
            "seed.json",
            '{"seed": ' + "7" * 5000 + "}",
            "an integer of 5000 digits; at most 20 are read",
        ),
        (
            "replay",
            "nan.json",
            '{"seed": NaN}',
            "NaN is not a JSON number; a record holds finite numbers only",
        ),
    ],
)
def test_the_console_entry_prints_one_line_and_exits_2(
    tmp_path: Path, command: str, name: str, text: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    done = _main(command, str(path))
    assert done.returncode == 2, done
    assert done.stderr.splitlines() == [f"error: {path}: {message}"], done.stderr


def test_the_console_entry_refuses_a_cut_compressed_file(tmp_path: Path) -> None:
    data = (ROOT / "tests/golden/records.jsonl.zst").read_bytes()
    path = _write(tmp_path, "cut.jsonl.zst", data[:20])
    done = _main("check", str(path))
    assert done.returncode == 2, done
    assert done.stderr.splitlines() == [
        f"error: {path}: the compressed data is truncated (it ends inside a zstandard frame)"
    ]
    assert "records checked" not in done.stdout
