"""The regression gate: identical golden games stop it; otherwise paired sequential tests
accept an unchanged engine and catch a planted regression."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cgsim.api import simulate
from cgsim.play.config import load_config
from cgsim.studies.golden import default_games, record_golden
from cgsim.studies.regress import RegressError, regress


def baseline(tmp_path: Path) -> Path:
    folder = tmp_path / "base"
    record_golden(folder / "golden", default_games(1, ["random"])[:2])
    simulate("configs/smoke.toml", games=40, workers=1, out=folder / "results")
    return folder


def spoil_a_digest(golden: Path) -> None:
    path = golden / "golden.jsonl"
    lines = path.read_text().splitlines()
    digest = json.loads(lines[0])
    digest["hash"] = "0" * 64
    lines[0] = json.dumps(digest)
    path.write_text("\n".join(lines) + "\n")


def test_identical_golden_games_stop_the_gate(tmp_path: Path) -> None:
    folder = baseline(tmp_path)
    outcome = regress(folder / "golden", {"mean_score": 1.0})
    assert outcome.golden_games == 2 and not outcome.golden_changed
    assert outcome.decisions == {}


def test_an_unchanged_engine_passes_and_a_planted_regression_is_caught(tmp_path: Path) -> None:
    folder = baseline(tmp_path)
    spoil_a_digest(folder / "golden")
    results = folder / "results" / "smoke"
    same = regress(folder / "golden", {"mean_score": 1.0}, results=results, batch=20, workers=1)
    assert same.golden_changed and same.decisions == {"mean_score": "H0"}
    changed = load_config("configs/smoke.toml", {"rules": {"start_cats": 0, "cat_limit": 0}})
    caught = regress(
        folder / "golden",
        {"cats_used": 0.5},
        config=changed,
        results=results,
        batch=20,
        workers=1,
    )
    assert caught.regressions == ["cats_used"]


def test_a_changed_gate_without_a_baseline_run_is_a_clear_error(tmp_path: Path) -> None:
    golden = tmp_path / "golden"
    record_golden(golden, default_games(1, ["random"])[:1])
    spoil_a_digest(golden)
    with pytest.raises(RegressError, match="--results"):
        regress(golden, {"mean_score": 1.0})


def test_a_changed_gate_without_metrics_asks_for_them(tmp_path: Path) -> None:
    folder = baseline(tmp_path)
    spoil_a_digest(folder / "golden")
    with pytest.raises(RegressError, match=r"name the metrics to test, e\.g\. --metric"):
        regress(folder / "golden", {}, results=folder / "results" / "smoke", workers=1)
