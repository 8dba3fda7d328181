"""Sequential tests: planted changes are detected, no change is accepted as such at the
stated error rate, and paired game batches decide real setups."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from cgsim.games.contract import Schema
from cgsim.play.config import load_config
from cgsim.reporting.metrics import game_metrics
from cgsim.studies.sequential import (
    SprtSettings,
    SprtSettingsError,
    TwoSidedSprt,
    metric_differences,
    run_sequential,
    sprt_compare,
)


def synthetic_run(delta: float, seed: int, settings: SprtSettings) -> str:
    rng = np.random.default_rng(seed)
    outcome = run_sequential(
        lambda start, stop: rng.normal(delta, 3.0, size=stop - start), settings
    )
    return outcome.decision


SETTINGS = SprtSettings(
    metric="x", h0=0.0, h1=1.0, alpha=0.05, beta=0.05, batch=20, max_games=20_000
)


def test_a_planted_change_is_detected_in_either_direction() -> None:
    ups = [synthetic_run(1.0, seed, SETTINGS) for seed in range(20)]
    downs = [synthetic_run(-1.0, 100 + seed, SETTINGS) for seed in range(20)]
    assert ups.count("H1") >= 16  # beta 0.05: about 1 miss expected
    assert downs.count("H1") >= 16


def test_no_change_is_accepted_at_the_stated_false_positive_rate() -> None:
    decisions = [synthetic_run(0.0, 1000 + seed, SETTINGS) for seed in range(100)]
    assert decisions.count("H1") <= 10  # alpha 0.05: about 5 expected
    assert decisions.count("H0") >= 85


def test_identical_differences_accept_h0_at_once() -> None:
    test = TwoSidedSprt(SETTINGS)
    step = test.update(np.zeros(10), 10)
    assert step.decision == "H0"


def test_settings_are_checked() -> None:
    with pytest.raises(SprtSettingsError, match="h0"):
        SprtSettings(h0=2.0, h1=1.0)
    with pytest.raises(SprtSettingsError, match="alpha"):
        SprtSettings(alpha=0.0)
    with pytest.raises(SprtSettingsError, match="batch"):
        SprtSettings(batch=0)


def test_paired_games_decide_identical_and_changed_setups() -> None:
    base = load_config("configs/smoke.toml")
    same = sprt_compare(
        base, base, SprtSettings("mean_score", 0.0, 1.0, batch=20, max_games=200), workers=1
    )
    assert same.outcome.decision == "H0"
    assert same.outcome.games == 20
    changed = load_config("configs/smoke.toml", {"rules": {"start_cats": 0, "cat_limit": 0}})
    lines: list[str] = []
    run = sprt_compare(
        base,
        changed,
        SprtSettings("cats_used", 0.0, 0.5, batch=20, max_games=400),
        workers=1,
        echo=lines.append,
    )
    assert run.outcome.decision == "H1"
    assert "LLR" in lines[0]
    assert run.tables_a["games"].height == run.outcome.games


def test_an_unknown_metric_names_the_available_ones() -> None:
    games = pl.DataFrame(
        {
            "game_id": [0],
            "block": [0],
            "seed": [1],
            "players": [2],
            "turns": [10],
            "end": ["normal"],
            "winners": [[0]],
        }
    )
    seats = pl.DataFrame(
        {"game_id": [0, 0], "seat": [0, 1], "bot": ["x", "x"], "score": [5.0, 3.0]}
        | {"win_share": [1.0, 0.0]}
    )
    metrics = game_metrics(games, seats, Schema())
    with pytest.raises(
        SprtSettingsError, match=r"--metric 'nonsense': unknown; available: .*turns"
    ):
        metric_differences(metrics, metrics, "nonsense")
