"""Chunked, atomic, schema-stable tables; manifests; resume checks; records."""

from __future__ import annotations

import pickle
from pathlib import Path

import polars as pl
import pytest
import toygame

from cgsim.games.contract import LedRows, Row, TableRows
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.match import GameOutcome, play_game
from cgsim.play.storage import (
    Columns,
    ResultsStore,
    TableSchemas,
    chunk_name,
    read_records,
    resume_conflicts,
)

toygame.register()
GAME = toygame.GAME
RULES = GAME.make_rules(2, {})


def test_columns_from_rows_pad_missing_values() -> None:
    columns = Columns.from_rows([{"a": 1, "b": "x"}, {"a": 2, "c": [1]}])
    assert columns.count == 2
    assert columns.data == {"a": [1, 2], "b": ["x", None], "c": [None, [1]]}
    columns.extend(Columns.from_rows([{"d": 1.5}]))
    assert columns.data["a"] == [1, 2, None] and columns.data["d"] == [None, None, 1.5]
    assert columns.row(2) == {"a": None, "b": None, "c": None, "d": 1.5}
    copy = pickle.loads(pickle.dumps(columns))
    assert (copy.count, copy.data) == (columns.count, columns.data)


def outcomes(crash: bool = False) -> list[GameOutcome]:
    greedy = resolve_bot(toygame.target(toygame.Greedy), "toy")
    second = resolve_bot(toygame.target(toygame.Crash if crash else toygame.Wanderer), "toy")
    return [play_game(GAME, RULES, seed, [greedy, second], game_id=seed) for seed in (3, 1, 2)]


def test_the_declared_schema_keeps_error_chunks_compatible() -> None:
    schemas = TableSchemas.from_schema(GAME.schema(RULES))
    errors = outcomes(crash=True)
    games = schemas.frame("games", Columns.from_rows([o.game for o in errors]))
    assert games["game_id"].to_list() == [1, 2, 3]
    assert games.schema["rounds"] == pl.Int64 and games["rounds"].null_count() == 3
    assert games.schema["error_seat"] == pl.Int64 and games.schema["winners"] == pl.List(pl.Int64)
    normal = outcomes()
    finished = schemas.frame("games", Columns.from_rows([o.game for o in normal]))
    assert finished.schema == games.schema
    assert [c for c in finished.columns if c in ("rounds", "exact_hits")] == [
        "rounds",
        "exact_hits",
    ]
    seats = schemas.frame("seats", Columns.from_rows([r for o in normal for r in o.seats]))
    assert seats.select("game_id", "seat").rows() == [
        (1, 0),
        (1, 1),
        (2, 0),
        (2, 1),
        (3, 0),
        (3, 1),
    ]


def test_list_columns_match_plain_construction() -> None:
    schemas = TableSchemas()
    rows = [
        {"game_id": i, "seats": ["a", "b"][: i % 3], "winners": [i % 2] if i % 4 else []}
        for i in range(20)
    ]
    frame = schemas.frame("games", Columns.from_rows(rows))
    assert frame["seats"].to_list() == [row["seats"] for row in rows]
    assert frame["winners"].to_list() == [row["winners"] for row in rows]


def test_new_columns_extend_the_schema() -> None:
    schemas = TableSchemas()
    first = schemas.frame("beds", Columns.from_rows([{"game_id": 1, "pots": None}]))
    assert first.columns == ["game_id", "block", "seat", "bot"]
    second = schemas.frame("beds", Columns.from_rows([{"game_id": 2, "seat": 0, "pots": 3}]))
    assert second.columns == ["game_id", "block", "seat", "bot", "pots"]
    assert schemas.tables["beds"]["pots"] == pl.Int64


def frames_of(schemas: TableSchemas, game_id: int) -> dict[str, pl.DataFrame]:
    rows = Columns.from_rows([{"game_id": game_id, "end": "normal"}])
    seats = Columns.from_rows([{"game_id": game_id, "seat": 0}])
    return {"games": schemas.frame("games", rows), "seats": schemas.frame("seats", seats)}


