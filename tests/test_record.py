"""Game records (game-record.md): exact fields, event order, JSON round trip and replay,
and tampered or malformed records rejected with the turn and event named."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.errors import RecordError
from cgsim.games.cottage import actions as act
from cgsim.games.cottage.game import GAME
from cgsim.games.cottage.record import FORMAT, replay
from cgsim.games.cottage.state import Phase, State
from cgsim.games.recordio import read_record

RULE_KEYS = {
    "solo", "children", "ramble", "start_cats", "cats_total", "pots_total", "cat_limit",
    "cubes", "refill_mandatory", "ramble_cost", "orange_track", "blue_track", "red_line",
    "gardener_value", "final_value", "gardener_step", "track_spaces", "turning_space",
    "discard_below", "penalty_points", "penalty_orange_spaces", "penalty_blue_spaces",
    "beehives", "bonus_red_line_cat", "bonus_start_pot", "bonus_cat_limit", "turn_cap",
}  # fmt: skip

EVENT_FIELDS = {
    "penalty": {"color", "cube", "from", "to"},
    "refill": {"cells", "tiles", "ramble"},
    "take_tile": {"from", "tile", "bed", "cells", "features"},
    "take_pot": {"bed", "cell"},
    "cat": {"bed", "cell", "why"},
    "pass": {"reason"},
    "score": {"bed", "board", "side", "pots", "cloches"},
    "move": {"color", "cube", "from", "to"},
    "gain_cat": {"why"},
    "bonus_pot": {"bed", "cell"},
    "beehive": {"value"},
    "cleanup": {"bed", "to_path", "new_board"},
    "discard_bed": {"seat", "bed", "to_path"},
    "return_cats": {"count"},
    "gardener": {"space", "value", "final_round"},
}


def played(
    players: int,
    seed: int,
    choice_seed: int = 0,
    variant: dict[str, Any] | None = None,
    overrides: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], list[State]]:
    """A recorded random game and the state at the first decision of every turn."""
    rules = GAME.make_rules(players, overrides or {}, None, variant or {})
    state = GAME.new_game(rules, seed)
    recorder = GAME.recorder(rules, seed, [{"bot": "random", "params": {}}] * players, state)
    rng = random.Random(choice_seed)
    states = [state]
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        # Mostly take tiles when possible, so beds get completed and scored.
        tiles = [a for a in legal if act.kind_of(a) == act.TILE]
        pool = tiles if tiles and rng.random() < 0.9 else legal
        action = pool[rng.randrange(len(pool))]
        after = GAME.apply(state, action)
        recorder.step(state, action, after)
        if after.turn != states[-1].turn and after.phase not in (Phase.CORNERS, Phase.OVER):
            states.append(after)
        state = after
    states.append(state)
    return recorder.finish(state), states


VARIANTS: list[tuple[int, int, dict[str, Any]]] = [
    (1, 5, {}),
    (2, 6, {}),
    (3, 7, {"children": [6, None, 7]}),
    (4, 8, {}),
    (2, 9, {"children": [5, 5]}),
]


@pytest.fixture(scope="module")
def records() -> list[tuple[dict[str, Any], list[State]]]:
    return [played(p, seed, seed, variant) for p, seed, variant in VARIANTS]


# --------------------------------------------------------------------------- fields


def test_top_level_and_rules_keys(records: list[tuple[dict[str, Any], list[State]]]) -> None:
    for record, _ in records:
        assert {
            "format", "seed", "players", "rules", "seats", "components", "setup", "turns",
            "result",
        } <= set(record)  # fmt: skip
        assert record["format"] == FORMAT
        assert set(record["rules"]) == RULE_KEYS
        assert record["rules"]["solo"] is (record["players"] == 1)
        assert len(record["rules"]["children"]) == record["players"]
        assert record["seats"] == [{"bot": "random", "params": {}}] * record["players"]
        assert set(record["result"]) >= {"scores", "beehives", "winners", "turns", "end"}
        assert record["result"]["turns"] == len(record["turns"])
        assert record["result"]["end"] in ("normal", "stalled", "aborted")


def test_components_embed_tiles_and_boards(
    records: list[tuple[dict[str, Any], list[State]]],
) -> None:
    components = records[0][0]["components"]
    assert len(components["tiles"]) == 36 and len(components["boards"]) == 9
    assert components["tiles"]["2A-1"] == {
        "kind": "2A",
        "cells": [[0, 0], [0, 1]],
        "features": {"0,0": "pot"},
    }
    assert components["boards"]["1"]["light"] == ["P...P", ".....", "..C..", ".....", "P.C.P"]


def test_setup_fields(records: list[tuple[dict[str, Any], list[State]]]) -> None:
    for record, states in records:
        setup, players = record["setup"], record["players"]
        assert set(setup) >= {
            "nursery", "path", "beds", "supply_board", "gardener", "cats", "supply",
            "corner_cats",
        }  # fmt: skip
        assert len(setup["nursery"]) == 4 and all(len(row) == 4 for row in setup["nursery"])
        assert len(setup["path"]) == 20
        tiles = [t for row in setup["nursery"] for t in row] + setup["path"]
        assert sorted(tiles) == sorted(record["components"]["tiles"])
        assert [[b["side"] for b in beds] for beds in setup["beds"]] == [
            ["light", "dark"]
        ] * players
        boards = [b["board"] for beds in setup["beds"] for b in beds]
        boards.append(setup["supply_board"]["board"])
        assert len(set(boards)) == 2 * players + 1
        assert setup["supply_board"]["side"] == "light"
        assert setup["gardener"] == {"space": 0, "value": record["rules"]["gardener_value"]}
        assert setup["cats"] == [2] * players
        corner = len(setup["corner_cats"])
        assert setup["supply"] == {"cats": 30 - 2 * players - corner, "pots": 16}
        first = states[1] if states[0].phase == Phase.CORNERS else states[0]
        assert setup["supply"]["cats"] == first.supply_cats
        children = record["rules"]["children"]
        assert {c["seat"] for c in setup["corner_cats"]} == {
            s for s, age in enumerate(children) if age is not None
        }
        for c in setup["corner_cats"]:
            assert c["corner"] in ([0, 0], [0, 3], [3, 3], [3, 0])


def test_corner_cat_counts_in_setup() -> None:
    record, _ = played(2, 3, 1, {"children": [5, None]})
    assert len(record["setup"]["corner_cats"]) == 4  # age 5, 2 players: all four corners
    assert record["setup"]["supply"]["cats"] == 30 - 4 - 4


def test_turn_fields_and_event_fields(records: list[tuple[dict[str, Any], list[State]]]) -> None:
    for record, _ in records:
        for i, turn in enumerate(record["turns"], start=1):
            assert set(turn) == {"n", "seat", "final_round", "events"}
            assert turn["n"] == i
            for event in turn["events"]:
                assert EVENT_FIELDS[event["e"]] <= set(event), event
                if event["e"] == "gain_cat":
                    assert event["why"] in ("red_line", "corner")
                    assert ("seat" in event) is (event["why"] == "corner")
                if event["e"] == "cat":
                    assert event["why"] in ("hunt", "limit")
                if event["e"] == "cleanup":
                    assert "new_board" in event
                    assert event["new_board"] is None or set(event["new_board"]) == {
                        "board",
                        "side",
                    }
                if event["e"] == "take_tile":
                    for key, value in event["features"].items():
                        r, c = (int(x) for x in key.split(","))
                        assert [r, c] in event["cells"] and value in ("pot", "cloche")
                if event["e"] == "pass":
                    assert isinstance(event["reason"], str) and event["reason"]
                if event["e"] in ("move", "penalty"):
                    assert event["color"] in ("orange", "blue")


def turn_order_problems(turn: dict[str, Any], had_bed: bool) -> list[str]:
    """Check one turn against game-record.md's order of events."""
    names = [e["e"] for e in turn["events"]]
    problems = []
    if "penalty" in names and names.index("penalty") != 0:
        problems.append("penalty not first")
    mains = [i for i, n in enumerate(names) if n in ("take_tile", "take_pot", "pass")]
    gardener = [i for i, n in enumerate(names) if n == "gardener"]
    if len(gardener) != 1:
        return ["not exactly one gardener event"]
    g = gardener[0]
    if not had_bed:
        if g != 0:
            problems.append("a player without bed does more than move the gardener")
        return problems
    if len(mains) != 1:
        return ["not exactly one main action"]
    m = mains[0]
    if "refill" in names and names.index("refill") > m:
        problems.append("refill after the main action")
    for i, event in enumerate(turn["events"]):
        n = event["e"]
        if i < m and n not in ("penalty", "refill", "cat"):
            problems.append(f"{n} before the main action")
        if i < m and n == "cat" and event["why"] != "hunt":
            problems.append("limit cat before the main action")
        if i > g and n not in ("gain_cat", "discard_bed"):
            problems.append(f"{n} after the gardener")
        if i > g and n == "gain_cat" and event["why"] != "corner":
            problems.append("red-line cat after the gardener")
        if m < i < g and n in ("penalty", "refill"):
            problems.append(f"{n} after the main action")
    limit = [i for i, e in enumerate(turn["events"]) if e["e"] == "cat" and e["why"] == "limit"]
    hunts = [i for i, e in enumerate(turn["events"]) if e["e"] == "cat" and e["why"] == "hunt"]
    if limit and hunts and max(hunts) > min(limit):
        problems.append("hunt cat after a limit cat")
    if "return_cats" in names and names.index("return_cats") != g - 1:
        problems.append("return_cats not right before the gardener")
    # Each score is followed by its two moves' bonuses and a clean-up, nothing else.
    for i, n in enumerate(names):
        if n == "score":
            j = i + 1
            while names[j] in ("move", "gain_cat", "beehive", "bonus_pot"):
                j += 1
            if names[j] != "cleanup":
                problems.append("scoring not closed by its clean-up")
            colors = [e["color"] for e in turn["events"][i + 1 : j] if e["e"] == "move"]
            if colors not in ([], ["orange"], ["blue"], ["orange", "blue"]):
                problems.append(f"moves {colors} out of order")
    return problems


