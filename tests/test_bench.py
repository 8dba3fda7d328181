"""The bench prints figures; here only that its measurements run and make sense."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

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


def test_the_match_loop_covers_every_player_count_once() -> None:
    cottage = match_setups(get_game("cottage-garden"))
    assert [(s.players, dict(s.variant)) for s in cottage] == [
        (1, {"solo": True}),
        (2, {}),
        (3, {}),
        (4, {}),
    ]
    assert [s.players for s in match_setups(get_game("kitchen-garden"))] == [2, 3, 4]


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
    monkeypatch.setattr(bench, "LOOP_PROCESSES", 1)  # one real probe process a setup
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


@pytest.mark.parametrize(
    ("task", "keys"),
    [
        ({"measure": "engine", "players": 2, "variant": {}, "games": 1}, {"rate", "decisions"}),
        ({"measure": "match", "players": 1, "variant": {}, "games": 1}, {"rate", "over"}),
        ({"measure": "bot", "players": 2, "bot": "greedy", "games": 1}, {"ms", "decisions"}),
    ],
)
def test_the_baseline_probe_measures_under_another_interpreter(
    task: dict[str, object], keys: set[str]
) -> None:
    """The probe runs in a scratch folder, so it times the named interpreter's cgsim."""
    import sys
    from pathlib import Path

    from cgsim.studies.bench_baseline import probe

    answer = probe(Path(sys.executable), {**task, "game": DEFAULT_GAME, "seed": 1})
    assert keys <= answer.keys() and answer["where"].endswith("registry.py")
    assert all(answer[key] > 0 for key in keys - {"over"})


def test_the_probe_says_when_a_bot_is_missing_from_the_baseline() -> None:
    import sys
    from pathlib import Path

    from cgsim.studies.bench_baseline import probe

    task = {"measure": "bot", "players": 2, "bot": "nobody", "games": 1}
    answer = probe(Path(sys.executable), {**task, "game": DEFAULT_GAME, "seed": 1})
    assert answer["ms"] is None


def test_a_baseline_that_is_not_an_installation_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    argv = ["cgsim", "bench", "--no-parallel", "--baseline", str(tmp_path)]
    monkeypatch.setattr("sys.argv", argv)
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert "neither a Python interpreter nor a folder with .venv/bin/python" in captured.err
    assert captured.out == ""


def test_a_relative_baseline_is_found_from_the_probe_s_scratch_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probe runs in a scratch folder, so the interpreter's path must not be relative."""
    from cgsim.studies.bench_baseline import baseline_python

    python = tmp_path / "old" / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.touch()
    monkeypatch.chdir(tmp_path)
    assert baseline_python(Path("old")) == python


