"""The run's terminal summary charges each error game to the bot whose seat failed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import polars as pl
import toygame
from test_runner import GREEDY, WANDERER, make_config, run, tables

from cgsim.games.bot import Bot
from cgsim.games.contract import Action
from cgsim.play.runner import bot_table, format_summary

FAULTY_SEAT = 1


class SeatOneCrash(Bot):
    """Plays like toy-greedy, but fails at once when it sits in seat 1."""

    name: ClassVar[str] = "seat-one-crash"
    games: ClassVar[tuple[str, ...]] = (toygame.NAME,)

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if self.seat == FAULTY_SEAT:
            raise ValueError("boom in seat 1")
        return max(legal_actions)


CRASH_AT_ONE = f"{__name__}:SeatOneCrash"


def test_errors_are_charged_to_the_faulty_seats_bot_only(tmp_path: Path) -> None:
    """Seats rotate, so the crashing bot sits in seat 1 in a third of the games; those
    are its errors, and none of the two others' who shared the table."""
    config = make_config(
        tmp_path, players=3, seats=[CRASH_AT_ONE, GREEDY, WANDERER], games=12, chunk_size=4
    )
    result = run(config)
    games = tables(config.results_dir)["games"]
    failed = games.filter(pl.col("end") == "error")
    assert failed.height == result.errors == 4
    assert failed["error_seat"].to_list() == [FAULTY_SEAT] * 4
    table = {row["bot"]: row for row in bot_table(config.results_dir).iter_rows(named=True)}
    assert {bot: row["errors"] for bot, row in table.items()} == {
        CRASH_AT_ONE: 4,
        GREEDY: 0,
        WANDERER: 0,
    }
    assert all(row["seats"] == 12 for row in table.values())
    finished = tables(config.results_dir)["seats"].join(
        games.filter(pl.col("end") != "error").select("game_id"), on="game_id"
    )
    for bot, row in table.items():  # outcomes over the finished games, as the report's
        mine = finished.filter(pl.col("bot") == bot)
        assert row["win_share"] == mine["win_share"].mean()
    summary = format_summary(result)
    lines = {line.split()[0]: line.split() for line in summary.splitlines() if line}
    assert lines[CRASH_AT_ONE][-1] == "4"
    assert lines[GREEDY][-1] == lines[WANDERER][-1] == "0"


def test_a_bot_with_only_error_games_is_shown_without_outcomes(tmp_path: Path) -> None:
    config = make_config(tmp_path, seats=[toygame.target(toygame.Crash), GREEDY], games=4)
    result = run(config)
    assert result.errors == 4
    rows = {line.split()[0]: line.split() for line in format_summary(result).splitlines() if line}
    assert rows[toygame.target(toygame.Crash)][1:] == ["4", "-", "-", "4"]
    assert rows[GREEDY][1:] == ["4", "-", "-", "0"]
