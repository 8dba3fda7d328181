"""Records: round trip through JSON and replay, tampering detected, summaries."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from cgsim.errors import RecordError
from cgsim.games.kitchen.game import GAME
from cgsim.games.kitchen.record import FORMAT
from cgsim.games.kitchen.state import State


def recorded_game(players: int, seed: int, cap: int = 400) -> tuple[dict[str, Any], State]:
    rules = GAME.make_rules(players, {"turn_cap": cap})
    state = GAME.new_game(rules, seed)
    recorder = GAME.recorder(rules, seed, [{"bot": "random", "params": {}}] * players, state)
    rng = random.Random(seed)
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        after = GAME.apply(state, action)
        recorder.step(state, action, after)
        state = after
    record: dict[str, Any] = json.loads(json.dumps(recorder.finish(state)))
    return record, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replay_round_trip(players: int) -> None:
    record, final = recorded_game(players, 3 + players)
    assert record["format"] == FORMAT
    states = list(GAME.replay(record))
    assert states[0][0] == states[0][1].turn == 1  # the deal: the start of turn 1
    assert states[-1][1] == final
    assert all(state.turn == n for n, state in states[:-1])  # each turn's opening state
    turns = [n for n, _ in states]
    assert turns == sorted(turns) and turns[-1] == final.turn


def test_won_game_record_has_a_win_event_and_result() -> None:
    for seed in range(40):
        record, _ = recorded_game(2, seed, cap=400)
        if record["result"]["winners"]:
            break
    assert record["turns"][-1]["events"][-1]["e"] == "win"
    assert record["result"]["end"] == "normal"
    summary = GAME.summarize(record)
    assert summary.game["winner_task"] == record["setup"]["tasks"][record["result"]["winners"][0]]
    assert summary.seats[0]["plants_planted"] == record["result"]["plants"][0]


def test_tampered_event_is_reported_with_its_turn() -> None:
    record, _ = recorded_game(2, 1, cap=30)
    bad = copy.deepcopy(record)
    for turn in bad["turns"]:
        for event in turn["events"]:
            if event["e"] == "harvest":
                event["card"] = (event["card"] + 1) % 72
                break
        else:
            continue
        break
    with pytest.raises(RecordError, match=r"turn \d+: event .* does not match"):
        list(GAME.replay(bad))


def test_wrong_setup_format_and_result_are_reported() -> None:
    record, _ = recorded_game(2, 2, cap=20)
    with pytest.raises(RecordError, match="setup"):
        list(GAME.replay({**record, "seed": 99}))
    with pytest.raises(RecordError, match="format"):
        list(GAME.replay({**record, "format": "other"}))
    with pytest.raises(RecordError, match="result"):
        list(GAME.replay({**record, "result": {**record["result"], "turns": 1}}))
    with pytest.raises(RecordError, match="turn"):
        list(GAME.replay({**record, "turns": record["turns"][:2]}))
    unfinished = {**record, "turns": [{**record["turns"][0], "events": []}]}
    with pytest.raises(RecordError, match="ends before"):
        list(GAME.replay(unfinished))


def test_summary_columns() -> None:
    record, final = recorded_game(3, 5, cap=90)
    summary = GAME.summarize(record)
    assert summary.game["aborted"] is True and summary.game["winner_task"] is None
    for key in ("sluggards_played", "weeds_played", "reshuffles", "attack_on_runner_up"):
        assert key in summary.game
    assert len(summary.seats) == 3
    for row in summary.seats:
        assert set(row) >= {
            "task",
            "plants_planted",
            "beds_completed",
            "weeds_played",
            "weeds_received",
            "sluggards_played",
            "sluggard_turns_lost",
            "workers_used",
            "specials_used",
            "harvests",
            "market_swaps",
            "cards_in_hand_end",
        }
    assert sum(r["weeds_played"] for r in summary.seats) == summary.game["weeds_played"]
    assert sum(r["weeds_received"] for r in summary.seats) == summary.game["weeds_played"]
    assert [r["cards_in_hand_end"] for r in summary.seats] == [len(h) for h in final.hands]


_GAME_COUNTS = {
    "sluggards_played": "sluggard",
    "sluggards_cancelled": "sluggard_cancel",
    "weeds_played": "weed",
    "weedings": "weeding",
    "steals": "steal",
    "crows": "crow",
    "bazaars": "bazaar",
    "holidays": "holiday",
    "reshuffles": "reshuffle",
}
# Per seat counter: the events it counts, each with the field naming the seat it counts
# for (None: the turn's actor).
_SEAT_COUNTS: dict[str, list[tuple[str, str | None]]] = {
    "weeds_played": [("weed", None)],
    "weeds_received": [("weed", "target")],
    "sluggards_played": [("sluggard", None)],
    "sluggard_turns_lost": [("skip", "seat")],
    "workers_used": [("cond_worker", None), ("weeding", None), ("sluggard_cancel", "seat")],
    "specials_used": [
        (kind, None) for kind in ("cond_special", "bazaar", "holiday", "crow", "steal")
    ],
    "harvests": [("harvest", None)],
    "market_swaps": [("market", None)],
}


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (3, 3), (4, 4), (4, 5)])
def test_every_counter_counts_its_events(players: int, seed: int) -> None:
    # The summary's counters against a plain count of the record's events.
    record, _ = recorded_game(players, seed)
    game_counts = dict.fromkeys(_GAME_COUNTS, 0)
    seat_counts = [dict.fromkeys(_SEAT_COUNTS, 0) for _ in range(players)]
    for turn in record["turns"]:
        for event in turn["events"]:
            for counter, kind in _GAME_COUNTS.items():
                game_counts[counter] += event["e"] == kind
            for counter, counted in _SEAT_COUNTS.items():
                for kind, field in counted:
                    if event["e"] == kind:
                        seat = turn["seat"] if field is None else event[field]
                        seat_counts[seat][counter] += 1
    summary = GAME.summarize(record)
    assert {key: summary.game[key] for key in _GAME_COUNTS} == game_counts
    assert [{key: row[key] for key in _SEAT_COUNTS} for row in summary.seats] == seat_counts
    assert sum(game_counts.values()) > 0


def test_malformed_records_are_reported() -> None:
    record, _ = recorded_game(2, 2, cap=20)
    no_components = {k: v for k, v in record.items() if k != "components"}
    bad_rules = {**record, "rules": {**record["rules"], "hand_limit": -1}}
    out_of_range = {**record, "rules": {**record["rules"], "hand_limit": 50}}
    extra = copy.deepcopy(record)
    extra["turns"][-1]["events"].append({"e": "harvest", "card": 0})
    cases = [
        (no_components, "kitchen-garden record: the record misses the field 'components'"),
        (bad_rules, r"kitchen-garden record: rules\.hand_limit must be 0\.\.100, got -1"),
        (
            out_of_range,
            "kitchen-garden record: rules: rules.hand_limit = 50: allowed an integer from 0 to 30",
        ),
        ({**record, "seed": "2"}, "kitchen-garden record: seed must be an integer, got '2'"),
        ({**record, "turns": []}, r"kitchen-garden record: turns must have 1\.\.1000000 items"),
        ({**record, "turns": [{}]}, "kitchen-garden record: turn 1 misses the field 'n'"),
        (extra, r"turn 20: event .* comes after the end of the game"),
    ]
    for bad, message in cases:
        with pytest.raises(RecordError, match=message):
            list(GAME.replay(bad))
