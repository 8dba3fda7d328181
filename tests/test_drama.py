"""Drama of a game from its running scores, and the run's drama and Ludii tables: planted
series give the stated columns; a run where the leader never changes has no drama and is
flagged, a coin-flip run is not."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
import pytest

from cgsim.games.drama import DRAMA_NAMES, Drama
from cgsim.reporting.drama import decided_early, drama_table, ludii_table


def drama_of(
    series: Sequence[Sequence[float]], winners: list[int], final_round: int | None = None
) -> dict[str, float | None]:
    """Columns of a game whose seats move in turn (seat = turn % seats)."""
    seats = len(series[0])
    drama = Drama([0.0] * seats)
    for turn, scores in enumerate(series):
        final = final_round is not None and turn >= final_round
        drama.observe(turn % seats, scores, final)
    return drama.columns(winners, series[-1])


def test_a_comeback_in_the_final_round() -> None:
    # Seat 0 leads until the final round, where seat 1 overtakes it.
    series = [(3, 0), (3, 1), (5, 1), (5, 2), (6, 2), (6, 9)]
    got = drama_of(series, [1], final_round=4)
    assert got["lead_changes"] == 1.0
    assert got["comeback"] == 4.0  # 6 - 2 after turn 5
    assert got["winner_led"] == pytest.approx(1 / 6)
    assert got["leader_25_won"] == 0.0 and got["leader_75_won"] == 0.0
    assert got["decided_final_round"] == 1.0
    assert got["kingmaker"] is None  # two seats
    assert got["drama"] is not None and got["drama"] > 0.0


def test_a_wire_to_wire_win_has_no_drama() -> None:
    series = [(2, 0), (2, 1), (4, 1), (4, 2)]
    got = drama_of(series, [0])
    assert got["lead_changes"] == 0.0 and got["comeback"] == 0.0
    assert got["winner_led"] == 1.0 and got["decided_final_round"] == 0.0
    assert got["drama"] == 0.0
    # Ludii LeadChange: the start (all tied) and the first lead, over four states.
    assert got["lead_change"] == pytest.approx(2 / 4)


def test_the_last_placed_seat_changes_the_leader_among_the_others() -> None:
    # Three seats; seat 2 ends last, and its final turn takes points from seat 0 (a steal).
    series = [(2, 1, 0), (2, 1, 0), (2, 1, 0), (2, 1, 0), (2, 1, 0), (0.8, 1, 0.5)]
    got = drama_of(series, [1], final_round=3)
    assert got["kingmaker"] == 1.0
    quiet = drama_of([(2, 1, 0), (2, 3, 0), (2, 3, 1)], [1], final_round=0)
    assert quiet["kingmaker"] == 0.0


def test_no_winner_or_one_seat_gives_nulls() -> None:
    assert set(drama_of([(1, 2), (3, 2)], [])) == set(DRAMA_NAMES)
    assert all(value is None for value in drama_of([(1, 2), (3, 2)], []).values())
    solo = Drama([0.0])
    solo.observe(0, [3.0])
    assert all(value is None for value in solo.columns([0], [3.0]).values())


def _run(blocks: int, steady: bool, seed: int = 0) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Two-seat games, two per block: with ``steady`` the half-time leader always wins,
    otherwise it wins by a coin flip. Seat 0 wins half the games either way."""
    rng = np.random.default_rng(seed)
    games, seats = [], []
    for g in range(2 * blocks):
        winner = int(rng.integers(0, 2))
        half_won = 1.0 if steady else float(rng.integers(0, 2))
        games.append(
            {
                "game_id": g,
                "block": g // 2,
                "players": 2,
                "turns": 40 + g % 3,
                "end": "normal",
                "winners": [winner],
                "leader_50_won": half_won,
                "lead_changes": 0.0 if steady else 2.0,
                "lead_change": 0.1,
                "stability": 0.2,
                "drama": 0.0 if steady else 0.1,
            }
        )
        for seat in range(2):
            seats.append(
                {
                    "game_id": g,
                    "block": g // 2,
                    "seat": seat,
                    "players": 2,
                    "win_share": float(seat == winner),
                }
            )
    return pl.DataFrame(games), pl.DataFrame(seats)


def test_a_game_decided_by_half_time_is_flagged_and_a_coin_flip_is_not() -> None:
    games, _ = _run(60, steady=True)
    table = drama_table(games)
    assert set(table["metric"]) == {"leader_50_won", "lead_changes"}
    assert decided_early(table) == [2]
    coin, _ = _run(60, steady=False, seed=1)
    assert decided_early(drama_table(coin)) == []


def test_ludii_metrics_under_their_names() -> None:
    games, seats = _run(60, steady=False, seed=2)
    table = ludii_table(games, seats, n_resamples=50)
    assert table["metric"].to_list() == [
        "Balance",
        "AdvantageP1",
        "Completion",
        "Drawishness",
        "DurationTurns",
        "LeadChange",
        "Stability",
        "Drama",
    ]
    row = {r["metric"]: r for r in table.iter_rows(named=True)}
    assert row["Completion"]["estimate"] == 1.0 and row["Drawishness"]["estimate"] == 0.0
    advantage = row["AdvantageP1"]["estimate"]
    assert row["Balance"]["estimate"] == pytest.approx(1 - abs(2 * advantage - 1))
    assert row["Balance"]["low"] <= row["Balance"]["estimate"] <= row["Balance"]["high"]
    assert row["DurationTurns"]["estimate"] == pytest.approx(games["turns"].mean())
