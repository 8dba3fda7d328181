"""Games told as text: the notation legend, the moves of each turn in words, the turns a
record shows, records counted from 1, and the result's units and end meaning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.errors import ConfigError
from cgsim.games.contract import raw_event
from cgsim.games.cottage import describe as cottage_describe
from cgsim.games.cottage import record_schema as cottage_schema
from cgsim.games.kitchen import describe as kitchen_describe
from cgsim.games.kitchen import record_schema as kitchen_schema
from cgsim.games.kitchen.cards import load_catalogue
from cgsim.games.narrate import legend_lines
from cgsim.games.registry import get_game

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_every_recorded_event_kind_has_a_sentence() -> None:
    cottage = set(cottage_describe._event_texts({}))
    assert set(cottage_schema.EVENT.shapes) <= cottage
    kitchen = set(kitchen_describe._event_texts(load_catalogue()))
    assert set(kitchen_schema.EVENT.shapes) - {"turn"} <= kitchen


@pytest.mark.parametrize("game", ["cottage-garden", "kitchen-garden"])
def test_each_game_explains_its_notation_and_its_endings(game: str) -> None:
    info = get_game(game).info
    words = {term.word for term in info.notation}
    assert "score" in words
    assert {term.word for term in info.ends} >= {"normal", "aborted"}
    assert info.score_unit.label().startswith("points")
    assert all(len(line) <= 100 for line in legend_lines(info))


def test_play_show_prints_the_legend_once_and_the_moves_of_every_turn() -> None:
    code, out = invoke("play", "--players", "2", "--bots", "greedy,random", "--seed", "7", "--show")
    assert code == 0, out
    assert out.count("Notation of Cottage Garden:") == 1
    assert "T20 is" in out and "light side (l)" in out
    assert "--- played in turn 1:\n  seat 0 plants tile 6G-1 from nursery [3,0] on bed 1" in out
    assert "the gardener moves to space 1, value 2" in out
    assert "=== final ===" in out


def test_play_prints_whole_ranks_the_score_unit_and_what_the_end_means() -> None:
    code, out = invoke("play", "--players", "2", "--bots", "greedy,random", "--seed", "7")
    assert code == 0, out
    assert "0     greedy     71     1  *" in out and "1     random     27     2" in out
    assert "score: points (cube values plus beehives)" in out
    assert "end: normal, turns: 66, seed: 7\n  normal: the final round was played" in out


def test_a_kitchen_replay_tells_a_skipped_turn_under_the_turn_before(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ("--game", "kitchen-garden", "--bots", "kitchen-greedy,random", "--seed", "3")
    assert invoke("play", *args, "--record", str(record))[0] == 0
    code, out = invoke("replay", str(record), "--turn", "2")
    assert code == 0, out
    assert "Notation of Kitchen Garden:" in out and "a plant card" in out
    assert "seat 1 lays a Sluggard before seat 0" in out
    assert "--- played in turn 3:\n  seat 0 skips this turn (Sluggard)" in out
    assert "score: points (100 per plant, +1 per full bed)" in out
    result = runner.invoke(app, ["replay", str(record), "--turn", "3"])
    assert isinstance(result.exception, ConfigError)
    assert str(result.exception) == (
        "--turn 3: the record shows turns 1 to 55, except 3, 5, 17 "
        "(turns without a decision, shown with the turn before)"
    )
    assert "Notation" not in result.output  # nothing is printed before the error


def test_replay_counts_the_records_of_a_file_from_1_as_its_messages_do(tmp_path: Path) -> None:
    records = []
    for seed in (1, 2):
        path = tmp_path / f"g{seed}.json"
        assert invoke("play", "--seed", str(seed), "--record", str(path))[0] == 0
        records.append(json.loads(path.read_text()))
    lines = tmp_path / "two.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out = invoke("replay", str(lines), "--index", "2", "--turn", "1")
    assert code == 0, out
    first = get_game("cottage-garden").render(
        next(iter(get_game("cottage-garden").replay(records[1])))[1]
    )
    assert first in out
    result = runner.invoke(app, ["replay", str(lines), "--index", "3"])
    assert str(result.exception).endswith("has no record 3; it holds 2 records (1 to 2)")


def test_an_event_without_a_sentence_is_shown_with_its_fields() -> None:
    record = {"rules": {}, "turns": [{"n": 1, "seat": 0, "events": [{"e": "new", "x": 1}]}]}
    assert cottage_describe.describe_turns(record) == {1: [raw_event({"e": "new", "x": 1})]}
    assert raw_event({"e": "new", "x": 1}) == "new: x=1"
