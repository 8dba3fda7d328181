"""The compatibility matrix: its cells come from the declarations, its all-pairs slice
covers every pair of dimension values, and a cell fails loudly on any error, record
violation or missing compiled build. The slice itself is played here (``make test``);
``make matrix`` plays the full product."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
import toygame
from buggy_bots import site
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.errors import ConfigError
from cgsim.games import compiled
from cgsim.games.registry import game_names, get_game
from cgsim.play.bot_registry import known_bots
from cgsim.play.config import validate_config
from cgsim.play.limits import MAX_SEED
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for
from cgsim.play.storage import read_records
from cgsim.studies import matrix_play
from cgsim.studies.matrix import (
    BACKENDS,
    BUILDS,
    ISOLATION,
    Cell,
    all_pairs,
    cell_seed,
    covering,
    full_matrix,
    pairs,
)
from cgsim.studies.matrix_play import Outcome, check_records, play_matrix, table

TESTS = Path(__file__).resolve().parent
PLUGIN_SITE = TESTS / "plugin_site"
"""A folder holding the tests' plugin bots as an installed distribution would."""


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game registered and the tests' plugin bots installed."""
    toygame.register()
    monkeypatch.syspath_prepend(str(PLUGIN_SITE))


rows = st.integers(1, 4).flatmap(
    lambda width: st.lists(
        st.tuples(*[st.integers(0, 3)] * width), min_size=1, max_size=40, unique=True
    )
)


@given(rows, st.lists(st.floats(0.1, 100.0), min_size=40, max_size=40))
@settings(max_examples=60, deadline=None)
def test_the_covering_holds_every_pair_any_row_holds(
    table_rows: list[tuple[int, ...]], costs: list[float]
) -> None:
    chosen = covering(table_rows, costs.__getitem__)
    assert chosen == sorted(set(chosen))
    wanted = set().union(*(pairs(row) for row in table_rows))
    assert set().union(*(pairs(table_rows[index]) for index in chosen)) == wanted
    for index in chosen:  # none is redundant
        others = set().union(*(pairs(table_rows[o]) for o in chosen if o != index))
        assert not pairs(table_rows[index]) <= others
    assert covering(table_rows, costs.__getitem__) == chosen


def test_pairs_are_tagged_by_dimension() -> None:
    assert pairs(("a", 1, True)) == {(0, "a", 1, 1), (0, "a", 2, True), (1, 1, 2, True)}


@pytest.mark.usefixtures("plugins")
def test_the_cells_are_every_declared_setup_of_every_bot_of_every_game() -> None:
    cells = full_matrix()
    assert len(cells) == len(set(cells))
    bots = known_bots()
    assert "plugin-bot" in bots
    expected = set()
    assert {"cottage-garden", "kitchen-garden", "toy"} <= set(game_names())
    for game in game_names():
        players = [name for name, (cls, _) in bots.items() if cls.plays(game)]
        for setup in get_game(game).info.setups:
            for bot in players:
                for isolate in ISOLATION:
                    for build in BUILDS:
                        for backend in BACKENDS:
                            expected.add(Cell(game, setup.name, bot, isolate, build, backend))
    assert set(cells) == expected
    games_of = {(cell.bot, cell.game) for cell in cells}
    assert ("plugin-bot", "toy") in games_of and ("plugin-bot", "cottage-garden") not in games_of
    assert ("kitchen-search", "cottage-garden") not in games_of
    assert ("study", "kitchen-garden") not in games_of
    setups = {(cell.game, cell.setup) for cell in cells}
    assert ("cottage-garden", "2 players, a child of 5") in setups
    assert ("cottage-garden", "solo") in setups and ("toy", "solo") in setups


@pytest.mark.usefixtures("plugins")
def test_the_all_pairs_slice_covers_every_pair_of_the_full_matrix() -> None:
    cells = full_matrix()
    chosen = all_pairs(cells)
    assert set(chosen) <= set(cells)
    wanted = set().union(*(pairs(cell.values()) for cell in cells))
    assert set().union(*(pairs(cell.values()) for cell in chosen)) == wanted
    assert len(chosen) < len(cells) / 4
    # Each bot meets each of its game's setups in one cell at least: the slice's floor.
    floor = len({(cell.bot, cell.game, cell.setup) for cell in cells})
    assert floor <= len(chosen)


