"""Typed reads of a record's JSON fields: a missing or ill-typed field is a violation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.cottage.checker.geometry import Cell
from cgsim.games.cottage.checker.violations import Fatal


def get(obj: Any, key: str, where: str) -> Any:
    """``obj[key]``, or a violation naming the missing field."""
    if not isinstance(obj, Mapping):
        raise Fatal(f"{where}: expected an object, got {type(obj).__name__}")
    if key not in obj:
        raise Fatal(f"{where}: missing field {key!r}")
    return obj[key]


def is_int(value: Any) -> bool:
    """True for JSON integers (booleans excluded)."""
    return isinstance(value, int) and not isinstance(value, bool)


def get_int(obj: Any, key: str, where: str) -> int:
    """An integer field."""
    value = get(obj, key, where)
    if not is_int(value):
        raise Fatal(f"{where}.{key}: expected an integer, got {value!r}")
    return int(value)


def get_bool(obj: Any, key: str, where: str) -> bool:
    """A boolean field."""
    value = get(obj, key, where)
    if not isinstance(value, bool):
        raise Fatal(f"{where}.{key}: expected true or false, got {value!r}")
    return value


def get_str(obj: Any, key: str, where: str) -> str:
    """A string field."""
    value = get(obj, key, where)
    if not isinstance(value, str):
        raise Fatal(f"{where}.{key}: expected a string, got {value!r}")
    return value


def get_list(obj: Any, key: str, where: str) -> list[Any]:
    """A list field."""
    value = get(obj, key, where)
    if not isinstance(value, list):
        raise Fatal(f"{where}.{key}: expected a list, got {value!r}")
    return value


def to_cell(value: Any, where: str, size: int) -> Cell:
    """A ``[row, col]`` pair inside a ``size`` x ``size`` grid."""
    if not (isinstance(value, list) and len(value) == 2 and all(is_int(v) for v in value)):
        raise Fatal(f"{where}: expected a cell [row, col], got {value!r}")
    row, col = int(value[0]), int(value[1])
    if not (0 <= row < size and 0 <= col < size):
        raise Fatal(f"{where}: cell {[row, col]} is outside the {size}x{size} grid")
    return row, col


def get_cell(obj: Any, key: str, where: str, size: int) -> Cell:
    """A cell field."""
    return to_cell(get(obj, key, where), f"{where}.{key}", size)
