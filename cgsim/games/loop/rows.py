"""A played game's result rows: the game's row, one row per seat and the rows of the
game's own tables, each led by the run's columns (the results-directory contract).

Every game of a run ends here, and a game has a few dozen rows of some 40 columns, so
this is compiled with the loop: interpreted, merging the rows cost about a twentieth of a
random game's engine time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgsim.games.contract import GameInfo, GameResult, GameSummary, Row, TableRows
from cgsim.games.loop.core import win_shares


def game_row(
    info: GameInfo,
    game_id: int,
    block: int,
    seed: int,
    labels: Sequence[str],
    outcome: tuple[int | None, str, list[int], float, str | None, int | None],
) -> Row:
    """The core columns of a game's row: the run's, then its ``outcome``'s (turns, end,
    winners, wall time, error and the faulty seat), for a finished game or a failed one."""
    turns, end, winners, wall_time, error, error_seat = outcome
    return {
        "game_id": game_id,
        "block": block,
        "seed": seed,
        "game": info.id,
        "engine_version": info.version,
        "players": len(labels),
        "seats": list(labels),
        "matchup": "+".join(sorted(set(labels))),
        "turns": turns,
        "end": end,
        "winners": winners,
        "wall_time": wall_time,
        "error": error,
        "error_seat": error_seat,
    }


def seat_row(
    game_id: int,
    block: int,
    seat: int,
    labels: Sequence[str],
    outcome: tuple[float, float, float, str],
) -> Row:
    """The core columns of a seat's row: the game's ids, the seat and its bot, then its
    ``outcome`` (score, rank, win share, and the game's end), for a finished game or a
    failed one."""
    score, rank, win_share, end = outcome
    return {
        "game_id": game_id,
        "block": block,
        "seat": seat,
        "bot": labels[seat],
        "players": len(labels),
        "score": score,
        "rank": rank,
        "win_share": win_share,
        "end": end,
    }


def extend(core: Row, extra: Row) -> Row:
    """Core columns first; game-specific ones after, never replacing a core column."""
    row = {**core, **extra}
    if len(row) < len(core) + len(extra):  # a shared key: the core's value wins
        row.update(core)
    return row


_LEAD_NAMES = ("game_id", "block", "seat", "bot")
"""The columns that lead a game-specific table's rows."""


def table_rows(rows: Sequence[Row], game_id: int, block: int, labels: Sequence[str]) -> list[Row]:
    """The rows of a game-specific table, each led by ``game_id, block, seat`` (and the
    seat's ``bot`` label when the row names a seat); as :func:`extend` (the lead is
    ``core``), with one lead per seat built once for all of a game's rows. Rows held as
    :class:`TableRows` become dicts here, each built once."""
    players = len(labels)
    leads: list[Row] = [
        {"game_id": game_id, "block": block, "seat": seat, "bot": labels[seat]}
        for seat in range(players)
    ]
    if type(rows) is TableRows:
        return _from_tuples(rows, leads, game_id, block, labels)
    out: list[Row] = []
    for row in rows:
        seat: Any = row.get("seat")
        if type(seat) is int and 0 <= seat < players:
            out.append(_led(leads[seat], row))
        else:
            out.append(_led(_odd_lead(seat, game_id, block, labels), row))
    return out


def _from_tuples(
    table: TableRows, leads: list[Row], game_id: int, block: int, labels: Sequence[str]
) -> list[Row]:
    """:func:`table_rows` of rows held as tuples: a row naming a seat is its seat's lead
    copied, then its own columns set one by one (no second dict, no merge)."""
    players = len(labels)
    names = table.names
    at = names.index("seat") if "seat" in names else -1
    own = [index for index, name in enumerate(names) if name not in _LEAD_NAMES]
    own_names = [names[index] for index in own]
    out: list[Row] = []
    for values in table.values:
        seat: Any = values[at] if at >= 0 else None
        if type(seat) is int and 0 <= seat < players:
            row = leads[seat].copy()
            for position in range(len(own)):
                row[own_names[position]] = values[own[position]]
            out.append(row)
        else:
            lead = _odd_lead(seat, game_id, block, labels)
            out.append(_led(lead, dict(zip(names, values, strict=True))))
    return out


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
) -> tuple[Row, list[Row], dict[str, list[Row]]]:
    """A finished game's row, its seats' rows and its tables' rows."""
    end = result.end
    row = game_row(
        info,
        game_id,
        block,
        seed,
        labels,
        (result.turns, end, list(result.winners), wall_time, None, None),
    )
    shares = win_shares(result)
    extras = summary.seats
    seats: list[Row] = []
    for position in range(len(labels)):
        score, rank = float(result.scores[position]), float(result.ranks[position])
        core = seat_row(game_id, block, position, labels, (score, rank, shares[position], end))
        seats.append(extend(core, extras[position]) if position < len(extras) else core)
    tables: Mapping[str, Sequence[Row]] = summary.tables
    return (
        extend(row, summary.game),
        seats,
        {name: table_rows(rows, game_id, block, labels) for name, rows in tables.items()},
    )
