"""A game gets the machinery through its declaration alone: the toy game of the tests
declares setups, a ladder and a schema, and nothing above the contract knows it."""

from __future__ import annotations

import itertools
from pathlib import Path

import toygame

from cgsim.studies.bench import run_bench
from cgsim.studies.golden import check_golden, default_games, playthrough_games, record_golden
from cgsim.studies.playthrough import playthrough_text
from cgsim.studies.strength import format_report, run_strength

toygame.register()


def test_the_bench_measures_the_toy_games_declared_setups() -> None:
    lines: list[str] = []
    run_bench(games=10, seed=1, parallel=False, echo=lines.append, game="toy")
    text = "\n".join(lines)
    for setup in toygame.INFO.setups:
        assert any(line.startswith(setup.name) for line in lines), setup.name
    assert "random" in text


def test_golden_games_cover_the_toy_games_setups(tmp_path: Path) -> None:
    games = default_games(2, ["random"], "toy")
    assert [g.players for g in games] == [s.players for s in toygame.INFO.setups for _ in (0, 1)]
    assert record_golden(tmp_path, games) == len(games)
    assert check_golden(tmp_path) == (len(games), [])


def test_the_toy_games_playthrough_comes_from_its_declared_setup() -> None:
    found = playthrough_games(["toy"])
    assert list(found) == ["toy-2-players"]
    golden = found["toy-2-players"]
    assert golden.seats == (toygame.INFO.ladder[1], "random")
    text = playthrough_text("toy-2-players", golden)
    assert "result:" in text


def test_strength_climbs_the_toy_games_declared_ladder() -> None:
    report = run_strength(None, games=3, solo_games=2, workers=1, seed=0, game="toy")
    ladder = toygame.INFO.ladder
    assert [(p.lower, p.upper) for p in report.pairs] == list(itertools.pairwise(ladder))
    assert [s.bot for s in report.solo] == list(ladder)
    assert "toy" in format_report(report)
