"""Synthetic results directories in the runner's on-disk layout, for report tests.

Tables are written as chunked Parquet folders (``games.parquet/chunk-000000.parquet``,
chunk ``k`` holding games ``k * chunk_size`` onwards, as the runner does) with the core
columns of the results contract plus Cottage-Garden-like game-specific columns
(``final_round_turns``; per seat ``orange_0..2``, ``blue_0..2``, ``beehives``,
``beds_completed``, ...; and a ``beds`` table), and a ``manifest.json`` declaring exactly
those columns, each with the breakdown Cottage Garden's real declaration gives it.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from cgsim.games.contract import Column, Schema
from cgsim.games.registry import get_game
from cgsim.play.results import EXTRA_TABLE_CORE, GAMES_SCHEMA, POLARS_TYPES, SEATS_SCHEMA

COTTAGE_GAME_COLUMNS: dict[str, pl.DataType] = {"final_round_turns": pl.Int64()}
COTTAGE_SEAT_COLUMNS: dict[str, pl.DataType] = {
    **{f"{colour}_{i}": pl.Int64() for colour in ("orange", "blue") for i in range(3)},
    "beehives": pl.Int64(),
    "beds_completed": pl.Int64(),
    "pots_scored": pl.Int64(),
    "cloches_scored": pl.Int64(),
    "cats_gained": pl.Int64(),
    "cats_used": pl.Int64(),
    "pots_taken": pl.Int64(),
    "rambles": pl.Int64(),
    "passes": pl.Int64(),
}
BEDS_SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.Int64(),
    "block": pl.Int64(),
    "seat": pl.Int64(),
    "bot": pl.String(),
    "board": pl.Int64(),
    "side": pl.String(),
    "pots": pl.Int64(),
    "cloches": pl.Int64(),
    "turns_to_complete": pl.Int64(),
    "tiles": pl.Int64(),
}
DECIDED_ENDS = ("normal", "stalled")


@dataclass(frozen=True)
class GameSpec:
    """One synthetic game: who sat where and what they scored; the rest is derived.

    Winners are the top-scoring seats of a normal or stalled game (none otherwise);
    ranks share the mean position on ties; win shares are 1/k among k winners.
    """

    seats: Sequence[str]
    scores: Sequence[float]
    block: int | None = None
    end: str = "normal"
    turns: int = 40
    error: str | None = None
    error_seat: int | None = None
    seed: int | None = None


def ranks_of(scores: Sequence[float]) -> list[float]:
    """Finishing positions (1 best) with ties sharing the mean position."""
    ranks = []
    for score in scores:
        better = sum(1 for other in scores if other > score)
        equal = sum(1 for other in scores if other == score)
        ranks.append(better + (equal + 1) / 2)
    return ranks


def _rows(
    specs: Sequence[GameSpec], game: str, cottage: bool
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    games, seats, beds = [], [], []
    for game_id, spec in enumerate(specs):
        block = game_id if spec.block is None else spec.block
        players = len(spec.seats)
        decided = spec.end in DECIDED_ENDS and players > 1
        top = max(spec.scores)
        winners = [s for s, score in enumerate(spec.scores) if score == top] if decided else []
        ranks = ranks_of(spec.scores)
        row: dict[str, Any] = {
            "game_id": game_id,
            "block": block,
            "seed": 1000 + block if spec.seed is None else spec.seed,
            "game": game,
            "engine_version": "test-1",
            "players": players,
            "seats": list(spec.seats),
            "matchup": "+".join(sorted(set(spec.seats))),
            "turns": spec.turns,
            "end": spec.end,
            "winners": winners,
            "wall_time": 0.01,
            "error": spec.error,
            "error_seat": spec.error_seat,
        }
        if cottage:
            row["final_round_turns"] = spec.turns % 7
        games.append(row)
        for seat, (bot, score) in enumerate(zip(spec.seats, spec.scores, strict=True)):
            seat_row: dict[str, Any] = {
                "game_id": game_id,
                "block": block,
                "seat": seat,
                "bot": bot,
                "players": players,
                "score": float(score),
                "rank": ranks[seat],
                "win_share": 1.0 / len(winners) if seat in winners else 0.0,
                "end": spec.end,
            }
            if cottage:
                value = int(score)
                seat_row.update(
                    {name: (value + i) % 5 for i, name in enumerate(COTTAGE_SEAT_COLUMNS)}
                )
                seat_row["beds_completed"] = value % 3
                for bed in range(value % 3):
                    beds.append(
                        {
                            "game_id": game_id,
                            "block": block,
                            "seat": seat,
                            "bot": bot,
                            "board": bed,
                            "side": "A" if bed % 2 == 0 else "B",
                            "pots": (value + bed) % 4,
                            "cloches": (value + 2 * bed) % 3,
                            "turns_to_complete": 5 + bed,
                            "tiles": 4 + (value + bed) % 3,
                        }
                    )
            seats.append(seat_row)
    return games, seats, beds


def write_table(
    results: Path,
    table: str,
    rows: Sequence[Mapping[str, Any]],
    schema: Mapping[str, pl.DataType],
    chunk_size: int,
) -> None:
    """Write rows as chunk files, chunk ``k`` holding the rows of games ``k * chunk_size``
    onwards (no file for a chunk without rows)."""
    chunks: dict[int, list[Mapping[str, Any]]] = {}
    for row in rows:
        chunks.setdefault(int(row["game_id"]) // chunk_size, []).append(row)
    folder = results / f"{table}.parquet"
    for index, part in sorted(chunks.items()):
        folder.mkdir(parents=True, exist_ok=True)
        chunk = pl.DataFrame(list(part), schema=dict(schema), orient="row")
        chunk.write_parquet(folder / f"chunk-{index:06d}.parquet")


def _columns(
    schema: Mapping[str, pl.DataType],
    core: Mapping[str, pl.DataType],
    real: Sequence[Column],
) -> tuple[Column, ...]:
    """The fixture's own columns, typed as written, each with the breakdown and text of the
    real declaration's column of that name (stored, if the game declares none)."""
    types = {dtype: kind for kind, dtype in POLARS_TYPES.items()}
    declared = {column.name: column for column in real}
    return tuple(
        replace(declared[name], type=types[dtype])
        if name in declared
        else Column(name, types[dtype], name)
        for name, dtype in schema.items()
        if name not in core
    )


