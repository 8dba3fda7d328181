"""The single-game commands: play, replay, golden, and their errors (exit 2, one line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import toygame
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.commands.engine import parse_rule_overrides, parse_variant_options
from cgsim.errors import CgsimError, ConfigError, RecordError
from cgsim.play.bot_registry import split_bot_list

toygame.register()
runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_play_prints_the_result_table_and_writes_a_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out = invoke(
        "play", "--players", "3", "--bots", "random", "--seed", "7", "--record", str(record)
    )
    assert code == 0, out
    assert "seat" in out and "end:" in out
    data = json.loads(record.read_text())
    assert data["format"] == "cgsim.record/1" and data["players"] == 3 and data["seed"] == 7


def test_play_show_renders_every_turn() -> None:
    code, out = invoke("play", "--players", "1", "--seed", "2", "--show")
    assert code == 0, out
    assert "=== turn 1 ===" in out and "=== final ===" in out and "bed 0 board" in out


def test_play_with_children_and_rule_overrides() -> None:
    code, out = invoke(
        "play",
        "--players",
        "2",
        "--variant",
        "children=5,none",
        "--rule",
        "cat_limit=3",
        "--seed",
        "4",
    )
    assert code == 0, out


def test_games_lists_each_declaration() -> None:
    code, out = invoke("games")
    assert code == 0, out
    assert "cottage-garden: Cottage Garden" in out and "kitchen-garden: Kitchen Garden" in out
    assert "variant option children: children's variant" in out
    assert "ladder, weakest first: random, greedy, study" in out


def test_replay_renders_a_chosen_turn(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert invoke("play", "--seed", "5", "--record", str(record))[0] == 0
    code, out = invoke("replay", str(record), "--turn", "10")
    assert code == 0, out
    assert "=== turn 10 ===" in out and "=== turn 11 ===" not in out
    assert "[" in out  # the Gardener Row is marked


def test_replay_stops_at_the_first_event_that_does_not_match(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert invoke("play", "--seed", "5", "--record", str(record))[0] == 0
    data = json.loads(record.read_text())
    for turn in data["turns"]:
        for event in turn["events"]:
            if event["e"] == "take_pot":
                event["bed"] = 1 - event["bed"]
                break
        else:
            continue
        break
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code != 0
    assert isinstance(result.exception, RecordError)
    assert str(result.exception).startswith(f"{record}: ")


def test_replay_of_a_missing_turn_is_a_user_error(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert invoke("play", "--seed", "5", "--record", str(record))[0] == 0
    result = runner.invoke(app, ["replay", str(record), "--turn", "999"])
    assert isinstance(result.exception, ConfigError)
    message = str(result.exception)
    assert message.startswith("--turn 999: the record shows turns 1 to 65, except 30, 31,")
    assert message.endswith("(turns without a decision, shown with the turn before)")


def test_a_game_ending_in_error_exits_1() -> None:
    bots = f"{toygame.target(toygame.Greedy)},{toygame.target(toygame.Crash)}"
    code, out = invoke("play", "--game", "toy", "--bots", bots)
    assert code == 1
    assert "game ended in error: seat 1 (toygame:Crash): ValueError: boom" in out
    assert "end: error" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("play", "--players", "5"), "--players 5"),
        (("play", "--bots", "nobody"), "unknown bot 'nobody'"),
        (("play", "--players", "2", "--bots", "random,random,random"), "gives 3 bots"),
        (("play", "--rule", "cat_limt=3"), "unknown rule setting 'cat_limt'"),
        (("play", "--rule", "cat_limit=-1"), "rules.cat_limit"),
        (("play", "--variant", "children=9,none"), "age 9"),
        (("play", "--variant", "children=5,grown-up"), "age 'grown-up'"),
        (("play", "--variant", "children"), "expected NAME=VALUE"),
        (("play", "--variant", "teams=2"), "allowed: solo, children"),
        (
            ("play", "--game", "kitchen-garden", "--variant", "children=5,none"),
            "allowed: none",
        ),
        (("play", "--game", "chess"), "unknown game 'chess'"),
    ],
)
def test_bad_input_is_one_clear_error(args: tuple[str, ...], message: str) -> None:
    result = runner.invoke(app, list(args))
    assert result.exit_code != 0
    assert isinstance(result.exception, CgsimError)
    assert message in str(result.exception) + result.output


def test_records_that_are_not_json_or_not_records_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    result = runner.invoke(app, ["replay", str(bad)])
    assert "not JSON" in str(result.exception)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "something/2"}))
    result = runner.invoke(app, ["replay", str(other)])
    assert "format is 'something/2', not a known record format" in str(result.exception)


def test_the_console_script_turns_user_errors_into_exit_code_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cgsim import cli

    monkeypatch.setattr("sys.argv", ["cgsim", "play", "--players", "9"])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_the_console_script_turns_ctrl_c_into_exit_code_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cgsim import cli

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "app", interrupted)
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_bad_bot_lists_and_rule_overrides_name_the_option() -> None:
    with pytest.raises(ConfigError, match=r"^--bots 'random,,random': empty bot name$"):
        split_bot_list("random,,random")
    with pytest.raises(ConfigError, match=r"^--rule 'nonsense': expected NAME=VALUE$"):
        parse_rule_overrides(["nonsense"])
    with pytest.raises(ConfigError, match=r"^--rule '=3': expected NAME=VALUE$"):
        parse_rule_overrides(["=3"])


def test_split_bot_list_keeps_parameters_with_their_bot() -> None:
    assert split_bot_list("random,greedy:pots=1.5,cats=2,random") == [
        "random",
        "greedy:pots=1.5,cats=2",
        "random",
    ]
    with pytest.raises(ConfigError):
        split_bot_list("random,,random")


def test_rule_overrides_and_children_parsing() -> None:
    assert parse_rule_overrides(["cat_limit=3", "beehives=[3,1]", "solo=false"]) == {
        "cat_limit": 3,
        "beehives": [3, 1],
        "solo": False,
    }
    assert parse_variant_options(["children=5,none,7", "solo=true"]) == {
        "children": [5, "none", 7],
        "solo": True,
    }
    with pytest.raises(ConfigError):
        parse_rule_overrides(["nonsense"])