def test_order_of_events_in_every_turn() -> None:
    for players, seed, variant in [*VARIANTS, (2, 21, {}), (3, 22, {}), (4, 23, {})]:
        for choice in range(3):
            record, _ = played(players, seed, choice, variant)
            beds = [[True, True] for _ in range(players)]
            for turn in record["turns"]:
                had_bed = any(beds[turn["seat"]])
                assert turn_order_problems(turn, had_bed) == [], (seed, turn)
                for event in turn["events"]:
                    if event["e"] == "cleanup" and event["new_board"] is None:
                        beds[turn["seat"]][event["bed"]] = False
                    if event["e"] == "discard_bed":
                        beds[event["seat"]][event["bed"]] = False


def test_discards_follow_the_gardener_move_that_starts_the_final_round(
    records: list[tuple[dict[str, Any], list[State]]],
) -> None:
    for record, _ in records:
        starts = [
            (t, i)
            for t in record["turns"]
            for i, e in enumerate(t["events"])
            if e["e"] == "gardener" and e["final_round"] and not t["final_round"]
        ]
        assert len(starts) <= 1
        for turn, i in starts:
            after = [e["e"] for e in turn["events"][i + 1 :]]
            assert set(after) <= {"gain_cat", "discard_bed"}


# --------------------------------------------------------------------------- replay


