"""Per-game and per-seat statistics derived from a record alone."""

from __future__ import annotations

from typing import Any

from test_record import played

from cgsim.games.cottage.game import GAME
from cgsim.games.cottage.summary import summarize
from cgsim.games.drama import DRAMA_NAMES


def tiny_record() -> dict[str, Any]:
    """A hand-written record with one turn of every counted kind."""
    game_rules = GAME.make_rules(2, {})
    rules = game_rules.settings.to_json()
    dealt = GAME.recorder(game_rules, 1, [], GAME.new_game(game_rules, 1)).finish(
        GAME.new_game(game_rules, 1)
    )
    move = {"e": "move", "color": "orange", "cube": 0, "from": 0, "to": 3}
    return {
        "players": 2,
        "rules": rules,
        "components": dealt["components"],
        "setup": dealt["setup"],
        "turns": [
            {"n": 1, "seat": 0, "final_round": False, "events": [
                {"e": "refill", "cells": [[0, 0]], "tiles": ["1A-1"], "ramble": True},
                {"e": "take_tile", "from": [0, 0], "tile": "4B-1", "bed": 0,
                 "cells": [[0, 0], [0, 1], [1, 0], [1, 1]], "features": {}},
                {"e": "cat", "bed": 0, "cell": [2, 2], "why": "hunt"},
                {"e": "gardener", "space": 1, "value": 2, "final_round": False},
                {"e": "gain_cat", "why": "corner", "seat": 1},
            ]},
            {"n": 2, "seat": 1, "final_round": False, "events": [
                {"e": "take_pot", "bed": 1, "cell": [0, 0]},
                {"e": "gardener", "space": 2, "value": 2, "final_round": False},
            ]},
            {"n": 3, "seat": 0, "final_round": True, "events": [
                {"e": "penalty", "color": "blue", "cube": 1, "from": 2, "to": 1},
                {"e": "pass", "reason": "nothing fits"},
                {"e": "score", "bed": 0, "board": "3", "side": "light", "pots": 3,
                 "cloches": 0},
                move,
                {"e": "gain_cat", "why": "red_line"},
                {"e": "bonus_pot", "bed": 1, "cell": [1, 1]},
                {"e": "cleanup", "bed": 0, "to_path": ["4B-1"], "new_board": None},
                {"e": "gardener", "space": 3, "value": 6, "final_round": True},
                {"e": "discard_bed", "seat": 1, "bed": 0, "to_path": []},
            ]},
        ],
        "result": {"beehives": [2, 0]},
    }  # fmt: skip


def test_summary_counts_every_kind_of_event() -> None:
    summary = summarize(tiny_record())
    seat0, seat1 = summary.seats
    assert summary.game == {
        "final_round_turns": 1,
        "refills": 1,
        "beds_scored": 1,
        "solo": False,
    } | dict.fromkeys(DRAMA_NAMES)  # no winner in the record: no drama
    assert seat0["tiles_taken"] == 1 and seat0["tile_cells"] == 4
    assert seat0["rambles"] == 1 and seat0["cats_used"] == 1
    assert seat0["passes"] == 1 and seat0["penalty_points"] == 2
    assert seat0["beds_completed"] == 1 and seat0["pots_scored"] == 3
    assert seat0["cats_gained"] == 1 and seat0["bonus_pots"] == 1
    assert seat0["turns_taken"] == 2 and seat0["orange_0"] == 3 and seat0["beehives"] == 2
    assert seat1["cats_gained"] == 1 and seat1["pots_taken"] == 1
    assert seat1["beds_discarded"] == 1 and seat1["beehives"] == 0
    assert summary.tables["beds"] == [
        {
            "seat": 0,
            "board": "3",
            "side": "light",
            "pots": 3,
            "cloches": 0,
            "turns_to_complete": 2,
            "tiles": 1,
            "final_round": True,
        }
    ]


def test_summary_of_played_games_matches_the_result() -> None:
    for players, seed in [(1, 3), (2, 4), (4, 5)]:
        record, states = played(players, seed, seed)
        summary = GAME.summarize(record)
        final = states[-1]
        assert len(summary.seats) == players
        tracks = record["rules"]["orange_track"], record["rules"]["blue_track"]
        for seat, row in enumerate(summary.seats):
            cubes = sum(row[f"orange_{k}"] for k in range(3)) + sum(
                row[f"blue_{k}"] for k in range(3)
            )
            assert cubes + row["beehives"] == record["result"]["scores"][seat]
            player = final.players[seat]
            assert [row[f"orange_{k}"] for k in range(3)] == [tracks[0][i] for i in player.orange]
        turns = sum(row["turns_taken"] for row in summary.seats)
        assert turns == record["result"]["turns"]
        scored = sum(1 for t in record["turns"] for e in t["events"] if e["e"] == "score")
        assert summary.game["beds_scored"] == scored == len(summary.tables["beds"])


def test_tiles_table_names_kind_size_and_the_printed_features_covered() -> None:
    record, _ = played(2, 3)
    summary = summarize(record)
    tiles = summary.tables["tiles"]
    takes = [e for t in record["turns"] for e in t["events"] if e["e"] == "take_tile"]
    assert len(tiles) == len(takes)
    boards = record["components"]["boards"]
    # The first take of seat 0 goes on a bed dealt at setup: check its count by hand.
    first = next(
        (row, e)
        for t in record["turns"]
        for e in t["events"]
        if e["e"] == "take_tile" and t["seat"] == 0
        for row in [tiles[takes.index(e)]]
    )
    row, event = first
    dealt = record["setup"]["beds"][0][event["bed"]]
    layout = boards[dealt["board"]][dealt["side"]]
    expected = sum(1 for r, c in event["cells"] if layout[r][c] != ".")
    assert row["covered"] == expected
    assert row["kind"] == event["tile"].rsplit("-", 1)[0] and row["size"] == len(event["cells"])
    assert (
        sum(t["covered"] for t in tiles if t["seat"] == 0) == summary.seats[0]["features_covered"]
    )


def test_drama_follows_the_running_score_cubes() -> None:
    record = tiny_record()
    record["result"] |= {"winners": [0], "scores": [5, 0]}
    game = summarize(record).game
    # Seat 0 takes the lead with its move to 3 in turn 3 and wins: no change, no comeback.
    assert game["lead_changes"] == 0.0 and game["comeback"] == 0.0
    assert game["winner_led"] == 1.0 and game["decided_final_round"] == 0.0
    assert game["kingmaker"] is None
