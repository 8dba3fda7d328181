"""Drama of one game from its running scores: the fold (``fold``) every game's summary
feeds turn by turn. It runs once per game in every run, so it is compiled with mypyc
like the engines (``cgsim.games.compiled``), with the same pure-Python fallback."""

from cgsim.games.compiled import guard

COMPILED = ("fold",)

guard(__name__, COMPILED)

from cgsim.games.drama.fold import (  # noqa: E402
    DRAMA_COLUMNS,
    DRAMA_NAMES,
    NOBODY,
    POINTS,
    Drama,
    bit_count,
    floats,
    grown,
    ints,
    zeros,
)

__all__ = [
    "DRAMA_COLUMNS",
    "DRAMA_NAMES",
    "NOBODY",
    "POINTS",
    "Drama",
    "bit_count",
    "floats",
    "grown",
    "ints",
    "zeros",
]
