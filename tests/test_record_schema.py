"""Each game's record schema: one structure check before any replay or check, naming
the game and the field; and the replay and check boundaries that turn the rest into
``RecordError``."""

from __future__ import annotations

import ast
import copy
import re
from pathlib import Path
from typing import Any

import pytest

from cgsim.errors import RecordError
from cgsim.games import checkers, recordio, shapes
from cgsim.games.cottage import record as cottage_record
from cgsim.games.cottage import rules as cottage_rules
from cgsim.games.kitchen import record as kitchen_record
from cgsim.games.registry import get_game

ROOT = Path(__file__).resolve().parents[1]
COTTAGE = list(recordio.iter_records(ROOT / "tests/golden/records.jsonl.zst"))
KITCHEN = list(recordio.iter_records(ROOT / "tests/golden-kitchen/records.jsonl.zst"))
Record = dict[str, Any]


def cottage(index: int = 4) -> Record:
    return copy.deepcopy(COTTAGE[index])


def kitchen(index: int = 1) -> Record:
    return copy.deepcopy(KITCHEN[index])


def first(record: Record, kind: str) -> tuple[int, int, Record]:
    """(turn counted from 1, event index, event) of the first event of a kind."""
    for number, turn in enumerate(record["turns"], start=1):
        for index, event in enumerate(turn["events"]):
            if event["e"] == kind:
                return number, index, event
    raise AssertionError(kind)


def refused(game: str, record: Any) -> str:
    """The message of both refusals, the engine's and the checker's, which must agree."""
    with pytest.raises(RecordError) as engine:
        get_game(game).validate_record(record)
    with pytest.raises(RecordError) as checker:
        checkers.check_record(record, "f.json")
    assert str(checker.value) == f"f.json: {engine.value}" or "rules" in str(engine.value)
    return str(engine.value)


def test_every_golden_record_fits_its_schema() -> None:
    for record in COTTAGE:
        get_game("cottage-garden").validate_record(record)
        checkers.validate_structure(record)
    for record in KITCHEN:
        get_game("kitchen-garden").validate_record(record)
        checkers.validate_structure(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(seed="seven"), "seed must be an integer, got 'seven'"),
        (lambda r: r.update(seed=1.5), "seed must be an integer, got 1.5"),
        (lambda r: r.update(setup=None), "setup must be an object, got None"),
        (lambda r: r.update(game="chess"), "game must be 'cottage-garden', got 'chess'"),
        (lambda r: r.update(players=True), "players must be an integer, got True"),
        (
            lambda r: r["rules"].update(cubes=10**18),
            "rules.cubes must be 1..15, got 1000000000000000000",
        ),
        (lambda r: r["rules"].pop("turn_cap"), "rules misses the field 'turn_cap'"),
        (lambda r: r["setup"]["nursery"].pop(), "setup.nursery must have 4 items, got 3"),
        (
            lambda r: r["setup"]["corner_cats"].append({"seat": 0, "corner": [1]}),
            "setup.corner_cats[0].corner must be a list of 2 items, got [1]",
        ),
        (
            lambda r: r["components"]["tiles"]["1A-1"].update(features=[]),
            "components.tiles.1A-1.features must be an object, got []",
        ),
        (lambda r: r["turns"][3].update(seat=9), "turn 4: seat must be 0..3, got 9"),
        (lambda r: r["turns"].append([]), "turn 67 must be an object, got []"),
    ],
)
def test_cottage_fields_are_named(change: Any, message: str) -> None:
    record = cottage()
    change(record)
    assert refused("cottage-garden", record) == f"cottage-garden record: {message}"


def test_a_cell_out_of_the_bed_names_turn_event_and_field() -> None:
    record = cottage()
    number, index, event = first(record, "take_pot")
    event["cell"] = [10**19, 0]
    assert refused("cottage-garden", record) == (
        f"cottage-garden record: turn {number} event {index}: cell[0] must be 0..4, "
        "got 10000000000000000000"
    )
    event["e"] = "teleport"
    assert refused("cottage-garden", record).endswith(
        f"turn {number} event {index}: e must name a known kind, got 'teleport' (known: "
        "penalty, refill, take_tile, take_pot, cat, pass, score, move, gain_cat, bonus_pot, "
        "beehive, cleanup, discard_bed, return_cats, gardener)"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(seed="seven"), "seed must be an integer, got 'seven'"),
        (lambda r: r.update(game="chess"), "game must be 'kitchen-garden', got 'chess'"),
        (lambda r: r.update(setup=None), "setup must be an object, got None"),
        (lambda r: r["rules"].update(turn_cap=10**9), "rules.turn_cap must be 0..100000"),
        (
            lambda r: r["setup"]["specials"]["crow"].append(7),
            "setup.specials.crow[1] must be a seat 0..3",
        ),
        (lambda r: r["result"].update(scores=[1.0, "x"]), "result.scores[1] must be a number"),
        (lambda r: r.pop("result"), "the record misses the field 'result'"),
        (lambda r: r["turns"][0]["events"].append({"e": "harvest"}), "turn 1 event "),
    ],
)
def test_kitchen_fields_are_named(change: Any, message: str) -> None:
    record = kitchen()
    change(record)
    assert refused("kitchen-garden", record).startswith(f"kitchen-garden record: {message}")


