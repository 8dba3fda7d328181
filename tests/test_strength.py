"""Tests of the strength bench (cgsim.studies.strength) and its command."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from bots.kitchen_greedy import KitchenGreedyBot
from cgsim import cli
from cgsim.cli import app
from cgsim.errors import ConfigError, UnknownBotError
from cgsim.games.contract import AnyGame
from cgsim.games.kitchen.game import GAME as KITCHEN
from cgsim.games.kitchen.observation import Observation
from cgsim.games.loop import BotFault
from cgsim.games.registry import get_game
from cgsim.reporting.stats import wilson_interval
from cgsim.studies.strength import (
    SeatOutcome,
    StrengthReport,
    Task,
    TaskResult,
    bot_specs,
    default_ladder,
    format_report,
    play,
    run_strength,
    summarize,
    tasks_for,
)

KITCHEN_PAIR = ["random", "kitchen-greedy"]


LADDER = get_game("cottage-garden").info.ladder


def _numbers(report: StrengthReport) -> tuple[object, ...]:
    return (report.pairs, report.solo, tuple((c.bot, c.decisions) for c in report.costs))


def test_small_bench_has_every_table() -> None:
    report = run_strength(["random", "greedy"], games=3, solo_games=2, seed=1)
    assert len(report.pairs) == 1
    pair = report.pairs[0]
    assert (pair.lower, pair.upper) == ("random", "greedy")
    assert pair.win_rate.n == 3
    assert 0.0 <= pair.win_rate.estimate <= 1.0
    assert [s.bot for s in report.solo] == ["random", "greedy"]
    assert all(c.decisions > 0 for c in report.costs)
    text = format_report(report)
    assert "solo game" in text and "greedy" in text


def test_same_seed_same_results_whatever_the_workers() -> None:
    one = run_strength(["random", "greedy"], games=2, solo_games=1, seed=4, workers=1)
    again = run_strength(["random", "greedy"], games=2, solo_games=1, seed=4, workers=1)
    two = run_strength(["random", "greedy"], games=2, solo_games=1, seed=4, workers=2)
    assert _numbers(one) == _numbers(again) == _numbers(two)


def test_tasks_pair_adjacent_rungs() -> None:
    tasks = tasks_for(LADDER, games=2, solo_games=1, seed=0)
    pairs = {t.labels for t in tasks if len(t.labels) == 2}
    assert pairs == {("random", "greedy"), ("greedy", "study")}
    assert sum(len(t.labels) == 1 for t in tasks) == len(LADDER)


def test_budget_sets_the_search_budget() -> None:
    study = "study:width=8,solo_width=8"
    assert bot_specs(None, 8) == ("random", "greedy", study)
    assert bot_specs(["greedy", "mcts"], 8) == ("greedy", "mcts:playouts=8")
    assert bot_specs(["greedy", "mcts"], None) == ("greedy", "mcts")


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"workers": 0}, ConfigError),
        ({"games": -1}, ConfigError),
        ({"bots": ["greedy", "nobody"]}, UnknownBotError),
    ],
)
def test_bad_options_are_clear_errors(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        run_strength(**kwargs)  # type: ignore[arg-type]


def test_command_prints_the_tables() -> None:
    result = CliRunner().invoke(
        app,
        ["strength", "--games", "1", "--solo-games", "1", "--bots", "random,greedy", "--quiet"],
    )
    assert result.exit_code == 0, result.output
    assert "upper win %" in result.output
    assert "cost per decision" in result.output


def test_kitchen_bench_has_pairs_and_no_solo_game() -> None:
    report = run_strength(KITCHEN_PAIR, games=2, solo_games=3, seed=2, game="kitchen-garden")
    assert [(p.lower, p.upper, p.win_rate.n) for p in report.pairs] == [
        ("random", "kitchen-greedy", 2)
    ]
    assert 0.0 <= report.pairs[0].win_rate.estimate <= 1.0
    assert report.solo == () and not report.has_solo
    assert [c.bot for c in report.costs] == KITCHEN_PAIR
    text = format_report(report)
    assert text.startswith("kitchen-garden, 2-player")
    assert "no solo game: kitchen-garden needs at least 2 players" in text
    assert "solo game (" not in text


def test_kitchen_bench_does_not_depend_on_the_workers() -> None:
    kwargs: dict[str, Any] = {"games": 2, "seed": 3, "game": "kitchen-garden"}
    one = run_strength(KITCHEN_PAIR, workers=1, **kwargs)
    two = run_strength(KITCHEN_PAIR, workers=2, **kwargs)
    assert _numbers(one) == _numbers(two)


def test_kitchen_has_its_own_default_ladder() -> None:
    assert bot_specs(None, None, "kitchen-garden") == get_game("kitchen-garden").info.ladder
    assert bot_specs(None, 8, "kitchen-garden") == ("random", "kitchen-greedy", "kitchen-search")
    assert all(
        t.game == "kitchen-garden" for t in tasks_for(KITCHEN_PAIR, 1, 0, 0, "kitchen-garden")
    )


def test_a_cottage_bot_on_kitchen_garden_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="bot 'greedy' does not play 'kitchen-garden'"):
        run_strength(["random", "greedy"], games=1, game="kitchen-garden")


def test_bots_see_only_their_observation_and_watchers_hear_every_action() -> None:
    seen: list[tuple[str, object]] = []

    class Spy(KitchenGreedyBot):
        def new_game(self, game: AnyGame, seat: int, state: Any) -> None:
            seen.append(("new_game", state))
            super().new_game(game, seat, state)

        def choose(self, state: Any, legal: Any, rng: Any) -> int:
            seen.append(("choose", state))
            return super().choose(state, legal, rng)

        def observe(self, state: Any, seat: int, action: int) -> None:
            seen.append(("observe", state))

    outcome = play(KITCHEN, [Spy(), KitchenGreedyBot()], 5, 5)
    calls = [call for call, _ in seen]
    assert calls.count("new_game") == 1 and "choose" in calls
    assert calls.count("observe") >= outcome[0].decisions + outcome[1].decisions
    assert all(isinstance(state, Observation) for _, state in seen)


def test_a_game_without_a_winner_is_no_win_for_either() -> None:
    draw = (SeatOutcome(3.0, 0.0, 1, 0.0, True), SeatOutcome(5.0, 0.0, 1, 0.0, True))
    won = (SeatOutcome(3.0, 0.0, 1, 0.0), SeatOutcome(5.0, 1.0, 1, 0.0))
    task = Task(("random", "kitchen-greedy"), 0, 0, "kitchen-garden")
    report = summarize(KITCHEN_PAIR, [TaskResult(task, (draw, won))], 0.0, "kitchen-garden")
    assert report.pairs[0].win_rate.estimate == 0.5
    assert report.pairs[0].draws == 1
    assert "1 game without a winner (no win for either)" in format_report(report)


def test_command_benches_kitchen_garden() -> None:
    args = ["--game", "kitchen-garden", "--games", "2", "--workers", "1", "--quiet"]
    result = CliRunner().invoke(app, ["strength", *args, "--bots", "random,kitchen-greedy"])
    assert result.exit_code == 0, result.output
    pair = [line.split() for line in result.output.splitlines() if "kitchen-greedy" in line]
    assert pair[0][:3] == ["kitchen-greedy", "random", "2"]
    assert "no solo game" in result.output and "solo game (" not in result.output


def test_unknown_game_exits_2_naming_the_known_games(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.argv", ["cgsim", "strength", "--game", "chess", "--quiet"])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "error: unknown game 'chess'; known games: cottage-garden, kitchen-garden"
    )
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": -1}, "--games and --solo-games must be 0 or more"),
        ({"solo_games": -1}, "--games and --solo-games must be 0 or more"),
        ({"workers": 0}, "--workers 0 is not allowed; expected 1 or more"),
    ],
)
def test_bad_counts_name_the_option(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        run_strength(**kwargs)


def test_a_game_without_a_ladder_asks_for_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    import toygame

    toygame.register()
    monkeypatch.setattr(toygame.GAME, "info", dataclasses.replace(toygame.INFO, ladder=()))
    with pytest.raises(
        ConfigError, match=r"'toy' declares no bot ladder; name the bots with --bots"
    ):
        default_ladder("toy")


def test_a_ladder_on_a_game_without_two_players_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    solo_only = SimpleNamespace(info=SimpleNamespace(min_players=1, max_players=1))
    monkeypatch.setattr("cgsim.studies.strength.get_game", lambda name: solo_only)
    with pytest.raises(ConfigError, match="has no 2-player game; name one bot with --bots"):
        run_strength(["random", "greedy"], games=1)


def test_an_illegal_choice_names_the_bot_and_its_seat() -> None:
    class Cheat(KitchenGreedyBot):
        def choose(self, state: Any, legal: Any, rng: Any) -> Any:
            return object()

    with pytest.raises(BotFault, match=r"bot kitchen-greedy \(seat 0\): illegal action"):
        play(KITCHEN, [Cheat(), KitchenGreedyBot()], 5, 5)


def _solo(bot: str, scores: list[float], game: str = "cottage-garden") -> list[TaskResult]:
    return [
        TaskResult(Task((bot,), deal, 0, game), ((SeatOutcome(score, 1.0, 1, 0.0),),))
        for deal, score in enumerate(scores)
    ]


def test_solo_table_shows_each_benchmark_share_with_a_wilson_interval() -> None:
    scores = [60.0, 70.0, 75.0, 80.0, 85.0]
    report = summarize(["greedy"], _solo("greedy", scores), 0.0)
    marks = report.solo[0].benchmarks
    assert [(m.label, m.score) for m in marks] == [("very good", 70.0), ("exceptional", 80.0)]
    assert marks[0].share == wilson_interval(4, 5) and marks[1].share == wilson_interval(2, 5)
    text = format_report(report)
    assert "benchmark (very good 70, exceptional 80), 95% Wilson interval" in text
    row = next(line for line in text.splitlines() if line.startswith("  greedy"))
    assert row.split()[-6:] == ["80.0", "[37.6,", "96.4]", "40.0", "[11.8,", "76.9]"]


def test_no_benchmark_columns_for_a_game_without_benchmarks(monkeypatch: Any) -> None:
    monkeypatch.setattr(type(get_game("cottage-garden").info), "benchmarks_for", lambda *_: {})
    report = summarize(["greedy"], _solo("greedy", [75.0, 85.0]), 0.0)
    assert report.solo[0].benchmarks == ()
    assert "Wilson" not in format_report(report)
