"""Rows held as tuples under one header and read as dicts: a game's tables as its summary
builds them (:class:`TableRows`), and led by the run's columns (:class:`LedRows`).

Every game of a run builds a few of these and a run's worker takes their columns, so this
is compiled with mypyc like the engines (``cgsim.games.compiled``), with the same
pure-Python fallback: a Python class's construction is a Python call, several times a game.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final, overload

from cgsim.games.compiled import own_abc

Row = dict[str, Any]
"""One flat row of a result table (column name to scalar value)."""


class HeldRows(Sequence[Row]):
    """Rows held as tuples and read as dicts, one built per row read: what
    :class:`TableRows` and :class:`LedRows` share."""

    __slots__ = ()

    def _held(self) -> list[tuple[Any, ...]]:
        """The tuples, one a row."""
        raise NotImplementedError

    def _row(self, values: tuple[Any, ...]) -> Row:
        """One row as a dict."""
        raise NotImplementedError

    def columns(self) -> dict[str, list[Any]]:
        """The rows column by column, in the order of their header: a run's worker takes
        them whole, with no dict built for a row."""
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._held())

    @overload
    def __getitem__(self, index: int) -> Row: ...

    @overload
    def __getitem__(self, index: slice) -> list[Row]: ...

    def __getitem__(self, index: int | slice) -> Row | list[Row]:
        if isinstance(index, slice):
            return [self._row(values) for values in self._held()[index]]
        return self._row(self._held()[index])

    def __iter__(self) -> Iterator[Row]:
        for values in self._held():
            yield self._row(values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"


class TableRows(HeldRows):
    """A table's rows held as tuples under one header, and seen as a sequence of rows.

    A game's summary adds a tuple a row as the game goes (a dict a row costs several
    times as much), the loop leads the rows with its game's ids
    (:func:`cgsim.games.loop.rows.table_rows`, as :class:`LedRows`) and a run's worker
    takes the columns whole; anything else reads the rows as dicts.
    """

    __slots__ = ("names", "values")

    def __init__(self, names: tuple[str, ...], values: list[tuple[Any, ...]]) -> None:
        self.names = names
        self.values = values
        """One tuple a row, its values in the order of ``names``."""

    def _held(self) -> list[tuple[Any, ...]]:
        return self.values

    def __reduce__(self) -> tuple[Any, ...]:
        # Compiled, a class is otherwise unpickled through a construction without arguments.
        return (TableRows, (self.names, self.values))

    def _row(self, values: tuple[Any, ...]) -> Row:
        return dict(zip(self.names, values, strict=True))

    def columns(self) -> dict[str, list[Any]]:
        values = self.values
        return {name: [row[i] for row in values] for i, name in enumerate(self.names)}

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TableRows):
            return self.names == other.names and self.values == other.values
        return super().__eq__(other)

    __hash__ = None  # mutable, like a list


LEAD_NAMES: Final = ("game_id", "block", "seat", "bot")
"""The columns that lead each row of a game-specific table (the seat's bot when the row
names one of the game's seats)."""


class LedRows(HeldRows):
    """A game's table held as tuples (:class:`TableRows`, its rows naming seats) led by
    the game's ids and each row's seat and bot, as
    :func:`cgsim.games.loop.rows.table_rows` leads rows, with no tuple built per row: a
    row gets its lead when it is read, and a run's worker builds the lead's columns whole
    (:meth:`columns`)."""

    __slots__ = ("at", "block", "game_id", "labels", "names", "own", "table")

    def __init__(
        self,
        table: TableRows,
        game_id: int,
        block: int,
        labels: Sequence[str],
        names: tuple[str, ...],
        at: int,
        own: Sequence[int],
    ) -> None:
        self.table = table
        self.game_id = game_id
        self.block = block
        self.labels = labels
        """Each seat's bot; every row's seat (its value at ``at``) is one of them, an int."""
        self.names = names
        """The led rows' header: :data:`LEAD_NAMES`, then the table's own columns."""
        self.at = at
        """The index of the seat in the table's rows."""
        self.own = own
        """The indexes of the table's own columns (all but the lead's) in its rows (the
        loop works out ``names``, ``at`` and ``own`` once per header)."""

    def _held(self) -> list[tuple[Any, ...]]:
        return self.table.values

    def __reduce__(self) -> tuple[Any, ...]:
        args = (self.table, self.game_id, self.block, self.labels, self.names, self.at, self.own)
        return (LedRows, args)

    def _row(self, values: tuple[Any, ...]) -> Row:
        """One row, led, as a dict."""
        seat = values[self.at]
        led = (self.game_id, self.block, seat, self.labels[seat])
        return dict(zip(self.names, led + tuple(values[i] for i in self.own), strict=True))

    def columns(self) -> dict[str, list[Any]]:
        values = self.table.values
        count, at = len(values), self.at
        seats = [row[at] for row in values]
        data: dict[str, list[Any]] = {
            "game_id": [self.game_id] * count,
            "block": [self.block] * count,
            "seat": seats,
            "bot": [self.labels[seat] for seat in seats],
        }
        for name, index in zip(self.names[len(LEAD_NAMES) :], self.own, strict=True):
            data[name] = [row[index] for row in values]
        return data


own_abc(HeldRows, TableRows, LedRows)
