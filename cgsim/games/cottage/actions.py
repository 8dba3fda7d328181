"""Actions as small ints, and the lazy view of the legal ones.

An action packs a kind and its arguments into one int: cheap to enumerate, compare,
hash and store. Layout: bits 0-10 an index (placement, cell, cube or corner set),
bit 11 the bed, bits 12-15 a nursery cell, bits 16-19 the kind.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple, overload

from cgsim.games.compiled import own_abc

RAMBLE: Final = 1
TILE: Final = 2
POT: Final = 3
CAT: Final = 4
PASS: Final = 5
DONE: Final = 6
SCORE: Final = 7
CUBE: Final = 8
BONUS_POT: Final = 9
PENALTY: Final = 10
CORNERS: Final = 11
KIND_NAMES: Final = {
    RAMBLE: "ramble",
    TILE: "tile",
    POT: "pot",
    CAT: "cat",
    PASS: "pass",
    DONE: "done",
    SCORE: "score",
    CUBE: "cube",
    BONUS_POT: "bonus_pot",
    PENALTY: "penalty",
    CORNERS: "corners",
}

INDEX_BITS: Final = 11
INDEX_MASK: Final = (1 << INDEX_BITS) - 1


def encode(kind: int, index: int = 0, bed: int = 0, cell: int = 0) -> int:
    """Pack an action; ``index`` is the placement, bed cell, cube code or corner set."""
    return kind << 16 | cell << 12 | bed << 11 | index


class Decoded(NamedTuple):
    """The fields of an action, for bots and messages (see ``decode``)."""

    kind: int
    place: int
    bed: int
    cell: int

    @property
    def name(self) -> str:
        return KIND_NAMES.get(self.kind, f"unknown({self.kind})")


_new_tuple: Final = tuple.__new__


def decode(action: int) -> Decoded:
    """Unpack an action into its fields; the inverse of ``encode``.

    Built with ``tuple.__new__``: the engine decodes every applied action, and the named
    tuple's own constructor is a Python-level call.
    """
    return _new_tuple(
        Decoded, (action >> 16, action & INDEX_MASK, action >> 11 & 1, action >> 12 & 15)
    )


def kind_of(action: int) -> int:
    return action >> 16


# The fields one at a time: the engine reads an applied action's fields with these, which
# build nothing (``decode`` builds a named tuple, for bots and messages).


def index_of(action: int) -> int:
    """The placement, bed cell, cube code or corner set of an action."""
    return action & INDEX_MASK


def bed_index(action: int) -> int:
    return action >> 11 & 1


def cell_of(action: int) -> int:
    """The nursery cell of a tile action."""
    return action >> 12 & 15


def cube_code(color: int, cube: int) -> int:
    """The index of a cube action: colour (0 orange, 1 blue) and cube number."""
    return color << 3 | cube


def cube_of(index: int) -> tuple[int, int]:
    """The colour and cube number a cube or penalty action's index names (see ``cube_code``)."""
    return index >> 3, index & 7


class LegalActions(Sequence[int]):
    """The legal actions of a decision point, built lazily from segments.

    A segment is a base action plus a tuple of indexes; element ``i`` of a segment is
    ``base | indexes[i]``. A random bot needs only ``len`` and one element, so large
    placement lists are never materialised unless a bot iterates them.
    """

    __slots__ = ("_given", "_length", "_segments")

    def __init__(self, segments: Sequence[tuple[int, tuple[int, ...]]]) -> None:
        self._segments: list[tuple[int, tuple[int, ...]]] = [
            (base, lows) for base, lows in segments if lows
        ]
        self._length = sum(len(lows) for _, lows in self._segments)
        self._given = -1
        """The last action handed out by index (-1: none; no action is negative). A bot
        nearly always answers with the element it drew, and the match loop checks every
        answer: that one is known legal without a scan."""

    def __reduce__(self) -> tuple[type[LegalActions], tuple[list[tuple[int, tuple[int, ...]]]]]:
        # Rebuilt from its segments: compiled, a class is otherwise unpickled through a
        # construction without arguments, which ``__init__`` refuses (isolation mode sends
        # the legal actions to a bot's process).
        return (LegalActions, (self._segments,))

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...

    def __getitem__(self, i: int | slice) -> int | Sequence[int]:
        if isinstance(i, slice):
            return list(self)[i]
        if i < 0:
            i += self._length
        if not 0 <= i < self._length:
            raise IndexError("legal action index out of range")
        for base, lows in self._segments:
            if i < len(lows):
                action = self._given = base | lows[i]
                return action
            i -= len(lows)
        raise IndexError("legal action index out of range")  # pragma: no cover

    def __iter__(self) -> Iterator[int]:
        for base, lows in self._segments:
            for low in lows:
                yield base | low

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, int):
            return False
        if action >= 0 and action == self._given:
            return True
        base, low = action & ~INDEX_MASK, action & INDEX_MASK
        # Plain loops over typed tuples: compiled, each test is a machine comparison (the
        # match loop checks every bot's answer here).
        for segment_base, lows in self._segments:
            if segment_base == base:
                for candidate in lows:
                    if candidate == low:
                        return True
        return False

    def __repr__(self) -> str:
        return f"LegalActions({len(self)} actions)"


own_abc(LegalActions)
