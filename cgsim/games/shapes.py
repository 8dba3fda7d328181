"""Declarative shapes of JSON data, for checking a game record before anything reads it.

A game declares its record as a tree of shapes (``Obj``, ``ListOf``, ``Int``, ...) in its
own ``record_schema`` module; ``check`` walks the data once and raises ``ShapeError`` at
the first value of the wrong type, outside its range or of the wrong length, with the
path to it. Nothing here knows a game, so an engine and an independent checker can
both rely on the same declaration.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cgsim.errors import RecordError

Path = tuple[str | int, ...]


class ShapeError(Exception):
    """A value that does not fit its shape, and where it is."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def shown(value: Any) -> str:
    """A short picture of a value for a message (long ones cut)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Shape:
    """What a value must look like."""

    def check(self, value: Any, path: Path) -> None:
        raise NotImplementedError


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Int(Shape):
    """An integer (not a boolean) from ``low`` to ``high``."""

    low: int
    high: int

    def check(self, value: Any, path: Path) -> None:
        if not _is_int(value):
            raise ShapeError(path, f"must be an integer, got {shown(value)}")
        if not self.low <= value <= self.high:
            raise ShapeError(path, f"must be {self.low}..{self.high}, got {shown(value)}")


@dataclass(frozen=True)
class Num(Shape):
    """A finite number (integer or float, not a boolean) from ``low`` to ``high``."""

    low: float
    high: float

    def check(self, value: Any, path: Path) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ShapeError(path, f"must be a number, got {shown(value)}")
        if not (math.isfinite(value) and self.low <= value <= self.high):
            raise ShapeError(path, f"must be {self.low:g}..{self.high:g}, got {shown(value)}")


@dataclass(frozen=True)
class Bool(Shape):
    """``true`` or ``false``."""

    def check(self, value: Any, path: Path) -> None:
        if not isinstance(value, bool):
            raise ShapeError(path, f"must be true or false, got {shown(value)}")


@dataclass(frozen=True)
class Str(Shape):
    """A string of at most ``longest`` characters."""

    longest: int = 200

    def check(self, value: Any, path: Path) -> None:
        if not isinstance(value, str):
            raise ShapeError(path, f"must be a string, got {shown(value)}")
        if len(value) > self.longest:
            raise ShapeError(path, f"must have at most {self.longest} characters")


@dataclass(frozen=True)
class OneOf(Shape):
    """Exactly one of a few JSON values (strings, numbers, booleans or null)."""

    choices: tuple[Any, ...]

    def check(self, value: Any, path: Path) -> None:
        if not any(type(value) is type(c) and value == c for c in self.choices):
            allowed = ", ".join(shown(c) for c in self.choices)
            many = "one of " if len(self.choices) > 1 else ""
            raise ShapeError(path, f"must be {many}{allowed}, got {shown(value)}")


@dataclass(frozen=True)
class Anything(Shape):
    """Any value the record reader accepted (its own limits bound it)."""

    def check(self, value: Any, path: Path) -> None:
        return None


@dataclass(frozen=True)
class Nullable(Shape):
    """``null`` or ``inner``."""

    inner: Shape

    def check(self, value: Any, path: Path) -> None:
        if value is not None:
            self.inner.check(value, path)


@dataclass(frozen=True)
class Either(Shape):
    """A value of shape ``first`` or of shape ``second``; ``what`` says both in a message."""

    first: Shape
    second: Shape
    what: str

    def check(self, value: Any, path: Path) -> None:
        for shape in (self.first, self.second):
            try:
                shape.check(value, path)
            except ShapeError:
                continue
            return
        raise ShapeError(path, f"must be {self.what}, got {shown(value)}")


@dataclass(frozen=True)
class ListOf(Shape):
    """A list of ``shortest`` to ``longest`` items, each of shape ``item``."""

    item: Shape
    shortest: int = 0
    longest: int = 1000

    def check(self, value: Any, path: Path) -> None:
        if not isinstance(value, list):
            raise ShapeError(path, f"must be a list, got {shown(value)}")
        if not self.shortest <= len(value) <= self.longest:
            size = (
                str(self.shortest)
                if self.shortest == self.longest
                else f"{self.shortest}..{self.longest}"
            )
            raise ShapeError(path, f"must have {size} items, got {len(value)}")
        for index, item in enumerate(value):
            self.item.check(item, (*path, index))


@dataclass(frozen=True)
class Tuple(Shape):
    """A list of exactly one item per shape, in order (e.g. a ``[row, col]`` cell)."""

    items: tuple[Shape, ...]

    def check(self, value: Any, path: Path) -> None:
        if not (isinstance(value, list) and len(value) == len(self.items)):
            raise ShapeError(path, f"must be a list of {len(self.items)} items, got {shown(value)}")
        for index, (shape, item) in enumerate(zip(self.items, value, strict=True)):
            shape.check(item, (*path, index))


@dataclass(frozen=True)
class MapOf(Shape):
    """An object of at most ``longest`` entries, keys of shape ``key`` (strings)."""

    key: Shape
    value: Shape
    longest: int = 1000

    def check(self, value: Any, path: Path) -> None:
        if not isinstance(value, Mapping):
            raise ShapeError(path, f"must be an object, got {shown(value)}")
        if len(value) > self.longest:
            raise ShapeError(path, f"must have at most {self.longest} entries, got {len(value)}")
        for key, item in value.items():
            self.key.check(key, (*path, f"key {key!r}"[:60]))
            self.value.check(item, (*path, str(key)))


@dataclass(frozen=True)
class Obj(Shape):
    """An object with every ``required`` field, and the ``optional`` ones when present;
    other fields are allowed (a format may grow) and left unchecked."""

    required: Mapping[str, Shape]
    optional: Mapping[str, Shape] = field(default_factory=dict)

    def check(self, value: Any, path: Path) -> None:
        if not isinstance(value, Mapping):
            raise ShapeError(path, f"must be an object, got {shown(value)}")
        for key, shape in self.required.items():
            if key not in value:
                raise ShapeError(path, f"misses the field {key!r}")
            shape.check(value[key], (*path, key))
        for key, shape in self.optional.items():
            if key in value:
                shape.check(value[key], (*path, key))


@dataclass(frozen=True)
class Tagged(Shape):
    """An object whose ``tag`` field (a string) picks its shape among ``shapes``."""

    tag: str
    shapes: Mapping[str, Obj]

    def check(self, value: Any, path: Path) -> None:
        if not isinstance(value, Mapping):
            raise ShapeError(path, f"must be an object, got {shown(value)}")
        kind = value.get(self.tag)
        shape = self.shapes.get(kind) if isinstance(kind, str) else None
        if shape is None:
            raise ShapeError(
                (*path, self.tag),
                f"must name a known kind, got {shown(kind)} (known: {', '.join(self.shapes)})",
            )
        shape.check(value, path)


def location(path: Path) -> str:
    """``turns[11].events[2].cell`` read as ``turn 12 event 2: cell`` (turns counted from 1
    and events from 0, as replay and check report them)."""
    parts = list(path)
    head = ""
    if len(parts) >= 2 and parts[0] == "turns" and isinstance(parts[1], int):
        head = f"turn {parts[1] + 1}"
        parts = parts[2:]
        if len(parts) >= 2 and parts[0] == "events" and isinstance(parts[1], int):
            head += f" event {parts[1]}"
            parts = parts[2:]
    tail = ""
    for part in parts:
        tail += f"[{part}]" if isinstance(part, int) else f".{part}"
    tail = tail.removeprefix(".")
    if head and tail:
        return f"{head}: {tail}"
    return head or tail or "the record"


def validate(shape: Shape, record: Any, game: str) -> None:
    """``shape.check`` with a failure as a ``RecordError``: ``GAME record: WHERE what``,
    e.g. ``cottage-garden record: turn 12 event 3: cell[0] must be 0..4, got 7``."""
    try:
        shape.check(record, ())
    except ShapeError as error:
        raise RecordError(f"{game} record: {location(error.path)} {error.message}") from None


def int_list(low: int, high: int, longest: int, shortest: int = 0) -> ListOf:
    """A list of integers in a range (a common field shape)."""
    return ListOf(Int(low, high), shortest, longest)


def strings(*choices: str) -> OneOf:
    """One of a few strings."""
    return OneOf(tuple(choices))


def cell(size: int) -> Tuple:
    """A ``[row, col]`` cell of a ``size`` x ``size`` grid."""
    return Tuple((Int(0, size - 1), Int(0, size - 1)))


FAULT = Obj(
    {"reason": Str(1000)},
    {
        "seat": Nullable(Int(0, 3)),
        "turn": Nullable(Int(0, 1_000_000)),
        "decision": Nullable(Int(0, 10_000_000)),
    },
)
"""The ``error`` a run adds to the record of a game that ended in error, in every game's
format: why (the fault's one line), the faulty seat (null: the engine's), and the turn
and decision it happened at, when known. The record goes as far as the game went."""
