"""A played game's result rows: the game's row, one row per seat and the rows of the
game's own tables, each led by the run's columns (the results-directory contract).

Every game of a run ends here, and a game has a few dozen rows of some 40 columns, so
this is compiled with the loop: interpreted, merging the rows cost about a twentieth of a
random game's engine time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgsim.games.contract import GameInfo, GameResult, GameSummary, Row
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


def table_rows(rows: Sequence[Row], game_id: int, block: int, labels: Sequence[str]) -> list[Row]:
    """The rows of a game-specific table, each led by ``game_id, block, seat`` (and the
    seat's ``bot`` label when the row names a seat); as :func:`extend` (the lead is
    ``core``), with one lead per seat built once for all of a game's rows."""
    players = len(labels)
    leads: list[Row] = [
        {"game_id": game_id, "block": block, "seat": seat, "bot": labels[seat]}
        for seat in range(players)
    ]
    out: list[Row] = []
    for row in rows:
        seat: Any = row.get("seat")
        lead: Row
        if type(seat) is int and 0 <= seat < players:
            lead = leads[seat]
        else:
            lead = {"game_id": game_id, "block": block, "seat": seat}
            if isinstance(seat, int) and 0 <= seat < players:  # a bool
                lead["bot"] = labels[seat]
        merged = {**lead, **row}
        # "seat" is shared with the same value; any other shared key: the lead's wins.
        if len(merged) < len(lead) + len(row) - ("seat" in row):
            merged.update(lead)
        out.append(merged)
    return out


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
