"""Tests of the strength bench (cgsim.strength) and its command."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.errors import ConfigError, UnknownBotError
from cgsim.strength import (
    LADDER,
    StrengthReport,
    bot_specs,
    format_report,
    run_strength,
    tasks_for,
)


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
    assert pairs == {("random", "greedy"), ("greedy", "planner"), ("planner", "beam")}
    assert sum(len(t.labels) == 1 for t in tasks) == len(LADDER)


def test_budget_sets_the_search_budget() -> None:
    beam = "beam:width=8,solo_width=8"
    assert bot_specs(None, 8) == ("random", "greedy", "planner", beam)
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
