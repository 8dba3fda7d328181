"""Rows held as tuples (``rows``): the tables a game's summary builds and the loop leads
with the run's columns. Every game of a run builds some, so they are compiled with mypyc
like the engines (``cgsim.games.compiled``), with the same pure-Python fallback."""

from cgsim.games.compiled import guard

COMPILED = ("rows",)

guard(__name__, COMPILED)

from cgsim.games.held.rows import LEAD_NAMES, HeldRows, LedRows, Row, TableRows  # noqa: E402

__all__ = ["LEAD_NAMES", "HeldRows", "LedRows", "Row", "TableRows"]
