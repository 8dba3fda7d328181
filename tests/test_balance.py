"""Balance metrics: per-game measures, planted seat bias, predictors, flags, both games,
and a game that gets its balance sections from its declaration alone."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import toygame

from cgsim.api import simulate
from cgsim.games.contract import Breakdown, Column, ColumnType, Comparison, Frequency, Schema
from cgsim.games.registry import get_game
from cgsim.play.config import load_config, resolve_rules, validate_config
from cgsim.play.results import ResultsError
from cgsim.reporting.balance import (
    balance_tables,
    comparison_table,
    frequency_table,
    seat_advantage,
    win_predictors,
)
from cgsim.reporting.balance_page import write_balance_report
from cgsim.reporting.metrics import (
    game_metrics,
    is_rate,
    schema_of,
    seat_fairness,
    summarize_metrics,
)

SYNTHETIC = Schema(
    seats=(
        Column("pots_taken", ColumnType.INT, "pots taken", Breakdown.ECONOMY),
        Column("rambles", ColumnType.INT, "rambles", Breakdown.COUNT),
    )
)
"""The declaration of :func:`synthetic`'s game."""


def synthetic(games: int, seat0_edge: float, seed: int = 0) -> dict[str, pl.DataFrame]:
    """Two-seat games, one per block; seat 0 wins with probability 0.5 + seat0_edge.
    The winner took more pots (a planted predictor)."""
    rng = np.random.default_rng(seed)
    game_rows, seat_rows = [], []
    for g in range(games):
        winner = 0 if rng.random() < 0.5 + seat0_edge else 1
        game_rows.append(
            {
                "game_id": g,
                "block": g,
                "seed": 1000 + g,
                "players": 2,
                "turns": 60 + g % 5,
                "end": "normal",
                "winners": [winner],
            }
        )
        for seat in range(2):
            won = seat == winner
            seat_rows.append(
                {
                    "game_id": g,
                    "block": g,
                    "seat": seat,
                    "bot": "x",
                    "players": 2,
                    "score": 50.0 + (5.0 if won else 0.0) + float(rng.integers(0, 3)),
                    "rank": 1.0 if won else 2.0,
                    "win_share": 1.0 if won else 0.0,
                    "end": "normal",
                    "pots_taken": int(rng.integers(0, 3)) + (4 if won else 0),
                    "rambles": int(rng.integers(0, 3)),
                }
            )
    return {"games": pl.DataFrame(game_rows), "seats": pl.DataFrame(seat_rows)}


def test_game_metrics_has_one_row_per_game_with_the_measures() -> None:
    tables = synthetic(50, 0.0)
    metrics = game_metrics(tables["games"], tables["seats"], SYNTHETIC)
    assert metrics.height == 50
    for column in (
        "seat0_win_rate",
        "seat1_win_rate",
        "mean_score",
        "margin",
        "tie_rate",
        "turns",
        "pots_taken",
        "rambles",
        "aborted_rate",
    ):
        assert column in metrics.columns
    assert (metrics["seat0_win_rate"] + metrics["seat1_win_rate"] == 1.0).all()
    assert metrics["margin"].to_numpy().min() >= 3.0  # winner +5, noise 0..2


def test_a_planted_seat_advantage_is_flagged_and_a_fair_game_is_not() -> None:
    biased = balance_tables(synthetic(400, 0.15), SYNTHETIC)
    seats = biased["balance_seat_advantage"]
    assert seats.filter(pl.col("seat") == 0)["unfair"].item()
    assert biased["balance_flags"]["measure"].str.contains("seat 0").any()
    fair = seat_advantage(synthetic(400, 0.0, seed=3)["seats"])
    assert not fair["unfair"].any()


def test_seat_fairness_is_the_largest_distance_from_a_fair_share() -> None:
    tables = synthetic(200, 0.1, seed=1)
    metrics = game_metrics(tables["games"], tables["seats"], SYNTHETIC)
    share = float(metrics["seat0_win_rate"].to_numpy().mean())
    assert seat_fairness(metrics) == pytest.approx(abs(share - 0.5))
    summary = summarize_metrics(metrics, SYNTHETIC)
    assert "seat_fairness" in summary["metric"].to_list()


def test_the_planted_predictor_of_winning_is_found_first() -> None:
    table = win_predictors(synthetic(200, 0.0)["seats"], ["pots_taken", "rambles"])
    top = table.row(0, named=True)
    assert top["choice"] == "pots_taken"
    assert top["low"] > 0.0


def test_only_declared_columns_are_measured() -> None:
    tables = synthetic(20, 0.0)
    undeclared = game_metrics(tables["games"], tables["seats"], Schema())
    assert "pots_taken" not in undeclared.columns and "rambles" not in undeclared.columns
    rate = Schema(games=(Column("rounds", ColumnType.BOOL, "rounds", Breakdown.RATE),))
    assert is_rate("rounds", rate) and not is_rate("rounds", Schema())
    assert is_rate("seat0_win_rate", Schema()) and not is_rate("mean_score", Schema())


def schema_for(config: str | dict[str, object]) -> Schema:
    """What the game of a config declares (as the runner stamps it into the manifest)."""
    loaded = load_config(config) if isinstance(config, str) else validate_config(config)
    return get_game(loaded.game).schema(resolve_rules(loaded))


