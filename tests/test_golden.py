"""Golden games: the stored games replay identically, and a rule change is caught; the
stored playthroughs are played the same, and a rule change shows as a readable diff."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cgsim.cli import app, main
from cgsim.errors import CgsimError
from cgsim.games.cottage import record as cottage_record
from cgsim.games.cottage import rules as cottage_rules
from cgsim.games.cottage.components import Catalogue
from cgsim.games.cottage.settings import Settings
from cgsim.games.cottage.state import Rules
from cgsim.games.registry import get_game
from cgsim.studies.golden import (
    GoldenGame,
    check_golden,
    default_games,
    first_difference,
    play,
    playthrough_games,
    record_golden,
)
from cgsim.studies.playthrough import (
    check_playthroughs,
    play_through,
    playthrough_text,
    text_diff,
    write_playthroughs,
)

GOLDEN = Path(__file__).parent / "golden"
PLAYTHROUGHS = Path(__file__).parent / "playthroughs"


def refill_at_one_empty_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """The changed rule: the Gardener Row is refilled as soon as one of its cells is empty
    (instead of three). Made on the rules object the engine is handed (for games and for
    replays), so a compiled engine plays it too."""
    original = cottage_rules.make_rules

    def changed(players: int, settings: Settings, catalogue: Catalogue) -> Rules:
        rules = original(players, settings, catalogue)
        object.__setattr__(rules, "refill_mandatory", 1)
        return rules

    monkeypatch.setattr(cottage_rules, "make_rules", changed)
    monkeypatch.setattr(cottage_record, "make_rules", changed)


def test_the_stored_golden_games_replay_identically() -> None:
    count, differences = check_golden(GOLDEN)
    assert count >= 18
    assert differences == [], [d.where for d in differences]


def test_golden_check_names_the_first_diverging_turn_of_a_one_line_rule_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record_golden(tmp_path, default_games(1, ["random"]))
    assert check_golden(tmp_path)[1] == []
    refill_at_one_empty_cell(monkeypatch)
    count, differences = check_golden(tmp_path)
    assert count == 6
    assert differences, "a changed refill rule must alter some golden game"
    assert any("refill" in d.where for d in differences)
    assert all(d.where.startswith("turn ") for d in differences)


def test_first_difference_reports_turn_and_event() -> None:
    stored = {"turns": [{"n": 1, "events": [{"e": "take_pot", "bed": 0, "cell": [0, 0]}]}]}
    now = {"turns": [{"n": 1, "events": [{"e": "take_pot", "bed": 1, "cell": [0, 0]}]}]}
    where = first_difference(stored, now)
    assert where.startswith("turn 1 event 0: stored")


def test_a_folder_without_golden_games_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CgsimError, match="not a golden-games folder"):
        check_golden(tmp_path)


def test_golden_digests_name_seed_seats_settings_scores_and_hash(tmp_path: Path) -> None:
    record_golden(tmp_path, default_games(1, ["random"]))
    digest = json.loads((tmp_path / "golden.jsonl").read_text().splitlines()[0])
    assert {"seed", "seats", "rules", "variant", "scores", "hash", "end", "turns"} <= set(digest)


def test_the_stored_kitchen_garden_golden_games_replay_identically() -> None:
    count, differences = check_golden(Path(__file__).parent / "golden-kitchen")
    assert count == 6
    assert differences == [], [d.where for d in differences]


# ------------------------------------------------------------------- playthroughs


@pytest.mark.parametrize("name", sorted(playthrough_games()))
def test_the_stored_playthrough_is_played_the_same(name: str) -> None:
    stored = (PLAYTHROUGHS / f"{name}.txt").read_text(encoding="utf-8")
    diff = text_diff(stored, playthrough_text(name, playthrough_games()[name]), name)
    if diff:
        pytest.fail(f"playthrough {name} changed ('make golden' if on purpose):\n{diff}")


def test_every_stored_playthrough_has_a_setup() -> None:
    assert sorted(path.stem for path in PLAYTHROUGHS.glob("*.txt")) == sorted(playthrough_games())


def test_both_built_in_games_have_playthroughs() -> None:
    games = {golden.game for golden in playthrough_games().values()}
    assert games == {"cottage-garden", "kitchen-garden"}


@pytest.mark.parametrize("name", sorted(playthrough_games()))
def test_a_playthrough_plays_the_match_loops_game(name: str) -> None:
    golden = playthrough_games()[name]
    assert play_through(get_game(golden.game), golden).record == play(golden)


def test_a_playthrough_lists_turns_decisions_renderings_and_the_result() -> None:
    text = (PLAYTHROUGHS / "cottage-garden-2-players-a-child-of-5.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[1] == f"game: cottage-garden (engine {get_game('cottage-garden').info.version})"
    assert "== setup ==" in lines and "== turn 1 ==" in lines and "== final ==" in lines
    assert any(line.startswith("setup, seat 0, 1 legal: corners ") for line in lines)
    assert any(line.startswith("turn 1, seat 0, ") and " legal: take " in line for line in lines)
    assert lines[lines.index("== turn 1 ==") + 1].startswith("turn 1 - seat 0 to play")
    assert lines[-1].startswith("result: scores ")
    assert text.endswith("\n") and "\r" not in text


def test_a_one_line_rule_change_shows_in_a_playthrough_diff(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = (PLAYTHROUGHS / "cottage-garden-2-players.txt").read_text(encoding="utf-8")
    refill_at_one_empty_cell(monkeypatch)
    diff = text_diff(
        stored,
        playthrough_text(
            "cottage-garden-2-players", playthrough_games()["cottage-garden-2-players"]
        ),
        "x",
    )
    lines = diff.splitlines()
    assert lines[:2] == ["--- x (stored)", "+++ x (now)"]
    assert lines[2].startswith("@@ ")
    assert any(line.startswith(("-turn ", "+turn ")) for line in lines)
    assert len(lines) <= 61


def test_text_diff_is_empty_for_equal_texts_and_cut_when_long() -> None:
    assert text_diff("a\nb\n", "a\nb\n", "x") == ""
    many = "\n".join(str(i) for i in range(100))
    diff = text_diff(many, many.replace("\n", "\n-"), "x", limit=10).splitlines()
    assert len(diff) == 11 and diff[-1].endswith("more diff lines")


SMALL = {"solo": GoldenGame("cottage-garden", 1, {"solo": True}, {}, ("random",), 3)}


def test_check_playthroughs_names_changed_missing_and_left_over_files(tmp_path: Path) -> None:
    (path,) = write_playthroughs(tmp_path, SMALL)
    assert check_playthroughs(tmp_path, SMALL) == {}
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([*lines[:20], "tampered", *lines[20:]]) + "\n", encoding="utf-8")
    (tmp_path / "old.txt").write_text("# playthrough old: ...\n", encoding="utf-8")
    problems = check_playthroughs(tmp_path, SMALL)
    assert set(problems) == {"solo", "old"}
    assert "-tampered" in problems["solo"].splitlines()
    assert "no playthrough setup makes it" in problems["old"]
    path.unlink()
    assert "missing" in check_playthroughs(tmp_path, SMALL)["solo"]
    with pytest.raises(CgsimError, match="no such folder"):
        check_playthroughs(tmp_path / "nowhere", SMALL)


def test_writing_playthroughs_deletes_only_stale_playthroughs(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_text("# playthrough old: ...\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("my notes\n", encoding="utf-8")
    write_playthroughs(tmp_path, SMALL)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.txt", "solo.txt"]
    first = (tmp_path / "solo.txt").read_bytes()
    write_playthroughs(tmp_path, SMALL)
    assert (tmp_path / "solo.txt").read_bytes() == first


def test_golden_playthrough_command_writes_checks_and_rejects_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("cgsim.commands.studies.playthrough_games", lambda: SMALL)
    runner = CliRunner()
    written = runner.invoke(app, ["golden", "playthrough", "--out", str(tmp_path)])
    assert written.exit_code == 0 and "wrote 1 playthroughs" in written.output
    same = runner.invoke(app, ["golden", "playthrough", "--check", str(tmp_path)])
    assert same.exit_code == 0 and "all 1 playthroughs identical" in same.output
    (tmp_path / "solo.txt").write_text("# playthrough solo\n", encoding="utf-8")
    changed = runner.invoke(app, ["golden", "playthrough", "--check", str(tmp_path)])
    assert changed.exit_code == 1
    assert "changed: solo" in changed.output and "+++ solo (now)" in changed.output
    for args in ([], ["--out", str(tmp_path), "--check", str(tmp_path)]):
        monkeypatch.setattr("sys.argv", ["cgsim", "golden", "playthrough", *args])
        with pytest.raises(SystemExit) as exit_info:
            main()
        assert exit_info.value.code == 2
        assert capsys.readouterr().err == (
            "error: give either --out FOLDER (write) or --check FOLDER (compare)\n"
        )
