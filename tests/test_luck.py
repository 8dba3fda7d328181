"""Luck versus skill: a planted deal effect and a planted bot edge are found; a null
setup (no effect) does not pass for the deal deciding."""

from __future__ import annotations

import numpy as np
import polars as pl

from cgsim.reporting.luck import deal_decides, luck_skill, skill_share


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