def test_json_round_trip_replays_every_state(
    records: list[tuple[dict[str, Any], list[State]]],
) -> None:
    for record, states in records:
        loaded = json.loads(json.dumps(record))
        assert loaded == record
        replayed = list(GAME.replay(loaded))
        assert [turn for turn, _ in replayed] == [s.turn for s in states]
        # Every field but the (rebuilt) rules object is identical, events included.
        assert [s[1:] for _, s in replayed] == [s[1:] for s in states]


def test_record_file_round_trip(
    records: list[tuple[dict[str, Any], list[State]]], tmp_path: Path
) -> None:
    record = records[1][0]
    path = tmp_path / "x.json"
    path.write_text(json.dumps(record))
    assert read_record(path) == json.loads(json.dumps(record))


def consume(record: dict[str, Any]) -> None:
    for _ in replay(record):
        pass


def first_event(record: dict[str, Any], name: str) -> tuple[int, int, dict[str, Any]]:
    for turn in record["turns"]:
        for i, event in enumerate(turn["events"]):
            if event["e"] == name:
                return turn["n"], i, event
    raise AssertionError(f"no {name} event")


@pytest.fixture
def record() -> dict[str, Any]:
    record, _ = played(2, 6, 6)
    return record


def test_tampered_tile_cell_is_rejected(record: dict[str, Any]) -> None:
    n, _, event = first_event(record, "take_tile")
    event["cells"][0] = [9, 9] if event["cells"][0] != [9, 9] else [0, 0]
    with pytest.raises(RecordError, match=f"turn {n}"):
        consume(record)


def test_tampered_tile_shape_names_the_placement(record: dict[str, Any]) -> None:
    n, _, event = first_event(record, "take_tile")
    # One cell too many: no orientation of the tile covers these cells.
    event["cells"].append(
        next([r, c] for r in range(5) for c in range(5) if [r, c] not in event["cells"])
    )
    with pytest.raises(RecordError, match=rf"turn {n}: cells .* are not a placement of"):
        consume(record)


def test_tampered_tile_id_names_the_nursery_cell(record: dict[str, Any]) -> None:
    n, _, event = first_event(record, "take_tile")
    event["tile"] = "no-such-tile"
    with pytest.raises(RecordError, match=rf"turn {n}: tile no-such-tile is not at nursery"):
        consume(record)


def test_event_out_of_place_is_rejected(record: dict[str, Any]) -> None:
    n, _, event = first_event(record, "take_tile")
    event.clear()
    event.update({"e": "score", "bed": 0, "board": "1", "side": "light", "pots": 0, "cloches": 0})
    with pytest.raises(RecordError, match=rf"turn {n}: event 'score' cannot happen at this point"):
        consume(record)


