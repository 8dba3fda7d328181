"""``cgsim rerun``: any game of a run played again on its own, exactly, error games too."""

from __future__ import annotations

import json
import pdb
import re
from pathlib import Path
from types import TracebackType

import polars as pl
import pytest
import toygame
from cli_helpers import assert_refused, run_cli

from cgsim.play.rerun import differences, seat_differences
from cgsim.play.results import load_tables
from cgsim.play.storage import read_records

toygame.register()
UNLUCKY = toygame.target(toygame.Unlucky)
WANDERER = toygame.target(toygame.Wanderer)
GREEDY = toygame.target(toygame.Greedy)


def run_of(tmp_path: Path, seats: str, body: str = "", command: str = "run") -> Path:
    """The results folder of a toy run of 24 games with these seats (a TOML list)."""
    config = tmp_path / "luck.toml"
    config.write_text(
        f'game = "toy"\nplayers = 2\nseats = {seats}\ngames = 24\nchunk_size = 5\n'
        f"workers = 1\nrecords = true\nseed = 11\nout = '{tmp_path / 'results'}'\n{body}"
    )
    outcome = run_cli([command, str(config), "--no-report"])
    assert outcome.code in (0, 1), outcome.err
    return tmp_path / "results" / "luck"


def error_games(results: Path) -> pl.DataFrame:
    games = load_tables(results)["games"]
    failed = games.filter(pl.col("end") == "error")
    assert 0 < failed.height < games.height // 2, "the bot should fail on some games only"
    return failed


UNLUCKY_SEATS = f'["{WANDERER}:bias=0.2", "{UNLUCKY}:chance=0.05"]'


def test_rerun_reproduces_an_error_game(tmp_path: Path) -> None:
    results = run_of(tmp_path, UNLUCKY_SEATS)
    failed = error_games(results)
    assert set(failed["error_seat"]) == {0, 1}  # in both seatings of the rotation
    for row in failed.iter_rows(named=True):
        game_id, seat = row["game_id"], row["error_seat"]
        outcome = run_cli(["rerun", str(results), str(game_id)])
        assert outcome.code == 1, outcome.err
        # The same fault, at the same turn, after the same draws of the bot's generator.
        assert re.fullmatch(
            r"ValueError: unlucky draw 0\.\d{9} on turn (\d); turn \1, decision \d+; "
            r"at toygame\.py:\d+ in despair \(from toygame\.py:\d+ in choose\)",
            row["error"],
        )
        expected = f"game ended in error: seat {seat} ({row['seats'][seat]}): {row['error']}"
        assert expected in outcome.err
        assert f"the same result as the run's game {game_id}" in outcome.out


def test_rerun_of_a_clean_game_gives_the_run_row(tmp_path: Path) -> None:
    results = run_of(tmp_path, UNLUCKY_SEATS)
    failed = set(error_games(results)["game_id"])
    records = {record["game_id"]: record for record in read_records(results)}
    for game_id in [i for i in range(24) if i not in failed][:6]:
        record = tmp_path / f"game{game_id}.json"
        outcome = run_cli(["rerun", str(results), str(game_id), "--record", str(record)])
        assert outcome.code == 0, outcome.err
        assert f"the same result as the run's game {game_id}" in outcome.out
        assert json.loads(record.read_text()) == records[game_id]


def test_rerun_raises_the_fault_with_debug(tmp_path: Path) -> None:
    """The bot's own exception, with its traceback into the bot's code, ends the command."""
    results = run_of(tmp_path, UNLUCKY_SEATS)
    row = error_games(results).row(0, named=True)
    outcome = run_cli(["rerun", str(results), str(row["game_id"]), "--debug"])
    assert outcome.code == 1
    own = row["error"].split(";")[0]
    assert "Traceback (most recent call last)" in outcome.err
    assert outcome.err.rstrip().endswith(own)
    assert 'in despair\n    raise ValueError(f"unlucky draw' in outcome.err


