"""Typed reads of a record's JSON fields: a missing or ill-typed field is a violation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from cgsim.games.kitchen.checker.violations import Fatal


def get(obj: Any, key: str, where: str) -> Any:
    """``obj[key]``, or a violation naming the missing field."""
    if not isinstance(obj, Mapping):
        raise Fatal(f"{where}: expected an object, got {type(obj).__name__}")
    if key not in obj:
        raise Fatal(f"{where}: missing field {key!r}")
    return obj[key]


def is_int(value: Any) -> TypeGuard[int]:
    """True for JSON integers (booleans excluded)."""
    return isinstance(value, int) and not isinstance(value, bool)


def get_int(obj: Any, key: str, where: str) -> int:
    """An integer field."""
    value = get(obj, key, where)
    if not is_int(value):
        raise Fatal(f"{where}.{key}: expected an integer, got {value!r}")
    return int(value)


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


def int_list(value: Any, where: str) -> list[int]:
    """A list of integers."""
    if not (isinstance(value, list) and all(is_int(v) for v in value)):
        raise Fatal(f"{where}: expected a list of integers, got {value!r}")
    return [int(v) for v in value]
