"""The independent record checker: valid hand-built games pass, each kind of fault is caught."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import zstandard
from checker_fixtures import (
    RecordBuilder,
    default_components,
    empty_cells,
    gardener,
    single_cell_components,
    take_tile,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.errors import RecordError
from cgsim.games.cottage.checker import Violation, check_record, iter_records

# ---------------------------------------------------------------- scenarios


def scoring_builder(**changes: Any) -> RecordBuilder:
    """Seat 0 fills bed 0 with cats, scores it with every bonus, then the final round starts."""
    rules: dict[str, Any] = {
        "cubes": 1,
        "orange_track": [0, 1, 2, 3, 20],
        "red_line": 3,
        "start_cats": 20,
        "cats_total": 60,
        "turning_space": 1,
        "gardener_value": 5,
        "discard_below": 26,
    }
    rules.update(changes)
    builder = RecordBuilder(players=2, **rules)
    light = builder.components["boards"]["1"]["light"]
    events: list[dict[str, Any]] = [
        {"e": "cat", "bed": 0, "cell": cell, "why": "hunt"} for cell in empty_cells(light)
    ]
    events += [
        {"e": "take_pot", "bed": 1, "cell": [0, 1]},
        {"e": "score", "bed": 0, "board": "1", "side": "light", "pots": 4, "cloches": 2},
        {"e": "move", "color": "orange", "cube": 0, "from": 0, "to": 4},
        {"e": "gain_cat", "why": "red_line"},
        {"e": "beehive", "value": 2},
        {"e": "bonus_pot", "bed": 1, "cell": [0, 2]},
        {"e": "move", "color": "blue", "cube": 0, "from": 0, "to": 2},
        {"e": "gain_cat", "why": "red_line"},
        {"e": "bonus_pot", "bed": 1, "cell": [0, 3]},
        {"e": "cleanup", "bed": 0, "to_path": [], "new_board": {"board": "5", "side": "light"}},
        {"e": "cat", "bed": 1, "cell": [1, 0], "why": "limit"},
        gardener(1, 6, True),
    ]
    if rules["discard_below"] > 0:
        events += [
            {"e": "discard_bed", "seat": seat, "bed": bed, "to_path": []}
            for seat in (0, 1)
            for bed in (0, 1)
        ]
    return builder.turn(events)


def scoring_record() -> dict[str, Any]:
    return scoring_builder().result([26, 0], [2, 0], [0], "normal")


def stall_builder(**changes: Any) -> RecordBuilder:
    """One-cell tiles, no pots, no cats: four tiles placed, then two passes stall the game."""
    rules: dict[str, Any] = {
        "gardener_step": 16,
        "gardener_value": 4,
        "pots_total": 0,
        "start_cats": 0,
        "cats_total": 0,
        "discard_below": 1,
    }
    rules.update(changes)
    components = single_cell_components()
    builder = RecordBuilder(players=2, components=components, **rules)
    discards: list[dict[str, Any]] = [
        {"e": "discard_bed", "seat": s, "bed": 1, "to_path": []} for s in (0, 1)
    ]
    builder.turn([take_tile(components, "X-1", [0, 0], 0, [1, 1]), gardener(0, 5)])
    builder.turn([take_tile(components, "X-5", [1, 0], 0, [1, 1]), gardener(0, 6, True), *discards])
    builder.turn([take_tile(components, "X-9", [2, 0], 0, [1, 2]), gardener(0, 6, True)], True)
    builder.turn([take_tile(components, "X-13", [3, 0], 0, [1, 2]), gardener(0, 6, True)], True)
    builder.turn([{"e": "pass", "reason": "nothing fits"}, gardener(0, 6, True)], True)
    return builder


def stall_record() -> dict[str, Any]:
    builder = stall_builder()
    builder.turn(
        [
            {"e": "pass", "reason": "nothing fits"},
            gardener(0, 6, True),
            {"e": "discard_bed", "seat": 0, "bed": 0, "to_path": ["X-1", "X-9"]},
            {"e": "discard_bed", "seat": 1, "bed": 0, "to_path": ["X-5", "X-13"]},
        ],
        True,
    )
    return builder.result([0, 0], [0, 0], [0, 1], "stalled")


def refill_builder(**changes: Any) -> RecordBuilder:
    """The gardener laps the track each turn, so the Gardener Row stays column 0."""
    builder = RecordBuilder(players=2, gardener_step=16, **changes)
    components = builder.components
    builder.turn([take_tile(components, "1A-1", [0, 0], 0, [1, 1]), gardener(0, 3)])
    builder.turn([take_tile(components, "2C-1", [1, 0], 0, [1, 0]), gardener(0, 4)])
    return builder


def refill_turn(cells: list[list[int]], ramble: bool = True) -> list[dict[str, Any]]:
    return [
        {"e": "refill", "cells": cells, "tiles": ["4D-1", "4E-1"], "ramble": ramble},
        {"e": "take_pot", "bed": 0, "cell": [1, 0]},
        gardener(0, 5),
    ]


def messages(record: dict[str, Any]) -> list[str]:
    return [v.message for v in check_record(record)]


def assert_caught(record: dict[str, Any], fragment: str) -> Violation:
    violations = check_record(record)
    found = [v for v in violations if fragment in v.message]
    assert found, f"{fragment!r} not in {violations}"
    return found[0]


def events_of(record: dict[str, Any], turn: int = 1) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = record["turns"][turn - 1]["events"]
    return events


def index_of(events: list[dict[str, Any]], kind: str, nth: int = 0) -> int:
    return [i for i, e in enumerate(events) if e["e"] == kind][nth]


# ---------------------------------------------------------------- valid games


def test_scoring_game_with_every_bonus_is_valid() -> None:
    assert check_record(scoring_record()) == []


def test_stalled_game_is_valid() -> None:
    assert check_record(stall_record()) == []


def test_game_ending_when_every_bed_is_discarded_is_normal() -> None:
    builder = stall_builder(discard_below=2)
    record = builder.unfinished()
    record["turns"] = record["turns"][:2]
    record["turns"][1]["events"][2:] = [
        {"e": "discard_bed", "seat": s, "bed": b, "to_path": ["X-1"] if (s, b) == (0, 0) else []}
        for s in (0, 1)
        for b in (0, 1)
    ]
    record["turns"][1]["events"][4]["to_path"] = ["X-5"]
    record["result"] = {
        "scores": [0, 0],
        "beehives": [0, 0],
        "winners": [0, 1],
        "turns": 2,
        "end": "normal",
    }
    assert check_record(record) == []


def test_turn_cap_aborts_the_game() -> None:
    record = stall_builder(turn_cap=5).result([0, 0], [0, 0], [0, 1], "aborted")
    assert check_record(record) == []
    record["result"]["end"] = "stalled"
    assert_caught(record, "result.end is 'stalled', expected 'aborted'")


def test_ramble_refill_is_valid_and_costs_a_cat() -> None:
    record = refill_builder().turn(refill_turn([[0, 0], [1, 0]])).unfinished()
    assert messages(record) == ["result: the game has not ended after 3 turns"]


def test_corner_cat_is_gained_when_the_gardener_passes_the_corner() -> None:
    corners = [{"seat": 0, "corner": [0, 3]}, {"seat": 0, "corner": [3, 3]}]
    builder = RecordBuilder(players=2, children=[7, None], corner_cats=corners, gardener_step=4)
    components = builder.components
    builder.turn(
        [
            take_tile(components, "1A-1", [0, 0], 0, [1, 1]),
            gardener(4, 2),
            {"e": "gain_cat", "why": "corner", "seat": 0},
        ]
    )
    builder.turn(
        [
            take_tile(components, "2B-1", [0, 3], 0, [1, 0]),
            gardener(8, 2),
            {"e": "gain_cat", "why": "corner", "seat": 0},
        ]
    )
    record = builder.unfinished()
    assert messages(record) == ["result: the game has not ended after 2 turns"]
    del record["turns"][1]["events"][2]
    violation = assert_caught(record, "expected a gain_cat event")
    assert violation.turn == 2


def test_rotated_and_flipped_placement_is_valid() -> None:
    builder = RecordBuilder(players=2, gardener_step=16)
    # 3B is "#." / "##": reference cells (0,0) (1,0) (1,1); rotated a quarter turn.
    builder.turn([take_tile(builder.components, "1A-1", [0, 0], 0, [1, 1]), gardener(0, 3)])
    event = {
        "e": "take_tile",
        "from": [2, 0],
        "tile": "3B-1",
        "bed": 0,
        "cells": [[2, 2], [2, 1], [3, 1]],
        "features": {},
    }
    record = builder.turn([event, gardener(0, 4)]).unfinished()
    assert messages(record) == ["result: the game has not ended after 2 turns"]
    events_of(record, 2)[0]["cells"] = [[2, 2], [3, 1], [2, 1]]
    assert_caught(record, "rotated or flipped")


# ---------------------------------------------------------------- faults in turns


def test_wrong_refill_order_is_caught() -> None:
    record = refill_builder().turn(refill_turn([[1, 0], [0, 0]])).unfinished()
    violation = assert_caught(record, "closest first")
    assert (violation.turn, violation.event) == (3, 0)


def test_ramble_flag_must_match_the_number_of_empty_cells() -> None:
    record = refill_builder().turn(refill_turn([[0, 0], [1, 0]], ramble=False)).unfinished()
    assert_caught(record, "ramble is False with 2 empty cells")


def test_missing_mandatory_refill_is_caught() -> None:
    record = refill_builder(refill_mandatory=2).turn(refill_turn([[0, 0], [1, 0]])[1:])
    assert_caught(record.unfinished(), "expected a refill event")


def test_ramble_with_a_child_seat_is_caught() -> None:
    corners = [{"seat": 1, "corner": [0, 0]}, {"seat": 1, "corner": [3, 0]}]
    record = RecordBuilder(players=2, children=[None, 7], corner_cats=corners).unfinished()
    record["rules"]["gardener_step"] = 16
    record["turns"] = refill_builder().unfinished()["turns"]
    gain = [{"e": "gain_cat", "why": "corner", "seat": 1}] * 2
    for turn in record["turns"]:
        turn["events"] += gain
    record["turns"].append(
        {"n": 3, "seat": 0, "final_round": False, "events": refill_turn([[0, 0], [1, 0]]) + gain}
    )
    assert_caught(record, "Ramble is not allowed")


def test_overlapping_tile_is_caught() -> None:
    record = stall_record()
    events_of(record, 3)[0]["cells"] = [[1, 1]]
    events_of(record, 3)[0]["features"] = {}
    assert_caught(record, "holds a tile X-1")


def test_pass_while_a_tile_fits_is_caught() -> None:
    record = stall_record()
    events_of(record, 3)[0] = {"e": "pass", "reason": "lazy"}
    assert_caught(record, "passing is not allowed: tile X-9")


def test_missing_stall_discards_are_caught() -> None:
    record = stall_record()
    del events_of(record, 6)[2:]
    assert_caught(record, "expected a discard_bed event")


def test_token_on_printed_feature_is_caught() -> None:
    record = scoring_record()
    events_of(record)[19] = {"e": "take_pot", "bed": 1, "cell": [0, 0]}
    assert_caught(record, "is not empty (printed cloche)")


def test_cat_on_printed_feature_is_caught() -> None:
    record = scoring_record()
    events_of(record)[0]["cell"] = [0, 0]
    violation = assert_caught(record, "is not empty (printed pot)")
    assert (violation.turn, violation.event) == (1, 0)


def test_wrong_pot_count_is_caught() -> None:
    record = scoring_record()
    events_of(record)[index_of(events_of(record), "score")]["pots"] = 5
    assert_caught(record, "holds 4 pots and 2 cloches, record says 5 and 2")


def test_missing_red_line_cat_is_caught() -> None:
    record = scoring_record()
    del events_of(record)[index_of(events_of(record), "gain_cat")]
    assert_caught(record, "expected a gain_cat event (red line crossed")


def test_bonuses_out_of_order_are_caught() -> None:
    record = scoring_record()
    events = events_of(record)
    beehive = index_of(events, "beehive")
    events[beehive], events[beehive + 1] = events[beehive + 1], events[beehive]
    assert_caught(record, "expected a beehive event")


def test_unearned_bonus_is_caught() -> None:
    record = scoring_builder(bonus_start_pot=False).result([26, 0], [2, 0], [0], "normal")
    assert_caught(record, "not earned by the orange move")


def test_missing_limit_cat_is_caught() -> None:
    record = scoring_record()
    del events_of(record)[index_of(events_of(record), "cat", 19)]
    assert_caught(record, "ends the turn with 3 cats in reserve")


def test_limit_cat_for_a_child_is_caught() -> None:
    corners = [{"seat": 0, "corner": [3, 3]}, {"seat": 0, "corner": [3, 0]}]
    record = scoring_builder(children=[7, None], cats_total=62).result(
        [26, 0], [2, 0], [0], "normal"
    )
    record["setup"]["corner_cats"] = corners
    record["setup"]["supply"]["cats"] = 20
    assert_caught(record, "no cat limit applies")


def test_wrong_new_board_is_caught() -> None:
    record = scoring_record()
    events_of(record)[index_of(events_of(record), "cleanup")]["new_board"] = {
        "board": "1",
        "side": "dark",
    }
    assert_caught(record, "the supply board is 5 light")


def test_wrong_move_length_is_caught() -> None:
    record = scoring_record()
    events_of(record)[index_of(events_of(record), "move", 1)]["to"] = 3
    assert_caught(record, "expected from 0 to 2")


def test_wrong_penalty_tier_is_caught() -> None:
    def penalty_record(penalty: dict[str, Any]) -> dict[str, Any]:
        builder = scoring_builder(discard_below=0, bonus_cat_limit=False)
        first = builder.record["turns"][0]["events"]
        first.remove({"e": "cat", "bed": 1, "cell": [1, 0], "why": "limit"})
        builder.turn(
            [{"e": "take_pot", "bed": 0, "cell": [1, 0]}, gardener(2, 6, True)], final_round=True
        )
        builder.turn(
            [penalty, {"e": "take_pot", "bed": 0, "cell": [0, 1]}, gardener(3, 6, True)],
            final_round=True,
        )
        return builder.unfinished()

    blue = {"e": "penalty", "color": "blue", "cube": 0, "from": 2, "to": 1}
    assert messages(penalty_record(blue)) == ["result: the game has not ended after 3 turns"]
    orange = {"e": "penalty", "color": "orange", "cube": 0, "from": 4, "to": 2}
    assert_caught(penalty_record(orange), "the rules require a move losing exactly 2 points")


def test_wrong_gardener_and_turn_numbering_are_caught() -> None:
    record = stall_record()
    events_of(record, 1)[1]["value"] = 4
    assert_caught(record, "expected space 0 value 5")
    record = stall_record()
    record["turns"][2]["n"] = 7
    record["turns"][3]["final_round"] = False
    found = messages(record)
    assert "turn n is 7, expected 3" in found
    assert "turn final_round is False, expected True" in found


def test_wrong_seat_and_extra_events_are_caught() -> None:
    record = stall_record()
    record["turns"][1]["seat"] = 0
    assert_caught(record, "seat 1 plays now")
    record = stall_record()
    events_of(record, 1).append({"e": "pass", "reason": "again"})
    assert_caught(record, "unexpected event after the end of the turn")


# ---------------------------------------------------------------- setup and result


def test_wrong_winner_and_scores_are_caught() -> None:
    record = scoring_record()
    record["result"]["winners"] = [1]
    record["result"]["scores"] = [25, 0]
    found = messages(record)
    assert "result.winners is [1], expected [0]" in found
    assert "result.scores is [25, 0], expected [26, 0]" in found


def test_beehive_breaks_a_score_tie() -> None:
    record = scoring_record()
    assert check_record(record) == []
    record["result"]["winners"] = [0, 1]
    assert_caught(record, "result.winners is [0, 1], expected [0]")


def test_setup_faults_are_all_reported() -> None:
    record = scoring_record()
    setup = record["setup"]
    setup["path"][0] = setup["nursery"][0][0]
    setup["beds"][1][0]["side"] = "dark"
    setup["supply"]["cats"] = 19
    setup["gardener"]["value"] = 2
    del record["rules"]["turn_cap"]
    found = messages(record)
    assert "rules: missing key 'turn_cap'" in found
    record["rules"]["turn_cap"] = 500
    found = messages(record)
    assert f"setup: tile {setup['path'][0]!r} is dealt 2 times" in found
    assert "setup: tile '4D-1' is neither in the nursery nor on the path" in found
    assert "setup.beds[1]: the first bed must be light side up, the second dark" in found
    assert any("rules.cats_total is 60" in m for m in found)
    assert "setup.gardener.value is 2, rules say 5" in found


def test_corner_cat_count_follows_the_childs_age() -> None:
    corners = [{"seat": 0, "corner": [0, 0]}]
    record = RecordBuilder(players=3, children=[6, None, None], corner_cats=corners).unfinished()
    assert_caught(record, "expected 2 different corners")


def test_garbage_never_raises() -> None:
    assert check_record({}) != []
    assert check_record({"format": "cgsim.record/1", "players": 2}) != []
    record = scoring_record()
    record["turns"][0] = "nonsense"
    assert_caught(record, "turn is not an object")


@settings(max_examples=60, deadline=None)
@given(
    turn=st.integers(0, 5),
    position=st.integers(0, 40),
    key=st.sampled_from(["e", "bed", "cell", "cells", "tile", "from", "to", "why", "reason"]),
    value=st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 30),
        st.text(max_size=3),
        st.lists(st.integers(-1, 5), max_size=3),
    ),
)
def test_any_mutated_event_is_reported_not_raised(
    turn: int, position: int, key: str, value: Any
) -> None:
    record = stall_record() if turn else scoring_record()
    events = events_of(record, max(turn, 1))
    event = events[position % len(events)]
    original = copy.deepcopy(event)
    event[key] = value
    found = check_record(record)
    assert all(isinstance(v, Violation) for v in found)
    if key not in original and key != "e":
        return
    if original == {**original, "e": "cat", "why": "limit"} and key in ("bed", "cell"):
        return  # a cat over the limit may go on any empty cell: another one can be legal
    if original.get(key) != value and key in ("e", "bed", "cell", "cells", "tile", "from", "to"):
        assert found


def test_a_cat_over_the_limit_may_go_on_any_empty_cell_and_no_other() -> None:
    for bed, cell, allowed in [(1, [1, 0], True), (0, [1, 0], True), (1, [0, 2], False)]:
        record = scoring_record()
        event = events_of(record, 1)[29]
        assert (event["e"], event["why"]) == ("cat", "limit")
        event["bed"], event["cell"] = bed, cell
        found = check_record(record)
        assert (not found) if allowed else "is not empty" in found[0].message, (bed, cell, found)


# ---------------------------------------------------------------- reading and the command


def test_iter_records_reads_json_jsonl_and_zst(tmp_path: Path) -> None:
    record = scoring_record()
    (tmp_path / "one.json").write_text(json.dumps(record))
    (tmp_path / "many.jsonl").write_text(json.dumps(record) + "\n\n" + json.dumps(record) + "\n")
    data = (json.dumps(record) + "\n").encode() * 3
    (tmp_path / "many.jsonl.zst").write_bytes(zstandard.ZstdCompressor().compress(data))
    assert [
        len(list(iter_records(tmp_path / n))) for n in ("one.json", "many.jsonl", "many.jsonl.zst")
    ] == [1, 2, 3]


@pytest.mark.parametrize(
    ("name", "content", "fragment"),
    [
        ("bad.json", "{not json", "bad.json: not JSON"),
        (
            "bad.jsonl",
            '{"format": "cgsim.record/1"}\n{"format": "x"}\n',
            "bad.jsonl: record 2: format",
        ),
        ("bad.txt", "{}", "unknown file type"),
        ("bad.jsonl.zst", "not zstd", "cannot read records"),
    ],
)
def test_unreadable_input_raises_record_error(
    tmp_path: Path, name: str, content: str, fragment: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(RecordError, match=fragment):
        list(iter_records(path))


def test_check_command_reports_and_exits(tmp_path: Path) -> None:
    good, bad = scoring_record(), scoring_record()
    bad["result"]["winners"] = [1]
    events_of(bad)[0]["cell"] = [0, 0]
    (tmp_path / "good.jsonl").write_text(json.dumps(good) + "\n")
    (tmp_path / "bad.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    runner = CliRunner()
    result = runner.invoke(app, ["check", str(tmp_path / "good.jsonl")])
    assert result.exit_code == 0
    assert "1 records checked, 1 valid" in result.output
    result = runner.invoke(
        app, ["check", str(tmp_path / "good.jsonl"), str(tmp_path / "bad.jsonl")]
    )
    assert result.exit_code == 1
    assert f"{tmp_path / 'bad.jsonl'}:record 2: turn 1 event 0: cat: cell [0, 0]" in result.output
    assert "2 records checked, 1 valid" in result.output
    quiet = runner.invoke(app, ["check", "--quiet", str(tmp_path / "bad.jsonl")])
    assert quiet.exit_code == 1
    assert "record 2" not in quiet.output
    broken = tmp_path / "broken.json"
    broken.write_text("[")
    result = runner.invoke(app, ["check", str(broken)])
    assert isinstance(result.exception, RecordError)


def test_violation_lines_stop_at_twenty() -> None:
    from cgsim.commands.check import violation_lines

    lines = violation_lines(Path("f.jsonl"), 3, [Violation(5, None, "x")] * 25)
    assert lines[0] == "f.jsonl:record 3: turn 5: x"
    assert lines[-1] == "f.jsonl:record 3: ... and 5 more violations"
    assert violation_lines(Path("f"), 1, [Violation(None, None, "y")]) == ["f:record 1: y"]


def test_default_catalogue_fixture_has_36_tiles() -> None:
    assert len(default_components()["tiles"]) == 36


# ---------------------------------------------------------------- engine-generated games

ENGINE_GAMES = [
    (1, {}, {}),
    (2, {}, {}),
    (3, {}, {}),
    (4, {}, {}),
    (2, {"children": [5, None]}, {}),
    (3, {"children": [None, 7, 6]}, {}),
    (4, {"children": [5, 5, None, 6]}, {}),
    (2, {}, {"cat_limit": 0, "start_cats": 4}),
    (3, {}, {"refill_mandatory": 2, "ramble_cost": 2, "start_cats": 3, "discard_below": 5}),
    (4, {}, {"bonus_red_line_cat": False, "bonus_start_pot": False, "turn_cap": 60}),
]


def random_game_record(
    players: int, variant: dict[str, Any], overrides: dict[str, Any], seed: int
) -> dict[str, Any]:
    """A record of uniformly random legal play, written by the engine."""
    import random

    from cgsim.games.registry import get_game

    game = get_game("cottage-garden")
    rules = game.make_rules(players, overrides, None, variant)
    state = game.new_game(rules, seed)
    recorder = game.recorder(rules, seed, [{"bot": "random", "params": {}}] * players, state)
    rng = random.Random(seed)
    while not game.is_terminal(state):
        action = rng.choice(list(game.legal_actions(state)))
        after = game.apply(state, action)
        recorder.step(state, action, after)
        state = after
    record: dict[str, Any] = recorder.finish(state)
    return record


@pytest.mark.parametrize(("players", "variant", "overrides"), ENGINE_GAMES)
def test_engine_records_pass_the_checker(
    players: int, variant: dict[str, Any], overrides: dict[str, Any]
) -> None:
    pytest.importorskip("cgsim.games.cottage.game")
    for seed in (11, 12):
        record = random_game_record(players, variant, overrides, seed)
        assert check_record(record) == [], (players, variant, overrides, seed)
