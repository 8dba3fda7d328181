"""Tuning: the search finds a planted optimum of a cheap noisy objective, deterministically,
and tuning declarations are validated with clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from cgsim.errors import ConfigError
from cgsim.games.contract import Schema
from cgsim.play.config import load_config, with_overrides
from cgsim.studies.tune import (
    Target,
    TuneError,
    candidate_config,
    candidates_of,
    successive_halving,
    total_loss,
    tune_config,
    tune_spec,
    write_tune_report,
)


def noisy_turns(candidate: dict[str, int], start: int, stop: int) -> pl.DataFrame:
    """Per-game 'turns' around 10 * x + y with noise; the same game ids share the noise."""
    ids = np.arange(start, stop)
    noise = np.array([np.random.default_rng(int(i)).normal(0, 6.0) for i in ids])
    return pl.DataFrame(
        {
            "game_id": ids,
            "block": ids,
            "seed": ids,
            "players": 2,
            "turns": 10.0 * candidate["x"] + candidate["y"] + noise,
        }
    )


def test_successive_halving_finds_the_planted_optimum() -> None:
    candidates = [{"x": x, "y": y} for x in range(10) for y in (0, 3)]
    targets = {"turns": Target(target=53.0, tolerance=0.5)}
    result = successive_halving(
        candidates, noisy_turns, targets, games=8, rounds=5, schema=Schema()
    )
    assert result.best == {"x": 5, "y": 3}
    again = successive_halving(candidates, noisy_turns, targets, games=8, rounds=5, schema=Schema())
    assert again.path.equals(result.path)
    first_round = result.path.filter(pl.col("round") == 1)
    assert first_round.height == 20 and first_round["kept"].sum() == 10


def test_the_loss_counts_only_the_excess_over_the_tolerance() -> None:
    targets = {"turns": Target(target=60, tolerance=2), "margin": Target(target=5, weight=2)}
    assert total_loss({"turns": 61.0, "margin": 5.0}, targets) == 0.0
    assert total_loss({"turns": 64.0, "margin": 6.0}, targets) == pytest.approx(1.0 + 2.0)
    assert total_loss({"margin": 5.0}, targets) == float("inf")


def spec_config(tmp_path: Path, tune: dict[str, object]):  # type: ignore[no-untyped-def]
    base = load_config("configs/smoke.toml", {"out": tmp_path, "workers": 1})
    return with_overrides(base, {"tune": tune})


GOOD = {
    "games": 4,
    "rounds": 2,
    "free": {"cat_limit": {"min": 0, "max": 2}, "start_cats": [0, 2]},
    "targets": {"cats_used": 0.0, "seat_fairness": {"target": 0, "tolerance": 0.02}},
}


def test_declarations_validate_and_draw_candidates_with_the_seed(tmp_path: Path) -> None:
    spec = tune_spec(spec_config(tmp_path, GOOD))
    assert len(candidates_of(spec)) == 6
    small = tune_spec(spec_config(tmp_path, {**GOOD, "candidates": 3, "seed": 5}))
    assert candidates_of(small) == candidates_of(small)
    assert len(candidates_of(small)) == 3
    with pytest.raises(ConfigError, match="max"):
        tune_spec(spec_config(tmp_path, {**GOOD, "free": {"cat_limit": {"min": 3, "max": 1}}}))
    with pytest.raises(ConfigError, match="targets"):
        tune_spec(spec_config(tmp_path, {**GOOD, "targets": {}}))
    with pytest.raises(TuneError, match=r"no \[tune\] table"):
        tune_spec(spec_config(tmp_path, {}))


def test_tuning_real_games_prefers_settings_without_cats(tmp_path: Path) -> None:
    config = spec_config(tmp_path, GOOD)
    result = tune_config(config, workers=1)
    assert result.best["start_cats"] == 0 or result.best["cat_limit"] == 0
    paths = write_tune_report(config, tune_spec(config), result, tmp_path / "tune")
    assert "Search path" in paths["markdown"].read_text()
    bad = spec_config(tmp_path, {**GOOD, "targets": {"nonsense": 1.0}})
    with pytest.raises(TuneError, match="nonsense"):
        tune_config(bad, workers=1)


def test_empty_free_settings_and_choices_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="name at least one rule setting"):
        tune_spec(spec_config(tmp_path, {**GOOD, "free": {}}))
    with pytest.raises(ConfigError, match=r"tune\.free\.start_cats: an empty list of choices"):
        tune_spec(spec_config(tmp_path, {**GOOD, "free": {"start_cats": []}}))
    with pytest.raises(TuneError, match="no candidates to search"):
        successive_halving([], noisy_turns, GOOD_TARGETS, games=1, rounds=1, schema=Schema())


def test_a_candidate_the_rules_refuse_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="tune candidate cat_limit=-1: "):
        candidate_config(spec_config(tmp_path, GOOD), {"cat_limit": -1})


GOOD_TARGETS = {"turns": Target(target=1.0)}
