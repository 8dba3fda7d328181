"""The runner: every game once, identical for any worker count, resumable, fault-contained."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

import polars as pl
import pytest
import toygame
from buggy_bots import site

from cgsim.play import runner
from cgsim.play.config import RunConfig, validate_config
from cgsim.play.pool import Batch
from cgsim.play.results import ResultsError, load_tables
from cgsim.play.runner import ResumeError, RunResult, format_summary, run_games
from cgsim.play.schedules import plan_for
from cgsim.play.storage import ResultsStore, read_records

toygame.register()
GREEDY = toygame.target(toygame.Greedy)
WANDERER = toygame.target(toygame.Wanderer)
CRASH = toygame.target(toygame.Crash)


def make_config(out: Path, **fields: Any) -> RunConfig:
    base: dict[str, Any] = {
        "name": "trial",
        "game": "toy",
        "players": 2,
        "seats": [GREEDY, f"{WANDERER}:bias=0.3"],
        "games": 24,
        "chunk_size": 5,
        "seed": 3,
        "workers": 1,
        "out": out,
    }
    return validate_config(base | fields)


def run(
    config: RunConfig, command: Literal["run", "tournament"] = "run", **options: Any
) -> RunResult:
    plan = plan_for(config, command)
    return run_games(config, plan, progress=False, **options)


def tables(results: Path) -> dict[str, pl.DataFrame]:
    loaded = load_tables(results)
    loaded["games"] = loaded["games"].drop("wall_time")
    return loaded


def chunk_bytes(results: Path, pattern: str) -> dict[str, bytes]:
    return {p.relative_to(results).as_posix(): p.read_bytes() for p in results.glob(pattern)}


def test_every_game_exactly_once_with_a_manifest(tmp_path: Path) -> None:
    config = make_config(tmp_path)
    result = run(config)
    assert (result.status, result.games_done, result.games_played, result.errors) == (
        "complete",
        24,
        24,
        0,
    )
    data = tables(config.results_dir)
    assert data["games"]["game_id"].to_list() == list(range(24))
    assert data["seats"].height == 48
    assert data["moves"].height > 0
    assert len(list((config.results_dir / "games.parquet").glob("chunk-*.parquet"))) == 5
    manifest = json.loads((config.results_dir / "manifest.json").read_text())
    assert manifest["games_planned"] == manifest["games_done"] == 24
    assert manifest["engine_version"] == "toy-1" and manifest["run_seed"] == 3
    assert manifest["rules"]["rounds"] == 4 and manifest["finished"] is not None
    assert manifest["config"]["seats"][0]["bot"] == GREEDY


def test_identical_results_for_any_worker_count(tmp_path: Path) -> None:
    pool = [GREEDY, WANDERER, f"{WANDERER}:bias=0.5"]
    fields = {
        "players": 3,
        "seats": [],
        "bots": pool,
        "games": 60,
        "chunk_size": 16,
        "records": True,
    }
    one = make_config(tmp_path / "one", workers=1, **fields)
    two = make_config(tmp_path / "two", workers=2, **fields)
    run(one, "tournament")
    run(two, "tournament")
    first, second = tables(one.results_dir), tables(two.results_dir)
    assert first.keys() == second.keys() == {"games", "seats", "moves"}
    for name in first:
        assert first[name].equals(second[name]), name
    for pattern in ("seats.parquet/*", "moves.parquet/*", "records/*"):
        assert chunk_bytes(one.results_dir, pattern) == chunk_bytes(two.results_dir, pattern)
    assert read_records(one.results_dir)[5]["game_id"] == 5


def interrupt_after(monkeypatch: pytest.MonkeyPatch, chunks: int) -> None:
    original = ResultsStore.write_chunk
    written: list[int] = []

    def write_then_stop(self: ResultsStore, index: int, *args: Any, **kwargs: Any) -> None:
        if len(written) == chunks:
            raise KeyboardInterrupt
        written.append(index)
        original(self, index, *args, **kwargs)

    monkeypatch.setattr(ResultsStore, "write_chunk", write_then_stop)


def test_resume_after_an_interruption_gives_the_same_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = make_config(tmp_path / "whole")
    run(whole)
    parts = make_config(tmp_path / "parts")
    with monkeypatch.context() as patch:
        interrupt_after(patch, 2)
        stopped = run(parts)
    # Chunks 0 and 1 are written; chunk 2 was being written: its games wait in partial/.
    assert (stopped.status, stopped.games_done, stopped.games_partial) == ("interrupted", 10, 5)
    assert tables(parts.results_dir)["games"].height == 10
    assert (parts.results_dir / "partial" / "chunk-000002").is_dir()
    manifest = json.loads((parts.results_dir / "manifest.json").read_text())
    assert manifest["finished"] is None and manifest["status"] == "interrupted"
    assert (manifest["games_done"], manifest["games_partial"]) == (10, 5)
    assert "5 more kept for the next run" in format_summary(stopped)
    assert "resume" in format_summary(stopped)
    resumed = run(make_config(tmp_path / "parts", workers=2))
    assert resumed.status == "complete" and resumed.games_played == 9
    assert not list((parts.results_dir / "partial").iterdir())
    first, second = tables(whole.results_dir), tables(parts.results_dir)
    for name in first:
        assert first[name].equals(second[name]), name
    assert chunk_bytes(whole.results_dir, "seats.parquet/*") == chunk_bytes(
        parts.results_dir, "seats.parquet/*"
    )
    again = run(parts)
    assert (again.status, again.games_played, again.games_done) == ("complete", 0, 24)


def test_games_of_an_incomplete_chunk_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fields = {"games": 40, "chunk_size": 20, "records": True}
    whole = make_config(tmp_path / "whole", **fields)
    run(whole)
    parts = make_config(tmp_path / "parts", **fields)
    merged: list[int] = []
    original = Batch.extend

    def extend_then_stop(self: Batch, other: Batch) -> None:
        merged.append(other.games.count)
        if len(merged) == 2:
            raise KeyboardInterrupt
        original(self, other)

    with monkeypatch.context() as patch:
        patch.setattr(Batch, "extend", extend_then_stop)
        stopped = run(parts)
    kept = merged[0]
    assert (stopped.status, stopped.games_done, stopped.games_partial) == ("interrupted", 0, kept)
    assert 0 < kept < 20 and tables(parts.results_dir)["games"].height == 0
    resumed = run(parts)
    assert resumed.games_played == 40 - kept
    first, second = tables(whole.results_dir), tables(parts.results_dir)
    for name in first:
        assert first[name].equals(second[name]), name
    for pattern in ("seats.parquet/*", "records/*"):
        assert chunk_bytes(whole.results_dir, pattern) == chunk_bytes(parts.results_dir, pattern)


def test_partial_chunks_kept_while_playing_change_no_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fields = {"games": 30, "chunk_size": 20, "records": True}
    whole = make_config(tmp_path / "whole", **fields)
    run(whole)
    kept: list[int] = []
    original = ResultsStore.write_partial

    def spy(self: ResultsStore, index: int, *args: Any, **kwargs: Any) -> None:
        kept.append(index)
        original(self, index, *args, **kwargs)

    flushed = make_config(tmp_path / "flushed", **fields)
    with monkeypatch.context() as patch:
        patch.setattr(runner, "PARTIAL_EVERY", 0.0)  # keep partial chunks after every batch
        patch.setattr(ResultsStore, "write_partial", spy)
        run(flushed)
    assert len(kept) > 2 and not list((flushed.results_dir / "partial").iterdir())
    first, second = tables(whole.results_dir), tables(flushed.results_dir)
    assert all(first[name].equals(second[name]) for name in first)
    for pattern in ("seats.parquet/*", "moves.parquet/*", "records/*"):  # games: wall times
        assert chunk_bytes(whole.results_dir, pattern) == chunk_bytes(flushed.results_dir, pattern)


def test_resume_refuses_a_different_run(tmp_path: Path) -> None:
    config = make_config(tmp_path, games=4)
    run(config)
    with pytest.raises(ResumeError, match=r"seed: 3 then, 4 now.*--fresh"):
        run(make_config(tmp_path, games=4, seed=4))
    manifest_path = config.results_dir / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest_path.write_text(json.dumps(manifest | {"engine_version": "toy-0"}))
    with pytest.raises(ResumeError, match="engine_version: 'toy-0' then, 'toy-1' now"):
        run(config)
    fresh = run(make_config(tmp_path, games=4, seed=4), fresh=True)
    assert fresh.games_played == 4


def test_a_different_command_is_refused_before_playing(tmp_path: Path) -> None:
    config = make_config(tmp_path, games=4)
    ResultsStore(config.results_dir).write_manifest({"command": "tournament"})
    with pytest.raises(ResumeError) as refused:
        run(config)
    message = str(refused.value)
    assert message.startswith(f"{config.results_dir} holds a different run (command: ")
    assert message.endswith("use --fresh to start over, or another name or --out")
    assert not list(config.results_dir.glob("*.parquet"))


def test_an_unreadable_manifest_is_a_user_error(tmp_path: Path) -> None:
    config = make_config(tmp_path, games=4)
    config.results_dir.mkdir(parents=True)
    (config.results_dir / "manifest.json").write_text("{")
    with pytest.raises(ResultsError, match="cannot read"):
        run(config)


def test_results_without_a_manifest_are_not_overwritten(tmp_path: Path) -> None:
    config = make_config(tmp_path, games=4)
    run(config)
    (config.results_dir / "manifest.json").unlink()
    with pytest.raises(ResumeError, match="without a manifest"):
        run(config)


def test_faulty_bots_are_contained_and_counted(tmp_path: Path) -> None:
    pool = [GREEDY, WANDERER, f"{CRASH}:at=2", toygame.target(toygame.Cheat)]
    config = make_config(tmp_path, seats=[], bots=pool, games=12, workers=2)
    result = run(config, "tournament")
    assert result.status == "complete"
    games = tables(config.results_dir)["games"]
    assert games["game_id"].to_list() == list(range(12))
    errors = games.filter(pl.col("end") == "error")
    assert result.errors == errors.height == 10  # every pairing but greedy-wanderer
    crashed = (
        r"ValueError: boom; turn \d+, decision \d+; "
        rf"at {re.escape(site(toygame.Crash.misbehave, 'raise'))} "
        rf"\(from {re.escape(site(toygame.Faulty.choose, 'misbehave'))}\)"
    )
    cheated = (
        r"illegal action 99 \(take 99\), not among the \d+ legal actions; "
        rf"turn \d+, decision \d+; returned by {re.escape(site(toygame.Faulty.choose))}"
    )
    for row in errors.iter_rows(named=True):
        faulty = row["seats"][row["error_seat"]]
        assert faulty.startswith(("toygame:Crash", "toygame:Cheat"))
        assert re.fullmatch(crashed if "Crash" in faulty else cheated, row["error"]), row["error"]
        assert row["seed"] > 0 and row["rounds"] is None
    summary = format_summary(result)
    assert "10 ended in error" in summary and "first error: game" in summary


def test_time_limit_is_enforced_in_workers(tmp_path: Path) -> None:
    slow = {"bot": toygame.target(toygame.Slow), "params": {"delay": 30.0}}
    config = make_config(tmp_path, seats=[GREEDY, slow], games=2, time_limit=0.1)
    result = run(config)
    assert result.errors == 2
    reasons = tables(config.results_dir)["games"]["error"].to_list()
    assert all("exceeded the time limit of 0.1 s" in reason for reason in reasons)


def test_a_killed_worker_is_detected_and_its_games_retried(tmp_path: Path) -> None:
    marker = tmp_path / "killed-once"
    killer = {"bot": toygame.target(toygame.KillOnce), "params": {"marker": str(marker)}}
    killed = make_config(tmp_path / "killed", seats=[GREEDY, killer], games=14, workers=2)
    result = run(killed)
    assert marker.exists()
    assert (result.status, result.errors, result.games_done) == ("complete", 0, 14)
    calm = make_config(tmp_path / "calm", seats=[GREEDY, killer], games=14)
    run(calm)  # the marker exists now: nobody dies
    first, second = tables(killed.results_dir), tables(calm.results_dir)
    for name in first:
        assert first[name].equals(second[name]), name


def test_a_game_that_always_kills_its_worker_is_an_error(tmp_path: Path) -> None:
    config = make_config(tmp_path, seats=[GREEDY, toygame.target(toygame.KillAlways)], games=3)
    result = run(config)
    assert (result.status, result.errors, result.games_done) == ("complete", 3, 3)
    games = tables(config.results_dir)["games"]
    assert all("worker process died 2 times" in reason for reason in games["error"].to_list())
    for row in games.iter_rows(named=True):  # blamed on the bot that ended the process
        assert row["seats"][row["error_seat"]].startswith("toygame:KillAlways")
        assert "while this seat's bot was running (exit code 4)" in row["error"]


def test_fail_fast_stops_at_the_first_error(tmp_path: Path) -> None:
    config = make_config(tmp_path, seats=[GREEDY, CRASH], games=40)
    result = run(config, fail_fast=True)
    assert result.status == "stopped" and result.first_error is not None
    assert result.games_done < 40
    assert result.first_error["error"] == (
        f"ValueError: boom; turn 1, decision 2; at {site(toygame.Crash.misbehave, 'raise')} "
        f"(from {site(toygame.Faulty.choose, 'misbehave')})"
    )


def test_records_hold_the_finished_games_and_those_in_error_up_to_the_fault(
    tmp_path: Path,
) -> None:
    pool = [GREEDY, WANDERER, CRASH]
    config = make_config(tmp_path, seats=[], bots=pool, games=9, records=True)
    run(config, "tournament")
    records = read_records(config.results_dir)
    games = tables(config.results_dir)["games"]
    assert [record["game_id"] for record in records] == games["game_id"].to_list()
    assert all(record["format"] == "toy/1" for record in records)
    for record, row in zip(records, games.iter_rows(named=True), strict=True):
        if row["end"] != "error":
            assert "error" not in record
            continue
        seat = row["error_seat"]  # the crash is at its first decision: seat 0's or 1's
        fault = {"seat": seat, "reason": row["error"], "turn": seat, "decision": seat + 1}
        assert record["error"] == fault
        assert len(record["turns"]) == seat


def test_summary_lists_every_bot(tmp_path: Path) -> None:
    config = make_config(tmp_path, games=6)
    summary = format_summary(run(config))
    assert "run complete: 6/6 games" in summary
    assert GREEDY in summary and f"{WANDERER}:bias=0.3" in summary
    assert "win share" in summary and "mean score" in summary