def test_a_compiled_cell_without_the_compiled_build_fails_loudly() -> None:
    code = (
        "from cgsim.studies.matrix_play import build_problem; "
        "print(build_problem('compiled')); print(build_problem('pure'))"
    )
    env = {**os.environ, compiled.PURE_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    compiled_line, pure_line = done.stdout.splitlines()
    assert compiled_line.startswith("the compiled build was asked for, but ")
    assert compiled_line.endswith(f"runs pure Python ({compiled.PURE_ENV} is set)")
    assert pure_line == "None"


def test_a_cell_whose_bot_fails_fails_with_the_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    toygame.register()
    dist = tmp_path / "crashing-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: crashing\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[cgsim.bots]\ncrash = toygame:Crash\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    cells = [Cell("toy", "2 players", "crash", False, "pure", "local")]
    (outcome,) = play_matrix(cells, 1, 1, 1)
    assert not outcome.passed
    assert outcome.problem is not None
    run_seed = cell_seed(cells[0], 1)
    assert outcome.problem.startswith(f"1 of 1 games ended in error; game 0 (run seed {run_seed}, ")
    assert outcome.problem.endswith(
        "), seat 0 (crash): ValueError: boom; turn 0, decision 1; "
        f"at {site(toygame.Crash.misbehave, 'raise')} (from {site(toygame.Faulty.choose, 'misbehave')})"
    )
    lines = list(table([outcome], 1.0))
    assert "FAIL 1 of 1 games ended in error; game 0" in lines[1]
    assert lines[-1] == "1 cells: 0 passed, 1 failed; 1 games in 1 s"


def test_a_record_breaking_the_rules_fails_its_cell(tmp_path: Path) -> None:
    config = validate_config(
        {
            "name": "one",
            "game": "cottage-garden",
            "seats": ["random", "random"],
            "games": 1,
            "workers": 1,
            "records": True,
            "out": str(tmp_path),
        }
    )
    run_games(config, plan_for(config, "run"), progress=False)
    (record,) = read_records(tmp_path / "one")
    assert check_records("cottage-garden", [record]) is None
    record["result"]["scores"][0] += 1
    problem = check_records("cottage-garden", [record])
    assert problem is not None and problem.startswith("record 1: ")


def test_the_cli_lists_cells_and_refuses_a_bad_registration() -> None:
    runner = CliRunner()
    listed = runner.invoke(app, ["matrix", "--all-pairs", "--list"])
    assert listed.exit_code == 0, listed.output
    lines = listed.stdout.splitlines()
    assert lines[-1] == f"{len(lines) - 1} cells"
    assert "cottage-garden | 2 players, a child of 5 | study | " in listed.stdout
    bad = runner.invoke(app, ["matrix", "--list", "--register", "toy"])
    assert isinstance(bad.exception, ConfigError)
    assert str(bad.exception) == "--register 'toy': expected NAME=module:attribute"
    missing = runner.invoke(app, ["matrix", "--list", "--register", "nope=no_such_mod:GAME"])
    assert isinstance(missing.exception, ConfigError)
    assert str(missing.exception).startswith("--register 'nope=no_such_mod:GAME': cannot load ")
    assert "nope" not in game_names()


@pytest.mark.usefixtures("plugins")
def test_the_all_pairs_slice_passes() -> None:
    """Every cell of the slice: every bot, game, setup, isolation, build and backend, each
    pair of them in one cell at least; one game per cell."""
    cells = all_pairs(full_matrix())
    start = time.perf_counter()
    outcomes = play_matrix(cells, 1, 1, 2)
    failed = [f"{o.cell.label}: {o.problem}" for o in outcomes if not o.passed]
    assert not failed, "\n".join(
        [
            *failed,
            f"{len(failed)} of {len(cells)} cells failed in {time.perf_counter() - start:.0f} s",
        ]
    )


def test_every_pair_of_dimensions_is_a_pair_of_cell_values() -> None:
    cell = Cell("g", "s", "b", True, "pure", "dask")
    assert len(pairs(cell.values())) == len(list(combinations(range(6), 2)))


def test_the_cli_prints_the_table_and_exits_1_on_a_failed_cell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def play(cells: list[Cell], games: int, seed: int, workers: int, heard: Any) -> list[Outcome]:
        outcomes = [Outcome(cell, games, 0.5, None) for cell in cells]
        outcomes[-1] = Outcome(cells[-1], games, 0.5, "game 0 ended in error")
        for outcome in outcomes:
            heard(outcome)
        return outcomes

    monkeypatch.setattr(matrix_play, "play_matrix", play)
    result = CliRunner().invoke(app, ["matrix", "--all-pairs", "--games", "3"])
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == [
        *("game", "setup", "bot", "isolation", "build", "backend", "games", "seconds", "result")
    ]
    assert lines[-2] == "" and lines[-1].startswith(
        f"{len(lines) - 3} cells: {len(lines) - 4} passed, 1 failed; "
    )
    assert lines[-3].endswith("3      0.5  FAIL game 0 ended in error")
    assert f"[{len(lines) - 3}/{len(lines) - 3}] FAIL " in result.stderr


def test_each_cell_deals_games_of_its_own() -> None:
    cells = [Cell("g", "s", bot, True, "pure", "dask") for bot in ("a", "b")]
    seeds = [cell_seed(cell, 1) for cell in cells]
    assert seeds[0] != seeds[1] and seeds == [cell_seed(cell, 1) for cell in cells]
    assert cell_seed(cells[0], 2) != seeds[0]
    assert all(0 <= seed <= MAX_SEED for seed in seeds)
