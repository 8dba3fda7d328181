"""A played game's result rows: the game's row, one row per seat and the rows of the
game's own tables, each led by the run's columns (the results-directory contract).

Every game of a run ends here, and a game has a few dozen rows of some 40 columns, so
this is compiled with the loop: interpreted, merging the rows cost about a twentieth of a
random game's engine time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from cgsim.games.contract import (
    LEAD_NAMES,
    GameInfo,
    GameResult,
    GameSummary,
    LedRows,
    Row,
    TableRows,
)
from cgsim.games.loop.core import win_shares

_MATCHUPS: Final[dict[tuple[str, ...], str]] = {}
"""Each seating's matchup (its bots' labels, sorted and joined): a run has a few."""


_GAME_CORE: Final = (
    "game_id",
    "block",
    "seed",
    "game",
    "engine_version",
    "players",
    "seats",
    "matchup",
    "turns",
    "end",
    "winners",
    "wall_time",
    "error",
    "error_seat",
)
"""The core columns of a game's row, in order (:func:`game_row`)."""
_NO_EXTRA: Final[Row] = {}
_GAME_ROWS: Final[dict[tuple[str, ...], Row]] = {}
"""Per set of a summary's own game columns, a row of the core columns then those, all
null: each game's row starts as a copy (a dict copied whole, where one built key by key,
then merged with the summary's, grows a few times). A run has one or two."""
_GAME_ROWS_KEPT: Final = 64
"""Rows kept at most (a game whose summaries name ever new columns gets no more)."""


def game_row(
    info: GameInfo,
    game_id: int,
    block: int,
    seed: int,
    labels: Sequence[str],
    outcome: tuple[int | None, str, list[int], float, str | None, int | None],
    extra: Row = _NO_EXTRA,
) -> Row:
    """A game's row: the core columns, the run's then its ``outcome``'s (turns, end,
    winners, wall time, error and the faulty seat), for a finished game or a failed one;
    then ``extra``, the columns of the game's summary, never replacing a core column (as
    :func:`extend`)."""
    names = tuple(extra)
    start = _GAME_ROWS.get(names)
    if start is None:
        if len(_GAME_ROWS) >= _GAME_ROWS_KEPT:
            _GAME_ROWS.clear()
        start = _GAME_ROWS[names] = dict.fromkeys(_GAME_CORE + names)
    row = start.copy()
    row.update(extra)
    turns, end, winners, wall_time, error, error_seat = outcome
    matchup = _MATCHUPS.get(tuple(labels))
    if matchup is None:
        matchup = _MATCHUPS[tuple(labels)] = "+".join(sorted(set(labels)))
    row["game_id"] = game_id
    row["block"] = block
    row["seed"] = seed
    row["game"] = info.id
    row["engine_version"] = info.version
    row["players"] = len(labels)
    row["seats"] = list(labels)
    row["matchup"] = matchup
    row["turns"] = turns
    row["end"] = end
    row["winners"] = winners
    row["wall_time"] = wall_time
    row["error"] = error
    row["error_seat"] = error_seat
    return row


_SEAT_CORE: Final = (
    "game_id",
    "block",
    "seat",
    "bot",
    "players",
    "score",
    "rank",
    "win_share",
    "end",
)
"""The core columns of a seat's row, in order (:func:`seat_core`)."""


def seat_core(
    game_id: int,
    block: int,
    seat: int,
    labels: Sequence[str],
    outcome: tuple[float, float, float, str],
) -> tuple[Any, ...]:
    """The core values of a seat's row (``_SEAT_CORE``): the game's ids, the seat and its
    bot, then its ``outcome`` (score, rank, win share, and the game's end), for a
    finished game or a failed one."""
    score, rank, win_share, end = outcome
    return (game_id, block, seat, labels[seat], len(labels), score, rank, win_share, end)


def seat_row(
    game_id: int,
    block: int,
    seat: int,
    labels: Sequence[str],
    outcome: tuple[float, float, float, str],
) -> Row:
    """The core columns of a seat's row (:func:`seat_core`) as a dict."""
    return dict(zip(_SEAT_CORE, seat_core(game_id, block, seat, labels, outcome), strict=True))


def extend(core: Row, extra: Row) -> Row:
    """Core columns first; game-specific ones after, never replacing a core column."""
    row = {**core, **extra}
    if len(row) < len(core) + len(extra):  # a shared key: the core's value wins
        row.update(core)
    return row


_NO_SEAT_LEAD: Final = ("game_id", "block", "seat")
"""The lead of a row that names no seat (its seat null, no bot)."""


def table_rows(
    rows: Sequence[Row], game_id: int, block: int, labels: Sequence[str]
) -> Sequence[Row]:
    """The rows of a game-specific table, each led by ``game_id, block, seat`` (and the
    seat's ``bot`` label when the row names a seat); as :func:`extend` (the lead is
    ``core``), with one lead per seat built once for all of a game's rows. Rows held as
    :class:`TableRows` stay tuples (see :func:`_led_tuples`)."""
    if type(rows) is TableRows:
        led = _led_tuples(rows, game_id, block, labels)
        if led is not None:
            return led
    players = len(labels)
    leads: list[Row] = [
        {"game_id": game_id, "block": block, "seat": seat, "bot": labels[seat]}
        for seat in range(players)
    ]
    out: list[Row] = []
    for row in rows:
        seat: Any = row.get("seat")
        if type(seat) is int and 0 <= seat < players:
            out.append(_led(leads[seat], row))
        else:
            out.append(_led(_odd_lead(seat, game_id, block, labels), row))
    return out


