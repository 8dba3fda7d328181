"""The one interval helper of the report and balance: per-group block intervals, lazily."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from cgsim.reporting.intervals import interval_table
from cgsim.reporting.stats import block_mean_interval, block_proportion_interval


def frame(rows: int = 600, seed: int = 1) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    return pl.DataFrame(
        {
            "block": rng.integers(0, 40, rows),
            "seat": rng.integers(0, 3, rows),
            "value": rng.normal(10.0, 3.0, rows),
            "share": rng.integers(0, 2, rows).astype(float),
        }
    )


def test_each_group_matches_the_block_interval_of_its_values() -> None:
    data = frame()
    table = interval_table(data.lazy(), ["seat"], "value", "mean", rate=False)
    assert table["seat"].to_list() == [0, 1, 2]
    for row in table.iter_rows(named=True):
        part = data.filter(pl.col("seat") == row["seat"])
        expected = block_mean_interval(part["value"].to_numpy(), part["block"].to_numpy())
        assert row["games"] == part.height and row["blocks"] == expected.n
        assert row["mean"] == pytest.approx(expected.estimate, rel=1e-12)
        assert (row["low"], row["high"]) == pytest.approx((expected.low, expected.high))
    overall = interval_table(data, [], "share", "rate", rate=True).row(0, named=True)
    expected = block_proportion_interval(data["share"].to_numpy(), data["block"].to_numpy())
    assert overall["rate"] == pytest.approx(expected.estimate)
    assert 0.0 <= overall["low"] <= overall["rate"] <= overall["high"] <= 1.0


def test_the_answer_does_not_depend_on_the_row_order() -> None:
    # Whole-number values add up exactly within a block in any order, so any difference
    # would come from the order of the blocks, which the helper fixes.
    data = frame(seed=5).with_columns(pl.col("value").round(0))
    first = interval_table(data, ["seat"], "value", "mean", rate=False)
    for seed in range(3):
        shuffled = data.sample(fraction=1.0, shuffle=True, seed=seed)
        assert interval_table(shuffled, ["seat"], "value", "mean", rate=False).equals(first)


def test_missing_values_are_not_counted_and_empty_groups_are_left_out() -> None:
    data = pl.DataFrame(
        {"block": [0, 0, 1, 1, 2], "seat": [0, 0, 0, 1, 1], "value": [1.0, None, 3.0, None, None]}
    )
    table = interval_table(data, ["seat"], "value", "mean", rate=False)
    assert table.rows() == [(0, 2, 2, 2.0, table["low"][0], table["high"][0])]
    one_block = interval_table(data.filter(pl.col("block") == 0), [], "value", "m", rate=False)
    assert one_block.row(0, named=True) | {"m": 1.0} == {
        "games": 1,
        "blocks": 1,
        "m": 1.0,
        "low": None,
        "high": None,
    }
    empty = interval_table(data.head(0), ["seat"], pl.col("value") > 0, "share", rate=True)
    assert empty.is_empty() and empty.columns == ["seat", "games", "blocks", "share", "low", "high"]