def test_tampered_placement_is_rejected(record: dict[str, Any]) -> None:
    _, _, event = first_event(record, "take_tile")
    # Shift the tile one column: either off the bed, onto other tiles, or a different event.
    event["cells"] = [[r, (c + 1) % 5] for r, c in event["cells"]]
    event["features"] = {}
    with pytest.raises(RecordError, match=r"turn \d+"):
        consume(record)


def test_wrong_score_is_rejected(record: dict[str, Any]) -> None:
    n, i, event = first_event(record, "score")
    event["pots"] += 1
    with pytest.raises(RecordError, match=f"turn {n} event {i}"):
        consume(record)


def test_extra_event_is_rejected(record: dict[str, Any]) -> None:
    turn = record["turns"][4]
    turn["events"].insert(0, {"e": "take_pot", "bed": 0, "cell": [0, 0]})
    with pytest.raises(RecordError, match=f"turn {turn['n']}"):
        consume(record)


def test_missing_event_is_rejected(record: dict[str, Any]) -> None:
    turn = record["turns"][5]
    index = [e["e"] for e in turn["events"]].index("gardener")
    del turn["events"][index]
    with pytest.raises(RecordError, match="turn"):
        consume(record)


def test_missing_last_turn_is_rejected(record: dict[str, Any]) -> None:
    record["turns"].pop()
    with pytest.raises(RecordError, match="goes on after the record ends"):
        consume(record)


def test_extra_turn_is_rejected(record: dict[str, Any]) -> None:
    extra = copy.deepcopy(record["turns"][-1])
    extra["n"] += 1
    record["turns"].append(extra)
    with pytest.raises(RecordError, match=f"turn {extra['n']}"):
        consume(record)


def test_wrong_seed_is_rejected(record: dict[str, Any]) -> None:
    record["seed"] += 1
    with pytest.raises(RecordError, match="setup"):
        consume(record)


def test_wrong_result_is_rejected(record: dict[str, Any]) -> None:
    record["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match=r"result\.scores"):
        consume(record)
    del record["result"]
    with pytest.raises(RecordError, match="no result"):
        consume(record)


def test_changed_rules_are_rejected(record: dict[str, Any]) -> None:
    record["rules"]["cat_limit"] = -3
    with pytest.raises(RecordError, match="cat_limit"):
        consume(record)


def test_malformed_turns_are_rejected(record: dict[str, Any]) -> None:
    del record["turns"][0]["n"]
    with pytest.raises(RecordError, match="cottage-garden record: turn 1 misses the field 'n'"):
        consume(record)


@pytest.mark.parametrize("text", ["", "{", "not json", "[1, 2]", '{"format": "other/1"}', "42"])
def test_non_json_or_wrong_format_is_rejected(text: str, tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(text)
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert isinstance(result.exception, RecordError)
    assert "x.json" in str(result.exception)
    assert "\n" not in str(result.exception)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({}, "the record misses the field 'format'"),
        ({"format": "cgsim.record/2"}, "format must be 'cgsim.record/1', got 'cgsim.record/2'"),
        ([], "the record must be an object, got []"),
        ("text", "the record must be an object, got 'text'"),
    ],
)
def test_replay_rejects_non_records(bad: Any, message: str) -> None:
    with pytest.raises(RecordError, match=re.escape(f"cottage-garden record: {message}")):
        consume(bad)


def test_replay_of_a_record_missing_fields(record: dict[str, Any]) -> None:
    del record["components"]
    with pytest.raises(RecordError, match="the record misses the field 'components'"):
        consume(record)


def test_a_cat_placed_by_the_cat_limit_after_done_replays() -> None:
    """``done`` leaves no event, so the cat the cat limit then places must not be read as
    a mouse hunt of the turn still going on (greedy players with the weights from before
    their tuning meet this in seed 1)."""
    from cgsim.play.bot_registry import resolve_bot
    from cgsim.play.match import play_game

    rules = GAME.make_rules(2, {}, None, {})
    old_weights = "pots=1.0,cloches=2.0,fill_rate=4.0,token_cost=0.9,cats=0.7,start_pot=1.5"
    greedy = resolve_bot(f"greedy:turn_value=1.8,complete_bonus=1.0,{old_weights}", GAME.info.id)
    record = play_game(GAME, rules, 1, [greedy, greedy], record=True).record
    assert record is not None
    events = [event for turn in record["turns"] for event in turn["events"]]
    assert {"e": "cat", "bed": 0, "cell": [1, 0], "why": "limit"} in events
    assert [turn for turn, _ in GAME.replay(record)][-1] == record["result"]["turns"]
