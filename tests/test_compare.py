"""Comparisons: a planted difference is found, identical setups report no change at the
stated false-positive rate, tolerances and paired/unpaired choice."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from cgsim.games.contract import Schema
from cgsim.studies.compare import (
    CompareInputError,
    FailOnError,
    Side,
    beyond_tolerance,
    compare_sides,
    compare_tables,
    format_table,
    parse_tolerances,
    run_compare,
    side_labels,
    weighted_quantile,
)


def tables(games: int, shift: float, seed: int, deal_seed: int = 0) -> dict[str, pl.DataFrame]:
    """Two-seat games whose scores are deal luck (shared by seed) + noise + ``shift``."""
    deals = np.random.default_rng(deal_seed).normal(50.0, 8.0, size=games)
    noise = np.random.default_rng(seed)
    game_rows, seat_rows = [], []
    for g in range(games):
        scores = [deals[g] + shift + noise.normal(0, 2.0) for _ in range(2)]
        winner = int(np.argmax(scores))
        game_rows.append(
            {
                "game_id": g,
                "block": g,
                "seed": 500 + g,
                "players": 2,
                "turns": 60,
                "end": "normal",
                "winners": [winner],
            }
        )
        for seat in range(2):
            seat_rows.append(
                {
                    "game_id": g,
                    "block": g,
                    "seat": seat,
                    "bot": "x",
                    "players": 2,
                    "score": float(round(scores[seat])),
                    "rank": 1.0 + (seat != winner),
                    "win_share": float(seat == winner),
                    "end": "normal",
                }
            )
    return {"games": pl.DataFrame(game_rows), "seats": pl.DataFrame(seat_rows)}


def row(table: pl.DataFrame, metric: str) -> dict[str, object]:
    return table.filter(pl.col("metric") == metric).row(0, named=True)


def test_a_planted_difference_in_mean_score_is_found_with_a_paired_interval() -> None:
    result = compare_tables(tables(100, 0.0, 1), tables(100, 1.5, 2), Schema())
    mean = row(result, "mean_score")
    assert mean["verdict"] == "changed"
    assert mean["test"] == "paired t on deal means"
    assert mean["low"] < 1.5 < mean["high"]  # type: ignore[operator]
    assert row(result, "score_q50")["test"] == "paired block bootstrap"
    assert "mean_score" in format_table(result)


def test_identical_setups_report_no_change_at_the_stated_rate() -> None:
    alarms = 0
    trials = 30
    for k in range(trials):
        result = compare_tables(tables(40, 0.0, 2 * k), tables(40, 0.0, 2 * k + 1), Schema())
        alarms += int((result["verdict"] == "changed").any())
    # Holm keeps the family-wise rate at 5%: expect about 1.5 alarms in 30.
    assert alarms <= 5


def test_without_shared_seeds_the_tests_are_unpaired() -> None:
    a = tables(60, 0.0, 1)
    b = tables(60, 0.0, 2, deal_seed=9)
    b = {**b, "games": b["games"].with_columns(pl.col("seed") + 10_000)}
    result = compare_sides(Side.of("a", a, Schema()), Side.of("b", b, Schema()))
    assert row(result, "mean_score")["test"] == "Welch t on deal means"
    assert row(result, "score_q50")["test"] == "block bootstrap"


def test_tolerances_parse_and_fail_only_when_the_whole_interval_is_beyond() -> None:
    assert parse_tolerances("mean_score:1.0, seat0_win_rate:0.02") == {
        "mean_score": 1.0,
        "seat0_win_rate": 0.02,
    }
    for bad in ("mean_score", "mean_score:-1", "mean_score:x", ""):
        with pytest.raises(FailOnError):
            parse_tolerances(bad)
    result = compare_tables(tables(100, 0.0, 1), tables(100, 3.0, 2), Schema())
    assert beyond_tolerance(result, {"mean_score": 1.0})
    assert not beyond_tolerance(result, {"mean_score": 5.0})
    with pytest.raises(FailOnError, match="available"):
        beyond_tolerance(result, {"nonsense": 1.0})


def test_weighted_quantile_matches_repetition() -> None:
    values = np.array([1.0, 2.0, 3.0, 4.0])
    weights = np.array([0.0, 2.0, 1.0, 1.0])
    repeated = np.array([2.0, 2.0, 3.0, 4.0])
    for q in (0.25, 0.5, 0.75):
        assert weighted_quantile(values, weights, q) == weighted_quantile(repeated, np.ones(4), q)


def test_an_empty_tolerance_list_is_a_clear_error() -> None:
    with pytest.raises(FailOnError, match="--fail-on: no metric:tolerance given"):
        parse_tolerances(" , ")


def test_a_metric_has_one_tolerance() -> None:
    assert parse_tolerances("turns:1,turns:1") == {"turns": 1.0}
    with pytest.raises(FailOnError, match="turns is given tolerances 1 and 2; give it one"):
        parse_tolerances("turns:1,mean_score:1,turns:2")


def test_sides_are_named_by_their_file_or_folder_and_kept_apart(tmp_path: Path) -> None:
    results = tmp_path / "run"
    results.mkdir()
    (results / "manifest.json").write_text("{}")
    assert side_labels(results, Path("configs/smoke.toml")) == ("run", "smoke")
    assert side_labels(Path("a/x.toml"), Path("b/x.toml")) == ("x-a", "x-b")


def test_two_results_directories_are_compared_without_playing(tmp_path: Path) -> None:
    from results_fixtures import planted_specs, write_results

    a = write_results(tmp_path / "a", planted_specs({"x": 0.0, "y": 1.0}, seed=1))
    b = write_results(tmp_path / "b", planted_specs({"x": 0.0, "y": 3.0}, seed=2))
    seen: list[str] = []
    done = run_compare(a, b, out=tmp_path / "cmp", progress=seen.append)
    assert done.labels == ("a", "b") and seen == []
    assert done.paths["csv"].read_text() == done.table.write_csv()
    assert any("shared deals" in note for note in done.notes)
    with pytest.raises(CompareInputError, match="no such file or results directory"):
        run_compare(a, tmp_path / "missing.toml", out=tmp_path / "cmp2")