def test_rerun_opens_the_debugger_in_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = run_of(tmp_path, UNLUCKY_SEATS)
    row = error_games(results).row(0, named=True)
    opened: list[TracebackType | None] = []
    monkeypatch.setattr(pdb, "post_mortem", opened.append)
    outcome = run_cli(["rerun", str(results), str(row["game_id"]), "--pdb"])
    assert outcome.code == 1
    assert "Traceback" in outcome.err and row["error"].split(";")[0] in outcome.err
    traceback = opened[0]
    assert traceback is not None
    while traceback.tb_next is not None:
        traceback = traceback.tb_next
    code = traceback.tb_frame.f_code
    assert (Path(code.co_filename).name, code.co_name) == ("toygame.py", "despair")


def test_rerun_reproduces_a_timeout_under_the_run_time_limit(tmp_path: Path) -> None:
    seats = f'["{WANDERER}", "{UNLUCKY}:chance=0.2,delay=2"]'
    results = run_of(tmp_path, seats, "time_limit = 0.05\n")
    row = error_games(results).row(0, named=True)
    assert row["error"].startswith("exceeded the time limit of 0.05 s (stopped after ")
    outcome = run_cli(["rerun", str(results), str(row["game_id"])])
    assert outcome.code == 1 and "time limit 0.05 s per decision" in outcome.err
    assert "exceeded the time limit of 0.05 s" in outcome.err
    assert f"the same result as the run's game {row['game_id']}" in outcome.out


def test_rerun_plays_a_tournament_game(tmp_path: Path) -> None:
    config = tmp_path / "pool.toml"
    config.write_text(
        f'game = "toy"\nplayers = 2\nbots = ["{GREEDY}", "{WANDERER}", "{WANDERER}:bias=0.5"]\n'
        f"games = 12\nworkers = 1\nout = '{tmp_path}'\n"
    )
    assert run_cli(["tournament", str(config), "--no-report"]).code == 0
    games = load_tables(tmp_path / "pool")["games"]
    for game_id in (0, 7, 11):
        outcome = run_cli(["rerun", str(tmp_path / "pool"), str(game_id)])
        assert outcome.code == 0, outcome.err
        assert f"the same result as the run's game {game_id}" in outcome.out
        assert ", ".join(games["seats"][game_id]) in outcome.err


def test_rerun_plays_a_game_of_a_playtest_session(tmp_path: Path) -> None:
    folder = tmp_path / "session"
    for _ in range(2):
        args = ["play", "--game", "toy", "--bots", f"{WANDERER},{GREEDY}", "--out", str(folder)]
        assert run_cli(args).code == 0
    outcome = run_cli(["rerun", str(folder), "1"])
    assert outcome.code == 0, outcome.err
    assert "the same result as the run's game 1" in outcome.out


def test_rerun_shows_records_and_pages_a_cottage_game(tmp_path: Path) -> None:
    config = tmp_path / "garden.toml"
    config.write_text(
        'players = 2\nseats = ["random", "random"]\ngames = 2\nworkers = 1\nrecords = true\n'
        f"out = '{tmp_path}'\n"
    )
    assert run_cli(["run", str(config), "--no-report"]).code == 0
    results = tmp_path / "garden"
    record, page = tmp_path / "game.json", tmp_path / "game.html"
    args = ["rerun", str(results), "1", "--show", "--record", str(record), "--html", str(page)]
    outcome = run_cli(args)
    assert outcome.code == 0, outcome.err
    assert "the same result as the run's game 1" in outcome.out
    assert "=== turn 1 ===" in outcome.out and page.is_file()
    assert json.loads(record.read_text()) == read_records(results)[1]


