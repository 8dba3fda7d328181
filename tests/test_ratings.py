"""Ratings: planted strengths come out in order, intervals resample whole blocks."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from results_fixtures import GameSpec, planted_specs, ranks_of

from cgsim.reporting.ratings import (
    ELO_PER_LOG_STRENGTH,
    UnknownAnchorError,
    pairwise_outcomes,
    rate_bots,
)


def seat_rows(specs: Sequence[GameSpec]) -> pl.DataFrame:
    """Seat rows (game_id, block, bot, rank) of synthetic games."""
    rows = []
    for game_id, spec in enumerate(specs):
        block = game_id if spec.block is None else spec.block
        for bot, rank in zip(spec.seats, ranks_of(spec.scores), strict=True):
            rows.append({"game_id": game_id, "block": block, "bot": bot, "rank": rank})
    return pl.DataFrame(
        rows, schema={"game_id": pl.Int64, "block": pl.Int64, "bot": pl.String, "rank": pl.Float64}
    )


def two_player(
    outcomes: list[tuple[str, str, float, float]], blocks: list[int] | None = None
) -> pl.DataFrame:
    rows = []
    for game_id, (a, b, score_a, score_b) in enumerate(outcomes):
        block = game_id if blocks is None else blocks[game_id]
        for bot, rank in zip((a, b), ranks_of([score_a, score_b]), strict=True):
            rows.append({"game_id": game_id, "block": block, "bot": bot, "rank": rank})
    return pl.DataFrame(
        rows, schema={"game_id": pl.Int64, "block": pl.Int64, "bot": pl.String, "rank": pl.Float64}
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ratings_order_matches_planted_strengths(players: int) -> None:
    strengths = {"strong": 10.0, "good": 4.0, "fair": -2.0, "weak": -10.0}
    seats = seat_rows(planted_specs(strengths, players=players, blocks=25, seed=players))
    ratings = rate_bots(seats, n_bootstrap=50)
    assert ratings["bot"].to_list() == ["strong", "good", "fair", "weak"]
    assert ratings["rating"].sum() == pytest.approx(0.0, abs=1e-6)
    strong, weak = ratings.row(0, named=True), ratings.row(3, named=True)
    assert strong["low"] > weak["high"]


def test_rating_difference_is_elo_of_the_win_odds() -> None:
    games = [("a", "b", 1.0, 0.0)] * 60 + [("a", "b", 0.0, 1.0)] * 40
    ratings = rate_bots(two_player(games), n_bootstrap=0)
    gap = ratings["rating"][0] - ratings["rating"][1]
    assert gap == pytest.approx(400 * math.log10(1.5), abs=0.5)
    assert ratings["low"].is_null().all()


def test_ties_count_half_each_way() -> None:
    games = [("a", "b", 5.0, 5.0)] * 10
    outcomes = pairwise_outcomes(two_player(games))
    assert outcomes["wins"].sum() == pytest.approx(10.0)
    ratings = rate_bots(two_player(games), n_bootstrap=20)
    assert ratings["rating"].to_list() == pytest.approx([0.0, 0.0], abs=1e-6)


def test_an_unbeaten_bot_gets_a_finite_rating() -> None:
    ratings = rate_bots(two_player([("a", "b", 1.0, 0.0)] * 10), n_bootstrap=30)
    assert ratings["bot"][0] == "a"
    assert all(math.isfinite(v) for v in ratings["rating"].to_list() + ratings["high"].to_list())


def test_anchor_sits_at_zero_without_interval() -> None:
    seats = seat_rows(planted_specs({"x": 5.0, "y": 0.0, "z": -5.0}, blocks=10))
    centred = rate_bots(seats, n_bootstrap=40)
    anchored = rate_bots(seats, anchor="z", n_bootstrap=40)
    row = anchored.filter(pl.col("bot") == "z").row(0, named=True)
    assert row["rating"] == 0.0 and row["low"] is None and row["high"] is None
    shift = centred.filter(pl.col("bot") == "z")["rating"][0]
    joined = centred.join(anchored, on="bot", suffix="_anchored")
    np.testing.assert_allclose(joined["rating"] - shift, joined["rating_anchored"], atol=1e-6)


def test_unknown_anchor_is_a_user_error() -> None:
    with pytest.raises(UnknownAnchorError, match=r"'nobody'.*x, y"):
        rate_bots(seat_rows(planted_specs({"x": 1.0, "y": 0.0}, blocks=2)), anchor="nobody")


def test_same_bot_in_two_seats_is_not_compared_with_itself() -> None:
    seats = two_player([("a", "a", 1.0, 0.0), ("a", "b", 1.0, 0.0)])
    outcomes = pairwise_outcomes(seats)
    assert set(zip(outcomes["bot"], outcomes["opponent"], strict=True)) == {("a", "b"), ("b", "a")}


def test_single_bot_or_single_block_degrades_without_interval() -> None:
    solo = rate_bots(two_player([("a", "a", 1.0, 0.0)] * 3), n_bootstrap=20)
    assert solo["rating"].to_list() == [0.0]
    assert solo["low"].is_null().all()
    one_block = rate_bots(two_player([("a", "b", 1.0, 0.0), ("a", "b", 0.0, 2.0)], blocks=[4, 4]))
    assert one_block["low"].is_null().all() and one_block.height == 2


def test_no_seats_gives_an_empty_table() -> None:
    empty = pl.DataFrame(
        schema={"game_id": pl.Int64, "block": pl.Int64, "bot": pl.String, "rank": pl.Float64}
    )
    assert rate_bots(empty).is_empty()


def test_bootstrap_intervals_are_deterministic_for_a_seed() -> None:
    seats = seat_rows(planted_specs({"x": 3.0, "y": 0.0, "z": -3.0}, blocks=12, seed=4))
    first = rate_bots(seats, seed=7, n_bootstrap=60)
    assert first.equals(rate_bots(seats, seed=7, n_bootstrap=60))
    assert not first.equals(rate_bots(seats, seed=8, n_bootstrap=60))


def test_bootstrap_resamples_whole_blocks() -> None:
    """Each game copied five times inside its block adds no information: the block
    bootstrap keeps the interval of the original games, a per-game bootstrap would not."""
    base = planted_specs({"x": 4.0, "y": 0.0}, blocks=30, seed=2)
    copies = [spec for spec in base for _ in range(5)]
    seats = seat_rows(copies)
    blocked = rate_bots(seats, n_bootstrap=200, seed=1)
    per_game = rate_bots(
        seats.with_columns(pl.col("game_id").alias("block")), n_bootstrap=200, seed=1
    )
    original = rate_bots(seat_rows(base), n_bootstrap=200, seed=1)

    def width(table: pl.DataFrame) -> float:
        row = table.filter(pl.col("bot") == "x").row(0, named=True)
        return float(row["high"] - row["low"])

    assert width(blocked) > 1.6 * width(per_game)
    assert width(blocked) == pytest.approx(width(original), rel=0.35)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.booleans()), min_size=1, max_size=30
    )
)
def test_ratings_are_centred_and_finite(games: list[tuple[int, int, bool]]) -> None:
    names = "abcd"
    outcomes = [(names[i], names[j], float(win), float(not win)) for i, j, win in games if i != j]
    if not outcomes:
        return
    ratings = rate_bots(two_player(outcomes), n_bootstrap=5)
    assert ratings["rating"].sum() == pytest.approx(0.0, abs=1e-6)
    assert all(math.isfinite(v) for v in ratings["rating"])


def test_elo_scale_constant() -> None:
    assert ELO_PER_LOG_STRENGTH * math.log(10.0) == pytest.approx(400.0)
