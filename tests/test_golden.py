"""Golden games: the stored games replay identically, and a rule change is caught."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cgsim.errors import CgsimError
from cgsim.games.cottage import turn
from cgsim.studies.golden import check_golden, default_games, first_difference, record_golden

GOLDEN = Path(__file__).parent / "golden"


def test_the_stored_golden_games_replay_identically() -> None:
    count, differences = check_golden(GOLDEN)
    assert count >= 18
    assert differences == [], [d.where for d in differences]


def test_golden_check_names_the_first_diverging_turn_of_a_one_line_rule_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record_golden(tmp_path, default_games(1, ["random"]))
    assert check_golden(tmp_path)[1] == []
    original = turn._row_empty_cells
    # The changed rule: refill the Gardener Row farthest cell first.
    monkeypatch.setattr(turn, "_row_empty_cells", lambda w: original(w)[::-1])
    count, differences = check_golden(tmp_path)
    assert count == 6
    assert differences, "a changed refill order must alter some golden game"
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