def test_balance_of_real_cottage_and_kitchen_runs(tmp_path: Path) -> None:
    cottage = simulate("configs/smoke.toml", games=12, workers=1)
    names = balance_tables(cottage, schema_for("configs/smoke.toml"))
    for name in (
        "balance_seat_advantage",
        "balance_outcome",
        "balance_beds_means",
        "balance_beds_comparison",
        "balance_tiles_frequency",
        "balance_economy",
        "balance_flags",
    ):
        assert name in names
    assert "final_round_turns" in names["balance_outcome"]["metric"].to_list()
    kitchen_config: dict[str, object] = {
        "name": "k",
        "game": "kitchen-garden",
        "players": 3,
        "games": 6,
        "seed": 2,
        "seats": ["random", "random", "kitchen-greedy"],
    }
    kitchen = simulate(kitchen_config, workers=1)
    tables = balance_tables(kitchen, schema_for(kitchen_config))
    assert "balance_task_win_rate" in tables
    assert "balance_skill_depth" in tables
    assert "attack_on_runner_up" in tables["balance_outcome"]["metric"].to_list()
    for found in (names, tables):
        assert {"balance_luck_skill", "balance_drama", "balance_ludii"} <= set(found)
        assert "lead_changes" in found["balance_drama"]["metric"].to_list()
    run = tmp_path / "run"
    simulate("configs/smoke.toml", games=4, workers=1, out=run)
    paths = write_balance_report(run / "smoke")
    markdown = paths["markdown"].read_text()
    assert "Seat advantage" in markdown and "## Components: beds" in markdown
    assert paths["html"].read_text().startswith("<!DOCTYPE html>")


def test_the_toy_game_gets_its_sections_from_its_declaration(tmp_path: Path) -> None:
    toygame.register()
    config = {
        "name": "toy",
        "game": "toy",
        "players": 2,
        "seats": [toygame.target(toygame.Greedy), f"{toygame.target(toygame.Wanderer)}:bias=0.3"],
        "games": 40,
        "seed": 4,
    }
    simulate(config, workers=1, out=tmp_path)
    paths = write_balance_report(tmp_path / "toy")
    economy = pl.read_csv(paths["balance_economy"])
    assert economy["measure"].to_list() == ["passes"]
    parity = pl.read_csv(paths["balance_parity_win_rate"])
    assert set(parity["parity"].to_list()) <= {"odd", "even"} and parity.height >= 1
    moves = pl.read_csv(paths["balance_moves_frequency"])
    assert moves.columns == ["take", "count", "per_game"]
    assert moves["take"].to_list() == [3]
    outcome = pl.read_csv(paths["balance_outcome"])
    assert "exact_hits" in outcome["metric"].to_list()
    predictors = pl.read_csv(paths["balance_win_predictors"])
    assert set(predictors["choice"].to_list()) <= {"takes", "passes"}
    markdown = paths["markdown"].read_text()
    for title in ("## Economy", "## Win rate by parity", "## Components: moves"):
        assert title in markdown
    assert "passes: turns passed" in markdown and "exact_hits: seats that hit" in markdown


def test_a_run_without_a_declared_schema_keeps_the_generic_sections(tmp_path: Path) -> None:
    simulate("configs/smoke.toml", games=4, workers=1, out=tmp_path)
    manifest_path = tmp_path / "smoke" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    assert schema_of(manifest).tables
    del manifest["schema"]
    manifest_path.write_text(json.dumps(manifest))
    paths = write_balance_report(tmp_path / "smoke")
    assert "balance_seat_advantage" in paths and "balance_economy" not in paths
    assert "declares no column schema" in paths["markdown"].read_text()
    manifest_path.write_text(json.dumps(manifest | {"schema": {"games": [{"name": "x"}]}}))
    with pytest.raises(ResultsError, match=r"manifest\.json: schema is malformed"):
        write_balance_report(tmp_path / "smoke")


def test_frequency_counts_rows_per_game_and_the_feature() -> None:
    tiles = pl.DataFrame(
        {
            "kind": ["1A", "1A", "4B", "4B", "4B"],
            "size": [1, 1, 4, 4, 4],
            "covered": [0, 1, 0, 0, 2],
        }
    )
    table = frequency_table(tiles, Frequency("kind", ("size",), "covered"), games=5)
    assert table.columns == ["kind", "size", "count", "per_game", "covered_share", "mean_covered"]
    rows = {row["kind"]: row for row in table.iter_rows(named=True)}
    assert rows["1A"]["count"] == 2 and rows["1A"]["per_game"] == 0.4
    assert rows["1A"]["covered_share"] == 0.5
    assert rows["4B"]["covered_share"] == pytest.approx(1 / 3)
    assert rows["4B"]["mean_covered"] == pytest.approx(2 / 3)
    assert frequency_table(pl.DataFrame(), Frequency("kind"), games=1).is_empty()


SIDES = Comparison(
    group="board",
    between="side",
    measures=(("points", ("pots", "cloches")), ("turns_to_complete", ("turns_to_complete",))),
)


def test_comparisons_do_not_depend_on_the_row_order() -> None:
    rng = np.random.default_rng(3)
    rows = 4000
    beds = pl.DataFrame(
        {
            "game_id": np.arange(rows) // 8,
            "block": np.arange(rows) // 40,
            "board": rng.integers(1, 3, rows),
            "side": rng.choice(["dark", "light"], rows),
            "pots": rng.integers(0, 7, rows),
            "cloches": rng.integers(0, 4, rows),
            "turns_to_complete": rng.integers(3, 30, rows),
        }
    )
    first = comparison_table(beds, SIDES)
    assert first.height == 4
    assert first.columns[:3] == ["board", "measure", "side"]
    assert first["side"].unique().to_list() == ["dark - light"]
    for seed in range(3):
        shuffled = beds.sample(fraction=1.0, shuffle=True, seed=seed)
        assert comparison_table(shuffled, SIDES).equals(first)
    assert comparison_table(beds.drop("cloches"), SIDES).is_empty()