class _Layout:
    """Where a table's lead and own columns are, worked out once per header."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.seated = "seat" in names
        lead_names = LEAD_NAMES if self.seated else _NO_SEAT_LEAD
        self.own = [index for index, name in enumerate(names) if name not in lead_names]
        self.names = lead_names + tuple(names[index] for index in self.own)
        """The led rows' header: the lead's names, then the table's own."""
        self.at = names.index("seat") if self.seated else -1


_LAYOUTS: Final[dict[tuple[str, ...], _Layout]] = {}
"""Every header seen, its layout (a game's tables have a few headers, the same each game)."""


def _led_tuples(
    table: TableRows, game_id: int, block: int, labels: Sequence[str]
) -> TableRows | LedRows | None:
    """:func:`table_rows` of rows held as tuples, kept as tuples: rows naming a seat as
    :class:`LedRows` (led when read; the run's workers build the lead's columns whole),
    rows naming none each led by the game's ids. None when a row's seat is not one of
    the game's seats as an int: such a table is led row by row, as dicts."""
    layout = _LAYOUTS.get(table.names)
    if layout is None:
        layout = _LAYOUTS[table.names] = _Layout(table.names)
    own = layout.own
    if not layout.seated:
        lead: tuple[Any, ...] = (game_id, block, None)
        out: list[tuple[Any, ...]] = []
        for values in table.values:
            out.append(lead + tuple([values[index] for index in own]))
        return TableRows(layout.names, out)
    players = len(labels)
    at = layout.at
    for values in table.values:
        seat: Any = values[at]
        if type(seat) is not int or not 0 <= seat < players:
            return None
    return LedRows(table, game_id, block, labels, layout.names, at, layout.own)


_SEAT_HEADERS: Final[dict[tuple[str, ...], tuple[str, ...]]] = {}
"""Every header of a summary's seat rows seen, its led header (empty when it names a core
column: such rows are merged as dicts, the core's value winning)."""


def _seat_tuples(
    extras: TableRows,
    game_id: int,
    block: int,
    labels: Sequence[str],
    result: GameResult,
    shares: tuple[float, ...],
) -> TableRows | None:
    """The seats' rows of a summary that holds them as tuples, kept as tuples: each seat's
    core values (:func:`seat_core`), then its own. None when the summary's header names a
    core column or it has not one row per seat: such rows are merged as dicts."""
    names = _SEAT_HEADERS.get(extras.names)
    if names is None:
        shared = any(name in _SEAT_CORE for name in extras.names)
        names = _SEAT_HEADERS[extras.names] = () if shared else _SEAT_CORE + extras.names
    values = extras.values
    if not names or len(values) != len(labels):
        return None
    end = result.end
    scores, ranks = result.scores, result.ranks
    out: list[tuple[Any, ...]] = []
    for seat in range(len(labels)):
        outcome = (float(scores[seat]), float(ranks[seat]), shares[seat], end)
        out.append(seat_core(game_id, block, seat, labels, outcome) + values[seat])
    return TableRows(names, out)


def _odd_lead(seat: Any, game_id: int, block: int, labels: Sequence[str]) -> Row:
    """The lead of a row whose seat is not one of the game's seats as an int: none, a
    stranger, or a bool (which Python counts as a seat: it gets that seat's bot)."""
    lead: Row = {"game_id": game_id, "block": block, "seat": seat}
    if isinstance(seat, int) and 0 <= seat < len(labels):  # a bool
        lead["bot"] = labels[seat]
    return lead


def _led(lead: Row, row: Row) -> Row:
    """``row`` led by ``lead``: "seat" is shared with the same value; on any other shared
    key the lead's value wins."""
    merged = {**lead, **row}
    if len(merged) < len(lead) + len(row) - ("seat" in row):
        merged.update(lead)
    return merged


def finished_rows(
    info: GameInfo,
    game_id: int,
    block: int,
    seed: int,
    labels: Sequence[str],
    result: GameResult,
    summary: GameSummary,
    wall_time: float,
) -> tuple[Row, Sequence[Row], dict[str, Sequence[Row]]]:
    """A finished game's row, its seats' rows and its tables' rows."""
    end = result.end
    outcome = (result.turns, end, list(result.winners), wall_time, None, None)
    row = game_row(info, game_id, block, seed, labels, outcome, summary.game)
    shares = win_shares(result)
    extras = summary.seats
    seats: Sequence[Row] | None = None
    if type(extras) is TableRows:
        seats = _seat_tuples(extras, game_id, block, labels, result, shares)
    if seats is None:
        rows: list[Row] = []
        for position in range(len(labels)):
            score, rank = float(result.scores[position]), float(result.ranks[position])
            core = seat_row(game_id, block, position, labels, (score, rank, shares[position], end))
            rows.append(extend(core, extras[position]) if position < len(extras) else core)
        seats = rows
    tables: Mapping[str, Sequence[Row]] = summary.tables
    return (
        row,
        seats,
        {name: table_rows(rows, game_id, block, labels) for name, rows in tables.items()},
    )
