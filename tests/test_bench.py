"""The bench prints figures; here only that its measurements run and make sense."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from cgsim import cli
from cgsim.cli import app
from cgsim.games.registry import DEFAULT_GAME, get_game
from cgsim.play.bot_registry import BotInfo, list_bots, resolve_bot
from cgsim.studies import bench
from cgsim.studies.bench import (
    _tree_pss_kb,
    bot_decision_costs,
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


def test_the_engine_figure_measures_the_declared_setups() -> None:
    cottage = get_game("cottage-garden")
    assert setups_for(cottage) == cottage.info.setups
    assert [setup.name for setup in setups_for(cottage)][:5] == [
        "solo",
        "2 players",
        "3 players",
        "4 players",
        "2 players, a child of 5",
    ]
    kitchen = setups_for(get_game("kitchen-garden"))
    assert [(s.name, s.players) for s in kitchen] == [
        ("2 players", 2),
        ("3 players", 3),
        ("4 players", 4),
    ]


def test_the_parallel_run_plays_the_declared_bench_seats_or_the_ladder() -> None:
    cottage = parallel_config("cottage-garden")
    assert cottage.bots and [bot.as_spec() for bot in cottage.bots] == list(
        get_game("cottage-garden").info.ladder
    )
    config = parallel_config("kitchen-garden")
    assert config.game == "kitchen-garden"
    assert [seat.as_spec() for seat in config.seats] == ["kitchen-greedy", "kitchen-greedy"]


def _cheap_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leave the searching bots out: the bench times them, the tests need not."""

    def cheap(game: str | None = None) -> list[BotInfo]:
        return [
            info
            for info in list_bots(game)
            if not resolve_bot(info.name, game or DEFAULT_GAME).cls.searches
        ]

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
