"""Sensitivity: a knob that matters is found and ranked first, a knob that cannot matter
is found to matter at no more than the stated error rate, and the report is written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest
import toygame
from cli_helpers import assert_refused, run_cli

from cgsim.errors import ConfigError
from cgsim.play.config import RunConfig, validate_config
from cgsim.studies.sensitivity import knob_steps, run_sensitivity, write_sensitivity_report

toygame.register()


def make_config(out: Path, **fields: Any) -> RunConfig:
    base: dict[str, Any] = {
        "name": "sens",
        "game": "toy",
        "players": 2,
        "seats": [toygame.target(toygame.Wanderer), toygame.target(toygame.Wanderer)],
        "games": 60,
        "seed": 5,
        "workers": 1,
        "out": out,
        "sensitivity": {"knobs": ["max_take", "decor"], "interactions": 2},
    }
    return validate_config(base | fields)


def test_knobs_are_the_numeric_settings_unless_listed(tmp_path: Path) -> None:
    every = knob_steps(make_config(tmp_path, sensitivity={}))
    assert set(every) == {"rounds", "max_take", "explode", "decor"}
    assert every["max_take"] == (3, 1)
    listed = knob_steps(
        make_config(tmp_path, sensitivity={"knobs": ["rounds"], "steps": {"rounds": 2}})
    )
    assert listed == {"rounds": (4, 2)}
    with pytest.raises(ConfigError, match="not a numeric rule setting"):
        knob_steps(make_config(tmp_path, sensitivity={"knobs": ["solo"]}))
    with pytest.raises(ConfigError, match=r"sensitivity\.bogus"):
        knob_steps(make_config(tmp_path, sensitivity={"bogus": 1}))


def test_the_knob_that_matters_is_found_and_the_other_is_not(tmp_path: Path) -> None:
    config = make_config(tmp_path)
    study = run_sensitivity(config, progress=False)
    scores = study.effects.filter(pl.col("metric") == "mean_score")
    take = scores.filter(pl.col("knob") == "max_take")
    assert take["verdict"].to_list() == ["changed", "changed"]
    down, up = take["difference"].to_list()
    assert down < 0 < up
    assert (study.effects.filter(pl.col("knob") == "decor")["verdict"] == "no change").all()
    assert study.interactions["first"].unique().to_list() == ["max_take"]
    paths = write_sensitivity_report(config, study, tmp_path / "sens")
    assert (tmp_path / "sens" / "plots" / "tornado-mean_score.png").is_file()
    assert "max_take" in paths["markdown"].read_text()
    again = run_sensitivity(config, progress=False)
    assert again.effects.equals(study.effects)


def test_a_knob_that_cannot_matter_is_not_flagged(tmp_path: Path) -> None:
    # decor changes every deal and nothing else; Holm runs over every metric, knob and
    # direction, so each null study flags anything with a chance of at most 5%.
    for seed in (1, 2):
        config = make_config(
            tmp_path / str(seed),
            seed=seed,
            games=30,
            sensitivity={"knobs": ["decor"], "interactions": 0},
        )
        study = run_sensitivity(config, progress=False)
        assert (study.effects["verdict"] == "no change").all()
        assert float(study.effects["p_holm"].min()) > 0.05  # type: ignore[arg-type]


def test_a_range_end_is_skipped_and_bad_input_refused(tmp_path: Path) -> None:
    config = make_config(
        tmp_path, games=6, sensitivity={"knobs": ["max_take"], "steps": {"max_take": 3}}
    )
    assert knob_steps(config) == {"max_take": (3, 3)}
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\n[sensitivity]\nknobs = ["nope"]\n')
    assert_refused(run_cli(["sensitivity", str(bad)]), "nope")