def test_rerun_refuses_what_it_cannot_play(tmp_path: Path) -> None:
    assert_refused(run_cli(["rerun", str(tmp_path), "0"]), "not a results directory")
    results = run_of(tmp_path, f'["{WANDERER}", "{GREEDY}"]')
    assert_refused(run_cli(["rerun", str(results), "24"]), "GAME_ID 24", "0 to 23")
    manifest = results / "manifest.json"
    data = json.loads(manifest.read_text())
    data["config"]["seed"] = 12
    manifest.write_text(json.dumps(data))
    assert_refused(run_cli(["rerun", str(results), "3"]), "game 3 was dealt seed", "exactly")


def test_play_takes_a_time_limit(tmp_path: Path) -> None:
    late = f"{UNLUCKY}:at=0,chance=1,delay=2"
    args = ["play", "--game", "toy", "--bots", f"{late},{WANDERER}", "--time-limit", "0.05"]
    outcome = run_cli(args)
    assert outcome.code == 1
    assert "seat 0" in outcome.err and "exceeded the time limit of 0.05 s" in outcome.err
    assert_refused(run_cli([*args[:-1], "-1"]), "--time-limit")
    quick = run_cli(["play", "--game", "toy", "--bots", WANDERER, "--time-limit", "5"])
    assert quick.code == 0, quick.err


def test_a_playtest_session_keeps_its_time_limit(tmp_path: Path) -> None:
    folder = tmp_path / "session"
    late = f"{UNLUCKY}:at=0,chance=1,delay=2"
    args = ["play", "--game", "toy", "--bots", f"{late},{WANDERER}", "--out", str(folder)]
    assert run_cli([*args, "--time-limit", "0.05"]).code == 1
    outcome = run_cli(["rerun", str(folder), "0"])
    assert outcome.code == 1 and "exceeded the time limit of 0.05 s" in outcome.err
    assert_refused(run_cli([*args, "--time-limit", "0.1"]), "time_limit: 0.05 then, 0.1 now")


def test_play_writes_the_game_page(tmp_path: Path) -> None:
    page = tmp_path / "game.html"
    outcome = run_cli(["play", "--bots", "random", "--seed", "4", "--html", str(page)])
    assert outcome.code == 0, outcome.err
    assert page.is_file() and f"viewer written to {page}" in outcome.out
    assert_refused(
        run_cli(["play", "--human", "0", "--html", str(page)]), "--human and --html", "replay"
    )


def test_rerun_names_what_differs_from_the_stored_game(tmp_path: Path) -> None:
    results = run_of(tmp_path, f'["{WANDERER}", "{GREEDY}"]')
    chunk = results / "seats.parquet" / "chunk-000001.parquet"
    seats = pl.read_parquet(chunk)
    changed = pl.col("game_id") == 6
    seats.with_columns(
        score=pl.when(changed & (pl.col("seat") == 1)).then(-1.0).otherwise(pl.col("score"))
    ).write_parquet(chunk)
    outcome = run_cli(["rerun", str(results), "6"])
    assert outcome.code == 0, outcome.err
    assert "differs from the run's game 6 in: seat 1: score" in outcome.out
    assert "the same result as the run's game 7" in run_cli(["rerun", str(results), "7"]).out


def test_differences_compare_every_column_but_the_wall_time() -> None:
    stored = {"game_id": 1, "seats": ["a", "b"], "turns": 8, "wall_time": 0.5, "x": None}
    played = {"game_id": 1, "seats": ("a", "b"), "turns": 9, "wall_time": 0.7}
    assert differences(stored, played) == ["turns"]
    assert differences(None, played) == []
    late = "exceeded the time limit of 0.05 s (stopped after {} s); turn 6, decision 6"
    assert differences({"error": late.format("0.051")}, {"error": late.format("0.064")}) == []
    assert differences({"error": late}, {"error": late.replace("turn 6", "turn 7")}) == ["error"]
    seats = [{"seat": 0, "score": 1.0}, {"seat": 1, "score": 2.0}]
    assert seat_differences(seats, [seats[0], {"seat": 1, "score": 3.0}]) == ["seat 1: score"]
    assert seat_differences(seats, seats[:1]) == ["1 seats against 2"]
