"""Luck versus skill: a planted deal effect and a planted bot edge are found; a null
setup (no effect) does not pass for the deal deciding."""

from __future__ import annotations

import numpy as np
import polars as pl

from cgsim.games.contract import Schema
from cgsim.reporting.balance import balance_tables
from cgsim.reporting.luck import deal_decides, luck_skill, skill_share, skill_share_table


def duplicate_run(
    blocks: int, deal_sd: float, bot_edge: float, noise_sd: float, seed: int = 0
) -> pl.DataFrame:
    """Two-player duplicate blocks: each deal played twice with the bots swapped; a seat's
    score is deal + bot edge (bot ``a``) + noise, the higher score wins."""
    rng = np.random.default_rng(seed)
    rows = []
    game = 0
    for b in range(blocks):
        deal = rng.normal(0.0, deal_sd, size=2)  # the deal favours one seat
        for seating in (("a", "b"), ("b", "a")):
            scores = [
                deal[s] + (bot_edge if bot == "a" else 0.0) + rng.normal(0.0, noise_sd)
                for s, bot in enumerate(seating)
            ]
            for s, bot in enumerate(seating):
                won = scores[s] > scores[1 - s]
                rows.append(
                    {
                        "game_id": game,
                        "block": b,
                        "seat": s,
                        "bot": bot,
                        "players": 2,
                        "score": scores[s],
                        "win_share": 1.0 if won else 0.0,
                    }
                )
            game += 1
    return pl.DataFrame(rows)


def test_deal_that_decides_everything_is_found() -> None:
    table = luck_skill(duplicate_run(150, 10.0, 0.0, 0.5), n_resamples=100)
    assert deal_decides(table, "win_share") == [2]
    deal = table.filter((pl.col("value") == "score") & (pl.col("component") == "deal"))
    assert deal["low"].item() > 0.9


def test_pure_noise_does_not_pass_for_the_deal() -> None:
    table = luck_skill(duplicate_run(150, 0.0, 0.0, 1.0, seed=3), n_resamples=100)
    assert deal_decides(table, "win_share") == []
    assert deal_decides(table, "score") == []


def test_skill_share_finds_a_stronger_bot_and_none_in_a_coin_flip() -> None:
    assert (skill_share(duplicate_run(100, 0.0, 3.0, 1.0)) or 0.0) > 0.9
    coin = skill_share(duplicate_run(300, 0.0, 0.0, 1.0, seed=5))
    assert coin is not None and abs(coin - 0.5) < 0.1


def test_shares_sum_to_one() -> None:
    table = luck_skill(duplicate_run(40, 1.0, 1.0, 1.0), n_resamples=20)
    sums = table.group_by("value").agg(pl.col("share").sum())
    assert np.allclose(sums["share"].to_numpy(), 1.0)


def _component(table: pl.DataFrame, value: str, component: str) -> dict[str, float]:
    return table.filter((pl.col("value") == value) & (pl.col("component") == component)).row(
        0, named=True
    )


def test_a_far_stronger_bot_takes_the_bot_share_and_the_skill_share() -> None:
    seats = duplicate_run(120, 1.0, 4.0, 1.0, seed=7)
    table = luck_skill(seats, n_resamples=60)
    for value in ("score", "win_share"):
        assert _component(table, value, "bot")["low"] > 0.3
    shares = skill_share_table(seats)
    assert shares["players"].to_list() == [2]
    assert shares["low"].item() > 0.9


def test_equal_bots_leave_a_bot_share_whose_interval_covers_zero() -> None:
    seats = duplicate_run(150, 1.0, 0.0, 1.0, seed=11)
    table = luck_skill(seats, n_resamples=100)
    for value in ("score", "win_share"):
        bot = _component(table, value, "bot")
        assert bot["low"] <= 0.0 <= bot["high"], bot
    shares = skill_share_table(seats)
    assert shares["low"].item() <= 0.5 <= shares["high"].item()


def _games_of(seats: pl.DataFrame) -> pl.DataFrame:
    """The games table of a synthetic run: the seats that won, every game ended normally."""
    return (
        seats.group_by("game_id", maintain_order=True)
        .agg(
            pl.col("block").first(),
            pl.col("players").first(),
            pl.col("seat").filter(pl.col("win_share") > 0).alias("winners"),
        )
        .with_columns(
            (pl.col("game_id") + 100).alias("seed"),
            pl.lit(40).alias("turns"),
            pl.lit("normal").alias("end"),
        )
    )


def test_balance_shows_luck_and_flags_a_game_the_deal_decides() -> None:
    decided = duplicate_run(100, 10.0, 0.0, 0.5, seed=2)
    decided = decided.with_columns(rank=2.0 - pl.col("win_share"), end=pl.lit("normal"))
    tables = balance_tables({"games": _games_of(decided), "seats": decided}, Schema())
    assert {"balance_luck_skill", "balance_skill_share"} <= set(tables)
    assert tables["balance_flags"]["reason"].str.contains("mostly the deal").any()
    noise = duplicate_run(100, 0.0, 0.0, 1.0, seed=4)
    noise = noise.with_columns(rank=2.0 - pl.col("win_share"), end=pl.lit("normal"))
    quiet = balance_tables({"games": _games_of(noise), "seats": noise}, Schema())
    assert not quiet["balance_flags"]["reason"].str.contains("mostly the deal").any()