def test_rules_go_through_the_settings_validation_with_its_ranges() -> None:
    record = kitchen()
    record["rules"]["deal"] = 40  # inside the format's bounds, outside the game's range
    with pytest.raises(RecordError) as error:
        get_game("kitchen-garden").validate_record(record)
    assert str(error.value) == (
        "kitchen-garden record: rules: rules.deal = 40: allowed an integer from 0 to 30"
    )
    record = cottage()
    record["rules"]["track_spaces"] = 18
    with pytest.raises(RecordError, match=r"^cottage-garden record: rules\.track_spaces = 18"):
        get_game("cottage-garden").validate_record(record)


def test_a_failure_the_engine_did_not_foresee_names_turn_and_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = 0
    original = cottage_rules.apply

    def failing(state: Any, action: int) -> Any:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise IndexError("tuple index out of range")
        return original(state, action)

    monkeypatch.setattr(cottage_record, "apply", failing)
    with pytest.raises(RecordError, match=r"^turn \d+ (start|event \d+): the engine cannot replay"):
        list(cottage_record.replay(cottage()))

    def broken(state: Any, action: Any, log: Any = None) -> Any:
        raise OverflowError("int too large")

    monkeypatch.setattr(kitchen_record, "apply", broken)
    with pytest.raises(
        RecordError,
        match=re.escape("turn 1 event 0: the engine cannot replay the record here (OverflowError"),
    ):
        list(kitchen_record.replay(kitchen()))


def test_a_checker_that_fails_is_a_record_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(record: Any) -> Any:
        raise KeyError("x")

    monkeypatch.setitem(checkers.CHECKERS, "cgsim.record/1", crash)
    with pytest.raises(RecordError, match=r"^f: the record cannot be checked \(KeyError: 'x'\)"):
        checkers.check_record(cottage(), "f")


def _imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("game", ["cottage", "kitchen"])
def test_the_schemas_import_nothing_of_the_engines_nor_the_checkers(game: str) -> None:
    path = ROOT / "cgsim" / "games" / game / "record_schema.py"
    for module in [*_imports(path), *_imports(ROOT / "cgsim" / "games" / "shapes.py")]:
        if module.startswith("cgsim"):
            assert module in ("cgsim.games.shapes", "cgsim.errors"), (path.name, module)


def test_shapes_say_where_in_a_record() -> None:
    assert shapes.location(("turns", 11, "events", 3, "cell", 0)) == "turn 12 event 3: cell[0]"
    assert shapes.location(("turns", 0, "n")) == "turn 1: n"
    assert shapes.location(("turns", 0)) == "turn 1"
    assert shapes.location(("setup", "beds", 1, 0, "side")) == "setup.beds[1][0].side"
    assert shapes.location(()) == "the record"
    assert shapes.shown("x" * 100) == "'" + "x" * 56 + "..."


@pytest.mark.parametrize(
    ("shape", "value", "message"),
    [
        (shapes.Int(0, 4), True, "must be an integer, got True"),
        (shapes.Num(0, 1), float("nan"), "must be 0..1, got nan"),
        (shapes.Str(3), "abcd", "must have at most 3 characters"),
        (shapes.ListOf(shapes.Bool(), 2, 2), [True], "must have 2 items, got 1"),
        (shapes.MapOf(shapes.Str(), shapes.Int(0, 1), 1), {"a": 0, "b": 1}, "at most 1 entries"),
        (shapes.OneOf((5, 6)), 5.0, "must be one of 5, 6, got 5.0"),
        (shapes.Either(shapes.Int(0, 3), shapes.strings("used"), "a seat or 'used'"), 9, "a seat"),
    ],
)
def test_each_shape_refuses_in_one_line(shape: shapes.Shape, value: Any, message: str) -> None:
    with pytest.raises(shapes.ShapeError, match=re.escape(message)):
        shape.check(value, ())
