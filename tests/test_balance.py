"""Balance metrics: per-game measures, planted seat bias, predictors, flags, both games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from cgsim.api import simulate
from cgsim.reporting.balance import (
    balance_tables,
    game_metrics,
    seat_advantage,
    seat_fairness,
    side_differences,
    summarize_metrics,
    win_predictors,
    write_balance_report,
)


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
    metrics = game_metrics(tables["games"], tables["seats"])
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
    biased = balance_tables(synthetic(400, 0.15))
    seats = biased["balance_seat_advantage"]
    assert seats.filter(pl.col("seat") == 0)["unfair"].item()
    assert biased["balance_flags"]["measure"].str.contains("seat 0").any()
    fair = seat_advantage(synthetic(400, 0.0, seed=3)["seats"])
    assert not fair["unfair"].any()


def test_seat_fairness_is_the_largest_distance_from_a_fair_share() -> None:
    tables = synthetic(200, 0.1, seed=1)
    metrics = game_metrics(tables["games"], tables["seats"])
    share = float(metrics["seat0_win_rate"].to_numpy().mean())
    assert seat_fairness(metrics) == pytest.approx(abs(share - 0.5))
    summary = summarize_metrics(metrics)
    assert "seat_fairness" in summary["metric"].to_list()


def test_the_planted_predictor_of_winning_is_found_first() -> None:
    table = win_predictors(synthetic(200, 0.0)["seats"])
    top = table.row(0, named=True)
    assert top["choice"] == "pots_taken"
    assert top["low"] > 0.0


def test_balance_of_real_cottage_and_kitchen_runs(tmp_path: Path) -> None:
    cottage = simulate("configs/smoke.toml", games=12, workers=1)
    names = balance_tables(cottage)
    for name in (
        "balance_seat_advantage",
        "balance_outcome",
        "balance_components",
        "balance_bonus",
        "balance_flags",
    ):
        assert name in names
    kitchen = simulate(
        {
            "name": "k",
            "game": "kitchen-garden",
            "players": 3,
            "games": 6,
            "seed": 2,
            "seats": ["random", "random", "kitchen-greedy"],
        },
        workers=1,
    )
    tables = balance_tables(kitchen)
    assert "balance_task_win_rate" in tables
    assert "balance_skill_depth" in tables
    run = tmp_path / "run"
    simulate("configs/smoke.toml", games=4, workers=1, out=run)
    paths = write_balance_report(run / "smoke")
    assert "Seat advantage" in paths["markdown"].read_text()
    assert paths["html"].read_text().startswith("<!DOCTYPE html>")


def test_tile_kind_balance_counts_takes_and_covering() -> None:
    from cgsim.reporting.balance import tile_kind_balance

    tiles = pl.DataFrame(
        {
            "kind": ["1A", "1A", "4B", "4B", "4B"],
            "size": [1, 1, 4, 4, 4],
            "covered": [0, 1, 0, 0, 2],
        }
    )
    table = tile_kind_balance(tiles, games=5)
    rows = {row["kind"]: row for row in table.iter_rows(named=True)}
    assert rows["1A"]["taken"] == 2 and rows["1A"]["taken_per_game"] == 0.4
    assert rows["1A"]["covers_share"] == 0.5
    assert rows["4B"]["covers_share"] == pytest.approx(1 / 3)
    assert rows["4B"]["mean_covered"] == pytest.approx(2 / 3)
    assert tile_kind_balance(pl.DataFrame(), games=1).is_empty()


def test_side_differences_do_not_depend_on_the_row_order() -> None:
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
    first = side_differences(beds)
    assert first.height == 4
    for seed in range(3):
        assert side_differences(beds.sample(fraction=1.0, shuffle=True, seed=seed)).equals(first)
