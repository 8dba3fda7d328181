"""Runs that grow: a larger ``games`` extends a finished run into the run planned that
large from the start, byte for byte, and never replays what it has."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import polars as pl
import pytest
import toygame
from cli_helpers import assert_refused, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from cgsim.play.config import RunConfig, validate_config
from cgsim.play.results import load_tables
from cgsim.play.runner import ResumeError, RunResult, run_games
from cgsim.play.schedules import plan_for
from cgsim.play.storage import ResultsStore

toygame.register()
GREEDY = toygame.target(toygame.Greedy)
WANDERER = toygame.target(toygame.Wanderer)
Command = Literal["run", "tournament"]


def make_config(out: Path, **fields: Any) -> RunConfig:
    base: dict[str, Any] = {
        "name": "grown",
        "game": "toy",
        "players": 2,
        "seats": [WANDERER, f"{WANDERER}:bias=0.3"],
        "bots": [GREEDY, WANDERER, f"{WANDERER}:bias=0.5"],
        "games": 100,
        "chunk_size": 30,
        "seed": 7,
        "workers": 1,
        "records": True,
        "out": out,
    }
    return validate_config(base | fields)


def run(config: RunConfig, command: Command = "run") -> RunResult:
    return run_games(config, plan_for(config, command), progress=False)


def files(results: Path) -> dict[str, bytes]:
    """Every table chunk and record file, by path inside the results folder."""
    return {
        p.relative_to(results).as_posix(): p.read_bytes()
        for pattern in ("*.parquet/chunk-*.parquet", "records/*")
        for p in results.glob(pattern)
    }


def same_tables(one: Path, other: Path) -> None:
    """Equal tables, wall times aside (no two runs take the same time)."""
    first, second = load_tables(one), load_tables(other)
    assert first.keys() == second.keys()
    for name in first:
        a, b = first[name].sort("game_id"), second[name].sort("game_id")
        if name == "games":
            a, b = a.drop("wall_time"), b.drop("wall_time")
        assert a.equals(b), name


@pytest.mark.parametrize("command", ["run", "tournament"])
def test_a_run_grown_from_100_to_200_games_is_the_run_of_200(
    tmp_path: Path, command: Command
) -> None:
    grown = make_config(tmp_path / "grown")
    pilot = run(grown, command)
    assert pilot.status == "complete"
    before = files(grown.results_dir)
    pilot_games = load_tables(grown.results_dir)["games"]
    extended = run(make_config(tmp_path / "grown", games=200), command)
    whole = make_config(tmp_path / "whole", games=200)
    run(whole, command)

    planned = len(plan_for(whole, command).schedule)
    assert (extended.status, extended.games_done) == ("complete", planned)
    assert extended.games_played == planned - pilot.games_done  # nothing replayed
    same_tables(grown.results_dir, whole.results_dir)
    after, direct = files(grown.results_dir), files(whole.results_dir)
    assert after.keys() == direct.keys()
    for name, payload in after.items():  # games files hold wall times
        if not name.startswith("games."):
            assert payload == direct[name], name
    # The pilot's full chunks are not touched; its short last chunk is completed with
    # its games as they were (wall times included).
    full = pilot.games_done // grown.chunk_size
    kept = [name for name in before if int(name.split("chunk-")[1][:6]) < full]
    assert kept and all(after[name] == before[name] for name in kept)
    grown_games = load_tables(grown.results_dir)["games"]
    assert grown_games.filter(pl.col("game_id") < pilot.games_done).equals(pilot_games)
    manifest = json.loads((grown.results_dir / "manifest.json").read_text())
    assert manifest["games_planned"] == manifest["games_done"] == planned
    assert manifest["config"]["games"] == 200 and manifest["status"] == "complete"
    assert manifest["timings"]["games_played"] == planned


def test_a_run_on_a_chunk_boundary_grows_by_new_chunks_only(tmp_path: Path) -> None:
    config = make_config(tmp_path, games=60)
    run(config)
    before = files(config.results_dir)
    grown = run(make_config(tmp_path, games=90))
    assert (grown.games_played, grown.games_done) == (30, 90)
    after = files(config.results_dir)
    assert all(after[name] == payload for name, payload in before.items())
    assert len(after) == len(before) + len(before) // 2


def test_a_run_does_not_shrink(tmp_path: Path) -> None:
    run(make_config(tmp_path, games=40))
    with pytest.raises(ResumeError, match=r"holds a run of 40 games.*at least 40.*--fresh"):
        run(make_config(tmp_path, games=20))
    assert load_tables(make_config(tmp_path).results_dir)["games"].height == 40


def test_an_interrupted_extension_is_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = make_config(tmp_path / "grown", games=40)
    run(config)

    def stop(self: ResultsStore, index: int, *args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(ResultsStore, "write_chunk", stop)
        stopped = run(make_config(tmp_path / "grown", games=100))
    assert stopped.status == "interrupted"
    # Games 30..39 wait in partial/ with the new ones; the tables are readable meanwhile.
    assert stopped.games_done == 30 and stopped.games_partial >= 10
    assert load_tables(config.results_dir)["games"].height == 30
    resumed = run(make_config(tmp_path / "grown", games=100))
    assert resumed.status == "complete"
    assert resumed.games_played == 100 - 30 - stopped.games_partial
    whole = make_config(tmp_path / "whole", games=100)
    run(whole)
    same_tables(config.results_dir, whole.results_dir)


def test_a_reopened_chunk_is_completed_from_partial(tmp_path: Path) -> None:
    """A run killed after reopening its short chunk, before the manifest names the new
    count: the next run, of either count, finds every game in ``partial/``."""
    config = make_config(tmp_path / "grown", games=40)
    run(config)
    store = ResultsStore(config.results_dir)
    store.reopen_chunk(1)
    assert store.done_chunks() == {0}
    assert load_tables(config.results_dir)["games"].height == 30
    assert run(make_config(tmp_path / "grown", games=40)).games_played == 0
    whole = make_config(tmp_path / "whole", games=40)
    run(whole)
    same_tables(config.results_dir, whole.results_dir)


@settings(max_examples=60, deadline=None)
@given(
    command=st.sampled_from(["run", "tournament"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**40),
    small=st.integers(1, 300),
    more=st.integers(0, 300),
)
def test_the_games_of_a_smaller_run_begin_every_larger_one(
    command: Command, players: int, seed: int, small: int, more: int
) -> None:
    """What extension rests on: a game's deal, bot seed and seats depend on its id and the
    run seed only, never on the number of games."""
    seats = [GREEDY, WANDERER, f"{WANDERER}:bias=0.5", f"{WANDERER}:bias=0.9"][:players]
    fields = {"players": players, "seats": seats, "seed": seed}
    one = plan_for(make_config(Path("out"), games=small, **fields), command).schedule
    two = plan_for(make_config(Path("out"), games=small + more, **fields), command).schedule
    assert len(one) <= len(two)
    assert all(one.spec(game_id) == two.spec(game_id) for game_id in range(len(one)))


def test_the_same_command_with_more_games_extends_and_reports_again(tmp_path: Path) -> None:
    config = tmp_path / "pilot.toml"
    config.write_text(
        f'game = "toy"\nplayers = 2\nseats = ["{GREEDY}", "{WANDERER}"]\ngames = 6\n'
        f"chunk_size = 4\nworkers = 1\nout = '{tmp_path}'\n"
    )
    assert run_cli(["run", str(config)]).code == 0
    report = tmp_path / "pilot" / "report.md"
    assert "6 in tables (6 done of 6 planned)" in report.read_text()
    grown = run_cli(["run", str(config), "--games", "10"])
    assert grown.code == 0, grown.err
    assert "run complete: 10/10 games" in grown.out and "played 4 games" in grown.out
    assert "10 in tables (10 done of 10 planned)" in report.read_text()
    assert_refused(run_cli(["run", str(config), "--games", "8"]), "holds a run of 10 games")
