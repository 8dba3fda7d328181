"""The lab's measurements run and make sense: the probe under any interpreter, the match
loop's figure, and the before-and-after comparison asking both builds the same tasks."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from benchmarks import compare, loop, probe, spawn
from cgsim.games.registry import DEFAULT_GAME, get_game
from cgsim.play import match
from cgsim.play.bot_registry import resolve_bot


def test_the_match_loop_covers_every_player_count_once() -> None:
    cottage = loop.match_setups(get_game("cottage-garden"))
    assert [(s.players, dict(s.variant)) for s in cottage] == [
        (1, {"solo": True}),
        (2, {}),
        (3, {}),
        (4, {}),
    ]
    assert [s.players for s in loop.match_setups(get_game("kitchen-garden"))] == [2, 3, 4]


@pytest.mark.parametrize(
    ("task", "keys"),
    [
        ({"measure": "engine", "players": 2, "variant": {}, "games": 1}, {"rate", "decisions"}),
        ({"measure": "match", "players": 1, "variant": {}, "games": 1}, {"rate", "over"}),
        ({"measure": "bot", "players": 2, "bot": "greedy", "games": 1}, {"ms", "decisions"}),
    ],
)
def test_the_probe_measures_under_another_interpreter(
    task: dict[str, object], keys: set[str]
) -> None:
    """The probe runs in a scratch folder, so it times the named interpreter's cgsim."""
    answer = spawn.probe(Path(sys.executable), {**task, "game": DEFAULT_GAME, "seed": 1})
    assert keys <= answer.keys() and answer["where"].endswith("registry.py")
    assert all(answer[key] > 0 for key in keys - {"over"})


def test_the_probe_says_when_a_bot_is_missing_from_the_baseline() -> None:
    task = {"measure": "bot", "players": 2, "bot": "nobody", "games": 1}
    answer = spawn.probe(Path(sys.executable), {**task, "game": DEFAULT_GAME, "seed": 1})
    assert answer["ms"] is None


def test_the_baseline_s_probe_ignores_this_process_s_python_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``PYTHONPATH`` naming this checkout would make the baseline time this build."""
    decoy = tmp_path / "cgsim"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("raise ImportError('the decoy was imported')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    task = {"measure": "engine", "players": 2, "variant": {}, "games": 1}
    answer = spawn.probe(Path(sys.executable), {**task, "game": DEFAULT_GAME, "seed": 1})
    assert not Path(answer["where"]).is_relative_to(tmp_path)


def test_a_failing_probe_is_one_error_naming_the_interpreter_and_its_last_line(
    tmp_path: Path,
) -> None:
    """A baseline whose interpreter fails (a broken install, say) is a clear error, not
    a traceback of the subprocess call."""
    python = tmp_path / "python"
    python.write_text("#!/bin/sh\necho first >&2\necho 'No module named cgsim' >&2\nexit 3\n")
    python.chmod(0o755)
    with pytest.raises(spawn.ProbeError) as refused:
        spawn.probe(python, {"measure": "engine"})
    assert str(refused.value) == f"the speed probe failed under {python}: No module named cgsim"


def test_a_baseline_that_is_not_an_installation_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as stop:
        compare.main([str(tmp_path)])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.err == (
        f"error: baseline {tmp_path}: neither a Python interpreter nor a folder with "
        ".venv/bin/python (make bench-compare builds one from the commit it is given)\n"
    )
    assert captured.out == ""


@pytest.mark.parametrize("command", [loop.main, lambda argv: compare.main([*argv, "old"])])
def test_an_unknown_game_exits_2_before_any_measurement(
    command: Callable[[list[str]], None], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        command(["--game", "chess"])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: unknown game 'chess'; known games: cottage-garden")
    assert captured.err.count("\n") == 1 and captured.out == ""


def test_a_bad_option_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        loop.main(["--games", "0"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == "error: argument --games: must be at least 1, not 0\n"


def test_a_relative_baseline_is_found_from_the_probe_s_scratch_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probe runs in a scratch folder, so the interpreter's path must not be relative."""
    python = tmp_path / "old" / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.touch()
    monkeypatch.chdir(tmp_path)
    assert compare.baseline_python(Path("old")) == python


