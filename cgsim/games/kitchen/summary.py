"""Per-game and per-seat statistics of a finished Kitchen Garden game, from its record.

Derived from the record alone, so a stored record can be summarized again later.
``attack_on_runner_up`` is the "did an attack decide it" flag: a Weed placed on, or a
Sluggard accepted by, the eventual runner-up (the best-ranked seat that did not win)
within the last ``2 * players`` turns of a game that someone won.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.contract import GameSummary

SEAT_COUNTERS = (
    "weeds_played",
    "weeds_received",
    "sluggards_played",
    "sluggard_turns_lost",
    "workers_used",
    "specials_used",
    "harvests",
    "market_swaps",
)
GAME_COUNTERS = (
    "sluggards_played",
    "sluggards_cancelled",
    "weeds_played",
    "weedings",
    "steals",
    "crows",
    "bazaars",
    "holidays",
    "reshuffles",
)
_SPECIAL_EVENTS = {"cond_special", "bazaar", "holiday", "crow", "steal"}
_GAME_EVENT_COUNTERS = {
    "sluggard": "sluggards_played",
    "sluggard_cancel": "sluggards_cancelled",
    "weed": "weeds_played",
    "weeding": "weedings",
    "steal": "steals",
    "crow": "crows",
    "bazaar": "bazaars",
    "holiday": "holidays",
    "reshuffle": "reshuffles",
}


def _runner_up(result: Mapping[str, Any]) -> int | None:
    winners = list(result.get("winners", []))
    ranks = result.get("ranks")
    if result.get("end") != "normal" or not winners or not ranks:
        return None
    others = [seat for seat in range(len(ranks)) if seat not in winners]
    if not others:
        return None
    return min(others, key=lambda seat: (ranks[seat], seat))


def summarize(record: Mapping[str, Any]) -> GameSummary:
    """Game columns, one row of seat columns per seat; no extra tables."""
    players = int(record["players"])
    result: Mapping[str, Any] = record["result"]
    tasks = record["setup"]["tasks"]
    seats: list[dict[str, Any]] = [dict.fromkeys(SEAT_COUNTERS, 0) for _ in range(players)]
    game: dict[str, Any] = dict.fromkeys(GAME_COUNTERS, 0)
    runner_up = _runner_up(result)
    last_turn = int(result.get("turns", 0))
    window_start = last_turn - 2 * players
    attacked = False
    for turn in record["turns"]:
        actor = int(turn["seat"])
        late = int(turn["n"]) > window_start
        for event in turn["events"]:
            kind = event["e"]
            counter = _GAME_EVENT_COUNTERS.get(kind)
            if counter is not None:
                game[counter] += 1
            if kind in _SPECIAL_EVENTS:
                seats[actor]["specials_used"] += 1
            if kind == "weed":
                seats[actor]["weeds_played"] += 1
                seats[event["target"]]["weeds_received"] += 1
                attacked = attacked or (late and event["target"] == runner_up)
            elif kind == "sluggard":
                seats[actor]["sluggards_played"] += 1
            elif kind == "sluggard_accept":
                attacked = attacked or (late and event["seat"] == runner_up)
            elif kind == "skip":
                seats[event["seat"]]["sluggard_turns_lost"] += 1
            elif kind in ("cond_worker", "weeding"):
                seats[actor]["workers_used"] += 1
            elif kind == "sluggard_cancel":
                seats[event["seat"]]["workers_used"] += 1
            elif kind == "harvest":
                seats[actor]["harvests"] += 1
            elif kind == "market":
                seats[actor]["market_swaps"] += 1
    winners = list(result.get("winners", []))
    game["aborted"] = result.get("end") == "aborted"
    game["attack_on_runner_up"] = attacked
    game["winner_task"] = tasks[winners[0]] if winners else None
    for seat, row in enumerate(seats):
        row["task"] = tasks[seat]
        row["plants_planted"] = int(result["plants"][seat])
        row["beds_completed"] = int(result["beds_full"][seat])
        row["cards_in_hand_end"] = int(result["hands"][seat])
    return GameSummary(game=game, seats=tuple(seats))
