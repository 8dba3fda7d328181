"""Statistics of a finished game, derived from its record alone.

Everything the result tables hold beyond scores and winners comes from the record's
events, so a statistic means exactly what the record shows and a stored record can be
summarised again later.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.contract import GameSummary, Row

_SEAT_COUNTERS = (
    "beds_completed",
    "pots_scored",
    "cloches_scored",
    "cats_gained",
    "cats_used",
    "pots_taken",
    "bonus_pots",
    "tiles_taken",
    "tile_cells",
    "rambles",
    "passes",
    "penalty_points",
    "turns_taken",
    "beds_discarded",
    "features_covered",
)


def _printed_cells(record: Mapping[str, Any]) -> dict[tuple[str, str], set[tuple[int, int]]]:
    """Cells showing a printed pot or cloche, per (board id, side)."""
    printed: dict[tuple[str, str], set[tuple[int, int]]] = {}
    for board, sides in record["components"]["boards"].items():
        for side, rows in sides.items():
            printed[(str(board), side)] = {
                (r, c) for r, row in enumerate(rows) for c, char in enumerate(row) if char != "."
            }
    return printed


def summarize(record: Mapping[str, Any]) -> GameSummary:
    """Per-game and per-seat statistics, one row per scored bed and one per tile taken."""
    players = int(record["players"])
    rules = record["rules"]
    tracks = {"orange": rules["orange_track"], "blue": rules["blue_track"]}
    cubes = int(rules["cubes"])
    seats: list[dict[str, Any]] = [dict.fromkeys(_SEAT_COUNTERS, 0) for _ in range(players)]
    positions = [{"orange": [0] * cubes, "blue": [0] * cubes} for _ in range(players)]
    # Per seat and bed index: (owner's turn count when it arrived, tiles placed on it).
    arrived = [[[0, 0], [0, 0]] for _ in range(players)]
    beds: list[Row] = []
    taken: list[Row] = []
    printed = _printed_cells(record)
    boards: list[list[tuple[str, str] | None]] = [
        [(str(b["board"]), b["side"]) for b in seat_beds] for seat_beds in record["setup"]["beds"]
    ]
    final_round_turns = refills = 0
    for turn in record["turns"]:
        seat = turn["seat"]
        mine = seats[seat]
        mine["turns_taken"] += 1
        final_round_turns += bool(turn["final_round"])
        for event in turn["events"]:
            e = event["e"]
            if e == "take_tile":
                mine["tiles_taken"] += 1
                mine["tile_cells"] += len(event["cells"])
                arrived[seat][event["bed"]][1] += 1
                board = boards[seat][event["bed"]]
                covered = (
                    len(printed.get(board, set()) & {tuple(c) for c in event["cells"]})
                    if board
                    else 0
                )
                mine["features_covered"] += covered
                taken.append(
                    {
                        "seat": seat,
                        "kind": str(event["tile"]).rsplit("-", 1)[0],
                        "size": len(event["cells"]),
                        "covered": covered,
                        "turn": turn["n"],
                        "final_round": bool(turn["final_round"]),
                    }
                )
            elif e == "take_pot":
                mine["pots_taken"] += 1
            elif e == "bonus_pot":
                mine["bonus_pots"] += 1
            elif e == "cat":
                mine["cats_used"] += 1
            elif e == "gain_cat":
                seats[event.get("seat", seat)]["cats_gained"] += 1
            elif e == "refill":
                refills += 1
                mine["rambles"] += bool(event["ramble"])
            elif e == "pass":
                mine["passes"] += 1
            elif e in ("move", "penalty"):
                track = tracks[event["color"]]
                if e == "penalty":
                    mine["penalty_points"] += track[event["from"]] - track[event["to"]]
                positions[seat][event["color"]][event["cube"]] = event["to"]
            elif e == "score":
                mine["beds_completed"] += 1
                mine["pots_scored"] += event["pots"]
                mine["cloches_scored"] += event["cloches"]
                born, tiles = arrived[seat][event["bed"]]
                beds.append(
                    {
                        "seat": seat,
                        "board": str(event["board"]),
                        "side": event["side"],
                        "pots": event["pots"],
                        "cloches": event["cloches"],
                        "turns_to_complete": mine["turns_taken"] - born,
                        "tiles": tiles,
                        "final_round": bool(turn["final_round"]),
                    }
                )
            elif e == "cleanup":
                arrived[seat][event["bed"]] = [mine["turns_taken"], 0]
                new = event["new_board"]
                boards[seat][event["bed"]] = (str(new["board"]), new["side"]) if new else None
            elif e == "discard_bed":
                seats[event["seat"]]["beds_discarded"] += 1
                boards[event["seat"]][event["bed"]] = None
    for seat, row in enumerate(seats):
        for color in ("orange", "blue"):
            for cube, index in enumerate(positions[seat][color]):
                row[f"{color}_{cube}"] = tracks[color][index]
        row["beehives"] = record.get("result", {}).get("beehives", [0] * players)[seat]
    game: Row = {
        "final_round_turns": final_round_turns,
        "refills": refills,
        "beds_scored": len(beds),
        "solo": bool(rules["solo"]),
    }
    return GameSummary(game=game, seats=tuple(seats), tables={"beds": beds, "tiles": taken})