def test_chunks_are_written_atomically_games_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ResultsStore(tmp_path / "run")
    order: list[str] = []
    original = ResultsStore._write_frame

    def spy(self: ResultsStore, table: str, index: int, frame: pl.DataFrame) -> None:
        order.append(table)
        original(self, table, index, frame)

    monkeypatch.setattr(ResultsStore, "_write_frame", spy)
    schemas = TableSchemas()
    store.write_chunk(3, frames_of(schemas, 7), records=['{"game_id": 7}'])
    assert order == ["seats", "games"]
    assert store.done_chunks() == {3}
    assert (store.path / "games.parquet" / chunk_name(3)).is_file()
    assert not list(store.path.rglob("*.tmp"))
    assert read_records(store.path) == [{"game_id": 7}]
    assert pl.read_parquet(store.path / "games.parquet" / chunk_name(3))["game_id"].to_list() == [7]


def test_failed_write_leaves_no_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = ResultsStore(tmp_path / "run")

    def broken(self: pl.DataFrame, target: Path, **kwargs: object) -> None:
        Path(target).write_text("partial")
        raise KeyboardInterrupt

    monkeypatch.setattr(pl.DataFrame, "write_parquet", broken)
    with pytest.raises(KeyboardInterrupt):
        store.write_chunk(0, frames_of(TableSchemas(), 1))
    assert store.done_chunks() == set()
    assert not list(store.path.rglob("*.tmp")) and not list(store.path.rglob("chunk-*"))


def test_clear_removes_only_what_a_run_wrote(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path / "run")
    store.write_chunk(0, frames_of(TableSchemas(), 1), records=["{}"])
    store.write_manifest({"name": "run"})
    (store.path / "report.md").write_text("kept")
    (store.path / "games.parquet" / ".chunk-000001.parquet.9.tmp").write_text("left over")
    assert store.has_data()
    store.remove_temporary_files()
    assert not list(store.path.rglob("*.tmp"))
    store.clear()
    assert sorted(p.name for p in store.path.iterdir()) == ["report.md"]
    assert store.read_manifest() is None and not store.has_data()


def test_resume_conflicts_ignore_the_worker_count() -> None:
    before = {"command": "run", "engine_version": "1", "config": {"seed": 1, "workers": 1}}
    assert resume_conflicts(before, {**before, "config": {"seed": 1, "workers": 8}}) == []
    changed = {"command": "run", "engine_version": "2", "config": {"seed": 2, "workers": 1}}
    conflicts = resume_conflicts(before, changed)
    assert conflicts == ["engine_version: '1' then, '2' now", "seed: 1 then, 2 now"]


def test_columns_of_rows_held_as_tuples_equal_those_of_the_same_rows_as_dicts() -> None:
    held = TableRows(("game_id", "seat", "size"), [(1, 0, 3), (1, 1, 4)])
    parts: list[list[Row] | TableRows] = [
        [{"game_id": 0, "seat": 0, "size": 2}],
        held,
        TableRows(("game_id", "seat", "size"), []),
        [{"game_id": 2, "seat": 1, "extra": True}],
        TableRows(("game_id", "seat", "late"), [(3, 0, "x")]),
    ]
    flat = [row for part in parts for row in part]
    columns = Columns.from_parts(parts)
    expected = Columns.from_rows(flat)
    assert columns.count == expected.count == 5
    assert columns.data == expected.data
    assert list(columns.data) == ["game_id", "seat", "size", "extra", "late"]
    assert Columns.from_parts([]).data == {} and Columns.from_parts([held]).count == 2


def test_led_rows_read_as_the_dicts_they_stand_for_and_pickle() -> None:
    table = TableRows(("kind", "seat", "size"), [("a", 1, 3), ("b", 0, 4)])
    header = ("game_id", "block", "seat", "bot", "kind", "size")
    led = LedRows(table, 7, 2, ["x", "y"], header, 1, [0, 2])
    rows = [
        {"game_id": 7, "block": 2, "seat": 1, "bot": "y", "kind": "a", "size": 3},
        {"game_id": 7, "block": 2, "seat": 0, "bot": "x", "kind": "b", "size": 4},
    ]
    assert len(led) == 2 and list(led) == rows and led == rows and led[-1] == rows[1]
    assert led[:1] == rows[:1] and list(led[0]) == list(rows[0])
    assert led != rows[:1] and led != 3 and repr(led) == f"LedRows({rows!r})"
    assert list(led.columns()) == list(rows[0])
    assert Columns.from_parts([led]).data == Columns.from_rows(rows).data
    again = pickle.loads(pickle.dumps(led))
    assert again == rows and again.names == led.names