def test_both_builds_probe_the_same_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The before-and-after comparison asks both builds the very same tasks; this build's
    probe imports what this process imports (the baseline's never: it imports its own)."""
    asked: list[tuple[Path, dict[str, object], Sequence[str]]] = []

    def fake(
        python: Path, task: dict[str, object], import_path: Sequence[str] = ()
    ) -> dict[str, object]:
        asked.append((python, task, import_path))
        where = "/old/checkout/cgsim/games/registry.py"
        return {"rate": 10.0, "decisions": 5.0, "over": 0.05, "ms": 1.0, "where": where}

    monkeypatch.setattr(spawn, "probe", fake)
    lines: list[str] = []
    old = Path(sys.executable)  # any interpreter: only its path is compared
    compare.compare(old, 100, 3, lines.append, "kitchen-garden")
    assert lines[0] == "Before and after: this build against the one at /old/checkout"
    assert asked[0][2] == ()  # the baseline's own location, asked first
    befores = [task for _, task, path in asked if path == ()]
    afters = [task for _, task, path in asked if path == sys.path]
    assert len(befores) + len(afters) == len(asked) and befores[1:] == afters
    matches = [task for task in afters if task["measure"] == "match"]
    assert matches and all(task["games"] == loop.loop_games(100) for task in matches)
    assert "+5.0%" in "\n".join(lines)


@pytest.mark.parametrize("game", ["cottage-garden", "kitchen-garden"])
def test_the_bare_engine_plays_the_very_games_the_match_loop_plays(game: str) -> None:
    """The match loop's cost is compared with the bare engine on the same games."""
    the_game = get_game(game)
    rules = the_game.make_rules(2, {}, None, {})
    specs = [resolve_bot("random", game)] * 2
    finals = list(probe.bare_games(the_game, rules, 2, range(7, 10)))
    for offset, final in enumerate(finals):
        outcome = match.play_game(the_game, rules, 7 + offset, specs)
        result = the_game.result(final)
        assert outcome.game["turns"] == result.turns
        assert [row["score"] for row in outcome.seats] == [float(s) for s in result.scores]


def test_the_match_loop_figure_is_a_median_of_timed_rounds_after_an_untimed_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each game is played 1 + LOOP_ROUNDS times through each side: once untimed (one-time
    costs, the placement cache), then once per timed round."""
    played: list[int] = []
    real = match.play_game

    def counting(*args: object, **kwargs: object) -> object:
        played.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(match, "play_game", counting)
    answer = probe.loop_overhead("cottage-garden", 2, {}, 2, 5)
    assert len(played) == 2 * (1 + probe.LOOP_ROUNDS)
    assert answer["rate"] > 0 and answer["over"] > -1


def test_the_loop_figure_is_the_median_of_fresh_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each process's figure comes from the probe script under this interpreter; the
    median is printed, and the lowest and highest."""
    tasks: list[dict[str, object]] = []
    overs = iter([0.09, 0.05, 0.07, 0.12, 0.06])

    def fake(python: Path, task: dict[str, object], import_path: Sequence[str]) -> dict[str, float]:
        assert python == Path(sys.executable) and import_path == sys.path
        tasks.append(task)
        return {"rate": 100.0 + len(tasks), "over": next(overs)}

    monkeypatch.setattr(spawn, "probe", fake)
    monkeypatch.setattr(loop, "LOOP_PROCESSES", 5)
    figure = loop.loop_figure("cottage-garden", 3, {}, 40, 7)
    assert figure == {"rate": 103.0, "over": 0.07, "low": 0.05, "high": 0.12}
    expected = {"game": "cottage-garden", "seed": 7, "measure": "match"}
    assert tasks == [{**expected, "players": 3, "variant": {}, "games": 40}] * 5


def test_the_loop_table_has_a_row_per_player_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loop, "LOOP_PROCESSES", 1)  # one real probe process a setup,
    monkeypatch.setattr(loop, "loop_games", lambda games: 1)  # of one game
    lines: list[str] = []
    loop.loop_bench(3, 1, lines.append, "kitchen-garden")
    rows = [line.split()[0] for line in lines[3:]]
    assert rows == ["2", "3", "4"] and all("%" in line for line in lines[3:])


def test_each_side_of_a_comparison_goes_first_in_every_other_round() -> None:
    """Whichever runs second in a round runs slower, so neither is always second."""
    order: list[str] = []

    def side(name: str) -> Callable[[], int]:
        def call() -> int:
            order.append(name)
            return len(order)

        return call

    firsts, seconds = probe.take_turns(side("a"), side("b"), 4)
    assert order == ["a", "b", "b", "a", "a", "b", "b", "a"]
    assert firsts == [1, 4, 5, 8] and seconds == [2, 3, 6, 7]