def declared_schema(cottage: bool, players: int = 2) -> Schema:
    """What the manifest declares: exactly the synthetic columns, analysed as Cottage
    Garden's declaration analyses the columns of those names."""
    if not cottage:
        return Schema()
    game = get_game("cottage-garden")
    real = game.schema(game.make_rules(players, {}))
    beds = next(table for table in real.tables if table.name == "beds")
    return Schema(
        games=_columns(COTTAGE_GAME_COLUMNS, {}, real.games),
        seats=_columns(COTTAGE_SEAT_COLUMNS, {}, real.seats),
        tables=(replace(beds, columns=_columns(BEDS_SCHEMA, EXTRA_TABLE_CORE, beds.columns)),),
    )


def write_results(
    results: Path,
    specs: Sequence[GameSpec],
    *,
    name: str = "synthetic",
    game: str = "cottage-garden",
    cottage: bool = True,
    chunk_size: int = 4,
    manifest: Mapping[str, Any] | None = None,
) -> Path:
    """A complete results directory for ``specs``; ``manifest`` entries override defaults."""
    results.mkdir(parents=True, exist_ok=True)
    games, seats, beds = _rows(specs, game, cottage)
    game_schema = {**GAMES_SCHEMA, **(COTTAGE_GAME_COLUMNS if cottage else {})}
    seat_schema = {**SEATS_SCHEMA, **(COTTAGE_SEAT_COLUMNS if cottage else {})}
    write_table(results, "games", games, game_schema, chunk_size)
    write_table(results, "seats", seats, seat_schema, chunk_size)
    if cottage:
        write_table(results, "beds", beds, BEDS_SCHEMA, chunk_size)
    players = max((len(s.seats) for s in specs), default=2)
    data: dict[str, Any] = {
        "name": name,
        "command": "tournament",
        "game": game,
        "config": {"games": len(specs)},
        "rules": {"players": players},
        "cgsim_version": "0.1.0",
        "engine_version": "test-1",
        "run_seed": 1,
        "schema": declared_schema(cottage, players).to_json(),
        "chunk_size": chunk_size,
        "status": "complete",
        "games_planned": len(specs),
        "games_done": len(specs),
        "errors": sum(1 for s in specs if s.end == "error"),
        "started": "2024-01-01T00:00:00",
        "finished": "2024-01-01T00:01:00",
        "timings": {"wall_seconds": 60.0, "games_per_second": len(specs) / 60.0},
    }
    data.update(manifest or {})
    (results / "manifest.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    return results


def planted_specs(
    strengths: Mapping[str, float],
    *,
    players: int = 2,
    blocks: int = 20,
    noise: float = 10.0,
    seed: int = 0,
) -> list[GameSpec]:
    """Duplicate-format games where each bot's score is its planted strength plus noise.

    Every block is one deal: a deal effect shared by its games, then each combination of
    ``players`` bots in every seat rotation. Scores are rounded, so ties happen.
    """
    rng = np.random.default_rng(seed)
    bots = sorted(strengths)
    specs = []
    for block in range(blocks):
        deal = rng.normal(50.0, 8.0)
        for combo in itertools.combinations(bots, players):
            for shift in range(players):
                seated = combo[shift:] + combo[:shift]
                scores = [round(deal + strengths[b] + rng.normal(0.0, noise)) for b in seated]
                specs.append(
                    GameSpec(seats=seated, scores=scores, block=block, turns=30 + block % 9)
                )
    return specs
