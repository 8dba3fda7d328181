"""Fixed-size numeric views of a game, for learning agents: observation arrays and actions
as indexes of one fixed range.

Engines speak in states and packed int actions whose legal set changes at every decision;
a learning agent wants one array of a fixed length and one fixed action range with a mask.
A game that offers this declares, for given rules, an :class:`Encoding`: an
:class:`ObservationLayout` (named fields, each with a shape, an upper bound and a meaning)
and an :class:`ActionSpace` (named segments of the index range, each one kind of engine
action with the ranges of its arguments). Both are data, so the environments above stay
generic and the documentation of every slice and index is generated from them
(``describe``). An encoding reads only what a seat's observation holds: it is built from
``game.observation(state, seat)``, never from the state.
"""

from __future__ import annotations

import bisect
import functools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from cgsim.games.contract import Action

Array = npt.NDArray[np.float32]
"""An observation array (float32, every value from 0 to its field's bound)."""
Mask = npt.NDArray[np.int8]
"""An action mask: 1 at the index of every legal action, 0 elsewhere."""
Args = tuple[int, ...]
"""The arguments of an engine action, each a small non-negative int."""


# ---------------------------------------------------------------------------- observations


@dataclass(frozen=True, slots=True)
class Field:
    """One named slice of an observation array."""

    name: str
    shape: tuple[int, ...]
    high: float
    """Upper bound of every value (the lower bound is 0); larger counts are clipped to it."""
    text: str
    """What a value means, in words an agent's author reads."""

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class ObservationLayout:
    """The fields of an observation array, laid end to end in declared order."""

    def __init__(self, fields: Sequence[Field]) -> None:
        names = [f.name for f in fields]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate observation field names in {names}")
        self.fields = tuple(fields)
        self._shapes = {f.name: f.shape for f in self.fields}
        self.slices: dict[str, slice] = {}
        start = 0
        for f in self.fields:
            self.slices[f.name] = slice(start, start + f.size)
            start += f.size
        self.size = start
        self.high: Array = np.concatenate(
            [np.full(f.size, f.high, dtype=np.float32) for f in self.fields]
            or [np.zeros(0, dtype=np.float32)]
        )

    def new(self) -> Array:
        """A zero array to fill field by field (see :meth:`view`)."""
        return np.zeros(self.size, dtype=np.float32)

    def view(self, array: Array, name: str) -> Array:
        """The field's part of ``array`` in the field's shape; writing to it fills ``array``."""
        return array[self.slices[name]].reshape(self._shapes[name])

    def clip(self, array: Array) -> Array:
        """``array`` with every value held within its field's bounds (in place)."""
        return np.clip(array, 0.0, self.high, out=array)

    def describe(self) -> list[str]:
        """One line per field: its index range, name, shape and meaning."""
        lines = []
        for f in self.fields:
            where = self.slices[f.name]
            shape = "x".join(map(str, f.shape)) or "1"
            lines.append(
                f"[{where.start}:{where.stop}] {f.name} ({shape}, 0..{f.high:g}): {f.text}"
            )
        return lines


# ---------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Segment:
    """One kind of engine action as a block of consecutive indexes.

    The block holds every combination of the arguments, row-major: index
    ``start + ravel(args, dims)``. A kind without arguments takes one index.
    """

    name: str
    kind: int
    """The engine's action kind (what ``split`` and ``join`` exchange)."""
    args: tuple[str, ...]
    """The arguments' names, in order."""
    dims: tuple[int, ...]
    """Each argument's range: argument ``i`` is ``0..dims[i] - 1``."""
    text: str

    @property
    def size(self) -> int:
        return math.prod(self.dims)


Split = Callable[[Action, int], tuple[int, Args]]
"""``split(action, seat)``: an engine action as its kind and arguments, as ``seat`` sees it."""
Join = Callable[[int, Args, int], Action]
"""``join(kind, args, seat)``: the engine action of a kind and arguments (``split``'s inverse)."""


