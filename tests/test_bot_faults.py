"""What a bot's author is told of a fault: the file and line of their own code, the turn
and decision, the full traceback in the run's folder, --debug and --pdb, one line for a
module that does not import, and the record of the game up to the fault."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import buggy_bots
import polars as pl
import pytest
import toygame
from buggy_bots import Asserts, Illegal, Sleepy, site, target
from cli_helpers import assert_refused, run_cli
from test_runner import GREEDY, make_config, run, tables
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.games.checkers import check_record
from cgsim.games.loop import BotFault
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.diagnosis import short_path, without_addresses
from cgsim.play.match import play_game
from cgsim.play.runner import format_summary
from cgsim.reporting.report import write_report
from cgsim.reporting.viewer import viewer_data

toygame.register()
CHOOSE = site(buggy_bots.Buggy.choose, "plan")
"""Where a bot of ``buggy_bots`` calls its buggy helper."""
FAULTS = {
    "exception": (
        target(Asserts, at=2),
        0.0,
        r"AssertionError: bed \d+ has a blocked cell; turn \d+, decision \d+; "
        + re.escape(
            f"at {site(Asserts.blocked_cells, 'assert')} (from "
            f"{site(Asserts.score_tile, 'blocked_cells')}, {site(Asserts.plan, 'max(')})"
        ),
    ),
    "illegal action": (
        target(Illegal, at=2),
        0.0,
        r"illegal action (\d+) \(take \1\), not among the 3 legal actions; "
        r"turn \d+, decision \d+; " + re.escape(f"returned by {site(buggy_bots.Buggy.choose)}"),
    ),
    "timeout": (
        target(Sleepy, at=2, delay=5),
        0.1,
        r"exceeded the time limit of 0\.1 s \(stopped after 0\.1\d\d s\); "
        r"turn \d+, decision \d+; "
        + re.escape(
            f"at {site(Sleepy.think, 'sleep')} (from {site(Sleepy.plan, 'think')}, {CHOOSE})"
        ),
    ),
}
"""Each kind of fault: the bot, the time limit, and its line in the games table."""


@pytest.mark.parametrize("kind", list(FAULTS))
def test_a_fault_names_the_bots_file_and_line_everywhere(tmp_path: Path, kind: str) -> None:
    bot, time_limit, reason = FAULTS[kind]
    config = make_config(
        tmp_path, seats=[GREEDY, bot], games=2, time_limit=time_limit, records=True
    )
    result = run(config)
    assert (result.status, result.errors) == ("complete", 2)
    games = tables(config.results_dir)["games"]
    for row in games.iter_rows(named=True):  # the errors table of the results
        assert re.fullmatch(reason, row["error"]), row["error"]
        trace = (config.results_dir / "errors" / f"{row['game_id']}.txt").read_text()
        assert trace.startswith(f"game {row['game_id']} (deal seed {row['seed']}), seat ")
        assert row["error"] in trace and "Traceback (most recent call last)" in trace
    if kind == "illegal action":
        assert "The 3 legal actions were:" in trace
        assert re.search(r"\n +1\) (\d+): take \1\n", trace), trace
    else:
        assert "buggy_bots.py" in trace

    summary = format_summary(result)
    label = games["seats"][0][1]
    assert f"seat 1 ({label}): {games['error'][0]}" in summary
    assert f"its full traceback: {config.results_dir / 'errors' / '0.txt'}" in summary
    assert f"play it again: cgsim rerun {config.results_dir} 0 (--debug" in summary

    paths = write_report(config.results_dir)
    errors = pl.read_csv(paths.tables["errors"])
    assert errors["reason"].to_list() == games["error"].to_list()
    assert errors["traceback"].to_list() == ["errors/0.txt", "errors/1.txt"]
    shown = paths.markdown.read_text()
    assert "buggy_bots.py:" in shown and "errors/0.txt" in shown


def test_the_tracebacks_are_the_same_for_any_worker_count(tmp_path: Path) -> None:
    bots = [GREEDY, target(Asserts, at=2), target(Illegal, at=3), toygame.target(toygame.Crash)]
    found = []
    for workers in (1, 2):
        folder = tmp_path / f"workers-{workers}"
        config = make_config(folder, seats=[], bots=bots, games=12, workers=workers)
        run(config, "tournament")
        traces = sorted((config.results_dir / "errors").iterdir())
        found.append({path.name: path.read_bytes() for path in traces})
        assert tables(config.results_dir)["games"]["end"].to_list().count("error") == len(traces)
    assert found[0] == found[1] and len(found[0]) > 6


def test_a_fault_in_new_game_or_a_constructor_is_named_too() -> None:
    class Early(Asserts):
        def new_game(self, game: Any, seat: int, state: Any) -> None:
            super().new_game(game, seat, state)
            raise RuntimeError("no model file")

    game = toygame.GAME
    bots = [resolve_bot(GREEDY, "toy"), resolve_bot(GREEDY, "toy")]
    bots[1] = type(bots[1])(bots[1].label, bots[1].name, Early, bots[1].params)
    outcome = play_game(game, game.make_rules(2, {}), 3, bots)
    assert outcome.error is not None
    assert outcome.error.reason == (
        "RuntimeError: no model file; turn 0, before the first decision; "
        f"at test_bot_faults.py:{Early.new_game.__code__.co_firstlineno + 2} in new_game"
    )


@pytest.mark.parametrize("name", ["cottage-garden", "kitchen-garden"])
@pytest.mark.parametrize("at", [1, 9])
def test_an_error_game_keeps_its_record_up_to_the_fault(name: str, at: int) -> None:
    game = get_game(name)
    bots = [resolve_bot("random", name), resolve_bot(target(Illegal, at=at), name)]
    outcome = play_game(game, game.make_rules(2, {}), 7, bots, record=True, game_id=4)
    assert outcome.error is not None and outcome.record is not None
    record = outcome.record
    assert record["game_id"] == 4
    assert record["error"]["reason"] == outcome.error.reason == outcome.game["error"]
    assert record["error"]["seat"] == 1 and record["error"]["decision"] >= at
    assert check_record(record, "the record") == []
    data = viewer_data(game, record)
    assert data["fault"] == f"seat 1 ({target(Illegal)}): {outcome.error.reason}"


def test_check_replay_and_play_name_the_fault_of_a_record(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    bots = f"random,{target(Asserts, at=3)}"
    played = CliRunner().invoke(app, ["play", "--bots", bots, "--record", str(saved)])
    assert played.exit_code == 1
    assert "end: error, not finished, seed: 1" in played.output
    assert "turns: None" not in played.output
    assert "the same command with --debug" in played.output
    record = json.loads(saved.read_text())
    reason = record["error"]["reason"]
    assert site(Asserts.blocked_cells, "assert") in reason

    checked = CliRunner().invoke(app, ["check", str(saved)])
    assert checked.exit_code == 0, checked.output
    assert f"a game ended in error, valid as far as it went; seat 1 ({target(Asserts)})" in (
        checked.output
    )
    replayed = CliRunner().invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 0, replayed.output
    assert f"result: none, the game ended in error: seat 1 ({target(Asserts)}): {reason}" in (
        replayed.output
    )


def test_play_debug_raises_the_bots_exception_with_its_traceback() -> None:
    bots = f"{GREEDY},{target(Asserts, at=2)}"
    result = CliRunner().invoke(app, ["play", "--game", "toy", "--bots", bots, "--debug"])
    assert result.exit_code == 1
    output = result.output
    assert "Traceback (most recent call last)" in output
    for method, text in [(Asserts.plan, "max("), (Asserts.blocked_cells, "assert")]:
        line = site(method, text).split(" in ")[0].split(":")[1]
        assert f'buggy_bots.py", line {line}, in {method.__name__}' in output
    assert re.search(r"\nAssertionError: bed \d+ has a blocked cell\n$", output)
    assert "game ended in error" not in output


def test_play_debug_raises_an_illegal_action_and_a_timeout_as_faults() -> None:
    game = toygame.GAME
    rules = game.make_rules(2, {})
    for bot, limit, text in [
        (target(Illegal, at=2), 0.0, "illegal action 4 (not among the legal actions)"),
        (target(Sleepy, at=2, delay=5), 0.1, "exceeded the time limit of 0.1 s"),
    ]:
        specs = [resolve_bot(GREEDY, "toy"), resolve_bot(bot, "toy")]
        with pytest.raises(BotFault, match=re.escape(text)) as caught:
            play_game(game, rules, 3, specs, time_limit=limit, debug=True)
        if limit:  # the alarm's traceback goes into the bot's helper
            cause = caught.value.__cause__
            assert cause is not None and cause.__traceback__ is not None
            names = [frame.f_code.co_name for frame, _ in _walk(cause.__traceback__)]
            assert names[-3:-1] == ["plan", "think"]


def _walk(tb: Any) -> list[tuple[Any, int]]:
    import traceback

    return list(traceback.walk_tb(tb))


def test_pdb_opens_the_debugger_at_the_bots_line(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[Any] = []
    monkeypatch.setattr("pdb.post_mortem", opened.append)
    bots = f"{GREEDY},{target(Asserts, at=2)}"
    result = CliRunner().invoke(app, ["play", "--game", "toy", "--bots", bots, "--pdb"])
    assert result.exit_code == 1 and len(opened) == 1
    innermost = _walk(opened[0])[-1][0]
    assert innermost.f_code.co_name == "blocked_cells"
    action = innermost.f_locals["action"]  # the bot's own variables, at the fault
    assert f"AssertionError: bed {action} has a blocked cell" in result.output


def test_pdb_reads_its_commands_from_the_terminal() -> None:
    bots = f"{GREEDY},{target(Asserts, at=2)}"
    result = CliRunner().invoke(
        app, ["play", "--game", "toy", "--bots", bots, "--pdb"], input="p action\nq\n"
    )
    assert result.exit_code == 1
    shown = re.search(r"\(Pdb\) (\d+)\n", result.output)
    assert shown is not None, result.output
    assert f"AssertionError: bed {shown[1]} has a blocked cell" in result.output


def test_run_debug_stops_at_the_first_fault_and_keeps_the_games_before(tmp_path: Path) -> None:
    config = tmp_path / "debugged.toml"
    late = target(Asserts, at=1, chance=0.2)  # fails in some games, not the first ones
    config.write_text(
        f'name = "debugged"\ngame = "toy"\nseats = ["{GREEDY}", "{late}"]\ngames = 12\n'
        f'seed = 3\nchunk_size = 2\nworkers = 2\nout = "{tmp_path}"\n'
    )
    stopped = CliRunner().invoke(app, ["run", str(config), "--debug", "--no-report"])
    assert stopped.exit_code == 1
    assert "Traceback (most recent call last)" in stopped.output
    assert stopped.output.count("AssertionError: bed") == 1
    assert "the games played before it are kept" in stopped.output
    kept = json.loads((tmp_path / "debugged" / "manifest.json").read_text())
    assert (kept["status"], kept["games_done"]) == ("stopped", 4)  # game 4 is the first fault
    finished = CliRunner().invoke(app, ["run", str(config), "--no-report"])
    assert finished.exit_code == 1  # the faulty games are recorded as errors now
    games = tables(tmp_path / "debugged")["games"]
    assert games.height == 12
    assert games.filter(pl.col("end") == "error")["game_id"].to_list() == [4, 10]


def test_a_bot_module_that_does_not_import_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken_syntax.py").write_text("def choose(self)\n    return 1\n")
    (tmp_path / "needs_more.py").write_text("import helper_of_needs\n")
    (tmp_path / "helper_of_needs.py").write_text("\n\nimport not_installed_anywhere\n")
    cases = {
        "broken_syntax:Bot": "broken_syntax.py:1: SyntaxError: expected ':'",
        "needs_more:Bot": "helper_of_needs.py:3: ModuleNotFoundError: "
        "No module named 'not_installed_anywhere'",
    }
    config = tmp_path / "c.toml"
    for bot, where in cases.items():
        module = bot.split(":")[0]
        expected = f"error: bot {bot!r}: cannot import module {module!r}: {where}\n"
        assert_refused(run_cli(["play", "--bots", f"random,{bot}"]))
        assert run_cli(["play", "--bots", f"random,{bot}"]).err == expected
        config.write_text(f'name = "c"\nseats = ["random", "{bot}"]\ngames = 2\n')
        for command in ("run", "validate"):
            outcome = run_cli([command, str(config)])
            assert_refused(outcome)
            assert outcome.err.endswith(f": {where}\n"), outcome.err


def test_a_fault_text_depends_on_no_machine() -> None:
    assert short_path("/home/me/work/bots/turn_model.py", "bots.turn_model") == (
        "bots/turn_model.py"
    )
    assert short_path("/srv/x/mybot.py", "mybot") == "mybot.py"
    assert short_path("/srv/x/pkg/__init__.py", "pkg") == "pkg/__init__.py"
    assert without_addresses("<Tile object at 0x7f3a2c1b9d60>") == "<Tile object at 0x...>"


def test_the_loop_places_a_fault_and_keeps_the_bots_exception_as_its_cause() -> None:
    # Compiled, a 'raise ... from' of the loop would leave the cause unset.
    import random

    from cgsim.games import loop

    game = toygame.GAME
    state = game.new_game(game.make_rules(2, {}), 3)
    bots = [resolve_bot(GREEDY, "toy").create(), resolve_bot(target(Asserts, at=2), "toy").create()]
    with pytest.raises(BotFault) as caught:
        loop.play(game, state, bots, [random.Random(1), random.Random(2)])
    fault = caught.value
    assert isinstance(fault.__cause__, AssertionError)
    assert (fault.seat, fault.decision, fault.illegal) == (1, 4, False)
    assert fault.legal is not None and len(fault.legal) == 3 and fault.state.turn == 3


@pytest.mark.parametrize("other", ["--isolate", "--human"])
def test_play_debug_refuses_a_game_it_cannot_play_here(other: str) -> None:
    args = ["play", "--game", "toy", "--bots", f"{GREEDY},{GREEDY}", "--debug", other]
    if other == "--human":
        args.append("0")
    assert_refused(run_cli(args), f"--debug and {other}")