def test_both_builds_probe_the_same_tasks_and_a_run_time_game_is_registered_in_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The before-and-after comparison asks both builds the very same tasks; each task of
    a game registered at run time names its registration, and this build's probe imports
    what this process imports (the baseline's never: it imports its own)."""
    import sys

    import toygame

    from cgsim.studies import bench_baseline

    toygame.register()
    asked: list[tuple[Path, dict[str, object], Sequence[str]]] = []

    def fake(
        python: Path, task: dict[str, object], import_path: Sequence[str] = ()
    ) -> dict[str, object]:
        asked.append((python, task, import_path))
        where = "/old/checkout/cgsim/games/registry.py"
        return {"rate": 10.0, "decisions": 5.0, "over": 0.05, "ms": 1.0, "where": where}

    monkeypatch.setattr(bench_baseline, "probe", fake)
    lines: list[str] = []
    old = Path(sys.executable)  # any interpreter: only its path is compared
    bench_baseline.baseline_bench(old, 100, 3, lines.append, "toy")
    assert lines[0] == "Before and after: this build against the one at /old/checkout"
    assert all(task["register"] == {"toy": "toygame:GAME"} for _, task, _ in asked)
    assert asked[0][2] == ()  # the baseline's own location, asked first
    befores = [task for _, task, path in asked if path == ()]
    afters = [task for _, task, path in asked if path == sys.path]
    assert len(befores) + len(afters) == len(asked) and befores[1:] == afters
    matches = [task for task in afters if task["measure"] == "match"]
    assert matches and all(task["games"] == bench.loop_games(100) for task in matches)
    assert "+5.0%" in "\n".join(lines)


def test_a_failing_probe_is_one_error_naming_the_interpreter_and_its_last_line(
    tmp_path: Path,
) -> None:
    """A baseline whose interpreter fails (a broken install, say) is a clear error, not
    a traceback of the subprocess call."""
    from cgsim.errors import ConfigError
    from cgsim.studies.bench_baseline import probe

    python = tmp_path / "python"
    python.write_text("#!/bin/sh\necho first >&2\necho 'No module named cgsim' >&2\nexit 3\n")
    python.chmod(0o755)
    with pytest.raises(ConfigError) as refused:
        probe(python, {"measure": "engine"})
    assert str(refused.value) == f"the speed probe failed under {python}: No module named cgsim"


@pytest.mark.parametrize("game", ["cottage-garden", "kitchen-garden"])
def test_the_bare_engine_plays_the_very_games_the_match_loop_plays(game: str) -> None:
    """The match loop's cost is compared with the bare engine on the same games."""
    from cgsim.play.match import play_game
    from cgsim.studies.bench_probe import bare_games

    the_game = get_game(game)
    rules = the_game.make_rules(2, {}, None, {})
    specs = [resolve_bot("random", game)] * 2
    finals = list(bare_games(the_game, rules, 2, range(7, 10)))
    for offset, final in enumerate(finals):
        outcome = play_game(the_game, rules, 7 + offset, specs)
        result = the_game.result(final)
        assert outcome.game["turns"] == result.turns
        assert [row["score"] for row in outcome.seats] == [float(s) for s in result.scores]


def test_the_match_loop_figure_is_a_median_of_timed_rounds_after_an_untimed_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each game is played 1 + LOOP_ROUNDS times through each side: once untimed (one-time
    costs, the placement cache), then once per timed round."""
    from cgsim.play import match
    from cgsim.studies import bench_probe

    played: list[int] = []
    real = match.play_game

    def counting(*args: object, **kwargs: object) -> object:
        played.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(match, "play_game", counting)
    answer = bench_probe.loop_overhead("cottage-garden", 2, {}, 2, 5)
    assert len(played) == 2 * (1 + bench_probe.LOOP_ROUNDS)
    assert answer["rate"] > 0 and answer["over"] > -1


def test_the_bench_s_loop_figure_is_the_median_of_fresh_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each process's figure comes from the probe script under this interpreter; the bench
    prints their median and the lowest and highest."""
    import sys

    tasks: list[dict[str, object]] = []
    overs = iter([0.09, 0.05, 0.07, 0.12, 0.06])

    def fake(python: Path, task: dict[str, object], import_path: Sequence[str]) -> dict[str, float]:
        assert python == Path(sys.executable) and import_path == sys.path
        tasks.append(task)
        return {"rate": 100.0 + len(tasks), "over": next(overs)}

    from cgsim.studies import bench_baseline

    monkeypatch.setattr(bench_baseline, "probe", fake)
    monkeypatch.setattr(bench, "LOOP_PROCESSES", 5)
    figure = bench.loop_figure("cottage-garden", 3, {}, 40, 7)
    assert figure == {"rate": 103.0, "over": 0.07, "low": 0.05, "high": 0.12}
    assert (
        tasks
        == [
            {
                "game": "cottage-garden",
                "seed": 7,
                "measure": "match",
                "players": 3,
                "variant": {},
                "games": 40,
            }
        ]
        * 5
    )


def test_each_side_of_a_comparison_goes_first_in_every_other_round() -> None:
    """Whichever runs second in a round runs slower, so neither is always second."""
    from cgsim.studies.bench_probe import take_turns

    order: list[str] = []

    def side(name: str) -> Callable[[], int]:
        def call() -> int:
            order.append(name)
            return len(order)

        return call

    firsts, seconds = take_turns(side("a"), side("b"), 4)
    assert order == ["a", "b", "b", "a", "a", "b", "b", "a"]
    assert firsts == [1, 4, 5, 8] and seconds == [2, 3, 6, 7]