class ActionSpace:
    """Every possible action of a game, under given rules, as an index of ``0..size-1``.

    ``split`` and ``join`` translate between engine actions and (kind, arguments); they
    receive the acting seat, so a game may give arguments relative to it (a target seat
    as "the next player", not "seat 2"), as its observations do.
    """

    def __init__(self, segments: Sequence[Segment], split: Split, join: Join) -> None:
        kinds = [s.kind for s in segments]
        if len(set(kinds)) != len(kinds):
            raise ValueError(f"duplicate action kinds in {kinds}")
        self.segments = tuple(segments)
        self.starts: list[int] = []
        start = 0
        for segment in self.segments:
            self.starts.append(start)
            start += segment.size
        self.size = start
        self._by_kind = {
            s.kind: (s, first) for s, first in zip(self.segments, self.starts, strict=True)
        }
        self._split = split
        self._join = join

    def index(self, action: Action, seat: int) -> int:
        """The index of an engine action; ``ValueError`` if the space has none for it."""
        kind, args = self._split(action, seat)
        found = self._by_kind.get(kind)
        if found is None or len(args) != len(found[0].dims):
            raise ValueError(f"action {action} has no index in this action space")
        segment, offset = found
        flat = 0
        for value, dim in zip(args, segment.dims, strict=True):
            if not 0 <= value < dim:
                raise ValueError(
                    f"action {action}: {segment.name} argument {value} is outside 0..{dim - 1}"
                )
            flat = flat * dim + value
        return offset + flat

    def action(self, index: int, seat: int) -> Action:
        """The engine action of an index; ``ValueError`` outside ``0..size-1``."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is outside 0..{self.size - 1}")
        # The last segment starting at or before ``index``: never an empty one, since an
        # empty segment shares its start with the segment after it.
        position = bisect.bisect_right(self.starts, index) - 1
        segment = self.segments[position]
        flat = index - self.starts[position]
        args = []
        for dim in reversed(segment.dims):
            flat, value = divmod(flat, dim)
            args.append(value)
        return self._join(segment.kind, tuple(reversed(args)), seat)

    def mask(self, legal: Iterable[Action], seat: int) -> Mask:
        """1 at the index of every action in ``legal``, 0 elsewhere."""
        mask = np.zeros(self.size, dtype=np.int8)
        for action in legal:
            mask[self.index(action, seat)] = 1
        return mask

    def describe(self) -> list[str]:
        """One line per segment: its index range, name, arguments and meaning."""
        lines = []
        for segment, start in zip(self.segments, self.starts, strict=True):
            args = ", ".join(
                f"{a} 0..{d - 1}" for a, d in zip(segment.args, segment.dims, strict=True)
            )
            lines.append(
                f"[{start}:{start + segment.size}] {segment.name}"
                + (f" ({args})" if args else "")
                + f": {segment.text}"
            )
        return lines


# ---------------------------------------------------------------------------- a game's encoding


class Encoding(ABC):
    """A game's observation layout and action space under given rules, and its encoder."""

    def __init__(self, layout: ObservationLayout, actions: ActionSpace) -> None:
        self.layout = layout
        self.actions = actions

    @abstractmethod
    def fill(self, array: Array, observation: Any, seat: int) -> None:
        """Write ``seat``'s observation (``game.observation(state, seat)``) into a zero array."""

    def encode(self, observation: Any, seat: int) -> Array:
        """The observation array of ``seat``: every field filled, values within bounds."""
        array = self.layout.new()
        self.fill(array, observation, seat)
        return self.layout.clip(array)

    def mask(self, legal: Iterable[Action], seat: int) -> Mask:
        """The action mask of the legal actions of ``seat``."""
        return self.actions.mask(legal, seat)

    def describe(self) -> str:
        """The observation layout and the action encoding as text (for the documentation)."""
        lines = [f"observation: {self.layout.size} values", *self.layout.describe()]
        lines += ["", f"actions: {self.actions.size} indexes", *self.actions.describe()]
        return "\n".join(lines)


EncodingT = TypeVar("EncodingT", bound=Encoding)


class Encoder(Protocol):
    """What a game's encoding module offers (see ``registry.get_encoder``)."""

    def encoding(self, rules: Any) -> Encoding:
        """The encoding under these rules (the same object for the same rules)."""
        ...

    def rules_of(self, observation: Any) -> Any:
        """The rules an observation was made under (a bot learns them from what it sees)."""
        ...


class CachedEncoder(Generic[EncodingT]):
    """An :class:`Encoder` that makes one encoding per rules object (rules are immutable
    and hashable, and a game is played under few) and reads the rules an observation
    carries in its ``rules`` field."""

    def __init__(self, make: Callable[[Any], EncodingT]) -> None:
        self._encoding = functools.lru_cache(maxsize=8)(make)

    def encoding(self, rules: Any) -> EncodingT:
        return self._encoding(rules)

    def rules_of(self, observation: Any) -> Any:
        return observation.rules


def one_hot(target: Array, index: int) -> None:
    """Set ``target[index]`` to 1 when ``index`` is a valid position (negative: none)."""
    if 0 <= index < target.shape[0]:
        target[index] = 1.0


def relative(seat: int, observer: int, players: int) -> int:
    """A seat as the observer counts: 0 itself, 1 the next player, and so on."""
    return (seat - observer) % players


def absolute(offset: int, observer: int, players: int) -> int:
    """The seat at ``offset`` from the observer (``relative``'s inverse)."""
    return (observer + offset) % players
