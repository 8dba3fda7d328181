"""The bench prints figures; here only that its measurements run and make sense."""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import cast

import pytest
from typer.testing import CliRunner

from cgsim import cli
from cgsim.cli import app
from cgsim.games.contract import Game
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import BotInfo, list_bots
from cgsim.studies import bench
from cgsim.studies.bench import (
    SETUPS,
    _tree_pss_kb,
    bot_decision_costs,
    match_setups,
    parallel_config,
    random_games_per_second,
    setups_for,
)


def test_random_games_per_second_plays_the_games() -> None:
    rate, decisions = random_games_per_second(2, {}, 3, seed=1)
    assert rate > 0 and decisions > 10


def test_the_generic_loop_plays_kitchen_garden() -> None:
    rate, decisions = random_games_per_second(3, {}, 2, seed=1, game="kitchen-garden")
    assert rate > 0 and decisions > 100


def test_the_memory_probe_reads_this_process() -> None:
    assert _tree_pss_kb(os.getpid()) > 1000


def test_each_game_has_its_setups() -> None:
    assert setups_for(get_game("cottage-garden")) == SETUPS
    assert [label for label, _, _ in SETUPS] == [
        "solo",
        "2 players",
        "3 players",
        "4 players",
        "2 players, a child of 5",
    ]
    kitchen = setups_for(get_game("kitchen-garden"))
    assert [(label, players) for label, players, _ in kitchen] == [
        ("2 players", 2),
        ("3 players", 3),
        ("4 players", 4),
    ]
    other = cast(Game, SimpleNamespace(name="other", min_players=1, max_players=3))
    assert [(label, players) for label, players, _ in setups_for(other)] == [
        ("1 player", 1),
        ("2 players", 2),
        ("3 players", 3),
    ]


def test_the_match_loop_covers_every_player_count_once() -> None:
    cottage = match_setups(get_game("cottage-garden"))
    assert [(players, variant) for _, players, variant in cottage] == [
        (1, {"solo": True}),
        (2, {}),
        (3, {}),
        (4, {}),
    ]
    assert [players for _, players, _ in match_setups(get_game("kitchen-garden"))] == [2, 3, 4]


def test_kitchen_parallel_run_uses_cheap_seats() -> None:
    assert parallel_config("cottage-garden") is None
    config = parallel_config("kitchen-garden")
    assert config is not None and config.game == "kitchen-garden"
    assert [seat.as_spec() for seat in config.seats] == ["kitchen-greedy", "kitchen-greedy"]


def _cheap_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leave the searching bots out: the bench times them, the tests need not."""

    def cheap(game: str | None = None) -> list[BotInfo]:
        return [info for info in list_bots(game) if info.name not in bench.HEAVY_BOTS]

    monkeypatch.setattr(bench, "list_bots", cheap)


def test_bot_costs_count_every_seat_of_kitchen_games(monkeypatch: pytest.MonkeyPatch) -> None:
    _cheap_bots(monkeypatch)
    rows = {name: (ms, count) for name, ms, count in bot_decision_costs(10, 1, "kitchen-garden")}
    assert set(rows) == {"random", "kitchen-greedy"}
    assert all(ms >= 0 and count > 0 for ms, count in rows.values())


def test_bench_command_runs_kitchen_garden(monkeypatch: pytest.MonkeyPatch) -> None:
    _cheap_bots(monkeypatch)
    args = ["bench", "--game", "kitchen-garden", "--games", "3", "--no-parallel"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Game: kitchen-garden"
    assert any(line.startswith("4 players") for line in lines)
    assert not any(line.startswith("solo") or line.startswith("1 player") for line in lines)
    assert any(line.startswith("kitchen-greedy") for line in lines)


def test_bench_of_an_unknown_game_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.argv", ["cgsim", "bench", "--game", "chess", "--no-parallel"])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(
        "error: unknown game 'chess'; known games: cottage-garden, kitchen-garden"
    )
    assert captured.err.count("\n") == 1 and captured.out == ""
